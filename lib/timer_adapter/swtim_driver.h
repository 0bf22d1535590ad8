/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_DRIVER_H
#define SWTIM_DRIVER_H

/**
 * @file
 * The interface between the generic adapter layer and a timer driver.
 *
 * Not for applications. A driver fills a struct swtim_driver and
 * registers it from a constructor with SWTIM_DRIVER_REGISTER(), the way
 * DPDK PMDs register themselves; swtim_adapter_create_with_driver() picks
 * it by name.
 *
 * Division of work: the generic layer validates every argument the
 * contract defines (adapter handle, timer state, timeout range, schedule
 * type) before it calls the driver, so a driver's fast path only sees
 * timers that are valid to arm or cancel. The driver owns its timers'
 * storage, the nb_timers limit (ENOSPC), the cancel/expiry race (EAGAIN)
 * and the delivery of expiry events.
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

/** Driver ops. Every op is mandatory unless marked optional. */
struct swtim_driver_ops {
	/**
	 * Set the adapter up. args holds only keys from valid_args. Store
	 * private data with swtim_adapter_priv_set(). Return 0 or -errno.
	 * The adapter's event ports are not known yet (they are taken once
	 * init has succeeded, so that a refused adapter adds no port to the
	 * device): read them at start.
	 */
	int (*init)(struct swtim_adapter *adapter,
		    const struct rte_kvargs *args);
	/**
	 * Release everything init allocated and every outstanding timer
	 * (setting armed timers to CANCELED). Called on a stopped adapter.
	 */
	void (*uninit)(struct swtim_adapter *adapter);
	/** Let the service deliver expiries. Return 0 or -errno. */
	int (*start)(struct swtim_adapter *adapter);
	/** Stop delivering; return only once the service is out. */
	int (*stop)(struct swtim_adapter *adapter);
	/** Optional: the service id; NULL means the driver has none. */
	int (*service_id_get)(const struct swtim_adapter *adapter,
			      uint32_t *service_id);
	/** Fill the stats. */
	void (*stats_get)(const struct swtim_adapter *adapter,
			  struct rte_event_timer_adapter_stats *stats);
	/** Zero the stats. */
	void (*stats_reset)(struct swtim_adapter *adapter);
	/**
	 * Arm nb timers, already validated, each with its timeout_ticks.
	 * timeout_ticks is 0 for swtim_arm_burst(); for
	 * swtim_arm_tmo_tick_burst() it is the timeout every one of them
	 * has (the generic layer has copied it into each), which a driver
	 * may use to place them all at once. Return how many were armed
	 * from the front; on a short return set rte_errno (ENOSPC).
	 */
	uint16_t (*arm_burst)(const struct swtim_adapter *adapter,
			      struct rte_event_timer **evtims,
			      uint64_t timeout_ticks, uint16_t nb);
	/**
	 * Cancel nb timers, each seen ARMED by the generic layer. Return how
	 * many were cancelled from the front; on a short return set
	 * rte_errno (EAGAIN, or EINVAL if it expired meanwhile).
	 */
	uint16_t (*cancel_burst)(const struct swtim_adapter *adapter,
				 struct rte_event_timer **evtims, uint16_t nb);
	/** Ticks left for an ARMED timer (rounded up, 0 once due). */
	int (*remaining_ticks_get)(const struct swtim_adapter *adapter,
				   const struct rte_event_timer *evtim,
				   uint64_t *ticks_remaining);
	/**
	 * Timer-cycle time by which the service must run next: 0 if it has
	 * work now, UINT64_MAX if nothing is armed. Never later than the
	 * first expiry. MT safe against the fast path and the service.
	 */
	uint64_t (*next_deadline)(const struct swtim_adapter *adapter);
	/**
	 * Optional: make an adapter that another process (the primary)
	 * created usable from this one, a secondary, for the fast path and
	 * the statistics; called by every swtim_adapter_lookup() in a
	 * secondary, so it must be cheap once done. For what a library
	 * keeps per process (librte_timer's pointer to its shared lists).
	 * Return 0 or -errno.
	 */
	int (*attach)(struct swtim_adapter *adapter);
};

struct swtim_lane_ops;

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
	/** NULL-terminated list of option keys the driver accepts. */
	const char *const *valid_args;
	/** Finest tick the driver supports, in ns. */
	uint64_t min_tick_ns;
	/** RTE_EVENT_TIMER_ADAPTER_CAP_* the driver offers. */
	uint32_t caps;
	/** The driver's ops. */
	const struct swtim_driver_ops *ops;
	/**
	 * A driver built on the base (swtim_base.h): what the shared service
	 * asks of its stores; NULL otherwise. Each process finds it here,
	 * through the driver's index, as memory that processes share holds
	 * no function pointer.
	 */
	const struct swtim_lane_ops *lane_ops;
};

/** Most drivers one process registers. */
#define SWTIM_DRIVERS_MAX 16

/** Longest driver name, with its terminating NUL. */
#define SWTIM_DRIVER_NAME_MAX 32

/**
 * Every registered driver by its index, this process's own (an adapter
 * in shared memory names its driver by index).
 */
extern const struct swtim_driver *swtim_drivers_by_index[SWTIM_DRIVERS_MAX];

/**
 * Add a driver to the list create chooses from. Called from constructors.
 * Panics on a NULL driver, name or ops, a name already registered or
 * longer than SWTIM_DRIVER_NAME_MAX - 1, or more than SWTIM_DRIVERS_MAX
 * drivers.
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

/**
 * The adapter's fixed parameters.
 *
 * @param adapter
 *   The adapter.
 * @return
 *   Its parameters; valid while the adapter exists.
 */
const struct swtim_adapter_params *
swtim_adapter_params(const struct swtim_adapter *adapter);

/**
 * The driver's private data.
 *
 * @param adapter
 *   The adapter.
 * @return
 *   What the driver stored with swtim_adapter_priv_set().
 */
void *swtim_adapter_priv(const struct swtim_adapter *adapter);

/**
 * Store the driver's private data.
 *
 * @param adapter
 *   The adapter.
 * @param priv
 *   Driver data.
 */
void swtim_adapter_priv_set(struct swtim_adapter *adapter, void *priv);

#ifdef __cplusplus
}
#endif

#endif /* SWTIM_DRIVER_H */
