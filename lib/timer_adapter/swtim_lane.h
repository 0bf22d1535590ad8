/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_LANE_H
#define SWTIM_LANE_H

/**
 * @file
 * A lane: one producer's way to the event device. Each lcore arms timers
 * into a timer store of its own, whatever the driver makes it (a timing
 * wheel, a librte_timer skiplist); the store and what the service keeps
 * for it form the lane. This header is the part every driver shares:
 *
 * - the lock, held by whoever changes the store (the lcore arming into
 *   it, a cancel, the service taking due timers off it; the skiplist
 *   driver makes every librte_timer call on a list under its lane's lock),
 *   and the credit it guards: budget slots (swtim_budget.h) the lane holds
 *   for its next arms, so that an arm counts against nb_timers without
 *   writing a cache line that other lcores write;
 * - the claim: one service run at a time works on a lane (it expires the
 *   store's due timers and enqueues their events), taken by a try, so
 *   that several service lcores split the lanes between them without
 *   waiting for each other; a cancel that must take a periodic timer's
 *   waiting event back out of the buffer tries it too;
 * - whether the lane is dead: a process (a secondary killed inside an arm
 *   or a cancel) died holding its lock or claim, so the store may be half
 *   changed. Both are swtim_olock_t, which tell a dead holder from a slow
 *   one; whoever finds one marks the lane dead, and from then on nobody
 *   touches its store: the service skips it, and its timers answer arm,
 *   cancel and remaining_ticks with ENOTRECOVERABLE (swtim.h);
 * - the event buffer: the lane's expiry events in order, kept until the
 *   device takes them (swtim_evbuf.h);
 * - the statistics, written by the claim's holder (swtim_lane_stats.h).
 *
 * A driver embeds a struct swtim_lane in its per-lcore store and the
 * lanes' adapter (swtim_base.h) finds it by index. Lane i is lcore i's;
 * threads without an lcore id share lane SWTIM_LANE_NON_EAL, whose lock
 * makes that safe.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_lcore.h>

#include "swtim_evbuf.h"
#include "swtim_lane_stats.h"
#include "swtim_olock.h"

/**
 * The lane that threads without an lcore id share: the last one. An EAL
 * lcore of that id, if the application has one, shares it too; the
 * store's lock makes either safe.
 */
#define SWTIM_LANE_NON_EAL (RTE_MAX_LCORE - 1)

/** Lanes of an adapter: one per lcore id. */
#define SWTIM_LANES_MAX RTE_MAX_LCORE

/**
 * What every lane has: on one cache line what the producer writes, on
 * the next ones what the service writes, so that neither writes a line
 * the other works on unless it works on the other's side.
 */
struct swtim_lane {
	/** Guards the store and credit; swtim_lane_lock(). */
	swtim_olock_t lock;
	/** Budget slots held for this lane's next arms (under lock). */
	uint32_t credit;
	/** The lane's index, its lcore id. */
	uint16_t id;
	/**
	 * Budget slots held for the lane's next arms that take no lock (a
	 * driver's staged arm): on a line the lane's producer alone writes,
	 * taken one at a time with a compare-and-swap
	 * (swtim_staged_credit_take()), added to under the lock, and taken
	 * back whole by a reclaim.
	 */
	uint32_t staged_credit __rte_cache_aligned;
	/**
	 * 1 once a dead process was found holding lock or claim. On a line
	 * of its own, written once: the lock and the arms that take none
	 * read it without meeting anybody's writes.
	 */
	uint32_t dead __rte_cache_aligned;
	/** Held by a service run (or a cancel) working on the lane. */
	swtim_olock_t claim __rte_cache_aligned;
	/** Expiry events of this lane waiting for the device, in order. */
	struct swtim_evbuf evbuf;
	/** Counters, written by the claim's holder. */
	struct swtim_lane_stats stats;
};

/**
 * The lane of the calling thread.
 *
 * @return
 *   Its lcore id, or SWTIM_LANE_NON_EAL on a thread without one.
 */
static __rte_always_inline unsigned int
swtim_lane_of_caller(void)
{
	unsigned int lcore = rte_lcore_id();

	return lcore < RTE_MAX_LCORE ? lcore : SWTIM_LANE_NON_EAL;
}

/**
 * Mark a lane dead (its lock or claim is held by a dead process) and log
 * it, once.
 *
 * @param lane
 *   The lane.
 */
void swtim_lane_kill(struct swtim_lane *lane);

/**
 * Whether a lane is dead: nobody may touch its store.
 *
 * @param lane
 *   The lane.
 */
static __rte_always_inline bool
swtim_lane_dead(const struct swtim_lane *lane)
{
	return unlikely(__atomic_load_n(&lane->dead, __ATOMIC_RELAXED) != 0);
}

/**
 * Whether a lane is dead, finding out first whether a dead process holds
 * its lock or claim (and marking it dead if so): for the control path,
 * which touches lanes nobody may be waiting on, such as at free.
 *
 * @param lane
 *   The lane.
 * @return
 *   true if the lane is dead.
 */
bool swtim_lane_probe(struct swtim_lane *lane);

/**
 * The slow path of swtim_lane_lock(): wait for the lock.
 *
 * @param lane
 *   The lane.
 * @return
 *   0 once held (the caller checks that the lane is not dead), or
 *   -ENOTRECOVERABLE (not held) if the lane is dead or its holder is.
 */
int swtim_lane_lock_wait(struct swtim_lane *lane);

/**
 * Take a lane's lock, to change its store or credit.
 *
 * @param lane
 *   The lane.
 * @return
 *   0 once held; -ENOTRECOVERABLE if the lane is dead (then the lock is
 *   not held).
 */
static __rte_always_inline int
swtim_lane_lock(struct swtim_lane *lane)
{
	if (unlikely(!swtim_olock_trylock(&lane->lock, 0)) &&
	    swtim_lane_lock_wait(lane) != 0)
		return -ENOTRECOVERABLE;
	/* Held, but the lane may be dead all the same: its claim's holder
	 * died, or someone found it dead while we waited. */
	if (likely(!swtim_lane_dead(lane)))
		return 0;
	swtim_olock_unlock(&lane->lock);
	return -ENOTRECOVERABLE;
}

/**
 * Release a lane's lock.
 *
 * @param lane
 *   The lane.
 */
static __rte_always_inline void
swtim_lane_unlock(struct swtim_lane *lane)
{
	swtim_olock_unlock(&lane->lock);
}

/**
 * Try to claim a lane; never waits. A claim held by a dead process makes
 * the lane dead.
 *
 * @param lane
 *   The lane.
 * @return
 *   true if the caller holds the claim now.
 */
static __rte_always_inline bool
swtim_lane_claim(struct swtim_lane *lane)
{
	if (likely(swtim_olock_trylock(&lane->claim, 0)))
		return true;
	if (unlikely(swtim_olock_abandoned(&lane->claim)))
		swtim_lane_kill(lane);
	return false;
}

/**
 * The errno for a cancel that needs a lane's claim and did not get it.
 *
 * @param lane
 *   The lane, its claim just refused.
 * @return
 *   ENOTRECOVERABLE if the lane is dead, else EAGAIN (a service run has
 *   it: try again).
 */
static __rte_always_inline int
swtim_lane_claim_errno(const struct swtim_lane *lane)
{
	return swtim_lane_dead(lane) ? ENOTRECOVERABLE : EAGAIN;
}

/**
 * Release a claim taken with swtim_lane_claim().
 *
 * @param lane
 *   The lane.
 */
static __rte_always_inline void
swtim_lane_release(struct swtim_lane *lane)
{
	swtim_olock_unlock(&lane->claim);
}

#endif /* SWTIM_LANE_H */
