/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_PORT_H
#define SWTIM_PORT_H

/**
 * @file
 * The adapter's event ports, as the service sends expiry events through
 * them. A port here is always an event port of the adapter's event device:
 * the one create added or the application passed (swtim_port.c takes it
 * from the device), and any more that swtim_adapter_port_add() gave. This
 * header is the service's side of them: a lock, because a port is not MT
 * safe and several service runs may share one, the enqueue burst size,
 * and the maintenance some devices need.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_eventdev.h>
#include <rte_spinlock.h>

#include "swtim_driver.h"
#include "swtim_tunables.h"

/**
 * One of the adapter's event ports, shared by the service runs that
 * deliver through it: a port is not MT safe, so runs take turns on it.
 * A cache line each, so that runs on different ports share nothing.
 */
struct __rte_cache_aligned swtim_port {
	rte_spinlock_t lock;
	uint8_t dev_id;
	uint8_t port_id;
	uint16_t enq_burst;	/**< events per enqueue call */
	bool needs_maintenance;	/**< device wants rte_event_maintain() */
	uint64_t maintain_cycles;	/**< SWTIM_PORT_MAINTAIN_US */
	uint64_t next_maintain;	/**< timer cycles of the next maintenance */
};

/**
 * Set the port up: its burst size and whether the device needs
 * rte_event_maintain() (no RTE_EVENT_DEV_CAP_MAINTENANCE_FREE: event_dsw,
 * say, holds enqueued events in the port until it is used again).
 *
 * @param port
 *   The port.
 * @param dev_id
 *   Event device.
 * @param port_id
 *   Event port.
 */
void swtim_port_init(struct swtim_port *port, uint8_t dev_id,
		     uint8_t port_id);

/**
 * Offer events to the port's event device (rte_event_enqueue_new_burst()):
 * the one place where expiry events leave swtim. Call with the port's
 * lock held.
 *
 * Out of line and exported (INTERNAL) on purpose: a test program that
 * defines a function of this name stands in front of every enqueue, to
 * see each event as the device takes it or to play a device that
 * refuses, without reaching into DPDK's fast-path tables (whose layout
 * changes between releases). One call per burst, not per event.
 *
 * @param port
 *   The port.
 * @param ev
 *   Events, op NEW.
 * @param nb
 *   How many, at most port->enq_burst.
 * @return
 *   How many the device took, from the front.
 */
uint16_t swtim_port_enqueue(struct swtim_port *port,
			    const struct rte_event *ev, uint16_t nb);

/**
 * Maintain the port, if the device needs that, at most every
 * SWTIM_PORT_MAINTAIN_US. Call on every service run. Skipped when
 * another run holds the port. (Enqueued events are flushed by
 * swtim_evbuf_flush() itself.)
 *
 * @param port
 *   The port.
 * @param now
 *   rte_get_timer_cycles() of the run.
 */
static inline void
swtim_port_maintain(struct swtim_port *port, uint64_t now)
{
	if (!port->needs_maintenance ||
	    now < __atomic_load_n(&port->next_maintain, __ATOMIC_RELAXED) ||
	    !rte_spinlock_trylock(&port->lock))
		return;
	port->next_maintain = now + port->maintain_cycles;
	rte_event_maintain(port->dev_id, port->port_id, 0);
	rte_spinlock_unlock(&port->lock);
}

/**
 * All of an adapter's event ports. Each lane delivers through one of
 * them, picked by its place in the poll set, so its events stay in order.
 */
struct swtim_ports {
	uint8_t nb;
	struct swtim_port port[SWTIM_ADAPTER_PORTS_MAX];
};

/**
 * Set up every port of the adapter's parameters. Call when the adapter
 * starts (ports may be added until then), with no service run inside.
 *
 * @param ports
 *   The ports.
 * @param params
 *   The adapter's parameters.
 */
void swtim_ports_init(struct swtim_ports *ports,
		      const struct swtim_adapter_params *params);

/**
 * The port the lane at place pos of the poll set delivers through.
 *
 * @param ports
 *   The ports, set up.
 * @param pos
 *   The lane's place in the poll set.
 * @return
 *   The port.
 */
static inline struct swtim_port *
swtim_ports_of(struct swtim_ports *ports, unsigned int pos)
{
	return &ports->port[ports->nb == 1 ? 0 : pos % ports->nb];
}

/**
 * swtim_port_maintain() on every port.
 *
 * @param ports
 *   The ports.
 * @param now
 *   rte_get_timer_cycles() of the run.
 */
static inline void
swtim_ports_maintain(struct swtim_ports *ports, uint64_t now)
{
	unsigned int i;

	for (i = 0; i < ports->nb; i++)
		swtim_port_maintain(&ports->port[i], now);
}

/**
 * Whether the ports' event device has its fast path in place, so that the
 * service may enqueue to it and maintain its ports. Not while the device
 * is stopped: DPDK (22.11 to 25.11) then gives it functions that refuse
 * every event and log every call, and port pointers that are all NULL.
 * Nor at the moment rte_event_dev_start() has marked the device started
 * and not yet copied its functions and ports into rte_event_fp_ops[]:
 * the device's own enqueue or maintenance handed the stopped device's
 * NULL port crashes (event_dsw's maintain did, under a running adapter,
 * once a restart that failed had left the device stopped for the
 * application to start). So the test is the port pointer the inline
 * fast path will pass, the last thing that copy stores; not the started
 * flag, which is set before it. Two loads and no call, for every run.
 *
 * @param ports
 *   The ports, set up.
 * @return
 *   true if the device's fast path may be called.
 */
static inline bool
swtim_ports_device_ready(const struct swtim_ports *ports)
{
	const struct swtim_port *p = &ports->port[0];
	void **data = __atomic_load_n(&rte_event_fp_ops[p->dev_id].data,
				      __ATOMIC_ACQUIRE);

	/* Once seen, it stays until the device is stopped again, which
	 * DPDK wants done only under stopped adapters. */
	return __atomic_load_n(&data[p->port_id], __ATOMIC_RELAXED) != NULL;
}

#endif /* SWTIM_PORT_H */
