/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef EVT_TEST_H
#define EVT_TEST_H

/**
 * @file
 * State shared by the lcores of one run: the timer records, the
 * producers' and workers' counters, and what the main lcore needs to
 * supervise them.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_event_timer_adapter.h>
#include <rte_eventdev.h>
#include <rte_mempool.h>

#include "evt_options.h"
#include "latency_hist.h"
#include "adapter_impl.h"

/* Most events a worker dequeues at once. */
#define EVT_MAX_DEQ 128

/**
 * One timer and what the producer noted when it armed it. The workers
 * find it through the expiry event's event_ptr, whose low bits (a
 * record is cache-line aligned) carry the arming's generation, so that
 * an event of an earlier arming of a recycled record is told apart.
 */
struct evt_timer_rec {
	struct rte_event_timer tim;
	/* TSC read just before the arm call. */
	uint64_t arm_tsc;
	/* arm_tsc + the timeout: no expiry may be dequeued before. */
	uint64_t deadline_tsc;
	/* The arming's generation from arming to the first dequeue of its
	 * expiry event, then 0. */
	uint32_t pending;
	/* Generation of the last arming, 1 .. EVT_REC_GEN_MASK. */
	uint32_t gen;
	uint16_t producer;
} __rte_cache_aligned;

/* Bits of event_ptr below a record's alignment: the generation. */
#define EVT_REC_GEN_MASK ((uintptr_t)RTE_CACHE_LINE_SIZE - 1)

/* The record an expiry event's event_ptr names, and its generation. */
static inline struct evt_timer_rec *
evt_rec_of(const struct rte_event *ev, uint32_t *gen)
{
	uintptr_t p = (uintptr_t)ev->event_ptr;

	*gen = (uint32_t)(p & EVT_REC_GEN_MASK);
	return (struct evt_timer_rec *)(p & ~EVT_REC_GEN_MASK);
}

struct evt_test;

struct evt_producer {
	struct evt_test *t;
	unsigned int lcore;
	uint16_t idx;
	uint8_t queue_id;
	uint64_t nb_timers;

	/* Written by the producer; the main lcore reads "armed" live. */
	uint64_t armed;
	uint64_t arm_calls;		/* calls that armed at least one */
	uint64_t arm_short;		/* calls that armed fewer than asked */
	uint64_t arm_cycles;		/* in calls that armed some */
	uint64_t short_cycles;		/* in calls that armed none */
	uint64_t pool_empty;		/* no timer object free */
	uint64_t start_tsc;
	uint64_t end_tsc;
	int error;			/* rte_errno of a refused arm */
	int error_state;		/* timer state after it */
	bool finished;
	struct latency_hist arm_hist;	/* ns per timer */
} __rte_cache_aligned;

struct evt_worker {
	struct evt_test *t;
	unsigned int lcore;
	uint8_t port_id;

	/* Written by the worker; the main lcore reads the counts live. */
	uint64_t received;		/* first dequeues of expiries */
	uint64_t processed;		/* events done with the last stage */
	uint64_t duplicates;
	uint64_t early;
	uint64_t fwd_cycles;		/* arm to last stage, summed */
	int64_t min_lateness;		/* cycles, may be negative */
	uint64_t flushed;		/* events left in the port at the end */
	uint64_t polls;			/* dequeue calls */
	uint64_t empty_polls;		/* that returned no event */
	uint64_t sleeps;		/* --max-sleep-us: naps taken */
	uint64_t sleep_ns;		/* and the time asked for */
	uint64_t last_tsc;		/* when it last finished an event */
	struct latency_hist late_hist;	/* ns from deadline, late ones */
} __rte_cache_aligned;

struct evt_test {
	struct evt_options *opt;
	volatile int done;		/* workers and producers stop */
	volatile int interrupted;	/* SIGINT/SIGTERM */

	uint8_t dev_id;
	struct rte_event_dev_config dev_conf;	/* as last configured */
	bool dev_burst;			/* RTE_EVENT_DEV_CAP_BURST_MODE */
	uint16_t deq_depth;		/* events per dequeue */
	uint8_t nb_queues;
	uint8_t nb_stages;
	uint8_t sched_type_list[EVT_MAX_STAGES];

	uint32_t nb_producers;
	uint32_t nb_workers;
	struct evt_producer *prod;
	struct evt_worker *workers;
	struct rte_mempool *pool;

	const struct adapter_impl *impl;
	void *adapters[EVT_MAX_ADAPTERS];
	uint8_t nb_adapters;
	uint64_t tick_ns;		/* tick in force (min_resolution_ns) */
	uint64_t timeout_ticks;		/* for expiry_nsec */

	uint64_t hz;
	double ns_per_cycle;
	/* Timed loads (--load other than count): from launch to launch +
	 * --duration-s; producers stop arming at load_end_tsc.
	 */
	uint64_t load_start_tsc;
	uint64_t load_end_tsc;
	bool bad_option;		/* setup refused an option */
};

/* Timeout in adapter ticks for ns, as dpdk-test-eventdev computes it. */
uint64_t evt_ns_to_ticks(const struct evt_test *t, uint64_t ns);

/* producer.c */
int evt_producer_main(void *arg);

/* worker.c */
int evt_worker_main(void *arg);

#endif /* EVT_TEST_H */
