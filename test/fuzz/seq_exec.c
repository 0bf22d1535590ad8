/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_service.h>

#include "fuzz_env.h"
#include "seq_exec.h"

/* Dequeues that find nothing before the device counts as drained. */
#define SEQ_EMPTY_DEQUEUES 3

static const char *const seq_op_names[SEQ_NB_OPS] = {
	[SEQ_CREATE] = "create",
	[SEQ_START] = "start",
	[SEQ_STOP] = "stop",
	[SEQ_FREE] = "free",
	[SEQ_ARM] = "arm_burst",
	[SEQ_ARM_TMO] = "arm_tmo_tick_burst",
	[SEQ_CANCEL] = "cancel_burst",
	[SEQ_REMAINING] = "remaining_ticks_get",
	[SEQ_STATS] = "stats",
	[SEQ_SERVICE] = "service",
	[SEQ_LOOKUP] = "lookup",
	[SEQ_INFO] = "info",
};

const char *
seq_op_name(enum seq_op op)
{
	return op < SEQ_NB_OPS ? seq_op_names[op] : "?";
}

uint64_t
seq_ticks_to_cycles(uint64_t ticks)
{
	unsigned __int128 c = (unsigned __int128)ticks * SEQ_TICK_NS *
		rte_get_timer_hz() / NS_PER_S;

	return c > UINT64_MAX ? UINT64_MAX : (uint64_t)c;
}

static void
seq_states(const struct seq_world *w, int32_t *states)
{
	unsigned int i;

	for (i = 0; i < SEQ_NB_TIMERS; i++)
		states[i] = __atomic_load_n(&w->timers[i].state,
					    __ATOMIC_ACQUIRE);
}

/* A timeout: mostly due after a wait, some never, some at or past max. */
static uint64_t
seq_timeout(struct fuzz_input *in)
{
	uint8_t c = fuzz_u8(in);

	switch (c % 10) {
	case 0:
		return 0;
	case 1: case 2: case 3: case 4:
		return 1 + c / 10 % 4;
	case 5:
		return SEQ_LONG_TICKS + fuzz_u16(in);
	case 6:
		return SEQ_MAX_TMO_TICKS;
	case 7:
		return SEQ_MAX_TMO_TICKS + 1;
	case 8:
		return UINT64_MAX - c / 10;
	default:
		return fuzz_u64(in);
	}
}

/*
 * Make timer i ready for a burst as the input says: left as it is, fresh,
 * in some state other than ARMED, or aimed wrongly. An ARMED timer is the
 * adapter's and stays untouched.
 */
static void
seq_timer_prepare(struct seq_world *w, unsigned int i, uint64_t tag,
		  uint64_t tmo, struct fuzz_input *in)
{
	static const int32_t states[] = {
		RTE_EVENT_TIMER_NOT_ARMED, RTE_EVENT_TIMER_CANCELED,
		RTE_EVENT_TIMER_ERROR, RTE_EVENT_TIMER_ERROR_TOOEARLY,
		RTE_EVENT_TIMER_ERROR_TOOLATE, 7, -9,
	};
	struct rte_event_timer *t = &w->timers[i];
	/* Read whatever the timer's state: runs on two APIs read alike. */
	uint8_t how = fuzz_u8(in);
	uint8_t pick = fuzz_u8(in);
	uint8_t q = how & 0x10 ? FUZZ_Q_PARALLEL : FUZZ_Q_ATOMIC;

	if (__atomic_load_n(&t->state, __ATOMIC_ACQUIRE) ==
	    RTE_EVENT_TIMER_ARMED)
		return;
	if ((how & 0x0f) < 8 || (how & 0x0f) >= 10) {
		/* Fresh, as an application fills one in (then spoilt). */
		memset(t, 0, sizeof(*t));
		t->ev.queue_id = q;
		t->ev.sched_type = fuzz_queue_sched_type(q);
		t->ev.priority = how >> 5;
		t->ev.flow_id = tag & 0xfffff;
		t->ev.u64 = tag;
		t->ev.event_type = RTE_EVENT_TYPE_TIMER;
		t->ev.op = RTE_EVENT_OP_NEW;
		t->state = RTE_EVENT_TIMER_NOT_ARMED;
	}
	switch (how & 0x0f) {
	case 8:		/* as left by whatever happened to it last */
		break;
	case 9:		/* a state the input chooses, never ARMED */
		__atomic_store_n(&t->state, states[pick % RTE_DIM(states)],
				 __ATOMIC_RELEASE);
		break;
	case 10:	/* the other queue's schedule type */
		t->ev.sched_type = fuzz_queue_sched_type(!t->ev.queue_id);
		break;
	case 11:	/* a queue the device does not have */
		t->ev.queue_id = FUZZ_NB_QUEUES + how % 4;
		break;
	case 12:	/* event_type and op left to the adapter (swtim) */
		t->ev.event_type = RTE_EVENT_TYPE_CPU;
		t->ev.op = RTE_EVENT_OP_FORWARD;
		break;
	default:
		break;
	}
	t->timeout_ticks = tmo;
}

/* Burst entries: timer indices, NULL (-1) now and then, repeats allowed. */
static void
seq_burst_read(struct seq_world *w, struct seq_step *s, bool arming,
	       struct fuzz_input *in)
{
	uint16_t k;
	uint8_t b;

	s->nb = fuzz_below(in, SEQ_BURST_MAX + 1);
	for (k = 0; k < s->nb; k++) {
		b = fuzz_u8(in);
		s->idx[k] = b >= 0xf0 ? -1 : b % SEQ_NB_TIMERS;
		s->tmo[k] = s->op == SEQ_ARM_TMO && k > 0 ? s->tmo[0] :
			seq_timeout(in);
		/* Unique to the step and entry: the same in any run. */
		if (arming && s->idx[k] >= 0)
			seq_timer_prepare(w, s->idx[k],
					  ((uint64_t)w->steps << 12) |
					  ((uint64_t)k << 8) | s->idx[k],
					  s->tmo[k], in);
	}
}

static void
seq_burst_ptrs(struct seq_world *w, const struct seq_step *s,
	       struct rte_event_timer **p)
{
	uint16_t k;

	for (k = 0; k < s->nb; k++)
		p[k] = s->idx[k] < 0 ? NULL : &w->timers[s->idx[k]];
}

/* Dequeue until the device has had nothing for a few tries. */
static void
seq_drain(struct seq_world *w, struct seq_step *s)
{
	struct rte_event evs[32];
	unsigned int empty = 0;
	uint16_t n, i;

	while (empty < SEQ_EMPTY_DEQUEUES) {
		n = rte_event_dequeue_burst(w->dev_id, FUZZ_WORKER_PORT, evs,
					    RTE_DIM(evs), 0);
		empty = n == 0 ? empty + 1 : 0;
		for (i = 0; i < n; i++)
			if (s->nb_evs < SEQ_EVENTS_MAX)
				s->evs[s->nb_evs++] = evs[i];
	}
}

static void
seq_create(struct seq_world *w, struct seq_step *s)
{
	struct rte_event_timer_adapter_conf conf;
	void *a;

	memset(&conf, 0, sizeof(conf));
	conf.event_dev_id = w->dev_id;
	conf.timer_adapter_id = s->slot;
	conf.socket_id = SOCKET_ID_ANY;
	conf.clk_src = RTE_EVENT_TIMER_ADAPTER_CPU_CLK;
	conf.timer_tick_ns = SEQ_TICK_NS;
	conf.max_tmo_ns = (uint64_t)SEQ_MAX_TMO_TICKS * SEQ_TICK_NS;
	conf.nb_timers = s->nb_timers;
	conf.flags = s->periodic ? RTE_EVENT_TIMER_ADAPTER_F_PERIODIC : 0;
	a = adapter_impl_create(w->api->impl, &conf,
				s->ext ? fuzz_port_cb : NULL,
				(void *)(uintptr_t)(w->app_port + s->slot),
				seq_swtim_driver, NULL);
	s->err = rte_errno;
	s->ret = a != NULL;
	if (a == NULL)
		return;
	w->adapters[s->slot] = a;
	w->live[s->slot] = true;
	w->started[s->slot] = false;
	if (w->api->impl->service_id_get(a, &w->sid[s->slot]) != 0)
		fuzz_fail(__FILE__, __LINE__, "%s: no service id",
			  w->api->name);
	if (s->mapped &&
	    (rte_service_map_lcore_set(w->sid[s->slot],
				       fuzz_env.service_lcore, 1) != 0 ||
	     rte_service_runstate_set(w->sid[s->slot], 1) != 0))
		fuzz_fail(__FILE__, __LINE__, "cannot map service %u",
			  w->sid[s->slot]);
}

/* The service step: wait, run the adapter's service, drain the device. */
static void
seq_service(struct seq_world *w, struct seq_step *s)
{
	unsigned int i;

	if (s->waited)
		rte_delay_us_block(SEQ_WAIT_US);
	s->t_before = rte_get_timer_cycles();
	s->ret = -ENOENT;
	if (w->live[s->slot])
		for (i = 0; i < s->iterations; i++)
			s->ret = rte_service_run_iter_on_app_lcore(
					w->sid[s->slot], 1);
	s->t_after = rte_get_timer_cycles();
	if (w->live[s->slot] && w->api->service_flush != NULL)
		w->api->service_flush(w->adapters[s->slot]);
	seq_drain(w, s);
}

/* Run the step's call; the adapter of a slot never made is NULL. */
static void
seq_call(struct seq_world *w, struct seq_step *s)
{
	struct seq_api *api = w->api;
	const struct adapter_impl *impl = api->impl;
	struct rte_event_timer *p[SEQ_BURST_MAX];
	uint16_t nb = s->nb;
	struct rte_event_timer_adapter_info info;
	void *a = w->adapters[s->slot < SEQ_NB_SLOTS ? s->slot : 0];
	uint32_t sid;

	if (s->op == SEQ_CREATE) {
		seq_create(w, s);
		return;
	}
	if (s->op == SEQ_SERVICE) {
		seq_service(w, s);
		return;
	}
	seq_burst_ptrs(w, s, p);
	if (s->op == SEQ_REMAINING && impl->remaining_ticks_get == NULL) {
		api->not_called = "no remaining_ticks_get";
		s->ret = -ENOTSUP;
		goto out;
	}
	if (api->guard != NULL && !api->guard(s, a, p, &nb))
		goto out;
	switch (s->op) {
	case SEQ_START:
		s->ret = impl->start(a);
		if (s->ret == 0)
			w->started[s->slot] = true;
		break;
	case SEQ_STOP:
		s->ret = impl->stop(a);
		if (s->ret == 0)
			w->started[s->slot] = false;
		break;
	case SEQ_FREE:
		s->ret = impl->free(a);
		if (s->ret == 0)
			w->live[s->slot] = false;
		break;
	case SEQ_ARM:
		s->ret = impl->arm_burst(a, p, nb);
		break;
	case SEQ_ARM_TMO:
		s->ret = impl->arm_tmo_tick_burst(a, p, s->tmo[0], nb);
		break;
	case SEQ_CANCEL:
		s->ret = impl->cancel_burst(a, p, nb);
		break;
	case SEQ_REMAINING:
		s->ret = impl->remaining_ticks_get(a, p[0],
				s->null_out ? NULL : &s->value);
		break;
	case SEQ_STATS:
		s->ret = s->reset ? impl->stats_reset(a) :
			impl->stats_get(a, &s->stats);
		break;
	case SEQ_LOOKUP:
		a = impl->lookup(s->slot);
		s->ret = a == NULL ? 0 : a == w->adapters[s->slot %
			SEQ_NB_SLOTS] ? 1 : 2;
		break;
	case SEQ_INFO:
		s->ret = s->reset ?
			impl->service_id_get(a, s->null_out ? NULL : &sid) :
			impl->get_info(a, s->null_out ? NULL : &info);
		break;
	default:
		break;
	}
	if (api->note != NULL)
		api->note(s, a, p, nb);
out:
	s->err = rte_errno;
}

static void
seq_step_run(struct seq_world *w, struct seq_step *s, seq_observer_t observe,
	     void *arg)
{
	s->ret = 0;
	s->err = 0;
	s->value = 0;
	memset(&s->stats, 0, sizeof(s->stats));
	s->nb_evs = 0;
	seq_states(w, s->state_before);
	w->api->not_called = NULL;
	rte_errno = 0;
	if (s->op != SEQ_SERVICE)
		s->t_before = rte_get_timer_cycles();
	seq_call(w, s);
	if (s->op != SEQ_SERVICE)
		s->t_after = rte_get_timer_cycles();
	s->not_called = w->api->not_called;
	seq_states(w, s->state_after);
	observe(s, arg);
}

/* Read one step from the input; false once it is used up. */
static bool
seq_step_read(struct seq_world *w, struct seq_step *s, struct fuzz_input *in)
{
	static const uint16_t lookup_ids[] = { 0, 1, 2, 7, 40 };
	uint8_t b;

	if (fuzz_input_done(in))
		return false;
	b = fuzz_u8(in);
	w->steps++;
	memset(s, 0, offsetof(struct seq_step, ret));
	s->op = b % SEQ_NB_OPS;
	s->slot = (b / SEQ_NB_OPS) % SEQ_NB_SLOTS;
	switch (s->op) {
	case SEQ_CREATE:
		b = fuzz_u8(in);
		s->ext = b & 1;
		s->periodic = b & 2;
		s->mapped = (b & 0x1c) != 0x1c;
		s->nb_timers = 1 + (b >> 5) * 2;
		break;
	case SEQ_ARM:
	case SEQ_ARM_TMO:
		seq_burst_read(w, s, true, in);
		break;
	case SEQ_CANCEL:
		seq_burst_read(w, s, false, in);
		break;
	case SEQ_REMAINING:
		b = fuzz_u8(in);
		s->nb = 1;
		s->idx[0] = b >= 0xf0 ? -1 : b % SEQ_NB_TIMERS;
		s->null_out = b >= 0xe8 && b < 0xf0;
		break;
	case SEQ_STATS:
		s->reset = fuzz_u8(in) & 1;
		break;
	case SEQ_SERVICE:
		b = fuzz_u8(in);
		s->waited = !(b & 1);
		s->iterations = 1 + (b >> 1) % 3;
		break;
	case SEQ_LOOKUP:
		s->slot = lookup_ids[fuzz_below(in, RTE_DIM(lookup_ids))];
		break;
	case SEQ_INFO:
		b = fuzz_u8(in);
		s->reset = b & 1;
		s->null_out = (b & 6) == 6;
		break;
	default:
		break;
	}
	return true;
}

unsigned int
seq_run(struct seq_world *w, struct fuzz_input *in, seq_observer_t observe,
	void *arg)
{
	static struct seq_step step;
	unsigned int n = 0, slot;

	memset(w->timers, 0, SEQ_NB_TIMERS * sizeof(w->timers[0]));
	memset(w->adapters, 0, sizeof(w->adapters));
	memset(w->live, 0, sizeof(w->live));
	memset(w->started, 0, sizeof(w->started));
	w->steps = 0;
	while (n < SEQ_STEPS_MAX && seq_step_read(w, &step, in)) {
		seq_step_run(w, &step, observe, arg);
		n++;
	}
	/* What is due is delivered; then nothing is left. */
	for (slot = 0; slot < SEQ_NB_SLOTS; slot++) {
		if (!w->started[slot])
			continue;
		memset(&step, 0, offsetof(struct seq_step, ret));
		step.op = SEQ_SERVICE;
		step.slot = slot;
		step.waited = true;
		step.iterations = 3;
		seq_step_run(w, &step, observe, arg);
	}
	for (slot = 0; slot < SEQ_NB_SLOTS; slot++) {
		if (!w->live[slot])
			continue;
		memset(&step, 0, offsetof(struct seq_step, ret));
		step.slot = slot;
		step.op = SEQ_STOP;
		seq_step_run(w, &step, observe, arg);
		step.op = SEQ_FREE;
		seq_step_run(w, &step, observe, arg);
	}
	return n;
}
