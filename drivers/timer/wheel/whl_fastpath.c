/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Fast path of the wheel driver: arm, cancel and remaining ticks. The
 * generic layer has checked every argument.
 *
 * An arm burst takes the lock of the caller's own wheel once, and its
 * budget from that lane's credit under it (swtim_budget.h); converting
 * the time to ticks is a multiply and a shift (rte_reciprocal), and
 * linking a timer is a count-leading-zeros and a few stores, to the
 * timer and to its slot's top block.
 */

#include <errno.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_pause.h>
#include <rte_prefetch.h>

#include "whl_slot.h"

/* The grain a timer armed at now_grain with a timeout of ticks adapter
 * ticks is due at; one past the last grain a 64-bit count reaches is never
 * due. */
static __rte_always_inline uint64_t
whl_expiry_of(const struct whl_adapter *whl, uint64_t now_grain,
	      uint64_t ticks)
{
	unsigned int shift = whl->base.grain_shift;
	uint64_t expiry;

	if (unlikely(ticks > UINT64_MAX >> shift ||
		     __builtin_add_overflow(now_grain, ticks << shift,
					    &expiry)))
		return UINT64_MAX;
	return expiry;
}

/*
 * Start an arm of nb timers on wheel w, the caller's (wheel_id): lock it
 * and take their budget (swtim_base_arm_begin()), and give *now_grain the
 * grain their timeouts count from. Returns the slots taken, with the lock
 * held; 0 (ENOSPC) or -ENOTRECOVERABLE (a dead lane, logged when it
 * died) without it, rte_errno set.
 */
static __rte_always_inline int
whl_arm_begin(struct whl_adapter *whl, struct whl_wheel *w,
	      unsigned int wheel_id, uint16_t nb, uint64_t *now_grain)
{
	uint64_t now = rte_get_timer_cycles();
	int ret;

	swtim_poll_set_join(&whl->base.polled, wheel_id);
	/*
	 * Timers are due from the first grain that starts after now, so a
	 * timer armed late in a grain still gets its whole timeout, and is
	 * at most a grain late.
	 */
	*now_grain = swtim_base_grain_after(&whl->base, now);
	ret = swtim_base_arm_begin(&whl->base, &w->lane, nb);
	if (unlikely(ret <= 0)) {
		if (ret == 0)
			swtim_lane_unlock(&w->lane);
		rte_errno = ret == 0 ? ENOSPC : -ret;
		return ret;
	}
	whl_wheel_catch_up(w, *now_grain);
	/* The lock is held: a full ring empties here while the service
	 * backs off. Not otherwise: linking is the service's work, and
	 * this runs every batch of single arms, to refill their credit. */
	if (unlikely(__atomic_load_n(&w->stage.tail, __ATOMIC_RELAXED) -
		     w->stage.head == WHL_STAGE_SIZE))
		whl_stage_drain(whl, w, now);
	return ret;
}

/* Make a timer due at grain expiry armed on wheel w, before it is linked:
 * what a cancel reads first (without a lock), then the state. */
static __rte_always_inline void
whl_timer_set_armed(const struct whl_wheel *w, struct rte_event_timer *evtim,
		    uint64_t expiry)
{
	evtim->impl_opaque[0] = expiry;
	__atomic_store_n(&evtim->impl_opaque[1], w->owner, __ATOMIC_RELAXED);
	__atomic_store_n(&evtim->state, RTE_EVENT_TIMER_ARMED,
			 __ATOMIC_RELEASE);
}

/*
 * Arm nb timers on the caller's wheel; tmo_ticks != 0 gives them all that
 * timeout, 0 each its own. Stops at the budget (ENOSPC).
 */
static __rte_always_inline uint16_t
whl_arm(struct swtim_base *base, struct rte_event_timer **evtims,
	uint64_t tmo_ticks, uint16_t nb)
{
	struct whl_adapter *whl = whl_of_base(base);
	unsigned int wheel_id = swtim_lane_of_caller();
	struct whl_wheel *w = &whl->wheels[wheel_id];
	unsigned int where;
	uint16_t budget, done = 0, chunk, i;
	uint64_t now_grain, tmo_expiry, cur;
	int ret;

	ret = whl_arm_begin(whl, w, wheel_id, nb, &now_grain);
	if (unlikely(ret <= 0))
		return 0;
	budget = ret;
	tmo_expiry = whl_expiry_of(whl, now_grain, tmo_ticks);
	cur = w->cur;	/* only the service moves it, under the lock */
	while (done < budget) {
		chunk = RTE_MIN(budget - done, WHL_ARM_CHUNK);
		/* The timers are written below: fetch them first. */
		for (i = 0; i < chunk; i++)
			rte_prefetch0(evtims[done + i]);
		for (i = 0; i < chunk; i++) {
			struct rte_event_timer *evtim = evtims[done + i];
			uint64_t expiry = tmo_ticks != 0 ? tmo_expiry :
				whl_expiry_of(whl, now_grain,
					      evtim->timeout_ticks);

			whl_timer_set_armed(w, evtim, expiry);
			if (tmo_ticks == 0) {
				where = whl_slot_of(cur, expiry);
				whl_slots_push(whl, w, &where, &evtim, 1);
			}
		}
		/* One timeout: one slot, filled a block's run at a time. */
		if (tmo_ticks != 0)
			whl_slot_push(whl, w, whl_slot_of(cur, tmo_expiry),
				      tmo_expiry, &evtims[done], chunk);
		w->nb_armed += chunk;
		done += chunk;
	}
	swtim_lane_unlock(&w->lane);
	/* Every timer the budget let through was armed. */
	if (unlikely(done < nb))
		rte_errno = ENOSPC;
	return done;
}

/*
 * Make this process the one that stages on a ring: free, or held by a
 * process that is gone (a secondary that used this lcore id before; two
 * live processes may not share one, DPDK's rule, but if they do, the
 * second takes the lock). A process killed between the two stores of a
 * staged arm leaves that timer armed and never linked: its arm never
 * returned, and a cancel of it answers EAGAIN.
 */
static __rte_noinline bool
whl_stage_claim(struct whl_stage *s)
{
	uint32_t owner = __atomic_load_n(&s->owner, __ATOMIC_RELAXED);

	if (owner != 0 && !swtim_proc_tag_dead(owner))
		return false;
	/* Acquire: the gone owner's last tail is read next. */
	return __atomic_compare_exchange_n(&s->owner, &owner, swtim_proc_tag,
					   false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

/*
 * Arm one timer without the wheel's lock: stage it for whoever takes
 * the lock next (struct whl_stage). The producer then writes only the
 * timer and lines no other lcore writes, and executes one atomic
 * instruction, on its own line (the budget slot): a locked arm met the
 * service on the lock and the wheel's lines every tick it expired this
 * wheel (performance.md, "The non-burst figure and a staged arm").
 * false, having changed nothing, when the arm must take the lock: the
 * ring belongs to another process's lcore of this id, is full, or the
 * lane is dead or holds no staged credit.
 *
 * The timer is marked armed before the ring's index moves: a cancel
 * that sees it armed finds it on the ring, or waits the two stores for
 * it (whl_cancel_one()). Marked after, the service could expire it in
 * between and the producer then mark it armed for ever.
 */
static __rte_always_inline bool
whl_arm_staged(struct whl_adapter *whl, struct whl_wheel *w,
	       unsigned int wheel_id, struct rte_event_timer *evtim)
{
	struct whl_stage *s = &w->stage;
	uint32_t tail;

	if (unlikely(__atomic_load_n(&s->owner, __ATOMIC_RELAXED) !=
		     swtim_proc_tag) && !whl_stage_claim(s))
		return false;
	tail = __atomic_load_n(&s->tail, __ATOMIC_RELAXED);
	if (unlikely(tail - s->head_seen == WHL_STAGE_SIZE)) {
		s->head_seen = __atomic_load_n(&s->head, __ATOMIC_ACQUIRE);
		if (tail - s->head_seen == WHL_STAGE_SIZE)
			return false;
	}
	if (unlikely(swtim_lane_dead(&w->lane)) ||
	    !swtim_staged_credit_take(&w->lane))
		return false;
	swtim_poll_set_join(&whl->base.polled, wheel_id);
	evtim->impl_opaque[0] = whl_expiry_of(whl,
			swtim_base_grain_after(&whl->base,
					       rte_get_timer_cycles()),
			evtim->timeout_ticks);
	__atomic_store_n(&evtim->impl_opaque[1], w->owner | WHL_PLACE_STAGED,
			 __ATOMIC_RELAXED);
	s->ring[tail % WHL_STAGE_SIZE] = evtim;
	__atomic_store_n(&evtim->state, RTE_EVENT_TIMER_ARMED,
			 __ATOMIC_RELEASE);
	__atomic_store_n(&s->tail, tail + 1, __ATOMIC_RELEASE);
	return true;
}

/*
 * Arm one timer, the common call: staged when it can be, else with the
 * lock, without the burst's loops and prefetches (the generic layer has
 * copied an arm_tmo_tick_burst()'s timeout into the timer). The locked
 * arm refills the staged credit for the next ones. Threads without an
 * lcore id share their lane, so take its lock.
 */
static __rte_always_inline uint16_t
whl_arm_single(struct swtim_base *base,
	       struct rte_event_timer *evtim)
{
	struct whl_adapter *whl = whl_of_base(base);
	unsigned int wheel_id = swtim_lane_of_caller();
	struct whl_wheel *w = &whl->wheels[wheel_id];
	uint64_t now_grain;

	if (likely(wheel_id != SWTIM_LANE_NON_EAL) &&
	    whl_arm_staged(whl, w, wheel_id, evtim))
		return 1;
	if (unlikely(whl_arm_begin(whl, w, wheel_id, 1, &now_grain) <= 0))
		return 0;
	whl_timer_set_armed(w, evtim, whl_expiry_of(whl, now_grain,
						    evtim->timeout_ticks));
	whl_wheel_link(whl, w, evtim);
	/* Only what staged arms can use: not for a ring that is full or
	 * another process's, which would take the budget from the other
	 * lanes into a credit no arm takes. */
	if (wheel_id != SWTIM_LANE_NON_EAL && w->lane.staged_credit == 0 &&
	    __atomic_load_n(&w->stage.owner, __ATOMIC_RELAXED) ==
	    swtim_proc_tag)
		swtim_staged_credit_refill(&whl->base.budget, &w->lane);
	swtim_lane_unlock(&w->lane);
	return 1;
}

/* Bursts, each kind its own copy without the other's per-timer test; out
 * of line, so that a single arm does not save the registers they need. */
static __rte_noinline uint16_t
whl_arm_many(struct swtim_base *base,
	     struct rte_event_timer **evtims, uint64_t timeout_ticks,
	     uint16_t nb)
{
	if (timeout_ticks != 0)
		return whl_arm(base, evtims, timeout_ticks, nb);
	return whl_arm(base, evtims, 0, nb);
}

uint16_t
whl_arm_burst(struct swtim_base *base,
	      struct rte_event_timer **evtims, uint64_t timeout_ticks,
	      uint16_t nb)
{
	if (likely(nb == 1))
		return whl_arm_single(base, evtims[0]);
	return whl_arm_many(base, evtims, timeout_ticks, nb);
}

/*
 * The wheel an event timer says holds it, or NULL when it was not armed on
 * this adapter (its tag is another's).
 */
static __rte_always_inline struct whl_wheel *
whl_wheel_named(struct whl_adapter *whl, const struct rte_event_timer *evtim)
{
	uint64_t owner = __atomic_load_n(&evtim->impl_opaque[1],
					 __ATOMIC_RELAXED) >> 32;

	if (unlikely(owner >> 16 != whl->tag ||
		     (owner & UINT16_MAX) >= RTE_MAX_LCORE))
		return NULL;
	return &whl->wheels[owner & UINT16_MAX];
}

/*
 * Lock the wheel an event timer names, keeping the lock of *held (NULL:
 * none) if that is the one; 0, EINVAL when the timer names no wheel of
 * this base, or ENOTRECOVERABLE when its wheel is dead (then *held is
 * NULL). *held is the wheel locked on return (unchanged on EINVAL before
 * any locking). The timer may be armed again elsewhere while we
 * wait for the lock, once its last expiry has made it the application's:
 * then the name changes, and the lock follows it.
 */
static __rte_always_inline int
whl_lock_named(struct whl_adapter *whl, const struct rte_event_timer *evtim,
	       struct whl_wheel **held)
{
	struct whl_wheel *w;

	for (;;) {
		w = whl_wheel_named(whl, evtim);
		if (unlikely(w == NULL))
			return EINVAL;
		if (w != *held) {
			if (*held != NULL)
				swtim_lane_unlock(&(*held)->lane);
			*held = NULL;
			if (unlikely(swtim_lane_lock(&w->lane) != 0))
				return ENOTRECOVERABLE;
			*held = w;
			/* What is staged is on the wheel from now on. */
			whl_stage_drain(whl, w, rte_get_timer_cycles());
		}
		if (likely(whl_wheel_named(whl, evtim) == w))
			return 0;
	}
}

/*
 * Cancel a periodic timer whose last event waits in its wheel's buffer
 * (off the wheel until the device takes the event, whl_service.c), with
 * the wheel's lock held: take the event back out of the buffer, which
 * needs the wheel's scan claim, so EAGAIN while a service run has the
 * wheel (it may be handing the event to the device right now). Without
 * this, such a cancel could only wait for the device, and for ever while
 * the adapter is stopped.
 */
static int
whl_cancel_waiting(struct whl_wheel *w, const struct rte_event_timer *evtim)
{
	bool found;

	/* The lock is held: only try the claim, never wait for it. */
	if (!swtim_lane_claim(&w->lane))
		return swtim_lane_claim_errno(&w->lane);
	found = swtim_evbuf_remove_tagged(&w->lane.evbuf, (uintptr_t)evtim);
	/* Taken back: it counted as expired when its event was built. */
	if (found)
		swtim_lane_stats_exp_take_back(&w->lane.stats);
	swtim_lane_release(&w->lane);
	if (unlikely(!found))
		return EAGAIN;	/* cannot happen: no run had it */
	return 0;
}

/*
 * A cancel found evtim ARMED, its place saying staged, not on the ring
 * of wheel w, whose lock it holds: its producer is between the two
 * stores of whl_arm_staged(). Wait a moment for the second, linking
 * what comes. true when the timer has moved on (linked, or named by
 * another wheel): look again. false after WHL_STAGE_WAIT_NS: its
 * producer is held up (preempted, or its process gone), and the
 * service, which needs this lock for every wheel's expiries, is not
 * kept waiting longer.
 */
static __rte_noinline bool
whl_cancel_meets_staging(struct whl_adapter *whl, struct whl_wheel *w,
			 const struct rte_event_timer *evtim)
{
	uint64_t now = rte_get_timer_cycles();
	uint64_t give_up = now + rte_get_timer_hz() /
		(UINT64_C(1000000000) / WHL_STAGE_WAIT_NS);

	for (;;) {
		whl_stage_drain(whl, w, now);
		if (whl_place_of(evtim) != WHL_PLACE_STAGED ||
		    whl_wheel_named(whl, evtim) != w)
			return true;
		if (now >= give_up)
			return false;
		rte_pause();
		now = rte_get_timer_cycles();
	}
}

/* Whether the process staging on ring s is gone. */
static bool
whl_stage_owner_gone(const struct whl_stage *s)
{
	uint32_t owner = __atomic_load_n(&s->owner, __ATOMIC_RELAXED);

	return owner != 0 && swtim_proc_tag_dead(owner);
}

/*
 * Cancel one timer; 0 or the errno. *held is the wheel whose lock the
 * caller holds (NULL: none), and on return the one it holds now: a burst
 * keeps one lock while its timers are in the same wheel.
 */
static __rte_always_inline int
whl_cancel_one(struct whl_adapter *whl, struct rte_event_timer *evtim,
	       struct whl_wheel **held)
{
	struct whl_wheel *w;
	int err;

again:
	err = whl_lock_named(whl, evtim, held);
	if (unlikely(err != 0))
		return err;
	w = *held;
	if (likely(whl_wheel_holds(whl, w, evtim))) {
		whl_wheel_unlink(whl, w, evtim);
		return 0;
	}
	/* Armed again elsewhere since the lock's re-check: follow it. */
	if (unlikely(whl_wheel_named(whl, evtim) != w))
		goto again;
	/* Taken off the wheel by an expiry: delivered if no longer armed;
	 * a one-shot timer about to be, a periodic one waiting in the
	 * buffer. */
	if (__atomic_load_n(&evtim->state, __ATOMIC_ACQUIRE) !=
	    RTE_EVENT_TIMER_ARMED)
		return EINVAL;
	if (unlikely(whl_place_of(evtim) == WHL_PLACE_STAGED)) {
		if (whl_cancel_meets_staging(whl, w, evtim))
			goto again;
		return whl_stage_owner_gone(&w->stage) ? ENOTRECOVERABLE :
			EAGAIN;
	}
	return whl->base.periodic ? whl_cancel_waiting(w, evtim) : EAGAIN;
}

/*
 * Cancel a timer as whl_cancel_one() does, then mark it cancelled and give
 * its slot to the credit of the lane it was armed on, whose lock is held:
 * nothing shared is written. 0, or the errno (rte_errno set).
 */
static __rte_always_inline int
whl_cancel_credit(struct whl_adapter *whl, struct rte_event_timer *evtim,
		  struct whl_wheel **held)
{
	int err = whl_cancel_one(whl, evtim, held);

	if (unlikely(err != 0)) {
		rte_errno = err;
		return err;
	}
	__atomic_store_n(&evtim->state, RTE_EVENT_TIMER_CANCELED,
			 __ATOMIC_RELEASE);
	swtim_credit_give(&whl->base.budget, &(*held)->lane, 1);
	return 0;
}

/* A burst of cancels: one lock kept while consecutive timers share a
 * wheel; out of line, so that a single cancel does not save the registers
 * its loop needs. */
static __rte_noinline uint16_t
whl_cancel_many(struct whl_adapter *whl, struct rte_event_timer **evtims,
		uint16_t nb)
{
	struct whl_wheel *held = NULL;
	uint16_t i;

	for (i = 0; i < nb; i++) {
		/* The next timer's block, while this one is unlinked. */
		if (i + 1 < nb)
			whl_place_prefetch(whl, whl_place_of(evtims[i + 1]));
		if (whl_cancel_credit(whl, evtims[i], &held) != 0)
			break;
	}
	if (held != NULL)
		swtim_lane_unlock(&held->lane);
	return i;
}

uint16_t
whl_cancel_burst(struct swtim_base *base,
		 struct rte_event_timer **evtims, uint16_t nb)
{
	struct whl_adapter *whl = whl_of_base(base);
	struct whl_wheel *held = NULL;
	uint16_t done;

	if (unlikely(nb != 1))
		return whl_cancel_many(whl, evtims, nb);
	/* One timer, the common call: nothing to fetch ahead. */
	done = whl_cancel_credit(whl, evtims[0], &held) == 0;
	if (held != NULL)
		swtim_lane_unlock(&held->lane);
	return done;
}

int
whl_remaining_ticks_get(const struct swtim_base *base,
			const struct rte_event_timer *evtim,
			uint64_t *ticks_remaining)
{
	struct whl_adapter *whl = whl_of_base(base);
	struct whl_wheel *w = NULL;
	uint64_t elapsed, expiry = 0, grains;
	bool ours = false;
	int err;

	/* Under the wheel's lock: the service sets a periodic timer's next
	 * period under it. */
	while ((err = whl_lock_named(whl, evtim, &w)) == 0) {
		/* On the wheel, or taken by an expiry and not yet delivered
		 * (a periodic timer stays armed), unless armed again
		 * elsewhere since the lock's re-check: then follow it. */
		ours = whl_wheel_holds(whl, w, evtim);
		if (!ours && whl_wheel_named(whl, evtim) != w)
			continue;
		ours = ours || __atomic_load_n(&evtim->state,
					       __ATOMIC_ACQUIRE) ==
			RTE_EVENT_TIMER_ARMED;
		expiry = whl_timer_due(evtim);
		break;
	}
	if (w != NULL)
		swtim_lane_unlock(&w->lane);
	if (unlikely(err == ENOTRECOVERABLE))
		return -ENOTRECOVERABLE;
	if (!ours)
		return -EINVAL;
	/*
	 * Due when grain `expiry` starts, the first to start after the
	 * deadline, which therefore lies in the grain before. Counted to
	 * that grain's start, in ticks rounded up, the count is the ticks
	 * to the deadline itself, rounded up (what DPDK's adapter answers,
	 * and its autotest asks after sleeping whole ticks), but when the
	 * deadline is less than a grain past a whole tick from now; counted
	 * to `expiry` it would be one too many whenever the deadline is
	 * less than a grain short of one. Where a grain is a whole tick
	 * (ticks under twice the minimum grain, swtim_base.c), the grain
	 * before is a tick early: counted to `expiry` there. In grains,
	 * not in cycles, which for the longest timeouts would not fit in
	 * 64 bits.
	 */
	if (whl->base.grain_shift != 0 && expiry != 0)
		expiry--;
	elapsed = swtim_base_grain_of(&whl->base, rte_get_timer_cycles());
	grains = expiry > elapsed ? expiry - elapsed : 0;
	*ticks_remaining = (grains >> whl->base.grain_shift) +
		((grains & ((UINT64_C(1) << whl->base.grain_shift) - 1)) != 0);
	/*
	 * Counted to `expiry` where a grain is a tick, right after arming
	 * the count can be one over the timeout; the timer has only
	 * timeout ticks to go.
	 */
	*ticks_remaining = RTE_MIN(*ticks_remaining, evtim->timeout_ticks);
	return 0;
}
