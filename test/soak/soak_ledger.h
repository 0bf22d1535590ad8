/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SOAK_LEDGER_H
#define SOAK_LEDGER_H

/**
 * @file
 * The soak's ledger: one record per event timer, saying which arming of
 * it is current and whether that arming has been settled, delivered or
 * cancelled, so that every expiry event can be checked when it arrives.
 *
 * An arming is numbered (gen) by whoever arms the timer, before the arm
 * call, and carried in the event's u64 with the timer's pool and index.
 * The arming thread also writes the TSC it read before the arm call and
 * the earliest moment the expiry may come (due). An arming is settled
 * exactly once: a compare-and-swap of settled from gen - 1 to gen, done
 * by the worker that dequeues a one-shot timer's event or by the thread
 * whose cancel succeeded. A second settlement of the same arming (an
 * event of a cancelled arming, an event delivered twice, an event of an
 * arming older than the current one) fails the swap: a duplicate. An
 * arming never settled by the end of the run is lost. An event that
 * comes before due is early.
 *
 * Periodic timers give one event per period until cancelled: the worker
 * counts them (delivered) and checks the k-th against due + (k - 1) *
 * period; the cancel settles the arming. Events of periods before the
 * cancel may still be in the device, so the count is judged only once
 * the arming has been quiet for SOAK_QUARANTINE_MS: no more events than
 * periods ended before the cancel returned (else duplicates), none
 * missing of those ended SOAK_LOST_BOUND_MS (or twice the worst lateness
 * seen, if more) before it (else lost).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_event_timer_adapter.h>

/** The two pools: one per adapter. */
enum soak_pool {
	SOAK_ONESHOT = 0,
	SOAK_PERIODIC = 1,
};

/*
 * An arming whose expiry has not come this long after it was due is
 * reported as overdue in the progress lines, and at the end as lost; a
 * periodic arming must have delivered every period due this long before
 * its cancel. Far above the longest disturbance the soak makes
 * (SOAK_CHAOS_MAX_MS, soak.h), and above the 43 s of lateness seen when
 * the soak ran at nice 10 on two CPUs under a load of 18: a generous
 * bound, not a latency target.
 */
#define SOAK_LOST_BOUND_MS	120000
/* How long a cancelled periodic arming is left alone before it is judged
 * and its timer reused: longer than the worker ever pauses, so every
 * event of it that the device held has been dequeued. */
#define SOAK_QUARANTINE_MS	3000

/** One timer's record. Written as the header above says. */
struct soak_slot {
	uint32_t gen;		/* current arming, 0: never armed */
	uint32_t settled;	/* last arming settled */
	uint64_t arm_tsc;	/* TSC before the arm call */
	uint64_t due_tsc;	/* earliest expiry (periodic: first one) */
	uint64_t cancel_tsc;	/* periodic: TSC after the cancel returned */
	uint32_t delivered;	/* periodic: events of the current arming */
	uint32_t period_ticks;	/* periodic: the period */
	bool peak;		/* armed for a peak */
};

/* Lateness buckets: upper bounds in microseconds, the last open. */
#define SOAK_HIST_BUCKETS 14

struct soak_hist {
	uint64_t count[SOAK_HIST_BUCKETS];
	uint64_t max_cycles;
};

/** A pool of timers and their records. */
struct soak_pool_ledger {
	struct rte_event_timer *tim;
	struct soak_slot *slot;
	uint32_t n;
	uint64_t tick_cycles_floor;	/* one tick, rounded down */
	uint8_t queue_id;
	/* Armings for a peak not settled yet: the rest is the steady mix. */
	uint64_t peak_outstanding;
};

/** What went wrong, counted; any non-zero fails the soak. */
struct soak_faults {
	uint64_t duplicate;
	uint64_t early;
	uint64_t lost;
	uint64_t bad_state;	/* one-shot event, timer not NOT_ARMED */
	uint64_t unknown;	/* u64 naming no timer */
};

/** The event's u64 for arming gen of timer idx of pool. */
static inline uint64_t
soak_tag(enum soak_pool pool, uint32_t idx, uint32_t gen)
{
	return (uint64_t)pool << 63 | (uint64_t)idx << 32 | gen;
}

static inline enum soak_pool
soak_tag_pool(uint64_t tag)
{
	return (enum soak_pool)(tag >> 63);
}

static inline uint32_t
soak_tag_idx(uint64_t tag)
{
	return (uint32_t)(tag >> 32) & INT32_MAX;
}

static inline uint32_t
soak_tag_gen(uint64_t tag)
{
	return (uint32_t)tag;
}

/**
 * Allocate a pool of n timers (libc memory: the rte_malloc heap is the
 * adapters' alone, so that its size says what they hold), each set up
 * for queue_id. Returns 0 or -ENOMEM.
 */
int soak_pool_init(struct soak_pool_ledger *pl, uint32_t n, uint8_t queue_id,
		   uint8_t sched_type, uint64_t tick_ns);
void soak_pool_fini(struct soak_pool_ledger *pl);

/**
 * Number a new arming of timer idx, which the caller owns (free, just
 * delivered or just cancelled), and fill the timer for it: due in ticks
 * from arm_tsc (read before the arm call). For a periodic pool ticks is
 * the period. peak: counted in peak_outstanding until settled.
 */
void soak_arming_begin(struct soak_pool_ledger *pl, enum soak_pool pool,
		       uint32_t idx, uint64_t ticks, uint64_t arm_tsc,
		       bool peak);
/** The arm call refused this timer: the arming never was. */
void soak_arming_undo(struct soak_pool_ledger *pl, uint32_t idx);

/**
 * Settle timer idx's current arming after a cancel of it succeeded (a
 * periodic one: cancel_tsc read after the call returned). Returns false,
 * counting a duplicate, if it was settled already.
 */
bool soak_settle_cancelled(struct soak_pool_ledger *pl, uint32_t idx,
			   uint64_t cancel_tsc, struct soak_faults *f);

/**
 * Check one dequeued expiry event (now: the TSC after the dequeue),
 * settle a one-shot arming, count a periodic one's event, book the
 * lateness. Returns the timer index if the caller now owns a one-shot
 * timer (to arm again or free), else UINT32_MAX.
 */
uint32_t soak_event_check(struct soak_pool_ledger *pools,
			  const struct rte_event *ev, uint64_t now,
			  struct soak_faults *f, struct soak_hist *hist);

/**
 * Judge a cancelled periodic arming after its quarantine (see the file
 * comment); counts duplicates and lost periods in f. Periods due more
 * than lag cycles before the cancel must have come: the caller passes
 * SOAK_LOST_BOUND_MS, or twice the worst lateness seen if that is more
 * (a service that far behind had not fired later periods yet, and the
 * cancel rightly ends them).
 */
void soak_periodic_judge(struct soak_pool_ledger *pl, uint32_t idx,
			 uint64_t lag, struct soak_faults *f);

/**
 * Scan a pool: the number of armings not settled; those due more than
 * bound_cycles before now are counted in *overdue. Racy against the
 * threads at work (an arming begun meanwhile is seen as outstanding),
 * exact once they have stopped.
 */
uint64_t soak_pool_outstanding(const struct soak_pool_ledger *pl, uint64_t now,
			       uint64_t bound_cycles, uint64_t *overdue);

/** Book a lateness of late cycles. */
void soak_hist_add(struct soak_hist *h, uint64_t late);
/** Add src into dst (src read racily: for progress lines). */
void soak_hist_sum(struct soak_hist *dst, const struct soak_hist *src);
/** Print the histogram, one line per non-empty bucket. */
void soak_hist_print(const char *what, const struct soak_hist *h);
/** Sum of two fault counts. */
void soak_faults_sum(struct soak_faults *dst, const struct soak_faults *src);

#endif /* SOAK_LEDGER_H */
