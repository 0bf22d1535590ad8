/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Control path of the wheel driver: setting an adapter up and down,
 * start/stop of its service, stats, and the driver's registration.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_ring_elem.h>
#include <rte_service.h>
#include <rte_service_component.h>

#include "whl_slot.h"
#include "swtim_log.h"

/*
 * An adapter's tag (whl_owner_of()): its id in the low bits, unique among
 * the adapters that exist at once, so that a timer armed on one never
 * names another; above it a count of the adapters created, so that a
 * timer left from a freed adapter (its state CANCELED) seldom names the
 * next one of the same id either. A plain count of creations wrapped
 * after 65535 of them onto a tag still in use.
 */
#define WHL_TAG_ID_BITS 5
_Static_assert(SWTIM_ADAPTER_NUM_MAX <= 1 << WHL_TAG_ID_BITS,
	       "adapter ids fit in a tag");
static uint16_t whl_generation;

/* A tag for adapter id; never 0, which a zeroed timer carries. */
static uint16_t
whl_tag_new(uint16_t adapter_id)
{
	uint16_t gen, tag;

	do {
		gen = __atomic_add_fetch(&whl_generation, 1,
					 __ATOMIC_RELAXED);
		tag = (uint16_t)(gen << WHL_TAG_ID_BITS) | adapter_id;
	} while (tag == 0);
	return tag;
}

/* A ring of the free indices 0 .. n - 1, or NULL (logged). */
static struct rte_ring *
whl_index_ring_create(const char *name, uint32_t n, int socket)
{
	struct rte_ring *ring;
	uint32_t batch[256];
	uint32_t i, done, k;

	ring = rte_ring_create_elem(name, sizeof(uint32_t), n, socket,
				    RING_F_EXACT_SZ);
	if (ring == NULL) {
		SWTIM_LOG(ERR, "cannot create ring %s: %s", name,
			  rte_strerror(rte_errno));
		return NULL;
	}
	for (done = 0; done < n; done += k) {
		k = RTE_MIN(n - done, (uint32_t)RTE_DIM(batch));
		for (i = 0; i < k; i++)
			batch[i] = done + i;
		rte_ring_enqueue_bulk_elem(ring, batch, sizeof(uint32_t), k,
					   NULL);
	}
	return ring;
}

static int
whl_blocks_create(struct whl_adapter *whl, uint16_t adapter_id,
		  uint64_t nb_timers)
{
	char name[RTE_RING_NAMESIZE];
	uint64_t nb_blocks = whl_blocks_needed(nb_timers, RTE_MAX_LCORE);

	/* Block indices are 28-bit (whl_ref()). */
	if (nb_blocks > WHL_BLOCKS_MAX) {
		SWTIM_LOG(ERR, "nb_timers %" PRIu64 " too large", nb_timers);
		return -EINVAL;
	}
	whl->nb_blocks = nb_blocks;
	whl->blocks = rte_malloc_socket("swtim_whl_blocks",
			(size_t)whl->nb_blocks * sizeof(whl->blocks[0]),
			sizeof(whl->blocks[0]), whl->socket);
	whl->heads = rte_malloc_socket("swtim_whl_heads",
			(size_t)whl->nb_blocks * sizeof(whl->heads[0]),
			RTE_CACHE_LINE_SIZE, whl->socket);
	if (whl->blocks == NULL || whl->heads == NULL) {
		SWTIM_LOG(ERR, "no memory for %u slot blocks", whl->nb_blocks);
		return -ENOMEM;
	}
	/*
	 * Written through once here (every entry NULL), so that no page of
	 * them is first touched by an arm: memory without hugepages is
	 * faulted in on its first write (rte_zmalloc() does not write memory
	 * fresh from the system), and the free ring hands out the blocks
	 * never used before last. Measured: 55 more cycles an arm in bursts
	 * while the wheel worked through them.
	 */
	memset(whl->blocks, 0,
	       (size_t)whl->nb_blocks * sizeof(whl->blocks[0]));
	memset(whl->heads, 0, (size_t)whl->nb_blocks * sizeof(whl->heads[0]));
	snprintf(name, sizeof(name), "swtim_whlb_%u", adapter_id);
	whl->block_ring = whl_index_ring_create(name, whl->nb_blocks,
						whl->socket);
	if (whl->block_ring == NULL)
		return -ENOMEM;
	return 0;
}

static void whl_uninit(struct swtim_adapter *adapter);

static int
whl_init(struct swtim_adapter *adapter, const struct rte_kvargs *args)
{
	const struct swtim_adapter_params *p = swtim_adapter_params(adapter);
	struct whl_adapter *whl;
	unsigned int i;
	int ret;

	whl = rte_zmalloc_socket("swtim_whl", sizeof(*whl),
				 RTE_CACHE_LINE_SIZE, p->conf.socket_id);
	if (whl == NULL)
		return -ENOMEM;
	whl->service_id = UINT32_MAX;
	swtim_adapter_priv_set(adapter, whl);

	whl->periodic = !!(p->conf.flags & RTE_EVENT_TIMER_ADAPTER_F_PERIODIC);
	ret = swtim_idle_init(&whl->idle, args);
	if (ret != 0)
		goto fail;
	whl->socket = p->conf.socket_id;
	whl->tick_cycles = p->tick_cycles;
	whl->tick_div = rte_reciprocal_value_u64(whl->tick_cycles);
	whl->start_cycles = rte_get_timer_cycles();
	whl->budget.limit = p->conf.nb_timers;
	whl->tag = whl_tag_new(p->conf.timer_adapter_id);
	swtim_poll_set_init(&whl->polled);

	whl->wheels = rte_malloc_socket("swtim_whl_wheels",
			RTE_MAX_LCORE * sizeof(whl->wheels[0]),
			RTE_CACHE_LINE_SIZE, whl->socket);
	if (whl->wheels == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	for (i = 0; i < RTE_MAX_LCORE; i++)
		whl_wheel_init(&whl->wheels[i], whl->tag, i);
	ret = whl_blocks_create(whl, p->conf.timer_adapter_id,
				p->conf.nb_timers);
	if (ret != 0)
		goto fail;
	/* MT safe: runs on several lcores split the wheels between them. */
	ret = swtim_service_register("whl", p->conf.timer_adapter_id,
				     whl_service_run, whl, whl->socket, true,
				     &whl->service_id);
	if (ret != 0) {
		whl->service_id = UINT32_MAX;
		goto fail;
	}
	return 0;
fail:
	whl_uninit(adapter);
	return ret;
}

/* A timer still armed when its adapter is freed is cancelled. */
static void
whl_timer_drop(struct rte_event_timer *evtim)
{
	__atomic_store_n(&evtim->state, RTE_EVENT_TIMER_CANCELED,
			 __ATOMIC_RELEASE);
}

static void
whl_uninit(struct swtim_adapter *adapter)
{
	struct whl_adapter *whl = swtim_adapter_priv(adapter);
	uint32_t i, j, dropped = 0;
	struct swtim_evbuf *evbuf;

	if (whl == NULL)
		return;
	if (whl->service_id != UINT32_MAX) {
		rte_service_component_runstate_set(whl->service_id, 0);
		/* No service lcore may still call in with whl. */
		swtim_service_quiesce(whl->service_id);
		rte_service_component_unregister(whl->service_id);
	}
	/*
	 * Timers still armed are cancelled by the free: those on the wheels
	 * and the periodic ones whose events wait in a buffer (a one-shot
	 * timer is the application's again once its event is built).
	 */
	for (i = 0; whl->wheels != NULL && i < RTE_MAX_LCORE; i++) {
		evbuf = &whl->wheels[i].evbuf;
		if (whl->blocks != NULL)
			whl_wheel_for_each(whl, &whl->wheels[i],
					   whl_timer_drop);
		for (j = 0; whl->periodic && j < swtim_evbuf_count(evbuf); j++)
			whl_timer_drop((struct rte_event_timer *)
				swtim_evbuf_tag_of(evbuf, evbuf->head + j));
		dropped += swtim_evbuf_count(evbuf);
		swtim_evbuf_free(evbuf);
	}
	if (dropped != 0)
		SWTIM_LOG(NOTICE, "dropping %u expiry events not yet enqueued",
			  dropped);
	rte_ring_free(whl->block_ring);
	rte_free(whl->blocks);
	rte_free(whl->heads);
	rte_free(whl->wheels);
	rte_free(whl);
	swtim_adapter_priv_set(adapter, NULL);
}

static int
whl_start(struct swtim_adapter *adapter)
{
	struct whl_adapter *whl = swtim_adapter_priv(adapter);
	unsigned int i;

	for (i = 0; i < RTE_MAX_LCORE; i++)
		swtim_evbuf_stall_reset(&whl->wheels[i].evbuf);
	/* Ports may have been added since init; the service is out. */
	swtim_evports_init(&whl->ports, swtim_adapter_params(adapter));
	/* The ticks that passed before start, or while stopped, are not
	 * the service's: it counts from now on. */
	__atomic_store_n(&whl->ticks_done,
			 whl_tick_of(whl, rte_get_timer_cycles()),
			 __ATOMIC_RELAXED);
	return swtim_gate_open(&whl->gate, whl->service_id);
}

static int
whl_stop(struct swtim_adapter *adapter)
{
	struct whl_adapter *whl = swtim_adapter_priv(adapter);

	swtim_gate_close(&whl->gate, whl->service_id);
	return 0;
}

static int
whl_service_id_get(const struct swtim_adapter *adapter, uint32_t *service_id)
{
	const struct whl_adapter *whl = swtim_adapter_priv(adapter);

	*service_id = whl->service_id;
	return 0;
}

static void
whl_stats_get(const struct swtim_adapter *adapter,
	      struct rte_event_timer_adapter_stats *stats)
{
	const struct whl_adapter *whl = swtim_adapter_priv(adapter);
	unsigned int i;

	for (i = 0; i < RTE_MAX_LCORE; i++)
		swtim_driver_stats_add(stats, &whl->wheels[i].stats);
	stats->adapter_tick_count = __atomic_load_n(&whl->adapter_tick_count,
						    __ATOMIC_RELAXED);
}

static void
whl_stats_reset(struct swtim_adapter *adapter)
{
	struct whl_adapter *whl = swtim_adapter_priv(adapter);
	unsigned int i;

	for (i = 0; i < RTE_MAX_LCORE; i++)
		swtim_driver_stats_reset(&whl->wheels[i].stats);
	__atomic_store_n(&whl->adapter_tick_count, 0, __ATOMIC_RELAXED);
}

static const struct swtim_driver_ops whl_ops = {
	.init = whl_init,
	.uninit = whl_uninit,
	.start = whl_start,
	.stop = whl_stop,
	.service_id_get = whl_service_id_get,
	.stats_get = whl_stats_get,
	.stats_reset = whl_stats_reset,
	.arm_burst = whl_arm_burst,
	.arm_tmo_tick_burst = whl_arm_tmo_tick_burst,
	.cancel_burst = whl_cancel_burst,
	.remaining_ticks_get = whl_remaining_ticks_get,
	.next_deadline = whl_next_deadline,
};

static const char *const whl_valid_args[] = { SWTIM_IDLE_ARG, NULL };

static struct swtim_driver whl_driver = {
	.name = "wheel",
	.valid_args = whl_valid_args,
	/* Below a microsecond the service's own run time dominates. */
	.min_tick_ns = 1000,
	.caps = RTE_EVENT_TIMER_ADAPTER_CAP_PERIODIC,
	.ops = &whl_ops,
};

SWTIM_DRIVER_REGISTER(whl_driver);
