/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/* The two implementations of struct timer_ops. */

#include <errno.h>

#include <rte_errno.h>
#include <rte_event_timer_adapter.h>

#include <swtim.h>

#include "timer_ops.h"

/* swtim */

static void *
sw_create(const struct rte_event_timer_adapter_conf *conf,
	  rte_event_timer_adapter_port_conf_cb_t port_cb, void *port_arg,
	  const char *driver, const char *args)
{
	return swtim_adapter_create_with_driver(conf, port_cb, port_arg,
		driver != NULL && driver[0] != '\0' ? driver : NULL,
		args != NULL && args[0] != '\0' ? args : NULL);
}

static int
sw_get_info(void *a, struct rte_event_timer_adapter_info *info)
{
	return swtim_adapter_get_info(a, info);
}

static int
sw_start(void *a)
{
	return swtim_adapter_start(a);
}

static int
sw_stop(void *a)
{
	return swtim_adapter_stop(a);
}

static int
sw_free(void *a)
{
	return swtim_adapter_free(a);
}

static uint16_t
sw_arm_burst(void *a, struct rte_event_timer **tims, uint16_t nb)
{
	return swtim_arm_burst(a, tims, nb);
}

static uint16_t
sw_arm_tmo_tick_burst(void *a, struct rte_event_timer **tims, uint64_t ticks,
		      uint16_t nb)
{
	return swtim_arm_tmo_tick_burst(a, tims, ticks, nb);
}

static uint16_t
sw_cancel_burst(void *a, struct rte_event_timer **tims, uint16_t nb)
{
	return swtim_cancel_burst(a, tims, nb);
}

static int
sw_stats_get(void *a, struct rte_event_timer_adapter_stats *stats)
{
	return swtim_adapter_stats_get(a, stats);
}

static int
sw_service_id_get(void *a, uint32_t *id)
{
	return swtim_adapter_service_id_get(a, id);
}

static int
sw_port_add(void *a, uint8_t port)
{
	return swtim_adapter_port_add(a, port);
}

const struct timer_ops timer_ops_swtim = {
	.name = "swtim",
	.create = sw_create,
	.get_info = sw_get_info,
	.start = sw_start,
	.stop = sw_stop,
	.free = sw_free,
	.arm_burst = sw_arm_burst,
	.arm_tmo_tick_burst = sw_arm_tmo_tick_burst,
	.cancel_burst = sw_cancel_burst,
	.stats_get = sw_stats_get,
	.service_id_get = sw_service_id_get,
	.port_add = sw_port_add,
};

/* DPDK's rte_event_timer_adapter */

static void *
dp_create(const struct rte_event_timer_adapter_conf *conf,
	  rte_event_timer_adapter_port_conf_cb_t port_cb, void *port_arg,
	  const char *driver, const char *args)
{
	RTE_SET_USED(driver);
	RTE_SET_USED(args);
	if (port_cb == NULL)
		return rte_event_timer_adapter_create(conf);
	return rte_event_timer_adapter_create_ext(conf, port_cb, port_arg);
}

static int
dp_get_info(void *a, struct rte_event_timer_adapter_info *info)
{
	return rte_event_timer_adapter_get_info(a, info);
}

static int
dp_start(void *a)
{
	return rte_event_timer_adapter_start(a);
}

static int
dp_stop(void *a)
{
	return rte_event_timer_adapter_stop(a);
}

static int
dp_free(void *a)
{
	return rte_event_timer_adapter_free(a);
}

static uint16_t
dp_arm_burst(void *a, struct rte_event_timer **tims, uint16_t nb)
{
	return rte_event_timer_arm_burst(a, tims, nb);
}

static uint16_t
dp_arm_tmo_tick_burst(void *a, struct rte_event_timer **tims, uint64_t ticks,
		      uint16_t nb)
{
	return rte_event_timer_arm_tmo_tick_burst(a, tims, ticks, nb);
}

static uint16_t
dp_cancel_burst(void *a, struct rte_event_timer **tims, uint16_t nb)
{
	return rte_event_timer_cancel_burst(a, tims, nb);
}

static int
dp_stats_get(void *a, struct rte_event_timer_adapter_stats *stats)
{
	return rte_event_timer_adapter_stats_get(a, stats);
}

static int
dp_service_id_get(void *a, uint32_t *id)
{
	struct rte_event_timer_adapter_info info;

	/* Adapters with an internal port (hardware) have no service. */
	if (rte_event_timer_adapter_get_info(a, &info) == 0 &&
	    (info.caps & RTE_EVENT_TIMER_ADAPTER_CAP_INTERNAL_PORT))
		return -ESRCH;
	return rte_event_timer_adapter_service_id_get(a, id);
}

const struct timer_ops timer_ops_dpdk = {
	.name = "dpdk",
	.create = dp_create,
	.get_info = dp_get_info,
	.start = dp_start,
	.stop = dp_stop,
	.free = dp_free,
	.arm_burst = dp_arm_burst,
	.arm_tmo_tick_burst = dp_arm_tmo_tick_burst,
	.cancel_burst = dp_cancel_burst,
	.stats_get = dp_stats_get,
	.service_id_get = dp_service_id_get,
};
