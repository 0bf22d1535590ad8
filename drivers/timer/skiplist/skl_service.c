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
#include <string.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "skl_private.h"
#include "swtim_log.h"

int
skl_evbuf_init(struct skl_evbuf *buf, uint64_t nb_timers, int socket)
{
	uint64_t size = rte_align64pow2(RTE_MAX(nb_timers,
						(uint64_t)SKL_EVBUF_MIN));

	/* One-shot events count against nb_timers until enqueued, so a
	 * buffer of nb_timers never has to grow for them. */
	if (size > UINT32_MAX / 2)
		size = (UINT32_MAX / 2) + 1;
	memset(buf, 0, sizeof(*buf));
	buf->evs = rte_malloc_socket("skl_evbuf", size * sizeof(buf->evs[0]),
				     RTE_CACHE_LINE_SIZE, socket);
	if (buf->evs == NULL)
		return -ENOMEM;
	buf->mask = size - 1;
	return 0;
}

void
skl_evbuf_free(struct skl_evbuf *buf)
{
	rte_free(buf->evs);
	buf->evs = NULL;
}

/*
 * Double the buffer, keeping the events in order. Only periodic timers
 * can need it: their events do not count against nb_timers.
 */
static int
skl_evbuf_grow(struct skl_evbuf *buf)
{
	uint32_t size = buf->mask + 1, n = buf->tail - buf->head, i;
	struct rte_event *evs;

	if (size > UINT32_MAX / 2)
		return -ENOSPC;
	evs = rte_malloc("skl_evbuf", 2 * (size_t)size * sizeof(evs[0]),
			 RTE_CACHE_LINE_SIZE);
	if (evs == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		evs[i] = buf->evs[(buf->head + i) & buf->mask];
	rte_free(buf->evs);
	buf->evs = evs;
	buf->tried = buf->tried - buf->head;
	buf->head = 0;
	buf->tail = n;
	buf->mask = 2 * size - 1;
	return 0;
}

/* Called by rte_timer_alt_manage() for each expired timer. */
static void
skl_timer_expired(struct rte_timer *tim)
{
	struct skl_timer *t = container_of(tim, struct skl_timer, tim);
	struct skl_adapter *skl = tim->arg;
	struct skl_evbuf *buf = &skl->evbuf;
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

	if (unlikely(buf->tail - buf->head > buf->mask) &&
	    skl_evbuf_grow(buf) != 0) {
		/* Only periodic timers get here; skip this period. */
		SWTIM_LOG(ERR, "no memory to keep an expiry event");
		skl->stats.evtim_drop_count++;
		__atomic_store_n(&t->owner, owner, __ATOMIC_RELEASE);
		return;
	}
	ev = &buf->evs[buf->tail++ & buf->mask];
	*ev = evtim->ev;
	ev->event_type = RTE_EVENT_TYPE_TIMER;
	ev->op = RTE_EVENT_OP_NEW;
	skl->stats.evtim_exp_count++;

	if (skl->periodic) {
		__atomic_store_n(&t->owner, owner, __ATOMIC_RELEASE);
		return;
	}
	/* NOT_ARMED before the event can be dequeued: the application may
	 * re-arm at once. The object goes back to the pool only after
	 * rte_timer_alt_manage() has let go of it. */
	__atomic_store_n(&evtim->state, RTE_EVENT_TIMER_NOT_ARMED,
			 __ATOMIC_RELEASE);
	__atomic_store_n(&t->owner, 0, __ATOMIC_RELEASE);
	t->free_next = skl->free_list;
	skl->free_list = t;
}

/* Return the objects of the timers that expired in the last scan. */
static void
skl_free_list_drain(struct skl_adapter *skl)
{
	void *objs[SKL_ENQ_BURST_MAX];
	unsigned int n = 0;
	struct skl_timer *t = skl->free_list;

	while (t != NULL) {
		objs[n++] = t;
		t = t->free_next;
		if (n == RTE_DIM(objs) || t == NULL) {
			rte_mempool_put_bulk(skl->pool, objs, n);
			n = 0;
		}
	}
	skl->free_list = NULL;
}

/*
 * Offer buffered events to the device until it refuses some. rte_errno is
 * not looked at after a short enqueue: some devices leave it stale.
 */
static void
skl_evbuf_flush(struct skl_adapter *skl)
{
	struct skl_evbuf *buf = &skl->evbuf;
	uint32_t n, first, accepted, start;

	while (buf->head != buf->tail) {
		first = buf->head & buf->mask;
		n = RTE_MIN(buf->tail - buf->head, (uint32_t)skl->enq_burst);
		n = RTE_MIN(n, buf->mask + 1 - first);
		accepted = rte_event_enqueue_new_burst(skl->dev_id,
				skl->port_id, &buf->evs[first], n);
		buf->head += accepted;
		skl->stats.ev_enq_count += accepted;
		if (!skl->periodic)
			skl_outstanding_release(skl, accepted);
		if (accepted < n)
			break;
	}
	/* Events new since the last flush that are still here are retries. */
	start = (int32_t)(buf->head - buf->tried) > 0 ? buf->head : buf->tried;
	skl->stats.evtim_retry_count += buf->tail - start;
	buf->tried = buf->tail;
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
	if (skl->evbuf.head != skl->evbuf.tail) {
		skl_evbuf_flush(skl);
		ret = 0;
	}
	if (skl->needs_maintenance)
		rte_event_maintain(skl->dev_id, skl->port_id, 0);
out:
	__atomic_fetch_sub(&skl->in_service, 1, __ATOMIC_RELEASE);
	return ret;
}
