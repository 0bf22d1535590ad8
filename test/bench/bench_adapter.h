/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef BENCH_ADAPTER_H
#define BENCH_ADAPTER_H

/**
 * @file
 * What the timer cases share (bench_timers.c, the single-producer cases,
 * and bench_mp.c, the multi-producer ones): DPDK's adapter and swtim's,
 * their control calls through struct adapter_impl and their fast path
 * behind one switch, and arrays of event timers.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_event_timer_adapter.h>

#include "adapter_impl.h"
#include "swtim.h"
#include "swtim_bench.h"

/**
 * DPDK's API served by libswtim_dropin: adapter_impl_dpdk with the
 * control calls of the library loaded from bench_opts.dropin the first
 * time (RTLD_LOCAL: DPDK's own names stay librte_eventdev's), or NULL
 * (error counted).
 */
const struct adapter_impl *bench_dropin_impl(void);

/** One adapter of either kind. */
struct tadapter {
	/* "dpdk", a swtim driver, or BENCH_DPDK_API_PREFIX and a driver */
	const char *name;
	/*
	 * Its calls: adapter_impl_dpdk, bench_dropin_impl() or
	 * adapter_impl_swtim. The fast path takes no entry of it (below).
	 */
	const struct adapter_impl *impl;
	/* Armed and cancelled through DPDK's API (impl is not swtim's). */
	bool dpdk;
	void *a;		/* struct rte_event_timer_adapter * or
				 * struct swtim_adapter * */
	uint32_t sid;
	uint64_t tick_ns;
	uint64_t max_ticks;
	uint64_t tick_cycles;
};

/** An array of event timers and pointers to them. */
struct tset {
	struct rte_event_timer *t;
	struct rte_event_timer **p;
	uint64_t n;
};

/*
 * ---- the fast path: the two APIs behind one switch ----
 *
 * Not ta->impl's entries: an application calls swtim_arm_burst() or
 * DPDK's inline rte_event_timer_arm_burst() directly, and the bench
 * measures that, with no indirect call of its own in the way (the
 * branch on ta->dpdk is taken the same way all through a loop).
 */

static __rte_always_inline uint16_t
ta_arm_burst(const struct tadapter *ta, struct rte_event_timer **t,
	     uint16_t n)
{
	if (ta->dpdk)
		return rte_event_timer_arm_burst(ta->a, t, n);
	return swtim_arm_burst(ta->a, t, n);
}

static __rte_always_inline uint16_t
ta_arm_tmo_burst(const struct tadapter *ta, struct rte_event_timer **t,
		 uint64_t ticks, uint16_t n)
{
	if (ta->dpdk)
		return rte_event_timer_arm_tmo_tick_burst(ta->a, t, ticks, n);
	return swtim_arm_tmo_tick_burst(ta->a, t, ticks, n);
}

static __rte_always_inline uint16_t
ta_cancel_burst(const struct tadapter *ta, struct rte_event_timer **t,
		uint16_t n)
{
	if (ta->dpdk)
		return rte_event_timer_cancel_burst(ta->a, t, n);
	return swtim_cancel_burst(ta->a, t, n);
}

/** Names of enum bench_dist, for reports. */
extern const char *const bench_dist_names[BENCH_NB_DISTS];

/**
 * Create and start an adapter: "dpdk", a swtim driver's name, or
 * BENCH_DPDK_API_PREFIX and a driver's name (created through
 * libswtim_dropin, with SWTIM_DRIVER set to the driver), with nb_timers.
 * Its service is mapped to the stopped service lcore: nothing expires but
 * what the bench runs. -1 (error counted) on failure.
 */
int ta_create(struct tadapter *ta, const char *name, uint64_t nb_timers);

/** Stop and free the adapter; nothing if none. */
void ta_destroy(struct tadapter *ta);

/**
 * The implementation an adapter's figures are compared with: the native
 * API of the same driver for BENCH_DPDK_API_PREFIX ones, DPDK's adapter
 * for the others (NULL: none, or DPDK's adapter itself).
 */
const char *ta_ref(const struct tadapter *ta);

/** The adapter's statistics. */
int ta_stats(const struct tadapter *ta,
	     struct rte_event_timer_adapter_stats *s);

/** The equal timeout: half the longest, at least a tick. */
uint64_t bench_equal_ticks(const struct tadapter *ta);

/** n event timers, cache aligned, and pointers to them. */
int tset_alloc(struct tset *s, uint64_t n);
void tset_free(struct tset *s);

/** Every timer fresh, NOT_ARMED, carrying its index in ev.u64. */
void tset_init(struct tset *s);

/** Timeouts of the first n timers: equal, or uniform over [1, max]. */
void tset_timeouts(struct tset *s, uint64_t n, enum bench_dist dist,
		   uint64_t equal, uint64_t max, uint64_t *rng);

/** Arm / cancel n timers in bursts of 32; -1 (error counted) unless all. */
int arm_all(const struct tadapter *ta, struct rte_event_timer **p,
	    uint64_t n);
int cancel_all(const struct tadapter *ta, struct rte_event_timer **p,
	       uint64_t n);

/**
 * Dequeue all the worker port has; with seen, mark each timer index and
 * count unknown or repeated ones in *bad. Returns the events dequeued.
 */
uint64_t drain_port(uint8_t *seen, uint64_t cnt, uint64_t *bad);

#endif /* BENCH_ADAPTER_H */
