/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * What the service (swtim_service.c) asks of an lcore's list: whether it
 * is due (a grain has passed since its last scan), to expire its due
 * timers into the lane's buffer (rte_timer_alt_manage() takes them off
 * the list, the callback builds their events), when it is due next, and
 * to put periodic timers back for their next period. The service offers
 * the buffer to the device itself.
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

	/* Cannot fail: the timer is stopped, and only we handle it. */
	RTE_VERIFY(rte_timer_alt_reset(skl->timer_data_id, &t->tim,
			t->next_expire > now ? t->next_expire - now : 0,
			SINGLE, lcore, NULL, skl) == 0);
}

/*
 * Turn timer t, BUSY for event timer evtim, into its expiry event at the
 * tail of the list's buffer, in which the caller made room for one.
 */
static void
skl_event_put(struct skl_adapter *skl, struct skl_list *list,
	      struct skl_timer *t, struct rte_event_timer *evtim)
{
	struct rte_event *ev = swtim_evbuf_at(&list->lane.evbuf, 0);

	*ev = evtim->ev;
	ev->event_type = RTE_EVENT_TYPE_TIMER;
	ev->op = RTE_EVENT_OP_NEW;
	if (skl->base.periodic)
		*swtim_evbuf_tag_at(&list->lane.evbuf, 0) = (uintptr_t)t;
	swtim_evbuf_commit(&list->lane.evbuf, 1);
	list->lane.stats.evtim_exp_count++;

	if (skl->base.periodic) {
		/* Stays BUSY, off its list, until the device has the event
		 * (skl_periodic_resume()) or a cancel takes it back. Drift-free:
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

/* Queue t, BUSY for evtim, behind the list's full buffer. */
static void
skl_overflow_push(struct skl_list *list, struct skl_timer *t,
		  struct rte_event_timer *evtim)
{
	t->free_next = NULL;
	t->queue_prev = list->overflow_tail;
	if (list->overflow_head == NULL)
		__atomic_store_n(&list->overflow_head, t, __ATOMIC_RELAXED);
	else
		list->overflow_tail->free_next = t;
	list->overflow_tail = t;
	/* Last: from here on a cancel may have it (skl_cancel_queued()). */
	__atomic_store_n(&t->owner, (uintptr_t)evtim | SKL_OWNER_QUEUED,
			 __ATOMIC_RELEASE);
}

void
skl_overflow_unlink(struct skl_list *list, struct skl_timer *t)
{
	if (t->queue_prev == NULL)
		__atomic_store_n(&list->overflow_head, t->free_next,
				 __ATOMIC_RELAXED);
	else
		t->queue_prev->free_next = t->free_next;
	if (t->free_next == NULL)
		list->overflow_tail = t->queue_prev;
	else
		t->free_next->queue_prev = t->queue_prev;
	t->free_next = NULL;
	t->queue_prev = NULL;
}

/*
 * Move queued timers into the buffer while it has room for them, oldest
 * first. Returns how many left the queue.
 */
static uint32_t
skl_overflow_drain(struct skl_adapter *skl, struct skl_list *list)
{
	struct skl_timer *t;
	uint32_t moved = 0;
	uintptr_t owner;

	while ((t = list->overflow_head) != NULL &&
	       swtim_evbuf_count(&list->lane.evbuf) < SKL_EVBUF_CAP &&
	       swtim_evbuf_reserve(&list->lane.evbuf, 1)) {
		skl_overflow_unlink(list, t);
		moved++;
		/* Only a cancel holding this list's claim changes a queued
		 * owner, and the claim is ours. */
		owner = __atomic_load_n(&t->owner, __ATOMIC_ACQUIRE);
		RTE_VERIFY(owner & SKL_OWNER_QUEUED);
		__atomic_store_n(&t->owner, SKL_OWNER_EVTIM(owner) |
				 SKL_OWNER_BUSY, __ATOMIC_RELEASE);
		skl_event_put(skl, list, t,
			      (struct rte_event_timer *)SKL_OWNER_EVTIM(owner));
	}
	return moved;
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

	/*
	 * Before the owner turns BUSY: a cancel that sees BUSY (periodic)
	 * or QUEUED looks for the timer in this list's buffer or queue,
	 * under this list's claim, which this scan holds until the event or
	 * the timer is there or the timer is ours no more. (Written even if
	 * a cancel wins below: it waits for us.)
	 */
	__atomic_store_n(&t->waiting_list, list->lane.id, __ATOMIC_RELAXED);
	/* 0: cancelled, the canceller waits for us. BUSY cannot be seen
	 * here: a timer is on a list only while its owner is not BUSY. */
	if (owner == 0 || (owner & SKL_OWNER_BUSY) ||
	    !__atomic_compare_exchange_n(&t->owner, &owner,
			(uintptr_t)evtim | SKL_OWNER_BUSY, false,
			__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;

	/*
	 * Behind the queue, in order, if there is one; and queued too when
	 * the buffer has no room and no memory to grow (it has said so,
	 * once): the queue costs no memory, and each scan tries again to
	 * move it into the buffer, so nothing is dropped or reordered.
	 */
	if (list->overflow_head != NULL ||
	    swtim_evbuf_count(&list->lane.evbuf) >= SKL_EVBUF_CAP ||
	    unlikely(!swtim_evbuf_reserve(&list->lane.evbuf, 1))) {
		skl_overflow_push(list, t, evtim);
		return;
	}
	skl_event_put(skl, list, t, evtim);
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
			skl_recycler_put_remote(skl->recycler, home, objs, n);
			n = 0;
			home = t->home;
		}
		objs[n++] = t;
		t = next;
	}
	if (n != 0)
		skl_recycler_put_remote(skl->recycler, home, objs, n);
	list->free_list = NULL;
}

/*
 * Arm the periodic timers whose events the device took for their next
 * period, back on the list they expired from, and only then let cancel
 * have them (the list is ours while we scan it, so none fires meanwhile).
 */
void
skl_periodic_resume(struct swtim_base *base, struct swtim_lane *lane,
		    uint32_t first, uint32_t n)
{
	struct skl_adapter *skl = skl_of_base(base);
	uint32_t i;

	/* librte_timer calls on the list: under its lane's lock. */
	if (unlikely(swtim_lane_lock(lane) != 0))
		return;	/* dead: its timers are lost */
	for (i = 0; i < n; i++) {
		struct skl_timer *t = (struct skl_timer *)
			swtim_evbuf_tag_of(&lane->evbuf, first + i);

		skl_periodic_rearm(skl, t, lane->id);
		__atomic_store_n(&t->owner, t->owner & ~SKL_OWNER_BUSY,
				 __ATOMIC_RELEASE);
	}
	swtim_lane_unlock(lane);
}

/* A list is due once a grain (swtim_base.h) has passed since its last
 * scan: its timers' deadlines are exact, so they are at most a grain late,
 * wherever in a tick they were armed. One with timers queued for room in
 * its buffer is due at once. */
bool
skl_lane_due(const struct swtim_base *base, const struct swtim_lane *lane,
	     uint64_t now)
{
	const struct skl_list *list =
		container_of(lane, const struct skl_list, lane);

	return now >= __atomic_load_n(&list->next_scan, __ATOMIC_RELAXED) ||
		__atomic_load_n(&list->overflow_head, __ATOMIC_RELAXED) !=
		NULL;
}

/*
 * Expire a claimed list that is due into its empty buffer. What its
 * overflow queue holds goes first, and while anything is left there
 * nothing new is expired: the due timers wait on the list, where they
 * cost nothing more, and come out in order. rte_timer_alt_manage() takes
 * everything due at once, so max does not bound it: what does not fit
 * in SKL_EVBUF_CAP events is queued. Returns the events put in the
 * buffer.
 */
uint32_t
skl_lane_expire(struct swtim_base *base, struct swtim_lane *lane,
		uint64_t now, uint32_t max __rte_unused)
{
	struct skl_adapter *skl = skl_of_base(base);
	struct skl_list *list = skl_list_of(lane);
	uint64_t expired = lane->stats.evtim_exp_count;
	unsigned int lcore = lane->id;
	uint32_t moved;

	if (list->overflow_head != NULL) {
		moved = skl_overflow_drain(skl, list);
		skl_free_list_drain(skl, list);
		if (moved != 0 || list->overflow_head != NULL)
			return moved;
	}
	if (now < list->next_scan)
		return 0;
	__atomic_store_n(&list->next_scan, now + base->grain_cycles,
			 __ATOMIC_RELAXED);
	RTE_PER_LCORE(skl_scanned) = list;
	/* The lane's producers wait for this run's callbacks: a cancel's
	 * stop then never finds its timer running (skl_fastpath.c). */
	if (unlikely(swtim_lane_lock(lane) != 0))
		return 0;
	rte_timer_alt_manage(skl->timer_data_id, &lcore, 1, skl_timer_expired);
	swtim_lane_unlock(lane);
	skl_free_list_drain(skl, list);
	return (uint32_t)(lane->stats.evtim_exp_count - expired);
}

/*
 * librte_timer keeps its lists to itself, so the next deadline is the
 * next scan of a list (asked only while a timer may be armed).
 */
uint64_t
skl_lane_next_deadline(const struct swtim_base *base,
		       const struct swtim_lane *lane)
{
	const struct skl_list *list =
		container_of(lane, const struct skl_list, lane);

	if (__atomic_load_n(&list->overflow_head, __ATOMIC_RELAXED) != NULL)
		return 0;
	return __atomic_load_n(&list->next_scan, __ATOMIC_RELAXED);
}

bool
skl_run_begin(struct swtim_base *base __rte_unused)
{
	if (unlikely(rte_lcore_id() >= RTE_MAX_LCORE)) {
		/* librte_timer indexes its per-lcore state by our lcore id. */
		SWTIM_LOG(ERR, "the service must run on an EAL lcore");
		return false;
	}
	return true;
}
