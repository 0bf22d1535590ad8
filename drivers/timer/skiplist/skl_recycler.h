/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SKL_RECYCLER_H
#define SKL_RECYCLER_H

/**
 * @file
 * Object recycling without cross-core cache traffic, the way the Linux
 * page_pool does it, for drivers whose timer objects are freed by another
 * thread (the service) than the one that allocated them (a producer).
 *
 * - Fast path: each EAL lcore has a cache it alone touches; get and put on
 *   it are a few loads and stores. An lcore that frees an object it will
 *   likely reuse (a cancel, which has just had the object in its CPU's
 *   cache) puts it into its own cache, whoever allocated it.
 * - Return path: an object freed on a thread that will not reuse it (the
 *   service) goes back to the lcore that allocated it through that lcore's
 *   return pool, in bulk; the owner drains its pool into its cache when
 *   the cache runs dry. Objects never bounce through a pool shared by all.
 * - Slow path: the shared pool, refilled from and spilled to in bulk; and,
 *   when it is empty, taking objects from other lcores' return pools, so
 *   that no object is ever stranded: everything not in an lcore cache can
 *   be had by any lcore.
 *
 * Non-EAL threads have no cache and use the shared pool directly.
 *
 * The pools are swtim_stack.h's, which a process killed inside one leaves
 * whole, not rte_rings, which it would leave blocked for everyone. An
 * lcore's cache is only ever touched by that lcore: one killed inside a
 * get or a put loses at most the objects in its hands.
 *
 * An object's owner is whatever the caller records when it gets it
 * (skl_recycler_owner() gives the value to record); the recycler itself
 * keeps no per-object state.
 */

#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_lcore.h>

#include "swtim_stack.h"

/**
 * Objects moved between a cache and a pool at once: one pool operation
 * per 32 gets or puts, the burst size the fast paths work in.
 */
#define SKL_RECYCLER_BULK 32

/** Most objects one lcore cache holds. */
#define SKL_RECYCLER_CACHE_MAX (2 * SKL_RECYCLER_BULK)

/*
 * Objects one return pool holds. A return pool only buffers objects on
 * their way home between two refills of the owner's cache; when it is
 * full, objects go to the shared pool instead, which costs sharing but
 * never loses one.
 */
#define SKL_RECYCLER_RETURN_SIZE 512

/** Owner value of objects got on non-EAL threads (shared pool). */
#define SKL_RECYCLER_NO_OWNER UINT16_MAX

/** One lcore's cache. */
struct skl_recycler_cache {
	uint32_t len;
	void *objs[SKL_RECYCLER_CACHE_MAX];
} __rte_cache_aligned;

/** Counters of the slow paths, for benchmarks and debugging. */
struct skl_recycler_stats {
	uint64_t refills;	/**< cache refilled from the return pool */
	uint64_t slow_refills;	/**< ... from the shared pool */
	uint64_t steals;	/**< ... from another lcore's return pool */
	uint64_t spills;	/**< cache spilled to the shared pool */
};

/** A recycler. */
struct skl_recycler {
	struct swtim_stack *shared;
	struct swtim_stack *returns[RTE_MAX_LCORE];
	struct skl_recycler_cache caches[RTE_MAX_LCORE];
	struct skl_recycler_stats stats[RTE_MAX_LCORE];
};

/**
 * Objects a recycler may hold in lcore caches on top of what its users
 * may have allocated: size pools with it so that caches never cause a
 * false "out of objects".
 */
#define SKL_RECYCLER_SLACK ((uint64_t)RTE_MAX_LCORE * SKL_RECYCLER_CACHE_MAX)

/**
 * Create a recycler for up to nb_objs objects, initially empty.
 *
 * @param name
 *   Prefix of its pools' names (unique per recycler).
 * @param nb_objs
 *   Most objects it will ever hold.
 * @param socket
 *   NUMA socket.
 * @return
 *   The recycler or NULL (rte_errno set).
 */
struct skl_recycler *skl_recycler_create(const char *name,
					     uint32_t nb_objs, int socket);

/**
 * Free a recycler (not the objects).
 *
 * @param r
 *   The recycler, or NULL.
 */
void skl_recycler_free(struct skl_recycler *r);

/**
 * Put objects into the shared pool (for filling a new recycler).
 *
 * @param r
 *   The recycler.
 * @param objs
 *   The objects.
 * @param n
 *   How many.
 * @return
 *   0, or -ENOBUFS if they do not all fit (those that fit are in).
 */
int skl_recycler_fill(struct skl_recycler *r, void *const *objs,
			uint32_t n);

/** @internal Refill the caller's cache; return objects now in it. */
uint32_t skl_recycler_refill(struct skl_recycler *r, unsigned int lcore);

/** @internal Spill half of a full cache to the shared pool. */
void skl_recycler_spill(struct skl_recycler *r, unsigned int lcore);

/** @internal Get without a cache (non-EAL threads). */
uint32_t skl_recycler_get_shared(struct skl_recycler *r, void **objs,
				   uint32_t n);

/**
 * The owner to record for objects got on the calling thread.
 *
 * @return
 *   The lcore id, or SKL_RECYCLER_NO_OWNER on a non-EAL thread.
 */
static __rte_always_inline uint16_t
skl_recycler_owner(void)
{
	unsigned int lcore = rte_lcore_id();

	return lcore < RTE_MAX_LCORE ? lcore : SKL_RECYCLER_NO_OWNER;
}

/**
 * Get up to n objects for the calling thread.
 *
 * @param r
 *   The recycler.
 * @param objs
 *   Where to put them.
 * @param n
 *   How many are wanted.
 * @return
 *   How many were got (fewer only when the recycler is empty).
 */
static __rte_always_inline uint32_t
skl_recycler_get(struct skl_recycler *r, void **objs, uint32_t n)
{
	unsigned int lcore = rte_lcore_id();
	struct skl_recycler_cache *c;
	uint32_t got = 0, take;

	if (unlikely(lcore >= RTE_MAX_LCORE))
		return skl_recycler_get_shared(r, objs, n);
	c = &r->caches[lcore];
	while (got < n) {
		if (unlikely(c->len == 0) &&
		    skl_recycler_refill(r, lcore) == 0)
			break;
		take = RTE_MIN(n - got, c->len);
		c->len -= take;
		memcpy(&objs[got], &c->objs[c->len], take * sizeof(void *));
		got += take;
	}
	return got;
}

/**
 * Put an object into the calling lcore's cache (the shared pool on a
 * non-EAL thread), whichever lcore got it.
 *
 * @param r
 *   The recycler.
 * @param obj
 *   The object.
 */
static __rte_always_inline void
skl_recycler_put_local(struct skl_recycler *r, void *obj)
{
	unsigned int lcore = rte_lcore_id();
	struct skl_recycler_cache *c;

	if (unlikely(lcore >= RTE_MAX_LCORE)) {
		skl_recycler_fill(r, &obj, 1);
		return;
	}
	c = &r->caches[lcore];
	if (unlikely(c->len == SKL_RECYCLER_CACHE_MAX))
		skl_recycler_spill(r, lcore);
	c->objs[c->len++] = obj;
}

/**
 * Send objects back to their owner from any thread: to the owner's return
 * pool, or the shared pool for SKL_RECYCLER_NO_OWNER or a full one.
 *
 * @param r
 *   The recycler.
 * @param owner
 *   Owner recorded when the objects were got.
 * @param objs
 *   The objects.
 * @param n
 *   How many.
 */
void skl_recycler_put_remote(struct skl_recycler *r, uint16_t owner,
			       void *const *objs, uint32_t n);

#endif /* SKL_RECYCLER_H */
