/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Interleavings of the wheel driver's cancel that a stress test on two
 * CPUs reaches too seldom to count on, set up step by step: the test
 * takes a real adapter's wheel lock itself (white box: the driver's
 * private data through swtim_adapter_priv(), its structure sources built
 * into the test, as test_wheel_model does) and plays the service's or the
 * application's part while a cancel waits for that lock.
 *
 * - A cancel waiting for the lock of the wheel a timer names, while the
 *   timer expires and the application arms it again on another lcore's
 *   wheel: the cancel must follow it there and cancel it, never unlink it
 *   from the wheel whose lock it waited for.
 * - A one-shot timer taken off the wheel by an expiry and not yet
 *   delivered: cancel answers EAGAIN and leaves it ARMED; once delivered
 *   (NOT_ARMED), EINVAL.
 * - A cancel meeting a timer between the two stores of its staged arm
 *   (whl_arm_staged()): it waits, or answers EAGAIN; never loses it.
 * - Single arms staged on an EAL lcore's ring, not on a thread's without
 *   an lcore id; a ring full while no service run links it (the test
 *   holds the lane's claim) emptied by the next, locked, arm; a ring
 *   left by a process that is gone taken over.
 */

#include <errno.h>
#include <pthread.h>

#include "swtim_adapter_pvt.h"
#include "swtim_test.h"
#include "whl_slot.h"

#define ID		9
#define TICK_NS		(100 * 1000)			/* 100 us */
#define MAX_TMO_NS	(60ULL * 1000 * 1000 * 1000)	/* 60 s */
#define FAR_TICKS	20000				/* 2 s */
#define APP_PORT	1
#define CANCELLER	SWT_FIRST_PRODUCER_LCORE
#define REARMER		(SWT_FIRST_PRODUCER_LCORE + 1)

/* One call an lcore is launched for, and what it did. */
struct job {
	const struct swtim_adapter *a;
	struct rte_event_timer *t;
	bool cancel;	/* else arm */
	int ret;	/* of the call */
	int err;	/* its rte_errno */
	int done;
};

static struct job canceller, rearmer;

static int
job_run(void *arg)
{
	struct job *j = arg;

	j->ret = j->cancel ? swtim_cancel(j->a, j->t) : swtim_arm(j->a, j->t);
	j->err = rte_errno;
	__atomic_store_n(&j->done, 1, __ATOMIC_RELEASE);
	return 0;
}

/* Wait up to ms for a launched job; whether it finished. */
static bool
job_wait(struct job *j, unsigned int ms)
{
	uint64_t end = swt_now() + swt_ms_to_cycles(ms);

	while (!__atomic_load_n(&j->done, __ATOMIC_ACQUIRE))
		if (swt_now() > end)
			return false;
	return true;
}

static struct swtim_adapter *
mk_adapter(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, 64, 0);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);

	if (a != NULL && swt_adapter_start(a) != 0)
		return NULL;
	return a;
}

/*
 * A started adapter (mk_adapter()), n timers, the i-th with event i and
 * FAR_TICKS, and this lcore's wheel of it.
 */
static int
setup(unsigned int n, struct swtim_adapter **a, struct rte_event_timer **t,
      struct whl_adapter **whl, struct whl_wheel **mine)
{
	unsigned int i;

	*a = mk_adapter();
	*t = swt_timers(n);
	SWT_ASSERT(*a != NULL && *t != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	*whl = swtim_adapter_priv(*a);
	*mine = &(*whl)->wheels[rte_lcore_id()];
	for (i = 0; i < n; i++)
		swt_timer_init(&(*t)[i], SWT_Q_PARALLEL, i, FAR_TICKS);
	return SWT_PASS;
}

/* Arm and cancel a few timers from this lcore: its wheel still works. */
static int
wheel_still_whole(struct swtim_adapter *a, struct whl_wheel *w)
{
	struct rte_event_timer *t = swt_timers(8);
	unsigned int i;

	SWT_ASSERT(t != NULL, "no memory");
	for (i = 0; i < 8; i++) {
		swt_timer_init(&t[i], SWT_Q_PARALLEL, 100 + i, FAR_TICKS);
		SWT_ASSERT_EQ(swtim_arm(a, &t[i]), 1);
	}
	/* Single arms are staged: linked by the cancels' locks. */
	SWT_ASSERT_EQ(w->nb_armed + (w->stage.tail - w->stage.head), 8);
	for (i = 0; i < 8; i++)
		SWT_ASSERT_EQ(swtim_cancel(a, &t[i]), 1);
	SWT_ASSERT_EQ(w->nb_armed, 0);
	return SWT_PASS;
}

static int
cancel_follows_rearm_elsewhere(void)
{
	struct swtim_adapter *a;
	struct rte_event_timer *t;
	struct whl_adapter *whl;
	struct whl_wheel *mine, *theirs;
	bool waited;

	SWT_ASSERT_OK(setup(1, &a, &t, &whl, &mine));
	theirs = &whl->wheels[REARMER];
	SWT_ASSERT_EQ(swtim_arm(a, t), 1);
	SWT_ASSERT(whl_wheel_holds(whl, mine, t), "not on this lcore's wheel");

	/* A cancel reads the timer's wheel and waits for its lock... */
	SWT_ASSERT(swtim_lane_lock(&mine->lane) == 0, "lock");
	canceller = (struct job){ .a = a, .t = t, .cancel = true };
	if (swt_launch(job_run, &canceller, CANCELLER) != 0) {
		swtim_lane_unlock(&mine->lane);
		SWT_ASSERT(false, "launch");
	}
	swt_sleep_ms(50);
	waited = !__atomic_load_n(&canceller.done, __ATOMIC_ACQUIRE);
	/* ...while the timer expires: taken off, its event delivered... */
	whl_wheel_unlink(whl, mine, t);
	__atomic_store_n(&t->state, RTE_EVENT_TIMER_NOT_ARMED,
			 __ATOMIC_RELEASE);
	/* ...and the application arms it again from another lcore. */
	rearmer = (struct job){ .a = a, .t = t };
	if (swt_launch(job_run, &rearmer, REARMER) != 0) {
		swtim_lane_unlock(&mine->lane);
		SWT_ASSERT(false, "launch");
	}
	SWT_ASSERT_NOT_STUCK(job_wait(&rearmer, 5000),
			     "the re-arm did not finish");
	swtim_lane_unlock(&mine->lane);
	SWT_ASSERT_NOT_STUCK(job_wait(&canceller, 5000),
			     "the cancel did not finish");
	SWT_ASSERT_EQ(swt_join(), 0);
	SWT_ASSERT(waited, "the cancel did not wait for the lock");
	SWT_ASSERT_EQ(rearmer.ret, 1);
	/* It cancelled the timer where it is now. */
	SWT_ASSERT(canceller.ret == 1, "cancel: %s",
		   rte_strerror(canceller.err));
	SWT_ASSERT_EQ(t->state, RTE_EVENT_TIMER_CANCELED);
	SWT_ASSERT_EQ(mine->nb_armed, 0);
	SWT_ASSERT_EQ(theirs->nb_armed, 0);
	SWT_ASSERT(!whl_wheel_holds(whl, theirs, t), "still on a wheel");
	SWT_ASSERT_OK(wheel_still_whole(a, mine));
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 50), 0);
	return SWT_PASS;
}

static int
cancel_eagain_while_delivering(void)
{
	struct swtim_adapter *a;
	struct rte_event_timer *t;
	struct whl_adapter *whl;
	struct whl_wheel *mine;

	SWT_ASSERT_OK(setup(1, &a, &t, &whl, &mine));
	SWT_ASSERT_EQ(swtim_arm(a, t), 1);

	/* An expiry takes the timer off the wheel; its event is built. */
	SWT_ASSERT(swtim_lane_lock(&mine->lane) == 0, "lock");
	whl_wheel_unlink(whl, mine, t);
	swtim_lane_unlock(&mine->lane);
	SWT_ASSERT_BURST(swtim_cancel(a, t), 0, EAGAIN);
	SWT_ASSERT_EQ(t->state, RTE_EVENT_TIMER_ARMED);
	/* Delivered: the application's again, nothing to cancel. */
	__atomic_store_n(&t->state, RTE_EVENT_TIMER_NOT_ARMED,
			 __ATOMIC_RELEASE);
	SWT_ASSERT_BURST(swtim_cancel(a, t), 0, EINVAL);
	SWT_ASSERT_OK(wheel_still_whole(a, mine));
	return SWT_PASS;
}

/* A process tag that is gone: this process's slot, a later generation. */
static uint32_t
gone_tag(void)
{
	return swtim_proc_tag + (1u << SWTIM_PROC_SLOT_BITS);
}

/*
 * Play a staged arm's producer up to the store between its two (the
 * timer marked armed, the ring's index not moved yet): what a cancel on
 * another lcore can meet. Takes the budget slot the arm would have.
 */
static int
stage_half(struct whl_adapter *whl, struct whl_wheel *w,
	   struct rte_event_timer *t)
{
	struct whl_stage *s = &w->stage;

	if (__atomic_load_n(&w->lane.staged_credit, __ATOMIC_RELAXED) == 0) {
		SWT_ASSERT(swtim_lane_lock(&w->lane) == 0, "lock");
		swtim_staged_credit_refill(&whl->base.budget, &w->lane);
		swtim_lane_unlock(&w->lane);
	}
	SWT_ASSERT(swtim_staged_credit_take(&w->lane), "no budget");
	t->impl_opaque[0] = swtim_base_grain_after(&whl->base,
						   rte_get_timer_cycles()) +
		((uint64_t)FAR_TICKS << whl->base.grain_shift);
	t->impl_opaque[1] = w->owner | WHL_PLACE_STAGED;
	s->ring[s->tail % WHL_STAGE_SIZE] = t;
	__atomic_store_n(&t->state, RTE_EVENT_TIMER_ARMED, __ATOMIC_RELEASE);
	return SWT_PASS;
}

/* The staged arm's second store. */
static void
stage_finish(struct whl_wheel *w)
{
	__atomic_store_n(&w->stage.tail, w->stage.tail + 1, __ATOMIC_RELEASE);
}

/*
 * A cancel from another lcore meets a timer between the two stores of
 * its staged arm: it waits for the second (then cancels) or, after
 * WHL_STAGE_WAIT_NS, answers EAGAIN and leaves the timer armed; never
 * EINVAL, and the timer is never lost: once staged, a cancel succeeds.
 */
static int
cancel_meets_staging(void)
{
	struct swtim_adapter *a;
	struct rte_event_timer *t;
	struct whl_adapter *whl;
	struct whl_wheel *mine;

	SWT_ASSERT_OK(setup(1, &a, &t, &whl, &mine));
	SWT_ASSERT_OK(stage_half(whl, mine, t));
	canceller = (struct job){ .a = a, .t = t, .cancel = true };
	SWT_ASSERT(swt_launch(job_run, &canceller, CANCELLER) == 0, "launch");
	swt_sleep_ms(1);
	stage_finish(mine);
	SWT_ASSERT_NOT_STUCK(job_wait(&canceller, 5000),
			     "the cancel did not finish");
	SWT_ASSERT_EQ(swt_join(), 0);
	if (canceller.ret == 0) {
		/* It gave up before the second store: retried, it must
		 * find the timer staged. */
		SWT_ASSERT(canceller.err == EAGAIN, "cancel: %s",
			   rte_strerror(canceller.err));
		SWT_ASSERT_EQ(t->state, RTE_EVENT_TIMER_ARMED);
		SWT_ASSERT_EQ(swtim_cancel(a, t), 1);
	}
	SWT_ASSERT_EQ(t->state, RTE_EVENT_TIMER_CANCELED);
	SWT_ASSERT_EQ(mine->nb_armed, 0);
	SWT_ASSERT_EQ(mine->stage.head, mine->stage.tail);
	SWT_ASSERT_OK(wheel_still_whole(a, mine));
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 50), 0);
	return SWT_PASS;
}

/*
 * The same, the second store never made (its producer stopped between
 * them): the cancel gives up, EAGAIN, the timer armed and not lost; if
 * the ring's process is gone, ENOTRECOVERABLE (it never will be).
 */
static int
cancel_gives_up_on_staging(void)
{
	struct swtim_adapter *a;
	struct rte_event_timer *t;
	struct whl_adapter *whl;
	struct whl_wheel *mine;

	SWT_ASSERT_OK(setup(1, &a, &t, &whl, &mine));
	SWT_ASSERT_OK(stage_half(whl, mine, t));
	SWT_ASSERT_BURST(swtim_cancel(a, t), 0, EAGAIN);
	SWT_ASSERT_EQ(t->state, RTE_EVENT_TIMER_ARMED);
	mine->stage.owner = gone_tag();
	SWT_ASSERT_BURST(swtim_cancel(a, t), 0, ENOTRECOVERABLE);
	mine->stage.owner = swtim_proc_tag;
	stage_finish(mine);
	SWT_ASSERT_EQ(swtim_cancel(a, t), 1);
	SWT_ASSERT_EQ(mine->nb_armed, 0);
	SWT_ASSERT_OK(wheel_still_whole(a, mine));
	return SWT_PASS;
}

/* Timers staged on wheel w so far (linked or not since). */
static uint32_t
staged_so_far(const struct whl_wheel *w)
{
	return __atomic_load_n(&w->stage.tail, __ATOMIC_ACQUIRE);
}

struct thread_arm {
	const struct swtim_adapter *a;
	struct rte_event_timer *t;
	unsigned int n;
	unsigned int armed;
};

static void *
thread_arm_run(void *arg)
{
	struct thread_arm *ta = arg;

	for (ta->armed = 0; ta->armed < ta->n; ta->armed++)
		if (swtim_arm(ta->a, &ta->t[ta->armed]) != 1)
			break;
	return NULL;
}

/*
 * The single arms of an EAL lcore are staged but for the one that
 * refills the staged credit (the first); a thread without an lcore id
 * shares its lane with others, so it takes the lock every time.
 */
static int
single_arms_staged_on_eal_lcores(void)
{
	enum { NB = 24, THREAD_FIRST = 16 };
	struct swtim_adapter *a;
	struct rte_event_timer *t;
	struct thread_arm ta;
	struct whl_adapter *whl;
	struct whl_wheel *mine, *shared;
	pthread_t th;
	unsigned int i, batch;

	SWT_ASSERT_OK(setup(NB, &a, &t, &whl, &mine));
	shared = &whl->wheels[SWTIM_LANE_NON_EAL];
	batch = whl->base.budget.staged_batch;
	SWT_ASSERT(batch >= 2 && batch + 2 <= THREAD_FIRST, "staged batch %u",
		   batch);
	for (i = 0; i <= batch; i++)
		SWT_ASSERT_EQ(swtim_arm(a, &t[i]), 1);
	SWT_ASSERT_EQ(staged_so_far(mine), batch);
	SWT_ASSERT_EQ(mine->lane.staged_credit, 0);
	/* The next refills it, with the lock. */
	SWT_ASSERT_EQ(swtim_arm(a, &t[batch + 1]), 1);
	SWT_ASSERT_EQ(staged_so_far(mine), batch);
	SWT_ASSERT_EQ(mine->lane.staged_credit, batch);

	ta = (struct thread_arm){ .a = a, .t = &t[THREAD_FIRST],
				  .n = NB - THREAD_FIRST };
	SWT_ASSERT_OK(pthread_create(&th, NULL, thread_arm_run, &ta));
	SWT_ASSERT_OK(pthread_join(th, NULL));
	SWT_ASSERT_EQ(ta.armed, NB - THREAD_FIRST);
	SWT_ASSERT_EQ(staged_so_far(shared), 0);
	SWT_ASSERT_EQ(shared->lane.staged_credit, 0);
	for (i = THREAD_FIRST; i < NB; i++)
		SWT_ASSERT(whl_wheel_holds(whl, shared, &t[i]),
			   "timer %u not on the shared wheel", i);
	for (i = 0; i < NB; i++)
		if (i <= batch + 1 || i >= THREAD_FIRST)
			SWT_ASSERT_EQ(swtim_cancel(a, &t[i]), 1);
	SWT_ASSERT_EQ(mine->nb_armed, 0);
	SWT_ASSERT_EQ(shared->nb_armed, 0);
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 50), 0);
	return SWT_PASS;
}

/*
 * With no service run linking them (the test holds the lane's claim,
 * as a run would), single arms fill the ring; the arm that finds it
 * full takes the lock and links all of it, and its own timer. Nothing
 * is lost: every timer is then on the wheel, and cancels.
 */
static int
full_ring_emptied_by_a_locked_arm(void)
{
	enum { NB = 2 * WHL_STAGE_SIZE };
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, NB, 0);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);
	struct rte_event_timer *t = swt_timers(NB);
	struct whl_adapter *whl;
	struct whl_wheel *mine;
	unsigned int i, armed;

	SWT_ASSERT(a != NULL && t != NULL && swt_adapter_start(a) == 0,
		   "setup: %s", rte_strerror(rte_errno));
	whl = swtim_adapter_priv(a);
	mine = &whl->wheels[rte_lcore_id()];
	SWT_ASSERT(swtim_lane_claim(&mine->lane), "claim");
	for (armed = 0; armed < NB; armed++) {
		if (mine->stage.tail - mine->stage.head == WHL_STAGE_SIZE)
			break;
		swt_timer_init(&t[armed], SWT_Q_PARALLEL, armed, FAR_TICKS);
		if (swtim_arm(a, &t[armed]) != 1)
			break;
	}
	SWT_ASSERT(armed < NB, "the ring never filled: %u staged of %u armed",
		   mine->stage.tail - mine->stage.head, armed);
	SWT_ASSERT_EQ(mine->nb_armed + WHL_STAGE_SIZE, armed);
	swt_timer_init(&t[armed], SWT_Q_PARALLEL, armed, FAR_TICKS);
	SWT_ASSERT_EQ(swtim_arm(a, &t[armed]), 1);
	armed++;
	SWT_ASSERT_EQ(mine->stage.head, mine->stage.tail);
	SWT_ASSERT_EQ(mine->nb_armed, armed);
	for (i = 0; i < armed; i++)
		SWT_ASSERT(whl_wheel_holds(whl, mine, &t[i]),
			   "timer %u not on the wheel", i);
	swtim_lane_release(&mine->lane);
	for (i = 0; i < armed; i++)
		SWT_ASSERT_EQ(swtim_cancel(a, &t[i]), 1);
	SWT_ASSERT_EQ(mine->nb_armed, 0);
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 50), 0);
	return SWT_PASS;
}

/*
 * A ring whose owning process is gone (a secondary that had this lcore
 * id) is taken over by the next staged arm; its timers then expire.
 */
static int
dead_owners_ring_taken_over(void)
{
	struct swtim_adapter *a;
	struct rte_event_timer *t;
	struct whl_adapter *whl;
	struct whl_wheel *mine;
	uint32_t gone = gone_tag();
	struct rte_event ev[2];
	unsigned int i;

	SWT_ASSERT(gone != 0 && swtim_proc_tag_dead(gone), "tag %#x", gone);
	SWT_ASSERT_OK(setup(2, &a, &t, &whl, &mine));
	for (i = 0; i < 2; i++)
		swt_timer_init(&t[i], SWT_Q_PARALLEL, i, 1);
	/* The first arm refills the staged credit; the second stages. */
	SWT_ASSERT_EQ(swtim_arm(a, &t[0]), 1);
	__atomic_store_n(&mine->stage.owner, gone, __ATOMIC_RELAXED);
	SWT_ASSERT_EQ(swtim_arm(a, &t[1]), 1);
	SWT_ASSERT_EQ(mine->stage.owner, swtim_proc_tag);
	SWT_ASSERT_EQ(staged_so_far(mine), 1);
	SWT_ASSERT_EQ(swt_collect(&swt_dev, ev, 2, 5000), 2);
	for (i = 0; i < 2; i++)
		SWT_ASSERT_EQ(t[i].state, RTE_EVENT_TIMER_NOT_ARMED);
	return SWT_PASS;
}

static const struct swt_case cases[] = {
	SWT_CASE(cancel_follows_rearm_elsewhere),
	SWT_CASE(cancel_eagain_while_delivering),
	SWT_CASE(cancel_meets_staging),
	SWT_CASE(cancel_gives_up_on_staging),
	SWT_CASE(single_arms_staged_on_eal_lcores),
	SWT_CASE(full_ring_emptied_by_a_locked_arm),
	SWT_CASE(dead_owners_ring_taken_over),
};

int
main(int argc, char **argv)
{
	return swt_main(argc, argv, cases, RTE_DIM(cases));
}
