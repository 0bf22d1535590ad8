/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The wheel driver's data structure (drivers/timer/wheel) driven directly,
 * without clock or service, against a model: random arms (runs of equal
 * timeouts, random timeouts over every level, overdue timers), cancels,
 * expiries in chunks of random size with cancels between the chunks, and
 * periodic re-links, on one wheel. After every step the wheel's own
 * bookkeeping is checked against what it holds:
 *
 * - every armed record sits in exactly one stack, at the place it records,
 *   in the slot its due tick and the wheel's clock give; every block knows
 *   its slot, every block below a top is full; the bitmaps say which slots
 *   and levels hold anything; nb_armed counts them;
 * - an expiry returns exactly the armed timers due up to its target, each
 *   once, in tick order, never one due later;
 * - no record and no block is lost or duplicated: in stacks, in flight,
 *   in the wheel's caches and in the rings they add up to what was
 *   allocated, with the blocks sized by the driver's own
 *   whl_blocks_needed() for one wheel.
 */

#include <inttypes.h>
#include <string.h>

#include <rte_ring_elem.h>

#include "swtim_test.h"
#include "whl_slot.h"

#define NB_RECORDS	3000
#define STEPS		20000
#define CHECK_EVERY	7	/* steps between full checks */

/* What the test believes about each record. */
enum mstate { M_FREE, M_ARMED, M_EXPIRING };

struct model {
	uint8_t state[NB_RECORDS];
	uint64_t due[NB_RECORDS];	/* while M_ARMED */
	uint32_t nb_armed;
	uint32_t nb_expiring;
};

static struct whl_adapter whl;
static struct whl_wheel *w;
static struct model *m;
static uint8_t *in_stack;	/* check(): record seen in a stack */
static uint64_t rnd;

static struct rte_ring *
index_ring(const char *name, uint32_t n)
{
	struct rte_ring *r = rte_ring_create_elem(name, sizeof(uint32_t), n,
						  SOCKET_ID_ANY,
						  RING_F_EXACT_SZ);
	uint32_t i;

	for (i = 0; r != NULL && i < n; i++)
		if (rte_ring_enqueue_elem(r, &i, sizeof(i)) != 0)
			return NULL;
	return r;
}

static int
setup(uint64_t start_tick)
{
	memset(&whl, 0, sizeof(whl));
	whl.nb_records = NB_RECORDS;
	whl.nb_blocks = whl_blocks_needed(NB_RECORDS, 1);
	whl.timers = swt_calloc(NB_RECORDS, sizeof(whl.timers[0]));
	whl.blocks = swt_calloc(whl.nb_blocks, sizeof(whl.blocks[0]));
	w = swt_calloc(1, sizeof(*w));
	m = swt_calloc(1, sizeof(*m));
	in_stack = swt_calloc(NB_RECORDS, 1);
	SWT_ASSERT(whl.timers != NULL && whl.blocks != NULL && w != NULL &&
		   m != NULL && in_stack != NULL, "alloc");
	rte_ring_free(rte_ring_lookup("twm_records"));
	rte_ring_free(rte_ring_lookup("twm_blocks"));
	whl.free_ring = index_ring("twm_records", NB_RECORDS);
	whl.block_ring = index_ring("twm_blocks", whl.nb_blocks);
	SWT_ASSERT(whl.free_ring != NULL && whl.block_ring != NULL,
		   "rings: %s", rte_strerror(rte_errno));
	whl_wheel_init(w);
	w->cur = start_tick;
	return SWT_PASS;
}

static void
teardown(void)
{
	rte_ring_free(whl.free_ring);
	rte_ring_free(whl.block_ring);
	whl.free_ring = whl.block_ring = NULL;
}

/* A timeout whose size picks a level at random, up to 2^40 ticks. */
static uint64_t
random_timeout(void)
{
	unsigned int bits = swt_rand_range(&rnd, 0, 40);

	return swt_rand(&rnd) & ((UINT64_C(1) << bits) - 1);
}

/* Arm up to n free records, the way whl_arm() does. */
static int
arm(unsigned int n)
{
	uint32_t idx[32];
	unsigned int where[32], i, got;
	unsigned int kind = swt_rand_range(&rnd, 0, 3);
	uint64_t equal = w->cur + random_timeout(), expiry;

	n = RTE_MIN(n, (unsigned int)RTE_DIM(idx));
	got = whl_record_get(&whl, w, idx, n);
	SWT_ASSERT(got == RTE_MIN(n, NB_RECORDS - m->nb_armed -
				   m->nb_expiring),
		   "got %u records for %u", got, n);
	for (i = 0; i < got; i++) {
		SWT_ASSERT(m->state[idx[i]] == M_FREE, "record %u handed out "
			   "while %d", idx[i], m->state[idx[i]]);
		switch (kind) {
		case 0:		/* one timeout for the burst */
			expiry = equal;
			break;
		case 1:		/* overdue: due at the next tick processed */
			expiry = w->cur - RTE_MIN(w->cur,
					swt_rand_range(&rnd, 0, 100));
			break;
		default:
			expiry = w->cur + random_timeout();
		}
		whl.timers[idx[i]].expiry = expiry;
		whl.timers[idx[i]].state = WHL_ARMED;
		where[i] = whl_slot_of(w->cur, expiry);
		m->state[idx[i]] = M_ARMED;
		m->due[idx[i]] = RTE_MAX(expiry, w->cur);
	}
	if (got == 0)
		return SWT_PASS;
	if (kind == 0)
		whl_slot_push(&whl, w, where[0], idx, got);
	else
		whl_slots_push(&whl, w, where, idx, got);
	w->nb_armed += got;
	m->nb_armed += got;
	return SWT_PASS;
}

/* An armed record picked at random, or UINT32_MAX. */
static uint32_t
pick_armed(void)
{
	uint32_t i, start = swt_rand(&rnd) % NB_RECORDS;

	for (i = 0; i < NB_RECORDS; i++)
		if (m->state[(start + i) % NB_RECORDS] == M_ARMED)
			return (start + i) % NB_RECORDS;
	return UINT32_MAX;
}

static void
cancel(unsigned int n)
{
	uint32_t idx;

	while (n-- > 0 && (idx = pick_armed()) != UINT32_MAX) {
		whl_wheel_unlink(&whl, w, idx);
		whl.timers[idx].state = WHL_FREE;
		whl_record_put(&whl, w, idx);
		m->state[idx] = M_FREE;
		m->nb_armed--;
	}
}

/*
 * Expire everything due up to target in chunks of random size, cancelling
 * between chunks and re-linking some expired timers one period later.
 */
static int
expire(uint64_t target)
{
	uint32_t due[256], freed[256], n, i, limit, idx, nb_freed;
	uint64_t last = 0, period;

	do {
		limit = swt_rand_range(&rnd, 1, RTE_DIM(due));
		n = whl_wheel_expire(&whl, w, target, limit, due);
		SWT_ASSERT(n <= limit, "%u expired for a limit of %u", n,
			   limit);
		for (i = 0; i < n; i++) {
			idx = due[i];
			SWT_ASSERT(idx < NB_RECORDS, "index %u", idx);
			SWT_ASSERT(m->state[idx] == M_ARMED,
				   "record %u expired while %d", idx,
				   m->state[idx]);
			SWT_ASSERT(m->due[idx] <= target, "record %u due at %"
				   PRIu64 " expired for target %" PRIu64, idx,
				   m->due[idx], target);
			SWT_ASSERT(m->due[idx] >= last, "record %u due at %"
				   PRIu64 " after one due at %" PRIu64, idx,
				   m->due[idx], last);
			SWT_ASSERT_EQ(whl.timers[idx].state, WHL_EXPIRING);
			last = m->due[idx];
			m->state[idx] = M_EXPIRING;
			m->nb_armed--;
			m->nb_expiring++;
		}
		/*
		 * The service recycles a chunk, its lock dropped between:
		 * the freed records go back in bulk, as whl_service.c does.
		 */
		nb_freed = 0;
		for (i = 0; i < n; i++) {
			idx = due[i];
			m->nb_expiring--;
			if (swt_rand(&rnd) % 4 != 0) {
				whl.timers[idx].state = WHL_FREE;
				freed[nb_freed++] = idx;
				m->state[idx] = M_FREE;
				continue;
			}
			period = swt_rand_range(&rnd, 1, 5000);
			whl.timers[idx].expiry += period;
			whl.timers[idx].state = WHL_ARMED;
			whl_wheel_link(&whl, w, idx);
			m->state[idx] = M_ARMED;
			m->due[idx] = RTE_MAX(whl.timers[idx].expiry, w->cur);
			m->nb_armed++;
		}
		whl_record_return_bulk(&whl, w, freed, nb_freed);
		if (n == limit && swt_rand(&rnd) % 3 == 0)
			cancel(swt_rand_range(&rnd, 1, 20));
	} while (n == limit);
	for (i = 0; i < NB_RECORDS; i++)
		SWT_ASSERT(m->state[i] != M_ARMED || m->due[i] > target,
			   "record %u due at %" PRIu64 " left armed after "
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

/* Walk every stack and check the wheel against itself and the model. */
static int
check(void)
{
	uint32_t seen = 0, blocks_used = 0, stack, b, idx, e, fill;
	unsigned int where, level, bit;

	memset(in_stack, 0, NB_RECORDS);
	for (where = 0; where < WHL_LEVELS * WHL_SLOTS; where++) {
		level = where / WHL_SLOTS;
		bit = whl_slot_occupied(w, level, where % WHL_SLOTS);
		stack = w->stack[where];
		SWT_ASSERT(bit == (stack != 0), "slot %u: stack %#x, bit %u",
			   where, stack, bit);
		if (stack == 0)
			continue;
		fill = whl_ref_entry(stack);
		SWT_ASSERT(fill >= 1 && fill <= WHL_BLOCK_ENTRIES,
			   "slot %u: top holds %u", where, fill);
		for (b = whl_ref_block(stack); b != WHL_NIL;
		     b = whl.blocks[b].below, fill = WHL_BLOCK_ENTRIES) {
			SWT_ASSERT(b < whl.nb_blocks, "block %u", b);
			SWT_ASSERT(whl.blocks[b].where == where, "block %u of "
				   "slot %u says slot %u", b, where,
				   whl.blocks[b].where);
			blocks_used++;
			SWT_ASSERT(blocks_used <= whl.nb_blocks, "a stack loops");
			for (e = 0; e < fill; e++) {
				idx = whl.blocks[b].entry[e];
				SWT_ASSERT(idx < NB_RECORDS && !in_stack[idx],
					   "record %u twice in stacks", idx);
				in_stack[idx] = 1;
				seen++;
				SWT_ASSERT(m->state[idx] == M_ARMED,
					   "record %u in a stack while %d", idx,
					   m->state[idx]);
				SWT_ASSERT_EQ(whl.timers[idx].state, WHL_ARMED);
				SWT_ASSERT(whl.timers[idx].place ==
					   whl_ref(b, e), "record %u says %#x, "
					   "is at %#x", idx,
					   whl.timers[idx].place, whl_ref(b, e));
				SWT_ASSERT(in_right_slot(m->due[idx], where),
					   "record %u due at %" PRIu64
					   " in slot %u, clock %" PRIu64
					   " says %u", idx, m->due[idx], where,
					   w->cur,
					   whl_slot_of(w->cur, m->due[idx]));
			}
		}
	}
	for (level = 0; level < WHL_LEVELS; level++)
		SWT_ASSERT(!!(w->level_map & (1u << level)) ==
			   (whl_level_next(w, level, 0) != WHL_SLOTS),
			   "level %u map", level);
	SWT_ASSERT(seen == m->nb_armed && w->nb_armed == m->nb_armed,
		   "%u in stacks, nb_armed %u, model %u", seen, w->nb_armed,
		   m->nb_armed);
	SWT_ASSERT(blocks_used + w->free_blocks.n +
		   rte_ring_count(whl.block_ring) == whl.nb_blocks,
		   "blocks: %u in stacks + %u cached + %u in the ring != %u",
		   blocks_used, w->free_blocks.n,
		   rte_ring_count(whl.block_ring), whl.nb_blocks);
	SWT_ASSERT(w->returned_records.n <= 2 * WHL_RETURN_BULK,
		   "the returned cache holds %u records",
		   w->returned_records.n);
	SWT_ASSERT(m->nb_armed + w->free_records.n + w->returned_records.n +
		   rte_ring_count(whl.free_ring) == NB_RECORDS,
		   "records: %u armed + %u + %u cached + %u in the ring != %u",
		   m->nb_armed, w->free_records.n, w->returned_records.n,
		   rte_ring_count(whl.free_ring), NB_RECORDS);
	return SWT_PASS;
}

/* Random steps from a clock at start_tick. */
static int
run(uint64_t start_tick)
{
	unsigned int step, op;
	uint64_t jump;

	rnd = swt_seed();
	if (setup(start_tick) != SWT_PASS)
		return SWT_FAIL;
	for (step = 0; step < STEPS; step++) {
		op = swt_rand_range(&rnd, 0, 9);
		if (op < 5) {
			if (arm(swt_rand_range(&rnd, 1, 32)) != SWT_PASS)
				return SWT_FAIL;
		} else if (op < 7) {
			cancel(swt_rand_range(&rnd, 1, 16));
		} else {
			/* Mostly a few ticks, sometimes across levels. */
			jump = op == 9 ? random_timeout() :
				swt_rand_range(&rnd, 0, 200);
			if (expire(w->cur + jump) != SWT_PASS)
				return SWT_FAIL;
		}
		if (step % CHECK_EVERY == 0 && check() != SWT_PASS) {
			printf("    failed at step %u\n", step);
			return SWT_FAIL;
		}
	}
	/* Everything left expires, nothing is lost. */
	if (expire(w->cur + (UINT64_C(1) << 41)) != SWT_PASS ||
	    check() != SWT_PASS)
		return SWT_FAIL;
	/* Periodic ones re-linked on the way stay: cancel them. */
	cancel(NB_RECORDS);
	if (check() != SWT_PASS)
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

static const struct swt_case cases[] = {
	SWT_CASE(model_from_tick_zero),
	SWT_CASE(model_from_a_high_tick),
};

int
main(int argc, char **argv)
{
	return swt_main(argc, argv, cases, RTE_DIM(cases));
}
