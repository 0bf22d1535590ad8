/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eventdev.h>

#include "soak_ledger.h"

/* Upper bounds of the lateness buckets, in microseconds. */
static const uint64_t soak_hist_us[SOAK_HIST_BUCKETS - 1] = {
	100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000,
	200000, 500000, 1000000,
};

int
soak_pool_init(struct soak_pool_ledger *pl, uint32_t n, uint8_t queue_id,
	       uint8_t sched_type, uint64_t tick_ns)
{
	uint32_t i;

	memset(pl, 0, sizeof(*pl));
	if (posix_memalign((void **)&pl->tim, RTE_CACHE_LINE_SIZE,
			   (size_t)n * sizeof(pl->tim[0])) != 0)
		return -ENOMEM;
	pl->slot = calloc(n, sizeof(pl->slot[0]));
	if (pl->slot == NULL) {
		free(pl->tim);
		return -ENOMEM;
	}
	memset(pl->tim, 0, (size_t)n * sizeof(pl->tim[0]));
	for (i = 0; i < n; i++) {
		struct rte_event_timer *t = &pl->tim[i];

		/* Written once: only u64 and timeout_ticks change later, so
		 * that a cancel racing a re-arm reads a whole timer. */
		t->ev.queue_id = queue_id;
		t->ev.sched_type = sched_type;
		t->ev.op = RTE_EVENT_OP_NEW;
		t->ev.event_type = RTE_EVENT_TYPE_TIMER;
		t->ev.priority = RTE_EVENT_DEV_PRIORITY_NORMAL;
		t->ev.flow_id = i & 0xfffff;
		t->state = RTE_EVENT_TIMER_NOT_ARMED;
	}
	pl->n = n;
	pl->queue_id = queue_id;
	pl->tick_cycles_floor = (uint64_t)((unsigned __int128)tick_ns *
					   rte_get_timer_hz() / NS_PER_S);
	return 0;
}

void
soak_pool_fini(struct soak_pool_ledger *pl)
{
	free(pl->tim);
	free(pl->slot);
	memset(pl, 0, sizeof(*pl));
}

void
soak_arming_begin(struct soak_pool_ledger *pl, enum soak_pool pool,
		  uint32_t idx, uint64_t ticks, uint64_t arm_tsc, bool peak)
{
	struct soak_slot *s = &pl->slot[idx];
	uint32_t gen = __atomic_load_n(&s->gen, __ATOMIC_RELAXED) + 1;

	/* Rounded down, from before the arm: never later than the real
	 * deadline, so an event before it is certainly early. */
	__atomic_store_n(&s->arm_tsc, arm_tsc, __ATOMIC_RELAXED);
	__atomic_store_n(&s->due_tsc, arm_tsc + ticks * pl->tick_cycles_floor,
			 __ATOMIC_RELAXED);
	if (pool == SOAK_PERIODIC) {
		__atomic_store_n(&s->delivered, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&s->cancel_tsc, 0, __ATOMIC_RELAXED);
		s->period_ticks = (uint32_t)ticks;
	}
	s->peak = peak;
	if (peak)
		__atomic_fetch_add(&pl->peak_outstanding, 1, __ATOMIC_RELAXED);
	/* The records before the number: a scan that sees the number sees
	 * them (or later ones). The arm call publishes all of it. */
	__atomic_store_n(&s->gen, gen, __ATOMIC_RELEASE);
	pl->tim[idx].ev.u64 = soak_tag(pool, idx, gen);
	pl->tim[idx].timeout_ticks = ticks;
}

void
soak_arming_undo(struct soak_pool_ledger *pl, uint32_t idx)
{
	struct soak_slot *s = &pl->slot[idx];

	if (s->peak)
		__atomic_fetch_sub(&pl->peak_outstanding, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&s->gen, __atomic_load_n(&s->gen, __ATOMIC_RELAXED) -
			 1, __ATOMIC_RELEASE);
}

/* Settle arming gen of s; false if it was settled already. */
static bool
soak_settle(struct soak_pool_ledger *pl, struct soak_slot *s, uint32_t gen)
{
	uint32_t expected = gen - 1;

	if (!__atomic_compare_exchange_n(&s->settled, &expected, gen, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return false;
	/* Whoever settles owns the timer: peak is its arming's. */
	if (s->peak)
		__atomic_fetch_sub(&pl->peak_outstanding, 1, __ATOMIC_RELAXED);
	return true;
}

bool
soak_settle_cancelled(struct soak_pool_ledger *pl, uint32_t idx,
		      uint64_t cancel_tsc, struct soak_faults *f)
{
	struct soak_slot *s = &pl->slot[idx];
	/* The arming the cancel hit: the arm call published its number. */
	uint32_t gen = __atomic_load_n(&s->gen, __ATOMIC_ACQUIRE);

	__atomic_store_n(&s->cancel_tsc, cancel_tsc, __ATOMIC_RELAXED);
	if (soak_settle(pl, s, gen))
		return true;
	__atomic_fetch_add(&f->duplicate, 1, __ATOMIC_RELAXED);
	fprintf(stderr, "soak: timer %u arming %u cancelled, but settled "
		"already (%u)\n", idx, gen, s->settled);
	return false;
}

void
soak_hist_add(struct soak_hist *h, uint64_t late)
{
	uint64_t us = late * US_PER_S / rte_get_timer_hz();
	unsigned int b = 0;

	while (b < RTE_DIM(soak_hist_us) && us > soak_hist_us[b])
		b++;
	__atomic_store_n(&h->count[b], h->count[b] + 1, __ATOMIC_RELAXED);
	if (late > h->max_cycles)
		__atomic_store_n(&h->max_cycles, late, __ATOMIC_RELAXED);
}

/* The first few faults of each kind are told in full. */
#define SOAK_FAULTS_TOLD 10

static void
soak_fault(uint64_t *count, const char *what, uint64_t tag, uint64_t a,
	   uint64_t b)
{
	uint64_t n = __atomic_fetch_add(count, 1, __ATOMIC_RELAXED);

	if (n < SOAK_FAULTS_TOLD)
		fprintf(stderr, "soak: %s: pool %u timer %u arming %u (%"
			PRIu64 ", %" PRIu64 ")\n", what, soak_tag_pool(tag),
			soak_tag_idx(tag), soak_tag_gen(tag), a, b);
}

uint32_t
soak_event_check(struct soak_pool_ledger *pools, const struct rte_event *ev,
		 uint64_t now, struct soak_faults *f, struct soak_hist *hist)
{
	enum soak_pool pool = soak_tag_pool(ev->u64);
	struct soak_pool_ledger *pl = &pools[pool];
	uint32_t idx = soak_tag_idx(ev->u64), gen = soak_tag_gen(ev->u64);
	struct soak_slot *s;
	uint64_t due, period;
	uint32_t cur, k;

	if (idx >= pl->n || gen == 0 || ev->queue_id != pl->queue_id) {
		soak_fault(&f->unknown, "unknown event", ev->u64, ev->queue_id,
			   0);
		return UINT32_MAX;
	}
	s = &pl->slot[idx];
	cur = __atomic_load_n(&s->gen, __ATOMIC_ACQUIRE);
	if (cur != gen) {
		/* The timer was armed again: this arming was settled. */
		soak_fault(&f->duplicate, "event of a settled arming", ev->u64,
			   cur, 0);
		return UINT32_MAX;
	}
	if (pool == SOAK_PERIODIC) {
		k = __atomic_add_fetch(&s->delivered, 1, __ATOMIC_RELAXED);
		period = s->period_ticks * pl->tick_cycles_floor;
		due = s->due_tsc + (uint64_t)(k - 1) * period;
	} else {
		if (!soak_settle(pl, s, gen)) {
			soak_fault(&f->duplicate, "event of a settled arming",
				   ev->u64, s->settled, 0);
			return UINT32_MAX;
		}
		due = s->due_tsc;
		/* NOT_ARMED before the event could be dequeued. */
		if (__atomic_load_n(&pl->tim[idx].state, __ATOMIC_ACQUIRE) !=
		    RTE_EVENT_TIMER_NOT_ARMED) {
			soak_fault(&f->bad_state, "delivered, not NOT_ARMED",
				   ev->u64, pl->tim[idx].state, 0);
			return UINT32_MAX;
		}
	}
	if (now < due)
		soak_fault(&f->early, "early", ev->u64, due - now, 0);
	else
		soak_hist_add(&hist[pool], now - due);
	return pool == SOAK_ONESHOT ? idx : UINT32_MAX;
}

void
soak_periodic_judge(struct soak_pool_ledger *pl, uint32_t idx,
		    uint64_t lag, struct soak_faults *f)
{
	const struct soak_slot *s = &pl->slot[idx];
	uint64_t period = s->period_ticks * pl->tick_cycles_floor;
	uint64_t ended, must;
	uint32_t got = __atomic_load_n(&s->delivered, __ATOMIC_ACQUIRE);
	uint64_t tag = soak_tag(SOAK_PERIODIC, idx, s->gen);

	/* Periods whose deadline (rounded early) passed before the cancel
	 * returned: the most events there may be. */
	ended = s->cancel_tsc < s->due_tsc ? 0 :
		(s->cancel_tsc - s->due_tsc) / period + 1;
	if (got > ended) {
		soak_fault(&f->duplicate, "periodic: events after the cancel",
			   tag, got, ended);
		return;
	}
	/* Those due well before the cancel must all have come. */
	must = s->cancel_tsc < s->due_tsc + lag ? 0 :
		(s->cancel_tsc - lag - s->due_tsc) / period + 1;
	if (got < must) {
		soak_fault(&f->lost, "periodic: periods missing", tag, got,
			   must);
		__atomic_fetch_add(&f->lost, must - got - 1, __ATOMIC_RELAXED);
	}
}

uint64_t
soak_pool_outstanding(const struct soak_pool_ledger *pl, uint64_t now,
		      uint64_t bound_cycles, uint64_t *overdue)
{
	uint64_t n = 0, late = 0;
	uint32_t i;

	for (i = 0; i < pl->n; i++) {
		const struct soak_slot *s = &pl->slot[i];
		uint32_t gen = __atomic_load_n(&s->gen, __ATOMIC_ACQUIRE);

		if (__atomic_load_n(&s->settled, __ATOMIC_RELAXED) == gen)
			continue;
		n++;
		if (bound_cycles != UINT64_MAX &&
		    __atomic_load_n(&s->due_tsc, __ATOMIC_RELAXED) +
		    bound_cycles < now)
			late++;
	}
	if (overdue != NULL)
		*overdue = late;
	return n;
}

void
soak_hist_sum(struct soak_hist *dst, const struct soak_hist *src)
{
	unsigned int b;
	uint64_t max;

	for (b = 0; b < SOAK_HIST_BUCKETS; b++)
		dst->count[b] += __atomic_load_n(&src->count[b],
						 __ATOMIC_RELAXED);
	max = __atomic_load_n(&src->max_cycles, __ATOMIC_RELAXED);
	dst->max_cycles = RTE_MAX(dst->max_cycles, max);
}

void
soak_hist_print(const char *what, const struct soak_hist *h)
{
	uint64_t total = 0;
	unsigned int b;

	for (b = 0; b < SOAK_HIST_BUCKETS; b++)
		total += h->count[b];
	printf("soak: lateness of %s expiries (%" PRIu64 " events, worst %.3f"
	       " ms):\n", what, total,
	       (double)h->max_cycles * 1000.0 / (double)rte_get_timer_hz());
	for (b = 0; b < SOAK_HIST_BUCKETS; b++) {
		if (h->count[b] == 0)
			continue;
		if (b < RTE_DIM(soak_hist_us))
			printf("soak:   <= %9.1f ms %12" PRIu64 "  %6.2f %%\n",
			       soak_hist_us[b] / 1000.0, h->count[b],
			       100.0 * h->count[b] / total);
		else
			printf("soak:    > %9.1f ms %12" PRIu64 "  %6.2f %%\n",
			       soak_hist_us[b - 1] / 1000.0, h->count[b],
			       100.0 * h->count[b] / total);
	}
}

void
soak_faults_sum(struct soak_faults *dst, const struct soak_faults *src)
{
	dst->duplicate += __atomic_load_n(&src->duplicate, __ATOMIC_RELAXED);
	dst->early += __atomic_load_n(&src->early, __ATOMIC_RELAXED);
	dst->lost += __atomic_load_n(&src->lost, __ATOMIC_RELAXED);
	dst->bad_state += __atomic_load_n(&src->bad_state, __ATOMIC_RELAXED);
	dst->unknown += __atomic_load_n(&src->unknown, __ATOMIC_RELAXED);
}
