/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Control path of the skiplist driver: setting an adapter up and down,
 * start/stop of its service, stats, and the driver's registration.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_service.h>
#include <rte_service_component.h>

#include "skl_private.h"
#include "swtim_log.h"

static int
skl_objs_create(struct skl_adapter *skl, uint16_t adapter_id,
		uint64_t nb_timers, int socket)
{
	char name[RTE_RING_NAMESIZE];
	uint64_t nb_objs = nb_timers + SWTIM_RECYCLER_SLACK, i;
	void *batch[SWTIM_RECYCLER_BULK];
	unsigned int n = 0;

	if (nb_objs >= UINT32_MAX) {
		SWTIM_LOG(ERR, "nb_timers %" PRIu64 " too large", nb_timers);
		return -EINVAL;
	}
	skl->objs = rte_malloc_socket("swtim_skl_objs",
				      nb_objs * sizeof(skl->objs[0]),
				      RTE_CACHE_LINE_SIZE, socket);
	snprintf(name, sizeof(name), "swtim_skl_%u", adapter_id);
	skl->recycler = swtim_recycler_create(name, nb_objs, socket);
	if (skl->objs == NULL || skl->recycler == NULL) {
		SWTIM_LOG(ERR, "no memory for %" PRIu64 " timers", nb_objs);
		return -ENOMEM;
	}
	for (i = 0; i < nb_objs; i++) {
		struct skl_timer *t = &skl->objs[i];

		rte_timer_init(&t->tim);
		t->owner = 0;
		t->free_next = NULL;
		batch[n++] = t;
		if (n == RTE_DIM(batch) || i + 1 == nb_objs) {
			swtim_recycler_fill(skl->recycler, batch, n);
			n = 0;
		}
	}
	return 0;
}

static void skl_uninit(struct swtim_adapter *adapter);

static int
skl_init(struct swtim_adapter *adapter, const struct rte_kvargs *args)
{
	const struct swtim_adapter_params *p = swtim_adapter_params(adapter);
	int socket = p->conf.socket_id;
	struct skl_adapter *skl;
	int ret;

	skl = rte_zmalloc_socket("swtim_skl", sizeof(*skl),
				 RTE_CACHE_LINE_SIZE, socket);
	if (skl == NULL)
		return -ENOMEM;
	skl->service_id = UINT32_MAX;
	skl->timer_data_id = UINT32_MAX;
	swtim_adapter_priv_set(adapter, skl);

	skl->periodic = !!(p->conf.flags & RTE_EVENT_TIMER_ADAPTER_F_PERIODIC);
	skl->tick_cycles = p->tick_cycles;
	skl->budget.limit = p->conf.nb_timers;
	skl->socket = socket;
	ret = swtim_idle_init(&skl->idle, args);
	if (ret != 0)
		goto fail;
	swtim_poll_set_init(&skl->polled);

	ret = rte_timer_subsystem_init();
	if (ret != 0 && ret != -EALREADY) {
		SWTIM_LOG(ERR, "librte_timer init failed: %d", ret);
		goto fail;
	}
	ret = rte_timer_data_alloc(&skl->timer_data_id);
	if (ret != 0) {
		SWTIM_LOG(ERR, "no librte_timer data instance left: %d", ret);
		skl->timer_data_id = UINT32_MAX;
		goto fail;
	}
	ret = skl_objs_create(skl, p->conf.timer_adapter_id, p->conf.nb_timers,
			      socket);
	if (ret != 0)
		goto fail;
	/* MT safe: runs on several lcores split the lists between them. */
	ret = swtim_service_register("skl", p->conf.timer_adapter_id,
				     skl_service_run, skl, socket, true,
				     &skl->service_id);
	if (ret != 0) {
		skl->service_id = UINT32_MAX;
		goto fail;
	}
	return 0;
fail:
	skl_uninit(adapter);
	return ret;
}

/* rte_timer_stop_all() callback: the timer is off its list; its memory
 * goes with the adapter's. */
static void
skl_timer_reclaim(struct rte_timer *tim, void *arg __rte_unused)
{
	struct skl_timer *t = container_of(tim, struct skl_timer, tim);
	struct rte_event_timer *evtim =
		(struct rte_event_timer *)SKL_OWNER_EVTIM(t->owner);

	if (evtim != NULL)
		__atomic_store_n(&evtim->state, RTE_EVENT_TIMER_CANCELED,
				 __ATOMIC_RELEASE);
	t->owner = 0;
}

static void
skl_uninit(struct swtim_adapter *adapter)
{
	struct skl_adapter *skl = swtim_adapter_priv(adapter);
	uint32_t i, dropped = 0;

	if (skl == NULL)
		return;
	if (skl->service_id != UINT32_MAX) {
		rte_service_component_runstate_set(skl->service_id, 0);
		/* No service lcore may still call in with skl. */
		swtim_service_quiesce(skl->service_id);
		rte_service_component_unregister(skl->service_id);
	}
	if (skl->timer_data_id != UINT32_MAX) {
		for (i = 0; i < skl->polled.count; i++) {
			unsigned int lcore = skl->polled.ids[i];

			rte_timer_stop_all(skl->timer_data_id, &lcore, 1,
					   skl_timer_reclaim, skl);
		}
		rte_timer_data_dealloc(skl->timer_data_id);
	}
	for (i = 0; i < RTE_MAX_LCORE; i++) {
		struct swtim_evbuf *buf = &skl->lists[i].evbuf;
		uint32_t pos;

		/* Periodic timers waiting for their events are on no list. */
		if (buf->tags != NULL)
			for (pos = buf->head; pos != buf->tail; pos++)
				skl_timer_reclaim(&((struct skl_timer *)
					swtim_evbuf_tag_of(buf, pos))->tim,
					NULL);
		dropped += swtim_evbuf_count(buf);
		swtim_evbuf_free(buf);
	}
	if (dropped != 0)
		SWTIM_LOG(NOTICE, "dropping %u expiry events not yet enqueued",
			  dropped);
	swtim_recycler_free(skl->recycler);
	rte_free(skl->objs);
	rte_free(skl);
	swtim_adapter_priv_set(adapter, NULL);
}

static int
skl_start(struct swtim_adapter *adapter)
{
	struct skl_adapter *skl = swtim_adapter_priv(adapter);
	uint64_t now = rte_get_timer_cycles();
	unsigned int i;

	skl->next_tick = now;
	for (i = 0; i < RTE_MAX_LCORE; i++) {
		skl->lists[i].next_scan = now;
		swtim_evbuf_stall_reset(&skl->lists[i].evbuf);
	}
	/* Ports may have been added since init; the service is out. */
	swtim_evports_init(&skl->ports, swtim_adapter_params(adapter));
	return swtim_gate_open(&skl->gate, skl->service_id);
}

static int
skl_stop(struct swtim_adapter *adapter)
{
	struct skl_adapter *skl = swtim_adapter_priv(adapter);

	swtim_gate_close(&skl->gate, skl->service_id);
	return 0;
}

static int
skl_service_id_get(const struct swtim_adapter *adapter, uint32_t *service_id)
{
	const struct skl_adapter *skl = swtim_adapter_priv(adapter);

	*service_id = skl->service_id;
	return 0;
}

static void
skl_stats_get(const struct swtim_adapter *adapter,
	      struct rte_event_timer_adapter_stats *stats)
{
	const struct skl_adapter *skl = swtim_adapter_priv(adapter);
	unsigned int i;

	for (i = 0; i < RTE_MAX_LCORE; i++)
		swtim_driver_stats_add(stats, &skl->lists[i].stats);
	stats->adapter_tick_count = __atomic_load_n(&skl->adapter_tick_count,
						    __ATOMIC_RELAXED);
}

static void
skl_stats_reset(struct swtim_adapter *adapter)
{
	struct skl_adapter *skl = swtim_adapter_priv(adapter);
	unsigned int i;

	for (i = 0; i < RTE_MAX_LCORE; i++)
		swtim_driver_stats_reset(&skl->lists[i].stats);
	__atomic_store_n(&skl->adapter_tick_count, 0, __ATOMIC_RELAXED);
}

static const struct swtim_driver_ops skl_ops = {
	.init = skl_init,
	.uninit = skl_uninit,
	.start = skl_start,
	.stop = skl_stop,
	.service_id_get = skl_service_id_get,
	.stats_get = skl_stats_get,
	.stats_reset = skl_stats_reset,
	.arm_burst = skl_arm_burst,
	.arm_tmo_tick_burst = skl_arm_tmo_tick_burst,
	.cancel_burst = skl_cancel_burst,
	.remaining_ticks_get = skl_remaining_ticks_get,
	.next_deadline = skl_next_deadline,
};

static const char *const skl_valid_args[] = { SWTIM_IDLE_ARG, NULL };

static struct swtim_driver skl_driver = {
	.name = "skiplist",
	.valid_args = skl_valid_args,
	/* Below a microsecond the service's own run time dominates. */
	.min_tick_ns = 1000,
	.caps = RTE_EVENT_TIMER_ADAPTER_CAP_PERIODIC,
	.ops = &skl_ops,
};

SWTIM_DRIVER_REGISTER(skl_driver);
