/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_BUDGET_H
#define SWTIM_BUDGET_H

/**
 * @file
 * The nb_timers budget: how many timers may be armed and not yet
 * cancelled or handed to the event device. Exactly nb_timers can be
 * outstanding at once, whatever the lanes hold.
 *
 * A counter that every arm and cancel wrote was the one cache line all
 * producer lcores shared: with a second producer a single arm cost 2.6
 * times as much, a single cancel 5.6 times. So the slots are spread:
 *
 * - each lane holds credit (struct swtim_lane), slots it may arm with,
 *   changed only under the lane's lock, which the wheel's arm and cancel
 *   hold anyway: an arm takes from its lane's credit, a cancel gives to
 *   the credit of the lane it holds;
 * - the rest is in avail, shared: a lane whose credit runs out takes
 *   a batch (or what is left) at once, and one whose credit
 *   grows past twice that gives the excess back; the service gives the
 *   slots of delivered one-shot timers back to avail, once per enqueue;
 * - an arm that takes no lock (a driver's staged arm) takes from the
 *   lane's staged credit, on a line its producer alone writes, with a
 *   compare-and-swap; it is refilled under the lane's lock, from its
 *   credit and avail, by the locked arm the producer falls back to when
 *   it is empty;
 * - an arm that finds neither credit nor avail reclaims before it
 *   refuses: with every lane's lock held (so no credit moves, but
 *   staged credit into outstanding timers) it takes all credit and
 *   staged credit back into avail and takes from that. A refusal
 *   therefore means that at that moment nothing was left anywhere:
 *   exactly nb_timers were outstanding.
 *
 * limit == avail + every lane's credit and staged credit + the timers
 * outstanding, except
 * while a flush has given back the slots of events the device then
 * refused (swtim_evbuf_flush()), which it takes back at once: avail may
 * then be below zero for a moment.
 */

#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>

#include "swtim_lane.h"
#include "swtim_tunables.h"

struct swtim_budget {
	/** Timers that may be outstanding at once. */
	uint64_t limit;
	/** Slots a lane takes from avail at once (see above). */
	uint32_t batch;
	/** Slots a lane's staged credit is refilled with at once. */
	uint32_t staged_batch;
	/** Slots neither outstanding nor held by a lane. */
	int64_t avail __rte_cache_aligned;
};

/**
 * Set the budget up: all nb_timers slots in avail.
 *
 * @param b
 *   The budget.
 * @param limit
 *   nb_timers.
 */
static inline void
swtim_budget_init(struct swtim_budget *b, uint64_t limit)
{
	b->limit = limit;
	b->batch = RTE_MAX((uint64_t)SWTIM_BUDGET_BATCH_MIN,
			   RTE_MIN((uint64_t)SWTIM_BUDGET_BATCH_MAX,
				   limit / SWTIM_BUDGET_BATCH_SHARE));
	/* An eighth of a small adapter at most: the rest stays with the
	 * lanes that arm with the lock, without a reclaim. */
	b->staged_batch = RTE_MAX((uint64_t)1, RTE_MIN((uint64_t)b->batch *
					     SWTIM_STAGED_CREDIT_BATCHES,
					     limit / 8));
	b->avail = (int64_t)RTE_MIN(limit, (uint64_t)INT64_MAX);
}

/**
 * Take up to n slots from avail, never taking it below zero.
 *
 * @param b
 *   The budget.
 * @param n
 *   Slots wanted.
 * @return
 *   Slots taken.
 */
static inline uint64_t
swtim_budget_take_avail(struct swtim_budget *b, uint64_t n)
{
	int64_t cur = __atomic_load_n(&b->avail, __ATOMIC_RELAXED);
	uint64_t got;

	do {
		if (cur <= 0)
			return 0;
		got = RTE_MIN(n, (uint64_t)cur);
	} while (!__atomic_compare_exchange_n(&b->avail, &cur,
					      cur - (int64_t)got, true,
					      __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return got;
}

/**
 * Give n slots back to avail (the service's delivered timers, a lane's
 * excess credit).
 *
 * @param b
 *   The budget.
 * @param n
 *   Slots.
 */
static inline void
swtim_budget_give(struct swtim_budget *b, uint64_t n)
{
	if (n != 0)
		__atomic_fetch_add(&b->avail, (int64_t)n, __ATOMIC_RELEASE);
}

/**
 * Take slots back unconditionally, even below zero: for expiry events the
 * device refused after their slots were given back ahead of the enqueue
 * (see swtim_evbuf_flush()). Arms see a full budget until the events are
 * accepted.
 *
 * @param b
 *   The budget.
 * @param n
 *   Slots to take back.
 */
static inline void
swtim_budget_retake(struct swtim_budget *b, uint64_t n)
{
	if (n != 0)
		__atomic_fetch_sub(&b->avail, (int64_t)n, __ATOMIC_RELAXED);
}

/**
 * Take up to want slots for an arm on lane, with the lane's lock held:
 * from its credit, refilled from avail when short. Returns fewer only
 * when avail is empty too; the caller then drops the lock and calls
 * swtim_base_budget_reclaim() before it refuses.
 *
 * @param b
 *   The budget.
 * @param lane
 *   The arming lane, locked.
 * @param want
 *   Slots wanted.
 * @return
 *   Slots taken, from 0 to want.
 */
static __rte_always_inline uint32_t
swtim_credit_take(struct swtim_budget *b, struct swtim_lane *lane,
		  uint32_t want)
{
	uint32_t n;

	/* Release: the hint (swtim_base_outstanding_hint()) that reads the
	 * new credit reads avail without these slots. */
	if (unlikely(lane->credit < want))
		__atomic_store_n(&lane->credit, lane->credit +
				 swtim_budget_take_avail(b,
					want - lane->credit + b->batch),
				 __ATOMIC_RELEASE);
	n = RTE_MIN(want, lane->credit);
	lane->credit -= n;
	return n;
}

/**
 * Take one slot for an arm on lane that takes no lock, from the lane's
 * staged credit. Never refills it: that is done under the lane's lock
 * (swtim_staged_credit_refill()), so that a reclaim, which holds every
 * lock, sees no slot move but into outstanding timers.
 *
 * @param lane
 *   The arming lane.
 * @return
 *   true if a slot was taken; false if the staged credit is empty (the
 *   caller then arms with the lock, which refills it).
 */
static __rte_always_inline bool
swtim_staged_credit_take(struct swtim_lane *lane)
{
	uint32_t c = __atomic_load_n(&lane->staged_credit, __ATOMIC_RELAXED);

	while (c != 0)
		if (__atomic_compare_exchange_n(&lane->staged_credit, &c, c - 1,
						true, __ATOMIC_RELAXED,
						__ATOMIC_RELAXED))
			return true;
	return false;
}

/**
 * Move up to a staged batch of slots into lane's staged credit, from its
 * credit and avail, with the lane's lock held.
 *
 * @param b
 *   The budget.
 * @param lane
 *   The lane, locked.
 */
static __rte_always_inline void
swtim_staged_credit_refill(struct swtim_budget *b, struct swtim_lane *lane)
{
	uint32_t n = swtim_credit_take(b, lane, b->staged_batch);

	/* Release: as swtim_credit_take()'s, for the credit it took. */
	if (n != 0)
		__atomic_fetch_add(&lane->staged_credit, n, __ATOMIC_RELEASE);
}

/**
 * Give n slots to lane's credit (a cancel, an arm that took more than it
 * armed), with the lane's lock held; credit beyond twice
 * the batch goes back to avail.
 *
 * @param b
 *   The budget.
 * @param lane
 *   The lane, locked.
 * @param n
 *   Slots.
 */
static __rte_always_inline void
swtim_credit_give(struct swtim_budget *b, struct swtim_lane *lane,
		  uint32_t n)
{
	lane->credit += n;
	if (unlikely(lane->credit > 2 * b->batch)) {
		swtim_budget_give(b, lane->credit - b->batch);
		lane->credit = b->batch;
	}
}

#endif /* SWTIM_BUDGET_H */
