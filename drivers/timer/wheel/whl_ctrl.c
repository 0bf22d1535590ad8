/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Control path of the wheel driver: setting its part of an adapter up
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

#include "whl_slot.h"
#include "swtim_log.h"

/* Adapters created, the upper bits of their tags (WHL_TAG_ID_BITS). */
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

static int
whl_blocks_create(struct whl_adapter *whl, uint16_t adapter_id,
		  uint64_t nb_timers)
{
	char name[RTE_RING_NAMESIZE];
	uint64_t nb_blocks = whl_blocks_needed(nb_timers, SWTIM_LANES_MAX);

	/* Block indices must fit in a place (whl_ref()). */
	if (nb_blocks > WHL_BLOCKS_MAX) {
		SWTIM_LOG(ERR, "nb_timers %" PRIu64 " too large", nb_timers);
		return -EINVAL;
	}
	whl->nb_blocks = nb_blocks;
	whl->block_bulk = whl_block_bulk_of(nb_timers);
	whl->blocks = rte_malloc_socket("swtim_whl_blocks",
			(size_t)whl->nb_blocks * sizeof(whl->blocks[0]),
			sizeof(whl->blocks[0]), whl->base.socket);
	whl->heads = rte_malloc_socket("swtim_whl_heads",
			(size_t)whl->nb_blocks * sizeof(whl->heads[0]),
			RTE_CACHE_LINE_SIZE, whl->base.socket);
	if (whl->blocks == NULL || whl->heads == NULL) {
		SWTIM_LOG(ERR, "no memory for %u slot blocks", whl->nb_blocks);
		return -ENOMEM;
	}
	/*
	 * Written through once here (every entry NULL), so that no page of
	 * them is first touched by an arm: memory without hugepages is
	 * faulted in on its first write (rte_zmalloc() does not write memory
	 * fresh from the system), and the free pool hands out the blocks
	 * never used before last. Measured: 55 more cycles an arm in bursts
	 * while the wheel worked through them.
	 */
	memset(whl->blocks, 0,
	       (size_t)whl->nb_blocks * sizeof(whl->blocks[0]));
	memset(whl->heads, 0, (size_t)whl->nb_blocks * sizeof(whl->heads[0]));
	snprintf(name, sizeof(name), "swtim_whlb_%u", adapter_id);
	whl->block_pool = whl_block_pool_create(name, whl->nb_blocks,
						whl->base.socket);
	if (whl->block_pool == NULL)
		return -ENOMEM;
	return 0;
}

static int
whl_init(struct swtim_base *base, const struct swtim_adapter_params *p,
	 const struct rte_kvargs *args __rte_unused)
{
	struct whl_adapter *whl = whl_of_base(base);
	unsigned int i;

	whl->tag = whl_tag_new(p->conf.timer_adapter_id);
	whl->wheels = rte_malloc_socket("swtim_whl_wheels",
			SWTIM_LANES_MAX * sizeof(whl->wheels[0]),
			RTE_CACHE_LINE_SIZE, base->socket);
	if (whl->wheels == NULL)
		return -ENOMEM;
	for (i = 0; i < SWTIM_LANES_MAX; i++)
		whl_wheel_init(&whl->wheels[i], whl->tag, i);
	swtim_base_lanes_set(base, &whl->wheels[0].lane,
			     sizeof(whl->wheels[0]));
	return whl_blocks_create(whl, p->conf.timer_adapter_id,
				 p->conf.nb_timers);
}

/* A timer still armed when its adapter is freed is cancelled. */
static void
whl_timer_drop(struct rte_event_timer *evtim)
{
	__atomic_store_n(&evtim->state, RTE_EVENT_TIMER_CANCELED,
			 __ATOMIC_RELEASE);
}

/* A periodic timer whose event waits in a buffer is off its wheel. */
static void
whl_waiting_drop(struct swtim_base *base, uintptr_t tag)
{
	whl_timer_drop((struct rte_event_timer *)tag);
}

static void
whl_teardown(struct swtim_base *base)
{
	struct whl_adapter *whl = whl_of_base(base);
	uint32_t i;

	/* A dead wheel may be half changed: its timers are lost. Staged
	 * ones are linked first, so that they are dropped too; nothing
	 * runs on an adapter being freed. */
	for (i = 0; whl->wheels != NULL && whl->blocks != NULL &&
	     i < SWTIM_LANES_MAX; i++)
		if (!swtim_lane_dead(&whl->wheels[i].lane)) {
			whl_stage_drain(whl, &whl->wheels[i],
					rte_get_timer_cycles());
			whl_wheel_for_each(whl, &whl->wheels[i],
					   whl_timer_drop);
		}
	swtim_stack_free(whl->block_pool);
	rte_free(whl->blocks);
	rte_free(whl->heads);
	rte_free(whl->wheels);
}

static const struct swtim_driver_ops whl_ops = {
	.init = whl_init,
	.teardown = whl_teardown,
	.arm_burst = whl_arm_burst,
	.cancel_burst = whl_cancel_burst,
	.remaining_ticks_get = whl_remaining_ticks_get,
	.due = whl_lane_due,
	.expire = whl_lane_expire,
	.next_deadline = whl_lane_next_deadline,
	.periodic_resume = whl_periodic_resume,
	.waiting_drop = whl_waiting_drop,
};

static struct swtim_driver whl_driver = {
	.name = "wheel",
	.short_name = "whl",
	.priv_size = sizeof(struct whl_adapter),
	.ops = &whl_ops,
};

SWTIM_DRIVER_REGISTER(whl_driver);
