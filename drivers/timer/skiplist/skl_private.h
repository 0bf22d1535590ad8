/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SKL_PRIVATE_H
#define SKL_PRIVATE_H

/**
 * @file
 * The skiplist driver: producer lcores insert timers straight into their
 * own lcore's librte_timer skiplist (one rte_timer_data instance per
 * adapter); each lcore's list is its lane (swtim_lane.h), which the
 * generic layer's service (swtim_service.c) has the driver scan once per
 * grain of the adapter tick (skl_lane_expire()), the expired timers'
 * events going to the lane's buffer.
 *
 * Files: skl_ctrl.c (control path, the driver's table of operations),
 * skl_fastpath.c (arm, cancel, remaining ticks), skl_service.c (what the
 * service asks of a list: scanning it), skl_recycler.[ch] (the timer
 * objects' allocator).
 *
 * Who owns a timer object (struct skl_timer) is decided by one word,
 * skl_timer.owner, changed only by compare-and-swap:
 *
 *   evtim | ARMING   being armed: its rte_timer may not be on a list yet
 *   evtim            armed, idle
 *   evtim | BUSY     the service is turning it into an expiry event
 *   evtim | QUEUED   expired while its list's buffer was full: off every
 *                    list, in the list's overflow queue, its event not
 *                    built yet
 *   0                free (never armed, expired, or cancelled)
 *
 * An arm publishes evtim|ARMING (and the state ARMED, before the timer
 * can fire and set NOT_ARMED), puts the rte_timer on its list, then moves
 * evtim|ARMING -> evtim; a cancel that comes in between gets EAGAIN, for
 * stopping a timer not yet on its list would recycle an object the arm
 * is about to put there. The service moves evtim or evtim|ARMING ->
 * evtim|BUSY before it delivers (the arm's last move then fails, and it
 * leaves the timer to the service); cancel moves evtim -> 0 before it
 * stops the rte_timer. Whoever wins decides whether
 * the timer is delivered or cancelled, so it is never both. A periodic
 * timer stays evtim|BUSY, its rte_timer stopped, until the device has
 * taken its event; only then is it armed for its next period and moved
 * back to evtim. A cancel meanwhile takes the event back out of the
 * buffer, under the list's scan claim (EAGAIN while a service run has
 * the list), so that none that succeeds leaves an event of its timer to
 * be enqueued later. A queued timer is cancelled the same way: under
 * the claim of the list whose queue it is in (EAGAIN while a service run
 * has it), evtim|QUEUED -> 0 and out of the queue, so that its object
 * goes home and its place in nb_timers comes back at once. Cancel reads
 * its object from the event timer, which may be stale if the object was
 * recycled for another event timer meanwhile: the CAS then fails because
 * owner names the other timer, and the stale object is left alone.
 *
 * Every librte_timer call on a list (an arm's reset, a cancel's stop, the
 * service's manage and its periodic re-arms) is made under that list's
 * lane lock (swtim_lane.h). librte_timer's own list locks are plain
 * spinlocks that cannot tell a dead holder: this way a process killed
 * inside librte_timer, holding a list's lock, holds its lane's lock too,
 * which does tell, and the list's lane is found dead instead of the
 * service spinning on the list for good. The lane lock also guards the
 * lane's credit.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_eventdev.h>
#include <rte_timer.h>

#include "skl_recycler.h"
#include "swtim_base.h"

/*
 * Objects sent home per skl_recycler_put_remote() after a scan: one
 * pool operation per recycler bulk.
 */
#define SKL_FREE_BULK SKL_RECYCLER_BULK

/*
 * Timer objects an arm burst takes from the recycler per call, and fetches
 * with their event timers before it writes them: one recycler bulk, so a
 * chunk costs the lcore's cache at most one refill from a pool. On the
 * stack as an array of pointers (256 bytes). Not measured on its own.
 */
#define SKL_ARM_CHUNK SKL_RECYCLER_BULK

/*
 * How long a cancel spins on a timer that the service is running before
 * it yields the CPU: on machines with more lcores than CPUs the service
 * may need the canceller's CPU to finish.
 */
#define SKL_CANCEL_SPINS 1024

/* Set in skl_timer.owner while the service delivers the timer. */
#define SKL_OWNER_BUSY ((uintptr_t)1)
/* Set in skl_timer.owner while an arm puts the timer on its list. */
#define SKL_OWNER_ARMING ((uintptr_t)2)
/* Set in skl_timer.owner while the timer waits in an overflow queue. */
#define SKL_OWNER_QUEUED ((uintptr_t)4)
/* The event timer an owner word names (event timers are 64-byte
 * aligned: the low bits are free for the flags). */
#define SKL_OWNER_EVTIM(owner) \
	((owner) & ~(SKL_OWNER_BUSY | SKL_OWNER_ARMING | SKL_OWNER_QUEUED))

/*
 * Most events a list's buffer holds. A scan of a librte_timer list takes
 * everything due on it at once, however much that is (after the service
 * was held up for minutes, millions); what does not fit waits in the
 * list's overflow queue, linked through the timer objects, so that a
 * backlog costs no memory beyond the objects it already has. 8192 events
 * (192 KiB with the tags) are several device bursts: the service refills
 * the buffer from the queue as the device takes them.
 */
#define SKL_EVBUF_CAP 8192

/** A timer object: the rte_timer and who owns it. */
struct skl_timer {
	struct rte_timer tim;
	/** Event timer it is armed for, see the file comment. */
	uintptr_t owner;
	/**
	 * Link in the service's list of objects to send home, or the next
	 * in a list's overflow queue (never both at once).
	 */
	struct skl_timer *free_next;
	/** The one before it in a list's overflow queue. */
	struct skl_timer *queue_prev;
	/** Lcore whose recycler cache it came from. */
	uint16_t home;
	/** The list (lane) it is armed on, whose lock its stop needs. */
	uint16_t list;
	/**
	 * Armings of this object so far, bumped before each arm publishes
	 * its owner: remaining_ticks_get() reads the deadline without a
	 * lock and takes it only if no arming came in between (the object
	 * may go to another timer and back to the same one meanwhile).
	 * Next to home, which the arm writes too: no line more to touch.
	 */
	uint32_t armings;
	/** Periodic timers: timer cycles of the next period's expiry. */
	uint64_t next_expire;
	/** Periodic timers: the period in timer cycles. */
	uint64_t period;
	/**
	 * The list that expired it last: whose buffer holds its waiting
	 * event (periodic timers), or whose overflow queue holds it.
	 */
	uint16_t waiting_list;
};

/**
 * One lcore's lane: its librte_timer list (inside the timer data
 * instance, indexed by the lane's id) and what the service keeps for it.
 * Guarded by the lane's claim.
 */
struct skl_list {
	struct swtim_lane lane;
	/* Timer cycles from which the list is due for its next scan. */
	uint64_t next_scan;
	/* Objects of timers expired in the running scan. */
	struct skl_timer *free_list;
	/*
	 * Timers expired while the buffer held SKL_EVBUF_CAP events, or was
	 * full and could not grow for want of memory, oldest first (owner
	 * evtim|QUEUED), linked both ways so that a cancel takes
	 * one out from anywhere. Non-empty means the list is due: the next
	 * scan moves them into the buffer before it expires anything new.
	 */
	struct skl_timer *overflow_head, *overflow_tail;
} __rte_cache_aligned;

/** The driver's per-adapter data. */
struct skl_adapter {
	/* Lanes, budget, service, ports: shared with every driver. */
	struct swtim_base base;
	/* Read-mostly, used on every arm. */
	uint32_t timer_data_id;
	struct skl_recycler *recycler;
	struct skl_timer *objs;		/* every timer object */
	struct skl_list lists[SWTIM_LANES_MAX];
};

/* The driver's adapter a base is the start of. */
static __rte_always_inline struct skl_adapter *
skl_of_base(const struct swtim_base *base)
{
	return container_of(base, struct skl_adapter, base);
}

/* The list a lane of the adapter is. */
static __rte_always_inline struct skl_list *
skl_list_of(struct swtim_lane *lane)
{
	return container_of(lane, struct skl_list, lane);
}

/* skl_fastpath.c: the driver's fast path (struct swtim_driver_ops) */
uint16_t skl_arm_burst(struct swtim_base *base,
		       struct rte_event_timer **evtims, uint64_t timeout_ticks,
		       uint16_t nb);
uint16_t skl_cancel_burst(struct swtim_base *base,
			  struct rte_event_timer **evtims, uint16_t nb);
int skl_remaining_ticks_get(const struct swtim_base *base,
			    const struct rte_event_timer *evtim,
			    uint64_t *ticks_remaining);

/*
 * Timeouts up to this many timer cycles are taken as they are: the clock
 * would need to have run for 2^63 cycles (decades at any TSC rate) for a
 * deadline that far ahead to overflow.
 */
#define SKL_CYCLES_NEAR (UINT64_C(1) << 62)

/*
 * Headroom below 2^64 timer cycles for far deadlines: librte_timer adds
 * the cycles we give it to its own, later, reading of the clock. 2^40
 * cycles are minutes at any TSC rate.
 */
#define SKL_CLOCK_HEADROOM (UINT64_C(1) << 40)

uint64_t skl_far_cycles(uint64_t cycles);

/**
 * Timer cycles from now to a deadline ticks adapter ticks away, no further
 * than the clock can count: a timeout whose deadline does not fit in 64
 * bits of cycles (about 224 years at 2.6 GHz) is held at the largest that
 * does, which the clock never reaches.
 */
static __rte_always_inline uint64_t
skl_ticks_to_cycles(const struct skl_adapter *skl, uint64_t ticks)
{
	uint64_t cycles;

	if (unlikely(__builtin_mul_overflow(ticks, skl->base.tick_cycles,
					    &cycles)))
		return skl_far_cycles(UINT64_MAX);
	if (unlikely(cycles > SKL_CYCLES_NEAR))
		return skl_far_cycles(cycles);
	return cycles;
}

/** Sum of timer cycles, saturating instead of wrapping. */
static __rte_always_inline uint64_t
skl_cycles_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* skl_service.c: what the service asks of a list (struct swtim_driver_ops) */
void skl_overflow_unlink(struct skl_list *list, struct skl_timer *t);
bool skl_lane_due(const struct swtim_base *base,
		  const struct swtim_lane *lane, uint64_t now);
uint32_t skl_lane_expire(struct swtim_base *base, struct swtim_lane *lane,
			 uint64_t now, uint32_t max);
uint64_t skl_lane_next_deadline(const struct swtim_base *base,
				const struct swtim_lane *lane);
void skl_periodic_resume(struct swtim_base *base, struct swtim_lane *lane,
			 uint32_t first, uint32_t n);
bool skl_run_begin(struct swtim_base *base);

#endif /* SKL_PRIVATE_H */
