/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Control path of the skiplist driver: setting its part of an adapter up
 * and down (the rest of the control path is the generic layer's,
 * swtim_base.c), and the driver's one table of operations and
 * registration.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "skl_private.h"
#include "swtim_log.h"

static int
skl_objs_create(struct skl_adapter *skl, uint16_t adapter_id,
		uint64_t nb_timers, int socket)
{
	char name[RTE_RING_NAMESIZE];
	uint64_t nb_objs = nb_timers + SKL_RECYCLER_SLACK, i;
	void *batch[SKL_RECYCLER_BULK];
	unsigned int n = 0;

	if (nb_objs >= UINT32_MAX) {
		SWTIM_LOG(ERR, "nb_timers %" PRIu64 " too large", nb_timers);
		return -EINVAL;
	}
	skl->objs = rte_malloc_socket("swtim_skl_objs",
				      nb_objs * sizeof(skl->objs[0]),
				      RTE_CACHE_LINE_SIZE, socket);
	snprintf(name, sizeof(name), "swtim_skl_%u", adapter_id);
	skl->recycler = skl_recycler_create(name, nb_objs, socket);
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
			skl_recycler_fill(skl->recycler, batch, n);
			n = 0;
		}
	}
	return 0;
}

static int
skl_init(struct swtim_base *base, const struct swtim_adapter_params *p,
	 const struct rte_kvargs *args __rte_unused)
{
	struct skl_adapter *skl = skl_of_base(base);
	int ret;

	/* Allocated or not, teardown must tell (0 is an instance). */
	skl->timer_data_id = UINT32_MAX;
	swtim_base_lanes_set(base, &skl->lists[0].lane, sizeof(skl->lists[0]));
	ret = rte_timer_subsystem_init();
	if (ret != 0 && ret != -EALREADY) {
		SWTIM_LOG(ERR, "librte_timer init failed: %d", ret);
		return ret;
	}
	ret = rte_timer_data_alloc(&skl->timer_data_id);
	if (ret != 0) {
		SWTIM_LOG(ERR, "no librte_timer data instance left: %d", ret);
		skl->timer_data_id = UINT32_MAX;
		return ret;
	}
	return skl_objs_create(skl, p->conf.timer_adapter_id,
			       p->conf.nb_timers, base->socket);
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

/* A periodic timer whose event waits in a buffer is on no list. */
static void
skl_waiting_drop(struct swtim_base *base, uintptr_t tag)
{
	skl_timer_reclaim(&((struct skl_timer *)tag)->tim, NULL);
}

/* The timers of a list's overflow queue are on no list either. */
static void
skl_overflow_drop(struct skl_list *list)
{
	struct skl_timer *t;

	for (t = list->overflow_head; t != NULL; t = t->free_next)
		skl_timer_reclaim(&t->tim, NULL);
	list->overflow_head = NULL;
	list->overflow_tail = NULL;
}

static void
skl_teardown(struct swtim_base *base)
{
	struct skl_adapter *skl = skl_of_base(base);
	uint32_t i;

	/* A dead list may be half changed, its librte_timer lock held:
	 * its timers are lost. */
	for (i = 0; i < SWTIM_LANES_MAX; i++)
		if (!swtim_lane_dead(&skl->lists[i].lane))
			skl_overflow_drop(&skl->lists[i]);
	if (skl->timer_data_id != UINT32_MAX) {
		for (i = 0; i < base->polled.count; i++) {
			unsigned int lcore = base->polled.ids[i];

			if (swtim_lane_dead(&skl->lists[lcore].lane))
				continue;
			rte_timer_stop_all(skl->timer_data_id, &lcore, 1,
					   skl_timer_reclaim, skl);
		}
		rte_timer_data_dealloc(skl->timer_data_id);
	}
	skl_recycler_free(skl->recycler);
	rte_free(skl->objs);
}

/* Every list is due at once after a start. */
static void
skl_start(struct swtim_base *base, uint64_t now)
{
	struct skl_adapter *skl = skl_of_base(base);
	unsigned int i;

	for (i = 0; i < SWTIM_LANES_MAX; i++)
		skl->lists[i].next_scan = now;
}

/*
 * A secondary process arms into the primary's lists, but librte_timer
 * keeps its pointer to them per process: rte_timer_subsystem_init() sets
 * it (finding the primary's memzone) and answers -EALREADY once done.
 */
static int
skl_attach(struct swtim_base *base __rte_unused)
{
	int ret = rte_timer_subsystem_init();

	return ret == -EALREADY ? 0 : ret;
}

static const struct swtim_driver_ops skl_ops = {
	.init = skl_init,
	.teardown = skl_teardown,
	.attach = skl_attach,
	.start = skl_start,
	.arm_burst = skl_arm_burst,
	.cancel_burst = skl_cancel_burst,
	.remaining_ticks_get = skl_remaining_ticks_get,
	.run_begin = skl_run_begin,
	.due = skl_lane_due,
	.expire = skl_lane_expire,
	.next_deadline = skl_lane_next_deadline,
	.periodic_resume = skl_periodic_resume,
	.waiting_drop = skl_waiting_drop,
};

static struct swtim_driver skl_driver = {
	.name = "skiplist",
	.short_name = "skl",
	.priv_size = sizeof(struct skl_adapter),
	.ops = &skl_ops,
};

SWTIM_DRIVER_REGISTER(skl_driver);
