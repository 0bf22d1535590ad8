/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The skiplist driver's service: once per adapter tick it takes the
 * expired timers off the lists that have ever held one, turns each into
 * its expiry event, and enqueues the events in bursts. Events the device
 * refuses stay in a FIFO and are offered again on every later run.
 *
 * The service is registered as not MT safe, so librte_service runs it on
 * one lcore at a time even when several service lcores are mapped; the
 * event buffer, the free list and the stats need no lock.
 */

#include <errno.h>

#include <rte_cycles.h>
#include <rte_lcore.h>

#include "skl_private.h"
#include "swtim_log.h"

/* Called by rte_timer_alt_manage() for each expired timer. */
static void
skl_timer_expired(struct rte_timer *tim)
{
	struct skl_timer *t = container_of(tim, struct skl_timer, tim);
	struct skl_adapter *skl = tim->arg;
	uintptr_t owner = __atomic_load_n(&t->owner, __ATOMIC_ACQUIRE);
	struct rte_event_timer *evtim = (struct rte_event_timer *)owner;
	struct rte_event *ev;

	if (owner == 0 || !__atomic_compare_exchange_n(&t->owner, &owner,
			owner | SKL_OWNER_BUSY, false, __ATOMIC_ACQ_REL,
			__ATOMIC_ACQUIRE)) {
		/*
		 * Cancelled: the canceller waits for us and frees the
		 * object. A periodic timer must not be put back on its list.
		 */
		if (skl->periodic)
			rte_timer_alt_stop(skl->timer_data_id, tim);
		return;
	}

	ev = swtim_evbuf_slot(&skl->evbuf);
	if (unlikely(ev == NULL)) {
		/* Only periodic timers get here; skip this period. */
		SWTIM_LOG(ERR, "no memory to keep an expiry event");
		skl->stats.evtim_drop_count++;
		__atomic_store_n(&t->owner, owner, __ATOMIC_RELEASE);
		return;
	}
	*ev = evtim->ev;
	ev->event_type = RTE_EVENT_TYPE_TIMER;
	ev->op = RTE_EVENT_OP_NEW;
	skl->stats.evtim_exp_count++;

	if (skl->periodic) {
		__atomic_store_n(&t->owner, owner, __ATOMIC_RELEASE);
		return;
	}
	/* NOT_ARMED before the event can be dequeued: the application may
	 * re-arm at once. The object is sent home only after
	 * rte_timer_alt_manage() has let go of it. */
	__atomic_store_n(&evtim->state, RTE_EVENT_TIMER_NOT_ARMED,
			 __ATOMIC_RELEASE);
	__atomic_store_n(&t->owner, 0, __ATOMIC_RELEASE);
	t->free_next = skl->free_list;
	skl->free_list = t;
}

/*
 * Send the objects of the timers that expired in the last scan home, in
 * runs of the same home lcore (usually one producer's whole scan).
 */
static void
skl_free_list_drain(struct skl_adapter *skl)
{
	void *objs[SKL_FREE_BULK];
	struct skl_timer *t = skl->free_list;
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
	skl->free_list = NULL;
}

/* Offer the buffered events to the device. */
static void
skl_evbuf_flush(struct skl_adapter *skl)
{
	uint32_t accepted = swtim_evbuf_flush(&skl->evbuf,
					      &skl->stats.evtim_retry_count);

	skl->stats.ev_enq_count += accepted;
	/* A one-shot timer stops counting once the device has its event. */
	if (!skl->periodic)
		swtim_budget_give(&skl->budget, accepted);
}

int32_t
skl_service_run(void *arg)
{
	struct skl_adapter *skl = arg;
	uint64_t now;
	uint32_t n_lists;
	int32_t ret = -EAGAIN;

	/* Pairs with skl_stop(): either it sees us inside, or we see it
	 * has stopped the adapter. */
	__atomic_fetch_add(&skl->in_service, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&skl->running, __ATOMIC_SEQ_CST))
		goto out;

	if (unlikely(rte_lcore_id() >= RTE_MAX_LCORE)) {
		/* librte_timer indexes its per-lcore state by our lcore id. */
		SWTIM_LOG(ERR, "the service must run on an EAL lcore");
		goto out;
	}
	/*
	 * librte_timer puts a periodic timer back on the list of the lcore
	 * that ran it, so the service's own list must be scanned too.
	 */
	if (skl->periodic)
		skl_poll_set_join(skl, rte_lcore_id());

	now = rte_get_timer_cycles();
	if (now >= skl->next_tick) {
		skl->next_tick = now + skl->tick_cycles;
		skl->stats.adapter_tick_count++;
		n_lists = __atomic_load_n(&skl->n_poll_lcores,
					  __ATOMIC_ACQUIRE);
		if (n_lists > 0) {
			rte_timer_alt_manage(skl->timer_data_id,
					     skl->poll_lcores, n_lists,
					     skl_timer_expired);
			skl_free_list_drain(skl);
		}
		ret = 0;
	}
	if (swtim_evbuf_count(&skl->evbuf) != 0) {
		skl_evbuf_flush(skl);
		ret = 0;
	}
	swtim_evbuf_maintain(&skl->evbuf);
out:
	__atomic_fetch_sub(&skl->in_service, 1, __ATOMIC_RELEASE);
	return ret;
}
