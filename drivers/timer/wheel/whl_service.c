/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The wheel driver's service. Each run works out the current tick, and for
 * every wheel that has ever been armed into and that no other run has
 * claimed: expires what is due in chunks (the wheel's lock held only while
 * taking a chunk off the wheel and while recycling it), turns each timer
 * into its expiry event in the wheel's event buffer, and offers the buffer
 * to the device. The service is MT safe: several service lcores split the
 * wheels between them.
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

	if (unlikely(!swtim_evbuf_reserve(&w->evbuf, n)))
		return 0;
	/* The event timers are usually not in cache (a uniform block is
	 * cascaded without reading them): fetch them a few timers ahead. */
	for (i = 0; i < RTE_MIN(n, (uint32_t)WHL_PREFETCH_AHEAD); i++)
		rte_prefetch0(due[i]);
	for (i = 0; i < n; i++) {
		struct rte_event_timer *evtim = due[i];

		if (i + WHL_PREFETCH_AHEAD < n)
			rte_prefetch0(due[i + WHL_PREFETCH_AHEAD]);
		ev = swtim_evbuf_at(&w->evbuf, i);
		*ev = evtim->ev;
		ev->event_type = RTE_EVENT_TYPE_TIMER;
		ev->op = RTE_EVENT_OP_NEW;
		/* NOT_ARMED before the event can be dequeued: the
		 * application may re-arm at once, so this is the last
		 * access to the timer. A periodic timer stays ARMED, and
		 * off the wheel until the device takes its event
		 * (whl_wheel_flush). */
		if (!whl->periodic)
			__atomic_store_n(&evtim->state,
					 RTE_EVENT_TIMER_NOT_ARMED,
					 __ATOMIC_RELEASE);
		else
			*swtim_evbuf_tag_at(&w->evbuf, i) = (uintptr_t)evtim;
	}
	swtim_evbuf_commit(&w->evbuf, n);
	w->stats.evtim_exp_count += n;
	return n;
}

/*
 * After a chunk's delivery: a one-shot timer delivered is the
 * application's again, nothing to do. A periodic timer whose event is in
 * the buffer stays off the wheel, its next period set, until the device
 * has taken the event (whl_wheel_flush()); a cancel meanwhile takes the
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

	if (!whl->periodic && delivered == n)
		return;
	rte_spinlock_lock(&w->lock);
	/* Drift-free: the next period counts from this expiry. */
	for (i = 0; whl->periodic && i < delivered; i++)
		due[i]->impl_opaque[0] += due[i]->timeout_ticks;
	for (i = delivered; i < n; i++)
		whl_wheel_link(whl, w, due[i]);
	rte_spinlock_unlock(&w->lock);
}

/* Link the periodic timers whose events the device took for their next
 * period, from free-running buffer index first on. */
static void
whl_periodic_relink(struct whl_adapter *whl, struct whl_wheel *w,
		    uint32_t first, uint32_t n)
{
	uint32_t i;

	rte_spinlock_lock(&w->lock);
	for (i = 0; i < n; i++)
		whl_wheel_link(whl, w, (struct rte_event_timer *)
			       swtim_evbuf_tag_of(&w->evbuf, first + i));
	rte_spinlock_unlock(&w->lock);
}

/* Offer a wheel's events to the device; return how many went. */
static uint32_t
whl_wheel_flush(struct whl_adapter *whl, struct whl_wheel *w,
		struct swtim_evport *port)
{
	uint32_t first = w->evbuf.head, accepted;

	/* A one-shot timer stops counting once the device has its event. */
	accepted = swtim_evbuf_flush(&w->evbuf, port,
				     whl->periodic ? NULL : &whl->budget,
				     &w->stats.evtim_retry_count);
	w->stats.ev_enq_count += accepted;
	if (whl->periodic && accepted != 0)
		whl_periodic_relink(whl, w, first, accepted);
	return accepted;
}

/*
 * Expire what is due on a wheel this run has claimed, and flush. Return
 * whether anything expired or went to the device.
 */
static bool
whl_wheel_scan(struct whl_adapter *whl, struct whl_wheel *w,
	       struct swtim_evport *port, uint64_t target)
{
	struct rte_event_timer *due[WHL_EXPIRE_CHUNK];
	uint32_t n, delivered, expired = 0, sent = 0;

	if (unlikely(w->evbuf.evs == NULL) &&
	    (whl->periodic ?
	     swtim_evbuf_init_tagged(&w->evbuf, 0, whl->socket) :
	     swtim_evbuf_init(&w->evbuf, 0, whl->socket)) != 0)
		return false;	/* no memory: the timers wait for a later run */
	/*
	 * Offer what is already waiting first: if the device still refuses
	 * it, expiring more now would only grow the buffer; the due timers
	 * stay on the wheel, still counted, until the device takes events.
	 */
	if (swtim_evbuf_count(&w->evbuf) != 0) {
		sent += whl_wheel_flush(whl, w, port);
		if (swtim_evbuf_count(&w->evbuf) != 0)
			return sent != 0;
	}
	do {
		rte_spinlock_lock(&w->lock);
		n = whl_wheel_expire(whl, w, target, RTE_DIM(due), due);
		rte_spinlock_unlock(&w->lock);
		if (n == 0)
			break;
		delivered = whl_chunk_deliver(whl, w, due, n);
		whl_chunk_recycle(whl, w, due, n, delivered);
		expired += delivered;
		if (unlikely(delivered < n))
			break;	/* no memory (the buffer said so): retry */
		/* Each chunk goes to the device at once, so that workers
		 * start on a large expiry before the scan ends. */
		sent += whl_wheel_flush(whl, w, port);
	} while (n == RTE_DIM(due) && swtim_evbuf_count(&w->evbuf) == 0);
	return expired != 0 || sent != 0;
}

/* The start of the earliest tick at which any wheel has work. */
static uint64_t
whl_next_deadline_of(struct whl_adapter *whl)
{
	uint32_t i, nb_polled = swtim_poll_set_count(&whl->polled);
	uint64_t tick = UINT64_MAX;

	for (i = 0; i < nb_polled; i++) {
		struct whl_wheel *w = &whl->wheels[whl->polled.ids[i]];

		if (swtim_evbuf_count(&w->evbuf) != 0)
			return 0;
		if (__atomic_load_n(&w->nb_armed, __ATOMIC_RELAXED) == 0)
			continue;
		rte_spinlock_lock(&w->lock);
		tick = RTE_MIN(tick, whl_wheel_next_tick(w));
		rte_spinlock_unlock(&w->lock);
	}
	/* A timer is due once its tick has started; one too far ahead for
	 * the clock is never due. */
	if (tick == UINT64_MAX ||
	    __builtin_mul_overflow(tick, whl->tick_cycles, &tick) ||
	    __builtin_add_overflow(tick, whl->start_cycles, &tick))
		return UINT64_MAX;
	return tick;
}

uint64_t
whl_next_deadline(const struct swtim_adapter *adapter)
{
	return whl_next_deadline_of(swtim_adapter_priv(adapter));
}

/* Count the ticks the adapter has moved through, once whoever sees them. */
static void
whl_ticks_account(struct whl_adapter *whl, uint64_t target)
{
	uint64_t done = __atomic_load_n(&whl->ticks_done, __ATOMIC_RELAXED);

	while (target > done)
		if (__atomic_compare_exchange_n(&whl->ticks_done, &done,
				target, true, __ATOMIC_RELAXED,
				__ATOMIC_RELAXED)) {
			__atomic_fetch_add(&whl->adapter_tick_count,
					   target - done, __ATOMIC_RELAXED);
			break;
		}
}

int32_t
whl_service_run(void *arg)
{
	struct whl_adapter *whl = arg;
	uint32_t i, nb_polled;
	uint64_t now, target;
	int32_t ret = -EAGAIN;
	bool worked = false;

	if (!swtim_gate_enter(&whl->gate))
		goto out;

	now = rte_get_timer_cycles();
	target = whl_tick_of(whl, now);
	whl_ticks_account(whl, target);
	nb_polled = swtim_poll_set_count(&whl->polled);
	for (i = 0; i < nb_polled; i++) {
		struct whl_wheel *w = &whl->wheels[whl->polled.ids[i]];

		/*
		 * Unlocked hints: nothing to flush and nothing due; or events
		 * the device has just refused, which hold back what is due
		 * anyway (whl_wheel_scan()).
		 */
		if (swtim_evbuf_count(&w->evbuf) != 0 ?
		    swtim_evbuf_backing_off(&w->evbuf, now) :
		    (__atomic_load_n(&w->nb_armed, __ATOMIC_RELAXED) == 0 ||
		     __atomic_load_n(&w->cur, __ATOMIC_RELAXED) > target))
			continue;
		if (__atomic_exchange_n(&w->scanning, 1, __ATOMIC_ACQUIRE))
			continue;	/* another service lcore has it */
		worked |= whl_wheel_scan(whl, w,
					 swtim_evports_of(&whl->ports, i),
					 target);
		__atomic_store_n(&w->scanning, 0, __ATOMIC_RELEASE);
		ret = 0;
	}
	swtim_evports_maintain(&whl->ports, now);
	if (whl->idle.max_sleep_us != 0)
		swtim_idle_after_run(&whl->idle, worked, worked ? 0 :
			whl_next_deadline_of(whl));
out:
	swtim_gate_leave(&whl->gate);
	return ret;
}
