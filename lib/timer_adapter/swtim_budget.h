/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_BUDGET_H
#define SWTIM_BUDGET_H

/**
 * @file
 * The nb_timers budget drivers share: how many timers are armed and not
 * yet cancelled or handed to the event device. Exactly nb_timers can be
 * taken at once, whatever object caches hold, because the budget, not the
 * object pool, decides ENOSPC.
 */

#include <stdint.h>

#include <rte_common.h>

/** The budget. */
struct swtim_budget {
	/** Timers that may be outstanding at once. */
	uint64_t limit;
	/** Timers outstanding now. */
	uint64_t used __rte_cache_aligned;
};

/**
 * Take up to want slots.
 *
 * A compare-and-swap loop rather than add-then-undo, so that a burst that
 * overflows never makes a concurrent arm see a full adapter that is not.
 *
 * @param b
 *   The budget.
 * @param want
 *   Slots wanted.
 * @return
 *   Slots taken, from 0 to want.
 */
static inline uint16_t
swtim_budget_take(struct swtim_budget *b, uint16_t want)
{
	uint64_t cur = __atomic_load_n(&b->used, __ATOMIC_RELAXED);
	uint64_t n;

	do {
		/* used can exceed limit for a moment: see swtim_budget_retake */
		n = cur >= b->limit ? 0 : RTE_MIN((uint64_t)want, b->limit - cur);
		if (n == 0)
			return 0;
	} while (!__atomic_compare_exchange_n(&b->used, &cur, cur + n, true,
					      __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return n;
}

/**
 * Give slots back.
 *
 * @param b
 *   The budget.
 * @param n
 *   Slots to give back.
 */
static inline void
swtim_budget_give(struct swtim_budget *b, uint64_t n)
{
	if (n != 0)
		__atomic_fetch_sub(&b->used, n, __ATOMIC_RELEASE);
}

/**
 * Take slots back unconditionally, even past the limit.
 *
 * For expiry events the device refused after their slots were given back
 * ahead of the enqueue (see swtim_evbuf_flush()). Arms see a full budget
 * until the events are accepted.
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
		__atomic_fetch_add(&b->used, n, __ATOMIC_RELAXED);
}

#endif /* SWTIM_BUDGET_H */
