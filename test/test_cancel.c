/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Cancel: a cancelled arming never delivers, a timer may be cancelled
 * from another thread (EAL lcore or not) than the one that armed it, a
 * cancelled timer can be armed again, and when cancel races the expiry
 * exactly one of the two wins: cancelled-and-not-delivered or
 * delivered-and-not-cancelled.
 *
 * A cancel that finds the timer expired (EINVAL) is a legal outcome
 * whenever the machine was slow; the cases account for it instead of
 * depending on timing.
 */

#include <errno.h>
#include <pthread.h>
#include <string.h>

#include <rte_pause.h>
#include <rte_timer.h>

#include "swtim_test.h"

#define TICK_NS		(100 * 1000)		/* 100 us */
#define MAX_TMO_NS	(60ULL * 1000 * 1000 * 1000)	/* 60 s */
#define LATE_BOUND_MS	1000
#define ID		2
#define APP_PORT	1

/* Outcome of one arming, as the arming/cancelling side saw it. */
enum outcome {
	UNARMED = 0,
	ARMED,		/* armed, not (yet) cancelled */
	CANCELLED,	/* cancel returned 1 */
	EXPIRED,	/* cancel said EINVAL: it had expired */
};

struct book {
	struct rte_event_timer *t;
	uint8_t *outcome;
	uint32_t *seen;
	unsigned int n;
};

static int
book_init(struct book *b, unsigned int n)
{
	b->n = n;
	b->t = swt_timers(n);
	b->outcome = swt_calloc(n, sizeof(*b->outcome));
	b->seen = swt_calloc(n, sizeof(*b->seen));
	return b->t != NULL && b->outcome != NULL && b->seen != NULL ? 0 : -1;
}

static struct swtim_adapter *
mk_adapter(uint64_t nb_timers)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, nb_timers,
			 RTE_EVENT_TIMER_ADAPTER_F_ADJUST_RES);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);

	if (a != NULL && swt_adapter_start(a) != 0)
		return NULL;
	return a;
}

/*
 * Cancel b->t[i], retrying on EAGAIN, and book the outcome. After EAGAIN
 * the timer is being delivered, so a retry must end in EINVAL.
 */
static int
cancel_and_book(const struct swtim_adapter *a, struct book *b,
		unsigned int i, unsigned int *eagain)
{
	bool again = false;

	for (;;) {
		rte_errno = 0;
		if (swtim_cancel(a, &b->t[i]) == 1) {
			SWT_ASSERT(!again, "timer %u cancelled after EAGAIN",
				   i);
			SWT_ASSERT_EQ(b->t[i].state, RTE_EVENT_TIMER_CANCELED);
			b->outcome[i] = CANCELLED;
			return SWT_PASS;
		}
		if (rte_errno != EAGAIN)
			break;
		again = true;
		if (eagain != NULL)
			(*eagain)++;
		rte_pause();
	}
	SWT_ASSERT(rte_errno == EINVAL, "timer %u: cancel: %s", i,
		   rte_strerror(rte_errno));
	b->outcome[i] = EXPIRED;
	return SWT_PASS;
}

/*
 * Dequeue until every timer not cancelled delivered, then a while more;
 * then each arming must have ended one way only.
 */
static int
book_settle(struct book *b, unsigned int timeout_ms)
{
	struct rte_event evs[32];
	unsigned int i, want = 0, got = 0;
	uint64_t end;
	uint16_t k, j;

	/* Events dequeued earlier already count. */
	for (i = 0; i < b->n; i++) {
		if (b->outcome[i] != CANCELLED && b->outcome[i] != UNARMED)
			want++;
		got += b->seen[i];
	}
	end = swt_now() + swt_ms_to_cycles(timeout_ms + LATE_BOUND_MS);
	while (got < want && swt_now() < end) {
		k = swt_dequeue(&swt_dev, evs, RTE_DIM(evs));
		if (k == 0)
			swt_idle();
		for (j = 0; j < k; j++) {
			i = evs[j].u64;
			SWT_ASSERT(i < b->n, "u64 %" PRIu64, evs[j].u64);
			b->seen[i]++;
			got++;
		}
	}
	/* Late extras would be cancelled timers delivered after all. */
	for (k = 1; k > 0;) {
		k = swt_collect(&swt_dev, evs, 1, 50);
		if (k == 1) {
			SWT_ASSERT(evs[0].u64 < b->n, "u64");
			b->seen[evs[0].u64]++;
		}
	}
	for (i = 0; i < b->n; i++) {
		switch (b->outcome[i]) {
		case CANCELLED:
			SWT_ASSERT(b->seen[i] == 0,
				   "timer %u cancelled and delivered", i);
			SWT_ASSERT_EQ(b->t[i].state, RTE_EVENT_TIMER_CANCELED);
			break;
		case ARMED:
		case EXPIRED:
			SWT_ASSERT(b->seen[i] == 1, "timer %u delivered %u "
				   "times", i, b->seen[i]);
			SWT_ASSERT_EQ(b->t[i].state,
				      RTE_EVENT_TIMER_NOT_ARMED);
			break;
		default:
			SWT_ASSERT(b->seen[i] == 0, "unarmed %u delivered", i);
		}
	}
	return SWT_PASS;
}

static int
cancelled_never_delivered(void)
{
	const unsigned int n = 1000;
	struct swtim_adapter *a = mk_adapter(n);
	struct rte_event_timer **p;
	struct book b;
	uint64_t rnd = swt_seed(), tick, lo, hi;
	unsigned int i, cancelled = 0;

	SWT_ASSERT(a != NULL, "adapter: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(book_init(&b, n));
	p = swt_timer_ptrs(b.t, n);
	SWT_ASSERT(p != NULL, "alloc");
	tick = swt_adapter_tick_ns(a);
	/* Far enough that even a loaded machine cancels most in time. */
	lo = swt_ticks(100 * 1000000, tick);	/* 100 ms */
	hi = swt_ticks(200 * 1000000, tick);	/* 200 ms */

	for (i = 0; i < n; i++)
		swt_timer_init(&b.t[i], i & 1 ? SWT_Q_ATOMIC : SWT_Q_PARALLEL,
			       i, swt_rand_range(&rnd, lo, hi));
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, n), n, 0);
	for (i = 0; i < n; i++)
		b.outcome[i] = ARMED;
	/* Cancel every other one; a slow machine may let some expire. */
	for (i = 0; i < n; i += 2) {
		if (cancel_and_book(a, &b, i, NULL) != SWT_PASS)
			return SWT_FAIL;
		cancelled += b.outcome[i] == CANCELLED;
	}
	SWT_ASSERT(cancelled > 0, "no cancel succeeded");
	return book_settle(&b, 200);
}

/*
 * Many timers share few deadlines, so each slot holds a long stack of them
 * (the wheel keeps a slot's timers in blocks of 16; the skiplist in one
 * list per deadline), and two thirds are cancelled in shuffled order:
 * from the middle, the ends and the top of those stacks. Exactly the
 * others are delivered.
 */
static int
cancel_shuffled_from_crowded_slots(void)
{
	const unsigned int n = 3000, deadlines = 3;
	struct swtim_adapter *a = mk_adapter(n);
	struct rte_event_timer **p;
	unsigned int *order;
	struct book b;
	uint64_t rnd = swt_seed(), tick, base;
	unsigned int i, j, tmp, cancelled = 0;

	SWT_ASSERT(a != NULL, "adapter: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(book_init(&b, n));
	p = swt_timer_ptrs(b.t, n);
	order = swt_calloc(n, sizeof(*order));
	SWT_ASSERT(p != NULL && order != NULL, "alloc");
	tick = swt_adapter_tick_ns(a);
	/* Far enough that even a loaded machine cancels most in time. */
	base = swt_ticks(150 * 1000000, tick);	/* 150 ms */
	for (i = 0; i < n; i++) {
		swt_timer_init(&b.t[i], SWT_Q_PARALLEL, i,
			       base + (i % deadlines) * 10);
		order[i] = i;
	}
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, n), n, 0);
	for (i = 0; i < n; i++)
		b.outcome[i] = ARMED;
	for (i = n - 1; i > 0; i--) {
		j = swt_rand(&rnd) % (i + 1);
		tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
	for (i = 0; i < n; i++) {
		if (order[i] % 3 == 0)
			continue;
		if (cancel_and_book(a, &b, order[i], NULL) != SWT_PASS)
			return SWT_FAIL;
		cancelled += b.outcome[order[i]] == CANCELLED;
	}
	SWT_ASSERT(cancelled > 0, "no cancel succeeded");
	return book_settle(&b, 200);
}

/* Work done on another thread: arm or cancel a range of a book. */
struct job {
	const struct swtim_adapter *a;
	struct book *b;
	unsigned int first, step;
	bool cancel;
};

static int
job_run(void *arg)
{
	struct job *j = arg;
	unsigned int i;

	for (i = j->first; i < j->b->n; i += j->step) {
		if (j->cancel) {
			if (cancel_and_book(j->a, j->b, i, NULL) != SWT_PASS)
				return -1;
			continue;
		}
		rte_errno = 0;
		if (swtim_arm(j->a, &j->b->t[i]) != 1) {
			swt_fail(__FILE__, __LINE__, "arm %u: %s", i,
				 rte_strerror(rte_errno));
			return -1;
		}
		j->b->outcome[i] = ARMED;
	}
	return 0;
}

static void *
job_thread(void *arg)
{
	return (void *)(intptr_t)job_run(arg);
}

/* Where a job runs: the main lcore, another EAL lcore, or no lcore. */
enum where { MAIN, LCORE, PTHREAD };

static int
job_do(struct job *j, enum where w, unsigned int lcore)
{
	pthread_t th;
	void *ret;

	switch (w) {
	case MAIN:
		return job_run(j);
	case LCORE:
		SWT_ASSERT_OK(swt_launch(job_run, j, lcore));
		return swt_join() == 0 ? SWT_PASS : SWT_FAIL;
	case PTHREAD:
		SWT_ASSERT_OK(pthread_create(&th, NULL, job_thread, j));
		SWT_ASSERT_OK(pthread_join(th, &ret));
		return ret == NULL ? SWT_PASS : SWT_FAIL;
	}
	return SWT_FAIL;
}

/* Arm every timer on one thread, cancel every other one on another. */
static int
cancel_across(enum where arm_on, unsigned int arm_lcore,
	      enum where cancel_on, unsigned int cancel_lcore)
{
	const unsigned int n = 500;
	struct swtim_adapter *a = mk_adapter(n);
	struct job arm, cancel;
	struct book b;
	uint64_t tick;
	unsigned int i, cancelled = 0;

	SWT_ASSERT(a != NULL, "adapter: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(book_init(&b, n));
	tick = swt_adapter_tick_ns(a);
	for (i = 0; i < n; i++)
		swt_timer_init(&b.t[i], SWT_Q_ATOMIC, i,
			       swt_ticks(250 * 1000000, tick));
	arm = (struct job){ .a = a, .b = &b, .first = 0, .step = 1 };
	cancel = (struct job){ .a = a, .b = &b, .first = 0, .step = 2,
			       .cancel = true };
	SWT_ASSERT_OK(job_do(&arm, arm_on, arm_lcore));
	SWT_ASSERT_OK(job_do(&cancel, cancel_on, cancel_lcore));
	for (i = 0; i < n; i += 2)
		cancelled += b.outcome[i] == CANCELLED;
	SWT_ASSERT(cancelled > 0, "no cancel succeeded");
	return book_settle(&b, 250);
}

static int
cancel_on_other_lcore(void)
{
	return cancel_across(MAIN, 0, LCORE, SWT_FIRST_PRODUCER_LCORE);
}

static int
cancel_lcore_armed_on_main(void)
{
	return cancel_across(LCORE, SWT_FIRST_PRODUCER_LCORE + 1, MAIN, 0);
}

static int
cancel_on_non_eal_thread(void)
{
	return cancel_across(MAIN, 0, PTHREAD, 0);
}

static int
cancel_non_eal_armed_on_lcore(void)
{
	return cancel_across(PTHREAD, 0, LCORE, SWT_FIRST_PRODUCER_LCORE + 2);
}

/* Arm one timer on a launched lcore, and say when done. */
static struct {
	const struct swtim_adapter *a;
	struct rte_event_timer *t;
	int done;
} xw;

static int
xw_arm(void *arg __rte_unused)
{
	int ret = swtim_arm(xw.a, xw.t);

	__atomic_store_n(&xw.done, 1, __ATOMIC_RELEASE);
	return ret == 1 ? 0 : -1;
}

/* Arm xw.t on lcore; false if it has not managed in 5 s. */
static bool
xw_arm_on(unsigned int lcore)
{
	uint64_t end = swt_now() + swt_ms_to_cycles(5000);

	__atomic_store_n(&xw.done, 0, __ATOMIC_RELEASE);
	if (swt_launch(xw_arm, NULL, lcore) != 0)
		return false;
	while (!__atomic_load_n(&xw.done, __ATOMIC_ACQUIRE))
		if (swt_now() > end)
			return false;
	return swt_join() == 0;
}

/*
 * One cancel burst of timers armed on two lcores, so held by two wheels
 * (lists): it takes each one's lock in turn and gives every one back.
 * Both lcores then arm again, and both timers fire. The first arms are
 * far (half the maximum timeout), so that a thread held back by busy
 * CPUs between arm and cancel still finds them armed.
 */
static int
cancel_burst_across_wheels(void)
{
	struct swtim_adapter *a = mk_adapter(16);
	struct rte_event_timer *t = swt_timers(2);
	struct rte_event_timer **p = swt_timer_ptrs(t, 2);
	struct rte_event ev[2];
	uint64_t tick, far;

	SWT_ASSERT(a != NULL && t != NULL && p != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	tick = swt_adapter_tick_ns(a);
	far = swt_ticks(MAX_TMO_NS / 2, tick);
	swt_timer_init(&t[0], SWT_Q_ATOMIC, 0, far);
	swt_timer_init(&t[1], SWT_Q_ATOMIC, 1, far);
	xw.a = a;
	xw.t = &t[0];
	SWT_ASSERT_NOT_STUCK(xw_arm_on(SWT_FIRST_PRODUCER_LCORE),
			     "first arm");
	SWT_ASSERT_EQ(swtim_arm(a, &t[1]), 1);
	SWT_ASSERT_BURST(swtim_cancel_burst(a, p, 2), 2, 0);

	t[0].timeout_ticks = 1;
	t[1].timeout_ticks = 1;
	SWT_ASSERT_NOT_STUCK(xw_arm_on(SWT_FIRST_PRODUCER_LCORE),
			     "the lcore cannot arm again: the cancel left "
			     "its lock held?");
	SWT_ASSERT_EQ(swtim_arm(a, &t[1]), 1);
	SWT_ASSERT_EQ(swt_collect(&swt_dev, ev, 2, 2000), 2);
	SWT_ASSERT(ev[0].u64 + ev[1].u64 == 1, "events %" PRIu64 " and %"
		   PRIu64, ev[0].u64, ev[1].u64);
	return SWT_PASS;
}

/* CANCELED is armable: cancel/arm cycles, then a final arming delivers. */
static int
rearm_after_cancel(void)
{
	const unsigned int n = 300, cycles = 10;
	struct swtim_adapter *a = mk_adapter(n);
	struct rte_event_timer **p;
	struct book b;
	uint64_t rnd = swt_seed(), tick, far;
	unsigned int i, c;

	SWT_ASSERT(a != NULL, "adapter: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(book_init(&b, n));
	p = swt_timer_ptrs(b.t, n);
	SWT_ASSERT(p != NULL, "alloc");
	tick = swt_adapter_tick_ns(a);
	/* Stays armed even if busy CPUs hold this thread back a while. */
	far = swt_ticks(MAX_TMO_NS / 2, tick);
	for (i = 0; i < n; i++)
		swt_timer_init(&b.t[i], SWT_Q_PARALLEL, i, far);
	for (c = 0; c < cycles; c++) {
		SWT_ASSERT_BURST(swtim_arm_burst(a, p, n), n, 0);
		SWT_ASSERT_BURST(swtim_cancel_burst(a, p, n), n, 0);
		for (i = 0; i < n; i++)
			SWT_ASSERT_EQ(b.t[i].state, RTE_EVENT_TIMER_CANCELED);
	}
	for (i = 0; i < n; i++) {
		b.t[i].timeout_ticks = swt_rand_range(&rnd, 1, 20);
		b.outcome[i] = ARMED;
	}
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, n), n, 0);
	return book_settle(&b, 20 * tick / 1000000 + 1);
}

/*
 * Arm with one tick and cancel after a random short spin, so that cancel
 * lands before, during and after the expiry. Retries on EAGAIN. Whatever
 * happens, an arming is cancelled or delivered, never both or neither.
 */
static int
races(unsigned int nb_service_lcores)
{
	const unsigned int batch = 64, batches = 150;
	const unsigned int n = batch * batches;
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, n,
			 RTE_EVENT_TIMER_ADAPTER_F_ADJUST_RES);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);
	struct rte_event_timer **p;
	struct rte_event evs[32];
	struct book b;
	uint64_t rnd = swt_seed(), tick_cycles, spin_end;
	unsigned int i, k, eagain = 0, cancelled = 0, expired = 0;
	uint16_t got, j;

	SWT_ASSERT(a != NULL, "adapter: %s", rte_strerror(rte_errno));
	/* With two, both service lcores may be expiring at once. */
	SWT_ASSERT_OK(swt_service_map(a, SWT_SERVICE_LCORE));
	if (nb_service_lcores > 1)
		SWT_ASSERT_OK(swt_service_map(a, SWT_FIRST_PRODUCER_LCORE));
	SWT_ASSERT_OK(swtim_adapter_start(a));
	SWT_ASSERT_OK(book_init(&b, n));
	p = swt_timer_ptrs(b.t, n);
	SWT_ASSERT(p != NULL, "alloc");
	tick_cycles = swt_ns_to_cycles(swt_adapter_tick_ns(a));

	for (k = 0; k < batches; k++) {
		for (i = k * batch; i < (k + 1) * batch; i++) {
			swt_timer_init(&b.t[i], i & 1 ? SWT_Q_ATOMIC :
				       SWT_Q_PARALLEL, i, 1);
			b.outcome[i] = ARMED;
		}
		SWT_ASSERT_BURST(swtim_arm_burst(a, &p[k * batch], batch),
				 batch, 0);
		/* 0 to 3 ticks: before, around and after the deadline. */
		spin_end = swt_now() + swt_rand(&rnd) % (3 * tick_cycles);
		while (swt_now() < spin_end)
			rte_pause();
		for (i = k * batch; i < (k + 1) * batch; i++)
			if (cancel_and_book(a, &b, i, &eagain) != SWT_PASS)
				return SWT_FAIL;
		/* Dequeue as we go so the device never fills up. */
		while ((got = swt_dequeue(&swt_dev, evs, RTE_DIM(evs))) > 0)
			for (j = 0; j < got; j++) {
				SWT_ASSERT(evs[j].u64 < n, "u64");
				b.seen[evs[j].u64]++;
			}
	}
	for (i = 0; i < n; i++) {
		cancelled += b.outcome[i] == CANCELLED;
		expired += b.outcome[i] == EXPIRED;
	}
	printf("    %u cancelled, %u expired, %u EAGAIN retries\n",
	       cancelled, expired, eagain);
	return book_settle(&b, 10);
}

static int
cancel_races_expiry(void)
{
	return races(1);
}

static int
cancel_races_expiry_two_service_lcores(void)
{
	return races(2);
}

/* ---- cancel racing the arm of the same timer ---- */

/*
 * Rounds of the arm/cancel race: RACE_MIN_ROUNDS, then as many more as
 * RACE_MS allow, at most RACE_ROUNDS. Each round needs both lcores on a
 * CPU, so on two CPUs shared with other tests a round can wait a
 * scheduler slice: 50000 rounds took from 0.5 s to over 90 s depending on
 * the load, 1000 up to 7 s with two CPU hogs.
 */
#define RACE_ROUNDS	50000
#define RACE_MS		4000
#define RACE_MIN_ROUNDS	1000

static struct {
	const struct swtim_adapter *a;
	struct rte_event_timer *t;
	uint32_t armed_round;	/* the arming lcore's round, published */
	uint32_t cancelled_round;	/* the cancelling lcore's, published */
	int cancel_ret;		/* of the last round's cancel */
	int cancel_errno;	/* and its rte_errno */
	int stop;		/* the arming lcore is done */
	uint64_t eagain;
} race;

/* Wait until *word reads want; false if told to stop meanwhile. */
static bool
race_wait(const uint32_t *word, uint32_t want)
{
	while (__atomic_load_n(word, __ATOMIC_ACQUIRE) != want)
		if (__atomic_load_n(&race.stop, __ATOMIC_ACQUIRE))
			return false;
		else
			rte_pause();
	return true;
}

/* Cancel the timer as soon as it reads ARMED, each round. */
static int
race_canceller(void *arg __rte_unused)
{
	uint32_t round;

	for (round = 1; round <= RACE_ROUNDS; round++) {
		if (!race_wait(&race.armed_round, round) ||
		    !race_wait((const uint32_t *)&race.t->state,
			       RTE_EVENT_TIMER_ARMED))
			return 0;
		while ((race.cancel_ret = swtim_cancel(race.a, race.t)) != 1 &&
		       rte_errno == EAGAIN)
			race.eagain++;
		race.cancel_errno = race.cancel_ret == 1 ? 0 : rte_errno;
		__atomic_store_n(&race.cancelled_round, round,
				 __ATOMIC_RELEASE);
	}
	return 0;
}

/*
 * One lcore arms a timer, another cancels it the moment it reads ARMED,
 * which may be before the arm call has returned: the cancel may answer
 * EAGAIN meanwhile, but once it succeeds the timer is CANCELED, never
 * delivered, and (skiplist) its object is on no list any more: a
 * cancel that recycled an object its arm was still putting on a list
 * left it pending there, to fire for whatever timer took it next.
 */
static int
cancel_races_arm(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, 64, 0);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);
	bool skiplist = strcmp(swt_driver, "skiplist") == 0;
	uint64_t end = swt_now() + swt_ms_to_cycles(RACE_MS);
	uint32_t round, stale = 0, bad_round = 0;
	int arm_errno = 0;

	memset(&race, 0, sizeof(race));
	race.t = swt_timers(1);
	SWT_ASSERT(a != NULL && race.t != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_adapter_start(a));
	race.a = a;
	SWT_ASSERT_OK(swt_launch(race_canceller, NULL,
				 SWT_FIRST_PRODUCER_LCORE));
	for (round = 1; round <= RACE_ROUNDS &&
	     (round <= RACE_MIN_ROUNDS || swt_now() < end); round++) {
		/* Long enough never to expire during the case. */
		swt_timer_init(race.t, SWT_Q_ATOMIC, round, 20000);
		__atomic_store_n(&race.armed_round, round, __ATOMIC_RELEASE);
		if (swtim_arm(a, race.t) != 1) {
			arm_errno = rte_errno;
			break;
		}
		/* The canceller finishes every round it has begun. */
		while (__atomic_load_n(&race.cancelled_round,
				       __ATOMIC_ACQUIRE) != round)
			rte_pause();
		if (race.cancel_ret != 1 ||
		    race.t->state != RTE_EVENT_TIMER_CANCELED) {
			bad_round = round;
			break;
		}
		/* White box: a skiplist object starts with its rte_timer. */
		if (skiplist && rte_timer_pending(
				(struct rte_timer *)race.t->impl_opaque[0]))
			stale++;
	}
	/* On a failure too, so that the canceller does not wait for ever. */
	__atomic_store_n(&race.stop, 1, __ATOMIC_RELEASE);
	SWT_ASSERT_OK(swt_join());
	SWT_ASSERT(arm_errno == 0, "round %u: arm: %s", round,
		   rte_strerror(arm_errno));
	SWT_ASSERT(bad_round == 0, "round %u: cancel %d (%s), state %d",
		   bad_round, race.cancel_ret,
		   rte_strerror(race.cancel_errno), race.t->state);
	printf("    %u rounds, %" PRIu64 " EAGAIN\n", round - 1,
	       race.eagain);
	SWT_ASSERT(stale == 0, "%u cancelled timers left pending on a list",
		   stale);
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 20), 0);
	return SWT_PASS;
}

static const struct swt_case cases[] = {
	SWT_CASE(cancelled_never_delivered),
	SWT_CASE(cancel_shuffled_from_crowded_slots),
	SWT_CASE(cancel_on_other_lcore),
	SWT_CASE(cancel_lcore_armed_on_main),
	SWT_CASE(cancel_on_non_eal_thread),
	SWT_CASE(cancel_non_eal_armed_on_lcore),
	SWT_CASE(cancel_burst_across_wheels),
	SWT_CASE(rearm_after_cancel),
	SWT_CASE(cancel_races_expiry),
	SWT_CASE(cancel_races_expiry_two_service_lcores),
	SWT_CASE(cancel_races_arm),
};

int
main(int argc, char **argv)
{
	return swt_main(argc, argv, cases, RTE_DIM(cases));
}
