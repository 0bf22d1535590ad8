/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef DROPIN_API_H
#define DROPIN_API_H

/**
 * @file
 * DPDK's timer adapter control calls as a table, filled by symbol name at
 * DPDK's symbol version: how libswtim_dropin reaches DPDK's own
 * adapter (the next definitions, behind its own), and how swtim-bench
 * reaches libswtim_dropin's (loaded RTLD_LOCAL beside librte_eventdev).
 * Not installed.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_event_timer_adapter.h>

/**
 * The symbol version of the timer adapter's stable names in the DPDK
 * built against: DPDK_<ABI> (SWTIM_DPDK_ABI, from meson.build).
 */
#define DROPIN_DPDK_VERSION "DPDK_" RTE_STR(SWTIM_DPDK_ABI)

/** The symbol version of DPDK's experimental names. */
#define DROPIN_DPDK_EXPERIMENTAL "EXPERIMENTAL"

/** The soname of the librte_eventdev built against. */
#define DROPIN_EVENTDEV_SONAME "librte_eventdev.so." RTE_STR(SWTIM_DPDK_ABI)

/** One implementation's rte_event_timer_adapter_* control calls. */
struct dropin_api {
	struct rte_event_timer_adapter *(*create)(
		const struct rte_event_timer_adapter_conf *conf);
	struct rte_event_timer_adapter *(*create_ext)(
		const struct rte_event_timer_adapter_conf *conf,
		rte_event_timer_adapter_port_conf_cb_t conf_cb,
		void *conf_arg);
	int (*get_info)(const struct rte_event_timer_adapter *adapter,
			struct rte_event_timer_adapter_info *adapter_info);
	int (*start)(const struct rte_event_timer_adapter *adapter);
	int (*stop)(const struct rte_event_timer_adapter *adapter);
	struct rte_event_timer_adapter *(*lookup)(uint16_t adapter_id);
	int (*free)(struct rte_event_timer_adapter *adapter);
	int (*service_id_get)(struct rte_event_timer_adapter *adapter,
			      uint32_t *service_id);
	int (*stats_get)(struct rte_event_timer_adapter *adapter,
			 struct rte_event_timer_adapter_stats *stats);
	int (*stats_reset)(struct rte_event_timer_adapter *adapter);
	int (*caps_get)(uint8_t dev_id, uint32_t *caps);
};

/**
 * Each field of struct dropin_api and the DPDK function it holds, as
 * X(field, function): to fill a table from names, or from DPDK's own
 * definitions at build time.
 */
#define DROPIN_API_CALLS(X) \
	X(create, rte_event_timer_adapter_create) \
	X(create_ext, rte_event_timer_adapter_create_ext) \
	X(get_info, rte_event_timer_adapter_get_info) \
	X(start, rte_event_timer_adapter_start) \
	X(stop, rte_event_timer_adapter_stop) \
	X(lookup, rte_event_timer_adapter_lookup) \
	X(free, rte_event_timer_adapter_free) \
	X(service_id_get, rte_event_timer_adapter_service_id_get) \
	X(stats_get, rte_event_timer_adapter_stats_get) \
	X(stats_reset, rte_event_timer_adapter_stats_reset) \
	X(caps_get, rte_event_timer_adapter_caps_get)

/**
 * Fill api with what sym(name, arg) finds for each call's name.
 *
 * @return
 *   true, or false at the first name sym() finds nothing for (sym() says
 *   why; api is then partly filled).
 */
static inline bool
dropin_api_resolve(struct dropin_api *api,
		   void *(*sym)(const char *name, void *arg), void *arg)
{
#define DROPIN_API_RESOLVE(field, function) \
	*(void **)&api->field = sym(#function, arg); \
	if (api->field == NULL) \
		return false;
	DROPIN_API_CALLS(DROPIN_API_RESOLVE)
#undef DROPIN_API_RESOLVE
	return true;
}

#endif /* DROPIN_API_H */
