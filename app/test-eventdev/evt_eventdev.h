/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef EVT_EVENTDEV_H
#define EVT_EVENTDEV_H

/**
 * @file
 * Event device setup as dpdk-test-eventdev's perf tests do it: perf_queue
 * has one queue per producer and stage, perf_atq one all-types queue per
 * producer; one port per worker, linked to every queue. The adapters add
 * their own ports when they are created.
 */

#include "evt_test.h"

/* Configure the device, its queues and the worker ports. */
int evt_eventdev_setup(struct evt_test *t);

/*
 * Port callback for the adapters (both kinds): what DPDK's default one
 * does, from the configuration this application gave the device: stop
 * it if it runs, configure it with one more port, set that port up with
 * the device's default port configuration but new_event_threshold raised
 * to the device's event limit, restart it. arg: the test.
 */
int evt_eventdev_adapter_port(uint16_t adapter_id, uint8_t dev_id,
			      uint8_t *port_id, void *arg);

/* The device's own service (event_sw), if it has one: 0 and its id. */
int evt_eventdev_service_id(struct evt_test *t, uint32_t *id);

#endif /* EVT_EVENTDEV_H */
