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
 *   it, a cancel, the service taking due timers off it; the wheel takes
 *   it for all of these, the skiplist, whose lists librte_timer locks
 *   itself, only for the credit), and the credit it guards: budget slots
 *   (swtim_budget.h) the lane holds for its next arms, so that an arm
 *   counts against nb_timers without writing a cache line that other
 *   lcores write;
 * - the claim: one service run at a time works on a lane (it expires the
 *   store's due timers and enqueues their events), taken by exchange, so
 *   that several service lcores split the lanes between them without
 *   waiting for each other; a cancel that must take a periodic timer's
 *   waiting event back out of the buffer tries it too;
 * - the event buffer: the lane's expiry events in order, kept until the
 *   device takes them (swtim_evbuf.h);
 * - the statistics, written by the claim's holder (swtim_lane_stats.h).
 *
 * A driver embeds a struct swtim_lane in its per-lcore store and the
 * lanes' adapter (swtim_base.h) finds it by index. Lane i is lcore i's;
 * threads without an lcore id share lane SWTIM_LANE_NON_EAL, whose lock
 * makes that safe.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_spinlock.h>

#include "swtim_evbuf.h"
#include "swtim_lane_stats.h"

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
	/** Guards the store (as the driver says) and credit. */
	rte_spinlock_t lock;
	/** Budget slots held for this lane's next arms (under lock). */
	uint32_t credit;
	/** The lane's index, its lcore id. */
	uint16_t id;
	/** 1 while a service run (or a cancel) holds the lane. */
	uint32_t claimed __rte_cache_aligned;
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
 * Try to claim a lane; never waits.
 *
 * @param lane
 *   The lane.
 * @return
 *   true if the caller holds the claim now.
 */
static __rte_always_inline bool
swtim_lane_claim(struct swtim_lane *lane)
{
	return __atomic_exchange_n(&lane->claimed, 1, __ATOMIC_ACQUIRE) == 0;
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
	__atomic_store_n(&lane->claimed, 0, __ATOMIC_RELEASE);
}

#endif /* SWTIM_LANE_H */
