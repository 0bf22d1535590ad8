/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * What the service (swtim_service.c) asks of an lcore's wheel: whether
 * it may have timers due, to expire up to a burst of them into the
 * lane's buffer (the wheel's lock held only while taking them off the
 * wheel and while putting back what could not be delivered), when its
 * next timer is due, and to put periodic timers back for their next
 * period. The service offers each burst to the device itself.
 */

#include <errno.h>

#include <rte_cycles.h>
#include <rte_prefetch.h>

#include "whl_slot.h"

/*
 * Build the expiry events of a chunk of due timers. Returns how many of
 * the front got an event: all, or none when the buffer had no room and
 * could not grow; those go back on the wheel as due, to be tried on the
 * next tick.
 */
static uint32_t
whl_chunk_deliver(struct whl_adapter *whl, struct whl_wheel *w,
		  struct rte_event_timer *const *due, uint32_t n)
{
	struct rte_event *ev;
	uint32_t i;

	if (unlikely(!swtim_evbuf_reserve(&w->lane.evbuf, n)))
		return 0;
	/* The event timers are usually not in cache (a uniform block is
	 * cascaded without reading them): fetch them a few timers ahead. */
	for (i = 0; i < RTE_MIN(n, (uint32_t)WHL_PREFETCH_AHEAD); i++)
		rte_prefetch0(due[i]);
	for (i = 0; i < n; i++) {
		struct rte_event_timer *evtim = due[i];

		if (i + WHL_PREFETCH_AHEAD < n)
			rte_prefetch0(due[i + WHL_PREFETCH_AHEAD]);
		ev = swtim_evbuf_at(&w->lane.evbuf, i);
		*ev = evtim->ev;
		ev->event_type = RTE_EVENT_TYPE_TIMER;
		ev->op = RTE_EVENT_OP_NEW;
		/* NOT_ARMED before the event can be dequeued: the
		 * application may re-arm at once, so this is the last
		 * access to the timer. A periodic timer stays ARMED, and
		 * off the wheel until the device takes its event
		 * (whl_periodic_resume()). */
		if (!whl->base.periodic)
			__atomic_store_n(&evtim->state,
					 RTE_EVENT_TIMER_NOT_ARMED,
					 __ATOMIC_RELEASE);
		else
			*swtim_evbuf_tag_at(&w->lane.evbuf, i) = (uintptr_t)evtim;
	}
	swtim_evbuf_commit(&w->lane.evbuf, n);
	w->lane.stats.evtim_exp_count += n;
	return n;
}

/*
 * After a chunk's delivery: a one-shot timer delivered is the
 * application's again, nothing to do. A periodic timer whose event is in
 * the buffer stays off the wheel, its next period set, until the device
 * has taken the event (whl_periodic_resume()); a cancel meanwhile takes the
 * event back out of the buffer (whl_fastpath.c), so that none that
 * succeeds leaves an event of its timer to be enqueued after it. Timers
 * whose events could not be built go back on the wheel as due.
 */
static void
whl_chunk_recycle(struct whl_adapter *whl, struct whl_wheel *w,
		  struct rte_event_timer *const *due, uint32_t n,
		  uint32_t delivered)
{
	uint32_t i;

	if (!whl->base.periodic && delivered == n)
		return;
	if (unlikely(swtim_lane_lock(&w->lane) != 0))
		return;	/* dead: its timers are lost */
	/* Drift-free: the next period counts from this expiry. */
	for (i = 0; whl->base.periodic && i < delivered; i++)
		due[i]->impl_opaque[0] +=
			due[i]->timeout_ticks << whl->base.grain_shift;
	for (i = delivered; i < n; i++)
		whl_wheel_link(whl, w, due[i]);
	swtim_lane_unlock(&w->lane);
}

/* Link the periodic timers whose events the device took for their next
 * period, from free-running buffer index first on. */
void
whl_periodic_resume(struct swtim_base *base, struct swtim_lane *lane,
		    uint32_t first, uint32_t n)
{
	struct whl_adapter *whl = whl_of_base(base);
	struct whl_wheel *w = whl_wheel_of(lane);
	uint32_t i;

	if (unlikely(swtim_lane_lock(&w->lane) != 0))
		return;
	for (i = 0; i < n; i++)
		whl_wheel_link(whl, w, (struct rte_event_timer *)
			       swtim_evbuf_tag_of(&lane->evbuf, first + i));
	swtim_lane_unlock(&w->lane);
}

/*
 * Something is due once the grain the wheel's clock is at has started
 * (cur <= the grain of now, said without a division), or when arms are
 * staged: they are linked (and may be due) only by a run.
 */
bool
whl_lane_due(const struct swtim_base *base, const struct swtim_lane *lane,
	     uint64_t now)
{
	const struct whl_wheel *w = whl_wheel_of(lane);
	uint64_t start;

	if (whl_stage_pending(w))
		return true;
	return __atomic_load_n(&w->nb_armed, __ATOMIC_RELAXED) != 0 &&
		!__builtin_mul_overflow(__atomic_load_n(&w->cur,
							__ATOMIC_RELAXED),
					base->grain_cycles, &start) &&
		start <= now - base->start_cycles;
}

/*
 * Expire up to max timers due on a claimed wheel by now's grain into the
 * lane's buffer. A burst whose events the buffer has no memory for goes
 * back on the wheel as due (whl_chunk_recycle()), and 0 says so: the
 * service tries on a later run.
 */
uint32_t
whl_lane_expire(struct swtim_base *base, struct swtim_lane *lane,
		uint64_t now, uint32_t max)
{
	struct whl_adapter *whl = whl_of_base(base);
	struct whl_wheel *w = whl_wheel_of(lane);
	struct rte_event_timer *due[SWTIM_EXPIRE_BURST];
	uint32_t n, delivered;

	if (unlikely(swtim_lane_lock(&w->lane) != 0))
		return 0;
	whl_stage_drain(whl, w, now);
	n = whl_wheel_expire(whl, w, swtim_base_grain_of(base, now),
			     RTE_MIN(max, (uint32_t)RTE_DIM(due)), due);
	swtim_lane_unlock(&w->lane);
	if (n == 0)
		return 0;
	delivered = whl_chunk_deliver(whl, w, due, n);
	whl_chunk_recycle(whl, w, due, n, delivered);
	return delivered;
}

/* The start of the earliest grain at which the wheel has work. */
uint64_t
whl_lane_next_deadline(const struct swtim_base *base,
		       const struct swtim_lane *lane)
{
	struct whl_wheel *w = whl_wheel_of(lane);
	uint64_t grain;

	/* Staged arms wait for a run to link them: now. */
	if (whl_stage_pending(w))
		return 0;
	if (__atomic_load_n(&w->nb_armed, __ATOMIC_RELAXED) == 0)
		return UINT64_MAX;
	if (unlikely(swtim_lane_lock(&w->lane) != 0))
		return UINT64_MAX;
	grain = whl_wheel_next_tick(w);
	swtim_lane_unlock(&w->lane);
	/* A timer is due once its grain has started; one too far ahead for
	 * the clock is never due. */
	if (grain == UINT64_MAX ||
	    __builtin_mul_overflow(grain, base->grain_cycles, &grain) ||
	    __builtin_add_overflow(grain, base->start_cycles, &grain))
		return UINT64_MAX;
	return grain;
}
