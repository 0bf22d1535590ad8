/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef WHL_SLOT_H
#define WHL_SLOT_H

/**
 * @file
 * A wheel slot's stack of blocks, and pushing a timer onto the slot it
 * belongs in: inline, because every arm and every cascade step does it.
 * Called with the wheel's lock held.
 */

#include "whl_private.h"

/*
 * A slot's stack in one word, its top block's index above the number of
 * entries in that block, so that linking a timer reads and writes one
 * word; 0 (no entries) is an empty slot.
 */
#define WHL_FILL_BITS 4
#define WHL_BLOCKS_MAX (UINT32_MAX >> WHL_FILL_BITS)
_Static_assert(WHL_BLOCK_ENTRIES < 1u << WHL_FILL_BITS, "fill fits");

static __rte_always_inline uint32_t
whl_stack_make(uint32_t top, unsigned int fill)
{
	return top << WHL_FILL_BITS | fill;
}

static __rte_always_inline uint32_t
whl_stack_top(uint32_t stack)
{
	return stack >> WHL_FILL_BITS;
}

static __rte_always_inline unsigned int
whl_stack_fill(uint32_t stack)
{
	return stack & ((1u << WHL_FILL_BITS) - 1);
}

/*
 * Where an armed record's index is: entry pos of block `block`, in the
 * stack of slot `slot` of level `level`, packed in one word that link
 * writes in one store (GCC turned separate byte fields into a
 * store-forwarding stall on the arm path).
 */
static __rte_always_inline uint64_t
whl_place_make(uint32_t block, unsigned int pos, unsigned int level,
	       unsigned int slot)
{
	return block | (uint64_t)pos << 32 | (uint64_t)level << 40 |
		(uint64_t)slot << 48;
}

static __rte_always_inline uint32_t
whl_place_block(uint64_t place)
{
	return (uint32_t)place;
}

static __rte_always_inline unsigned int
whl_place_pos(uint64_t place)
{
	return (place >> 32) & 0xff;
}

static __rte_always_inline unsigned int
whl_place_level(uint64_t place)
{
	return (place >> 40) & 0xff;
}

static __rte_always_inline unsigned int
whl_place_slot(uint64_t place)
{
	return (place >> 48) & 0xff;
}

/*
 * The level and slot a timer due at tick `expiry` goes to on wheel w, as
 * level * WHL_SLOTS + slot. An overdue timer is due at the next tick
 * processed.
 */
static __rte_always_inline unsigned int
whl_slot_of(const struct whl_wheel *w, uint64_t expiry)
{
	uint64_t due = RTE_MAX(expiry, w->cur);
	uint64_t diff = due ^ w->cur;
	unsigned int level = diff == 0 ? 0 :
		(63 - __builtin_clzll(diff)) / WHL_LEVEL_BITS;

	return level * WHL_SLOTS +
		((due >> (level * WHL_LEVEL_BITS)) & (WHL_SLOTS - 1));
}

/*
 * Push n records, all due in slot `where` (whl_slot_of()), onto that
 * slot's stack, a block's run of entries at a time.
 */
static __rte_always_inline void
whl_slot_push(struct whl_adapter *whl, struct whl_wheel *w,
	      unsigned int where, const uint32_t *idx, unsigned int n)
{
	unsigned int level = where / WHL_SLOTS, slot = where % WHL_SLOTS;
	uint32_t stack = w->stack[level][slot];
	uint32_t top = whl_stack_top(stack), b;
	unsigned int fill = whl_stack_fill(stack), k, j;

	while (n != 0) {
		if (fill == 0 || fill == WHL_BLOCK_ENTRIES) {
			b = whl_block_get(whl, w);
			whl->blocks[b].below = fill == 0 ? WHL_NIL : top;
			top = b;
			fill = 0;
			w->occupied[level] |= UINT64_C(1) << slot;
			w->level_map |= 1u << level;
		}
		k = RTE_MIN(n, WHL_BLOCK_ENTRIES - fill);
		for (j = 0; j < k; j++) {
			whl->blocks[top].entry[fill + j] = idx[j];
			whl->timers[idx[j]].place =
				whl_place_make(top, fill + j, level, slot);
		}
		fill += k;
		idx += k;
		n -= k;
	}
	w->stack[level][slot] = whl_stack_make(top, fill);
}

/*
 * Push n records onto the slots where[] names (whl_slot_of()). The slot
 * in use stays in registers while consecutive records share it (equal
 * timeouts), so a burst into one slot reads and writes its stack once.
 */
static __rte_always_inline void
whl_slots_push(struct whl_adapter *whl, struct whl_wheel *w,
	       const unsigned int *where, const uint32_t *idx, unsigned int n)
{
	unsigned int cur = where[0];
	unsigned int level = cur / WHL_SLOTS, slot = cur % WHL_SLOTS;
	uint32_t stack = w->stack[level][slot];
	uint32_t top = whl_stack_top(stack), b;
	unsigned int fill = whl_stack_fill(stack), i;

	for (i = 0; i < n; i++) {
		if (where[i] != cur) {
			w->stack[level][slot] = whl_stack_make(top, fill);
			cur = where[i];
			level = cur / WHL_SLOTS;
			slot = cur % WHL_SLOTS;
			stack = w->stack[level][slot];
			top = whl_stack_top(stack);
			fill = whl_stack_fill(stack);
		}
		if (fill == 0 || fill == WHL_BLOCK_ENTRIES) {
			b = whl_block_get(whl, w);
			whl->blocks[b].below = fill == 0 ? WHL_NIL : top;
			top = b;
			fill = 0;
			w->occupied[level] |= UINT64_C(1) << slot;
			w->level_map |= 1u << level;
		}
		whl->blocks[top].entry[fill] = idx[i];
		whl->timers[idx[i]].place =
			whl_place_make(top, fill, level, slot);
		fill++;
	}
	w->stack[level][slot] = whl_stack_make(top, fill);
}

/* Push one record onto slot `where`: whl_slot_push() for n = 1, simpler. */
static __rte_always_inline void
whl_slot_push_one(struct whl_adapter *whl, struct whl_wheel *w,
		  unsigned int where, uint32_t idx)
{
	unsigned int level = where / WHL_SLOTS, slot = where % WHL_SLOTS;
	uint32_t stack = w->stack[level][slot];
	uint32_t top = whl_stack_top(stack);
	unsigned int fill = whl_stack_fill(stack);

	if (fill == 0 || fill == WHL_BLOCK_ENTRIES) {
		uint32_t b = whl_block_get(whl, w);

		whl->blocks[b].below = fill == 0 ? WHL_NIL : top;
		top = b;
		fill = 0;
		w->occupied[level] |= UINT64_C(1) << slot;
		w->level_map |= 1u << level;
	}
	whl->blocks[top].entry[fill] = idx;
	w->stack[level][slot] = whl_stack_make(top, fill + 1);
	whl->timers[idx].place = whl_place_make(top, fill, level, slot);
}

/** Push a record onto the slot its expiry and the wheel's clock give. */
static __rte_always_inline void
whl_slot_link(struct whl_adapter *whl, struct whl_wheel *w, uint32_t idx)
{
	whl_slot_push_one(whl, w, whl_slot_of(w, whl->timers[idx].expiry),
			  idx);
}

/** Link an armed record into wheel w. */
static __rte_always_inline void
whl_wheel_link(struct whl_adapter *whl, struct whl_wheel *w, uint32_t idx)
{
	whl_slot_link(whl, w, idx);
	w->nb_armed++;
}

#endif /* WHL_SLOT_H */
