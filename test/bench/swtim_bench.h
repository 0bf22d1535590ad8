/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_BENCH_H
#define SWTIM_BENCH_H

/**
 * @file
 * swtim-bench: cycles per operation of swtim's fast paths, measured the
 * way the Linux page_pool benchmark (time_bench) does: on one lcore, with
 * the TSC, after a warm-up loop, each operation in isolation, with N
 * timers outstanding. DPDK's own software adapter runs the same cases in
 * the same process, and every swtim line carries the ratio swtim/DPDK.
 *
 * Files: swtim_bench.c (options, EAL, event device, report, JSON),
 * bench_timers.c (arm, cancel, expiry on both adapters), bench_mp.c (arm
 * and cancel from several producer lcores at once into one adapter),
 * bench_alloc.c (swtim's object recycler against rte_mempool),
 * bench_dropin.c (swtim through DPDK's API, for the dpdk-api- cases).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_cycles.h>

/*
 * Under valgrind --tool=callgrind --collect-atstart=no only the timed
 * regions are counted, and each case dumps its own profile. Outside
 * valgrind the client requests are a few instructions outside the timed
 * regions.
 */
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define BENCH_HAVE_CALLGRIND 1
#endif
#endif

#ifdef BENCH_HAVE_CALLGRIND
#define BENCH_COLLECT_TOGGLE() CALLGRIND_TOGGLE_COLLECT
#define BENCH_DUMP(label) CALLGRIND_DUMP_STATS_AT(label)
#else
#define BENCH_COLLECT_TOGGLE() do { } while (0)
#define BENCH_DUMP(label) do { RTE_SET_USED(label); } while (0)
#endif

/** Operations per burst in the burst cases. */
#define BENCH_BURST 32

/** Most sizes, drivers on the command line. */
#define BENCH_MAX_SIZES 16
#define BENCH_MAX_DRIVERS 8

/** Most producer lcores, and most entries of --producers. */
#define BENCH_MAX_PRODUCERS 64
#define BENCH_MAX_PRODUCER_COUNTS 16

/** Timeout distributions. */
enum bench_dist {
	BENCH_DIST_EQUAL,
	BENCH_DIST_RANDOM,
	BENCH_NB_DISTS,
};

/**
 * Prefix of a --drivers entry: that swtim driver through DPDK's API, on an
 * adapter created through libswtim_dropin (bench_dropin.c).
 */
#define BENCH_DPDK_API_PREFIX "dpdk-api-"

/** Options (after "--" on the command line). */
struct bench_opts {
	uint64_t sizes[BENCH_MAX_SIZES];
	unsigned int nb_sizes;
	const char *drivers[BENCH_MAX_DRIVERS];
	unsigned int nb_drivers;
	bool dpdk;		/**< run DPDK's adapter and rte_mempool */
	bool dists[BENCH_NB_DISTS];
	bool timers;		/**< arm/cancel/expiry cases */
	bool alloc;		/**< recycler cases */
	bool floor;		/**< the memory floor of expiry */
	bool mp;		/**< the multi-producer cases */
	/** Producer counts of the multi-producer cases (--producers). */
	unsigned int producers[BENCH_MAX_PRODUCER_COUNTS];
	unsigned int nb_producers;
	uint32_t mp_ops;	/**< timers per producer per phase */
	unsigned int loops;	/**< measured loops per case */
	unsigned int expiry_loops; /**< 0: loops below 1M timers, else 1 */
	unsigned int step;	/**< operations per loop */
	uint64_t tick_ns;
	uint64_t max_tmo_ns;
	uint64_t seed;
	bool deterministic;
	bool quiet;		/**< no per-phase progress on stderr */
	const char *evdev;	/**< event device name (--evdev) */
	/** libswtim_dropin, for the dpdk-api- drivers (--dropin) */
	const char *dropin;
	const char *json;
};

/** What the program runs on, set up once. */
struct bench_env {
	uint8_t dev_id;
	uint8_t worker_port;	/**< linked to the queue; the bench dequeues */
	uint8_t swtim_port;	/**< handed to swtim adapters */
	uint8_t dpdk_port;	/**< handed to DPDK's adapter */
	uint8_t queue_id;
	uint8_t sched_type;
	unsigned int service_lcore; /**< mapped, never started */
	bool dev_service;	/**< the device has a scheduler service */
	uint32_t dev_service_id; /**< which the bench runs (drain_port) */
	char dev_driver[32];	/**< the device's driver name */
	uint64_t tsc_hz;
	int socket;
};

extern struct bench_opts bench_opts;
extern struct bench_env bench_env;

/**
 * Record one case: per-loop cycles per operation in samples[0..loops-1].
 * Prints the page_pool style line, with the ratio to the same case of
 * ref_impl if that ran (NULL: no ratio), and keeps it for --json.
 * preempted: timed regions during which the thread was switched out
 * (their TSC counts include that time), or -1 if not counted.
 */
void bench_report(const char *impl, const char *kase, const char *dist,
		  uint64_t n, uint64_t ops, const double *samples,
		  unsigned int loops, const char *ref_impl, int64_t preempted);

/**
 * Record one multi-producer case: per loop, the cycles per timer of the
 * median producer (med) and of the slowest (max), and how much of the
 * phase all producers ran at once (overlap, 0 to 1). The median is what
 * the result's cycles and ratio are; cpus_shared says the producers
 * shared CPUs (the figures then say nothing about scaling).
 */
void bench_report_mp(const char *impl, const char *kase, const char *dist,
		     uint64_t n, unsigned int producers, uint64_t ops,
		     const double *med, const double *max,
		     const double *overlap, unsigned int loops,
		     const char *ref_impl, int64_t preempted, bool cpus_shared);

/**
 * Add to the result just reported how many events per operation the
 * event device refused at first and the adapter retried (an adapter
 * re-arms or keeps them), and print it: expiry above what the device
 * holds measures the adapters under back-pressure.
 */
void bench_report_retries(const char *impl, const char *kase,
			  const char *dist, uint64_t n, double per_op);

/**
 * Whether a timed region ran undisturbed. The TSC keeps counting while
 * the thread is switched out (the CPUs may be shared): a fast-path loop
 * that was switched out is run again; for an expiry service call, whose
 * work cannot be redone, the thread's CPU time stands in when smaller.
 */
struct bench_sw {
	int64_t nivcsw;		/* involuntary context switches */
	uint64_t cpu_ns;	/* thread CPU time */
};

/** Start watching, right before the timed region. */
void bench_sw_start(struct bench_sw *sw);

/**
 * Stop watching, right after the timed region.
 *
 * @param cpu_cycles
 *   If not NULL, the thread's CPU time since bench_sw_start(), in TSC
 *   cycles.
 * @return
 *   true if the thread was switched out in between.
 */
bool bench_sw_stop(const struct bench_sw *sw, uint64_t *cpu_cycles);

/** Times a preempted fast-path loop is run again, per case. */
#define BENCH_RETRIES_MAX 10

/** Count a failed consistency check (exit status 1 at the end). */
void bench_error(const char *fmt, ...) __rte_format_printf(1, 2);

/** Progress message on stderr, unless --quiet. */
void bench_progress(const char *fmt, ...) __rte_format_printf(1, 2);

/** Short form of a size: 1k, 64k, 1M, 4M, or the number. */
const char *bench_size_str(uint64_t n, char *buf, size_t len);

/** A seed for one case: the same for every implementation. */
uint64_t bench_case_seed(uint64_t n, unsigned int dist, const char *kase);

/** xorshift64*; state must not be 0. */
static inline uint64_t
bench_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * UINT64_C(0x2545F4914F6CDD1D);
}

/** Uniform in [lo, hi] (modulo bias is irrelevant here). */
static inline uint64_t
bench_rand_range(uint64_t *state, uint64_t lo, uint64_t hi)
{
	return lo + bench_rand(state) % (hi - lo + 1);
}

/** Timestamp for the timed regions: the TSC, ordered. */
static __rte_always_inline uint64_t
bench_tsc(void)
{
	return rte_rdtsc_precise();
}

/** Run the arm/cancel/expiry cases for one size, every implementation. */
int bench_timers_run(uint64_t n);

/**
 * Producer lcores the multi-producer cases need: the most of
 * --producers, at least 2 (one producer cancels what another lcore
 * armed); 1 without those cases.
 */
unsigned int bench_mp_lcores(void);

/** Run the multi-producer cases for one size, every implementation. */
int bench_mp_run(uint64_t n);

/** Run the allocation cases for one size. */
int bench_alloc_run(uint64_t n);

#endif /* SWTIM_BENCH_H */
