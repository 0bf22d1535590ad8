/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The hierarchical wheel (see whl_private.h for the essay) and the
 * per-wheel cache of free records. Every function here is called with the
 * wheel's lock held.
 */

#include <string.h>

#include <rte_ring_elem.h>

#include "whl_private.h"

void
whl_wheel_init(struct whl_wheel *w)
{
	memset(w, 0, sizeof(*w));
	rte_spinlock_init(&w->lock);
	memset(w->head, 0xff, sizeof(w->head));	/* every slot WHL_NIL */
}

/* Bits below level l's digit. */
static __rte_always_inline uint64_t
whl_low_mask(unsigned int level)
{
	unsigned int shift = level * WHL_LEVEL_BITS;

	return shift >= 64 ? UINT64_MAX : (UINT64_C(1) << shift) - 1;
}

/* Link a record into the slot its expiry and the wheel's clock give. */
static __rte_always_inline void
whl_slot_link(struct whl_wheel *w, struct whl_timer *timers, uint32_t idx)
{
	struct whl_timer *t = &timers[idx];
	/* An overdue timer is due at the next tick processed. */
	uint64_t due = RTE_MAX(t->expiry, w->cur);
	uint64_t diff = due ^ w->cur;
	unsigned int level = diff == 0 ? 0 :
		(63 - __builtin_clzll(diff)) / WHL_LEVEL_BITS;
	unsigned int slot = (due >> (level * WHL_LEVEL_BITS)) & (WHL_SLOTS - 1);
	uint32_t head = w->head[level][slot];

	t->level = level;
	t->slot = slot;
	t->prev = WHL_NIL;
	t->next = head;
	if (head != WHL_NIL)
		timers[head].prev = idx;
	w->head[level][slot] = idx;
	w->occupied[level] |= UINT64_C(1) << slot;
	w->level_map |= 1u << level;
}

/* Take a slot's whole list off the wheel; return its first record. */
static __rte_always_inline uint32_t
whl_slot_detach(struct whl_wheel *w, unsigned int level, unsigned int slot)
{
	uint32_t head = w->head[level][slot];

	w->head[level][slot] = WHL_NIL;
	w->occupied[level] &= ~(UINT64_C(1) << slot);
	if (w->occupied[level] == 0)
		w->level_map &= ~(1u << level);
	return head;
}

void
whl_wheel_link(struct whl_wheel *w, struct whl_timer *timers, uint32_t idx)
{
	whl_slot_link(w, timers, idx);
	w->nb_armed++;
}

void
whl_wheel_unlink(struct whl_wheel *w, struct whl_timer *timers, uint32_t idx)
{
	struct whl_timer *t = &timers[idx];

	if (t->prev != WHL_NIL) {
		timers[t->prev].next = t->next;
	} else {
		w->head[t->level][t->slot] = t->next;
		if (t->next == WHL_NIL) {
			w->occupied[t->level] &= ~(UINT64_C(1) << t->slot);
			if (w->occupied[t->level] == 0)
				w->level_map &= ~(1u << t->level);
		}
	}
	if (t->next != WHL_NIL)
		timers[t->next].prev = t->prev;
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
		uint64_t pending, tick;

		levels &= levels - 1;
		if (from >= WHL_SLOTS)
			continue;
		pending = w->occupied[level] & (UINT64_MAX << from);
		if (pending == 0)
			continue;
		tick = (cur & ~whl_low_mask(level + 1)) |
		       ((uint64_t)__builtin_ctzll(pending) << shift);
		best = RTE_MIN(best, tick);
	}
	return best;
}

/*
 * Bring every level above 0 whose slot starts at tick (the highest first)
 * down, so that level 0 holds all that is due at tick.
 */
static void
whl_cascade(struct whl_wheel *w, struct whl_timer *timers, uint64_t tick)
{
	unsigned int top = tick == 0 ? WHL_LEVELS - 1 :
		RTE_MIN((unsigned int)__builtin_ctzll(tick) / WHL_LEVEL_BITS,
			WHL_LEVELS - 1);
	unsigned int level, slot;
	uint32_t idx, next;

	for (level = top; level > 0; level--) {
		slot = (tick >> (level * WHL_LEVEL_BITS)) & (WHL_SLOTS - 1);
		if (!(w->occupied[level] & (UINT64_C(1) << slot)))
			continue;
		for (idx = whl_slot_detach(w, level, slot); idx != WHL_NIL;
		     idx = next) {
			next = timers[idx].next;
			whl_slot_link(w, timers, idx);
		}
	}
}

uint32_t
whl_wheel_expire(struct whl_wheel *w, struct whl_timer *timers,
		 uint64_t target, uint32_t limit, uint32_t *due)
{
	uint32_t n = 0, idx;
	unsigned int slot;
	uint64_t tick;

	while (n < limit) {
		tick = whl_wheel_next_tick(w);
		if (tick > target) {
			if (w->cur <= target)
				w->cur = target + 1;
			break;
		}
		w->cur = tick;
		whl_cascade(w, timers, tick);
		slot = tick & (WHL_SLOTS - 1);
		if (!(w->occupied[0] & (UINT64_C(1) << slot))) {
			w->cur = tick + 1;
			continue;
		}
		/*
		 * Take the due records from the front of the slot in one go:
		 * only the last one taken has a neighbour to fix.
		 */
		for (idx = w->head[0][slot]; n < limit && idx != WHL_NIL;
		     idx = timers[idx].next) {
			timers[idx].state = WHL_EXPIRING;
			due[n++] = idx;
			w->nb_armed--;
		}
		if (idx == WHL_NIL) {
			whl_slot_detach(w, 0, slot);
			w->cur = tick + 1;
		} else {
			/* A slot left non-empty is finished by the next call. */
			w->head[0][slot] = idx;
			timers[idx].prev = WHL_NIL;
		}
	}
	return n;
}

uint32_t
whl_cache_get(struct whl_adapter *whl, struct whl_wheel *w, uint32_t *idx,
	      uint32_t n)
{
	uint32_t got = 0, take;

	while (got < n) {
		if (w->nb_cached == 0) {
			w->nb_cached = rte_ring_mc_dequeue_burst_elem(
				whl->free_ring, w->cache, sizeof(uint32_t),
				WHL_CACHE_BULK, NULL);
			if (w->nb_cached == 0)
				break;
		}
		take = RTE_MIN(n - got, w->nb_cached);
		w->nb_cached -= take;
		memcpy(&idx[got], &w->cache[w->nb_cached],
		       take * sizeof(uint32_t));
		got += take;
	}
	return got;
}

void
whl_cache_put(struct whl_adapter *whl, struct whl_wheel *w, uint32_t idx)
{
	if (unlikely(w->nb_cached == WHL_CACHE_SIZE)) {
		w->nb_cached -= WHL_CACHE_BULK;
		/* The ring has room for every record: this cannot fail. */
		RTE_VERIFY(rte_ring_mp_enqueue_bulk_elem(whl->free_ring,
				&w->cache[w->nb_cached], sizeof(uint32_t),
				WHL_CACHE_BULK, NULL) == WHL_CACHE_BULK);
	}
	w->cache[w->nb_cached++] = idx;
}
