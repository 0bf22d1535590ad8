/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Free slot blocks: each is an index into an array the adapter allocated
 * once, kept in a small per-wheel cache (guarded by the wheel's lock) in
 * front of a pool all wheels share (swtim_stack.h: one a process killed
 * inside it leaves whole). A cache refills and spills `bulk` indices at a
 * time, so the pool's lock is paid once per bulk operations, and it never
 * holds more than two bulks: the size of the array counts on that
 * (whl_blocks_needed()).
 */

#include <string.h>

#include <rte_debug.h>

#include "whl_private.h"
#include "swtim_log.h"

/*
 * Slot blocks nb_wheels wheels can need at once, for nb_timers armed:
 * every stack's blocks are full but its top one, so the stacks hold at
 * most nb_timers / WHL_BLOCK_ENTRIES full blocks and one partial block per
 * non-empty slot (a slot holds a timer, and there are WHL_LEVELS x
 * WHL_SLOTS slots a wheel). On top of that each wheel may have a full
 * cache (two bulks), a stack detached for a cascade, and the block a
 * cascade is emptying, whose indices are already in their new slots too
 * (one more block's worth). A block a cascade moves whole is full and
 * stays counted once.
 */
uint64_t
whl_blocks_needed(uint64_t nb_timers, unsigned int nb_wheels)
{
	uint64_t slots = (uint64_t)nb_wheels * WHL_LEVELS * WHL_SLOTS;

	return (nb_timers + WHL_BLOCK_ENTRIES - 1) / WHL_BLOCK_ENTRIES +
		RTE_MIN(nb_timers, slots) +
		(uint64_t)nb_wheels * (2 * whl_block_bulk_of(nb_timers) + 3);
}

/*
 * A bulk of nb_timers / 2048 blocks, within the bounds (64 from 128k
 * timers on): from 16k timers on, the caches of all SWTIM_LANES_MAX wheels
 * then add at most about an eighth to the blocks the stacks can need (one
 * a timer, up to the slots of every wheel).
 */
uint32_t
whl_block_bulk_of(uint64_t nb_timers)
{
	return RTE_MAX((uint64_t)WHL_BLOCK_BULK_MIN,
		       RTE_MIN((uint64_t)WHL_BLOCK_BULK_MAX, nb_timers / 2048));
}

struct swtim_stack *
whl_block_pool_create(const char *name, uint32_t n, int socket)
{
	struct swtim_stack *pool;
	uint32_t batch[256];
	uint32_t i, done, k;

	pool = swtim_stack_create(name, n, sizeof(uint32_t), socket);
	if (pool == NULL) {
		SWTIM_LOG(ERR, "no memory for pool %s of %u indices", name, n);
		return NULL;
	}
	/* Highest first, so that the lowest come out first. */
	for (done = 0; done < n; done += k) {
		k = RTE_MIN(n - done, (uint32_t)RTE_DIM(batch));
		for (i = 0; i < k; i++)
			batch[i] = n - 1 - (done + i);
		swtim_stack_push(pool, batch, k);
	}
	return pool;
}

uint32_t
whl_free_get(struct whl_free_cache *c, struct swtim_stack *pool,
	     uint32_t bulk, uint32_t *idx, uint32_t n)
{
	uint32_t got = 0, take;

	while (got < n) {
		if (c->n == 0) {
			c->n = swtim_stack_pop(pool, c->idx, bulk);
			if (c->n == 0)
				break;
		}
		take = RTE_MIN(n - got, c->n);
		c->n -= take;
		memcpy(&idx[got], &c->idx[c->n], take * sizeof(uint32_t));
		got += take;
	}
	return got;
}

void
whl_free_spill(struct whl_free_cache *c, struct swtim_stack *pool,
	       uint32_t bulk)
{
	c->n -= bulk;
	/* The pool has room for every index: this cannot fail. */
	RTE_VERIFY(swtim_stack_push(pool, &c->idx[c->n], bulk) == bulk);
}

uint32_t
whl_block_refill(struct whl_adapter *whl, struct whl_wheel *w)
{
	uint32_t b;

	/*
	 * The block array is sized for the worst case (whl_ctrl.c), so
	 * running out is a bug in that count, not a load to survive.
	 */
	RTE_VERIFY(whl_free_get(&w->free_blocks, whl->block_pool,
				whl->block_bulk, &b, 1) == 1);
	return b;
}
