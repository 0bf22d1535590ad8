/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef WHL_SLOT_H
#define WHL_SLOT_H

/**
 * @file
 * A wheel slot's stack of blocks, pushing timers onto the slots they
 * belong in and taking them off: inline, because every arm, cancel and
 * cascade step does it.
 * Called with the wheel's lock held.
 */

#include <limits.h>

#include <rte_cycles.h>
#include <rte_prefetch.h>

#include "whl_private.h"

/*
 * A position in the block array, (block, entry) in one 32-bit word: a
 * timer's place while armed, and a slot's stack as (top block, entries
 * in it), where 0 entries means an empty slot. One word, so that linking a
 * timer reads and writes each with one access (byte-sized fields made GCC
 * spill and reload them wider: a store-forwarding stall on the arm path).
 */
#define WHL_ENTRY_BITS 5
#define WHL_BLOCKS_MAX (UINT32_MAX >> WHL_ENTRY_BITS)
_Static_assert(WHL_BLOCK_ENTRIES < 1u << WHL_ENTRY_BITS, "a fill fits");

/*
 * The geometry (WHL_LEVEL_BITS) fits the fields that hold it: a block
 * head's `where` names every slot of every level, and level_map has a bit
 * for each level, as have the unsigned int masks made from it (1u <<
 * level, __builtin_ctz()).
 */
_Static_assert(WHL_LEVELS * WHL_SLOTS <= UINT64_C(1) <<
	       (RTE_SIZEOF_FIELD(struct whl_block_head, where) * CHAR_BIT),
	       "where names every slot");
_Static_assert(WHL_LEVELS <=
	       RTE_SIZEOF_FIELD(struct whl_wheel, level_map) * CHAR_BIT &&
	       WHL_LEVELS <= sizeof(unsigned int) * CHAR_BIT,
	       "a bit of level_map for each level");

static __rte_always_inline uint32_t
whl_ref(uint32_t block, unsigned int entry)
{
	return block << WHL_ENTRY_BITS | entry;
}

static __rte_always_inline uint32_t
whl_ref_block(uint32_t ref)
{
	return ref >> WHL_ENTRY_BITS;
}

static __rte_always_inline unsigned int
whl_ref_entry(uint32_t ref)
{
	return ref & ((1u << WHL_ENTRY_BITS) - 1);
}

/* Start fetching the head and the entry a (maybe stale) place names. */
static __rte_always_inline void
whl_place_prefetch(const struct whl_adapter *whl, uint32_t place)
{
	uint32_t b = whl_ref_block(place);

	if (b < whl->nb_blocks) {
		rte_prefetch0(&whl->heads[b]);
		rte_prefetch0(&whl->blocks[b].entry[whl_ref_entry(place) %
						    WHL_BLOCK_ENTRIES]);
	}
}

/* Whether slot `slot` of level `level` holds a timer. */
static __rte_always_inline bool
whl_slot_occupied(const struct whl_wheel *w, unsigned int level,
		  unsigned int slot)
{
	return (w->occupied[level][slot / 64] >> (slot % 64)) & 1;
}

/* The first slot of level `level` from `from` on that holds a timer, or
 * WHL_SLOTS. */
static __rte_always_inline unsigned int
whl_level_next(const struct whl_wheel *w, unsigned int level,
	       unsigned int from)
{
	unsigned int word = from / 64;
	uint64_t bits;

	if (from >= WHL_SLOTS)
		return WHL_SLOTS;
	bits = w->occupied[level][word] & (UINT64_MAX << (from % 64));
	while (bits == 0) {
		if (++word == WHL_MAP_WORDS)
			return WHL_SLOTS;
		bits = w->occupied[level][word];
	}
	return word * 64 + __builtin_ctzll(bits);
}

/* Mark slot `where` occupied in the level bitmaps. */
static __rte_always_inline void
whl_slot_occupy(struct whl_wheel *w, unsigned int where)
{
	unsigned int level = where / WHL_SLOTS, slot = where % WHL_SLOTS;

	w->occupied[level][slot / 64] |= UINT64_C(1) << (slot % 64);
	w->level_map |= 1u << level;
}

/* Mark slot `where` empty. */
static __rte_always_inline void
whl_slot_clear(struct whl_wheel *w, unsigned int where)
{
	unsigned int level = where / WHL_SLOTS, slot = where % WHL_SLOTS;
	unsigned int word;

	w->stack[where] = 0;
	w->occupied[level][slot / 64] &= ~(UINT64_C(1) << (slot % 64));
	if (w->occupied[level][slot / 64] != 0)
		return;
	for (word = 0; word < WHL_MAP_WORDS; word++)
		if (w->occupied[level][word] != 0)
			return;
	w->level_map &= ~(1u << level);
}

/*
 * The slot a timer due at tick `expiry` goes to on a wheel whose clock is
 * `cur`, as level * WHL_SLOTS + slot. An overdue timer is due at the next
 * tick processed.
 */
static __rte_always_inline unsigned int
whl_slot_of(uint64_t cur, uint64_t expiry)
{
	uint64_t due = RTE_MAX(expiry, cur);
	uint64_t diff = due ^ cur;
	unsigned int level = diff == 0 ? 0 :
		(63 - __builtin_clzll(diff)) / WHL_LEVEL_BITS;

	return level * WHL_SLOTS +
		((due >> (level * WHL_LEVEL_BITS)) & (WHL_SLOTS - 1));
}

/*
 * Put a fresh block on top of slot `where`'s stack, whose word was `stack`
 * (0: empty); return the block.
 */
static __rte_always_inline uint32_t
whl_slot_grow(struct whl_adapter *whl, struct whl_wheel *w,
	      unsigned int where, uint32_t stack)
{
	uint32_t b = whl_block_get(whl, w);

	whl->heads[b].below = stack == 0 ? WHL_NIL : whl_ref_block(stack);
	whl->heads[b].where = where;
	if (stack == 0)
		whl_slot_occupy(w, where);
	return b;
}

/* Put a timer due at tick `due` into entry `entry` of block b. */
static __rte_always_inline void
whl_block_fill(struct whl_adapter *whl, const struct whl_wheel *w,
	       uint32_t b, unsigned int entry, struct rte_event_timer *evtim,
	       uint64_t due)
{
	struct whl_block_head *head = &whl->heads[b];

	if (entry == 0) {
		head->due = due;
		head->uniform = 1;
	} else {
		head->uniform &= due == head->due;
	}
	whl->blocks[b].entry[entry] = evtim;
	whl_place_set(w, evtim, whl_ref(b, entry));
}

/*
 * Push n timers, all due at tick `due` and so in slot `where`
 * (whl_slot_of()), onto that slot's stack, a block's run of entries at a
 * time.
 */
static __rte_always_inline void
whl_slot_push(struct whl_adapter *whl, struct whl_wheel *w,
	      unsigned int where, uint64_t due,
	      struct rte_event_timer *const *evtims, unsigned int n)
{
	uint32_t stack = w->stack[where];
	uint32_t top = whl_ref_block(stack);
	unsigned int fill = whl_ref_entry(stack), k, j;

	while (n != 0) {
		if (fill == 0 || fill == WHL_BLOCK_ENTRIES) {
			top = whl_slot_grow(whl, w, where, stack);
			fill = 0;
		}
		k = RTE_MIN(n, WHL_BLOCK_ENTRIES - fill);
		for (j = 0; j < k; j++)
			whl_block_fill(whl, w, top, fill + j, evtims[j], due);
		fill += k;
		evtims += k;
		n -= k;
		stack = whl_ref(top, fill);
	}
	w->stack[where] = stack;
}

/*
 * Push n timers onto the slots where[] names (whl_slot_of() of their due
 * ticks). The slot in use stays in registers while consecutive timers
 * share it (equal timeouts), so a run into one slot reads and writes its
 * stack once.
 */
static __rte_always_inline void
whl_slots_push(struct whl_adapter *whl, struct whl_wheel *w,
	       const unsigned int *where, struct rte_event_timer *const *evtims,
	       unsigned int n)
{
	unsigned int cur = where[0], i;
	uint32_t stack = w->stack[cur];

	for (i = 0; i < n; i++) {
		if (where[i] != cur) {
			w->stack[cur] = stack;
			cur = where[i];
			stack = w->stack[cur];
		}
		if (whl_ref_entry(stack) == 0 ||
		    whl_ref_entry(stack) == WHL_BLOCK_ENTRIES)
			stack = whl_ref(whl_slot_grow(whl, w, cur, stack), 0);
		whl_block_fill(whl, w, whl_ref_block(stack),
			       whl_ref_entry(stack), evtims[i],
			       whl_timer_due(evtims[i]));
		stack++;	/* the next entry of the same block */
	}
	w->stack[cur] = stack;
}

/** Link an armed timer into wheel w, in the slot its due tick gives. */
static __rte_always_inline void
whl_wheel_link(struct whl_adapter *whl, struct whl_wheel *w,
	       struct rte_event_timer *evtim)
{
	unsigned int where = whl_slot_of(w->cur, whl_timer_due(evtim));

	whl_slots_push(whl, w, &where, &evtim, 1);
	w->nb_armed++;
}

/*
 * Whether the timer is on wheel w, whose lock the caller holds: it names
 * w, and the entry its place names holds it (entries are NULL unless they
 * hold an armed timer). The name and the place are read in one word: the
 * application may arm the timer again on another wheel meanwhile (once an
 * expiry made it NOT_ARMED), which rewrites both at once; a place read
 * with w's name is w's and cannot change while w's lock is held. The
 * place may be garbage for a timer armed on an adapter long freed whose
 * tag this one reuses, hence the bounds, and its entry may then be in
 * another wheel's stack, hence the atomic load.
 */
static __rte_always_inline bool
whl_wheel_holds(const struct whl_adapter *whl, const struct whl_wheel *w,
		const struct rte_event_timer *evtim)
{
	uint64_t word = __atomic_load_n(&evtim->impl_opaque[1],
					__ATOMIC_RELAXED);
	uint32_t place = (uint32_t)(word & WHL_PLACE_MASK);
	uint32_t b = whl_ref_block(place);
	unsigned int entry = whl_ref_entry(place);

	return (word & ~WHL_PLACE_MASK) == w->owner &&
		b < whl->nb_blocks && entry < WHL_BLOCK_ENTRIES &&
		__atomic_load_n(&whl->blocks[b].entry[entry],
				__ATOMIC_RELAXED) == evtim;
}

/* Take an armed timer off wheel w, whose lock the caller holds: the
 * slot's last timer fills its entry. */
static __rte_always_inline void
whl_wheel_unlink(struct whl_adapter *whl, struct whl_wheel *w,
		 struct rte_event_timer *evtim)
{
	uint32_t place = whl_place_of(evtim);
	uint32_t hole = whl_ref_block(place);
	unsigned int where = whl->heads[hole].where;
	uint32_t stack = w->stack[where], below;
	uint32_t top = whl_ref_block(stack);
	struct rte_event_timer **lastp =
		&whl->blocks[top].entry[whl_ref_entry(stack) - 1];
	struct rte_event_timer *last = *lastp;

	if (last != evtim) {
		whl->blocks[hole].entry[whl_ref_entry(place)] = last;
		if (hole != top)
			whl->heads[hole].uniform &=
				whl_timer_due(last) == whl->heads[hole].due;
		whl_place_set(w, last, place);
	}
	*lastp = NULL;
	if (whl_ref_entry(stack) > 1) {
		w->stack[where] = stack - 1;
	} else {
		below = whl->heads[top].below;
		whl_block_put(whl, w, whl_ref_block(stack));
		if (below == WHL_NIL)
			whl_slot_clear(w, where);
		else
			w->stack[where] = whl_ref(below, WHL_BLOCK_ENTRIES);
	}
	w->nb_armed--;
}

/*
 * Before timers are linked into wheel w, whose lock is held, with the
 * first grain after now: an empty wheel is not scanned, so its clock
 * stays where the last expiry left it; placed against a stale clock,
 * timers would land on higher levels and be cascaded more often.
 * Nothing on an empty wheel is due before now, so its clock may skip
 * there.
 */
static __rte_always_inline void
whl_wheel_catch_up(struct whl_wheel *w, uint64_t now_grain)
{
	if (w->nb_armed == 0 && now_grain > w->cur + 1)
		w->cur = now_grain - 1;
}

/* Whether wheel w has staged arms not linked yet; without the lock. */
static __rte_always_inline bool
whl_stage_pending(const struct whl_wheel *w)
{
	return __atomic_load_n(&w->stage.tail, __ATOMIC_ACQUIRE) !=
		__atomic_load_n(&w->stage.head, __ATOMIC_RELAXED);
}

/*
 * Link the timers staged on wheel w (whl_arm_staged()), with its lock
 * held, the clock caught up first (whl_wheel_catch_up()). now is the
 * caller's time: the service's run expires up to its grain, and a clock
 * skipped past it by a later reading would leave what is due there for
 * the next run.
 */
static __rte_always_inline void
whl_stage_drain(struct whl_adapter *whl, struct whl_wheel *w, uint64_t now)
{
	struct whl_stage *s = &w->stage;
	uint32_t head = s->head;
	uint32_t tail = __atomic_load_n(&s->tail, __ATOMIC_ACQUIRE);

	if (head == tail)
		return;
	/* The division only where the clock may move. */
	if (w->nb_armed == 0)
		whl_wheel_catch_up(w, swtim_base_grain_after(&whl->base, now));
	for (; head != tail; head++)
		whl_wheel_link(whl, w, s->ring[head % WHL_STAGE_SIZE]);
	__atomic_store_n(&s->head, head, __ATOMIC_RELEASE);
}

#endif /* WHL_SLOT_H */
