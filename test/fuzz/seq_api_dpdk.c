/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The sequence harness (seq_exec.h) on DPDK's own adapter,
 * rte_event_timer_adapter_*() of librte_eventdev (adapter_impl_dpdk), for
 * the differential test.
 *
 * A few calls are not made, because DPDK (22.11 to 25.11) would crash or
 * corrupt memory on them where swtim answers an error: dpdk_guard() keeps
 * them from DPDK, the step then says why (seq_api.not_called), and the
 * differential test lists it:
 * - arm and cancel on a NULL or freed adapter: its inline fast path
 *   checks the adapter only in RTE_LIBRTE_EVENTDEV_DEBUG builds;
 * - a NULL timer in a burst: dereferenced (the entries before it are
 *   passed, so whatever DPDK answers for them is still compared);
 * - cancel, or remaining ticks, through one adapter of a timer armed on
 *   another: DPDK stops (reads) the rte_timer with the wrong adapter's
 *   timer data, and returns its object to the wrong adapter's mempool;
 * - cancel or remaining ticks of a timer that DPDK's free left ARMED:
 *   its rte_timer went with the adapter's mempool;
 * - remaining ticks of a NULL timer: dereferenced;
 * - get_info with a NULL adapter_info: written through;
 * - remaining_ticks_get before 23.03, where DPDK does not have it.
 *
 * And one call is made otherwise: a timer whose ev.op the application
 * left FORWARD is armed on DPDK with op NEW, as DPDK's own users must
 * arm theirs. DPDK's adapter enqueues the expiry event with the op it
 * finds, where swtim sets NEW, and event_dsw from 23.11 on panics on a
 * forwarded event from a port that holds none (RTE_VERIFY in
 * dsw_event.c). The event_type, which DPDK leaves too, still differs.
 */

#include <errno.h>

#include <rte_errno.h>
#include <rte_event_timer_adapter.h>

#include "fuzz_env.h"
#include "seq_exec.h"

/* The adapter each timer was last armed on, to keep cancels on it. */
static const struct rte_event_timer_adapter *dpdk_armed_on[SEQ_NB_TIMERS];
extern struct seq_api seq_dpdk_api;
/* The harness's timers, to find a timer's index. */
struct rte_event_timer *seq_dpdk_timers;

/* Where a timer DPDK's free left ARMED was armed: on nothing left. */
static const struct rte_event_timer_adapter dpdk_freed;

/* Whether DPDK's fast path may be called on a; says why not. */
static bool
dpdk_adapter_callable(const struct rte_event_timer_adapter *a)
{
	if (a != NULL && a->allocated)
		return true;
	seq_dpdk_api.not_called = "DPDK's fast path dereferences a NULL or "
		"freed adapter";
	rte_errno = EINVAL;
	return false;
}

/* Entries before the first NULL one; says so if there is one. */
static uint16_t
dpdk_front(struct rte_event_timer **t, uint16_t n, const char **why)
{
	uint16_t k;

	for (k = 0; k < n && t[k] != NULL; k++)
		;
	*why = k < n ? "DPDK dereferences a NULL timer in a burst" : NULL;
	return k;
}

/* Arming: op NEW where the timer has FORWARD (see above). */
static void
dpdk_op_new(struct rte_event_timer **t, uint16_t n)
{
	uint16_t k;

	for (k = 0; k < n; k++)
		if (t[k]->ev.op == RTE_EVENT_OP_FORWARD)
			t[k]->ev.op = RTE_EVENT_OP_NEW;
}

static void
dpdk_note_armed(const struct rte_event_timer_adapter *a,
		struct rte_event_timer **t, uint16_t armed)
{
	uint16_t k;

	for (k = 0; k < armed; k++)
		dpdk_armed_on[t[k] - seq_dpdk_timers] = a;
}

/*
 * Why the burst a guard let through was cut short (NULL: it was not),
 * for dpdk_note(): DPDK's answer for the entries before the cut is
 * compared, and the step says why it stopped there if all were done.
 */
static const char *dpdk_cut_why;

/* The entries of a cancel burst DPDK can be given; says why not all. */
static uint16_t
dpdk_cancel_front(void *a, struct rte_event_timer **t, uint16_t n,
		  const char **why)
{
	const struct rte_event_timer_adapter *on;
	uint16_t front, k;

	front = dpdk_front(t, n, why);
	for (k = 0; k < front; k++) {
		on = dpdk_armed_on[t[k] - seq_dpdk_timers];
		if (t[k]->state == RTE_EVENT_TIMER_ARMED && on != a) {
			*why = on == &dpdk_freed ? "DPDK's free left the "
				"timer ARMED; its timer object is gone" :
				"DPDK cancels a timer armed on another "
				"adapter into that adapter's pool";
			return k;
		}
	}
	return front;
}

/* Whether remaining ticks of t may be asked of DPDK; says why not. */
static bool
dpdk_remaining_callable(void *a, const struct rte_event_timer *t)
{
	const struct rte_event_timer_adapter *on;

	if (t == NULL) {
		seq_dpdk_api.not_called = "DPDK dereferences a NULL timer";
		return false;
	}
	on = dpdk_armed_on[t - seq_dpdk_timers];
	if (t->state == RTE_EVENT_TIMER_ARMED && on != a && a != NULL &&
	    ((const struct rte_event_timer_adapter *)a)->allocated) {
		seq_dpdk_api.not_called = on == &dpdk_freed ?
			"DPDK's free left the timer ARMED; its timer object "
			"is gone" : "DPDK reads a timer armed on another "
			"adapter with this one's data";
		return false;
	}
	return true;
}

/* seq_api.guard: the calls DPDK would crash on are not made. */
static bool
dpdk_guard(struct seq_step *s, void *a, struct rte_event_timer **p,
	   uint16_t *nb)
{
	const struct rte_event_timer_adapter *adapter = a;

	dpdk_cut_why = NULL;
	switch (s->op) {
	case SEQ_ARM:
	case SEQ_ARM_TMO:
	case SEQ_CANCEL:
		if (!dpdk_adapter_callable(adapter)) {
			s->ret = 0;
			return false;
		}
		if (s->op == SEQ_CANCEL) {
			*nb = dpdk_cancel_front(a, p, s->nb, &dpdk_cut_why);
		} else {
			*nb = dpdk_front(p, s->nb, &dpdk_cut_why);
			dpdk_op_new(p, *nb);
		}
		return true;
	case SEQ_REMAINING:
		if (dpdk_remaining_callable(a, p[0]))
			return true;
		s->ret = -EINVAL;
		return false;
	case SEQ_INFO:
		if (s->reset || !s->null_out || adapter == NULL ||
		    !adapter->allocated)
			return true;
		seq_dpdk_api.not_called = "DPDK's get_info writes through a "
			"NULL adapter_info";
		s->ret = -EINVAL;
		return false;
	default:
		return true;
	}
}

/*
 * seq_api.note: where each timer was armed, which timers a free left on
 * no adapter, and why a burst that did all it was given stopped short.
 */
static void
dpdk_note(struct seq_step *s, void *a, struct rte_event_timer **p,
	  uint16_t nb)
{
	unsigned int i;

	switch (s->op) {
	case SEQ_ARM:
	case SEQ_ARM_TMO:
		dpdk_note_armed(a, p, (uint16_t)s->ret);
		/* fall through */
	case SEQ_CANCEL:
		if (dpdk_cut_why != NULL && s->ret == nb)
			seq_dpdk_api.not_called = dpdk_cut_why;
		break;
	case SEQ_FREE:
		if (s->ret == 0)
			for (i = 0; i < SEQ_NB_TIMERS; i++)
				if (dpdk_armed_on[i] == a)
					dpdk_armed_on[i] = &dpdk_freed;
		break;
	default:
		break;
	}
}

/*
 * DPDK 22.11's service enqueues its expiry events and leaves them in
 * event_dsw's buffer of the adapter's port (ev_enq_count counts them, no
 * dequeue sees them) until that port has done enough work; swtim flushes
 * the port after enqueueing. Flushed here, from the one thread that uses
 * the port now, so that the events themselves can be compared.
 */
static void
dpdk_service_flush(void *a)
{
	struct rte_event_timer_adapter_info info;

	if (rte_event_timer_adapter_get_info(a, &info) == 0)
		rte_event_maintain(info.conf.event_dev_id,
				   info.event_dev_port_id,
				   RTE_EVENT_DEV_MAINT_OP_FLUSH);
}

struct seq_api seq_dpdk_api = {
	.name = "DPDK",
	.impl = &adapter_impl_dpdk,
	.guard = dpdk_guard,
	.note = dpdk_note,
	.service_flush = dpdk_service_flush,
};
