/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The sequence harness's calls (seq_exec.h) on DPDK's own adapter,
 * rte_event_timer_adapter_*() of librte_eventdev, for the differential
 * test.
 *
 * A few calls are not made, because DPDK (22.11 to 25.11) would crash or
 * corrupt memory on them where swtim answers an error; the step then says
 * why (seq_api.not_called) and the differential test lists it:
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
#include "swtim_dpdk_compat.h"

/* The adapter each timer was last armed on, to keep cancels on it. */
static const struct rte_event_timer_adapter *dpdk_armed_on[SEQ_NB_TIMERS];
extern struct seq_api seq_dpdk_api;
/* The harness's timers, to find a timer's index. */
struct rte_event_timer *seq_dpdk_timers;

static void *
dpdk_create(const struct rte_event_timer_adapter_conf *conf, bool ext,
	    uint8_t port)
{
	if (ext)
		return rte_event_timer_adapter_create_ext(conf, fuzz_port_cb,
				(void *)(uintptr_t)port);
	return rte_event_timer_adapter_create(conf);
}

static int
dpdk_start(void *a)
{
	return rte_event_timer_adapter_start(a);
}

static int
dpdk_stop(void *a)
{
	return rte_event_timer_adapter_stop(a);
}

/* Where a timer DPDK's free left ARMED was armed: on nothing left. */
static const struct rte_event_timer_adapter dpdk_freed;

static int
dpdk_free(void *a)
{
	int ret = rte_event_timer_adapter_free(a);
	unsigned int i;

	if (ret == 0)
		for (i = 0; i < SEQ_NB_TIMERS; i++)
			if (dpdk_armed_on[i] == a)
				dpdk_armed_on[i] = &dpdk_freed;
	return ret;
}

static void *
dpdk_lookup(uint16_t id)
{
	return rte_event_timer_adapter_lookup(id);
}

static int
dpdk_service_id_get(void *a, uint32_t *sid)
{
	return rte_event_timer_adapter_service_id_get(a, sid);
}

static int
dpdk_get_info(void *a, struct rte_event_timer_adapter_info *info)
{
	const struct rte_event_timer_adapter *adapter = a;

	if (info == NULL && adapter != NULL && adapter->allocated) {
		seq_dpdk_api.not_called = "DPDK's get_info writes through a "
			"NULL adapter_info";
		return -EINVAL;
	}
	return rte_event_timer_adapter_get_info(a, info);
}

static int
dpdk_stats_get(void *a, struct rte_event_timer_adapter_stats *st)
{
	return rte_event_timer_adapter_stats_get(a, st);
}

static int
dpdk_stats_reset(void *a)
{
	return rte_event_timer_adapter_stats_reset(a);
}

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

/* A front that was all done and stopped where DPDK would crash. */
static void
dpdk_cut(uint16_t done, uint16_t front, const char *why)
{
	if (why != NULL && done == front)
		seq_dpdk_api.not_called = why;
}

static uint16_t
dpdk_arm_burst(void *a, struct rte_event_timer **t, uint16_t n)
{
	uint16_t front, armed;
	const char *why;

	if (!dpdk_adapter_callable(a))
		return 0;
	front = dpdk_front(t, n, &why);
	dpdk_op_new(t, front);
	armed = rte_event_timer_arm_burst(a, t, front);
	dpdk_note_armed(a, t, armed);
	dpdk_cut(armed, front, why);
	return armed;
}

static uint16_t
dpdk_arm_tmo_tick_burst(void *a, struct rte_event_timer **t, uint64_t ticks,
			uint16_t n)
{
	uint16_t front, armed;
	const char *why;

	if (!dpdk_adapter_callable(a))
		return 0;
	front = dpdk_front(t, n, &why);
	dpdk_op_new(t, front);
	armed = rte_event_timer_arm_tmo_tick_burst(a, t, ticks, front);
	dpdk_note_armed(a, t, armed);
	dpdk_cut(armed, front, why);
	return armed;
}

static uint16_t
dpdk_cancel_burst(void *a, struct rte_event_timer **t, uint16_t n)
{
	uint16_t front, k, done;
	const char *why;

	if (!dpdk_adapter_callable(a))
		return 0;
	front = dpdk_front(t, n, &why);
	for (k = 0; k < front; k++)
		if (t[k]->state == RTE_EVENT_TIMER_ARMED &&
		    dpdk_armed_on[t[k] - seq_dpdk_timers] != a)
			break;
	if (k < front) {
		/* Cancel what comes before; the rest would corrupt. */
		done = rte_event_timer_cancel_burst(a, t, k);
		if (done == k)
			seq_dpdk_api.not_called =
				dpdk_armed_on[t[k] - seq_dpdk_timers] ==
				&dpdk_freed ? "DPDK's free left the timer "
				"ARMED; its timer object is gone" :
				"DPDK cancels a timer armed on another "
				"adapter into that adapter's pool";
		return done;
	}
	done = rte_event_timer_cancel_burst(a, t, front);
	dpdk_cut(done, front, why);
	return done;
}

#if SWTIM_DPDK_HAS_REMAINING_TICKS
static int
dpdk_remaining_ticks_get(void *a, const struct rte_event_timer *t,
			 uint64_t *ticks)
{
	const struct rte_event_timer_adapter *on;

	if (t == NULL) {
		seq_dpdk_api.not_called = "DPDK dereferences a NULL timer";
		return -EINVAL;
	}
	on = dpdk_armed_on[t - seq_dpdk_timers];
	if (t->state == RTE_EVENT_TIMER_ARMED && on != a && a != NULL &&
	    ((const struct rte_event_timer_adapter *)a)->allocated) {
		seq_dpdk_api.not_called = on == &dpdk_freed ?
			"DPDK's free left the timer ARMED; its timer object "
			"is gone" : "DPDK reads a timer armed on another "
			"adapter with this one's data";
		return -EINVAL;
	}
	return rte_event_timer_remaining_ticks_get(a, t, ticks);
}
#endif

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
	.create = dpdk_create,
	.start = dpdk_start,
	.stop = dpdk_stop,
	.free = dpdk_free,
	.lookup = dpdk_lookup,
	.service_id_get = dpdk_service_id_get,
	.get_info = dpdk_get_info,
	.stats_get = dpdk_stats_get,
	.stats_reset = dpdk_stats_reset,
	.arm_burst = dpdk_arm_burst,
	.arm_tmo_tick_burst = dpdk_arm_tmo_tick_burst,
	.cancel_burst = dpdk_cancel_burst,
#if SWTIM_DPDK_HAS_REMAINING_TICKS
	.remaining_ticks_get = dpdk_remaining_ticks_get,
#else
	.remaining_ticks_get = NULL,
#endif
	.service_flush = dpdk_service_flush,
};
