/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/* The sequence harness's calls (seq_exec.h) on swtim's API. */

#include "swtim.h"
#include "fuzz_env.h"
#include "seq_exec.h"

const char *seq_swtim_driver = SWTIM_DEFAULT_DRIVER;

static void *
swtim_api_create(const struct rte_event_timer_adapter_conf *conf, bool ext,
		 uint8_t port)
{
	return swtim_adapter_create_with_driver(conf,
			ext ? fuzz_port_cb : NULL, (void *)(uintptr_t)port,
			seq_swtim_driver, NULL);
}

static int
swtim_api_start(void *a)
{
	return swtim_adapter_start(a);
}

static int
swtim_api_stop(void *a)
{
	return swtim_adapter_stop(a);
}

static int
swtim_api_free(void *a)
{
	return swtim_adapter_free(a);
}

static void *
swtim_api_lookup(uint16_t id)
{
	return swtim_adapter_lookup(id);
}

static int
swtim_api_service_id_get(void *a, uint32_t *sid)
{
	return swtim_adapter_service_id_get(a, sid);
}

static int
swtim_api_get_info(void *a, struct rte_event_timer_adapter_info *info)
{
	return swtim_adapter_get_info(a, info);
}

static int
swtim_api_stats_get(void *a, struct rte_event_timer_adapter_stats *st)
{
	return swtim_adapter_stats_get(a, st);
}

static int
swtim_api_stats_reset(void *a)
{
	return swtim_adapter_stats_reset(a);
}

static uint16_t
swtim_api_arm_burst(void *a, struct rte_event_timer **t, uint16_t n)
{
	return swtim_arm_burst(a, t, n);
}

static uint16_t
swtim_api_arm_tmo_tick_burst(void *a, struct rte_event_timer **t,
			     uint64_t ticks, uint16_t n)
{
	return swtim_arm_tmo_tick_burst(a, t, ticks, n);
}

static uint16_t
swtim_api_cancel_burst(void *a, struct rte_event_timer **t, uint16_t n)
{
	return swtim_cancel_burst(a, t, n);
}

static int
swtim_api_remaining_ticks_get(void *a, const struct rte_event_timer *t,
			      uint64_t *ticks)
{
	return swtim_remaining_ticks_get(a, t, ticks);
}

struct seq_api seq_swtim_api = {
	.name = "swtim",
	.create = swtim_api_create,
	.start = swtim_api_start,
	.stop = swtim_api_stop,
	.free = swtim_api_free,
	.lookup = swtim_api_lookup,
	.service_id_get = swtim_api_service_id_get,
	.get_info = swtim_api_get_info,
	.stats_get = swtim_api_stats_get,
	.stats_reset = swtim_api_stats_reset,
	.arm_burst = swtim_api_arm_burst,
	.arm_tmo_tick_burst = swtim_api_arm_tmo_tick_burst,
	.cancel_burst = swtim_api_cancel_burst,
	.remaining_ticks_get = swtim_api_remaining_ticks_get,
};
