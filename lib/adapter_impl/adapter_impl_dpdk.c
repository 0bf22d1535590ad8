/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * adapter_impl_dpdk: DPDK's rte_event_timer_adapter API behind struct
 * adapter_impl, as this program links it. Each entry calls DPDK's
 * function of the same name; the fast path ones are DPDK's inline calls,
 * through the handle's own function pointers.
 */

#include <rte_common.h>
#include <rte_event_timer_adapter.h>

#include "adapter_impl.h"
#include "swtim_dpdk_compat.h"

static void *
dpdk_impl_create(const struct rte_event_timer_adapter_conf *conf)
{
	return rte_event_timer_adapter_create(conf);
}

static void *
dpdk_impl_create_ext(const struct rte_event_timer_adapter_conf *conf,
		     rte_event_timer_adapter_port_conf_cb_t conf_cb,
		     void *conf_arg)
{
	return rte_event_timer_adapter_create_ext(conf, conf_cb, conf_arg);
}

static int
dpdk_impl_get_info(const void *adapter,
		   struct rte_event_timer_adapter_info *adapter_info)
{
	return rte_event_timer_adapter_get_info(adapter, adapter_info);
}

static int
dpdk_impl_start(const void *adapter)
{
	return rte_event_timer_adapter_start(adapter);
}

static int
dpdk_impl_stop(const void *adapter)
{
	return rte_event_timer_adapter_stop(adapter);
}

static void *
dpdk_impl_lookup(uint16_t adapter_id)
{
	return rte_event_timer_adapter_lookup(adapter_id);
}

static int
dpdk_impl_free(void *adapter)
{
	return rte_event_timer_adapter_free(adapter);
}

static int
dpdk_impl_service_id_get(void *adapter, uint32_t *service_id)
{
	return rte_event_timer_adapter_service_id_get(adapter, service_id);
}

static int
dpdk_impl_stats_get(void *adapter, struct rte_event_timer_adapter_stats *stats)
{
	return rte_event_timer_adapter_stats_get(adapter, stats);
}

static int
dpdk_impl_stats_reset(void *adapter)
{
	return rte_event_timer_adapter_stats_reset(adapter);
}

static int
dpdk_impl_caps_get(uint8_t dev_id, uint32_t *caps)
{
	return rte_event_timer_adapter_caps_get(dev_id, caps);
}

static uint16_t
dpdk_impl_arm_burst(const void *adapter, struct rte_event_timer **evtims,
		    uint16_t nb_evtims)
{
	return rte_event_timer_arm_burst(adapter, evtims, nb_evtims);
}

static uint16_t
dpdk_impl_arm_tmo_tick_burst(const void *adapter,
			     struct rte_event_timer **evtims,
			     uint64_t timeout_ticks, uint16_t nb_evtims)
{
	return rte_event_timer_arm_tmo_tick_burst(adapter, evtims,
						  timeout_ticks, nb_evtims);
}

static uint16_t
dpdk_impl_cancel_burst(const void *adapter, struct rte_event_timer **evtims,
		       uint16_t nb_evtims)
{
	return rte_event_timer_cancel_burst(adapter, evtims, nb_evtims);
}

#if SWTIM_DPDK_HAS_REMAINING_TICKS
static int
dpdk_impl_remaining_ticks_get(const void *adapter,
			      const struct rte_event_timer *evtim,
			      uint64_t *ticks_remaining)
{
	return rte_event_timer_remaining_ticks_get(adapter, evtim,
						   ticks_remaining);
}
#endif

const struct adapter_impl adapter_impl_dpdk = {
	.name = "dpdk",
	.create = dpdk_impl_create,
	.create_ext = dpdk_impl_create_ext,
	.create_with_driver = NULL,
	.get_info = dpdk_impl_get_info,
	.start = dpdk_impl_start,
	.stop = dpdk_impl_stop,
	.lookup = dpdk_impl_lookup,
	.free = dpdk_impl_free,
	.service_id_get = dpdk_impl_service_id_get,
	.stats_get = dpdk_impl_stats_get,
	.stats_reset = dpdk_impl_stats_reset,
	.caps_get = dpdk_impl_caps_get,
	.port_add = NULL,
	.arm_burst = dpdk_impl_arm_burst,
	.arm_tmo_tick_burst = dpdk_impl_arm_tmo_tick_burst,
	.cancel_burst = dpdk_impl_cancel_burst,
#if SWTIM_DPDK_HAS_REMAINING_TICKS
	.remaining_ticks_get = dpdk_impl_remaining_ticks_get,
#else
	.remaining_ticks_get = NULL,
#endif
};
