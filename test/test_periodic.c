/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Periodic adapters (RTE_EVENT_TIMER_ADAPTER_F_PERIODIC): a timer
 * delivers one event per period, stays ARMED, until cancelled; after
 * cancel returns and the events already in the device are drained,
 * nothing more comes.
 *
 * Never early: the k-th event of a timer is not dequeued before k periods
 * after the arm call. That also bounds the count from above. The lower
 * bound is an eighth of the periods elapsed: two CPUs shared with other
 * tests (and sanitizer builds) can starve the service for a while, but
 * not for most of a run.
 */

#include <errno.h>
#include <string.h>

#include "swtim_test.h"

#define TICK_NS		(1000 * 1000)		/* 1 ms */
#define MAX_TMO_NS	(1000 * 1000 * 1000)	/* 1 s */
#define ID		4
#define APP_PORT	1

struct ptimer {
	struct rte_event_timer *t;
	uint64_t arm_tsc;
	uint64_t period_cycles;
	unsigned int count;
};

static struct swtim_adapter *
mk_adapter(uint64_t nb_timers)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, nb_timers,
			 RTE_EVENT_TIMER_ADAPTER_F_PERIODIC);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);

	if (a != NULL && swt_adapter_start(a) != 0)
		return NULL;
	return a;
}

static int
parm(const struct swtim_adapter *a, struct ptimer *pt, uint64_t period)
{
	pt->t->timeout_ticks = period;
	pt->period_cycles = swt_ns_to_cycles(period * TICK_NS);
	pt->count = 0;
	pt->arm_tsc = swt_now();
	SWT_ASSERT_BURST(swtim_arm(a, pt->t), 1, 0);
	return SWT_PASS;
}

/* Dequeue for ms, checking each event against its timer. */
static int
watch(struct ptimer *pt, unsigned int n, unsigned int ms)
{
	struct rte_event evs[32];
	uint64_t end = swt_now() + swt_ms_to_cycles(ms), now, due;
	struct ptimer *p;
	uint16_t k, j;

	while ((now = swt_now()) < end) {
		k = swt_dequeue(&swt_dev, evs, RTE_DIM(evs));
		now = swt_now();
		if (k == 0)
			swt_idle();
		for (j = 0; j < k; j++) {
			SWT_ASSERT(evs[j].u64 < n, "u64 %" PRIu64, evs[j].u64);
			p = &pt[evs[j].u64];
			p->count++;
			due = p->arm_tsc + p->count * p->period_cycles;
			SWT_ASSERT(now >= due, "timer %" PRIu64 ": event %u "
				   "early by %.3f ms", evs[j].u64, p->count,
				   swt_cycles_to_ms(due - now));
			SWT_ASSERT_EQ(evs[j].event_type, RTE_EVENT_TYPE_TIMER);
			SWT_ASSERT_EQ(evs[j].queue_id, p->t->ev.queue_id);
			SWT_ASSERT_EQ(evs[j].sched_type, p->t->ev.sched_type);
			/* A periodic timer stays armed between events. */
			SWT_ASSERT_EQ(p->t->state, RTE_EVENT_TIMER_ARMED);
		}
	}
	return SWT_PASS;
}

/* Each count is at least an eighth of the periods elapsed. */
static int
check_counts(const struct ptimer *pt, unsigned int n)
{
	uint64_t now = swt_now(), periods;
	unsigned int i;

	for (i = 0; i < n; i++) {
		periods = (now - pt[i].arm_tsc) / pt[i].period_cycles;
		SWT_ASSERT(pt[i].count >= periods / 8 && pt[i].count >= 1,
			   "timer %u: %u events in %" PRIu64 " periods", i,
			   pt[i].count, periods);
	}
	return SWT_PASS;
}

/* Cancel all; after the drain, nothing more may come. */
static int
cancel_all_quiet(const struct swtim_adapter *a, struct ptimer *pt,
		 unsigned int n, unsigned int quiet_ms)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		SWT_ASSERT(swt_cancel_retry(a, pt[i].t) == 1, "cancel %u: %s",
			   i, rte_strerror(rte_errno));
		SWT_ASSERT_EQ(pt[i].t->state, RTE_EVENT_TIMER_CANCELED);
	}
	/* What was enqueued before cancel returned may still come. */
	swt_drain(&swt_dev, 50);
	SWT_ASSERT_EQ(swt_drain(&swt_dev, quiet_ms), 0);
	return SWT_PASS;
}

static int
ptimers_init(struct ptimer *pt, unsigned int n)
{
	struct rte_event_timer *t = swt_timers(n);
	unsigned int i;

	if (t == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		memset(&pt[i], 0, sizeof(pt[i]));
		pt[i].t = &t[i];
		swt_timer_init(&t[i], i & 1 ? SWT_Q_ATOMIC : SWT_Q_PARALLEL,
			       i, 1);
	}
	return 0;
}

static int
periodic_one_per_period(void)
{
	struct swtim_adapter *a = mk_adapter(4);
	struct ptimer pt;

	SWT_ASSERT(a != NULL, "adapter: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(ptimers_init(&pt, 1));
	SWT_ASSERT_OK(parm(a, &pt, 10));
	SWT_ASSERT_OK(watch(&pt, 1, 500));
	SWT_ASSERT_OK(check_counts(&pt, 1));
	printf("    %u events of 10 ms in 500 ms\n", pt.count);
	/* 20 periods of silence after the cancel. */
	return cancel_all_quiet(a, &pt, 1, 200);
}

/*
 * Every period delivers, none skipped: over a second of 20 ms periods,
 * at least 70 % of the periods that elapsed have come (a timer that
 * fired every second period would give 50 %). Periods missed while the
 * service waited for a CPU are delivered when it runs again (the next
 * period counts from the last expiry, not from the run), so only a
 * starved end of the second could take the count lower.
 */
static int
periodic_no_period_skipped(void)
{
	struct swtim_adapter *a = mk_adapter(4);
	uint64_t periods;
	struct ptimer pt;

	SWT_ASSERT(a != NULL, "adapter: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(ptimers_init(&pt, 1));
	SWT_ASSERT_OK(parm(a, &pt, 20));
	SWT_ASSERT_OK(watch(&pt, 1, 1000));
	periods = (swt_now() - pt.arm_tsc) / pt.period_cycles;
	printf("    %u events of 20 ms in %" PRIu64 " periods\n", pt.count,
	       periods);
	SWT_ASSERT(pt.count * 10 >= periods * 7, "%u events in %" PRIu64
		   " periods", pt.count, periods);
	return cancel_all_quiet(a, &pt, 1, 100);
}

static int
periodic_several_periods(void)
{
	static const uint64_t periods[] = { 5, 10, 25 };
	const unsigned int n = RTE_DIM(periods);
	struct swtim_adapter *a = mk_adapter(n);
	struct ptimer pt[RTE_DIM(periods)];
	unsigned int i;

	SWT_ASSERT(a != NULL, "adapter: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(ptimers_init(pt, n));
	for (i = 0; i < n; i++)
		SWT_ASSERT_OK(parm(a, &pt[i], periods[i]));
	SWT_ASSERT_OK(watch(pt, n, 400));
	SWT_ASSERT_OK(check_counts(pt, n));
	/* The shortest period fired at least as often as the longest. */
	SWT_ASSERT(pt[0].count >= pt[2].count, "%u vs %u", pt[0].count,
		   pt[2].count);
	return cancel_all_quiet(a, pt, n, 100);
}

static int
periodic_many(void)
{
	const unsigned int n = 100;
	struct swtim_adapter *a = mk_adapter(n);
	struct ptimer *pt = swt_calloc(n, sizeof(*pt));
	uint64_t rnd = swt_seed();
	unsigned int i;

	SWT_ASSERT(a != NULL && pt != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	SWT_ASSERT_OK(ptimers_init(pt, n));
	for (i = 0; i < n; i++)
		SWT_ASSERT_OK(parm(a, &pt[i], swt_rand_range(&rnd, 2, 20)));
	SWT_ASSERT_OK(watch(pt, n, 300));
	SWT_ASSERT_OK(check_counts(pt, n));
	return cancel_all_quiet(a, pt, n, 100);
}

/* A cancelled periodic timer can be armed again, with another period. */
static int
periodic_rearm_after_cancel(void)
{
	struct swtim_adapter *a = mk_adapter(1);
	struct ptimer pt;
	unsigned int round;

	SWT_ASSERT(a != NULL, "adapter: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(ptimers_init(&pt, 1));
	for (round = 0; round < 3; round++) {
		SWT_ASSERT_OK(parm(a, &pt, 3 + round * 2));
		SWT_ASSERT_OK(watch(&pt, 1, 100));
		SWT_ASSERT(pt.count >= 1, "round %u: no event", round);
		SWT_ASSERT_OK(cancel_all_quiet(a, &pt, 1, 30));
	}
	return SWT_PASS;
}

/*
 * Stopped, a periodic timer delivers nothing (once what was in the
 * device is drained); started again, it goes on, still ARMED.
 */
static int
periodic_survives_stop_start(void)
{
	struct swtim_adapter *a = mk_adapter(1);
	struct ptimer pt;
	unsigned int before;

	SWT_ASSERT(a != NULL, "adapter: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(ptimers_init(&pt, 1));
	SWT_ASSERT_OK(parm(a, &pt, 5));
	SWT_ASSERT_OK(watch(&pt, 1, 100));
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	before = pt.count + swt_drain(&swt_dev, 30);
	SWT_ASSERT(before >= 1, "no event before stop");
	/* 20 periods while stopped. */
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 100), 0);
	SWT_ASSERT_EQ(pt.t->state, RTE_EVENT_TIMER_ARMED);
	SWT_ASSERT_OK(swtim_adapter_start(a));
	SWT_ASSERT_EQ(swt_collect(&swt_dev, NULL, 3, 2000), 3);
	return cancel_all_quiet(a, &pt, 1, 50);
}

/* The one-shot rules on timeouts hold for periods too. */
static int
periodic_bad_periods(void)
{
	struct swtim_adapter *a = mk_adapter(1);
	struct ptimer pt;

	SWT_ASSERT(a != NULL, "adapter: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(ptimers_init(&pt, 1));
	pt.t->timeout_ticks = 0;
	SWT_ASSERT_BURST(swtim_arm(a, pt.t), 0, EINVAL);
	SWT_ASSERT_EQ(pt.t->state, RTE_EVENT_TIMER_ERROR_TOOEARLY);
	pt.t->state = RTE_EVENT_TIMER_NOT_ARMED;
	pt.t->timeout_ticks = MAX_TMO_NS / TICK_NS + 1;
	SWT_ASSERT_BURST(swtim_arm(a, pt.t), 0, EINVAL);
	SWT_ASSERT_EQ(pt.t->state, RTE_EVENT_TIMER_ERROR_TOOLATE);
	return SWT_PASS;
}

static const struct swt_case cases[] = {
	SWT_CASE(periodic_one_per_period),
	SWT_CASE(periodic_no_period_skipped),
	SWT_CASE(periodic_several_periods),
	SWT_CASE(periodic_many),
	SWT_CASE(periodic_rearm_after_cancel),
	SWT_CASE(periodic_survives_stop_start),
	SWT_CASE(periodic_bad_periods),
};

int
main(int argc, char **argv)
{
	return swt_main(argc, argv, cases, RTE_DIM(cases));
}
