/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Fast path of the skiplist driver: arm, cancel and remaining ticks. The
 * generic layer has checked every argument; what is left is the nb_timers
 * budget, the timer objects, and the race with the service.
 */

#include <errno.h>
#include <sched.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_pause.h>
#include <rte_prefetch.h>

#include "skl_private.h"

/*
 * Arm nb timers; tmo_ticks != 0 gives them all that timeout, 0 means each
 * its own. Stops at the budget (ENOSPC).
 */
static __rte_always_inline uint16_t
skl_arm(struct swtim_base *base, struct rte_event_timer **evtims,
	uint64_t tmo_ticks, uint16_t nb)
{
	struct skl_adapter *skl = skl_of_base(base);
	unsigned int lcore = swtim_lane_of_caller();
	struct swtim_lane *lane = &skl->lists[lcore].lane;
	struct skl_timer *objs[SKL_ARM_CHUNK];
	const uint16_t home = skl_recycler_owner();
	uint16_t budget, done = 0, chunk, got, i;
	uint64_t now = 0;
	int ret;

	swtim_poll_set_join(&skl->base.polled, lcore);
	/* The credit and the list, both under the lane's lock. */
	ret = swtim_base_arm_begin(&skl->base, lane, nb);
	if (unlikely(ret < 0)) {
		rte_errno = -ret;	/* logged when the lane died */
		return 0;
	}
	budget = ret;
	while (done < budget) {
		chunk = RTE_MIN(budget - done, SKL_ARM_CHUNK);
		/* There are nb_timers objects plus every cache's worth. */
		got = skl_recycler_get(skl->recycler, (void **)objs, chunk);
		/* The first period's anchor; librte_timer reads the clock
		 * again, later, so the deadline is never before it. */
		if (skl->base.periodic)
			now = rte_get_timer_cycles();
		for (i = 0; i < got; i++) {
			rte_prefetch0(objs[i]);
			rte_prefetch0(evtims[done + i]);
		}
		for (i = 0; i < got; i++) {
			struct rte_event_timer *evtim = evtims[done + i];
			struct skl_timer *t = objs[i];
			uint64_t ticks = tmo_ticks ? tmo_ticks :
					 evtim->timeout_ticks;
			uint64_t cycles = skl_ticks_to_cycles(skl, ticks);
			uintptr_t arming = (uintptr_t)evtim | SKL_OWNER_ARMING;

			/*
			 * A new arming, before anything of it is written: a
			 * remaining_ticks_get() that reads a deadline of this
			 * arming then sees the count change.
			 */
			__atomic_store_n(&t->armings, t->armings + 1,
					 __ATOMIC_RELAXED);
			__atomic_thread_fence(__ATOMIC_RELEASE);
			t->home = home;
			t->list = lcore;
			if (skl->base.periodic) {
				/* The service arms each period itself. */
				t->period = cycles;
				__atomic_store_n(&t->next_expire,
						 skl_cycles_add(now, cycles),
						 __ATOMIC_RELAXED);
			}
			evtim->impl_opaque[0] = (uintptr_t)t;
			evtim->impl_opaque[1] = (uintptr_t)skl;
			__atomic_store_n(&t->owner, arming, __ATOMIC_RELAXED);
			/* ARMED before the timer can fire and set NOT_ARMED. */
			__atomic_store_n(&evtim->state, RTE_EVENT_TIMER_ARMED,
					 __ATOMIC_RELEASE);
			/* Cannot fail: a free object is always stopped, and
			 * no cancel stops it while it is ARMING. */
			RTE_VERIFY(rte_timer_alt_reset(skl->timer_data_id,
					&t->tim, cycles, SINGLE, lcore, NULL,
					skl) == 0);
			/* On its list: cancel may have it now. If this fails,
			 * the service has it already. */
			__atomic_compare_exchange_n(&t->owner, &arming,
					(uintptr_t)evtim, false,
					__ATOMIC_RELEASE, __ATOMIC_RELAXED);
		}
		done += got;
		if (unlikely(got < chunk))
			break;	/* cannot happen: the budget bounds objects */
	}
	if (unlikely(done < budget))
		swtim_credit_give(&skl->base.budget, lane, budget - done);
	swtim_lane_unlock(lane);
	if (done < nb)
		rte_errno = ENOSPC;
	return done;
}

/* Two copies of the arm, one for each kind of call, each without the
 * other's per-timer test. */
uint16_t
skl_arm_burst(struct swtim_base *base,
	      struct rte_event_timer **evtims, uint64_t timeout_ticks,
	      uint16_t nb)
{
	if (timeout_ticks != 0)
		return skl_arm(base, evtims, timeout_ticks, nb);
	return skl_arm(base, evtims, 0, nb);
}

/*
 * Whether an ARMED timer's list is dead (a process died inside a call
 * holding it): then it will never expire, and cancel and remaining ticks
 * refuse it. Its object may have gone to another timer since (then the
 * list read is that timer's, and the state below tells nothing of ours),
 * so this is only asked of a timer the application says is ARMED.
 */
static __rte_always_inline bool
skl_timer_list_dead(const struct skl_adapter *skl, const struct skl_timer *t,
		    const struct rte_event_timer *evtim)
{
	return swtim_lane_dead(&skl->lists[__atomic_load_n(&t->list,
						__ATOMIC_RELAXED)].lane) &&
		__atomic_load_n(&evtim->state, __ATOMIC_ACQUIRE) ==
		RTE_EVENT_TIMER_ARMED;
}

uint64_t
skl_far_cycles(uint64_t cycles)
{
	const uint64_t end = UINT64_MAX - SKL_CLOCK_HEADROOM;
	uint64_t now = rte_get_timer_cycles();

	return RTE_MIN(cycles, now < end ? end - now : 0);
}

/*
 * Take a timer whose delivery we beat off its list, under the list's lane
 * lock, and give its slot to that lane's credit while the lock is held
 * (another lock, the canceller's own, would be a line that the list's
 * owner writes too: with two producers cancelling each other's timers
 * one at a time, a cancel cost 3.9x what it costs with one). 0, or
 * ENOTRECOVERABLE if that lane is dead. The service holds the lock while
 * it runs the list's timers, so the stop succeeds at once; the loop is
 * for a timer librte_timer still calls running all the same.
 */
static int
skl_timer_stop_wait(struct skl_adapter *skl, struct skl_timer *t)
{
	struct swtim_lane *lane = &skl->lists[t->list].lane;
	unsigned int spins = 0;
	int ret;

	for (;;) {
		if (unlikely(swtim_lane_lock(lane) != 0))
			return ENOTRECOVERABLE;
		ret = rte_timer_alt_stop(skl->timer_data_id, &t->tim);
		if (likely(ret == 0))
			swtim_credit_give(&skl->base.budget, lane, 1);
		swtim_lane_unlock(lane);
		if (likely(ret == 0))
			return 0;
		if (++spins % SKL_CANCEL_SPINS == 0)
			sched_yield();
		else
			rte_pause();
	}
}

/*
 * Cancel a periodic timer whose last event waits in a list's buffer
 * (owner evtim|BUSY, its rte_timer stopped, until the device takes the
 * event: skl_service.c): take the event back out of the buffer, which
 * needs the list's scan claim, so EAGAIN while a service run has the list
 * (it may be handing the event to the device right now). Without this,
 * such a cancel could only wait for the device, and for ever while the
 * adapter is stopped. Returns 0 once the object is ours (owner 0).
 */
static int
skl_cancel_waiting(struct skl_adapter *skl, struct skl_timer *t,
		   struct rte_event_timer *evtim)
{
	uintptr_t busy = (uintptr_t)evtim | SKL_OWNER_BUSY;
	struct skl_list *list = &skl->lists[__atomic_load_n(&t->waiting_list,
							    __ATOMIC_RELAXED)];
	int err = 0;

	if (!swtim_lane_claim(&list->lane))
		return swtim_lane_claim_errno(&list->lane);
	/*
	 * With the claim no run can resume the timer or be inside its
	 * callback, so if it still waits its event is in this buffer. If
	 * a run resumed it before we got the claim, it is armed again, or
	 * may even be BUSY for another list by now: ask again. Only once
	 * the event is out is the timer ours.
	 */
	if (__atomic_load_n(&t->owner, __ATOMIC_ACQUIRE) != busy ||
	    !swtim_evbuf_remove_tagged(&list->lane.evbuf, (uintptr_t)t)) {
		err = EAGAIN;
	} else {
		/* Nobody else changes a waiting owner without the claim. */
		RTE_VERIFY(__atomic_compare_exchange_n(&t->owner, &busy, 0,
				false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
		/* Taken back: it counted as expired when its event was
		 * built. */
		swtim_lane_stats_exp_take_back(&list->lane.stats);
	}
	swtim_lane_release(&list->lane);
	return err;
}

/*
 * Cancel a timer that expired while its list's buffer was full and waits
 * in the list's overflow queue, its event not built (owner evtim|QUEUED:
 * skl_service.c): take it out of the queue, which needs the list's claim,
 * so EAGAIN while a service run has the list (it may be moving the timer
 * into the buffer right now). Returns 0 once the object is ours.
 */
static int
skl_cancel_queued(struct skl_adapter *skl, struct skl_timer *t,
		  struct rte_event_timer *evtim)
{
	uintptr_t queued = (uintptr_t)evtim | SKL_OWNER_QUEUED;
	uint16_t id = __atomic_load_n(&t->waiting_list, __ATOMIC_RELAXED);
	struct skl_list *list = &skl->lists[id];
	int err = 0;

	if (!swtim_lane_claim(&list->lane))
		return swtim_lane_claim_errno(&list->lane);
	/*
	 * With the claim nothing leaves this list's queue but by us. Read
	 * under it, a queued owner and this list as the last to expire the
	 * timer mean it is in this queue (a queue elsewhere names its own
	 * list first); otherwise it moved on before we had the claim: ask
	 * again.
	 */
	if (__atomic_load_n(&t->owner, __ATOMIC_ACQUIRE) != queued ||
	    __atomic_load_n(&t->waiting_list, __ATOMIC_RELAXED) != id) {
		err = EAGAIN;
	} else {
		RTE_VERIFY(__atomic_compare_exchange_n(&t->owner, &queued, 0,
				false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
		skl_overflow_unlink(list, t);
	}
	swtim_lane_release(&list->lane);
	return err;
}

uint16_t
skl_cancel_burst(struct swtim_base *base,
		 struct rte_event_timer **evtims, uint16_t nb)
{
	struct skl_adapter *skl = skl_of_base(base);
	uint16_t i, unstopped = 0;
	int err;

	for (i = 0; i < nb; i++) {
		struct rte_event_timer *evtim = evtims[i];
		struct skl_timer *t = (struct skl_timer *)evtim->impl_opaque[0];
		uintptr_t expected = (uintptr_t)evtim;

		if (unlikely(evtim->impl_opaque[1] != (uintptr_t)skl ||
			     t == NULL)) {
			rte_errno = EINVAL;
			break;
		}
		/* Its list is dead: the timer is lost, leave its object. */
		if (unlikely(skl_timer_list_dead(skl, t, evtim))) {
			rte_errno = ENOTRECOVERABLE;
			break;
		}
		if (likely(__atomic_compare_exchange_n(&t->owner, &expected,
				0, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))) {
			/* On a dead list the object is lost with it. */
			err = skl_timer_stop_wait(skl, t);
			if (unlikely(err != 0)) {
				rte_errno = err;
				break;
			}
		} else if (expected == ((uintptr_t)evtim | SKL_OWNER_QUEUED)) {
			err = skl_cancel_queued(skl, t, evtim);
			if (err != 0) {
				rte_errno = err;
				break;
			}
			unstopped++;
		} else if (skl->base.periodic &&
			   expected == ((uintptr_t)evtim | SKL_OWNER_BUSY)) {
			err = skl_cancel_waiting(skl, t, evtim);
			if (err != 0) {
				rte_errno = err;
				break;
			}
			unstopped++;
		} else {
			/* The service is delivering it, or already has. */
			rte_errno = __atomic_load_n(&evtim->state,
				__ATOMIC_ACQUIRE) == RTE_EVENT_TIMER_ARMED ?
				EAGAIN : EINVAL;
			break;
		}
		__atomic_store_n(&evtim->state, RTE_EVENT_TIMER_CANCELED,
				 __ATOMIC_RELEASE);
		/*
		 * Into the canceller's own cache, whoever armed it: the
		 * stop has just brought the object's lines into this CPU's
		 * cache, and the canceller is likely to arm next. Sent home
		 * instead, every object another lcore cancelled made its
		 * home's next arm fetch it from this CPU: with two
		 * producers cancelling each other's timers, their own arms
		 * cost 1.5x, more each round (doc/performance.md).
		 */
		skl_recycler_put_local(skl->recycler, t);
	}
	/*
	 * The slots of timers taken off a list went to that list's credit
	 * with the stop; those of timers taken out of an overflow queue or
	 * an event buffer (no list lock held) go to the canceller's.
	 */
	if (unlikely(unstopped != 0)) {
		struct swtim_lane *lane =
			&skl->lists[swtim_lane_of_caller()].lane;

		if (likely(swtim_lane_lock(lane) == 0)) {
			swtim_credit_give(&skl->base.budget, lane, unstopped);
			swtim_lane_unlock(lane);
		} else {
			swtim_budget_give(&skl->base.budget, unstopped);
		}
	}
	return i;
}

int
skl_remaining_ticks_get(const struct swtim_base *base,
			const struct rte_event_timer *evtim,
			uint64_t *ticks_remaining)
{
	struct skl_adapter *skl = skl_of_base(base);
	const struct skl_timer *t =
		(const struct skl_timer *)evtim->impl_opaque[0];
	uint64_t expire, now;
	uintptr_t owner;
	uint32_t armings;

	if (evtim->impl_opaque[1] != (uintptr_t)skl || t == NULL)
		return -EINVAL;
	if (unlikely(skl_timer_list_dead(skl, t, evtim)))
		return -ENOTRECOVERABLE;
	/*
	 * No lock: read the deadline between two looks at the arming
	 * count, and again if an arming (of this timer or another one
	 * that took the object meanwhile) came in between.
	 */
	do {
		armings = __atomic_load_n(&t->armings, __ATOMIC_ACQUIRE);
		owner = __atomic_load_n(&t->owner, __ATOMIC_ACQUIRE);
		if (SKL_OWNER_EVTIM(owner) != (uintptr_t)evtim)
			return -EINVAL;
		if (owner & SKL_OWNER_ARMING) {
			/* Being armed right now: all of it is left. */
			*ticks_remaining = evtim->timeout_ticks;
			return 0;
		}
		/* A periodic timer whose event waits for the device is
		 * not on a list: its next period is due at next_expire
		 * (a queued one's, its deadline past, is this period's). */
		expire = skl->base.periodic &&
			(owner & (SKL_OWNER_BUSY | SKL_OWNER_QUEUED)) ?
			__atomic_load_n(&t->next_expire, __ATOMIC_RELAXED) :
			__atomic_load_n(&t->tim.expire, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&t->armings, __ATOMIC_RELAXED) != armings);
	now = rte_get_timer_cycles();
	*ticks_remaining = expire <= now ? 0 :
		(expire - now + skl->base.tick_cycles - 1) / skl->base.tick_cycles;
	/* librte_timer counts the deadline from its own, later, reading of
	 * the clock; another CPU's clock may lag it a little. */
	*ticks_remaining = RTE_MIN(*ticks_remaining, evtim->timeout_ticks);
	return 0;
}
