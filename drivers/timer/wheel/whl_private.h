/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef WHL_PRIVATE_H
#define WHL_PRIVATE_H

/**
 * @file
 * The wheel driver: hierarchical timing wheels, one per producer lcore.
 *
 * Time is counted from the moment the adapter was created in grains, the
 * adapter's tick cut in up to 16 (swtim_base.h; a tick under about a
 * millisecond is one grain), so that a timer armed anywhere in a tick is
 * due within a grain of its exact deadline: counted in whole ticks, one
 * armed just after a tick began would be almost a tick late. The wheel's
 * unit is the grain, and "tick" below means it. Each wheel has WHL_LEVELS
 * levels of WHL_SLOTS slots; level l slot s holds the timers whose expiry
 * tick E has, in base WHL_SLOTS, digit s at position l and agrees with
 * the wheel's clock `cur` (the first tick not yet processed) on every
 * digit above l. So with the default 8 bits a
 * level (WHL_LEVEL_BITS below) level 0 holds what expires in cur's current
 * block of 256 ticks, one slot per tick; level 1 what expires in later
 * 256-tick blocks of cur's 65536-tick block; and so on up to level 7,
 * which covers all 64 bits of a tick count. (With 6 bits a level, 64
 * slots, a timer due in 100 ms of 10 us ticks sat two levels up and was
 * moved twice on its way down, not once: 8 bits cut the expiry of 4M such
 * timers from about 150 to about 120 cycles each.)
 *
 * The level of a timer is the highest digit in which E and cur differ,
 * found with one count-leading-zeros of E ^ cur. When cur reaches the
 * first tick of a level-l slot's range, that slot is "cascaded": its
 * timers are placed again, now at lower levels, and those due at once land
 * in level 0. A timer is therefore moved at most once per level between
 * its level at arming and level 0, so arm, cancel and expiry are O(1)
 * whatever the number of timers, and a timer fires exactly at its tick:
 * never early, at most the service's scan interval late. Nothing is
 * coarsened (unlike Linux's 2016 wheel, which never cascades but lets long
 * timers fire up to 12.5% late): the adapter contract allows about one
 * tick of lateness.
 *
 * Empty slots cost nothing: each level has an occupancy bitmap (four
 * 64-bit words at 256 slots), and a map says which levels hold anything,
 * so finding the next tick at which something happens is a few
 * count-trailing-zeros, and an idle service skips any stretch of empty
 * ticks in one step.
 *
 * A timer needs no record of the wheel's own: while armed, the event
 * timer's impl_opaque words, which the adapter owns until the timer
 * expires or is cancelled, hold its due tick and its place (see
 * whl_timer_due() and whl_place_of()). So arming, a cascade and an expiry
 * touch each timer's own cache line and nothing else per timer: with a
 * separate 32-byte record, an expiry of 1M timers (96 MB with the event
 * timers, against 32 MB of L3 here) missed the cache on the record at the
 * cascade, again when taking the timer off the wheel, and on the event
 * timer when building its event.
 *
 * A slot is not a linked list of timers but a stack of 128-byte blocks of
 * 16 event timer pointers each, all full but the top one: walking a list
 * would take one dependent cache miss per timer once the timers outgrow
 * the caches, while a block names 16 timers at once, so a cascade or an
 * expiry fetches the timers of the blocks ahead while it moves those of
 * this one, and misses overlap instead of adding up. Each block has a
 * 16-byte head in an array of its own: the next block down, its slot, and
 * whether all its timers are due at the same tick (the usual case with
 * equal timeouts: a cascade then moves the whole block to its new slot
 * without reading one of its timers). Walking a stack follows the heads,
 * which for 1M timers fit in 1 MB and stay cached, so the walk runs ahead
 * of the work and fetches the blocks it will need: with the links in the
 * blocks themselves, each step of the walk was a cache miss of its own,
 * and the expiry of 1M timers with equal timeouts cost 45 cycles a timer
 * instead of 31. A timer knows its place in a block; cancel fills that
 * place with the slot's last timer and shortens the top block, so it
 * stays O(1) and exact. An entry not holding an armed timer is NULL, so a
 * timer is on the wheel exactly when the entry its place names holds it:
 * that is how cancel tells an armed timer from one an expiry has taken.
 * (Marvell's TIM hardware keeps its buckets' entries in chunks for the
 * same reason: a walk that reads many entries per memory access.)
 *
 * Free blocks sit in per-wheel caches (under the wheel's lock) in front
 * of a shared pool of indices (whl_pool.c, swtim_stack.h).
 *
 * Locks: each wheel has one lock (its lane's, swtim_lane.h), taken by its
 * producer lcore once per arm burst, by the service once per chunk of a
 * scan of that wheel (and, with periodic timers, once more to set their
 * next period), and by a cancel from any thread. Producers on EAL lcores
 * never share a lock with each other; threads without an lcore id all arm
 * into one wheel (SWTIM_LANE_NON_EAL) and share its lock. The service
 * expires a wheel SWTIM_EXPIRE_BURST timers at a time, taking its lock
 * for each burst, so that a producer never waits behind a long expiry.
 *
 * Staging: a single arm on an EAL lcore takes no lock. Taking it, the
 * producer met the service, which takes the same lock and writes the
 * same lines (clock, bitmaps, stacks) every tick it expires this wheel:
 * in dpdk-test-eventdev's non-burst run, where each call is timed alone,
 * that was most of the arm's cost. So the producer computes the due
 * tick, writes it and the place WHL_PLACE_STAGED into the timer, the
 * timer's address into the wheel's ring (struct whl_stage: one producer,
 * the lcore; one consumer, the lock holder), stores ARMED and moves the
 * ring's tail. Whoever takes the lock next links what is staged
 * (whl_stage_drain()) before anything else: the service's run before it
 * expires, with its own clock reading, so nothing staged before a run
 * is missed by it; a cancel, or remaining_ticks_get, before it looks for
 * the timer; a locked arm only when the ring is full. A staged timer's
 * due tick was computed at its arm; linked after the clock passed it, it
 * is due at the clock's tick, so it is at most one run later than a
 * locked arm's. The budget slot comes from the lane's staged credit, on
 * a line of its own, by compare-and-swap (swtim_budget.h); when it is
 * empty, the arm takes the lock, arms there and refills it.
 *
 * ARMED is stored before the tail moves: a cancel that reads ARMED and
 * the place STAGED has met the timer between those two stores, and
 * waits for the second (draining as it comes), or answers EAGAIN after
 * WHL_STAGE_WAIT_NS (ENOTRECOVERABLE if the ring's process is gone: a
 * producer killed between the two stores leaves its timer armed for
 * ever, and the budget slot its arm took). Stored after, the service
 * could link and expire the timer before the producer marked it ARMED,
 * leaving it ARMED for ever. A ring belongs to the process whose lcore staged on it first
 * (whl_stage.owner; two live processes may not share an lcore id, but
 * if they do, the second arms with the lock) and is taken over when that
 * process is gone.
 *
 * Each wheel is the store of one lane (swtim_lane.h): the generic
 * layer's service claims the lane, asks whl_lane_due() whether the
 * wheel's clock has reached the current grain, and lets whl_lane_expire()
 * expire a burst of what is due into the lane's event buffer, which it
 * then offers to the device; claims, buffers, ports and the splitting of
 * the lanes between service lcores are the generic layer's
 * (swtim_base.h).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_reciprocal.h>

#include "swtim_base.h"
#include "swtim_stack.h"

/*
 * Bits of a tick count each level resolves, and slots per level: set at
 * build time (meson's wheel_level_bits), 4 to 8. 8 by default: fewer
 * levels mean fewer moves on a timer's way down (6 bits cost 100 ms
 * timers a second move, see above), and 256 slots a level keep a wheel's
 * stacks in 8 KB. 4 bits (16 slots, 16 levels) make cascades frequent,
 * which is what the wheel model test runs at besides the default. Below 4
 * there would be 22 levels or more, past the 16 bits of level_map; above
 * 8 nothing overflows up to 13 (`where` is 16 bits), but each of an
 * adapter's RTE_MAX_LCORE wheels grows with its slots and clearing a slot
 * scans its level's whole bitmap: neither measured nor tested, so not
 * offered. whl_slot.h checks the fields these must fit.
 *
 * This header is the one source of the geometry: doc/design.md ("Levels")
 * tabulates the default's levels, ranges and sizes, and the unit test
 * wheel_geometry holds that table to what test/wheel_geometry.c, built
 * with this header at the default, prints.
 */
#ifndef WHL_LEVEL_BITS
#define WHL_LEVEL_BITS 8u
#endif
#if WHL_LEVEL_BITS < 4 || WHL_LEVEL_BITS > 8
#error "WHL_LEVEL_BITS must be 4 to 8"
#endif
#define WHL_SLOTS (1u << WHL_LEVEL_BITS)
/*
 * Levels needed to cover a 64-bit tick count (8 x 8 bits, 16 x 4). Where
 * the bits do not divide 64 the top level is narrower (4 bits of 5, 1 of
 * 7): its upper slots stay empty.
 */
#define WHL_LEVELS ((64u + WHL_LEVEL_BITS - 1) / WHL_LEVEL_BITS)
/*
 * Every digit shift, level * WHL_LEVEL_BITS for a level below WHL_LEVELS,
 * is under 64, so shifting a tick by it is defined; and the levels reach
 * bit 63.
 */
_Static_assert((WHL_LEVELS - 1) * WHL_LEVEL_BITS < 64 &&
	       WHL_LEVELS * WHL_LEVEL_BITS >= 64, "levels cover 64 bits");
/*
 * 64-bit words of a level's occupancy bitmap: one for 64 slots or fewer,
 * of which only the low WHL_SLOTS bits are ever set.
 */
#define WHL_MAP_WORDS ((WHL_SLOTS + 63) / 64)

/* "No block". */
#define WHL_NIL UINT32_MAX

/*
 * Free slot blocks a wheel keeps: refills and spills move a bulk at a time
 * through the pool all wheels share (whl_adapter's block_bulk). Each
 * refill or spill writes the pool's lock and top, lines that move between
 * the CPUs of the wheels using them: with bulks of 8 blocks (128 timers)
 * two producers on CPUs of their own paid 4-6 cycles a timer more than
 * one, with 64 about 1 (doc/performance.md, "Single calls and two
 * producers (issue 16)"). But every wheel's cache (two bulks at most)
 * adds to the blocks allocated, so whl_block_bulk_of() gives a small
 * adapter smaller bulks.
 */
#define WHL_BLOCK_BULK_MIN 8
#define WHL_BLOCK_BULK_MAX 64

/* Event timers per slot block: 128 bytes, two cache lines. */
#define WHL_BLOCK_ENTRIES 16

/*
 * How many slot blocks ahead a cascade fetches the timers it is about to
 * move: the work on the blocks in between (16 timers each) must cover a
 * memory latency. 1, 2 and 4 measured alike (expiry of 4M timers with
 * random timeouts: 150-180 cycles a timer); without the fetch, 290-330.
 */
#define WHL_BLOCKS_AHEAD 2

/*
 * How many timers ahead the service fetches the event timers it is about
 * to read: about a memory latency's worth of the work per timer (building
 * one event). Too few leaves misses exposed; too many evicts what was
 * fetched before it is used.
 */
#define WHL_PREFETCH_AHEAD 16

/*
 * Timers an arm burst fetches before it writes them, and arms as one run
 * when they share a timeout (whl_slot_push()): enough lines in flight at
 * once to overlap their misses, few enough (2 KiB of event timers) to
 * stay in L1 until they are written. 32 is the burst the benchmarks and
 * applications arm in (dpdk-test-eventdev arms by 16), so such a burst is
 * one chunk. Not measured on its own: the arm bursts of
 * doc/performance.md, "Single calls and two producers (issue 16)"
 * (18-21 cycles a timer in bursts of 32), are one chunk each.
 */
#define WHL_ARM_CHUNK 32

/*
 * Single arms staged on a wheel without its lock (struct whl_stage): a
 * power of two. Enough for the timers a producer arms while the service
 * backs off from a device refusing events (then the lanes' runs stop);
 * when full, an arm takes the lock and links what is staged itself. In
 * dpdk-test-eventdev's non-burst run on 2 CPUs, 256 entries were full
 * for 3 arms in 4; 1024 for 33-38 arms of 100,000 (the service switched
 * out for milliseconds), and 4096 or 16384, never full, were not faster
 * (doc/performance.md, "The staged arm"). 8 KiB a wheel.
 */
#define WHL_STAGE_SIZE 1024
_Static_assert((WHL_STAGE_SIZE & (WHL_STAGE_SIZE - 1)) == 0,
	       "a power of two");

/*
 * How long a cancel waits, holding the wheel's lock, for a timer it
 * finds armed but neither on the wheel nor staged yet (its producer is
 * between the two stores of whl_arm_staged(), a few nanoseconds unless
 * preempted) before it answers EAGAIN: the service waits for that lock.
 */
#define WHL_STAGE_WAIT_NS 2000

/*
 * An adapter's tag (whl_owner_of()): its id in the low WHL_TAG_ID_BITS,
 * unique among the adapters that exist at once, so that a timer armed on
 * one never names another; above it a count of the adapters created, so
 * that a timer left from a freed adapter (its state CANCELED) seldom
 * names the next one of the same id either. A plain count of creations
 * wrapped after 65535 of them onto a tag still in use. 5 bits: as few as
 * SWTIM_ADAPTER_NUM_MAX ids need, leaving the other 11 of the tag's 16
 * for the count.
 */
#define WHL_TAG_ID_BITS 5
_Static_assert(SWTIM_ADAPTER_NUM_MAX <= 1 << WHL_TAG_ID_BITS,
	       "adapter ids fit in a tag");

/*
 * A block of a slot's stack: its timers. Entries from the top block's fill
 * on, and all entries of a free block, are NULL.
 */
struct whl_block {
	struct rte_event_timer *entry[WHL_BLOCK_ENTRIES];
};

/*
 * A block's header, in an array of its own: 16 bytes, so that walking a
 * stack (the chain of `below`) and moving whole blocks in a cascade read
 * a dense array that stays in the caches (1.1 MB for 1M timers), not a
 * cache miss per block, and the blocks' timers can be fetched as far
 * ahead as the walk likes.
 */
struct whl_block_head {
	uint32_t below;		/* next block down the stack, or WHL_NIL */
	uint16_t where;		/* its slot: level * WHL_SLOTS + slot */
	uint8_t uniform;	/* every entry is due at tick `due` */
	uint8_t unused;
	uint64_t due;
};

_Static_assert(sizeof(struct whl_block) == 2 * RTE_CACHE_LINE_MIN_SIZE,
	       "a block is two cache lines");
_Static_assert(sizeof(struct whl_block_head) == 16, "four heads a line");

/*
 * The place (whl_place_of()) of a timer staged and not linked yet: no
 * block's (whl_blocks_create() keeps block indices below
 * WHL_BLOCKS_MAX, which is this place's block).
 */
#define WHL_PLACE_STAGED UINT32_MAX

/**
 * Single arms of the wheel's producer lcore that took no lock: a ring
 * with one producer (the lcore, in the one process that claimed it) and
 * one consumer, whoever holds the wheel's lock (whl_stage_drain() links
 * them: the service before it expires, a cancel, a locked arm). The
 * producer's line is read by the consumer, the consumer's by the
 * producer only when the ring looks full.
 */
struct whl_stage {
	/* Next entry the producer writes. */
	uint32_t tail;
	/* The producer's last look at head. */
	uint32_t head_seen;
	/* swtim_proc_tag of the process whose lcore stages here; 0: none. */
	uint32_t owner;
	/* Next entry to link, under the wheel's lock. */
	uint32_t head __rte_cache_aligned;
	struct rte_event_timer *ring[WHL_STAGE_SIZE] __rte_cache_aligned;
};

/** Free indices a wheel keeps in front of the shared pool (whl_pool.c). */
struct whl_free_cache {
	uint32_t n;
	uint32_t idx[2 * WHL_BLOCK_BULK_MAX];
};

/**
 * One lcore's wheel and its lane. The wheel proper and the cache are
 * guarded by the lane's lock; the lane's event buffer and stats by its
 * claim.
 */
struct whl_wheel {
	/* First tick not yet processed. */
	uint64_t cur;
	/* Timers linked in the wheel; read without the lock as a hint. */
	uint32_t nb_armed;
	/* Bit l: level l has a timer. */
	uint16_t level_map;
	/* The upper half of its timers' impl_opaque[1] (whl_place_of()). */
	uint64_t owner;
	/* Bit s of occupied[l]: slot s of level l has a timer. */
	uint64_t occupied[WHL_LEVELS][WHL_MAP_WORDS];
	/*
	 * Each slot's stack, level * WHL_SLOTS + slot: whl_ref(top block,
	 * entries in it), 0 when empty.
	 */
	uint32_t stack[WHL_LEVELS * WHL_SLOTS];
	struct whl_free_cache free_blocks;
	/* Single arms staged without the lock. */
	struct whl_stage stage __rte_cache_aligned;
	/* The service's side, on lines of its own. */
	struct swtim_lane lane __rte_cache_aligned;
} __rte_cache_aligned;

/** The driver's per-adapter data. */
struct whl_adapter {
	/* Lanes, budget, clock, service, ports: shared with every driver. */
	struct swtim_base base;
	/* Read-mostly. */
	struct whl_block *blocks;
	struct whl_block_head *heads;	/* one per block */
	uint32_t nb_blocks;
	/* Blocks a wheel's cache takes from or gives to the pool at once. */
	uint32_t block_bulk;
	struct swtim_stack *block_pool;
	/* Marks this adapter's timers (whl_place_of()); never 0. */
	uint16_t tag;
	struct whl_wheel *wheels;	/* SWTIM_LANES_MAX of them */
};

/* The driver's adapter a base is the start of. */
static __rte_always_inline struct whl_adapter *
whl_of_base(const struct swtim_base *base)
{
	return container_of(base, struct whl_adapter, base);
}

/* The wheel a lane of the adapter belongs to. */
static __rte_always_inline struct whl_wheel *
whl_wheel_of(const struct swtim_lane *lane)
{
	return container_of(lane, struct whl_wheel, lane);
}

/*
 * What the wheel keeps in an armed event timer. impl_opaque[0] is the
 * tick it is due at. impl_opaque[1] is, from the low bits up, its place
 * (32 bits, whl_ref(block, entry): where it sits while on the wheel, stale
 * once an expiry took it), the wheel that holds it (16 bits) and the
 * adapter's tag (16 bits), which tells a timer armed on another adapter
 * apart cheaply. The upper half is written at arming, before the timer is
 * marked armed, and never changes while it is armed: a cancel reads it
 * without a lock to find the wheel whose lock it needs; the place changes
 * under that lock only.
 */
#define WHL_PLACE_MASK UINT64_C(0xffffffff)

static __rte_always_inline uint64_t
whl_owner_of(uint16_t tag, unsigned int wheel_id)
{
	return (uint64_t)tag << 48 | (uint64_t)wheel_id << 32;
}

static __rte_always_inline uint64_t
whl_timer_due(const struct rte_event_timer *evtim)
{
	return evtim->impl_opaque[0];
}

static __rte_always_inline uint32_t
whl_place_of(const struct rte_event_timer *evtim)
{
	return (uint32_t)(evtim->impl_opaque[1] & WHL_PLACE_MASK);
}

/* Set a timer's place; only cancels read the word without the lock, and
 * only its upper half, which this leaves as it is. */
static __rte_always_inline void
whl_place_set(const struct whl_wheel *w, struct rte_event_timer *evtim,
	      uint32_t place)
{
	__atomic_store_n(&evtim->impl_opaque[1], w->owner | place,
			 __ATOMIC_RELAXED);
}

/* whl_pool.c: free blocks; but for the pool's creation, called with the
 * wheel's lock. */
uint32_t whl_block_bulk_of(uint64_t nb_timers);
uint64_t whl_blocks_needed(uint64_t nb_timers, unsigned int nb_wheels);
/* The pool of the free block indices 0 .. n - 1, or NULL (logged). */
struct swtim_stack *whl_block_pool_create(const char *name, uint32_t n,
					  int socket);
uint32_t whl_free_get(struct whl_free_cache *c, struct swtim_stack *pool,
		      uint32_t bulk, uint32_t *idx, uint32_t n);
void whl_free_spill(struct whl_free_cache *c, struct swtim_stack *pool,
		    uint32_t bulk);

/** Give an index back to a cache, spilling a bulk to the pool if full. */
static __rte_always_inline void
whl_free_put(struct whl_free_cache *c, struct swtim_stack *pool,
	     uint32_t bulk, uint32_t idx)
{
	if (unlikely(c->n == 2 * bulk))
		whl_free_spill(c, pool, bulk);
	c->idx[c->n++] = idx;
}
uint32_t whl_block_refill(struct whl_adapter *whl, struct whl_wheel *w);

/** Take a free slot block for wheel w. */
static __rte_always_inline uint32_t
whl_block_get(struct whl_adapter *whl, struct whl_wheel *w)
{
	if (likely(w->free_blocks.n != 0))
		return w->free_blocks.idx[--w->free_blocks.n];
	return whl_block_refill(whl, w);
}

/** Give a slot block, all its entries NULL, back through wheel w's cache. */
static inline void
whl_block_put(struct whl_adapter *whl, struct whl_wheel *w, uint32_t b)
{
	whl_free_put(&w->free_blocks, whl->block_pool, whl->block_bulk, b);
}

/* whl_wheel.c: the wheel itself, called with the wheel's lock held. */
void whl_wheel_init(struct whl_wheel *w, uint16_t tag, unsigned int wheel_id);
uint64_t whl_wheel_next_tick(const struct whl_wheel *w);
uint32_t whl_wheel_expire(struct whl_adapter *whl, struct whl_wheel *w,
			  uint64_t target, uint32_t limit,
			  struct rte_event_timer **due);
void whl_wheel_for_each(const struct whl_adapter *whl,
			const struct whl_wheel *w,
			void (*fn)(struct rte_event_timer *evtim));

/* whl_fastpath.c: the driver's fast path (struct swtim_driver_ops) */
uint16_t whl_arm_burst(struct swtim_base *base,
		       struct rte_event_timer **evtims, uint64_t timeout_ticks,
		       uint16_t nb);
uint16_t whl_cancel_burst(struct swtim_base *base,
			  struct rte_event_timer **evtims, uint16_t nb);
int whl_remaining_ticks_get(const struct swtim_base *base,
			    const struct rte_event_timer *evtim,
			    uint64_t *ticks_remaining);

/* whl_service.c: what the service asks of a wheel (struct swtim_driver_ops) */
bool whl_lane_due(const struct swtim_base *base,
		  const struct swtim_lane *lane, uint64_t now);
uint32_t whl_lane_expire(struct swtim_base *base, struct swtim_lane *lane,
			 uint64_t now, uint32_t max);
uint64_t whl_lane_next_deadline(const struct swtim_base *base,
				const struct swtim_lane *lane);
void whl_periodic_resume(struct swtim_base *base, struct swtim_lane *lane,
			 uint32_t first, uint32_t n);

#endif /* WHL_PRIVATE_H */
