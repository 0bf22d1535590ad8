/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Stress: periodic timers cancelled while their expiry events wait for
 * the event device. Three lcores arm periodic timers (periods of one or
 * two ticks) and cancel them, the service runs on two service lcores,
 * the device takes few events in flight while the main lcore dequeues in
 * spurts, so that it keeps refusing expiry events, and the main lcore
 * stops and starts the adapter now and then.
 *
 * "No event of an arming is enqueued after its cancel returned" can only
 * be checked where the enqueues happen: this program's
 * swtim_port_enqueue() stands in front of the library's, through which
 * every expiry event goes to the device (it is exported for that,
 * swtim_port.h). Each arming's ev.u64 names its slot and generation; once a
 * cancel has returned, the canceller publishes the generation it
 * cancelled; an event the device accepts whose generation is already
 * published was enqueued after its cancel. Nothing may be lost either:
 * in the end ev_enq_count == evtim_exp_count == the events the device
 * accepted == the events the worker received.
 */

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_eventdev.h>
#include <rte_pause.h>

#include "swtim_port.h"
#include "swtim_test.h"

#define TICK_NS		(1000 * 1000)		/* 1 ms */
#define MAX_TMO_NS	(1000 * 1000 * 1000)	/* 1 s */
#define EVENTS_LIMIT	512
#define PORT_THRESHOLD	256
#define ID		9
#define NB_ARMERS	3
#define NB_SLOTS	(NB_ARMERS * 256)
/* The second service lcore: the last producer lcore, borrowed. */
#define SECOND_SERVICE	(SWT_FIRST_PRODUCER_LCORE + NB_ARMERS)
#define RUN_MS		3000
/* A cancel that keeps answering EAGAIN this long has failed (a hang
 * detector: on two shared CPUs the longest seen was half a second). */
#define CANCEL_MS	10000
#define TAG		UINT64_C(0xc0de)

/* A slot's timer: free, in an armer's hands, or armed. */
enum slot_state { SLOT_FREE, SLOT_BUSY, SLOT_ARMED };

static struct {
	const struct swtim_adapter *a;
	struct rte_event_timer *t;
	uint32_t *state;	/* enum slot_state, per slot */
	uint32_t *gen;		/* generation of the slot's last arming */
	uint32_t *cancelled;	/* generation whose cancel has returned */
	bool stop;
	bool near_expiry;	/* armers cancel in rounds, near the expiry */
	/* Counts, updated atomically. */
	uint64_t late, accepted, arms, cancels, eagain, failures;
	uint64_t max_cancel_cycles;
	/* Whether swtim_port_enqueue() checks what it passes on. */
	bool checking;
} s;

static uint64_t
tag_of(uint32_t slot, uint32_t gen)
{
	return TAG << 48 | (uint64_t)slot << 32 | gen;
}

/* Whether ev belongs to an arming whose cancel has returned. */
static bool
is_late(const struct rte_event *ev)
{
	uint32_t slot = (ev->u64 >> 32) & 0xffff, gen = (uint32_t)ev->u64;

	if (ev->u64 >> 48 != TAG || slot >= NB_SLOTS) {
		__atomic_fetch_add(&s.failures, 1, __ATOMIC_RELAXED);
		printf("    unknown event %#" PRIx64 "\n", ev->u64);
		return false;
	}
	return gen <= __atomic_load_n(&s.cancelled[slot], __ATOMIC_ACQUIRE);
}

/* Count what the device accepted of n events, and those that were late
 * (judged before the device had them). */
static void
account(const struct rte_event *ev, const bool *late, uint16_t accepted)
{
	uint16_t i;

	for (i = 0; i < accepted; i++)
		if (late[i] &&
		    __atomic_fetch_add(&s.late, 1, __ATOMIC_RELAXED) < 10)
			printf("    slot %u generation %u enqueued after its "
			       "cancel returned\n",
			       (unsigned int)((ev[i].u64 >> 32) & 0xffff),
			       (unsigned int)(uint32_t)ev[i].u64);
	__atomic_fetch_add(&s.accepted, accepted, __ATOMIC_RELAXED);
}

uint16_t
swtim_port_enqueue(struct swtim_port *port, const struct rte_event *ev,
		   uint16_t nb)
{
	static uint16_t (*next)(struct swtim_port *, const struct rte_event *,
				uint16_t);
	bool late[nb];
	uint16_t i, accepted;

	if (next == NULL)
		*(void **)&next = dlsym(RTLD_NEXT, "swtim_port_enqueue");
	RTE_VERIFY(next != NULL);
	if (!__atomic_load_n(&s.checking, __ATOMIC_ACQUIRE))
		return next(port, ev, nb);
	for (i = 0; i < nb; i++)
		late[i] = is_late(&ev[i]);
	accepted = next(port, ev, nb);
	account(ev, late, accepted);
	return accepted;
}

static void
enqueue_checks(bool on)
{
	__atomic_store_n(&s.checking, on, __ATOMIC_RELEASE);
}

/* Arm slot's timer afresh (the caller holds the slot). */
static void
arm_slot(uint32_t slot, uint64_t *rnd)
{
	struct rte_event_timer *t = &s.t[slot];
	uint32_t gen = ++s.gen[slot];

	swt_timer_init(t, SWT_Q_ATOMIC, tag_of(slot, gen),
		       swt_rand_range(rnd, 1, 2));
	if (swtim_arm(s.a, t) == 1) {
		__atomic_fetch_add(&s.arms, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&s.state[slot], SLOT_ARMED, __ATOMIC_RELEASE);
		return;
	}
	printf("    arm slot %u: %s\n", slot, rte_strerror(rte_errno));
	__atomic_fetch_add(&s.failures, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&s.cancelled[slot], gen, __ATOMIC_RELEASE);
	__atomic_store_n(&s.state[slot], SLOT_FREE, __ATOMIC_RELEASE);
}

/* Cancel slot's timer (the caller holds the slot), retrying EAGAIN. */
static void
cancel_slot(uint32_t slot)
{
	struct rte_event_timer *t = &s.t[slot];
	uint64_t start = swt_now(), took, max;

	while (swtim_cancel(s.a, t) != 1) {
		if (rte_errno != EAGAIN ||
		    swt_now() - start > swt_ms_to_cycles(CANCEL_MS)) {
			printf("    cancel slot %u: %s, state %d\n", slot,
			       rte_strerror(rte_errno), t->state);
			__atomic_fetch_add(&s.failures, 1, __ATOMIC_RELAXED);
			break;
		}
		__atomic_fetch_add(&s.eagain, 1, __ATOMIC_RELAXED);
		rte_pause();
	}
	if (t->state != RTE_EVENT_TIMER_CANCELED) {
		printf("    slot %u in state %d after cancel\n", slot,
		       t->state);
		__atomic_fetch_add(&s.failures, 1, __ATOMIC_RELAXED);
	}
	/* From here on no event of this arming may be enqueued. */
	__atomic_store_n(&s.cancelled[slot], s.gen[slot], __ATOMIC_RELEASE);
	__atomic_fetch_add(&s.cancels, 1, __ATOMIC_RELAXED);
	took = swt_now() - start;
	max = __atomic_load_n(&s.max_cancel_cycles, __ATOMIC_RELAXED);
	while (took > max &&
	       !__atomic_compare_exchange_n(&s.max_cancel_cycles, &max, took,
				false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	__atomic_store_n(&s.state[slot], SLOT_FREE, __ATOMIC_RELEASE);
}

/* Try to take a slot in state from; true if now ours (SLOT_BUSY). */
static bool
take_slot(uint32_t slot, uint32_t from)
{
	return __atomic_compare_exchange_n(&s.state[slot], &from, SLOT_BUSY,
					   false, __ATOMIC_ACQ_REL,
					   __ATOMIC_RELAXED);
}

/*
 * An armer: either picks random slots of all, arming free ones and
 * cancelling armed ones (so timers are cancelled from other lcores than
 * armed them), or, near_expiry, arms its own share and cancels it all
 * around the first expiry, in a rotating order.
 */
static int
armer(void *arg)
{
	uint32_t me = (uint32_t)(uintptr_t)arg, per = NB_SLOTS / NB_ARMERS;
	uint64_t rnd = swt_seed() ^ (me + 1) * UINT64_C(0x9e3779b97f4a7c15);
	uint32_t slot, i, first;

	rnd |= 1;
	while (!__atomic_load_n(&s.stop, __ATOMIC_ACQUIRE)) {
		if (!s.near_expiry) {
			slot = swt_rand(&rnd) % NB_SLOTS;
			if (take_slot(slot, SLOT_FREE))
				arm_slot(slot, &rnd);
			else if (take_slot(slot, SLOT_ARMED))
				cancel_slot(slot);
			if (swt_rand(&rnd) % 4 == 0)
				rte_delay_us_block(swt_rand(&rnd) % 300);
			continue;
		}
		for (i = 0; i < per; i++) {
			slot = me * per + i;
			__atomic_store_n(&s.state[slot], SLOT_BUSY,
					 __ATOMIC_RELAXED);
			arm_slot(slot, &rnd);
		}
		rte_delay_us_block(swt_rand_range(&rnd, 500, 3000));
		first = swt_rand(&rnd) % per;
		for (i = 0; i < per; i++) {
			slot = me * per + (first + i) % per;
			if (take_slot(slot, SLOT_ARMED))
				cancel_slot(slot);
		}
	}
	return 0;
}

static int
storm(bool near_expiry)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, NB_SLOTS,
			 RTE_EVENT_TIMER_ADAPTER_F_PERIODIC);
	struct rte_event_timer_adapter_stats st;
	struct swtim_adapter *a;
	struct rte_event evs[32];
	uint64_t rnd = swt_seed(), received = 0, end, until, next_stop;
	unsigned int i, stops = 0;
	uint16_t k, j;

	memset(&s, 0, sizeof(s));
	s.near_expiry = near_expiry;
	s.t = swt_timers(NB_SLOTS);
	s.state = swt_calloc(NB_SLOTS, sizeof(*s.state));
	s.gen = swt_calloc(NB_SLOTS, sizeof(*s.gen));
	s.cancelled = swt_calloc(NB_SLOTS, sizeof(*s.cancelled));
	a = swt_adapter_create(&c, swt_dev.app_port);
	SWT_ASSERT(a != NULL && s.t != NULL && s.state != NULL &&
		   s.gen != NULL && s.cancelled != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	s.a = a;
	SWT_ASSERT_OK(swt_service_map(a, SWT_SERVICE_LCORE));
	SWT_ASSERT_OK(swt_service_map(a, SECOND_SERVICE));
	SWT_ASSERT_OK(swtim_adapter_start(a));
	enqueue_checks(true);
	for (i = 0; i < NB_ARMERS; i++)
		SWT_ASSERT_OK(swt_launch(armer, (void *)(uintptr_t)i,
					 SWT_FIRST_PRODUCER_LCORE + i));

	end = swt_now() + swt_ms_to_cycles(RUN_MS);
	next_stop = swt_now() + swt_ms_to_cycles(150);
	while (swt_now() < end) {
		/* Dequeue a while, then look away and let the device fill. */
		until = swt_now() + swt_ms_to_cycles(swt_rand_range(&rnd, 1,
								    20));
		while (swt_now() < until) {
			k = swt_dequeue(&swt_dev, evs, RTE_DIM(evs));
			if (k == 0)
				swt_idle();
			for (j = 0; j < k; j++)
				SWT_ASSERT_EQ(evs[j].event_type,
					      RTE_EVENT_TYPE_TIMER);
			received += k;
		}
		swt_sleep_ms(swt_rand_range(&rnd, 0, 30));
		if (swt_now() > next_stop) {
			SWT_ASSERT_OK(swtim_adapter_stop(a));
			swt_sleep_ms(swt_rand_range(&rnd, 1, 10));
			SWT_ASSERT_OK(swtim_adapter_start(a));
			stops++;
			next_stop = swt_now() + swt_ms_to_cycles(
				swt_rand_range(&rnd, 50, 300));
		}
	}
	__atomic_store_n(&s.stop, true, __ATOMIC_RELEASE);
	SWT_ASSERT_OK(swt_join());
	for (i = 0; i < NB_SLOTS; i++)
		if (take_slot(i, SLOT_ARMED))
			cancel_slot(i);
	/* Until every expiry counted has been enqueued and received. */
	end = swt_now() + swt_ms_to_cycles(5000);
	do {
		k = swt_dequeue(&swt_dev, evs, RTE_DIM(evs));
		if (k == 0)
			swt_idle();
		received += k;
		SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
	} while ((st.ev_enq_count != st.evtim_exp_count ||
		  received != st.ev_enq_count) && swt_now() < end);
	received += swt_drain(&swt_dev, 200);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	enqueue_checks(false);
	SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
	printf("    %" PRIu64 " armed, %" PRIu64 " cancelled (%" PRIu64
	       " EAGAIN, longest %.1f ms), %u stops; exp %" PRIu64 " enq %"
	       PRIu64 " retry %" PRIu64 ", accepted %" PRIu64 ", received %"
	       PRIu64 ", late %" PRIu64 "\n", s.arms, s.cancels, s.eagain,
	       swt_cycles_to_ms(s.max_cancel_cycles), stops,
	       st.evtim_exp_count, st.ev_enq_count, st.evtim_retry_count,
	       s.accepted, received, s.late);
	SWT_ASSERT_OK(swt_service_unmap(a, SECOND_SERVICE));
	SWT_ASSERT_OK(swt_service_lcore_release(SECOND_SERVICE));
	SWT_ASSERT_EQ(s.late, 0);
	SWT_ASSERT_EQ(s.failures, 0);
	SWT_ASSERT_EQ(st.evtim_drop_count, 0);
	SWT_ASSERT_EQ(st.ev_enq_count, st.evtim_exp_count);
	SWT_ASSERT_EQ(st.ev_enq_count, s.accepted);
	SWT_ASSERT_EQ(received, s.accepted);
	SWT_ASSERT(st.evtim_retry_count > 0, "no back-pressure");
	return SWT_PASS;
}

/* Timers cancelled from lcores picked at random. */
static int
cancel_anywhere(void)
{
	return storm(false);
}

/* Whole sets cancelled around their first expiry. */
static int
cancel_near_expiry(void)
{
	return storm(true);
}

/*
 * A cancel that takes a waiting event back also takes its expiry out of
 * evtim_exp_count, but not below zero when the counts were reset since.
 */
static int
stats_reset_then_cancel(void)
{
	const unsigned int n = 50;
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, n,
			 RTE_EVENT_TIMER_ADAPTER_F_PERIODIC);
	struct swtim_adapter *a = swt_adapter_create(&c, swt_dev.app_port);
	struct rte_event_timer *t = swt_timers(n);
	struct rte_event_timer_adapter_stats st;
	uint64_t end = swt_now() + swt_ms_to_cycles(5000);
	unsigned int i;

	SWT_ASSERT(a != NULL && t != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_adapter_start(a));
	for (i = 0; i < n; i++) {
		swt_timer_init(&t[i], SWT_Q_PARALLEL, tag_of(i, 1), 1);
		SWT_ASSERT_BURST(swtim_arm(a, &t[i]), 1, 0);
	}
	/* Nobody dequeues: the device fills and refuses. */
	do {
		swt_sleep_ms(10);
		SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
	} while (st.evtim_retry_count == 0 && swt_now() < end);
	SWT_ASSERT(st.evtim_retry_count > 0, "no back-pressure");
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	SWT_ASSERT_OK(swtim_adapter_stats_reset(a));
	for (i = 0; i < n; i++)
		SWT_ASSERT_EQ(swtim_cancel(a, &t[i]), 1);
	SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
	SWT_ASSERT_EQ(st.evtim_exp_count, 0);
	SWT_ASSERT_EQ(st.ev_enq_count, 0);
	return SWT_PASS;
}

static const struct swt_case cases[] = {
	SWT_CASE(cancel_anywhere),
	SWT_CASE(cancel_near_expiry),
	SWT_CASE(stats_reset_then_cancel),
};

int
main(int argc, char **argv)
{
	const struct swt_evdev_conf dsw = {
		.name = "event_dsw0",
		.nb_app_ports = 1,
		.nb_events_limit = EVENTS_LIMIT,
		.app_new_event_threshold = PORT_THRESHOLD,
	};
	int ret;

	if (swt_init(argc, argv, NULL, cases, RTE_DIM(cases)) != 0)
		return 1;
	if (swt_evdev_setup(&dsw, &swt_dev) != 0)
		return swt_fini(1);
	ret = swt_run(cases, RTE_DIM(cases));
	return swt_fini(ret);
}
