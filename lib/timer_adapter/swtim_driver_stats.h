/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_DRIVER_STATS_H
#define SWTIM_DRIVER_STATS_H

/**
 * @file
 * Statistics a driver keeps per list or wheel, each written only by the
 * service run that has claimed that list, and summed when the application
 * asks.
 */

#include <stdint.h>
#include <string.h>

#include <rte_event_timer_adapter.h>

/** Counters of one list or wheel. */
struct swtim_driver_stats {
	uint64_t evtim_exp_count;
	uint64_t ev_enq_count;
	uint64_t evtim_retry_count;
	uint64_t evtim_drop_count;
};

/**
 * Add one list's counters to the adapter's.
 *
 * @param sum
 *   The adapter's statistics.
 * @param s
 *   One list's counters, possibly being written by the service.
 */
static inline void
swtim_driver_stats_add(struct rte_event_timer_adapter_stats *sum,
		       const struct swtim_driver_stats *s)
{
	sum->evtim_exp_count += __atomic_load_n(&s->evtim_exp_count,
						__ATOMIC_RELAXED);
	sum->ev_enq_count += __atomic_load_n(&s->ev_enq_count,
					     __ATOMIC_RELAXED);
	sum->evtim_retry_count += __atomic_load_n(&s->evtim_retry_count,
						  __ATOMIC_RELAXED);
	sum->evtim_drop_count += __atomic_load_n(&s->evtim_drop_count,
						 __ATOMIC_RELAXED);
}

/**
 * Zero one list's counters.
 *
 * @param s
 *   The counters.
 */
static inline void
swtim_driver_stats_reset(struct swtim_driver_stats *s)
{
	memset(s, 0, sizeof(*s));
}

#endif /* SWTIM_DRIVER_STATS_H */
