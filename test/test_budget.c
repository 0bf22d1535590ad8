/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Stress: the nb_timers budget stays exact while it is spread over the
 * lanes as credit (swtim_budget.h). Producer lcores race for the last
 * slots of a small adapter, round after round, arming singles and bursts
 * and cancelling their own timers at the same time; whenever all of them
 * have been refused (ENOSPC) and none cancels any more, exactly
 * nb_timers timers are armed, whichever lanes hold credit. Then lcores
 * that hold credit go idle and others must get it: an arm refused while
 * credit sits on an idle lane would leave fewer than nb_timers armed.
 */

#include <errno.h>
#include <string.h>

#include "swtim_test.h"

#define TICK_NS		(1000 * 1000)		/* 1 ms */
#define MAX_TMO_NS	(UINT64_C(600) * 1000 * 1000 * 1000)	/* 600 s */
/* Never due during the case. */
#define FAR_TICKS	500000
#define ID		9
#define APP_PORT	1

#define NB_PROD		SWT_NB_PRODUCER_LCORES
/*
 * Not a multiple of the credit batch (32), and small enough that a few
 * lanes' batches hold all of it: every round needs reclaims.
 */
#define NB_TIMERS	97
#define MAX_BURST	8
/* Rounds of the race; the case is also capped in time. */
#define MIN_ROUNDS	100
#define RACE_MS		3000

struct racer {
	struct swtim_adapter *a;
	struct rte_event_timer *t;	/* NB_TIMERS of its own */
	uint64_t rnd;
	/* Round protocol, with the main lcore. */
	volatile uint32_t go;		/* round number to run */
	volatile uint32_t done;		/* last round finished */
	volatile bool quit;
	bool cancel_too;		/* this round: cancel while arming */
	bool idle;			/* this round: arm nothing */
	unsigned int armed;		/* its timers armed at the round's end */
	unsigned int refused;		/* ENOSPC seen this round */
	int err;			/* an unexpected error */
};

static struct racer racers[NB_PROD];

/* Arm the not-armed timers from the front, bursts of random size. */
static void
racer_fill(struct racer *r)
{
	struct rte_event_timer *p[MAX_BURST];
	unsigned int n, i, got;

	while (r->armed < NB_TIMERS) {
		n = RTE_MIN((unsigned int)swt_rand_range(&r->rnd, 1, MAX_BURST),
			    NB_TIMERS - r->armed);
		for (i = 0; i < n; i++) {
			swt_timer_init(&r->t[r->armed + i], SWT_Q_PARALLEL,
				       r->armed + i, FAR_TICKS);
			p[i] = &r->t[r->armed + i];
		}
		rte_errno = 0;
		got = n == 1 ? swtim_arm(r->a, p[0]) :
			swtim_arm_burst(r->a, p, n);
		r->armed += got;
		if (got < n) {
			if (rte_errno != ENOSPC)
				r->err = rte_errno;
			r->refused++;
			return;
		}
	}
}

/* Cancel the last k timers armed. */
static void
racer_cancel(struct racer *r, unsigned int k)
{
	k = RTE_MIN(k, r->armed);
	while (k-- > 0) {
		if (swtim_cancel(r->a, &r->t[r->armed - 1]) != 1) {
			r->err = rte_errno;
			return;
		}
		r->armed--;
	}
}

static int
racer_run(void *arg)
{
	struct racer *r = arg;
	uint32_t round = 0;
	unsigned int i;

	for (;;) {
		while (r->go == round && !r->quit)
			rte_pause();
		if (r->quit)
			return 0;
		round = r->go;
		r->refused = 0;
		if (!r->idle) {
			/* Churn: arm, cancel a few, arm again, until the
			 * adapter refuses; cancels make room for the others. */
			for (i = 0; r->cancel_too && i < 20; i++) {
				racer_fill(r);
				racer_cancel(r, swt_rand_range(&r->rnd, 0,
							       MAX_BURST));
			}
			/* Then fill, never cancelling again this round. */
			racer_fill(r);
		}
		__atomic_store_n(&r->done, round, __ATOMIC_RELEASE);
	}
}

/* Run one round on every racer and wait for it. */
static int
round_run(uint32_t round)
{
	uint64_t limit = swt_now() + swt_ms_to_cycles(10000);
	unsigned int i;

	for (i = 0; i < NB_PROD; i++)
		__atomic_store_n(&racers[i].go, round, __ATOMIC_RELEASE);
	for (i = 0; i < NB_PROD; i++)
		while (__atomic_load_n(&racers[i].done, __ATOMIC_ACQUIRE) !=
		       round) {
			SWT_ASSERT_NOT_STUCK(swt_now() < limit,
					     "a racer did not end its round");
			swt_idle();
		}
	return 0;
}

static void
racers_quit(void)
{
	unsigned int i;

	for (i = 0; i < NB_PROD; i++)
		racers[i].quit = true;
	swt_join();
}

static int
last_slots_race(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, NB_TIMERS, 0);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);
	struct rte_event_timer *t = swt_timers(NB_PROD * NB_TIMERS);
	uint64_t seed = swt_seed(), end;
	unsigned int i, total, idlers = 0;
	uint32_t round;

	SWT_ASSERT(a != NULL && t != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_adapter_start(a));
	memset(racers, 0, sizeof(racers));
	for (i = 0; i < NB_PROD; i++) {
		racers[i] = (struct racer){ .a = a, .t = &t[i * NB_TIMERS],
			.rnd = seed + i + 1 };
		SWT_ASSERT_OK(swt_launch(racer_run, &racers[i],
					 SWT_FIRST_PRODUCER_LCORE + i));
	}
	end = swt_now() + swt_ms_to_cycles(RACE_MS);
	for (round = 1; round <= MIN_ROUNDS || swt_now() < end; round++) {
		/*
		 * Every third round some racers sit it out holding whatever
		 * credit their lanes kept from the last; the others must
		 * still get every slot.
		 */
		for (i = 0; i < NB_PROD; i++) {
			racers[i].cancel_too = round % 2 == 0;
			racers[i].idle = round % 3 == 0 && i < (round / 3) %
				NB_PROD;
		}
		round_run(round);
		total = 0;
		for (i = 0; i < NB_PROD; i++) {
			if (racers[i].err != 0) {
				racers_quit();
				SWT_ASSERT(false, "round %u, racer %u: %s",
					   round, i,
					   rte_strerror(racers[i].err));
			}
			total += racers[i].armed;
		}
		if (total != NB_TIMERS) {
			racers_quit();
			SWT_ASSERT(false, "round %u: %u armed, nb_timers %u",
				   round, total, NB_TIMERS);
		}
		for (i = 0; i < NB_PROD; i++)
			if (!racers[i].idle &&
			    racers[i].armed < NB_TIMERS &&
			    racers[i].refused == 0) {
				racers_quit();
				SWT_ASSERT(false, "round %u: racer %u stopped"
					   " without ENOSPC", round, i);
			}
		idlers += round % 3 == 0;
		/* Give every slot back for the next round, from the main
		 * lcore for some, so that credit lands on other lanes. */
		for (i = 0; i < NB_PROD; i++) {
			if (round % 4 == 1 || racers[i].idle)
				continue;
			while (racers[i].armed > 0) {
				racers[i].armed--;
				if (swtim_cancel(a,
					&racers[i].t[racers[i].armed]) != 1) {
					racers_quit();
					SWT_ASSERT(false, "cancel: %s",
						   rte_strerror(rte_errno));
				}
			}
		}
	}
	racers_quit();
	printf("    %u rounds (%u with idle racers), exactly %u armed at the"
	       " end of each\n", round - 1, idlers, NB_TIMERS);
	return SWT_PASS;
}

/* One timer armed, and cancelled again if asked, on another lcore. */
struct one_arm {
	struct swtim_adapter *a;
	struct rte_event_timer *t;
	bool cancel;
	uint16_t armed;
	int err;
};

static int
one_arm_run(void *arg)
{
	struct one_arm *o = arg;

	rte_errno = 0;
	o->armed = swtim_arm(o->a, o->t);
	o->err = rte_errno;
	if (o->armed == 1 && o->cancel && swtim_cancel(o->a, o->t) != 1)
		o->err = rte_errno;
	return 0;
}

/*
 * The simplest case of credit held elsewhere: an lcore arms and cancels
 * one timer (its lane keeps the batch it took and the slot back), then
 * goes idle; the main lcore must still arm nb_timers, and no more; and
 * once the main lcore cancels one, the idle lcore, whose credit the main
 * lcore's arms took, arms one again.
 */
static int
idle_lane_credit(unsigned int nb)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, nb, 0);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);
	struct rte_event_timer *t = swt_timers(nb + 2);
	struct one_arm o;
	unsigned int i;

	SWT_ASSERT(a != NULL && t != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_adapter_start(a));
	swt_timer_init(&t[nb], SWT_Q_PARALLEL, nb, FAR_TICKS);
	o = (struct one_arm){ .a = a, .t = &t[nb], .cancel = true };
	SWT_ASSERT_OK(swt_launch(one_arm_run, &o, SWT_FIRST_PRODUCER_LCORE));
	SWT_ASSERT_EQ(swt_join(), 0);
	SWT_ASSERT_EQ(o.armed, 1);
	SWT_ASSERT_EQ(o.err, 0);
	SWT_ASSERT_EQ(t[nb].state, RTE_EVENT_TIMER_CANCELED);
	for (i = 0; i < nb; i++) {
		swt_timer_init(&t[i], SWT_Q_PARALLEL, i, FAR_TICKS);
		SWT_ASSERT(swtim_arm(a, &t[i]) == 1,
			   "timer %u of %u refused: %s", i + 1, nb,
			   rte_strerror(rte_errno));
	}
	swt_timer_init(&t[nb + 1], SWT_Q_PARALLEL, nb + 1, FAR_TICKS);
	SWT_ASSERT_BURST(swtim_arm(a, &t[nb + 1]), 0, ENOSPC);
	SWT_ASSERT_EQ(swtim_cancel(a, &t[0]), 1);
	o = (struct one_arm){ .a = a, .t = &t[nb + 1] };
	SWT_ASSERT_OK(swt_launch(one_arm_run, &o, SWT_FIRST_PRODUCER_LCORE));
	SWT_ASSERT_EQ(swt_join(), 0);
	SWT_ASSERT(o.armed == 1, "the idle lcore's arm refused: %s",
		   rte_strerror(o.err));
	SWT_ASSERT_BURST(swtim_arm(a, &t[0]), 0, ENOSPC);
	return SWT_PASS;
}

/* With the smallest batch (32; swtim_budget.h), more than the lane took. */
static int
idle_lane_holds_credit(void)
{
	return idle_lane_credit(40);
}

/*
 * With the largest batch (256, from 256k timers on): the idle lane holds
 * 257 slots, all of which the main lcore must get.
 */
static int
idle_lane_holds_large_credit(void)
{
	return idle_lane_credit(256 * 1024 + 97);
}

static const struct swt_case cases[] = {
	SWT_CASE(idle_lane_holds_credit),
	SWT_CASE(idle_lane_holds_large_credit),
	SWT_CASE(last_slots_race),
};

int
main(int argc, char **argv)
{
	return swt_main(argc, argv, cases, RTE_DIM(cases));
}
