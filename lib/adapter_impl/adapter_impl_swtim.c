/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * adapter_impl_swtim: swtim's API behind struct adapter_impl. Each entry
 * is swtim's function of the same name, taking the handle as a void
 * pointer; the compiler makes each a jump.
 */

#include <rte_common.h>

#include "adapter_impl.h"
#include "swtim.h"

static void *
swtim_impl_create(const struct rte_event_timer_adapter_conf *conf)
{
	return swtim_adapter_create(conf);
}

static void *
swtim_impl_create_ext(const struct rte_event_timer_adapter_conf *conf,
		      rte_event_timer_adapter_port_conf_cb_t conf_cb,
		      void *conf_arg)
{
	return swtim_adapter_create_ext(conf, conf_cb, conf_arg);
}

static void *
swtim_impl_create_with_driver(const struct rte_event_timer_adapter_conf *conf,
			      rte_event_timer_adapter_port_conf_cb_t conf_cb,
			      void *conf_arg, const char *driver,
			      const char *devargs)
{
	return swtim_adapter_create_with_driver(conf, conf_cb, conf_arg,
						driver, devargs);
}

static int
swtim_impl_get_info(const void *adapter,
		    struct rte_event_timer_adapter_info *adapter_info)
{
	return swtim_adapter_get_info(adapter, adapter_info);
}

static int
swtim_impl_start(const void *adapter)
{
	return swtim_adapter_start(adapter);
}

static int
swtim_impl_stop(const void *adapter)
{
	return swtim_adapter_stop(adapter);
}

static void *
swtim_impl_lookup(uint16_t adapter_id)
{
	return swtim_adapter_lookup(adapter_id);
}

static int
swtim_impl_free(void *adapter)
{
	return swtim_adapter_free(adapter);
}

static int
swtim_impl_service_id_get(void *adapter, uint32_t *service_id)
{
	return swtim_adapter_service_id_get(adapter, service_id);
}

static int
swtim_impl_stats_get(void *adapter, struct rte_event_timer_adapter_stats *stats)
{
	return swtim_adapter_stats_get(adapter, stats);
}

static int
swtim_impl_stats_reset(void *adapter)
{
	return swtim_adapter_stats_reset(adapter);
}

static int
swtim_impl_port_add(void *adapter, uint8_t event_port_id)
{
	return swtim_adapter_port_add(adapter, event_port_id);
}

static uint16_t
swtim_impl_arm_burst(const void *adapter, struct rte_event_timer **evtims,
		     uint16_t nb_evtims)
{
	return swtim_arm_burst(adapter, evtims, nb_evtims);
}

static uint16_t
swtim_impl_arm_tmo_tick_burst(const void *adapter,
			      struct rte_event_timer **evtims,
			      uint64_t timeout_ticks, uint16_t nb_evtims)
{
	return swtim_arm_tmo_tick_burst(adapter, evtims, timeout_ticks,
					nb_evtims);
}

static uint16_t
swtim_impl_cancel_burst(const void *adapter, struct rte_event_timer **evtims,
			uint16_t nb_evtims)
{
	return swtim_cancel_burst(adapter, evtims, nb_evtims);
}

static int
swtim_impl_remaining_ticks_get(const void *adapter,
			       const struct rte_event_timer *evtim,
			       uint64_t *ticks_remaining)
{
	return swtim_remaining_ticks_get(adapter, evtim, ticks_remaining);
}

const struct adapter_impl adapter_impl_swtim = {
	.name = "swtim",
	.create = swtim_impl_create,
	.create_ext = swtim_impl_create_ext,
	.create_with_driver = swtim_impl_create_with_driver,
	.get_info = swtim_impl_get_info,
	.start = swtim_impl_start,
	.stop = swtim_impl_stop,
	.lookup = swtim_impl_lookup,
	.free = swtim_impl_free,
	.service_id_get = swtim_impl_service_id_get,
	.stats_get = swtim_impl_stats_get,
	.stats_reset = swtim_impl_stats_reset,
	.caps_get = NULL,
	.port_add = swtim_impl_port_add,
	.arm_burst = swtim_impl_arm_burst,
	.arm_tmo_tick_burst = swtim_impl_arm_tmo_tick_burst,
	.cancel_burst = swtim_impl_cancel_burst,
	.remaining_ticks_get = swtim_impl_remaining_ticks_get,
};
