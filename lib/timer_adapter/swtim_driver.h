/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_DRIVER_H
#define SWTIM_DRIVER_H

/**
 * @file
 * The interface between the generic adapter layer and a timer driver.
 *
 * Not for applications. A driver fills a struct swtim_driver, one table
 * of operations included, and registers it from a constructor with
 * SWTIM_DRIVER_REGISTER(), the way DPDK PMDs register themselves;
 * swtim_adapter_create_with_driver() picks it by name.
 *
 * Division of work: the generic layer owns the adapter and everything
 * every driver shares (swtim_base.h): the lanes, the service loop, the
 * event buffers and their flush to the device, the nb_timers budget,
 * sleeping when idle, the statistics, the options every driver takes
 * (SWTIM_IDLE_ARG), the finest tick and the capabilities. It validates
 * every argument the contract defines (adapter handle, timer state,
 * timeout range, schedule type) before it calls the driver, so a driver's
 * fast path only sees timers that are valid to arm or cancel. The driver
 * owns its timers' storage, one store per lane, the race between cancel
 * and expiry (EAGAIN), and turning its due timers into expiry events in
 * a lane's buffer.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_common.h>
#include <rte_event_timer_adapter.h>
#include <rte_kvargs.h>

#include "swtim.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * What the generic layer tells a driver about an adapter, fixed at create
 * (port) or refreshed at start (schedule types).
 */
struct swtim_adapter_params {
	/** Configuration with the tick in force. */
	struct rte_event_timer_adapter_conf conf;
	/** Event port for expiry events: event_port_ids[0]. */
	uint8_t event_port_id;
	/**
	 * Every port for expiry events, the first the one above; more come
	 * from swtim_adapter_port_add() before the first start, so drivers
	 * read them when they start.
	 */
	uint8_t event_port_ids[SWTIM_ADAPTER_PORTS_MAX];
	/** Ports in event_port_ids[], 1 or more. */
	uint8_t nb_event_ports;
	/** Adapter tick in TSC cycles, rounded up so no timer is early. */
	uint64_t tick_cycles;
	/** Largest timeout in ticks (max_tmo_ns / timer_tick_ns). */
	uint64_t max_tmo_ticks;
};

struct swtim_base;
struct swtim_lane;

/**
 * A driver's operations, every one called with the adapter's base (the
 * start of the driver's adapter struct, struct swtim_driver.priv_size
 * bytes that the generic layer allocates zeroed). Mandatory unless marked
 * optional. A process finds a driver's table through the driver's index,
 * never through memory processes share (swtim_base.h).
 */
struct swtim_driver_ops {
	/**
	 * Set the driver's part of the adapter up: its stores, and where
	 * the lanes in them are (swtim_base_lanes_set()). The base is set
	 * up; the service is registered after init and the event ports are
	 * known only at start. args holds only keys from the generic layer's
	 * and the driver's valid_args. Return 0 or -errno; teardown follows
	 * a failure.
	 */
	int (*init)(struct swtim_base *base,
		    const struct swtim_adapter_params *params,
		    const struct rte_kvargs *args);
	/**
	 * At free, once the service is gone and the buffers released, or
	 * after an init that failed half way: mark CANCELED what the stores
	 * still hold and free what init allocated (not the adapter struct,
	 * which is the generic layer's).
	 */
	void (*teardown)(struct swtim_base *base);
	/**
	 * Optional: make an adapter that another process (the primary)
	 * created usable from this one, a secondary, for the fast path; called
	 * by every swtim_adapter_lookup() in a secondary, so it must be cheap
	 * once done. For what a library keeps per process (librte_timer's
	 * pointer to its shared lists). Return 0 or -errno.
	 */
	int (*attach)(struct swtim_base *base);
	/** Optional: at start, before the service may run (now: the clock). */
	void (*start)(struct swtim_base *base, uint64_t now);
	/**
	 * Arm nb timers, already validated, each with its timeout_ticks, on
	 * the caller's lane (swtim_lane_of_caller()), its budget taken with
	 * swtim_base_arm_begin(). timeout_ticks is 0 for swtim_arm_burst();
	 * for swtim_arm_tmo_tick_burst() it is the timeout every one of them
	 * has (the generic layer has copied it into each), which a driver
	 * may use to place them all at once. Return how many were armed
	 * from the front; on a short return set rte_errno (ENOSPC,
	 * ENOTRECOVERABLE).
	 */
	uint16_t (*arm_burst)(struct swtim_base *base,
			      struct rte_event_timer **evtims,
			      uint64_t timeout_ticks, uint16_t nb);
	/**
	 * Cancel nb timers, each seen ARMED by the generic layer, giving
	 * their budget back (swtim_credit_give()). Return how many were
	 * cancelled from the front; on a short return set rte_errno (EAGAIN,
	 * EINVAL if it expired meanwhile, ENOTRECOVERABLE).
	 */
	uint16_t (*cancel_burst)(struct swtim_base *base,
				 struct rte_event_timer **evtims, uint16_t nb);
	/** Ticks left for an ARMED timer (rounded up, 0 once due). */
	int (*remaining_ticks_get)(const struct swtim_base *base,
				   const struct rte_event_timer *evtim,
				   uint64_t *ticks_remaining);
	/**
	 * Optional: at the start of each service run, inside the gate;
	 * false ends the run at once.
	 */
	bool (*run_begin)(struct swtim_base *base);
	/**
	 * Whether a lane whose buffer is empty may have timers due at now
	 * (timer cycles). Read without the lane's claim, as a hint: a false
	 * yes costs a claim and an expire that finds nothing, a false no
	 * delays the timers to the next run.
	 */
	bool (*due)(const struct swtim_base *base,
		    const struct swtim_lane *lane, uint64_t now);
	/**
	 * Expire due timers of a claimed lane, whose buffer is empty, into
	 * its buffer (swtim_evbuf_reserve() and _commit(); a one-shot timer
	 * NOT_ARMED once its event is built, a periodic one's event tagged
	 * with what periodic_resume and waiting_drop are given), up to max
	 * of them where the driver can stop there. Return how many events it
	 * put in the buffer: the generic layer offers them to the device and,
	 * if that took them all and the return was max or more, asks again.
	 */
	uint32_t (*expire)(struct swtim_base *base, struct swtim_lane *lane,
			   uint64_t now, uint32_t max);
	/**
	 * Timer-cycle time at which the lane's store next has a timer due
	 * (0: now; UINT64_MAX: none), for a lane whose buffer is empty;
	 * asked only while some timer may be outstanding
	 * (swtim_base_outstanding_hint()). MT safe against the fast path
	 * and the service; called in any process.
	 */
	uint64_t (*next_deadline)(const struct swtim_base *base,
				  const struct swtim_lane *lane);
	/**
	 * Periodic adapters: the device has taken the n events from
	 * free-running buffer index first on; put their timers (the events'
	 * tags) back into the lane's store for their next period. Called
	 * with the lane claimed.
	 */
	void (*periodic_resume)(struct swtim_base *base,
				struct swtim_lane *lane, uint32_t first,
				uint32_t n);
	/**
	 * Periodic adapters, at free: the timer whose event, tagged tag,
	 * still waits in a buffer is cancelled (its state CANCELED).
	 */
	void (*waiting_drop)(struct swtim_base *base, uintptr_t tag);
};

/** A timer driver. */
struct swtim_driver {
	/** Link in the driver list; set by swtim_driver_register(). */
	TAILQ_ENTRY(swtim_driver) next;
	/**
	 * Registration order, set by swtim_driver_register(): the same in
	 * every process of a build, so that an adapter in shared memory
	 * names its driver by it (see swtim_adapter_pvt.h).
	 */
	uint16_t index;
	/** Name applications choose the driver by. */
	const char *name;
	/**
	 * Short name for the adapter's service, "swtim_<short_name>_<id>";
	 * at most SWTIM_DRIVER_SHORT_NAME_MAX - 1 characters.
	 */
	const char *short_name;
	/**
	 * Optional: NULL-terminated list of the option keys the driver takes
	 * besides the generic layer's (SWTIM_IDLE_ARG).
	 */
	const char *const *valid_args;
	/** Size of the driver's adapter struct, a struct swtim_base first. */
	size_t priv_size;
	/** The driver's operations. */
	const struct swtim_driver_ops *ops;
	/**
	 * Finest tick, in ns: set by swtim_driver_register() to the generic
	 * layer's, SWTIM_MIN_TICK_NS, every driver's.
	 */
	uint64_t min_tick_ns;
	/**
	 * RTE_EVENT_TIMER_ADAPTER_CAP_*: set by swtim_driver_register() to
	 * the generic layer's, SWTIM_DRIVER_CAPS, every driver's.
	 */
	uint32_t caps;
};

/**
 * Finest tick of every driver: the tick is the service's, and below a
 * microsecond the service's own run time dominates.
 */
#define SWTIM_MIN_TICK_NS 1000

/**
 * What every driver offers: periodic timers, whose events the generic
 * layer's buffers tag and whose next period its flush asks for.
 */
#define SWTIM_DRIVER_CAPS RTE_EVENT_TIMER_ADAPTER_CAP_PERIODIC

/** Longest driver short name, with its terminating NUL. */
#define SWTIM_DRIVER_SHORT_NAME_MAX 8

/** Most drivers one process registers. */
#define SWTIM_DRIVERS_MAX 16

/** Longest driver name, with its terminating NUL. */
#define SWTIM_DRIVER_NAME_MAX 32

/**
 * Every registered driver by its index, and its operations, this
 * process's own: an adapter in shared memory names its driver by index.
 * In a secondary the operations of a driver once attached are a copy
 * whose arm_burst checks where the timers are (swtim_secondary.c).
 */
extern const struct swtim_driver *swtim_drivers_by_index[SWTIM_DRIVERS_MAX];
extern const struct swtim_driver_ops *
	swtim_driver_ops_by_index[SWTIM_DRIVERS_MAX];

/**
 * Add a driver to the list create chooses from. Called from constructors.
 * Panics on a NULL driver, name, short name or ops, a mandatory op
 * missing, a priv_size below struct swtim_base's, a name already
 * registered or longer than SWTIM_DRIVER_NAME_MAX - 1, a short name
 * longer than SWTIM_DRIVER_SHORT_NAME_MAX - 1, or more than
 * SWTIM_DRIVERS_MAX drivers.
 *
 * @param driver
 *   The driver; must live as long as the process.
 */
void swtim_driver_register(struct swtim_driver *driver);

/**
 * Find a registered driver by name.
 *
 * @param name
 *   The driver name.
 * @return
 *   The driver, or NULL.
 */
const struct swtim_driver *swtim_driver_find(const char *name);

/** Register a driver from a constructor, as RTE_PMD_REGISTER_* does. */
#define SWTIM_DRIVER_REGISTER(drv) \
	RTE_INIT(swtim_driver_register_##drv) \
	{ \
		swtim_driver_register(&(drv)); \
	}

#ifdef __cplusplus
}
#endif

#endif /* SWTIM_DRIVER_H */
