/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Producer lcores: take timer objects from the pool, stamp them and arm
 * them, one per call (--prod_type_timerdev) or EVT_BURST_SIZE per call
 * (--prod_type_timerdev_burst). Unlike dpdk-test-eventdev, a call that
 * arms fewer timers than asked is retried for the rest, so that every
 * timer taken from the pool is armed and counted exactly once.
 *
 * The arm latency is measured the way dpdk-test-eventdev does: the
 * cycles spent in arm calls divided by the timers those calls armed;
 * calls that armed nothing (the adapter was full) are counted apart.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mempool.h>
#include <rte_pause.h>

#include "evt_test.h"

uint64_t
evt_ns_to_ticks(const struct evt_test *t, uint64_t ns)
{
	const struct evt_options *opt = t->opt;
	uint64_t ticks = ns / opt->timer_tick_nsec;

	/* Re-expressed in the tick the adapter granted, rounding up. */
	if (t->tick_ns != 0 && t->tick_ns != opt->timer_tick_nsec)
		ticks = (ticks * opt->timer_tick_nsec + t->tick_ns - 1) /
			t->tick_ns;
	return ticks != 0 ? ticks : 1;
}

/* Cycles in ticks adapter ticks, rounded down. */
static inline uint64_t
ticks_to_cycles(const struct evt_test *t, uint64_t ticks)
{
	unsigned __int128 c = (unsigned __int128)ticks * t->tick_ns * t->hz;

	return (uint64_t)(c / 1000000000u);
}

/* xorshift64*: enough for spreading timeouts. */
static inline uint64_t
rnd_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * UINT64_C(0x2545F4914F6CDD1D);
}

struct arm_ctx {
	struct evt_producer *p;
	struct evt_test *t;
	const struct adapter_impl *impl;
	bool spread;
	bool per_timer_ticks;	/* arm_burst() rather than arm_tmo_tick */
	uint64_t base_ticks;
	uint64_t base_cycles;
};

/*
 * Arm recs[0..n-1] on adapter a, retrying those a short call leaves.
 * cycles[i] is each timer's timeout in cycles. Returns false when the
 * adapter refused a timer for another reason than being full.
 */
static bool
arm_all(struct arm_ctx *c, void *a, struct evt_timer_rec **recs,
	const uint64_t *cycles, uint16_t n)
{
	struct evt_producer *p = c->p;
	struct evt_test *t = c->t;
	uint16_t done = 0, want, armed, i;
	uint64_t t0, t1, dt;

	while (done < n) {
		want = n - done;
		t0 = rte_get_timer_cycles();
		for (i = done; i < n; i++) {
			recs[i]->arm_tsc = t0;
			recs[i]->deadline_tsc = t0 + cycles[i];
			__atomic_store_n(&recs[i]->pending, recs[i]->gen,
					 __ATOMIC_RELEASE);
		}
		if (c->per_timer_ticks)
			armed = c->impl->arm_burst(a,
				(struct rte_event_timer **)&recs[done], want);
		else
			armed = c->impl->arm_tmo_tick_burst(a,
				(struct rte_event_timer **)&recs[done],
				c->base_ticks, want);
		t1 = rte_get_timer_cycles();
		dt = t1 - t0;
		if (armed > 0) {
			p->arm_calls++;
			p->arm_cycles += dt;
			latency_hist_add_n(&p->arm_hist,
				(uint64_t)((double)dt * t->ns_per_cycle / armed),
				armed);
			done += armed;
			__atomic_store_n(&p->armed, p->armed + armed,
					 __ATOMIC_RELAXED);
		} else {
			p->short_cycles += dt;
		}
		if (armed == want)
			break;
		p->arm_short++;
		if (rte_errno != ENOSPC && rte_errno != EAGAIN) {
			p->error = rte_errno;
			p->error_state = recs[done]->tim.state;
			return false;
		}
		/* Full: the timers left were not touched; try again. */
		for (i = done; i < n; i++) {
			if (recs[i]->tim.state != RTE_EVENT_TIMER_ARMED)
				recs[i]->tim.state = RTE_EVENT_TIMER_NOT_ARMED;
		}
		if (t->done)
			return true;
		rte_pause();
	}
	return true;
}

/* What a producer keeps from one batch to the next. */
struct prod_state {
	struct arm_ctx c;
	uint64_t rnd;
	uint32_t flow_counter;
	uint32_t nb_bursts;
	bool ok;			/* false: an arm was refused */
};

/*
 * Take n (at most EVT_BURST_SIZE) timer objects from the pool, stamp
 * them and arm them. Returns false when the pool had not n free objects
 * (nothing armed then).
 */
static bool
arm_batch(struct prod_state *ps, uint16_t n)
{
	struct arm_ctx *c = &ps->c;
	struct evt_producer *p = c->p;
	struct evt_test *t = c->t;
	const struct evt_options *opt = t->opt;
	const uint32_t nb_flows = opt->nb_flows;
	const uint8_t nb_adapters = t->nb_adapters;
	struct evt_timer_rec *recs[EVT_BURST_SIZE];
	uint64_t cycles[EVT_BURST_SIZE];
	uint32_t first_flow;
	uint16_t i;

	if (rte_mempool_get_bulk(t->pool, (void **)recs, n) < 0) {
		p->pool_empty++;
		return false;
	}
	first_flow = ps->flow_counter;
	for (i = 0; i < n; i++) {
		struct evt_timer_rec *r = recs[i];
		uint64_t ticks = c->base_ticks;

		if (c->spread) {
			uint64_t ns = opt->expiry_nsec + rnd_next(&ps->rnd) %
				(opt->timeout_spread_nsec + 1);

			ticks = evt_ns_to_ticks(t, ns);
			cycles[i] = ticks_to_cycles(t, ticks);
		} else {
			cycles[i] = c->base_cycles;
		}
		r->tim.ev.event = 0;
		r->tim.ev.op = RTE_EVENT_OP_NEW;
		r->tim.ev.event_type = RTE_EVENT_TYPE_TIMER;
		r->tim.ev.sub_event_type = 0;
		r->tim.ev.sched_type = t->sched_type_list[0];
		r->tim.ev.queue_id = p->queue_id;
		r->tim.ev.priority = RTE_EVENT_DEV_PRIORITY_NORMAL;
		r->tim.ev.flow_id = ps->flow_counter++ % nb_flows;
		/* A new generation for this arming (never 0). */
		r->gen = r->gen % EVT_REC_GEN_MASK + 1;
		r->tim.ev.event_ptr = (void *)((uintptr_t)r | r->gen);
		r->tim.impl_opaque[0] = 0;
		r->tim.impl_opaque[1] = 0;
		r->tim.timeout_ticks = ticks;
		r->tim.state = RTE_EVENT_TIMER_NOT_ARMED;
		r->producer = p->idx;
	}
	/*
	 * Adapters are used round robin, per timer in non-burst mode as
	 * upstream does. Per burst, upstream picks flow_counter %
	 * nb_timer_adptrs after adding 16, which never leaves adapter 0 for
	 * 1, 2, 4, 8 or 16 adapters; here bursts take turns.
	 */
	if (opt->timdev_use_burst) {
		ps->ok = arm_all(c, t->adapters[ps->nb_bursts++ % nb_adapters],
				 recs, cycles, n);
	} else {
		for (i = 0; i < n && ps->ok && !t->done; i++) {
			uint32_t a = (first_flow + i + 1) % nb_adapters;

			ps->ok = arm_all(c, t->adapters[a], &recs[i],
					 &cycles[i], 1);
		}
	}
	return true;
}

/* Most a producer sleeps at once, so that it sees t->done soon. */
#define NAP_MAX_US 10000

/* Sleep until TSC until (or t->done), in naps of at most NAP_MAX_US. */
static void
nap_until(const struct evt_test *t, uint64_t until)
{
	uint64_t now = rte_get_timer_cycles();

	if (now >= until || t->done)
		return;
	rte_delay_us_sleep((unsigned int)RTE_MIN((until - now) * 1000000 /
						 t->hz, (uint64_t)NAP_MAX_US));
}

/* --load=count: nb_timers as fast as possible. */
static void
load_count(struct prod_state *ps)
{
	struct evt_test *t = ps->c.t;
	uint64_t remaining = ps->c.p->nb_timers;
	uint16_t n;

	while (ps->ok && remaining > 0 && !t->done) {
		n = (uint16_t)RTE_MIN(remaining, (uint64_t)EVT_BURST_SIZE);
		if (!arm_batch(ps, n)) {
			rte_pause();
			continue;
		}
		remaining -= n;
	}
}

/*
 * --load=low/high: rate timers/s (0: as fast as possible) until end.
 * The schedule counts from start: after a delay (a full pool, the
 * producer descheduled) the producer catches up by arming up to
 * EVT_BURST_SIZE at a time until it is back on schedule.
 */
static void
load_paced(struct prod_state *ps, uint64_t rate, uint64_t start,
	   uint64_t end)
{
	struct evt_test *t = ps->c.t;
	const uint64_t hz = t->hz;
	uint64_t done = 0, now, due;
	uint16_t n;

	while (ps->ok && !t->done) {
		now = rte_get_timer_cycles();
		if (now >= end)
			break;
		if (rate == 0) {
			due = done + EVT_BURST_SIZE;
		} else {
			due = (uint64_t)((unsigned __int128)(now - start) *
					 rate / hz) + 1;
			if (due <= done) {
				/* The next timer's moment. */
				nap_until(t, RTE_MIN(end, start +
					(uint64_t)((unsigned __int128)done *
						   hz / rate)));
				continue;
			}
		}
		n = (uint16_t)RTE_MIN(due - done, (uint64_t)EVT_BURST_SIZE);
		if (!arm_batch(ps, n)) {
			rte_pause();
			continue;
		}
		done += n;
	}
}

/*
 * --load=bursty: burst_timers timers as fast as possible at the start of
 * each period, then sleep until the next one, until end. A burst that
 * takes longer than a period delays the next one.
 */
static void
load_bursty(struct prod_state *ps, uint64_t start, uint64_t end)
{
	struct evt_test *t = ps->c.t;
	const struct evt_options *opt = t->opt;
	const uint64_t period = opt->burst_period_ms * t->hz / 1000;
	uint64_t next = start, left;
	uint16_t n;

	while (ps->ok && !t->done && next < end) {
		while (rte_get_timer_cycles() < next && !t->done)
			nap_until(t, next);
		left = opt->burst_timers;
		while (ps->ok && left > 0 && !t->done) {
			n = (uint16_t)RTE_MIN(left, (uint64_t)EVT_BURST_SIZE);
			if (!arm_batch(ps, n)) {
				rte_pause();
				continue;
			}
			left -= n;
		}
		next += period;
	}
	while (rte_get_timer_cycles() < end && !t->done)
		nap_until(t, end);
}

int
evt_producer_main(void *arg)
{
	struct evt_producer *p = arg;
	struct evt_test *t = p->t;
	const struct evt_options *opt = t->opt;
	struct prod_state ps;
	struct arm_ctx *c = &ps.c;
	uint64_t end;

	memset(&ps, 0, sizeof(ps));
	ps.ok = true;
	ps.rnd = opt->seed ^ ((uint64_t)(p->idx + 1) *
			      UINT64_C(0x9E3779B97F4A7C15));
	if (ps.rnd == 0)
		ps.rnd = 1;
	c->p = p;
	c->t = t;
	c->impl = t->impl;
	c->spread = opt->timeout_spread_nsec != 0;
	/* Non-burst arms with arm_burst(1), as upstream; burst mode uses
	 * arm_tmo_tick_burst() unless each timer has its own timeout.
	 */
	c->per_timer_ticks = !opt->timdev_use_burst || c->spread;
	c->base_ticks = t->timeout_ticks;
	c->base_cycles = ticks_to_cycles(t, c->base_ticks);

	if (opt->verbose_level > 1) {
		if (opt->load == EVT_LOAD_COUNT)
			printf("producer %u on lcore %u: %" PRIu64
			       " timers to queue %u\n", p->idx, rte_lcore_id(),
			       p->nb_timers, p->queue_id);
		else
			printf("producer %u on lcore %u: load %s to queue %u\n",
			       p->idx, rte_lcore_id(),
			       evt_load_name(opt->load), p->queue_id);
	}

	/* Timed loads all count from the launch, so producers keep step. */
	p->start_tsc = rte_get_timer_cycles();
	end = t->load_end_tsc;
	switch (opt->load) {
	case EVT_LOAD_COUNT:
		load_count(&ps);
		break;
	case EVT_LOAD_IDLE:
		while (rte_get_timer_cycles() < end && !t->done)
			nap_until(t, end);
		break;
	case EVT_LOAD_LOW:
	case EVT_LOAD_HIGH:
		load_paced(&ps, opt->load_rate, t->load_start_tsc, end);
		break;
	case EVT_LOAD_BURSTY:
		load_bursty(&ps, t->load_start_tsc, end);
		break;
	}
	p->end_tsc = rte_get_timer_cycles();
	__atomic_store_n(&p->finished, true, __ATOMIC_RELEASE);
	return 0;
}
