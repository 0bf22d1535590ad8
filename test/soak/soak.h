/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SOAK_H
#define SOAK_H

/**
 * @file
 * swtim-soak: what its threads share. The program (swtim_soak.c) runs a
 * seeded random mix of arms, cancels and re-arms against two adapters,
 * one of one-shot timers and one of periodic timers, for as long as it is
 * told, while its main lcore stops and starts things under them; every
 * expiry is checked against the ledger (soak_ledger.h).
 *
 * Threads, by lcore order after the main lcore:
 * - two service lcores, both mapped to both adapters' services;
 * - the worker: dequeues and checks every expiry event, re-arms some of
 *   the one-shot timers at once (single, burst or tmo_tick arms), and
 *   cancels timers the producers hand over (another lcore's cancels);
 * - producers (the rest): arm one-shot and periodic timers in singles,
 *   bursts and tmo_tick bursts, cancel some of their own, hand others
 *   over to be cancelled elsewhere, and fill the adapter to the peak
 *   when the main lcore says so;
 * - a thread without an lcore id (pthread): cancels handed-over timers,
 *   and arms a few (the shared lane of non-EAL threads);
 * - the main lcore: peaks, chaos (the worker stops dequeuing so that the
 *   device refuses, the adapters are stopped and started, service lcores
 *   stopped and started), periodic timers' quarantine, heap and RSS
 *   samples, progress lines, the end.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ring.h>

#include "soak_ledger.h"
#include "swtim.h"

/* One-shot adapter: tick, longest timeout. */
#define SOAK_ONESHOT_TICK_NS	(100 * 1000)			/* 100 us */
#define SOAK_ONESHOT_MAX_TMO_NS	(UINT64_C(600) * 1000 * 1000 * 1000)
/* Periodic adapter: tick, longest period. */
#define SOAK_PERIODIC_TICK_NS	(1000 * 1000)			/* 1 ms */
#define SOAK_PERIODIC_MAX_TMO_NS (UINT64_C(1000) * 1000 * 1000)

/*
 * Events in flight in the device, and what the adapters' ports may add:
 * small enough that the device refuses soon after the worker stops
 * dequeuing, at least 128 (event_sw and event_dsw hold up to 128 credits
 * a port; below that a port may stall for good).
 */
#define SOAK_EVENTS_LIMIT	4096
#define SOAK_PORT_THRESHOLD	2048

/*
 * Chaos: the longest a disturbance lasts after warm-up, and the one the
 * warm-up's peak gets of each kind, twice as long, so that the event
 * buffers reach the size later disturbances need during warm-up (a
 * buffer only doubles: a later backlog must be twice as big to grow it).
 */
#define SOAK_CHAOS_MAX_MS	150
#define SOAK_CHAOS_WARMUP_MS	300

/** What one thread counts; only it writes, the main lcore reads. */
struct soak_counts {
	uint64_t armed[2];
	uint64_t cancelled[2];
	uint64_t expired[2];
	uint64_t enospc;	/* arms refused for a full adapter (legal) */
	uint64_t errors;	/* any other unexpected answer */
	struct soak_faults faults;
	struct soak_hist hist[2];
} __rte_cache_aligned;

/** Add n to a counter only its thread writes. */
#define SOAK_ADD(x, n) __atomic_store_n(&(x), (x) + (n), __ATOMIC_RELAXED)

enum soak_phase {
	SOAK_RUN = 0,
	SOAK_STOPPING,	/* producers cancel their periodic timers, leave */
	SOAK_DRAINING,	/* the worker re-arms nothing */
	SOAK_DONE,
};

/** Everything the threads share. */
struct soak {
	struct soak_pool_ledger pools[2];
	struct swtim_adapter *adapters[2];
	/* Free timers of each pool (uint32_t indices). */
	struct rte_ring *free[2];
	/* Tags of timers handed over to be cancelled elsewhere. */
	struct rte_ring *cancels;
	/* Cancelled periodic timers (indices), for the main lcore. */
	struct rte_ring *quarantine;
	uint8_t dev_id;
	uint8_t worker_port;

	volatile int phase;		/* enum soak_phase */
	volatile bool cancellers_quit;
	/* The main lcore's estimate of one-shot armings not settled, and
	 * of those of them that are not a peak's. */
	volatile uint64_t outstanding;
	volatile uint64_t steady_outstanding;
	uint64_t steady;		/* one-shot outstanding aimed at */
	uint32_t periodic_live;		/* periodic timers aimed at */
	/* Peak: producers fill while set; each timer falls due peak_hold
	 * after its arm, plus up to peak_spread (cycles both). */
	volatile bool peak_fill;
	uint64_t peak_hold;
	uint64_t peak_spread;
	/* The worker does not dequeue until then (TSC). */
	volatile uint64_t pause_until;
	uint64_t seed;
};

/** One thread of the soak: its counts and its random stream. */
struct soak_thread {
	struct soak_counts c;
	struct soak *s;
	uint64_t rnd;
	unsigned int id;
};

/* The threads' loops (soak_threads.c). */
int soak_producer_run(void *arg);
int soak_worker_run(void *arg);
void *soak_non_eal_run(void *arg);

#endif /* SOAK_H */
