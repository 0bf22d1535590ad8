/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The hierarchical wheel (see whl_private.h for the essay). Every function
 * here is called with the wheel's lock held.
 */

#include <string.h>

#include <rte_prefetch.h>

#include "whl_slot.h"

void
whl_wheel_init(struct whl_wheel *w)
{
	memset(w, 0, sizeof(*w));	/* every slot empty */
	rte_spinlock_init(&w->lock);
}

/* Bits below level l's digit. */
static __rte_always_inline uint64_t
whl_low_mask(unsigned int level)
{
	unsigned int shift = level * WHL_LEVEL_BITS;

	return shift >= 64 ? UINT64_MAX : (UINT64_C(1) << shift) - 1;
}

void
whl_wheel_unlink(struct whl_adapter *whl, struct whl_wheel *w, uint32_t idx)
{
	uint32_t place = whl->timers[idx].place;
	struct whl_block *hole = &whl->blocks[whl_ref_block(place)];
	unsigned int where = hole->where;
	uint32_t stack = w->stack[where];
	struct whl_block *tb = &whl->blocks[whl_ref_block(stack)];
	uint32_t last = tb->entry[whl_ref_entry(stack) - 1], below;

	/* The slot's last index fills the hole this one leaves. */
	if (last != idx) {
		hole->entry[whl_ref_entry(place)] = last;
		whl->timers[last].place = place;
	}
	if (whl_ref_entry(stack) > 1) {
		w->stack[where] = stack - 1;
	} else {
		below = tb->below;
		whl_block_put(whl, w, whl_ref_block(stack));
		if (below == WHL_NIL)
			whl_slot_clear(w, where);
		else
			w->stack[where] = whl_ref(below, WHL_BLOCK_ENTRIES);
	}
	w->nb_armed--;
}

/*
 * The first tick, from cur on, at which a slot must be expired (level 0)
 * or cascaded (higher levels); UINT64_MAX for an empty wheel.
 *
 * At level l the slot of cur's own digit is still pending only when cur
 * is the first tick of that slot's range (nothing has cascaded it yet);
 * otherwise only the slots after it can hold timers.
 */
uint64_t
whl_wheel_next_tick(const struct whl_wheel *w)
{
	uint64_t cur = w->cur, best = UINT64_MAX;
	unsigned int levels = w->level_map;

	while (levels != 0) {
		unsigned int level = __builtin_ctz(levels);
		unsigned int shift = level * WHL_LEVEL_BITS;
		unsigned int digit = (cur >> shift) & (WHL_SLOTS - 1);
		unsigned int from = digit + ((cur & whl_low_mask(level)) != 0);
		unsigned int slot = whl_level_next(w, level, from);
		uint64_t tick;

		levels &= levels - 1;
		if (slot == WHL_SLOTS)
			continue;
		tick = (cur & ~whl_low_mask(level + 1)) |
		       ((uint64_t)slot << shift);
		best = RTE_MIN(best, tick);
	}
	return best;
}

/* Start fetching the records block b names. */
static __rte_always_inline void
whl_records_prefetch(const struct whl_adapter *whl, uint32_t b,
		     unsigned int n)
{
	const struct whl_block *blk = &whl->blocks[b];
	unsigned int i;

	for (i = 0; i < n; i++)
		rte_prefetch0(&whl->timers[blk->entry[i]]);
}

/*
 * Put full block b, all of whose records are due in slot `where`, onto
 * that slot as it is: on top if the slot is empty or its top block full,
 * else just under the top (every block but the top must be full). Its
 * records keep their places.
 */
static __rte_always_inline void
whl_block_move(struct whl_adapter *whl, struct whl_wheel *w, uint32_t b,
	       unsigned int where)
{
	struct whl_block *blocks = whl->blocks;
	uint32_t stack = w->stack[where];
	uint32_t top = whl_ref_block(stack);

	blocks[b].where = where;
	if (stack == 0 || whl_ref_entry(stack) == WHL_BLOCK_ENTRIES) {
		blocks[b].below = stack == 0 ? WHL_NIL : top;
		w->stack[where] = whl_ref(b, WHL_BLOCK_ENTRIES);
		if (stack == 0)
			whl_slot_occupy(w, where);
	} else {
		blocks[b].below = blocks[top].below;
		blocks[top].below = b;
	}
}

/*
 * Place again every record of a detached stack whose top block b holds n
 * entries. A full block whose records all go to one slot moves there
 * whole; the others' records are pushed one by one and the block freed.
 * The records of the blocks WHL_BLOCKS_AHEAD further down are fetched
 * while these are placed, and the block after those one step earlier
 * still, so the only loads waited for are the first blocks'.
 */
static void
whl_stack_relink(struct whl_adapter *whl, struct whl_wheel *w, uint32_t b,
		 unsigned int n)
{
	struct whl_block *blocks = whl->blocks;
	unsigned int where[WHL_BLOCK_ENTRIES], differ;
	const uint64_t cur = w->cur;	/* a cascade does not move it */
	uint32_t ahead = b, next;
	unsigned int i;

	for (i = 0; i <= WHL_BLOCKS_AHEAD && ahead != WHL_NIL; i++) {
		whl_records_prefetch(whl, ahead, i == 0 ? n : WHL_BLOCK_ENTRIES);
		ahead = blocks[ahead].below;
	}
	if (ahead != WHL_NIL)
		rte_prefetch0(&blocks[ahead]);
	while (b != WHL_NIL) {
		if (ahead != WHL_NIL) {
			whl_records_prefetch(whl, ahead, WHL_BLOCK_ENTRIES);
			ahead = blocks[ahead].below;
			if (ahead != WHL_NIL)
				rte_prefetch0(&blocks[ahead]);
		}
		/* Read before a move or a reuse changes it. */
		next = blocks[b].below;
		differ = 0;
		for (i = 0; i < n; i++) {
			where[i] = whl_slot_of(cur,
				whl->timers[blocks[b].entry[i]].expiry);
			differ |= where[i] ^ where[0];
		}
		if (n == WHL_BLOCK_ENTRIES && differ == 0) {
			whl_block_move(whl, w, b, where[0]);
		} else {
			whl_slots_push(whl, w, where, blocks[b].entry, n);
			/* Placing the next block's records may reuse it. */
			whl_block_put(whl, w, b);
		}
		b = next;
		n = WHL_BLOCK_ENTRIES;
	}
}

/*
 * The next tick with level 0 timers in cur's block of WHL_SLOTS ticks, or
 * UINT64_MAX when the block has none left or cur starts the block (then
 * higher levels may cascade at cur: whl_wheel_next_tick() tells). Inside
 * a block nothing cascades, so the walk over a block's timers needs only
 * level 0's bitmap.
 */
static __rte_always_inline uint64_t
whl_next_in_block(const struct whl_wheel *w)
{
	unsigned int digit = w->cur & (WHL_SLOTS - 1), slot;

	if (digit == 0)
		return UINT64_MAX;
	slot = whl_level_next(w, 0, digit);
	if (slot == WHL_SLOTS)
		return UINT64_MAX;
	return (w->cur & ~(uint64_t)(WHL_SLOTS - 1)) | slot;
}

/*
 * Bring every level above 0 whose slot starts at tick (the highest first)
 * down, so that level 0 holds all that is due at tick.
 */
static void
whl_cascade(struct whl_adapter *whl, struct whl_wheel *w, uint64_t tick)
{
	unsigned int top = tick == 0 ? WHL_LEVELS - 1 :
		RTE_MIN((unsigned int)__builtin_ctzll(tick) / WHL_LEVEL_BITS,
			WHL_LEVELS - 1);
	unsigned int level, slot;
	uint32_t stack;

	for (level = top; level > 0; level--) {
		slot = (tick >> (level * WHL_LEVEL_BITS)) & (WHL_SLOTS - 1);
		if (!whl_slot_occupied(w, level, slot))
			continue;
		stack = w->stack[level * WHL_SLOTS + slot];
		whl_slot_clear(w, level * WHL_SLOTS + slot);
		whl_stack_relink(whl, w, whl_ref_block(stack),
				 whl_ref_entry(stack));
	}
}

/*
 * Pop up to limit records off level 0's slot; return how many. The slot's
 * state is left for whatever is not taken.
 */
static __rte_always_inline uint32_t
whl_slot_pop(struct whl_adapter *whl, struct whl_wheel *w, unsigned int slot,
	     uint32_t limit, uint32_t *due)
{
	struct whl_block *blocks = whl->blocks;
	uint32_t top = whl_ref_block(w->stack[slot]), below, n = 0;
	unsigned int fill = whl_ref_entry(w->stack[slot]), take, i;

	while (n < limit && top != WHL_NIL) {
		below = blocks[top].below;
		if (below != WHL_NIL)
			rte_prefetch0(&blocks[below]);
		take = RTE_MIN(fill, limit - n);
		fill -= take;
		/* Mostly a few entries: a loop beats a call to memcpy. */
		for (i = 0; i < take; i++)
			due[n + i] = blocks[top].entry[fill + i];
		n += take;
		if (fill != 0)
			break;
		whl_block_put(whl, w, top);
		top = below;
		fill = WHL_BLOCK_ENTRIES;
	}
	if (top == WHL_NIL)
		whl_slot_clear(w, slot);
	else
		w->stack[slot] = whl_ref(top, fill);
	return n;
}

uint32_t
whl_wheel_expire(struct whl_adapter *whl, struct whl_wheel *w,
		 uint64_t target, uint32_t limit, uint32_t *due)
{
	struct whl_timer *timers = whl->timers;
	uint32_t n = 0, i;
	unsigned int slot;
	uint64_t tick;

	while (n < limit) {
		tick = whl_next_in_block(w);
		if (tick == UINT64_MAX)
			tick = whl_wheel_next_tick(w);
		if (tick > target) {
			if (w->cur <= target)
				w->cur = target + 1;
			break;
		}
		w->cur = tick;
		whl_cascade(whl, w, tick);
		slot = tick & (WHL_SLOTS - 1);
		if (whl_slot_occupied(w, 0, slot))
			n += whl_slot_pop(whl, w, slot, limit - n, &due[n]);
		/* A slot left non-empty is finished by the next call. */
		if (!whl_slot_occupied(w, 0, slot))
			w->cur = tick + 1;
	}
	/* Cancel must see them taken; fetch the records ahead. */
	for (i = 0; i < n; i++) {
		if (i + WHL_PREFETCH_AHEAD * 2 < n)
			rte_prefetch0(&timers[due[i + WHL_PREFETCH_AHEAD * 2]]);
		timers[due[i]].state = WHL_EXPIRING;
	}
	w->nb_armed -= n;
	return n;
}
