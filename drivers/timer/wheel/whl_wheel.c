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
whl_wheel_init(struct whl_wheel *w, uint16_t tag, unsigned int wheel_id)
{
	memset(w, 0, sizeof(*w));	/* every slot empty */
	swtim_olock_init(&w->lane.lock);
	w->owner = whl_owner_of(tag, wheel_id);
}

/* Bits below level l's digit. */
static __rte_always_inline uint64_t
whl_low_mask(unsigned int level)
{
	unsigned int shift = level * WHL_LEVEL_BITS;

	return shift >= 64 ? UINT64_MAX : (UINT64_C(1) << shift) - 1;
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

/* Whether a cascade moves block b, holding n timers, without reading
 * them: full, and all due at one tick. */
static __rte_always_inline bool
whl_block_moves_blind(const struct whl_adapter *whl, uint32_t b,
		      unsigned int n)
{
	return n == WHL_BLOCK_ENTRIES && whl->heads[b].uniform;
}

/* Start fetching block b's entries, both their cache lines. */
static __rte_always_inline void
whl_block_prefetch(const struct whl_adapter *whl, uint32_t b)
{
	rte_prefetch0(&whl->blocks[b].entry[0]);
	rte_prefetch0(&whl->blocks[b].entry[WHL_BLOCK_ENTRIES - 1]);
}

/* Start fetching the first n timers block b names. */
static __rte_always_inline void
whl_timers_prefetch(const struct whl_adapter *whl, uint32_t b,
		    unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		rte_prefetch0(whl->blocks[b].entry[i]);
}

/*
 * Put full block b, all of whose timers are due in slot `where`, onto
 * that slot as it is: on top if the slot is empty or its top block full,
 * else just under the top (every block but the top must be full). Its
 * timers keep their places.
 */
static __rte_always_inline void
whl_block_move(struct whl_adapter *whl, struct whl_wheel *w, uint32_t b,
	       unsigned int where)
{
	struct whl_block_head *heads = whl->heads;
	uint32_t stack = w->stack[where];
	uint32_t top = whl_ref_block(stack);

	heads[b].where = where;
	if (stack == 0 || whl_ref_entry(stack) == WHL_BLOCK_ENTRIES) {
		heads[b].below = stack == 0 ? WHL_NIL : top;
		w->stack[where] = whl_ref(b, WHL_BLOCK_ENTRIES);
		if (stack == 0)
			whl_slot_occupy(w, where);
	} else {
		heads[b].below = heads[top].below;
		heads[top].below = b;
	}
}

/*
 * Place again every timer of a detached stack whose top block b holds n
 * entries. A full block whose timers all go to one slot moves there
 * whole: without reading them when the block knows they share a due tick;
 * the others' timers are pushed one by one and the block freed. Walking
 * the dense block heads ahead of the work, the entries of the blocks
 * 2 * WHL_BLOCKS_AHEAD further down are fetched, and the timers of those
 * WHL_BLOCKS_AHEAD down, so that the loads waited for are the first
 * blocks' only.
 */
static void
whl_stack_relink(struct whl_adapter *whl, struct whl_wheel *w, uint32_t b,
		 unsigned int n)
{
	const struct whl_block_head *heads = whl->heads;
	struct whl_block *blocks = whl->blocks;
	unsigned int where[WHL_BLOCK_ENTRIES], differ;
	const uint64_t cur = w->cur;	/* a cascade does not move it */
	uint32_t near = b, far = b, next;
	unsigned int i, n_near = n, n_far = n;

	for (i = 0; i < 2 * WHL_BLOCKS_AHEAD && far != WHL_NIL; i++) {
		if (!whl_block_moves_blind(whl, far, n_far))
			whl_block_prefetch(whl, far);
		far = heads[far].below;
		n_far = WHL_BLOCK_ENTRIES;
	}
	for (i = 0; i < WHL_BLOCKS_AHEAD && near != WHL_NIL; i++) {
		if (!whl_block_moves_blind(whl, near, n_near))
			whl_timers_prefetch(whl, near, n_near);
		near = heads[near].below;
		n_near = WHL_BLOCK_ENTRIES;
	}
	while (b != WHL_NIL) {
		if (far != WHL_NIL) {
			if (!whl_block_moves_blind(whl, far, WHL_BLOCK_ENTRIES))
				whl_block_prefetch(whl, far);
			far = heads[far].below;
		}
		if (near != WHL_NIL) {
			if (!whl_block_moves_blind(whl, near, WHL_BLOCK_ENTRIES))
				whl_timers_prefetch(whl, near,
						    WHL_BLOCK_ENTRIES);
			near = heads[near].below;
		}
		/* Read before a move or a reuse changes it. */
		next = heads[b].below;
		if (whl_block_moves_blind(whl, b, n)) {
			whl_block_move(whl, w, b,
				       whl_slot_of(cur, heads[b].due));
			goto moved;
		}
		differ = 0;
		for (i = 0; i < n; i++) {
			where[i] = whl_slot_of(cur,
					whl_timer_due(blocks[b].entry[i]));
			differ |= where[i] ^ where[0];
		}
		if (n == WHL_BLOCK_ENTRIES && differ == 0) {
			whl_block_move(whl, w, b, where[0]);
		} else {
			whl_slots_push(whl, w, where, blocks[b].entry, n);
			/* Placing the next block's timers may reuse it. */
			memset(blocks[b].entry, 0, n * sizeof(blocks[b].entry[0]));
			whl_block_put(whl, w, b);
		}
moved:
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
 * Pop up to limit timers off level 0's slot, emptying their entries;
 * return how many. The slot's state is left for whatever is not taken.
 */
static __rte_always_inline uint32_t
whl_slot_pop(struct whl_adapter *whl, struct whl_wheel *w, unsigned int slot,
	     uint32_t limit, struct rte_event_timer **due)
{
	struct whl_block *blocks = whl->blocks;
	const struct whl_block_head *heads = whl->heads;
	uint32_t top = whl_ref_block(w->stack[slot]), below, n = 0;
	uint32_t ahead = top;
	unsigned int fill = whl_ref_entry(w->stack[slot]), take, i;

	/* The entries of the blocks a few down, found in the dense heads. */
	for (i = 0; i < 2 * WHL_BLOCKS_AHEAD && ahead != WHL_NIL; i++) {
		whl_block_prefetch(whl, ahead);
		ahead = heads[ahead].below;
	}
	while (n < limit && top != WHL_NIL) {
		below = heads[top].below;
		if (ahead != WHL_NIL) {
			whl_block_prefetch(whl, ahead);
			ahead = heads[ahead].below;
		}
		take = RTE_MIN(fill, limit - n);
		fill -= take;
		/* Mostly a few entries: a loop beats calls to memcpy. */
		for (i = 0; i < take; i++) {
			due[n + i] = blocks[top].entry[fill + i];
			blocks[top].entry[fill + i] = NULL;
		}
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
		 uint64_t target, uint32_t limit, struct rte_event_timer **due)
{
	uint32_t n = 0;
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
	/* Their entries are NULL now: cancel sees them taken. */
	w->nb_armed -= n;
	return n;
}

/*
 * Only the slots the level bitmaps mark are visited: an adapter has
 * SWTIM_LANES_MAX wheels of WHL_LEVELS * WHL_SLOTS slots, nearly all of
 * them empty: reading every stack made a free read 2048 stacks a wheel,
 * a quarter of a million an adapter.
 */
void
whl_wheel_for_each(const struct whl_adapter *whl, const struct whl_wheel *w,
		   void (*fn)(struct rte_event_timer *evtim))
{
	unsigned int level, slot, fill, i;
	uint32_t stack, b;

	for (level = 0; level < WHL_LEVELS; level++) {
		if (!((w->level_map >> level) & 1))
			continue;
		for (slot = whl_level_next(w, level, 0); slot < WHL_SLOTS;
		     slot = whl_level_next(w, level, slot + 1)) {
			stack = w->stack[level * WHL_SLOTS + slot];
			b = whl_ref_block(stack);
			fill = whl_ref_entry(stack);
			while (b != WHL_NIL) {
				for (i = 0; i < fill; i++)
					fn(whl->blocks[b].entry[i]);
				b = whl->heads[b].below;
				fill = WHL_BLOCK_ENTRIES;
			}
		}
	}
}
