/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The wheel driver's data structure (drivers/timer/wheel) driven directly,
 * without clock or service, against a model: random arms (runs of equal
 * timeouts, random timeouts over every level, overdue timers), cancels,
 * expiries in chunks of random size with cancels between the chunks, and
 * periodic re-links, on one wheel, and single arms staged on its ring
 * (whl_arm_staged()'s stores), linked by the next cancel or expiry
 * (whl_stage_drain(), as the driver's lock holders do) or by an arm
 * that finds the ring full. After every step the wheel's own
 * bookkeeping is checked against what it holds:
 *
 * - every armed timer sits in exactly one stack, at the place it records,
 *   in the slot its due tick and the wheel's clock give; every block knows
 *   its slot, every block below a top is full, a block that says its
 *   timers share a due tick is right; entries that hold no timer are NULL;
 *   the bitmaps say which slots and levels hold anything; nb_armed counts
 *   them; whl_wheel_holds() is true exactly for the armed timers;
 *   the ring holds exactly the staged ones, in the order staged;
 * - an expiry returns exactly the armed timers due up to its target, each
 *   once, in tick order, never one due later; staged ones included,
 *   from when they are linked: due then, if not before (at most one
 *   tick late, whichever tick the drain finds the clock at);
 * - no block is lost or duplicated: in stacks, in the wheel's cache and in
 *   the ring they add up to what was allocated, with the blocks sized by
 *   the driver's own whl_blocks_needed() for one wheel.
 *
 * It is built at the library's geometry and at 4 bits a level (16 slots,
 * 16 levels: test/meson.build), where cascades are frequent. Its tick
 * ranges reach every level of either, and the last case checks that
 * between them the cases filled every level and cascaded timers down from
 * each.
 */

#include <inttypes.h>
#include <string.h>


#include "swtim_test.h"
#include "whl_slot.h"

#define NB_TIMERS	3000
#define STEPS		20000
#define CHECK_EVERY	7	/* steps between full checks */

#define TAG		0x5a5a
#define WHEEL_ID	3

/*
 * Timeouts, in bits of ticks: most up to 2^40, which a run's clock passes
 * (it moves about 2^45), so that they expire and cascade during the run;
 * one in 16 up to 2^62, so that the upper levels of any geometry hold
 * timers too, which the last expiry of a run (SWEEP_TICKS on) cascades
 * down through every level below. Clocks start below 2^63, so due ticks
 * stay below 2^64 - 2^61 and a re-link a period later cannot wrap.
 */
#define TIMEOUT_BITS		40
#define LONG_TIMEOUT_BITS	62
#define SWEEP_TICKS		(UINT64_C(1) << LONG_TIMEOUT_BITS)

/* What the test believes about each timer. */
enum mstate { M_FREE, M_ARMED, M_EXPIRING, M_STAGED };

struct model {
	uint8_t state[NB_TIMERS];
	uint64_t due[NB_TIMERS];	/* while M_ARMED */
	/* While M_ARMED: its level at the last check(), 0 before one. */
	uint8_t level[NB_TIMERS];
	uint32_t nb_armed;
	uint32_t nb_expiring;
	uint32_t nb_staged;
};

static struct whl_adapter whl;
static struct whl_wheel *w;
static struct whl_wheel *w_other;	/* another lcore's, never used */
static struct rte_event_timer *tims;
static struct model *m;
static uint8_t *in_stack;	/* check(): timer seen in a stack */
static uint8_t *block_used;	/* check(): block seen in a stack */
static uint64_t rnd;

/*
 * What the cases exercised, all of them together: levels that held
 * timers, and timers the wheel moved down from each level, seen by
 * check() on a lower level or expired since check() last saw them on it.
 */
static unsigned int levels_held;
static uint64_t cascaded[WHL_LEVELS];
/* Timers staged, and linked by a drain, all cases together. */
static uint64_t staged_linked;

/* The index of an event timer in tims, or NB_TIMERS if not one of them. */
static uint32_t
index_of(const struct rte_event_timer *evtim)
{
	uintptr_t off = (uintptr_t)evtim - (uintptr_t)tims;

	if (evtim < tims || off % sizeof(*tims) != 0 ||
	    off / sizeof(*tims) >= NB_TIMERS)
		return NB_TIMERS;
	return off / sizeof(*tims);
}

static int
setup(uint64_t start_tick)
{
	memset(&whl, 0, sizeof(whl));
	whl.tag = TAG;
	whl.nb_blocks = whl_blocks_needed(NB_TIMERS, 1);
	whl.block_bulk = whl_block_bulk_of(NB_TIMERS);
	tims = swt_calloc(NB_TIMERS, sizeof(tims[0]));
	whl.blocks = swt_calloc(whl.nb_blocks, sizeof(whl.blocks[0]));
	whl.heads = swt_calloc(whl.nb_blocks, sizeof(whl.heads[0]));
	w = swt_calloc(1, sizeof(*w));
	w_other = swt_calloc(1, sizeof(*w_other));
	m = swt_calloc(1, sizeof(*m));
	in_stack = swt_calloc(NB_TIMERS, 1);
	block_used = swt_calloc(whl.nb_blocks, 1);
	SWT_ASSERT(tims != NULL && whl.blocks != NULL && whl.heads != NULL &&
		   w != NULL && w_other != NULL && m != NULL &&
		   in_stack != NULL && block_used != NULL, "alloc");
	/* The pool's lock is tagged with this process's slot. */
	SWT_ASSERT(swtim_proc_attach() == 0, "process table: %s",
		   rte_strerror(rte_errno));
	whl.block_pool = whl_block_pool_create("twm_blocks", whl.nb_blocks,
					       SOCKET_ID_ANY);
	SWT_ASSERT(whl.block_pool != NULL, "pool: %s",
		   rte_strerror(rte_errno));
	whl_wheel_init(w, TAG, WHEEL_ID);
	whl_wheel_init(w_other, TAG, WHEEL_ID + 1);
	w->cur = start_tick;
	/* A grain of one cycle: a drain's time is a tick (whl_stage_drain()
	 * skips an empty wheel's clock to it). */
	whl.base.grain_cycles = 1;
	whl.base.grain_div = rte_reciprocal_value_u64(1);
	SWT_ASSERT(swtim_base_grain_after(&whl.base, start_tick + 12345) ==
		   start_tick + 12345, "a grain of one cycle");
	return SWT_PASS;
}

static void
teardown(void)
{
	swtim_stack_free(whl.block_pool);
	whl.block_pool = NULL;
}

/* Ticks below 2^max_bits, whose size (so the level) is picked at random. */
static uint64_t
random_ticks(unsigned int max_bits)
{
	unsigned int bits = swt_rand_range(&rnd, 0, max_bits);

	return swt_rand(&rnd) & ((UINT64_C(1) << bits) - 1);
}

static uint64_t
random_timeout(void)
{
	return random_ticks(swt_rand(&rnd) % 16 == 0 ? LONG_TIMEOUT_BITS :
			    TIMEOUT_BITS);
}

/* Up to n free timers picked at random; return how many. */
static unsigned int
pick_free(struct rte_event_timer **evtims, unsigned int n)
{
	uint32_t i, start = swt_rand(&rnd) % NB_TIMERS, got = 0, k;

	for (i = 0; i < NB_TIMERS && got < n; i++) {
		k = (start + i) % NB_TIMERS;
		if (m->state[k] == M_FREE) {
			m->state[k] = M_ARMED;	/* not picked twice */
			evtims[got++] = &tims[k];
		}
	}
	return got;
}

/* An overdue expiry: up to 100 ticks before the clock, due at once. */
static uint64_t
overdue_expiry(void)
{
	return w->cur - RTE_MIN(w->cur, swt_rand_range(&rnd, 0, 100));
}

/*
 * Link what is staged, as a lock holder does, the clock at tick now:
 * each staged timer is armed from here, due when it said or, if that
 * has passed, at the tick the clock is at.
 */
static int
drain(uint64_t now)
{
	struct whl_stage *st = &w->stage;
	uint32_t head = st->head, tail = st->tail, idx;
	uint64_t cur = w->cur;

	whl_stage_drain(&whl, w, now);
	SWT_ASSERT_EQ(st->head, tail);
	/* Never past now: what is due up to it would wait a run. */
	SWT_ASSERT(w->cur == cur || (cur < now && w->cur <= now),
		   "clock %" PRIu64 " moved to %" PRIu64 " by a drain at %"
		   PRIu64, cur, w->cur, now);
	for (; head != tail; head++) {
		idx = index_of(st->ring[head % WHL_STAGE_SIZE]);
		SWT_ASSERT(idx < NB_TIMERS && m->state[idx] == M_STAGED,
			   "ring entry %u: timer %u", head, idx);
		SWT_ASSERT(whl_wheel_holds(&whl, w, &tims[idx]),
			   "staged timer %u not linked", idx);
		m->state[idx] = M_ARMED;
		m->due[idx] = RTE_MAX(whl_timer_due(&tims[idx]), w->cur);
		m->level[idx] = 0;
		m->nb_staged--;
		m->nb_armed++;
		staged_linked++;
	}
	SWT_ASSERT_EQ(m->nb_staged, 0);
	return SWT_PASS;
}

/*
 * Stage up to n free timers one at a time, with whl_arm_staged()'s
 * stores, each with a random timeout or overdue; a full ring makes the
 * next one link it all first, as whl_arm_begin() does.
 */
static int
stage(unsigned int n)
{
	struct whl_stage *st = &w->stage;
	struct rte_event_timer *evtim;
	uint32_t idx;

	while (n-- > 0) {
		if (st->tail - st->head == WHL_STAGE_SIZE &&
		    drain(w->cur) != SWT_PASS)
			return SWT_FAIL;
		if (pick_free(&evtim, 1) == 0)
			return SWT_PASS;
		idx = index_of(evtim);
		m->state[idx] = M_STAGED;
		m->nb_staged++;
		evtim->impl_opaque[0] = swt_rand(&rnd) % 8 == 0 ?
			overdue_expiry() : w->cur + random_timeout();
		evtim->impl_opaque[1] = w->owner | WHL_PLACE_STAGED;
		SWT_ASSERT(!whl_wheel_holds(&whl, w, evtim),
			   "staged timer %u held", idx);
		st->ring[st->tail % WHL_STAGE_SIZE] = evtim;
		st->tail++;
	}
	return SWT_PASS;
}

/*
 * Arm up to n free timers, the way whl_arm() does; far: each with a
 * timeout of random size up to 2^LONG_TIMEOUT_BITS.
 */
static int
arm(unsigned int n, bool far)
{
	struct rte_event_timer *evtims[32];
	unsigned int where[32], i, got;
	/* Far ones take the default kind: each its own timeout. */
	unsigned int kind = far ? 2 : swt_rand_range(&rnd, 0, 3);
	uint64_t equal = w->cur + random_timeout(), expiry;
	uint32_t idx;

	n = RTE_MIN(n, (unsigned int)RTE_DIM(evtims));
	got = pick_free(evtims, n);
	for (i = 0; i < got; i++) {
		idx = index_of(evtims[i]);
		SWT_ASSERT(!whl_wheel_holds(&whl, w, evtims[i]),
			   "timer %u free but held", idx);
		switch (kind) {
		case 0:		/* one timeout for the burst */
			expiry = equal;
			break;
		case 1:		/* overdue: due at the next tick processed */
			expiry = overdue_expiry();
			break;
		default:
			expiry = w->cur + (far ?
					   random_ticks(LONG_TIMEOUT_BITS) :
					   random_timeout());
		}
		evtims[i]->impl_opaque[0] = expiry;
		evtims[i]->impl_opaque[1] = w->owner;
		where[i] = whl_slot_of(w->cur, expiry);
		m->due[idx] = RTE_MAX(expiry, w->cur);
		m->level[idx] = 0;
	}
	if (got == 0)
		return SWT_PASS;
	if (kind == 0)
		whl_slot_push(&whl, w, where[0], equal, evtims, got);
	else
		whl_slots_push(&whl, w, where, evtims, got);
	w->nb_armed += got;
	m->nb_armed += got;
	return SWT_PASS;
}

/* An armed timer picked at random, or UINT32_MAX. */
static uint32_t
pick_armed(void)
{
	uint32_t i, start = swt_rand(&rnd) % NB_TIMERS;

	for (i = 0; i < NB_TIMERS; i++)
		if (m->state[(start + i) % NB_TIMERS] == M_ARMED)
			return (start + i) % NB_TIMERS;
	return UINT32_MAX;
}

static int
cancel(unsigned int n)
{
	uint32_t idx;

	if (drain(w->cur) != SWT_PASS)
		return SWT_FAIL;
	while (n-- > 0 && (idx = pick_armed()) != UINT32_MAX) {
		SWT_ASSERT(whl_wheel_holds(&whl, w, &tims[idx]),
			   "armed timer %u not held", idx);
		whl_wheel_unlink(&whl, w, &tims[idx]);
		SWT_ASSERT(!whl_wheel_holds(&whl, w, &tims[idx]),
			   "cancelled timer %u still held", idx);
		m->state[idx] = M_FREE;
		m->nb_armed--;
	}
	return SWT_PASS;
}

/*
 * Expire everything due up to target in chunks of random size, cancelling
 * between chunks and re-linking some expired timers one period later.
 */
static int
expire(uint64_t target)
{
	struct rte_event_timer *due[256];
	uint32_t n, i, limit, idx;
	uint64_t last = 0, period;

	/* The service's run drains with its own time. */
	if (drain(target) != SWT_PASS)
		return SWT_FAIL;
	do {
		limit = swt_rand_range(&rnd, 1, RTE_DIM(due));
		n = whl_wheel_expire(&whl, w, target, limit, due);
		SWT_ASSERT(n <= limit, "%u expired for a limit of %u", n,
			   limit);
		for (i = 0; i < n; i++) {
			idx = index_of(due[i]);
			SWT_ASSERT(idx < NB_TIMERS, "not a timer: %p",
				   (void *)due[i]);
			SWT_ASSERT(m->state[idx] == M_ARMED,
				   "timer %u expired while %d", idx,
				   m->state[idx]);
			SWT_ASSERT(m->due[idx] <= target, "timer %u due at %"
				   PRIu64 " expired for target %" PRIu64, idx,
				   m->due[idx], target);
			SWT_ASSERT(m->due[idx] >= last, "timer %u due at %"
				   PRIu64 " after one due at %" PRIu64, idx,
				   m->due[idx], last);
			/* Off the wheel: a cancel must see it taken. */
			SWT_ASSERT(!whl_wheel_holds(&whl, w, due[i]),
				   "expired timer %u still held", idx);
			last = m->due[idx];
			/* From a higher level: a cascade brought it down. */
			if (m->level[idx] > 0)
				cascaded[m->level[idx]]++;
			m->state[idx] = M_EXPIRING;
			m->nb_armed--;
			m->nb_expiring++;
		}
		/*
		 * After the chunk, its lock dropped between, as
		 * whl_service.c does: most are delivered, some periodic
		 * ones linked again one period later.
		 */
		for (i = 0; i < n; i++) {
			idx = index_of(due[i]);
			m->nb_expiring--;
			if (swt_rand(&rnd) % 4 != 0) {
				m->state[idx] = M_FREE;
				continue;
			}
			period = swt_rand_range(&rnd, 1, 5000);
			due[i]->impl_opaque[0] += period;
			whl_wheel_link(&whl, w, due[i]);
			m->state[idx] = M_ARMED;
			m->due[idx] = RTE_MAX(whl_timer_due(due[i]), w->cur);
			m->level[idx] = 0;
			m->nb_armed++;
		}
		if (n == limit && swt_rand(&rnd) % 3 == 0 &&
		    cancel(swt_rand_range(&rnd, 1, 20)) != SWT_PASS)
			return SWT_FAIL;
	} while (n == limit);
	for (i = 0; i < NB_TIMERS; i++)
		SWT_ASSERT(m->state[i] != M_ARMED || m->due[i] > target,
			   "timer %u due at %" PRIu64 " left armed after "
			   "expiring to %" PRIu64, i, m->due[i], target);
	SWT_ASSERT(w->cur > target, "clock %" PRIu64 " after expiring to %"
		   PRIu64, w->cur, target);
	return SWT_PASS;
}

/*
 * Whether slot `where` is right for a timer due at tick `due`: the slot the
 * clock gives, or, for a timer placed before the walk moved the clock to
 * cur, the one the last tick processed (cur - 1) gives; a slot whose range
 * starts at cur is cascaded only when the walk processes cur.
 */
static bool
in_right_slot(uint64_t due, unsigned int where)
{
	return whl_slot_of(w->cur, due) == where ||
		(w->cur != 0 && whl_slot_of(w->cur - 1, due) == where);
}

/* Whether every entry of block b from `from` on is NULL. */
static bool
entries_null_from(uint32_t b, unsigned int from)
{
	unsigned int e;

	for (e = from; e < WHL_BLOCK_ENTRIES; e++)
		if (whl.blocks[b].entry[e] != NULL)
			return false;
	return true;
}

/* Walk every stack and check the wheel against itself and the model. */
static int
check(void)
{
	uint32_t seen = 0, blocks_used = 0, stack, b, idx, e, fill, i;
	unsigned int where, level, bit;
	struct rte_event_timer *evtim;

	memset(in_stack, 0, NB_TIMERS);
	memset(block_used, 0, whl.nb_blocks);
	for (where = 0; where < WHL_LEVELS * WHL_SLOTS; where++) {
		level = where / WHL_SLOTS;
		bit = whl_slot_occupied(w, level, where % WHL_SLOTS);
		stack = w->stack[where];
		SWT_ASSERT(bit == (stack != 0), "slot %u: stack %#x, bit %u",
			   where, stack, bit);
		if (stack == 0)
			continue;
		levels_held |= 1u << level;
		fill = whl_ref_entry(stack);
		SWT_ASSERT(fill >= 1 && fill <= WHL_BLOCK_ENTRIES,
			   "slot %u: top holds %u", where, fill);
		for (b = whl_ref_block(stack); b != WHL_NIL;
		     b = whl.heads[b].below, fill = WHL_BLOCK_ENTRIES) {
			SWT_ASSERT(b < whl.nb_blocks, "block %u", b);
			SWT_ASSERT(whl.heads[b].where == where, "block %u of "
				   "slot %u says slot %u", b, where,
				   whl.heads[b].where);
			SWT_ASSERT(entries_null_from(b, fill), "block %u: an "
				   "entry past its %u timers is set", b, fill);
			SWT_ASSERT(!block_used[b], "block %u twice in stacks",
				   b);
			block_used[b] = 1;
			blocks_used++;
			for (e = 0; e < fill; e++) {
				evtim = whl.blocks[b].entry[e];
				idx = index_of(evtim);
				SWT_ASSERT(idx < NB_TIMERS && !in_stack[idx],
					   "timer %u twice in stacks", idx);
				in_stack[idx] = 1;
				seen++;
				SWT_ASSERT(m->state[idx] == M_ARMED,
					   "timer %u in a stack while %d", idx,
					   m->state[idx]);
				SWT_ASSERT(whl_place_of(evtim) ==
					   whl_ref(b, e), "timer %u says %#x, "
					   "is at %#x", idx,
					   whl_place_of(evtim), whl_ref(b, e));
				SWT_ASSERT(evtim->impl_opaque[1] >> 32 ==
					   w->owner >> 32, "timer %u names "
					   "%#" PRIx64, idx,
					   evtim->impl_opaque[1] >> 32);
				SWT_ASSERT(!whl.heads[b].uniform ||
					   whl_timer_due(evtim) ==
					   whl.heads[b].due, "block %u says "
					   "all due at %" PRIu64 ", timer %u "
					   "at %" PRIu64, b, whl.heads[b].due,
					   idx, whl_timer_due(evtim));
				SWT_ASSERT(in_right_slot(m->due[idx], where),
					   "timer %u due at %" PRIu64
					   " in slot %u, clock %" PRIu64
					   " says %u", idx, m->due[idx], where,
					   w->cur,
					   whl_slot_of(w->cur, m->due[idx]));
				/* Lower than last seen: a cascade moved it. */
				if (m->level[idx] > level)
					cascaded[m->level[idx]]++;
				m->level[idx] = level;
			}
		}
	}
	for (i = w->stage.head; i != w->stage.tail; i++) {
		idx = index_of(w->stage.ring[i % WHL_STAGE_SIZE]);
		SWT_ASSERT(idx < NB_TIMERS && m->state[idx] == M_STAGED &&
			   !in_stack[idx], "ring entry %u: timer %u", i, idx);
		in_stack[idx] = 1;
		SWT_ASSERT(whl_place_of(&tims[idx]) == WHL_PLACE_STAGED,
			   "staged timer %u says %#x", idx,
			   whl_place_of(&tims[idx]));
	}
	SWT_ASSERT_EQ(w->stage.tail - w->stage.head, m->nb_staged);
	for (i = 0; i < NB_TIMERS; i++) {
		SWT_ASSERT(whl_wheel_holds(&whl, w, &tims[i]) ==
			   (m->state[i] == M_ARMED), "timer %u: held %d, "
			   "state %d", i, whl_wheel_holds(&whl, w, &tims[i]),
			   m->state[i]);
		/* Only by the wheel it names, whatever its place says. */
		SWT_ASSERT(!whl_wheel_holds(&whl, w_other, &tims[i]),
			   "timer %u held by a wheel it does not name", i);
	}
	for (b = 0; b < whl.nb_blocks; b++)
		SWT_ASSERT(block_used[b] || entries_null_from(b, 0),
			   "free block %u holds a timer", b);
	for (level = 0; level < WHL_LEVELS; level++)
		SWT_ASSERT(!!(w->level_map & (1u << level)) ==
			   (whl_level_next(w, level, 0) != WHL_SLOTS),
			   "level %u map", level);
	SWT_ASSERT(seen == m->nb_armed && w->nb_armed == m->nb_armed,
		   "%u in stacks, nb_armed %u, model %u", seen, w->nb_armed,
		   m->nb_armed);
	SWT_ASSERT(blocks_used + w->free_blocks.n +
		   whl.block_pool->count == whl.nb_blocks,
		   "blocks: %u in stacks + %u cached + %u in the pool != %u",
		   blocks_used, w->free_blocks.n,
		   whl.block_pool->count, whl.nb_blocks);
	return SWT_PASS;
}

/* Random steps from a clock at start_tick. */
static int
run(uint64_t start_tick)
{
	unsigned int step, op, i;
	uint64_t jump;

	rnd = swt_seed();
	if (setup(start_tick) != SWT_PASS)
		return SWT_FAIL;
	for (step = 0; step < STEPS; step++) {
		op = swt_rand_range(&rnd, 0, 9);
		if (op < 3) {
			if (arm(swt_rand_range(&rnd, 1, 32), false) != SWT_PASS)
				return SWT_FAIL;
		} else if (op < 5) {
			/* Runs of single arms, now and then a ring's worth. */
			if (stage(swt_rand(&rnd) % 64 == 0 ?
				  WHL_STAGE_SIZE + 1 :
				  swt_rand_range(&rnd, 1, 48)) != SWT_PASS)
				return SWT_FAIL;
		} else if (op < 7) {
			if (cancel(swt_rand_range(&rnd, 1, 16)) != SWT_PASS)
				return SWT_FAIL;
		} else {
			/* Mostly a few ticks, sometimes across levels. */
			jump = op == 9 ? random_ticks(TIMEOUT_BITS) :
				swt_rand_range(&rnd, 0, 200);
			if (expire(w->cur + jump) != SWT_PASS)
				return SWT_FAIL;
		}
		if (step % CHECK_EVERY == 0 && check() != SWT_PASS) {
			printf("    failed at step %u\n", step);
			return SWT_FAIL;
		}
	}
	/*
	 * Few timers are left armed by now, fewer still on the upper levels:
	 * arm every free one far, so that every level holds timers for the
	 * last expiry to cascade down, and see where they are.
	 */
	for (i = 0; i < NB_TIMERS / 32 + 1; i++)
		if (arm(32, true) != SWT_PASS)
			return SWT_FAIL;
	if (check() != SWT_PASS)
		return SWT_FAIL;
	/* Everything left expires, nothing is lost. */
	if (expire(w->cur + SWEEP_TICKS) != SWT_PASS ||
	    check() != SWT_PASS)
		return SWT_FAIL;
	/* Periodic ones re-linked on the way stay: cancel them. */
	if (cancel(NB_TIMERS) != SWT_PASS || check() != SWT_PASS)
		return SWT_FAIL;
	SWT_ASSERT_EQ(w->nb_armed, 0);
	SWT_ASSERT_EQ(w->level_map, 0);
	teardown();
	return SWT_PASS;
}

static int
model_from_tick_zero(void)
{
	return run(0);
}

/* High digits set: cascades from the upper levels, carries across them. */
static int
model_from_a_high_tick(void)
{
	return run((UINT64_C(1) << 42) - 5000);
}

/*
 * Just before the first tick of the top level's second slot, which the
 * clock soon reaches, cascading every level at once; the timers it takes
 * from the top level then go down every level below. Only this clock
 * fills the top level where it resolves bit 63 alone (7 bits a level):
 * timeouts from a low clock stay under 2^63.
 */
static int
model_below_the_top_level(void)
{
	return run((UINT64_C(1) << ((WHL_LEVELS - 1) * WHL_LEVEL_BITS)) -
		   5000);
}

/*
 * The cases above, between them, filled every level and cascaded timers
 * down from every level but 0: a check of the test itself. (Before the
 * far timeouts and the top level's case, no timer ever reached levels 6
 * and 7 at 8 bits a level, nor 11 to 15 at 4.)
 */
static int
model_reached_every_level(void)
{
	unsigned int level;

	printf("    %u levels of %u slots; timers cascaded from level 1 up:",
	       WHL_LEVELS, WHL_SLOTS);
	for (level = 1; level < WHL_LEVELS; level++)
		printf(" %" PRIu64, cascaded[level]);
	printf("; %" PRIu64 " staged and linked\n", staged_linked);
	SWT_ASSERT(staged_linked != 0, "no staged timer linked");
	SWT_ASSERT(levels_held == (1u << WHL_LEVELS) - 1,
		   "levels held: %#x", levels_held);
	for (level = 1; level < WHL_LEVELS; level++)
		SWT_ASSERT(cascaded[level] != 0,
			   "no timer cascaded from level %u", level);
	return SWT_PASS;
}

static const struct swt_case cases[] = {
	SWT_CASE(model_from_tick_zero),
	SWT_CASE(model_from_a_high_tick),
	SWT_CASE(model_below_the_top_level),
	SWT_CASE(model_reached_every_level),
};

int
main(int argc, char **argv)
{
	return swt_main(argc, argv, cases, RTE_DIM(cases));
}
