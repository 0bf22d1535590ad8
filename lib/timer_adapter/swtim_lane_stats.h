/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_LANE_STATS_H
#define SWTIM_LANE_STATS_H

/**
 * @file
 * Statistics kept per lane (swtim_lane.h), each written only by the
 * service run that has claimed that lane (or a cancel holding the same
 * claim), and summed when the application asks.
 *
 * A reset never writes the counters: a writer on another lcore may have
 * loaded one just before and would store the old value plus its own
 * back over the zero, or a cancel taking back an event counted before
 * the reset would take the counter below zero. The reset records the
 * counters instead, and reads subtract what it recorded.
 *
 * There is no evtim_drop_count: swtim drops no expiry (swtim.h), so the
 * adapter's stays 0.
 */

#include <stdint.h>

#include <rte_event_timer_adapter.h>

/** The counters of one lane. */
struct swtim_lane_counts {
	uint64_t evtim_exp_count;
	uint64_t ev_enq_count;
	uint64_t evtim_retry_count;
};

/** Counters of one lane, and what they were at the last reset. */
struct swtim_lane_stats {
	uint64_t evtim_exp_count;
	uint64_t ev_enq_count;
	uint64_t evtim_retry_count;
	/** Written by swtim_lane_stats_reset() only. */
	struct swtim_lane_counts at_reset;
};

/* What a counter gained since the reset; none if a take-back of an event
 * counted before the reset left it below what the reset saw. */
static inline uint64_t
swtim_lane_stats_since(const uint64_t *now, const uint64_t *at_reset)
{
	uint64_t n = __atomic_load_n(now, __ATOMIC_RELAXED);
	uint64_t r = __atomic_load_n(at_reset, __ATOMIC_RELAXED);

	return n > r ? n - r : 0;
}

/**
 * Add one lane's counters since the last reset to the adapter's.
 *
 * @param sum
 *   The adapter's statistics.
 * @param s
 *   One lane's counters, possibly being written by the service.
 */
static inline void
swtim_lane_stats_add(struct rte_event_timer_adapter_stats *sum,
		       const struct swtim_lane_stats *s)
{
	sum->evtim_exp_count += swtim_lane_stats_since(&s->evtim_exp_count,
			&s->at_reset.evtim_exp_count);
	sum->ev_enq_count += swtim_lane_stats_since(&s->ev_enq_count,
			&s->at_reset.ev_enq_count);
	sum->evtim_retry_count += swtim_lane_stats_since(
			&s->evtim_retry_count, &s->at_reset.evtim_retry_count);
}

/**
 * Take back one expiry (a cancel taking a periodic timer's event back
 * out of the buffer), by the lane's writer. If nothing has been counted
 * since the last reset, the event was counted before it: the reset's
 * record goes down too, so that what is counted after still shows.
 *
 * @param s
 *   The counters.
 */
static inline void
swtim_lane_stats_exp_take_back(struct swtim_lane_stats *s)
{
	uint64_t n = s->evtim_exp_count;
	uint64_t r = __atomic_load_n(&s->at_reset.evtim_exp_count,
				     __ATOMIC_RELAXED);

	if (n == 0)
		return;	/* cannot happen: it was counted when built */
	if (n <= r)
		__atomic_store_n(&s->at_reset.evtim_exp_count, r - 1,
				 __ATOMIC_RELAXED);
	__atomic_store_n(&s->evtim_exp_count, n - 1, __ATOMIC_RELAXED);
}

/**
 * Reset one lane's counters: from now on reads count from their values
 * now. Safe against the lane's writer running at the same time.
 *
 * @param s
 *   The counters.
 */
static inline void
swtim_lane_stats_reset(struct swtim_lane_stats *s)
{
	__atomic_store_n(&s->at_reset.evtim_exp_count,
			 __atomic_load_n(&s->evtim_exp_count, __ATOMIC_RELAXED),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&s->at_reset.ev_enq_count,
			 __atomic_load_n(&s->ev_enq_count, __ATOMIC_RELAXED),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&s->at_reset.evtim_retry_count,
			 __atomic_load_n(&s->evtim_retry_count,
					 __ATOMIC_RELAXED), __ATOMIC_RELAXED);
}

#endif /* SWTIM_LANE_STATS_H */
