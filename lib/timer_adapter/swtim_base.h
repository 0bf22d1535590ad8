/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_BASE_H
#define SWTIM_BASE_H

/**
 * @file
 * The part of a driver's adapter that the generic layer owns, at the
 * start of every driver's adapter struct: the lanes (swtim_lane.h), one
 * per lcore, each inside the driver's store for that lcore; the
 * nb_timers budget; the adapter's clock in ticks and grains; and on
 * cache lines of their own the service's side: its id and gate, its
 * event ports, the idle state. The generic layer sets the base up, runs
 * the one service loop (swtim_service.c) and the control path (start,
 * stop, statistics, next deadline, free: swtim_base.c) on it; a driver's
 * operations (swtim_driver.h) are all called with it.
 *
 * The service (swtim_service_run()) is MT safe: runs on several service
 * lcores split the lanes between them, each claiming a lane for as long
 * as it works on it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_kvargs.h>
#include <rte_reciprocal.h>

#include "swtim_budget.h"
#include "swtim_driver.h"
#include "swtim_idle.h"
#include "swtim_lane.h"
#include "swtim_poll_set.h"
#include "swtim_port.h"
#include "swtim_service.h"
#include "swtim_tunables.h"

/** The shared part of a driver's adapter, at the start of the driver's. */
struct swtim_base {
	/* Read-mostly, used on every arm. */
	bool periodic;
	/** The adapter's id. */
	uint16_t id;
	int socket;
	/** Adapter tick in timer cycles. */
	uint64_t tick_cycles;
	/** Timer cycles at tick 0 (the adapter's creation). */
	uint64_t start_cycles;
	/** Division by tick_cycles. */
	struct rte_reciprocal_u64 tick_div;
	/**
	 * The grid the drivers place deadlines on and scan at: a tick cut
	 * in 2^grain_shift grains (swtim_base_grain_init()), so that a
	 * timer is due at most a grain, not a tick, after its exact
	 * deadline wherever in a tick it was armed.
	 */
	uint64_t grain_cycles;
	unsigned int grain_shift;
	/** Division by grain_cycles. */
	struct rte_reciprocal_u64 grain_div;
	/** Timers armed and not yet cancelled or handed to the device. */
	struct swtim_budget budget;
	/** Lanes the service scans: only those ever armed into. */
	struct swtim_poll_set polled;
	/** Lane 0, inside the driver's first store; lane i lane_stride on. */
	char *lanes;
	size_t lane_stride;
	/**
	 * The driver, by index: its operations are found in each process's
	 * own table (swtim_base_ops()), for this struct is in memory that
	 * processes share, and a function's address is one process's.
	 */
	uint16_t drv_index;

	/* Service side. */
	uint32_t service_id __rte_cache_aligned;
	struct swtim_service_gate gate;
	/** Last tick any run processed. */
	uint64_t ticks_done;
	uint64_t adapter_tick_count;
	struct swtim_ports ports;
	struct swtim_idle idle;
};

/**
 * The operations of the base's driver, in this process.
 *
 * @param base
 *   The adapter's base.
 * @return
 *   The driver's operations.
 */
static __rte_always_inline const struct swtim_driver_ops *
swtim_base_ops(const struct swtim_base *base)
{
	return swtim_driver_ops_by_index[base->drv_index];
}

/**
 * Lane id of an adapter.
 *
 * @param base
 *   The adapter's base.
 * @param id
 *   Below SWTIM_LANES_MAX.
 * @return
 *   The lane.
 */
static __rte_always_inline struct swtim_lane *
swtim_base_lane(const struct swtim_base *base, unsigned int id)
{
	return (struct swtim_lane *)(base->lanes + id * base->lane_stride);
}

/**
 * The tick that contains timer-cycle time now.
 *
 * @param base
 *   The adapter's base.
 * @param now
 *   Timer cycles, not before the adapter's creation.
 * @return
 *   Ticks since the adapter was created.
 */
static __rte_always_inline uint64_t
swtim_base_tick_of(const struct swtim_base *base, uint64_t now)
{
	return rte_reciprocal_divide_u64(now - base->start_cycles,
					 &base->tick_div);
}

/**
 * The grain that contains timer-cycle time now.
 *
 * @param base
 *   The adapter's base.
 * @param now
 *   Timer cycles, not before the adapter's creation.
 * @return
 *   Grains since the adapter was created.
 */
static __rte_always_inline uint64_t
swtim_base_grain_of(const struct swtim_base *base, uint64_t now)
{
	return rte_reciprocal_divide_u64(now - base->start_cycles,
					 &base->grain_div);
}

/**
 * The first grain that starts at or after timer-cycle time now.
 *
 * @param base
 *   The adapter's base.
 * @param now
 *   Timer cycles, not before the adapter's creation.
 * @return
 *   That grain.
 */
static __rte_always_inline uint64_t
swtim_base_grain_after(const struct swtim_base *base, uint64_t now)
{
	return rte_reciprocal_divide_u64(now - base->start_cycles +
					 base->grain_cycles - 1,
					 &base->grain_div);
}

/**
 * Count the ticks the adapter has moved through up to tick, once whoever
 * sees them (the service's runs, a statistics reset). MT safe.
 *
 * @param base
 *   The adapter's base.
 * @param tick
 *   swtim_base_tick_of() a time.
 */
void swtim_base_ticks_account(struct swtim_base *base, uint64_t tick);

/**
 * In a driver's init: tell the base where the lanes are, lane i at
 * first + i * stride, for SWTIM_LANES_MAX lanes, each set empty here.
 *
 * @param base
 *   The base.
 * @param first
 *   Lane 0.
 * @param stride
 *   Bytes from one lane to the next (the driver's store size).
 */
void swtim_base_lanes_set(struct swtim_base *base, struct swtim_lane *first,
			  size_t stride);

/**
 * Reclaim every lane's credit and take up to want slots from the whole:
 * for an arm that found neither credit nor avail, before it refuses.
 * Takes what avail has gained meanwhile first; for the rest, every lane's
 * lock, in lane order, so call it holding none (the arming lane's
 * dropped); that order is why no other path holds two.
 *
 * @param base
 *   The base.
 * @param want
 *   Slots wanted.
 * @return
 *   Slots taken (counted as outstanding, not credit): fewer than want
 *   only if exactly nb_timers are outstanding now.
 */
uint32_t swtim_base_budget_reclaim(struct swtim_base *base, uint32_t want);

/**
 * Start an arm of nb timers on the caller's lane: lock it and take their
 * budget, from the lane's credit or, short of that, every lane's
 * (swtim_base_budget_reclaim(), with the lane's lock dropped meanwhile).
 *
 * @param base
 *   The base.
 * @param lane
 *   The caller's lane.
 * @param nb
 *   Timers to arm.
 * @return
 *   The slots taken (nb, or fewer when exactly nb_timers are outstanding)
 *   with the lane locked; or -ENOTRECOVERABLE, nothing taken and the lane
 *   not locked, when the lane is dead.
 */
static __rte_always_inline int
swtim_base_arm_begin(struct swtim_base *base, struct swtim_lane *lane,
		     uint16_t nb)
{
	uint16_t budget;

	if (unlikely(swtim_lane_lock(lane) != 0))
		return -ENOTRECOVERABLE;
	budget = swtim_credit_take(&base->budget, lane, nb);
	if (unlikely(budget < nb)) {
		/* Neither credit nor avail: gather every lane's first. */
		swtim_lane_unlock(lane);
		budget += swtim_base_budget_reclaim(base, nb - budget);
		if (unlikely(swtim_lane_lock(lane) != 0)) {
			swtim_budget_give(&base->budget, budget);
			return -ENOTRECOVERABLE;
		}
	}
	return budget;
}

/**
 * About how many timers are outstanding, read without locks: for a
 * driver's next deadline, which must not say "nothing armed" while
 * something is; lanes not in the poll set are not read, so their credit
 * only makes the answer larger.
 *
 * @param base
 *   The base.
 * @return
 *   nb_timers less the slots seen free.
 */
uint64_t swtim_base_outstanding_hint(const struct swtim_base *base);

/**
 * Timer-cycle time by which the service must run next: 0 if a lane has
 * events waiting, the earliest of the lanes' next deadlines otherwise
 * (UINT64_MAX: nothing armed). MT safe against the fast path and the
 * service; in any process.
 *
 * @param base
 *   The base.
 * @return
 *   The deadline.
 */
uint64_t swtim_base_deadline(const struct swtim_base *base);

/**
 * Create the adapter's base and driver part: drv->priv_size bytes,
 * zeroed, the base set up (it reads SWTIM_IDLE_ARG), the driver's init,
 * the service registered, named after the driver's short name. Sets the
 * adapter's priv. Called by create with swtim_adapters_lock held.
 *
 * @param adapter
 *   The adapter, its parameters and driver index set.
 * @param drv
 *   Its driver.
 * @param args
 *   The options, checked against the generic and the driver's keys.
 * @return
 *   0, or -errno with nothing left behind (logged).
 */
int swtim_base_create(struct swtim_adapter *adapter,
		      const struct swtim_driver *drv,
		      const struct rte_kvargs *args);

/**
 * Free what swtim_base_create() made, on a stopped adapter: the service
 * quiesced and unregistered, the buffers' events dropped (waiting
 * periodic timers cancelled), the driver's teardown, the memory.
 *
 * @param adapter
 *   The adapter.
 */
void swtim_base_free(struct swtim_adapter *adapter);

/**
 * Let the service deliver: set the ports up, count ticks from now, the
 * driver's start, open the gate.
 *
 * @param adapter
 *   The adapter, stopped, its service mapped.
 * @return
 *   0, or the error of rte_service_component_runstate_set().
 */
int swtim_base_start(struct swtim_adapter *adapter);

/**
 * Close the gate: returns once no service run is inside the adapter.
 *
 * @param adapter
 *   The adapter.
 */
void swtim_base_stop(struct swtim_adapter *adapter);

/**
 * Add the lanes' counters and the ticks up to now to stats.
 *
 * @param base
 *   The base.
 * @param[out] stats
 *   Zeroed by the caller.
 */
void swtim_base_stats_get(const struct swtim_base *base,
			  struct rte_event_timer_adapter_stats *stats);

/**
 * Count from now on (swtim_lane_stats_reset(): no counter is written).
 *
 * @param base
 *   The base.
 */
void swtim_base_stats_reset(struct swtim_base *base);

#endif /* SWTIM_BASE_H */
