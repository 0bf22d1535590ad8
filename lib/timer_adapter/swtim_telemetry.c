/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Telemetry: /swtim/list, /swtim/info,<id> and /swtim/stats,<id>, answered
 * in DPDK's telemetry JSON. Handlers run on the telemetry thread, so they
 * take swtim_adapters_lock to keep an adapter from being freed under them.
 */

#include <errno.h>
#include <stdlib.h>

#include <rte_telemetry.h>

#include "swtim.h"
#include "swtim_adapter_pvt.h"
#include "swtim_dpdk_compat.h"

/* Parse "<id>" into a live adapter; call with the lock held. */
static struct swtim_adapter *
swtim_telemetry_adapter(const char *params)
{
	char *end;
	unsigned long id;

	if (params == NULL || params[0] == '\0')
		return NULL;
	id = strtoul(params, &end, 0);
	if (*end != '\0' || id >= SWTIM_ADAPTER_NUM_MAX)
		return NULL;
	return swtim_adapter_lookup((uint16_t)id);
}

static int
swtim_telemetry_list(const char *cmd __rte_unused,
		     const char *params __rte_unused, struct rte_tel_data *d)
{
	unsigned int id;

	rte_tel_data_start_array(d, RTE_TEL_INT_VAL);
	pthread_mutex_lock(&swtim_adapters_lock);
	for (id = 0; swtim_adapters != NULL && id < SWTIM_ADAPTER_NUM_MAX;
	     id++)
		if (swtim_adapter_is_valid(&swtim_adapters[id]))
			rte_tel_data_add_array_int(d, id);
	pthread_mutex_unlock(&swtim_adapters_lock);
	return 0;
}

static int
swtim_telemetry_info(const char *cmd __rte_unused, const char *params,
		     struct rte_tel_data *d)
{
	struct rte_event_timer_adapter_info info;
	struct swtim_adapter *adapter;
	uint32_t service_id;
	int ret = -EINVAL;

	pthread_mutex_lock(&swtim_adapters_lock);
	adapter = swtim_telemetry_adapter(params);
	if (adapter == NULL || swtim_adapter_get_info(adapter, &info) != 0)
		goto out;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "id", adapter->id);
	rte_tel_data_add_dict_string(d, "driver", adapter->drv_name);
	rte_tel_data_add_dict_int(d, "started", adapter->started);
	rte_tel_data_add_dict_int(d, "event_dev_id", info.conf.event_dev_id);
	rte_tel_data_add_dict_int(d, "event_dev_port_id",
				  info.event_dev_port_id);
	/* The port above and any added by swtim_adapter_port_add(). */
	rte_tel_data_add_dict_int(d, "nb_event_ports",
				  adapter->params.nb_event_ports);
	swtim_tel_dict_add_uint(d, "timer_tick_ns", info.conf.timer_tick_ns);
	swtim_tel_dict_add_uint(d, "min_resolution_ns",
				info.min_resolution_ns);
	swtim_tel_dict_add_uint(d, "max_tmo_ns", info.max_tmo_ns);
	swtim_tel_dict_add_uint(d, "nb_timers", info.conf.nb_timers);
	swtim_tel_dict_add_uint(d, "flags", info.conf.flags);
	swtim_tel_dict_add_uint(d, "caps", info.caps);
	if (swtim_adapter_service_id_get(adapter, &service_id) == 0)
		swtim_tel_dict_add_uint(d, "service_id", service_id);
	ret = 0;
out:
	pthread_mutex_unlock(&swtim_adapters_lock);
	return ret;
}

static int
swtim_telemetry_stats(const char *cmd __rte_unused, const char *params,
		      struct rte_tel_data *d)
{
	struct rte_event_timer_adapter_stats stats;
	struct swtim_adapter *adapter;
	int ret = -EINVAL;

	pthread_mutex_lock(&swtim_adapters_lock);
	adapter = swtim_telemetry_adapter(params);
	if (adapter == NULL || swtim_adapter_stats_get(adapter, &stats) != 0)
		goto out;
	rte_tel_data_start_dict(d);
	swtim_tel_dict_add_uint(d, "evtim_exp_count", stats.evtim_exp_count);
	swtim_tel_dict_add_uint(d, "ev_enq_count", stats.ev_enq_count);
	swtim_tel_dict_add_uint(d, "ev_inv_count", stats.ev_inv_count);
	swtim_tel_dict_add_uint(d, "evtim_retry_count",
				stats.evtim_retry_count);
	swtim_tel_dict_add_uint(d, "adapter_tick_count",
				stats.adapter_tick_count);
	swtim_tel_dict_add_uint(d, "evtim_drop_count",
				stats.evtim_drop_count);
	ret = 0;
out:
	pthread_mutex_unlock(&swtim_adapters_lock);
	return ret;
}

RTE_INIT(swtim_telemetry_init)
{
	rte_telemetry_register_cmd("/swtim/list", swtim_telemetry_list,
		"Returns the ids of the swtim adapters. Takes no parameters");
	rte_telemetry_register_cmd("/swtim/info", swtim_telemetry_info,
		"Returns a swtim adapter's configuration. Parameters: int id");
	rte_telemetry_register_cmd("/swtim/stats", swtim_telemetry_stats,
		"Returns a swtim adapter's statistics. Parameters: int id");
}
