/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The skiplist driver's service. Each run looks at every list that has
 * ever held a timer; a list not scanned for a tick and not claimed by
 * another run is claimed, its expired timers are taken off with
 * rte_timer_alt_manage() and turned into expiry events in the list's own
 * buffer, and the buffer is offered to the device. Events the device
 * refuses stay in the buffer, in order, for the next run. Several service
 * lcores split the lists between them.
 */

#include <errno.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_per_lcore.h>

#include "skl_private.h"
#include "swtim_log.h"

/*
 * The list being scanned on this lcore: rte_timer_alt_manage()'s callback
 * gets only the timer, and the service only runs on EAL lcores.
 */
static RTE_DEFINE_PER_LCORE(struct skl_list *, skl_scanned);

/*
 * Arm a periodic timer for its next period (t->next_expire) on lcore's
 * list; a period already past falls due at once.
 */
static void
skl_periodic_rearm(struct skl_adapter *skl, struct skl_timer *t,
		   unsigned int lcore)
{
	uint64_t now = rte_get_timer_cycles();

	/* Cannot fail: the timer is stopped, or running on this lcore, and
	 * only we handle it. */
	RTE_VERIFY(rte_timer_alt_reset(skl->timer_data_id, &t->tim,
			t->next_expire > now ? t->next_expire - now : 0,
			SINGLE, lcore, NULL, skl) == 0);
}

/* Called by rte_timer_alt_manage() for each expired timer. */
static void
skl_timer_expired(struct rte_timer *tim)
{
	struct skl_timer *t = container_of(tim, struct skl_timer, tim);
	struct skl_adapter *skl = tim->arg;
	struct skl_list *list = RTE_PER_LCORE(skl_scanned);
	uintptr_t owner = __atomic_load_n(&t->owner, __ATOMIC_ACQUIRE);
	struct rte_event_timer *evtim =
		(struct rte_event_timer *)SKL_OWNER_EVTIM(owner);
	struct rte_event *ev;

	/*
	 * Before the owner turns BUSY: a cancel that sees BUSY looks for
	 * the event in this list's buffer, under this list's claim, which
	 * this scan holds until the event is there or the timer is ours
	 * no more. (Written even if a cancel wins below: it waits for us.)
	 */
	if (skl->periodic)
		__atomic_store_n(&t->waiting_list, list - skl->lists,
				 __ATOMIC_RELAXED);
	/* 0: cancelled, the canceller waits for us. BUSY cannot be seen
	 * here: a timer is on a list only while its owner is not BUSY. */
	if (owner == 0 || (owner & SKL_OWNER_BUSY) ||
	    !__atomic_compare_exchange_n(&t->owner, &owner,
			(uintptr_t)evtim | SKL_OWNER_BUSY, false,
			__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;

	ev = skl->periodic ? swtim_evbuf_slot_tagged(&list->evbuf,
						     (uintptr_t)t) :
		swtim_evbuf_slot(&list->evbuf);
	if (unlikely(ev == NULL)) {
		/*
		 * No memory (the buffer has said so, once).
		 * Armed and idle again before it is back on a list, where
		 * another service lcore may fire it at once (without ARMING:
		 * an arm still finishing then finds it moved and leaves it).
		 * A cancel from now on waits in rte_timer_alt_stop() until
		 * this callback is done, then stops the timer wherever we
		 * put it.
		 */
		__atomic_store_n(&t->owner, (uintptr_t)evtim,
				 __ATOMIC_RELEASE);
		if (skl->periodic) {
			/* Skip this period, on to the next. */
			t->next_expire = skl_cycles_add(t->next_expire,
							t->period);
			skl_periodic_rearm(skl, t, rte_lcore_id());
			list->stats.evtim_drop_count++;
		} else {
			/* Try again at the next tick, on our own list. */
			swtim_poll_set_join(&skl->polled, rte_lcore_id());
			rte_timer_alt_reset(skl->timer_data_id, tim,
					    skl->tick_cycles, SINGLE,
					    rte_lcore_id(), NULL, skl);
			list->stats.evtim_retry_count++;
		}
		return;
	}
	*ev = evtim->ev;
	ev->event_type = RTE_EVENT_TYPE_TIMER;
	ev->op = RTE_EVENT_OP_NEW;
	list->stats.evtim_exp_count++;

	if (skl->periodic) {
		/* Stays BUSY, off its list, until the device has the event
		 * (skl_list_flush()) or a cancel takes it back. Drift-free:
		 * the next period counts from this one's deadline. */
		t->next_expire = skl_cycles_add(t->next_expire, t->period);
		return;
	}
	/* NOT_ARMED before the event can be dequeued: the application may
	 * re-arm at once. The object is sent home only after
	 * rte_timer_alt_manage() has let go of it. */
	__atomic_store_n(&evtim->state, RTE_EVENT_TIMER_NOT_ARMED,
			 __ATOMIC_RELEASE);
	__atomic_store_n(&t->owner, 0, __ATOMIC_RELEASE);
	t->free_next = list->free_list;
	list->free_list = t;
}

/*
 * Send the objects of the timers that expired in the last scan home, in
 * runs of the same home lcore (usually one producer's whole scan).
 */
static void
skl_free_list_drain(struct skl_adapter *skl, struct skl_list *list)
{
	void *objs[SKL_FREE_BULK];
	struct skl_timer *t = list->free_list;
	unsigned int n = 0;
	uint16_t home = t != NULL ? t->home : 0;

	while (t != NULL) {
		struct skl_timer *next = t->free_next;

		if (n == RTE_DIM(objs) || t->home != home) {
			swtim_recycler_put_remote(skl->recycler, home, objs, n);
			n = 0;
			home = t->home;
		}
		objs[n++] = t;
		t = next;
	}
	if (n != 0)
		swtim_recycler_put_remote(skl->recycler, home, objs, n);
	list->free_list = NULL;
}

/*
 * Arm the periodic timers whose events the device took for their next
 * period, back on the list they expired from, and only then let cancel
 * have them (the list is ours while we scan it, so none fires meanwhile).
 */
static void
skl_periodic_resume(struct skl_adapter *skl, struct skl_list *list,
		    unsigned int lcore, uint32_t first, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct skl_timer *t = (struct skl_timer *)
			swtim_evbuf_tag_of(&list->evbuf, first + i);

		skl_periodic_rearm(skl, t, lcore);
		__atomic_store_n(&t->owner, t->owner & ~SKL_OWNER_BUSY,
				 __ATOMIC_RELEASE);
	}
}

/* Offer a list's buffered events to the device; return how many went. */
static uint32_t
skl_list_flush(struct skl_adapter *skl, struct skl_list *list,
	       struct swtim_evport *port, unsigned int lcore)
{
	uint32_t first = list->evbuf.head, accepted;

	/* A one-shot timer stops counting once the device has its event. */
	accepted = swtim_evbuf_flush(&list->evbuf, port,
				     skl->periodic ? NULL : &skl->budget,
				     &list->stats.evtim_retry_count);
	list->stats.ev_enq_count += accepted;
	if (skl->periodic && accepted != 0)
		skl_periodic_resume(skl, list, lcore, first, accepted);
	return accepted;
}

/*
 * Scan a list this run has claimed, if a tick has passed, and flush.
 * Return whether anything expired or went to the device.
 */
static bool
skl_list_scan(struct skl_adapter *skl, struct skl_list *list,
	      struct swtim_evport *port, unsigned int lcore, uint64_t now)
{
	uint64_t expired = list->stats.evtim_exp_count;
	uint32_t sent = 0;

	if (unlikely(list->evbuf.evs == NULL) &&
	    (skl->periodic ?
	     swtim_evbuf_init_tagged(&list->evbuf, 0, skl->socket) :
	     swtim_evbuf_init(&list->evbuf, 0, skl->socket)) != 0)
		return false;	/* no memory: the timers wait for a later run */
	if (now >= list->next_scan) {
		list->next_scan = now + skl->tick_cycles;
		RTE_PER_LCORE(skl_scanned) = list;
		rte_timer_alt_manage(skl->timer_data_id, &lcore, 1,
				     skl_timer_expired);
		skl_free_list_drain(skl, list);
	}
	if (swtim_evbuf_count(&list->evbuf) != 0)
		sent = skl_list_flush(skl, list, port, lcore);
	return sent != 0 || list->stats.evtim_exp_count != expired;
}

/*
 * librte_timer keeps its lists to itself, so the next deadline is the
 * next scan of a list while any timer is armed or any event waits.
 */
static uint64_t
skl_next_deadline_of(const struct skl_adapter *skl)
{
	uint32_t i, n_lists = swtim_poll_set_count(&skl->polled);
	uint64_t next = UINT64_MAX;

	for (i = 0; i < n_lists; i++) {
		const struct skl_list *list = &skl->lists[skl->polled.ids[i]];

		if (swtim_evbuf_count(&list->evbuf) != 0)
			return 0;
		next = RTE_MIN(next, __atomic_load_n(&list->next_scan,
						     __ATOMIC_RELAXED));
	}
	return __atomic_load_n(&skl->budget.used, __ATOMIC_RELAXED) == 0 ?
		UINT64_MAX : next;
}

uint64_t
skl_next_deadline(const struct swtim_adapter *adapter)
{
	return skl_next_deadline_of(swtim_adapter_priv(adapter));
}

/* Count adapter ticks: the run that moves next_tick on counts one. */
static void
skl_tick_account(struct skl_adapter *skl, uint64_t now)
{
	uint64_t next = __atomic_load_n(&skl->next_tick, __ATOMIC_RELAXED);

	if (now >= next && __atomic_compare_exchange_n(&skl->next_tick,
			&next, now + skl->tick_cycles, false,
			__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		__atomic_fetch_add(&skl->adapter_tick_count, 1,
				   __ATOMIC_RELAXED);
}

int32_t
skl_service_run(void *arg)
{
	struct skl_adapter *skl = arg;
	uint32_t i, n_lists;
	uint64_t now;
	int32_t ret = -EAGAIN;
	bool worked = false;

	if (!swtim_gate_enter(&skl->gate))
		goto out;
	if (unlikely(rte_lcore_id() >= RTE_MAX_LCORE)) {
		/* librte_timer indexes its per-lcore state by our lcore id. */
		SWTIM_LOG(ERR, "the service must run on an EAL lcore");
		goto out;
	}
	/*
	 * A periodic timer whose period had to be skipped (no memory for
	 * its event) is armed again on the service's own list, so that
	 * list must be scanned too.
	 */
	if (skl->periodic)
		swtim_poll_set_join(&skl->polled, rte_lcore_id());

	now = rte_get_timer_cycles();
	skl_tick_account(skl, now);
	n_lists = swtim_poll_set_count(&skl->polled);
	for (i = 0; i < n_lists; i++) {
		unsigned int lcore = skl->polled.ids[i];
		struct skl_list *list = &skl->lists[lcore];

		/* Unlocked hints: not due, and nothing to flush or events
		 * the device has just refused. */
		if (now < __atomic_load_n(&list->next_scan, __ATOMIC_RELAXED) &&
		    (swtim_evbuf_count(&list->evbuf) == 0 ||
		     swtim_evbuf_backing_off(&list->evbuf, now)))
			continue;
		if (__atomic_exchange_n(&list->scanning, 1, __ATOMIC_ACQUIRE))
			continue;	/* another service lcore has it */
		worked |= skl_list_scan(skl, list,
					swtim_evports_of(&skl->ports, i),
					lcore, now);
		__atomic_store_n(&list->scanning, 0, __ATOMIC_RELEASE);
		ret = 0;
	}
	swtim_evports_maintain(&skl->ports, now);
	if (skl->idle.max_sleep_us != 0)
		swtim_idle_after_run(&skl->idle, worked, worked ? 0 :
			skl_next_deadline_of(skl));
out:
	swtim_gate_leave(&skl->gate);
	return ret;
}
