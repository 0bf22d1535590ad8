/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef TIMER_OPS_H
#define TIMER_OPS_H

/**
 * @file
 * The timer adapter under test, behind a small table of functions: one
 * implementation calls swtim, the other DPDK's rte_event_timer_adapter.
 * Both take DPDK's own types (conf, info, stats, rte_event_timer); only
 * the adapter handle differs, hence the void pointers. Both go through
 * one indirect call per arm call, so neither is favoured.
 */

#include <stdint.h>

#include <rte_event_timer_adapter.h>

struct timer_ops {
	const char *name;
	/*
	 * NULL with rte_errno set on failure. port_cb/port_arg give the
	 * adapter its event port (as _create_ext()); driver and args are
	 * swtim's only.
	 */
	void *(*create)(const struct rte_event_timer_adapter_conf *conf,
			rte_event_timer_adapter_port_conf_cb_t port_cb,
			void *port_arg, const char *driver, const char *args);
	int (*get_info)(void *adapter,
			struct rte_event_timer_adapter_info *info);
	int (*start)(void *adapter);
	int (*stop)(void *adapter);
	int (*free)(void *adapter);
	uint16_t (*arm_burst)(void *adapter, struct rte_event_timer **tims,
			      uint16_t nb);
	uint16_t (*arm_tmo_tick_burst)(void *adapter,
				       struct rte_event_timer **tims,
				       uint64_t timeout_ticks, uint16_t nb);
	uint16_t (*cancel_burst)(void *adapter, struct rte_event_timer **tims,
				 uint16_t nb);
	int (*stats_get)(void *adapter,
			 struct rte_event_timer_adapter_stats *stats);
	/* 0, or -ESRCH when the adapter needs no service. */
	int (*service_id_get)(void *adapter, uint32_t *service_id);
	/* Another event port, before start; NULL: one port only. */
	int (*port_add)(void *adapter, uint8_t port);
};

extern const struct timer_ops timer_ops_swtim;
extern const struct timer_ops timer_ops_dpdk;

#endif /* TIMER_OPS_H */
