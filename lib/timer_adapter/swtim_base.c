/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The generic layer's control path on the base (swtim_base.h), the same
 * for every driver: creating the adapter's base and driver part and
 * freeing it, start and stop of the service, the statistics and the next
 * deadline summed over the lanes, the budget's reclaim, the tick count.
 */

#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_malloc.h>
#include <rte_service.h>
#include <rte_service_component.h>

#include "swtim_adapter_pvt.h"
#include "swtim_base.h"
#include "swtim_log.h"
#include "swtim_tunables.h"

static void
swtim_base_grain_init(struct swtim_base *base)
{
	unsigned int log2_tick = 63u - __builtin_clzll(base->tick_cycles);

	base->grain_shift = log2_tick <= SWTIM_GRAIN_MIN_BITS ? 0 :
		RTE_MIN(log2_tick - SWTIM_GRAIN_MIN_BITS,
			SWTIM_GRAIN_SHIFT_MAX);
	base->grain_cycles = (base->tick_cycles >> base->grain_shift) +
		((base->tick_cycles & ((UINT64_C(1) << base->grain_shift) - 1))
		 != 0);
	base->grain_div = rte_reciprocal_value_u64(base->grain_cycles);
}

/* Set the base up in the driver's zeroed struct; -EINVAL: a bad option. */
static int
swtim_base_init(struct swtim_base *base, const struct swtim_adapter *adapter,
		const struct rte_kvargs *args)
{
	const struct swtim_adapter_params *p = &adapter->params;

	base->drv_index = adapter->drv_index;
	base->service_id = UINT32_MAX;
	base->periodic =
		!!(p->conf.flags & RTE_EVENT_TIMER_ADAPTER_F_PERIODIC);
	base->id = p->conf.timer_adapter_id;
	base->socket = p->conf.socket_id;
	base->tick_cycles = p->tick_cycles;
	base->tick_div = rte_reciprocal_value_u64(base->tick_cycles);
	swtim_base_grain_init(base);
	base->start_cycles = rte_get_timer_cycles();
	swtim_budget_init(&base->budget, p->conf.nb_timers);
	swtim_poll_set_init(&base->polled);
	return swtim_idle_init(&base->idle, args);
}

void
swtim_base_lanes_set(struct swtim_base *base, struct swtim_lane *first,
		     size_t stride)
{
	unsigned int i;

	base->lanes = (char *)first;
	base->lane_stride = stride;
	for (i = 0; i < SWTIM_LANES_MAX; i++) {
		struct swtim_lane *lane = swtim_base_lane(base, i);

		memset(lane, 0, sizeof(*lane));
		swtim_olock_init(&lane->lock);
		swtim_olock_init(&lane->claim);
		lane->id = i;
	}
}

uint32_t
swtim_base_budget_reclaim(struct swtim_base *base, uint32_t want)
{
	struct swtim_budget *b = &base->budget;
	bool locked[SWTIM_LANES_MAX];
	uint32_t got;
	unsigned int i;

	/*
	 * What the service gave back since the caller found avail empty
	 * needs no lock: an adapter kept full (a producer retrying while
	 * expiries free slots one enqueue at a time) would otherwise pay
	 * every lane's lock on most of its arms.
	 */
	got = swtim_budget_take_avail(b, want);
	if (got == want)
		return got;
	want -= got;
	/*
	 * With every lock held no credit moves: what is not in avail now
	 * is outstanding. Taken with STEAL: this only moves credit to
	 * avail, lane by lane, so if we die here a waiter may take a lock
	 * over; at most the credit of the lane being moved is lost. A dead
	 * lane keeps its credit, outstanding for good.
	 */
	for (i = 0; i < SWTIM_LANES_MAX; i++) {
		struct swtim_lane *lane = swtim_base_lane(base, i);

		locked[i] = !swtim_lane_dead(lane) &&
			swtim_olock_lock(&lane->lock, SWTIM_OLOCK_STEAL) == 0;
		if (!locked[i] && !swtim_lane_dead(lane))
			swtim_lane_kill(lane);
	}
	for (i = 0; i < SWTIM_LANES_MAX; i++) {
		struct swtim_lane *lane = swtim_base_lane(base, i);
		uint32_t held;

		if (!locked[i])
			continue;
		/* An arm without the lock may take from it meanwhile:
		 * taken whole, at once. */
		held = lane->credit + __atomic_exchange_n(&lane->staged_credit,
							  0, __ATOMIC_RELAXED);
		lane->credit = 0;
		swtim_budget_give(b, held);
	}
	got += swtim_budget_take_avail(b, want);
	for (i = SWTIM_LANES_MAX; i-- > 0;)
		if (locked[i])
			swtim_lane_unlock(swtim_base_lane(base, i));
	return got;
}

uint64_t
swtim_base_outstanding_hint(const struct swtim_base *base)
{
	uint32_t i, nb_polled = swtim_poll_set_count(&base->polled);
	int64_t free = 0;

	/*
	 * Against the flow of a take and a refill (avail, then credit, then
	 * staged credit): slots they move between these reads are missed,
	 * not counted twice, so that a hint of 0 (the service may sleep)
	 * is not read from slots counted twice while timers are armed.
	 * Slots a cancel's excess credit or a reclaim moves back to avail
	 * may still be: a batch or so, as before staged credit.
	 */
	for (i = 0; i < nb_polled; i++) {
		const struct swtim_lane *lane =
			swtim_base_lane(base, base->polled.ids[i]);

		free += __atomic_load_n(&lane->staged_credit, __ATOMIC_ACQUIRE);
		free += __atomic_load_n(&lane->credit, __ATOMIC_ACQUIRE);
	}
	free += __atomic_load_n(&base->budget.avail, __ATOMIC_ACQUIRE);
	return free <= 0 ? base->budget.limit :
		base->budget.limit - RTE_MIN((uint64_t)free,
					     base->budget.limit);
}

/* Register the adapter's service, "swtim_<short_name>_<adapter id>". */
static int
swtim_base_service_register(struct swtim_base *base, const char *short_name)
{
	int ret;

	/* MT safe: runs on several lcores split the lanes between them. */
	ret = swtim_service_register(short_name, base->id, swtim_service_run,
				     base, base->socket, true,
				     &base->service_id);
	if (ret != 0)
		base->service_id = UINT32_MAX;
	return ret;
}

uint64_t
swtim_base_deadline(const struct swtim_base *base)
{
	uint32_t i, nb_polled = swtim_poll_set_count(&base->polled);
	const struct swtim_driver_ops *ops = swtim_base_ops(base);
	const struct swtim_lane *lane;
	uint64_t next = UINT64_MAX;

	/* A dead lane is never worked on again (swtim_lane.h). */
	for (i = 0; i < nb_polled; i++) {
		lane = swtim_base_lane(base, base->polled.ids[i]);
		if (swtim_evbuf_count(&lane->evbuf) != 0 &&
		    !swtim_lane_dead(lane))
			return 0;
	}
	/* Once for the adapter, not once a lane: it reads every lane. */
	if (swtim_base_outstanding_hint(base) == 0)
		return UINT64_MAX;
	for (i = 0; i < nb_polled; i++) {
		lane = swtim_base_lane(base, base->polled.ids[i]);
		if (!swtim_lane_dead(lane))
			next = RTE_MIN(next, ops->next_deadline(base, lane));
	}
	return next;
}

void
swtim_base_ticks_account(struct swtim_base *base, uint64_t tick)
{
	uint64_t done = __atomic_load_n(&base->ticks_done, __ATOMIC_RELAXED);

	while (tick > done)
		if (__atomic_compare_exchange_n(&base->ticks_done, &done, tick,
				true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
			__atomic_fetch_add(&base->adapter_tick_count,
					   tick - done, __ATOMIC_RELAXED);
			break;
		}
}

/*
 * Take the timers out of the lanes' buffers and free the buffers: a
 * one-shot timer is the application's again once its event is built, so
 * only the waiting periodic ones are cancelled; their events are lost.
 */
static void
swtim_base_lanes_release(struct swtim_base *base)
{
	uint32_t i, pos, dropped = 0;

	for (i = 0; base->lanes != NULL && i < SWTIM_LANES_MAX; i++) {
		struct swtim_lane *lane = swtim_base_lane(base, i);
		struct swtim_evbuf *buf = &lane->evbuf;
		/* A dead lane's timers are not touched: they are lost. The
		 * probe also tells the driver's teardown, which follows. */
		bool dead = swtim_lane_probe(lane);

		for (pos = buf->head; buf->tags != NULL && !dead &&
		     pos != buf->tail; pos++)
			swtim_base_ops(base)->waiting_drop(base,
						swtim_evbuf_tag_of(buf, pos));
		dropped += swtim_evbuf_count(buf);
		swtim_evbuf_free(buf);
	}
	if (dropped != 0)
		SWTIM_LOG(NOTICE, "adapter %u: dropping %u expiry events not"
			  " yet enqueued", base->id, dropped);
}

/*
 * Undo swtim_base_create() up to where it got: the service, the buffers,
 * the driver's part (if its init was called), the memory.
 */
static void
swtim_base_destroy(struct swtim_adapter *adapter, bool driver_inited)
{
	struct swtim_base *base = swtim_adapter_base(adapter);

	if (base == NULL)
		return;
	if (base->service_id != UINT32_MAX) {
		rte_service_component_runstate_set(base->service_id, 0);
		/* No service lcore may still call in with the base. */
		swtim_service_quiesce(base->service_id);
		rte_service_component_unregister(base->service_id);
	}
	swtim_base_lanes_release(base);
	if (driver_inited)
		swtim_base_ops(base)->teardown(base);
	adapter->priv = NULL;
	rte_free(base);
}

int
swtim_base_create(struct swtim_adapter *adapter,
		  const struct swtim_driver *drv,
		  const struct rte_kvargs *args)
{
	struct swtim_base *base;
	int ret;

	base = rte_zmalloc_socket("swtim_adapter", drv->priv_size,
				  RTE_CACHE_LINE_SIZE,
				  adapter->params.conf.socket_id);
	if (base == NULL)
		return -ENOMEM;
	adapter->priv = base;
	ret = swtim_base_init(base, adapter, args);
	if (ret != 0) {
		swtim_base_destroy(adapter, false);
		return ret;
	}
	ret = swtim_base_ops(base)->init(base, &adapter->params, args);
	if (ret == 0) {
		RTE_VERIFY(base->lanes != NULL);
		ret = swtim_base_service_register(base, drv->short_name);
	}
	if (ret != 0)
		swtim_base_destroy(adapter, true);
	return ret;
}

void
swtim_base_free(struct swtim_adapter *adapter)
{
	swtim_base_destroy(adapter, true);
}

int
swtim_base_start(struct swtim_adapter *adapter)
{
	struct swtim_base *base = swtim_adapter_base(adapter);
	const struct swtim_driver_ops *ops = swtim_base_ops(base);
	uint64_t now = rte_get_timer_cycles();
	unsigned int i;

	for (i = 0; i < SWTIM_LANES_MAX; i++)
		swtim_evbuf_stall_reset(&swtim_base_lane(base, i)->evbuf);
	/* Ports may have been added since create; the service is out. */
	swtim_ports_init(&base->ports, &adapter->params);
	/* The ticks that passed before start, or while stopped, are not
	 * the service's: it counts from now on. */
	__atomic_store_n(&base->ticks_done, swtim_base_tick_of(base, now),
			 __ATOMIC_RELAXED);
	if (ops->start != NULL)
		ops->start(base, now);
	return swtim_gate_open(&base->gate, base->service_id);
}

void
swtim_base_stop(struct swtim_adapter *adapter)
{
	struct swtim_base *base = swtim_adapter_base(adapter);

	swtim_gate_close(&base->gate, base->service_id);
}

void
swtim_base_stats_get(const struct swtim_base *base,
		     struct rte_event_timer_adapter_stats *stats)
{
	unsigned int i;

	for (i = 0; i < SWTIM_LANES_MAX; i++)
		swtim_lane_stats_add(stats, &swtim_base_lane(base, i)->stats);
	/*
	 * A started adapter has ticked up to now even where its service,
	 * sharing a CPU, has not run since the last tick began: the count
	 * must not hang on when the service last got the CPU.
	 */
	if (__atomic_load_n(&base->gate.open, __ATOMIC_ACQUIRE))
		swtim_base_ticks_account((struct swtim_base *)(uintptr_t)base,
				swtim_base_tick_of(base, rte_get_timer_cycles()));
	stats->adapter_tick_count = __atomic_load_n(&base->adapter_tick_count,
						    __ATOMIC_RELAXED);
}

void
swtim_base_stats_reset(struct swtim_base *base)
{
	unsigned int i;

	for (i = 0; i < SWTIM_LANES_MAX; i++)
		swtim_lane_stats_reset(&swtim_base_lane(base, i)->stats);
	/*
	 * Ticks count from now on: a service that has not run for a while
	 * would otherwise count the ticks since its last run, before the
	 * reset, as after it (DPDK's adapter_tick_resolution case saw 49 in
	 * a second of 100 ms ticks).
	 */
	swtim_base_ticks_account(base,
			swtim_base_tick_of(base, rte_get_timer_cycles()));
	__atomic_store_n(&base->adapter_tick_count, 0, __ATOMIC_RELAXED);
}
