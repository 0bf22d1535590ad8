/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The generic layer's fast path: the argument checks of the contract,
 * shared by every driver, in front of the driver's burst functions.
 *
 * A burst is checked up to its first invalid timer; the valid front goes to
 * the driver in one call. The invalid timer's error state is written only
 * when the driver armed the whole front, so that a timer the burst never
 * reached (the driver stopped earlier, say on ENOSPC) is left untouched.
 */

#include <errno.h>
#include <stdbool.h>

#include <rte_branch_prediction.h>
#include <rte_errno.h>

#include "swtim.h"
#include "swtim_adapter_pvt.h"
#include "swtim_base.h"
#include "swtim_tunables.h"

/* Why a timer cannot be armed: the errno and the state to leave it in. */
struct swtim_arm_error {
	int err;
	/* 0 (RTE_EVENT_TIMER_NOT_ARMED) means "leave the state alone". */
	enum rte_event_timer_state state;
};

static __rte_always_inline enum rte_event_timer_state
swtim_evtim_state(const struct rte_event_timer *evtim)
{
	return __atomic_load_n(&evtim->state, __ATOMIC_ACQUIRE);
}

/* Return 0 if evtim may be armed with timeout_ticks, else fill *e. */
static __rte_always_inline int
swtim_arm_check(const struct swtim_adapter *adapter,
		const struct rte_event_timer *evtim, uint64_t timeout_ticks,
		struct swtim_arm_error *e)
{
	enum rte_event_timer_state state;
	uint8_t queue_type;

	e->state = RTE_EVENT_TIMER_NOT_ARMED;
	if (unlikely(evtim == NULL)) {
		e->err = EINVAL;
		return -1;
	}
	state = swtim_evtim_state(evtim);
	if (unlikely(state != RTE_EVENT_TIMER_NOT_ARMED &&
		     state != RTE_EVENT_TIMER_CANCELED)) {
		e->err = state == RTE_EVENT_TIMER_ARMED ? EALREADY : EINVAL;
		return -1;
	}
	if (unlikely(evtim->ev.queue_id >= adapter->nb_queues)) {
		e->err = EINVAL;
		e->state = RTE_EVENT_TIMER_ERROR;
		return -1;
	}
	queue_type = adapter->queue_sched_type[evtim->ev.queue_id];
	if (unlikely(queue_type != SWTIM_SCHED_TYPE_ANY &&
		     queue_type != evtim->ev.sched_type)) {
		e->err = EINVAL;
		e->state = RTE_EVENT_TIMER_ERROR;
		return -1;
	}
	if (unlikely(timeout_ticks == 0)) {
		e->err = EINVAL;
		e->state = RTE_EVENT_TIMER_ERROR_TOOEARLY;
		return -1;
	}
	if (unlikely(timeout_ticks > adapter->params.max_tmo_ticks)) {
		e->err = EINVAL;
		e->state = RTE_EVENT_TIMER_ERROR_TOOLATE;
		return -1;
	}
	return 0;
}

/*
 * Whether evtims[n] appeared earlier in the burst: DPDK's contract treats a
 * burst as one call per timer in turn, so a timer given twice is found
 * armed (or cancelled) by its second occurrence. A 64-bit filter of the
 * pointers seen, kept in a register, costs a burst of distinct timers a
 * few instructions each; only a filter hit compares with the front.
 * Timers are cache aligned: the filter is indexed by the cache line, so
 * timers from one array never collide within 64.
 */
static __rte_always_inline bool
swtim_burst_seen_before(uint64_t *seen, struct rte_event_timer **evtims,
			uint16_t n)
{
	uint64_t bit = UINT64_C(1) << (((uintptr_t)evtims[n] >> 6) & 63);
	uint16_t i;

	if (likely(!(*seen & bit))) {
		*seen |= bit;
		return false;
	}
	for (i = 0; i < n; i++)
		if (evtims[i] == evtims[n])
			return true;
	return false;
}

/*
 * Check a chunk up to its first invalid timer, hand the valid front to
 * the driver, and leave the invalid timer's error state only when the
 * driver armed the whole front. same_tmo: every timer gets timeout_ticks
 * (arm_tmo_tick_burst), else each its own.
 */
static __rte_always_inline uint16_t
swtim_arm_chunk(const struct swtim_adapter *adapter,
		struct rte_event_timer **evtims,
		bool same_tmo, uint64_t timeout_ticks, uint16_t nb_evtims)
{
	struct swtim_arm_error e = { 0 };
	uint64_t seen = 0;
	uint16_t n, armed = 0;

	for (n = 0; n < nb_evtims; n++) {
		struct rte_event_timer *evtim = evtims[n];

		if (swtim_arm_check(adapter, evtim, !same_tmo && evtim != NULL ?
				    evtim->timeout_ticks : timeout_ticks,
				    &e) != 0)
			break;
		/* Its first occurrence arms it: the second finds it armed. */
		if (unlikely(swtim_burst_seen_before(&seen, evtims, n))) {
			e.err = EALREADY;
			e.state = RTE_EVENT_TIMER_NOT_ARMED;
			break;
		}
		if (same_tmo)
			evtim->timeout_ticks = timeout_ticks;
	}
	if (n > 0)
		armed = swtim_adapter_ops(adapter)->arm_burst(
				swtim_adapter_base(adapter), evtims,
				same_tmo ? timeout_ticks : 0, n);
	if (armed == n && n < nb_evtims) {
		if (e.state != RTE_EVENT_TIMER_NOT_ARMED)
			__atomic_store_n(&evtims[n]->state, e.state,
					 __ATOMIC_RELEASE);
		rte_errno = e.err;
	}
	return armed;
}

/* Return 0 if evtim may be cancelled, else the errno. */
static __rte_always_inline int
swtim_cancel_check(const struct rte_event_timer *evtim)
{
	enum rte_event_timer_state state;

	if (unlikely(evtim == NULL))
		return EINVAL;
	state = swtim_evtim_state(evtim);
	if (likely(state == RTE_EVENT_TIMER_ARMED))
		return 0;
	return state == RTE_EVENT_TIMER_CANCELED ? EALREADY : EINVAL;
}

/* Check a chunk up to its first timer that cannot be cancelled, and
 * cancel the front. */
static __rte_always_inline uint16_t
swtim_cancel_chunk(const struct swtim_adapter *adapter,
		   struct rte_event_timer **evtims, uint16_t nb_evtims)
{
	uint64_t seen = 0;
	uint16_t n, cancelled = 0;
	int err = 0;

	for (n = 0; n < nb_evtims; n++) {
		err = swtim_cancel_check(evtims[n]);
		if (err != 0)
			break;
		/* Its first occurrence cancels it: the second finds it so. */
		if (unlikely(swtim_burst_seen_before(&seen, evtims, n))) {
			err = EALREADY;
			break;
		}
	}
	if (n > 0)
		cancelled = swtim_adapter_ops(adapter)->cancel_burst(
				swtim_adapter_base(adapter), evtims, n);
	if (cancelled == n && n < nb_evtims)
		rte_errno = err;
	return cancelled;
}

/*
 * A burst of cancels, or of arms (same_tmo: every timer gets
 * timeout_ticks), a chunk at a time, up to the first chunk not done whole.
 */
static __rte_always_inline uint16_t
swtim_burst_chunks(const struct swtim_adapter *adapter,
		   struct rte_event_timer **evtims, bool cancel, bool same_tmo,
		   uint64_t timeout_ticks, uint16_t nb_evtims)
{
	uint16_t done = 0, nb, n;

	while (done < nb_evtims) {
		nb = RTE_MIN(nb_evtims - done, SWTIM_BURST_CHUNK);
		n = cancel ? swtim_cancel_chunk(adapter, &evtims[done], nb) :
			swtim_arm_chunk(adapter, &evtims[done], same_tmo,
					timeout_ticks, nb);
		done += n;
		if (n < nb)
			break;
	}
	return done;
}

/*
 * The three kinds of burst, each its own copy: out of line, so that a call
 * for one timer does not save the registers their loops need.
 */
static __rte_noinline uint16_t
swtim_arm_chunks(const struct swtim_adapter *adapter,
		 struct rte_event_timer **evtims, uint16_t nb_evtims)
{
	return swtim_burst_chunks(adapter, evtims, false, false, 0, nb_evtims);
}

static __rte_noinline uint16_t
swtim_arm_tmo_chunks(const struct swtim_adapter *adapter,
		     struct rte_event_timer **evtims, uint64_t timeout_ticks,
		     uint16_t nb_evtims)
{
	return swtim_burst_chunks(adapter, evtims, false, true, timeout_ticks,
				  nb_evtims);
}

static __rte_noinline uint16_t
swtim_cancel_chunks(const struct swtim_adapter *adapter,
		    struct rte_event_timer **evtims, uint16_t nb_evtims)
{
	return swtim_burst_chunks(adapter, evtims, true, false, 0, nb_evtims);
}

/* A burst's checks of the adapter and the array, then its timers. */
static __rte_always_inline uint16_t
swtim_burst(const struct swtim_adapter *adapter,
	    struct rte_event_timer **evtims, bool cancel, bool same_tmo,
	    uint64_t timeout_ticks, uint16_t nb_evtims)
{
	if (unlikely(!swtim_adapter_is_valid(adapter) ||
		     (evtims == NULL && nb_evtims != 0))) {
		rte_errno = EINVAL;
		return 0;
	}
	/*
	 * One timer a call is the common use: a chunk of the constant 1,
	 * where the duplicate filter and the loops fold away.
	 */
	if (likely(nb_evtims == 1))
		return cancel ? swtim_cancel_chunk(adapter, evtims, 1) :
			swtim_arm_chunk(adapter, evtims, same_tmo,
					timeout_ticks, 1);
	if (cancel)
		return swtim_cancel_chunks(adapter, evtims, nb_evtims);
	return same_tmo ? swtim_arm_tmo_chunks(adapter, evtims, timeout_ticks,
					       nb_evtims) :
		swtim_arm_chunks(adapter, evtims, nb_evtims);
}

uint16_t
swtim_arm_burst(const struct swtim_adapter *adapter,
		struct rte_event_timer **evtims, uint16_t nb_evtims)
{
	return swtim_burst(adapter, evtims, false, false, 0, nb_evtims);
}

uint16_t
swtim_arm_tmo_tick_burst(const struct swtim_adapter *adapter,
			 struct rte_event_timer **evtims,
			 uint64_t timeout_ticks, uint16_t nb_evtims)
{
	return swtim_burst(adapter, evtims, false, true, timeout_ticks,
			   nb_evtims);
}

uint16_t
swtim_cancel_burst(const struct swtim_adapter *adapter,
		   struct rte_event_timer **evtims, uint16_t nb_evtims)
{
	return swtim_burst(adapter, evtims, true, false, 0, nb_evtims);
}

int
swtim_adapter_next_deadline(const struct swtim_adapter *adapter,
			    uint64_t *next_cycles)
{
	if (!swtim_adapter_is_valid(adapter) || next_cycles == NULL)
		return -EINVAL;
	*next_cycles = swtim_base_deadline(swtim_adapter_base(adapter));
	return 0;
}

int
swtim_remaining_ticks_get(const struct swtim_adapter *adapter,
			  const struct rte_event_timer *evtim,
			  uint64_t *ticks_remaining)
{
	if (!swtim_adapter_is_valid(adapter) || evtim == NULL ||
	    ticks_remaining == NULL)
		return -EINVAL;
	if (swtim_evtim_state(evtim) != RTE_EVENT_TIMER_ARMED)
		return -EINVAL;
	return swtim_adapter_ops(adapter)->remaining_ticks_get(
			swtim_adapter_base(adapter), evtim, ticks_remaining);
}
