/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Slow paths of the object recycler (skl_recycler.h): creating it, and
 * what the inline fast paths fall back on when a cache is empty or full.
 */

#include <errno.h>
#include <stdio.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memzone.h>

#include "skl_recycler.h"

struct skl_recycler *
skl_recycler_create(const char *name, uint32_t nb_objs, int socket)
{
	char pool_name[RTE_MEMZONE_NAMESIZE];
	struct skl_recycler *r;
	unsigned int lcore;

	r = rte_zmalloc_socket(name, sizeof(*r), RTE_CACHE_LINE_SIZE, socket);
	if (r == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	snprintf(pool_name, sizeof(pool_name), "%s_s", name);
	r->shared = swtim_stack_create(pool_name, nb_objs, sizeof(void *),
				       socket);
	for (lcore = 0; r->shared != NULL && lcore < RTE_MAX_LCORE; lcore++) {
		snprintf(pool_name, sizeof(pool_name), "%s_r%u", name, lcore);
		r->returns[lcore] = swtim_stack_create(pool_name,
				SKL_RECYCLER_RETURN_SIZE, sizeof(void *), socket);
		if (r->returns[lcore] == NULL)
			break;
	}
	if (r->shared == NULL || lcore < RTE_MAX_LCORE) {
		skl_recycler_free(r);
		rte_errno = ENOMEM;
		return NULL;
	}
	return r;
}

void
skl_recycler_free(struct skl_recycler *r)
{
	unsigned int lcore;

	if (r == NULL)
		return;
	for (lcore = 0; lcore < RTE_MAX_LCORE; lcore++)
		swtim_stack_free(r->returns[lcore]);
	swtim_stack_free(r->shared);
	rte_free(r);
}

int
skl_recycler_fill(struct skl_recycler *r, void *const *objs, uint32_t n)
{
	return swtim_stack_push(r->shared, objs, n) == n ? 0 : -ENOBUFS;
}

uint32_t
skl_recycler_get_shared(struct skl_recycler *r, void **objs, uint32_t n)
{
	uint32_t got = swtim_stack_pop(r->shared, objs, n);
	unsigned int lcore;

	/* Nothing may be stranded on its way home: take it from there. */
	for (lcore = 0; got < n && lcore < RTE_MAX_LCORE; lcore++)
		got += swtim_stack_pop(r->returns[lcore], &objs[got],
				       n - got);
	return got;
}

uint32_t
skl_recycler_refill(struct skl_recycler *r, unsigned int lcore)
{
	struct skl_recycler_cache *c = &r->caches[lcore];
	struct skl_recycler_stats *st = &r->stats[lcore];

	/* Fast return path: what came home. */
	c->len = swtim_stack_pop(r->returns[lcore], c->objs,
				 SKL_RECYCLER_BULK);
	if (likely(c->len != 0)) {
		st->refills++;
		return c->len;
	}
	c->len = swtim_stack_pop(r->shared, c->objs, SKL_RECYCLER_BULK);
	if (c->len != 0) {
		st->slow_refills++;
		return c->len;
	}
	c->len = skl_recycler_get_shared(r, c->objs, SKL_RECYCLER_BULK);
	if (c->len != 0)
		st->steals++;
	return c->len;
}

void
skl_recycler_spill(struct skl_recycler *r, unsigned int lcore)
{
	struct skl_recycler_cache *c = &r->caches[lcore];

	c->len -= SKL_RECYCLER_BULK;
	/* The shared pool has room for every object: cannot fail. */
	RTE_VERIFY(skl_recycler_fill(r, &c->objs[c->len],
				       SKL_RECYCLER_BULK) == 0);
	r->stats[lcore].spills++;
}

void
skl_recycler_put_remote(struct skl_recycler *r, uint16_t owner,
			  void *const *objs, uint32_t n)
{
	uint32_t sent = 0;

	if (owner < RTE_MAX_LCORE)
		sent = swtim_stack_push(r->returns[owner], objs, n);
	if (sent < n)
		RTE_VERIFY(skl_recycler_fill(r, &objs[sent], n - sent) == 0);
}
