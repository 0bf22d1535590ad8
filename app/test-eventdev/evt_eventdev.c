/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_eventdev.h>

#include "evt_eventdev.h"

#define APP "swtim-test-eventdev"

int
evt_eventdev_setup(struct evt_test *t)
{
	const struct evt_options *opt = t->opt;
	const bool atq = opt->test == EVT_TEST_PERF_ATQ;
	struct rte_event_dev_info info;
	struct rte_event_dev_config dconf;
	struct rte_event_queue_conf qconf;
	struct rte_event_port_conf pconf;
	uint32_t nb_queues, q, w;
	int ret;

	ret = rte_event_dev_info_get(t->dev_id, &info);
	if (ret < 0) {
		fprintf(stderr, APP ": event device %u: no info: %s\n",
			t->dev_id, rte_strerror(-ret));
		return ret;
	}
	t->dev_burst = !!(info.event_dev_cap & RTE_EVENT_DEV_CAP_BURST_MODE);
	if (atq && !(info.event_dev_cap & RTE_EVENT_DEV_CAP_QUEUE_ALL_TYPES)) {
		fprintf(stderr, APP ": --test=perf_atq needs all-types queues,"
			" which event device %u (%s) lacks; use perf_queue\n",
			t->dev_id, info.driver_name);
		return -ENOTSUP;
	}
	nb_queues = atq ? t->nb_producers : t->nb_producers * t->nb_stages;
	if (nb_queues > info.max_event_queues || nb_queues > 255) {
		fprintf(stderr, APP ": %u queues needed (producers x stages),"
			" event device %u (%s) has %u\n", nb_queues, t->dev_id,
			info.driver_name, info.max_event_queues);
		return -ENOTSUP;
	}
	if (t->nb_workers + opt->nb_timer_adptrs > info.max_event_ports) {
		fprintf(stderr, APP ": %u ports needed (workers + adapters),"
			" event device %u (%s) has %u\n",
			t->nb_workers + opt->nb_timer_adptrs, t->dev_id,
			info.driver_name, info.max_event_ports);
		return -ENOTSUP;
	}
	if (opt->wkr_deq_dep > info.max_event_port_dequeue_depth) {
		fprintf(stderr, APP ": --worker_deq_depth %u exceeds the event"
			" device's maximum of %u\n", opt->wkr_deq_dep,
			info.max_event_port_dequeue_depth);
		return -EINVAL;
	}
	t->nb_queues = (uint8_t)nb_queues;
	t->deq_depth = t->dev_burst ?
		RTE_MIN(opt->wkr_deq_dep, (uint16_t)EVT_MAX_DEQ) : 1;

	memset(&dconf, 0, sizeof(dconf));
	dconf.dequeue_timeout_ns = opt->deq_tmo_nsec;
	if (dconf.dequeue_timeout_ns != 0) {
		dconf.dequeue_timeout_ns = RTE_MAX(dconf.dequeue_timeout_ns,
						   info.min_dequeue_timeout_ns);
		dconf.dequeue_timeout_ns = RTE_MIN(dconf.dequeue_timeout_ns,
						   info.max_dequeue_timeout_ns);
	}
	dconf.nb_event_queues = (uint8_t)nb_queues;
	dconf.nb_event_ports = (uint8_t)t->nb_workers;
	dconf.nb_events_limit = info.max_num_events;
	dconf.nb_event_queue_flows = opt->nb_flows;
	dconf.nb_event_port_dequeue_depth = info.max_event_port_dequeue_depth;
	dconf.nb_event_port_enqueue_depth = info.max_event_port_enqueue_depth;
	ret = rte_event_dev_configure(t->dev_id, &dconf);
	t->dev_conf = dconf;
	if (ret < 0) {
		fprintf(stderr, APP ": configuring event device %u (%s) with %u"
			" queues, %u ports, %u flows: %s\n", t->dev_id,
			info.driver_name, nb_queues, t->nb_workers,
			opt->nb_flows, rte_strerror(-ret));
		return ret;
	}

	for (q = 0; q < nb_queues; q++) {
		uint32_t stage = atq ? 0 : q % t->nb_stages;

		memset(&qconf, 0, sizeof(qconf));
		qconf.nb_atomic_flows = opt->nb_flows;
		qconf.nb_atomic_order_sequences = opt->nb_flows;
		qconf.priority = RTE_EVENT_DEV_PRIORITY_NORMAL;
		if (atq) {
			qconf.event_queue_cfg = RTE_EVENT_QUEUE_CFG_ALL_TYPES;
		} else {
			qconf.schedule_type = t->sched_type_list[stage];
			/* Later stages first, so that events drain. */
			if (opt->q_priority && t->nb_stages > 1)
				qconf.priority = (uint8_t)(
					RTE_EVENT_DEV_PRIORITY_LOWEST -
					(RTE_EVENT_DEV_PRIORITY_LOWEST /
					 (t->nb_stages - 1)) * stage);
		}
		ret = rte_event_queue_setup(t->dev_id, (uint8_t)q, &qconf);
		if (ret < 0) {
			fprintf(stderr, APP ": setting up queue %u: %s\n", q,
				rte_strerror(-ret));
			return ret;
		}
	}

	memset(&pconf, 0, sizeof(pconf));
	pconf.dequeue_depth = opt->wkr_deq_dep;
	pconf.enqueue_depth = info.max_event_port_dequeue_depth;
	pconf.new_event_threshold = info.max_num_events;
	pconf.event_port_cfg = RTE_EVENT_PORT_CFG_HINT_WORKER;
	for (w = 0; w < t->nb_workers; w++) {
		ret = rte_event_port_setup(t->dev_id, (uint8_t)w, &pconf);
		if (ret < 0) {
			fprintf(stderr, APP ": setting up worker port %u: %s\n",
				w, rte_strerror(-ret));
			return ret;
		}
		ret = rte_event_port_link(t->dev_id, (uint8_t)w, NULL, NULL, 0);
		if (ret != (int)nb_queues) {
			fprintf(stderr, APP ": linking port %u to %u queues:"
				" %s\n", w, nb_queues, rte_strerror(rte_errno));
			return -EIO;
		}
		t->workers[w].port_id = (uint8_t)w;
	}
	return 0;
}

int
evt_eventdev_adapter_port(uint16_t adapter_id, uint8_t dev_id,
			  uint8_t *port_id, void *arg)
{
	struct evt_test *t = arg;
	struct rte_event_dev_config dconf = t->dev_conf;
	struct rte_event_port_conf pconf;
	uint32_t started = 0;
	uint8_t port;
	int ret;

	RTE_SET_USED(adapter_id);
	rte_event_dev_attr_get(dev_id, RTE_EVENT_DEV_ATTR_STARTED, &started);
	if (started)
		rte_event_dev_stop(dev_id);
	port = dconf.nb_event_ports;
	dconf.nb_event_ports++;
	ret = rte_event_dev_configure(dev_id, &dconf);
	if (ret < 0) {
		fprintf(stderr, APP ": configuring event device %u with a port"
			" for an adapter: %s\n", dev_id, rte_strerror(-ret));
		goto out;
	}
	t->dev_conf = dconf;
	ret = rte_event_port_default_conf_get(dev_id, port, &pconf);
	/*
	 * The whole event limit, not the device's default threshold:
	 * event_dsw lets every port keep up to 128 credits it no longer
	 * uses (a worker's, once it has dequeued; an enqueue-only port's
	 * remainder), and refuses new events while the credits out on loan
	 * exceed the enqueuing port's threshold. With its default of 1024,
	 * 7 workers and 4 adapter ports can hold that much idle for good,
	 * and the adapter's expiries are refused forever (seen on 16
	 * cores with --adapter-ports=4).
	 */
	if (ret == 0) {
		pconf.new_event_threshold = dconf.nb_events_limit;
		ret = rte_event_port_setup(dev_id, port, &pconf);
	}
	if (ret < 0) {
		fprintf(stderr, APP ": setting up adapter port %u: %s\n", port,
			rte_strerror(-ret));
		goto out;
	}
	*port_id = port;
out:
	if (started && rte_event_dev_start(dev_id) < 0 && ret == 0)
		ret = -EIO;
	return ret;
}

int
evt_eventdev_service_id(struct evt_test *t, uint32_t *id)
{
	return rte_event_dev_service_id_get(t->dev_id, id);
}
