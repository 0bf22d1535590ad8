/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Fuzz target: random sequences of API calls (seq_exec.h) on swtim,
 * every step judged by a reference model of the contract
 * (shared/spec/swtim-api.md, and swtim.h where the spec leaves a point
 * to the implementation).
 *
 * The model knows each adapter (made, started, mapped, periodic,
 * nb_timers, how many of its timers count against nb_timers, events
 * enqueued since the last stats reset) and each timer (the state it must
 * be in, where and when it was armed and with what timeout, its events).
 * Every step's return value and rte_errno are predicted and every
 * timer's state after it; where the contract allows more than one answer
 * (a timer armed on another adapter, a timer wrong in two ways at once)
 * the model takes any of those, and says nothing where the contract
 * says nothing. Events must belong to a live arming, be delivered once
 * (one-shot) or once a period at most (periodic), never before their
 * timeout, carry the timer's ev with event_type TIMER and op NEW; a
 * one-shot timer is NOT_ARMED when its event comes, and never NOT_ARMED
 * without its event (nothing lost); what was due two ticks before a
 * service step of a started adapter is delivered in it. After free,
 * a timer that was ARMED is CANCELED (swtim.h).
 *
 * The first input byte picks the driver.
 */

#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>

#include "swtim.h"
#include "fuzz_env.h"
#include "seq_exec.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct model_adapter {
	bool live, started, mapped, periodic;
	uint64_t nb_timers;
	uint64_t counted;	/* timers counting against nb_timers */
	uint64_t enq;		/* events enqueued since the stats reset */
};

struct model_timer {
	int32_t state;
	int slot;		/* adapter armed on, while ARMED */
	uint64_t tag;		/* ev.u64 of the arming */
	struct rte_event ev;	/* ev of the arming */
	uint64_t tmo;
	/*
	 * The arm call's start and end: the adapter read its clock somewhere
	 * between the two. Early is judged from the start, late from the end
	 * (an arm call can take more than a tick under the sanitizers).
	 */
	uint64_t armed_at, armed_by;
	bool periodic;
	unsigned int events;	/* delivered for this arming */
};

struct model {
	struct model_adapter a[SEQ_NB_SLOTS];
	struct model_timer t[SEQ_NB_TIMERS];
	struct seq_world *w;
	unsigned int step;
};

static struct seq_world world;
/* SWTIM_FUZZ_TRACE=1: every step on stderr, to read a finding. */
static bool trace;
static struct rte_event_timer timers[SEQ_NB_TIMERS];

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_env_help(*argc, *argv, "random API call sequences on swtim, "
		      "judged by a reference model of the contract");
	fuzz_env_init("seq", NULL);
	world.api = &seq_swtim_api;
	world.dev_id = fuzz_env.dev_id;
	world.app_port = fuzz_env.app_port;
	world.timers = timers;
	trace = getenv("SWTIM_FUZZ_TRACE") != NULL;
	return 0;
}

#define MODEL_CHECK(m, s, cond, fmt, ...) \
	FUZZ_CHECK(cond, "step %u %s slot %u: " fmt, (m)->step, \
		   seq_op_name((s)->op), (s)->slot, ##__VA_ARGS__)

static bool
is_armable(int32_t state)
{
	return state == RTE_EVENT_TIMER_NOT_ARMED ||
		state == RTE_EVENT_TIMER_CANCELED;
}

/* A timer leaves its adapter's count: cancelled, or its event handed on. */
static void
model_timer_release(struct model *m, struct model_timer *t, int32_t state)
{
	if (t->state == RTE_EVENT_TIMER_ARMED)
		m->a[t->slot].counted--;
	t->state = state;
	t->slot = -1;
}

/* The timeout an entry of an arm step was armed with. */
static uint64_t
entry_tmo(const struct model *m, const struct seq_step *s, uint16_t k)
{
	return s->op == SEQ_ARM_TMO ? s->tmo[0] :
		m->w->timers[s->idx[k]].timeout_ticks;
}

/*
 * The error states an entry of an arm step that is armable but wrong
 * may be left in (several when it is wrong in several ways); 0 if it
 * is not wrong.
 */
static unsigned int
arm_errors(const struct model *m, const struct seq_step *s, uint16_t k,
	   int32_t *states)
{
	const struct rte_event *ev = &m->w->timers[s->idx[k]].ev;
	uint64_t tmo = entry_tmo(m, s, k);
	unsigned int n = 0;

	if (ev->queue_id >= FUZZ_NB_QUEUES ||
	    ev->sched_type != fuzz_queue_sched_type(ev->queue_id))
		states[n++] = RTE_EVENT_TIMER_ERROR;
	if (tmo == 0)
		states[n++] = RTE_EVENT_TIMER_ERROR_TOOEARLY;
	if (tmo > SEQ_MAX_TMO_TICKS)
		states[n++] = RTE_EVENT_TIMER_ERROR_TOOLATE;
	return n;
}

static bool
state_in(int32_t state, const int32_t *states, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (states[i] == state)
			return true;
	return false;
}

static bool
seen_before(const struct seq_step *s, uint16_t k)
{
	uint16_t i;

	for (i = 0; i < k; i++)
		if (s->idx[i] == s->idx[k])
			return true;
	return false;
}

static void
model_arm(struct model *m, const struct seq_step *s, int32_t *want)
{
	struct model_adapter *a = &m->a[s->slot];
	int32_t errs[3];
	unsigned int nb_errs;
	uint16_t k;
	int32_t st;

	if (!a->live) {
		MODEL_CHECK(m, s, s->ret == 0 && s->err == EINVAL,
			    "no adapter: %" PRId64 "/%d", s->ret, s->err);
		return;
	}
	for (k = 0; k < s->nb; k++) {
		if (s->idx[k] < 0) {
			MODEL_CHECK(m, s, s->ret == k && s->err == EINVAL,
				    "NULL entry %u: %" PRId64 "/%d", k,
				    s->ret, s->err);
			return;
		}
		st = s->state_before[s->idx[k]];
		if (seen_before(s, k) || st == RTE_EVENT_TIMER_ARMED) {
			MODEL_CHECK(m, s, s->ret == k && s->err == EALREADY,
				    "entry %u (timer %d) already armed: %"
				    PRId64 "/%d", k, s->idx[k], s->ret,
				    s->err);
			return;
		}
		if (!is_armable(st)) {
			MODEL_CHECK(m, s, s->ret == k && s->err == EINVAL,
				    "entry %u in state %d: %" PRId64 "/%d", k,
				    st, s->ret, s->err);
			return;
		}
		nb_errs = arm_errors(m, s, k, errs);
		if (nb_errs != 0 || a->counted == a->nb_timers) {
			/* Wrong and no room: either failure may come first. */
			MODEL_CHECK(m, s, s->ret == k &&
				    ((nb_errs != 0 && s->err == EINVAL &&
				      state_in(s->state_after[s->idx[k]],
					       errs, nb_errs)) ||
				     (a->counted == a->nb_timers &&
				      s->err == ENOSPC &&
				      s->state_after[s->idx[k]] == st)),
				    "entry %u (timer %d, %u errors, %" PRIu64
				    "/%" PRIu64 " counted): %" PRId64 "/%d,"
				    " state %d", k, s->idx[k], nb_errs,
				    a->counted, a->nb_timers, s->ret, s->err,
				    s->state_after[s->idx[k]]);
			want[s->idx[k]] = s->state_after[s->idx[k]];
			return;
		}
		/* Armed. */
		{
			struct model_timer *t = &m->t[s->idx[k]];

			t->state = RTE_EVENT_TIMER_ARMED;
			t->slot = s->slot;
			t->ev = m->w->timers[s->idx[k]].ev;
			t->tag = t->ev.u64;
			t->tmo = entry_tmo(m, s, k);
			t->armed_at = s->t_before;
			t->armed_by = s->t_after;
			t->periodic = a->periodic;
			t->events = 0;
			want[s->idx[k]] = RTE_EVENT_TIMER_ARMED;
			a->counted++;
		}
	}
	MODEL_CHECK(m, s, s->ret == s->nb, "armed %" PRId64 " of %u (%d)",
		    s->ret, s->nb, s->err);
}

static void
model_cancel(struct model *m, const struct seq_step *s, int32_t *want)
{
	uint16_t k;
	int32_t st;

	if (!m->a[s->slot].live) {
		MODEL_CHECK(m, s, s->ret == 0 && s->err == EINVAL,
			    "no adapter: %" PRId64 "/%d", s->ret, s->err);
		return;
	}
	for (k = 0; k < s->nb; k++) {
		struct model_timer *t;

		if (s->idx[k] < 0) {
			MODEL_CHECK(m, s, s->ret == k && s->err == EINVAL,
				    "NULL entry %u: %" PRId64 "/%d", k,
				    s->ret, s->err);
			return;
		}
		t = &m->t[s->idx[k]];
		st = s->state_before[s->idx[k]];
		if (seen_before(s, k) || st == RTE_EVENT_TIMER_CANCELED) {
			MODEL_CHECK(m, s, s->ret == k && s->err == EALREADY,
				    "entry %u (timer %d) cancelled already: %"
				    PRId64 "/%d", k, s->idx[k], s->ret,
				    s->err);
			return;
		}
		if (st != RTE_EVENT_TIMER_ARMED) {
			MODEL_CHECK(m, s, s->ret == k && s->err == EINVAL,
				    "entry %u in state %d: %" PRId64 "/%d", k,
				    st, s->ret, s->err);
			return;
		}
		if (t->slot != (int)s->slot &&
		    s->state_after[s->idx[k]] == RTE_EVENT_TIMER_ARMED) {
			/*
			 * Armed on another adapter: the contract does not
			 * say; refused (EINVAL, still armed) is one answer.
			 */
			MODEL_CHECK(m, s, s->ret == k && s->err == EINVAL,
				    "entry %u armed on adapter %d, still "
				    "armed: %" PRId64 "/%d", k, t->slot,
				    s->ret, s->err);
			return;
		}
		/* Cancelled (also through another adapter: its answer). */
		model_timer_release(m, t, RTE_EVENT_TIMER_CANCELED);
		want[s->idx[k]] = RTE_EVENT_TIMER_CANCELED;
	}
	MODEL_CHECK(m, s, s->ret == s->nb, "cancelled %" PRId64 " of %u (%d)",
		    s->ret, s->nb, s->err);
}

static void
model_remaining(struct model *m, const struct seq_step *s)
{
	const struct model_timer *t;
	uint64_t elapsed;

	if (!m->a[s->slot].live || s->idx[0] < 0 || s->null_out ||
	    s->state_before[s->idx[0]] != RTE_EVENT_TIMER_ARMED) {
		MODEL_CHECK(m, s, s->ret == -EINVAL, "%" PRId64, s->ret);
		return;
	}
	t = &m->t[s->idx[0]];
	if (t->slot != (int)s->slot) {
		/* Armed on another adapter: the contract does not say. */
		MODEL_CHECK(m, s, s->ret == -EINVAL || s->ret == 0,
			    "%" PRId64, s->ret);
		return;
	}
	MODEL_CHECK(m, s, s->ret == 0, "timer %d armed: %" PRId64, s->idx[0],
		    s->ret);
	/* Rounded up: at most the timeout, and a tick for the rounding. */
	MODEL_CHECK(m, s, s->value <= t->tmo + 1, "timer %d: %" PRIu64
		    " ticks left of %" PRIu64, s->idx[0], s->value, t->tmo);
	elapsed = (s->t_after - t->armed_at) / seq_ticks_to_cycles(1) + 1;
	MODEL_CHECK(m, s, t->periodic || t->tmo < SEQ_LONG_TICKS ||
		    s->value + elapsed + 1 >= t->tmo,
		    "timer %d: %" PRIu64 " ticks left of %" PRIu64 " after %"
		    PRIu64, s->idx[0], s->value, t->tmo, elapsed);
}

/* One event of a service step. */
static void
model_event(struct model *m, const struct seq_step *s,
	    const struct rte_event *ev)
{
	unsigned int i = seq_tag_timer(ev->u64);
	struct model_timer *t;
	uint64_t due;

	MODEL_CHECK(m, s, i < SEQ_NB_TIMERS, "event u64 0x%" PRIx64
		    " is no timer's", ev->u64);
	t = &m->t[i];
	MODEL_CHECK(m, s, t->state == RTE_EVENT_TIMER_ARMED &&
		    t->tag == ev->u64, "event 0x%" PRIx64 " of timer %u, whose"
		    " arming 0x%" PRIx64 " is %s", ev->u64, i, t->tag,
		    t->state == RTE_EVENT_TIMER_ARMED ?
		    "another" : "over (delivered, cancelled or freed)");
	MODEL_CHECK(m, s, t->slot == (int)s->slot, "event of timer %u, armed"
		    " on adapter %d", i, t->slot);
	due = t->armed_at + seq_ticks_to_cycles(t->tmo) * (t->events + 1);
	MODEL_CHECK(m, s, due <= s->t_after, "timer %u's event %u early by %"
		    PRIu64 " cycles", i, t->events + 1, due - s->t_after);
	MODEL_CHECK(m, s, ev->queue_id == t->ev.queue_id &&
		    ev->sched_type == t->ev.sched_type &&
		    ev->priority == t->ev.priority &&
		    ev->event_type == RTE_EVENT_TYPE_TIMER &&
		    ev->op == RTE_EVENT_OP_NEW &&
		    (ev->sched_type != RTE_SCHED_TYPE_ATOMIC ||
		     ev->flow_id == t->ev.flow_id),
		    "timer %u's event: queue %u/%u sched %u/%u prio %u/%u "
		    "type %u op %u flow %u/%u", i, ev->queue_id,
		    t->ev.queue_id, ev->sched_type, t->ev.sched_type,
		    ev->priority, t->ev.priority, ev->event_type, ev->op,
		    ev->flow_id, t->ev.flow_id);
	t->events++;
	m->a[s->slot].enq++;
	if (!t->periodic) {
		MODEL_CHECK(m, s, s->state_after[i] ==
			    RTE_EVENT_TIMER_NOT_ARMED, "timer %u: state %d "
			    "with its event dequeued", i, s->state_after[i]);
		model_timer_release(m, t, RTE_EVENT_TIMER_NOT_ARMED);
	}
}

static void
model_service(struct model *m, const struct seq_step *s, int32_t *want)
{
	const struct model_adapter *a = &m->a[s->slot];
	uint64_t slack = seq_ticks_to_cycles(2);
	unsigned int e, i;

	MODEL_CHECK(m, s, a->started || s->nb_evs == 0, "%u events from an "
		    "adapter not started", s->nb_evs);
	MODEL_CHECK(m, s, s->nb_evs < SEQ_EVENTS_MAX, "%u events or more",
		    s->nb_evs);
	for (e = 0; e < s->nb_evs; e++)
		model_event(m, s, &s->evs[e]);
	for (i = 0; i < SEQ_NB_TIMERS; i++) {
		const struct model_timer *t = &m->t[i];

		want[i] = t->state == RTE_EVENT_TIMER_ARMED ? t->state :
			s->state_after[i];
		if (t->state != RTE_EVENT_TIMER_ARMED ||
		    t->slot != (int)s->slot)
			continue;
		/* Periodic: no more than one event a period. */
		MODEL_CHECK(m, s, !t->periodic ||
			    t->events <= (s->t_after - t->armed_at) /
			    seq_ticks_to_cycles(t->tmo) + 1,
			    "timer %u: %u events in %" PRIu64 " cycles, "
			    "period %" PRIu64 " ticks", i, t->events,
			    s->t_after - t->armed_at, t->tmo);
		/* Due two ticks before the run began: delivered in it. */
		MODEL_CHECK(m, s, !a->started || s->iterations == 0 ||
			    t->periodic || s->ret != 0 ||
			    t->armed_by + seq_ticks_to_cycles(t->tmo) +
			    slack > s->t_before,
			    "timer %u due %" PRIu64 " cycles before the "
			    "service ran, not delivered", i,
			    s->t_before - t->armed_by -
			    seq_ticks_to_cycles(t->tmo));
	}
}

static void
model_free(struct model *m, const struct seq_step *s, int32_t *want)
{
	struct model_adapter *a = &m->a[s->slot];
	unsigned int i;

	if (!a->live || a->started) {
		MODEL_CHECK(m, s, s->ret == (a->live ? -EBUSY : -EINVAL),
			    "%" PRId64, s->ret);
		return;
	}
	MODEL_CHECK(m, s, s->ret == 0, "%" PRId64, s->ret);
	/* swtim.h: timers still armed are set to CANCELED. */
	for (i = 0; i < SEQ_NB_TIMERS; i++)
		if (m->t[i].state == RTE_EVENT_TIMER_ARMED &&
		    m->t[i].slot == (int)s->slot) {
			model_timer_release(m, &m->t[i],
					    RTE_EVENT_TIMER_CANCELED);
			want[i] = RTE_EVENT_TIMER_CANCELED;
		}
	memset(a, 0, sizeof(*a));
}

static void
model_control(struct model *m, const struct seq_step *s)
{
	struct model_adapter *a = &m->a[s->slot % SEQ_NB_SLOTS];

	switch (s->op) {
	case SEQ_CREATE:
		if (a->live) {
			MODEL_CHECK(m, s, s->ret == 0 && s->err == EEXIST,
				    "over a live adapter: %" PRId64 "/%d",
				    s->ret, s->err);
			break;
		}
		MODEL_CHECK(m, s, s->ret == 1, "refused: %d", s->err);
		memset(a, 0, sizeof(*a));
		a->live = true;
		a->mapped = s->mapped;
		a->periodic = s->periodic;
		a->nb_timers = s->nb_timers;
		break;
	case SEQ_START:
		MODEL_CHECK(m, s, s->ret == (!a->live ? -EINVAL : a->started ?
			    -EALREADY : !a->mapped ? -ENOENT : 0),
			    "%" PRId64, s->ret);
		if (s->ret == 0)
			a->started = true;
		break;
	case SEQ_STOP:
		MODEL_CHECK(m, s, s->ret == (a->live ? 0 : -EINVAL),
			    "%" PRId64, s->ret);
		a->started = false;
		break;
	case SEQ_STATS:
		MODEL_CHECK(m, s, s->ret == (a->live ? 0 : -EINVAL),
			    "%" PRId64, s->ret);
		if (!a->live)
			break;
		if (s->reset)
			a->enq = 0;
		else
			MODEL_CHECK(m, s, s->stats.ev_enq_count == a->enq,
				    "ev_enq_count %" PRIu64 ", %" PRIu64
				    " events dequeued since the reset",
				    (uint64_t)s->stats.ev_enq_count, a->enq);
		break;
	case SEQ_LOOKUP:
		if (s->slot >= SWTIM_ADAPTER_NUM_MAX)
			MODEL_CHECK(m, s, s->ret == 0 && s->err == EINVAL,
				    "%" PRId64 "/%d", s->ret, s->err);
		else if (s->slot >= SEQ_NB_SLOTS || !a->live)
			MODEL_CHECK(m, s, s->ret == 0 && s->err == ENOENT,
				    "%" PRId64 "/%d", s->ret, s->err);
		else
			MODEL_CHECK(m, s, s->ret == 1, "%" PRId64 "/%d",
				    s->ret, s->err);
		break;
	case SEQ_INFO:
		MODEL_CHECK(m, s, s->ret == (a->live && !s->null_out ? 0 :
			    -EINVAL), "%" PRId64, s->ret);
		break;
	default:
		break;
	}
}

static void
model_observe(const struct seq_step *s, void *arg)
{
	struct model *m = arg;
	int32_t want[SEQ_NB_TIMERS];
	unsigned int i;

	m->step++;
	if (trace)
		fprintf(stderr, "step %u %s slot %u: nb %u ret %" PRId64
			" err %d value %" PRIu64 " events %u, %" PRIu64
			" us\n", m->step, seq_op_name(s->op), s->slot, s->nb,
			s->ret, s->err, s->value, s->nb_evs,
			(s->t_after - s->t_before) * 1000000 /
			rte_get_timer_hz());
	/*
	 * Timers the adapters have are as the model has them; the others
	 * are the harness's, which may have rewritten them.
	 */
	for (i = 0; i < SEQ_NB_TIMERS; i++) {
		if (m->t[i].state == RTE_EVENT_TIMER_ARMED)
			MODEL_CHECK(m, s, s->state_before[i] ==
				    RTE_EVENT_TIMER_ARMED, "timer %u: state "
				    "%d before, model ARMED", i,
				    s->state_before[i]);
		else
			m->t[i].state = s->state_before[i];
		want[i] = s->state_before[i];
	}
	MODEL_CHECK(m, s, s->not_called == NULL, "not called: %s",
		    s->not_called);
	switch (s->op) {
	case SEQ_ARM:
	case SEQ_ARM_TMO:
		model_arm(m, s, want);
		break;
	case SEQ_CANCEL:
		model_cancel(m, s, want);
		break;
	case SEQ_REMAINING:
		model_remaining(m, s);
		break;
	case SEQ_SERVICE:
		model_service(m, s, want);
		break;
	case SEQ_FREE:
		model_free(m, s, want);
		break;
	default:
		model_control(m, s);
		break;
	}
	/* No EAGAIN: nothing expires while a call runs here. */
	MODEL_CHECK(m, s, s->err != EAGAIN, "EAGAIN with the service idle");
	for (i = 0; i < SEQ_NB_TIMERS; i++)
		MODEL_CHECK(m, s, s->state_after[i] == want[i],
			    "timer %u state %d, model %d", i,
			    s->state_after[i], want[i]);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct model m;
	struct fuzz_input in = fuzz_input_of(data, size);
	struct fuzz_resources before, after;

	memset(&m, 0, sizeof(m));
	m.w = &world;
	seq_swtim_driver = fuzz_drivers[fuzz_u8(&in) % FUZZ_NB_DRIVERS];
	fuzz_resources_get(&before);
	seq_run(&world, &in, model_observe, &m);
	fuzz_resources_get(&after);
	fuzz_resources_check(&before, &after, "sequence");
	return 0;
}
