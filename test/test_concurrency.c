/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Stress: four producer lcores and one non-EAL pthread arm and cancel
 * their timers concurrently, re-arming each as soon as it is NOT_ARMED
 * or CANCELED again, while the main lcore dequeues. With two CPUs the
 * producers float over both and are preempted at random points, which is
 * what shakes out races.
 *
 * Every arming carries a generation in ev.u64. Producers book each
 * arming's outcome (cancelled, or not); the main lcore counts deliveries
 * per arming. At the end every arming not cancelled was delivered
 * exactly once and no cancelled arming was delivered. An arming whose
 * re-arm changed ev.u64 while its previous event was still being built
 * would show up as a wrong or doubled generation.
 */

#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "swtim_test.h"

#define TICK_NS		(100 * 1000)		/* 100 us */
/*
 * The leak check at the end arms nb_timers timers of this timeout and
 * cancels them: long enough that none expires even when busy CPUs (an
 * ASan build, parallel tests) hold the thread back for a second or more.
 */
#define MAX_TMO_NS	(60ULL * 1000 * 1000 * 1000)	/* 60 s */
#define MAX_TICKS	50			/* timeouts up to 5 ms */
#define ID		6
#define APP_PORT	1

#define NB_PROD		(SWT_NB_PRODUCER_LCORES + 1)	/* + the pthread */
#define PER_PROD	1000
/* Armings per timer; generation 0 means never armed. */
#define MAX_GEN		256
/* How long producers keep going; the whole case stays well under 10 s. */
#define PRODUCE_MS	2000
#define BURST		16
/* How often the stop/start variant stops the adapter. */
#define TOGGLE_MS	10

/*
 * Room for every timer armed plus, per timer, expiries not yet handed
 * to the device (a NOT_ARMED timer's event may still be on its way and
 * count against nb_timers). Running out would be legal, so ENOSPC is
 * only counted, but it should not happen with this much room.
 */
#define NB_TIMERS	(NB_PROD * PER_PROD * 3)

enum outcome { NONE = 0, ARMED, CANCELLED, EXPIRED };

struct prod {
	unsigned int id;
	struct rte_event_timer *t;
	uint8_t *gen;		/* current generation per timer */
	uint8_t *outcome;	/* [timer][gen] */
	uint64_t rnd;
	uint64_t arms, cancels, late_cancels, eagain, enospc;
	volatile int done;
	int ret;
};

static struct {
	const struct swtim_adapter *a;
	uint64_t end;
	struct prod p[NB_PROD];
	uint8_t *delivered;	/* [prod][timer][gen], main lcore only */
} ctx;

static inline uint64_t
tag(unsigned int p, unsigned int i, unsigned int g)
{
	return ((uint64_t)p << 40) | ((uint64_t)i << 8) | g;
}

static inline size_t
slot(unsigned int i, unsigned int g)
{
	return (size_t)i * MAX_GEN + g;
}

/*
 * Arm nb timers of p (indices in idx). Returns how many were armed (the
 * front), or -1; those left over never had their generation.
 */
static int
prod_arm(struct prod *p, struct rte_event_timer **b, unsigned int *idx,
	 unsigned int nb)
{
	unsigned int done, j;

	rte_errno = 0;
	done = swtim_arm_burst(ctx.a, b, nb);
	p->arms += done;
	if (done == nb)
		return done;
	if (rte_errno != ENOSPC) {
		swt_fail(__FILE__, __LINE__, "prod %u: arm: %s", p->id,
			 rte_strerror(rte_errno));
		return -1;
	}
	p->enospc++;
	for (j = done; j < nb; j++) {
		p->outcome[slot(idx[j], p->gen[idx[j]])] = NONE;
		p->gen[idx[j]]--;
	}
	return done;
}

/* Cancel nb timers with cancel_burst, resuming after each failure. */
static int
prod_cancel(struct prod *p, struct rte_event_timer **b, unsigned int *idx,
	    unsigned int nb)
{
	unsigned int k = 0, done, j;

	while (k < nb) {
		rte_errno = 0;
		done = swtim_cancel_burst(ctx.a, &b[k], nb - k);
		for (j = k; j < k + done; j++)
			p->outcome[slot(idx[j], p->gen[idx[j]])] = CANCELLED;
		p->cancels += done;
		k += done;
		if (k == nb)
			break;
		if (rte_errno == EAGAIN) {
			/* Expiring right now: ask again. */
			p->eagain++;
			continue;
		}
		if (rte_errno != EINVAL) {
			swt_fail(__FILE__, __LINE__, "prod %u: cancel: %s",
				 p->id, rte_strerror(rte_errno));
			return -1;
		}
		/* Already expired: it will be (or was) delivered. */
		p->outcome[slot(idx[k], p->gen[idx[k]])] = EXPIRED;
		p->late_cancels++;
		k++;
	}
	return 0;
}

static int
prod_run(void *arg)
{
	struct prod *p = arg;
	struct rte_event_timer *armb[BURST], *canb[PER_PROD];
	unsigned int armi[BURST], armed[PER_PROD], cani[PER_PROD];
	unsigned int i, na, nb_armed, nc, spent = 0;
	struct rte_event_timer *t;
	int st, k;

	p->ret = -1;
	/* Until time is up or every timer used all its generations. */
	while (swt_now() < ctx.end && spent < PER_PROD) {
		na = nb_armed = nc = spent = 0;
		for (i = 0; i < PER_PROD; i++) {
			t = &p->t[i];
			if (p->gen[i] == MAX_GEN - 1) {
				spent++;
				continue;
			}
			st = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);
			if (st != RTE_EVENT_TIMER_NOT_ARMED &&
			    st != RTE_EVENT_TIMER_CANCELED)
				continue;
			p->gen[i]++;
			t->ev.u64 = tag(p->id, i, p->gen[i]);
			t->timeout_ticks = swt_rand_range(&p->rnd, 1,
							  MAX_TICKS);
			/* Booked before arming: it may expire at once. */
			p->outcome[slot(i, p->gen[i])] = ARMED;
			armb[na] = t;
			armi[na++] = i;
			if (na < BURST && i < PER_PROD - 1)
				continue;
			k = prod_arm(p, armb, armi, na);
			if (k < 0)
				return -1;
			memcpy(&armed[nb_armed], armi, k * sizeof(armi[0]));
			nb_armed += k;
			na = 0;
		}
		/* The last timers may have been skipped with a burst open. */
		if (na > 0) {
			k = prod_arm(p, armb, armi, na);
			if (k < 0)
				return -1;
			memcpy(&armed[nb_armed], armi, k * sizeof(armi[0]));
			nb_armed += k;
		}
		/* Cancel about half of what got armed. */
		for (i = 0; i < nb_armed; i++) {
			if (swt_rand(&p->rnd) & 1) {
				canb[nc] = &p->t[armed[i]];
				cani[nc++] = armed[i];
			}
		}
		if (prod_cancel(p, canb, cani, nc) != 0)
			return -1;
	}
	p->ret = 0;
	return 0;
}

static int
prod_lcore(void *arg)
{
	struct prod *p = arg;
	int ret = prod_run(p);

	__atomic_store_n(&p->done, 1, __ATOMIC_RELEASE);
	return ret;
}

static void *
prod_thread(void *arg)
{
	prod_lcore(arg);
	return NULL;
}

static bool
all_done(void)
{
	unsigned int p;

	for (p = 0; p < NB_PROD; p++)
		if (!__atomic_load_n(&ctx.p[p].done, __ATOMIC_ACQUIRE))
			return false;
	return true;
}

/* Count one delivery; events that match no arming fail the case. */
static int
deliver(const struct rte_event *ev, uint64_t *total)
{
	unsigned int p = ev->u64 >> 40, i = (ev->u64 >> 8) & 0xffffffff;
	unsigned int g = ev->u64 & 0xff;

	SWT_ASSERT(p < NB_PROD && i < PER_PROD && g > 0 && g < MAX_GEN,
		   "event %#" PRIx64 " matches no timer", ev->u64);
	ctx.delivered[((size_t)p * PER_PROD + i) * MAX_GEN + g]++;
	(*total)++;
	return SWT_PASS;
}

/*
 * Everything settled: every place came back, whatever the producers'
 * lcores (and the non-EAL thread) hold. Exactly nb_timers arm, one more
 * does not.
 */
static int
check_no_leak(struct swtim_adapter *a)
{
	const unsigned int n = NB_TIMERS + 1;
	struct rte_event_timer *t = swt_timers(n);
	struct rte_event_timer **p = swt_timer_ptrs(t, n);
	uint64_t far = MAX_TMO_NS / swt_adapter_tick_ns(a);
	unsigned int i, armed = 0;
	uint16_t k;

	SWT_ASSERT(t != NULL && p != NULL, "alloc");
	for (i = 0; i < n; i++)
		swt_timer_init(&t[i], SWT_Q_PARALLEL, i, far);
	while (armed < n) {
		k = swtim_arm_burst(a, &p[armed], RTE_MIN(n - armed, 1024u));
		armed += k;
		if (k == 0 || armed == NB_TIMERS)
			break;
	}
	SWT_ASSERT_EQ(armed, NB_TIMERS);
	SWT_ASSERT_BURST(swtim_arm(a, &t[NB_TIMERS]), 0, ENOSPC);
	for (i = 0; i < armed; i += k) {
		k = swtim_cancel_burst(a, &p[i], RTE_MIN(armed - i, 1024u));
		SWT_ASSERT(k > 0, "cancel: %s", rte_strerror(rte_errno));
	}
	return SWT_PASS;
}

/*
 * toggle: the main lcore also stops and starts the adapter every few ms
 * while the producers work; expiries are only ever late, never lost.
 */
static int
storm(bool toggle)
{
	struct rte_event evs[64];
	uint64_t total = 0, expected = 0, t0, end, arms = 0, cancels = 0;
	uint64_t late = 0, eagain = 0, enospc = 0, seed = swt_seed();
	uint64_t next_toggle, toggles = 0;
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, NB_TIMERS,
			 RTE_EVENT_TIMER_ADAPTER_F_ADJUST_RES);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);
	struct rte_event_timer_adapter_stats st;
	unsigned int p, i, g, d, bad = 0;
	pthread_t th;
	uint16_t k, j;
	size_t s;
	uint8_t o;

	SWT_ASSERT(a != NULL, "adapter: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_adapter_start(a));
	memset(&ctx, 0, sizeof(ctx));
	ctx.a = a;
	ctx.delivered = swt_calloc((size_t)NB_PROD * PER_PROD * MAX_GEN, 1);
	SWT_ASSERT(ctx.delivered != NULL, "alloc");
	for (p = 0; p < NB_PROD; p++) {
		struct prod *pr = &ctx.p[p];

		pr->id = p;
		pr->rnd = seed + p * UINT64_C(0x9E3779B97F4A7C15);
		pr->t = swt_timers(PER_PROD);
		pr->gen = swt_calloc(PER_PROD, 1);
		pr->outcome = swt_calloc((size_t)PER_PROD * MAX_GEN, 1);
		SWT_ASSERT(pr->t != NULL && pr->gen != NULL &&
			   pr->outcome != NULL, "alloc");
		for (i = 0; i < PER_PROD; i++) {
			swt_timer_init(&pr->t[i], i & 1 ? SWT_Q_ATOMIC :
				       SWT_Q_PARALLEL, 0, 1);
			pr->t[i].ev.flow_id = i;
		}
	}

	t0 = swt_now();
	ctx.end = t0 + swt_ms_to_cycles(PRODUCE_MS);
	for (p = 0; p < SWT_NB_PRODUCER_LCORES; p++)
		SWT_ASSERT_OK(swt_launch(prod_lcore, &ctx.p[p],
					 SWT_FIRST_PRODUCER_LCORE + p));
	SWT_ASSERT_OK(pthread_create(&th, NULL, prod_thread,
				     &ctx.p[NB_PROD - 1]));

	/* Dequeue while they work. */
	next_toggle = swt_now() + swt_ms_to_cycles(TOGGLE_MS);
	while (!all_done()) {
		if (toggle && swt_now() >= next_toggle) {
			SWT_ASSERT_OK(swtim_adapter_stop(a));
			toggles++;
			/* Dequeue a little while stopped, then go again. */
			for (i = 0; i < 20; i++) {
				k = swt_dequeue(&swt_dev, evs, RTE_DIM(evs));
				for (j = 0; j < k; j++)
					if (deliver(&evs[j], &total) !=
					    SWT_PASS)
						bad++;
				swt_idle();
			}
			SWT_ASSERT_OK(swtim_adapter_start(a));
			next_toggle = swt_now() + swt_ms_to_cycles(TOGGLE_MS);
		}
		k = swt_dequeue(&swt_dev, evs, RTE_DIM(evs));
		if (k == 0)
			swt_idle();
		for (j = 0; j < k; j++)
			if (deliver(&evs[j], &total) != SWT_PASS)
				bad++;
	}
	pthread_join(th, NULL);
	SWT_ASSERT_EQ(swt_join(), 0);
	for (p = 0; p < NB_PROD; p++)
		SWT_ASSERT(ctx.p[p].ret == 0, "producer %u failed", p);
	SWT_ASSERT_EQ(bad, 0);

	/* Every arming not cancelled delivers; wait for the last ones. */
	for (p = 0; p < NB_PROD; p++)
		for (s = 0; s < (size_t)PER_PROD * MAX_GEN; s++) {
			o = ctx.p[p].outcome[s];
			expected += o == ARMED || o == EXPIRED;
		}
	/* Generous: under ASan two stress tests share two CPUs. */
	end = swt_now() + swt_ms_to_cycles(20000);
	while (total < expected && swt_now() < end) {
		k = swt_dequeue(&swt_dev, evs, RTE_DIM(evs));
		if (k == 0)
			swt_idle();
		for (j = 0; j < k; j++)
			SWT_ASSERT_OK(deliver(&evs[j], &total));
	}
	while ((k = swt_collect(&swt_dev, evs, 1, 50)) > 0)
		SWT_ASSERT_OK(deliver(&evs[0], &total));

	for (p = 0; p < NB_PROD; p++) {
		struct prod *pr = &ctx.p[p];

		arms += pr->arms;
		cancels += pr->cancels;
		late += pr->late_cancels;
		eagain += pr->eagain;
		enospc += pr->enospc;
		for (i = 0; i < PER_PROD; i++)
			for (g = 1; g < MAX_GEN; g++) {
				o = pr->outcome[slot(i, g)];
				d = ctx.delivered[((size_t)p * PER_PROD + i) *
						  MAX_GEN + g];
				if (o == CANCELLED && d != 0) {
					swt_fail(__FILE__, __LINE__, "%u/%u/%u "
						 "cancelled and delivered",
						 p, i, g);
					return SWT_FAIL;
				}
				if ((o == ARMED || o == EXPIRED) && d != 1) {
					swt_fail(__FILE__, __LINE__, "%u/%u/%u "
						 "delivered %u times", p, i, g,
						 d);
					return SWT_FAIL;
				}
				SWT_ASSERT(o != NONE || d == 0,
					   "%u/%u/%u never armed, delivered",
					   p, i, g);
			}
	}
	SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
	printf("    %.0f ms: %" PRIu64 " armed, %" PRIu64 " cancelled, %"
	       PRIu64 " expired before cancel, %" PRIu64 " EAGAIN, %" PRIu64
	       " ENOSPC, %" PRIu64 " delivered, %" PRIu64 " retries\n",
	       swt_cycles_to_ms(swt_now() - t0), arms, cancels, late, eagain,
	       enospc, total, st.evtim_retry_count);
	if (toggle)
		printf("    %" PRIu64 " stop/start cycles\n", toggles);
	SWT_ASSERT_EQ(total, expected);
	SWT_ASSERT_EQ(arms, cancels + expected);
	SWT_ASSERT(arms > 0 && cancels > 0, "nothing happened");
	return check_no_leak(a);
}

static int
arm_cancel_storm(void)
{
	return storm(false);
}

static int
arm_cancel_storm_stop_start(void)
{
	return storm(true);
}

/*
 * remaining_ticks_get() of a timer whose timer object (skiplist) or
 * wheel place another timer keeps reusing: one lcore arms and cancels E (far timeout) and E2 (a
 * few ticks) in turn, so that both take the same object from the lcore's
 * cache; another asks for E's remaining ticks. Every answer must be E's
 * own, never the deadline E2 or an earlier arming left in the object.
 */
#define RT_FAR_TICKS	50000		/* 5 s */
#define RT_NEAR_TICKS	5
#define RT_MS		2000

static struct {
	const struct swtim_adapter *a;
	struct rte_event_timer *t;	/* E, E2 */
	volatile int stop;
	uint64_t asked, answered, wrong, worst;
} rt;

static int
rt_churn(void *arg)
{
	RTE_SET_USED(arg);
	/* Cancelled timers are armed again as they are: E's fields stay
	 * what they were while the other lcore reads them. */
	while (!rt.stop) {
		if (swtim_arm(rt.a, &rt.t[0]) != 1)
			return -1;
		swt_cancel_retry(rt.a, &rt.t[0]);
		if (swtim_arm(rt.a, &rt.t[1]) != 1)
			return -1;
		swt_cancel_retry(rt.a, &rt.t[1]);
	}
	return 0;
}

static int
rt_ask(void *arg)
{
	uint64_t rem, end = swt_now() + swt_ms_to_cycles(RT_MS);

	RTE_SET_USED(arg);
	while (swt_now() < end) {
		rt.asked++;
		if (swtim_remaining_ticks_get(rt.a, &rt.t[0], &rem) != 0)
			continue;	/* not armed just now */
		rt.answered++;
		/* E was armed moments ago: far more than half its timeout
		 * is left, and never more than all of it. */
		if (rem < RT_FAR_TICKS / 2 || rem > RT_FAR_TICKS) {
			rt.wrong++;
			rt.worst = rem;
		}
	}
	rt.stop = 1;
	return 0;
}

static int
remaining_ticks_during_reuse(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, 64, 0);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);

	SWT_ASSERT(a != NULL, "create: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_adapter_start(a));
	memset(&rt, 0, sizeof(rt));
	rt.a = a;
	rt.t = swt_timers(2);
	SWT_ASSERT(rt.t != NULL, "no memory");
	swt_timer_init(&rt.t[0], SWT_Q_PARALLEL, 0, RT_FAR_TICKS);
	swt_timer_init(&rt.t[1], SWT_Q_PARALLEL, 1, RT_NEAR_TICKS);
	SWT_ASSERT_OK(swt_launch(rt_churn, NULL, SWT_FIRST_PRODUCER_LCORE));
	SWT_ASSERT_OK(swt_launch(rt_ask, NULL,
				 SWT_FIRST_PRODUCER_LCORE + 1));
	SWT_ASSERT_EQ(swt_join(), 0);
	printf("    %" PRIu64 " asked, %" PRIu64 " answered, %" PRIu64
	       " not E's (last %" PRIu64 " ticks)\n", rt.asked, rt.answered,
	       rt.wrong, rt.worst);
	SWT_ASSERT(rt.answered > 0, "never answered");
	SWT_ASSERT_EQ(rt.wrong, 0);
	return SWT_PASS;
}

/*
 * Cancel racing a re-arm on another lcore: two lcores arm the same few
 * timers in turn (a token passes each timer from one to the other at
 * every arming, so each arming lands in another lcore's lane than the
 * last), with a one-tick timeout, as soon as the timer is
 * NOT_ARMED or CANCELED again; a third lcore cancels them and asks their
 * remaining ticks all the while. A cancel can thus look up the timer's
 * wheel, wait for its lock, and find the timer expired and armed again
 * elsewhere: it must then follow the timer or fail, never unlink it from
 * a wheel whose lock it does not hold. Every arming is delivered once or
 * cancelled, never both; the adapter is whole afterwards.
 */
#define RA_TIMERS	8
#define RA_MAX_GEN	(1u << 20)
#define RA_MS		1500

static struct {
	const struct swtim_adapter *a;
	struct rte_event_timer *t;
	uint8_t token[RA_TIMERS];	/* armer that arms next */
	uint32_t gen[RA_TIMERS];		/* armings so far */
	uint8_t *seen;				/* [timer][gen] delivered */
	volatile int stop;
	uint64_t armed[2], cancelled, remaining_bad, failed;
} ra;

static int
ra_arm(void *arg)
{
	unsigned int me = (uintptr_t)arg, i;
	struct rte_event_timer *t;
	int state;

	while (!ra.stop) {
		for (i = 0; i < RA_TIMERS; i++) {
			t = &ra.t[i];
			/* The token first: with it, the other armer is done
			 * with the timer, and the state read next is the
			 * one its arming left or later. */
			if (__atomic_load_n(&ra.token[i], __ATOMIC_ACQUIRE) !=
			    me)
				continue;
			state = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);
			if ((state != RTE_EVENT_TIMER_NOT_ARMED &&
			     state != RTE_EVENT_TIMER_CANCELED) ||
			    ra.gen[i] + 1 == RA_MAX_GEN)
				continue;
			t->ev.u64 = (uint64_t)i << 32 | ++ra.gen[i];
			if (swtim_arm(ra.a, t) != 1) {
				printf("    lcore %u: arming timer %u (state %d): "
				       "%s\n", me, i, state,
				       rte_strerror(rte_errno));
				ra.failed++;
				return -1;
			}
			ra.armed[me]++;
			__atomic_store_n(&ra.token[i], !me, __ATOMIC_RELEASE);
		}
	}
	return 0;
}

static int
ra_cancel(void *arg)
{
	unsigned int i;
	uint64_t rem;
	int ret;

	RTE_SET_USED(arg);
	while (!ra.stop) {
		for (i = 0; i < RA_TIMERS; i++) {
			/* Armed or not, never anything else (the answer is
			 * capped at the one-tick timeout: its value says
			 * nothing here). */
			ret = swtim_remaining_ticks_get(ra.a, &ra.t[i], &rem);
			if (ret != 0 && ret != -EINVAL)
				ra.remaining_bad++;
			if (swtim_cancel(ra.a, &ra.t[i]) == 1)
				ra.cancelled++;
		}
	}
	return 0;
}

/* Book delivered events; false on one unknown or seen before. */
static bool
ra_book(const struct rte_event *ev, uint16_t n)
{
	uint64_t timer, gen;
	uint16_t k;

	for (k = 0; k < n; k++) {
		timer = ev[k].u64 >> 32;
		gen = ev[k].u64 & UINT32_MAX;
		if (timer >= RA_TIMERS || gen == 0 || gen >= RA_MAX_GEN ||
		    ra.seen[timer * RA_MAX_GEN + gen]++ != 0) {
			printf("    event %#" PRIx64 " unknown or repeated\n",
			       ev[k].u64);
			return false;
		}
	}
	return true;
}

static int
cancel_while_rearmed_elsewhere(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, 64, 0);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);
	struct rte_event_timer *extra;
	struct rte_event ev[32];
	uint64_t end, delivered = 0, quiet_end;
	unsigned int i;
	uint16_t n;

	SWT_ASSERT(a != NULL, "create: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_adapter_start(a));
	memset(&ra, 0, sizeof(ra));
	ra.a = a;
	ra.t = swt_timers(RA_TIMERS);
	ra.seen = swt_calloc(RA_TIMERS, RA_MAX_GEN);
	extra = swt_timers(64);
	SWT_ASSERT(ra.t != NULL && ra.seen != NULL && extra != NULL,
		   "no memory");
	for (i = 0; i < RA_TIMERS; i++) {
		swt_timer_init(&ra.t[i], SWT_Q_PARALLEL, 0, 1);
		ra.token[i] = i % 2;
	}
	SWT_ASSERT_OK(swt_launch(ra_arm, (void *)(uintptr_t)0,
				 SWT_FIRST_PRODUCER_LCORE));
	SWT_ASSERT_OK(swt_launch(ra_arm, (void *)(uintptr_t)1,
				 SWT_FIRST_PRODUCER_LCORE + 1));
	SWT_ASSERT_OK(swt_launch(ra_cancel, NULL,
				 SWT_FIRST_PRODUCER_LCORE + 2));
	end = swt_now() + swt_ms_to_cycles(RA_MS);
	while (swt_now() < end) {
		n = swt_dequeue(&swt_dev, ev, RTE_DIM(ev));
		if (!ra_book(ev, n))
			ra.stop = 1;
		delivered += n;
	}
	ra.stop = 1;
	SWT_ASSERT_EQ(swt_join(), 0);
	/* What is still armed is cancelled or delivered, nothing else. */
	for (i = 0; i < RA_TIMERS; i++)
		ra.cancelled += swt_cancel_retry(a, &ra.t[i]);
	quiet_end = swt_now() + swt_ms_to_cycles(200);
	while (swt_now() < quiet_end) {
		n = swt_dequeue(&swt_dev, ev, RTE_DIM(ev));
		SWT_ASSERT(ra_book(ev, n), "bad event after the run");
		delivered += n;
		if (n != 0)
			quiet_end = swt_now() + swt_ms_to_cycles(200);
	}
	printf("    %" PRIu64 " + %" PRIu64 " armings, %" PRIu64
	       " delivered, %" PRIu64 " cancelled\n", ra.armed[0],
	       ra.armed[1], delivered, ra.cancelled);
	SWT_ASSERT_EQ(ra.failed, 0);
	SWT_ASSERT_EQ(ra.remaining_bad, 0);
	SWT_ASSERT(ra.armed[0] > 0 && ra.armed[1] > 0 && ra.cancelled > 0,
		   "the race did not run");
	SWT_ASSERT_EQ(delivered + ra.cancelled, ra.armed[0] + ra.armed[1]);
	/* The adapter is whole: all its nb_timers can be armed and
	 * cancelled again. */
	for (i = 0; i < 64; i++) {
		swt_timer_init(&extra[i], SWT_Q_PARALLEL, 0,
			       MAX_TMO_NS / TICK_NS);
		SWT_ASSERT_EQ(swtim_arm(a, &extra[i]), 1);
	}
	for (i = 0; i < 64; i++)
		SWT_ASSERT_EQ(swtim_cancel(a, &extra[i]), 1);
	return SWT_PASS;
}

static const struct swt_case cases[] = {
	SWT_CASE(arm_cancel_storm),
	SWT_CASE(arm_cancel_storm_stop_start),
	SWT_CASE(remaining_ticks_during_reuse),
	SWT_CASE(cancel_while_rearmed_elsewhere),
};

int
main(int argc, char **argv)
{
	return swt_main(argc, argv, cases, RTE_DIM(cases));
}
