/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_BASE_H
#define SWTIM_BASE_H

/**
 * @file
 * The part of a driver's adapter that every driver shares: the lanes
 * (swtim_lane.h) and the service that empties them, the nb_timers
 * budget, the adapter's clock in ticks, its event ports, and the control
 * ops built on them (start, stop, service id, statistics, next deadline,
 * free). A driver's adapter begins with a struct swtim_base; the driver
 * adds its fast path (arm, cancel, remaining ticks, into its per-lcore
 * stores) and, through struct swtim_lane_ops, the few things the shared
 * service needs to know about a store: whether it has timers due, how to
 * expire them into the lane's buffer, when its next timer is due.
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

struct swtim_base;

/** What a driver tells the shared service and control path. */
struct swtim_lane_ops {
	/**
	 * Whether a lane whose buffer is empty may have timers due at tick
	 * (timer cycles now). Read without the lane's claim, as a hint: a
	 * false yes costs a claim and a scan that finds nothing, a false no
	 * delays the timers to the next run.
	 */
	bool (*due)(const struct swtim_base *base,
		    const struct swtim_lane *lane, uint64_t now, uint64_t tick);
	/**
	 * Expire the due timers of a claimed lane, whose buffer is empty,
	 * into its buffer and flush it with swtim_lane_flush() (as often as
	 * the driver likes: the wheel flushes each chunk). Return whether
	 * anything expired or went to the device.
	 */
	bool (*scan)(struct swtim_base *base, struct swtim_lane *lane,
		     struct swtim_port *port, uint64_t now, uint64_t tick);
	/**
	 * Timer-cycle time at which the lane's store next has a timer due
	 * (0: now; UINT64_MAX: none), for a lane whose buffer is empty;
	 * asked only while some timer may be outstanding
	 * (swtim_base_outstanding_hint()). MT safe against the fast path
	 * and the service.
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
	/**
	 * At free, once the service is gone and the buffers released:
	 * cancel what the stores still hold and free every bit of the
	 * driver's memory, the adapter struct holding the base included.
	 * Also called to undo an init that failed half way.
	 */
	void (*teardown)(struct swtim_base *base);
	/**
	 * Optional: at the start of each service run, inside the gate;
	 * false ends the run at once.
	 */
	bool (*run_begin)(struct swtim_base *base);
	/** Optional: at start, before the service may run (now: the clock). */
	void (*start)(struct swtim_base *base, uint64_t now);
};

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
	 * The driver, by index: its lane ops are found in each process's
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
 * The lane ops of the base's driver, in this process.
 *
 * @param base
 *   The adapter's base.
 * @return
 *   The driver's lane ops.
 */
static __rte_always_inline const struct swtim_lane_ops *
swtim_base_ops(const struct swtim_base *base)
{
	return swtim_drivers_by_index[base->drv_index]->lane_ops;
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
 * Set the base up, in a driver's init, on the driver's zeroed adapter
 * struct that swtim_adapter_priv() gives (the base at its start).
 *
 * @param base
 *   The base.
 * @param adapter
 *   The adapter.
 * @param args
 *   Driver options (the base reads max_sleep_us, SWTIM_IDLE_ARG).
 * @return
 *   0, or -EINVAL for a bad option (logged).
 */
int swtim_base_init(struct swtim_base *base, struct swtim_adapter *adapter,
		    const struct rte_kvargs *args);

/**
 * Tell the base where the lanes are: lane i at first + i * stride, for
 * SWTIM_LANES_MAX lanes, each set empty here.
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
 * Register the adapter's service, named "swtim_<short_name>_<adapter
 * id>", last in a driver's init.
 *
 * @param base
 *   The base.
 * @param short_name
 *   The driver's short name.
 * @return
 *   0 or the error of rte_service_component_register().
 */
int swtim_base_service_register(struct swtim_base *base,
				const char *short_name);

/**
 * Offer a claimed lane's buffered events to the device through port, and
 * for a periodic adapter put the timers of those it took back into their
 * store (periodic_resume). For the driver's scan.
 *
 * @param base
 *   The base.
 * @param lane
 *   The lane, claimed.
 * @param port
 *   The lane's port.
 * @return
 *   Events the device took.
 */
uint32_t swtim_lane_flush(struct swtim_base *base, struct swtim_lane *lane,
			  struct swtim_port *port);

/**
 * Timer-cycle time by which the service must run next: 0 if a lane has
 * events waiting, the earliest of the lanes' next deadlines otherwise
 * (UINT64_MAX: nothing armed). MT safe against the fast path and the
 * service.
 *
 * @param base
 *   The base.
 * @return
 *   The deadline.
 */
uint64_t swtim_base_deadline(const struct swtim_base *base);

/**
 * The service of every adapter built on a base: claims each lane that
 * may have work, flushes what its buffer still holds, lets the driver
 * expire what is due (scan), maintains the ports and idles. The argument
 * is the base.
 */
int32_t swtim_service_run(void *arg);

/** @name Control ops for struct swtim_driver_ops, built on the base. */
/**@{*/
void swtim_base_uninit(struct swtim_adapter *adapter);
int swtim_base_start(struct swtim_adapter *adapter);
int swtim_base_stop(struct swtim_adapter *adapter);
int swtim_base_service_id_get(const struct swtim_adapter *adapter,
			      uint32_t *service_id);
void swtim_base_stats_get(const struct swtim_adapter *adapter,
			  struct rte_event_timer_adapter_stats *stats);
void swtim_base_stats_reset(struct swtim_adapter *adapter);
uint64_t swtim_base_next_deadline(const struct swtim_adapter *adapter);
/**@}*/

/**
 * The control ops every driver built on a base takes as they are; the
 * driver adds init and its fast path.
 */
#define SWTIM_BASE_CONTROL_OPS \
	.uninit = swtim_base_uninit, \
	.start = swtim_base_start, \
	.stop = swtim_base_stop, \
	.service_id_get = swtim_base_service_id_get, \
	.stats_get = swtim_base_stats_get, \
	.stats_reset = swtim_base_stats_reset, \
	.next_deadline = swtim_base_next_deadline

#endif /* SWTIM_BASE_H */
