/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Timer-object allocation: the skiplist driver's recycler
 * (drivers/timer/skiplist/skl_recycler.h) against rte_mempool, with N
 * objects held outside (allocated, as by N armed timers). Objects are 32
 * bytes: what is measured is the allocator's bookkeeping, which does
 * not depend on the objects' size. Per element
 * means one allocation plus one free.
 *
 *   recycler alloc_fast    get(1) + put_local(1) on the owner lcore: the
 *                          lcore cache only
 *   recycler alloc_return  put_remote(32, owner = this lcore) + get(32)
 *                          from an empty cache: the objects go through
 *                          the owner's return pool and come back by a
 *                          refill from it (as objects freed by the
 *                          service come home). In this single-thread
 *                          bench the "remote" put is made from the owner
 *                          lcore itself, by naming the owner.
 *   recycler alloc_slow    get(32) from an empty cache and an empty
 *                          return pool: a refill from the shared pool,
 *                          then put_remote(32, no owner) back to it
 *
 *   mempool  alloc_fast    rte_mempool_get(1) + put(1), cache of 256
 *   mempool  alloc_return  put_bulk(32) + get_bulk(32), no cache: what
 *                          rte_mempool offers for an object freed on
 *                          another lcore coming back, the common ring
 *   mempool  alloc_slow    get_bulk(32) + put_bulk(32), no cache: the
 *                          common ring
 *
 * Checks: every get got what it asked for, and the recycler's counters
 * say each return/slow round took the path it was meant to.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mempool.h>

#include "skl_recycler.h"
#include "swtim_bench.h"

/* The objects: 32 bytes, half a cache line. */
struct bench_obj {
	uint64_t w[4];
};

#define BENCH_MEMPOOL_CACHE 256

enum acase {
	AC_FAST,
	AC_RETURN,
	AC_SLOW,
	AC_NB,
};

static const char *const acase_names[AC_NB] = {
	"alloc_fast", "alloc_return", "alloc_slow",
};

#define TIMED_BEGIN(collect, t0) do { \
	if (collect) \
		BENCH_COLLECT_TOGGLE(); \
	(t0) = bench_tsc(); \
} while (0)

#define TIMED_END(collect, t1) do { \
	(t1) = bench_tsc(); \
	if (collect) \
		BENCH_COLLECT_TOGGLE(); \
} while (0)

static void
alloc_dump(const char *impl, enum acase ac, uint64_t n, uint64_t ops)
{
	char label[128], nbuf[32];

	snprintf(label, sizeof(label), "%s:%s:-:%s ops=%" PRIu64, impl,
		 acase_names[ac], bench_size_str(n, nbuf, sizeof(nbuf)), ops);
	BENCH_DUMP(label);
}

/* ---- recycler ---- */

static __rte_noinline uint64_t
timed_rc_fast(struct skl_recycler *r, uint32_t n, bool collect,
	      uint32_t *done)
{
	uint64_t t0, t1;
	uint32_t i, ok = 0;
	void *o = NULL;

	TIMED_BEGIN(collect, t0);
	for (i = 0; i < n; i++) {
		ok += skl_recycler_get(r, &o, 1);
		skl_recycler_put_local(r, o);
	}
	TIMED_END(collect, t1);
	*done = ok;
	return t1 - t0;
}

static __rte_noinline uint64_t
timed_rc_return(struct skl_recycler *r, void **objs, uint32_t n,
		uint16_t owner, bool collect, uint32_t *done)
{
	uint64_t t0, t1;
	uint32_t i, ok = 0;

	TIMED_BEGIN(collect, t0);
	for (i = 0; i < n; i += BENCH_BURST) {
		skl_recycler_put_remote(r, owner, objs, BENCH_BURST);
		ok += skl_recycler_get(r, objs, BENCH_BURST);
	}
	TIMED_END(collect, t1);
	*done = ok;
	return t1 - t0;
}

static __rte_noinline uint64_t
timed_rc_slow(struct skl_recycler *r, void **objs, uint32_t n, bool collect,
	      uint32_t *done)
{
	uint64_t t0, t1;
	uint32_t i, ok = 0;

	TIMED_BEGIN(collect, t0);
	for (i = 0; i < n; i += BENCH_BURST) {
		ok += skl_recycler_get(r, objs, BENCH_BURST);
		skl_recycler_put_remote(r, SKL_RECYCLER_NO_OWNER, objs,
					  BENCH_BURST);
	}
	TIMED_END(collect, t1);
	*done = ok;
	return t1 - t0;
}

/*
 * Empty this lcore's cache and return pool into the shared pool, so that
 * the next get must refill. Reaches into the recycler: this is a
 * white-box benchmark of it.
 */
static int
rc_flush_lcore(struct skl_recycler *r)
{
	unsigned int lcore = rte_lcore_id();
	struct skl_recycler_cache *c = &r->caches[lcore];
	void *tmp[BENCH_BURST];
	unsigned int k;

	if (c->len != 0 && skl_recycler_fill(r, c->objs, c->len) != 0)
		return -1;
	c->len = 0;
	while ((k = swtim_stack_pop(r->returns[lcore], tmp, RTE_DIM(tmp))) > 0)
		if (skl_recycler_fill(r, tmp, k) != 0)
			return -1;
	return 0;
}

/*
 * Whether a measured loop (l > 0) during which the thread was switched
 * out is to be run again, as the timer cases do; counts it in *preempted.
 */
static bool
alloc_loop_again(bool switched, unsigned int l, unsigned int *retries,
		 int64_t *preempted)
{
	if (!switched || l == 0)
		return false;
	(*preempted)++;
	if (bench_opts.deterministic || *retries >= BENCH_RETRIES_MAX)
		return false;
	(*retries)++;
	return true;
}

static int
rc_case(struct skl_recycler *r, enum acase ac, uint64_t n, double *samples,
	int64_t *preempted)
{
	const uint32_t step = bench_opts.step;
	const unsigned int loops = bench_opts.loops;
	const unsigned int lcore = rte_lcore_id();
	struct skl_recycler_stats *st = &r->stats[lcore];
	void *objs[BENCH_BURST];
	uint64_t cyc = 0, before = 0, after = 0;
	uint32_t done = 0;
	unsigned int l, retries = 0;
	struct bench_sw sw;
	bool switched;

	*preempted = 0;
	for (l = 0; l <= loops; l++) {
		if (ac != AC_FAST && rc_flush_lcore(r) != 0) {
			bench_error("recycler: cannot flush the cache");
			return -1;
		}
		bench_sw_start(&sw);
		switch (ac) {
		case AC_FAST:
			cyc = timed_rc_fast(r, step, l > 0, &done);
			break;
		case AC_RETURN:
			/* Hold one burst to send home, cache empty again. */
			if (skl_recycler_get(r, objs, BENCH_BURST) !=
			    BENCH_BURST || rc_flush_lcore(r) != 0) {
				bench_error("recycler: no objects");
				return -1;
			}
			before = st->refills;
			cyc = timed_rc_return(r, objs, step, lcore, l > 0,
					      &done);
			after = st->refills;
			/* The burst goes back where it came from. */
			skl_recycler_put_remote(r, SKL_RECYCLER_NO_OWNER,
						  objs, BENCH_BURST);
			break;
		case AC_SLOW:
			before = st->slow_refills;
			cyc = timed_rc_slow(r, objs, step, l > 0, &done);
			after = st->slow_refills;
			break;
		default:
			return -1;
		}
		switched = bench_sw_stop(&sw, NULL);
		if (done != step || (ac != AC_FAST &&
				     after - before != step / BENCH_BURST)) {
			bench_error("recycler:%s: %u of %u objects, %" PRIu64
				    " refills for %u rounds", acase_names[ac],
				    done, step, after - before,
				    step / BENCH_BURST);
			return -1;
		}
		if (alloc_loop_again(switched, l, &retries, preempted)) {
			l--;
			continue;
		}
		if (l > 0)
			samples[l - 1] = (double)cyc / step;
	}
	alloc_dump("recycler", ac, n, (uint64_t)(loops + retries) * step);
	return 0;
}

static int
bench_recycler_run(uint64_t n, void **held)
{
	uint64_t nb = n + 2 * bench_opts.step + 1024, i;
	double samples[bench_opts.loops];
	struct bench_obj *objs;
	struct skl_recycler *r;
	int64_t preempted;
	int ret = -1;
	int ac;

	/* The recycler's pools are locked with this process's tag, which
	 * an adapter's creation would otherwise have set up. */
	if (swtim_proc_attach() != 0) {
		bench_error("process table: %s", rte_strerror(rte_errno));
		return -1;
	}
	objs = aligned_alloc(RTE_CACHE_LINE_SIZE, nb * sizeof(objs[0]));
	r = skl_recycler_create("bench_rc", nb, bench_env.socket);
	if (objs == NULL || r == NULL) {
		bench_error("recycler of %" PRIu64 " objects: %s", nb,
			    rte_strerror(rte_errno));
		goto out;
	}
	for (i = 0; i < nb; ) {
		void *batch[BENCH_BURST];
		uint32_t k = RTE_MIN(nb - i, (uint64_t)BENCH_BURST), j;

		for (j = 0; j < k; j++)
			batch[j] = &objs[i + j];
		if (skl_recycler_fill(r, batch, k) != 0) {
			bench_error("recycler: fill refused");
			goto out;
		}
		i += k;
	}
	/* N objects allocated, as by N armed timers. */
	for (i = 0; i < n; ) {
		uint32_t k = RTE_MIN(n - i, (uint64_t)BENCH_BURST);

		if (skl_recycler_get(r, &held[i], k) != k) {
			bench_error("recycler: cannot hold %" PRIu64, n);
			goto out;
		}
		i += k;
	}
	for (ac = 0; ac < AC_NB; ac++) {
		if (rc_case(r, ac, n, samples, &preempted) != 0)
			goto out;
		bench_report("recycler", acase_names[ac], "-", n,
			     bench_opts.step, samples, bench_opts.loops,
			     bench_opts.dpdk ? "mempool" : NULL, preempted);
	}
	ret = 0;
out:
	skl_recycler_free(r);
	free(objs);
	return ret;
}

/* ---- rte_mempool ---- */

static __rte_noinline uint64_t
timed_mp_fast(struct rte_mempool *mp, uint32_t n, bool collect,
	      uint32_t *done)
{
	uint64_t t0, t1;
	uint32_t i, ok = 0;
	void *o;

	TIMED_BEGIN(collect, t0);
	for (i = 0; i < n; i++) {
		if (rte_mempool_get(mp, &o) == 0) {
			ok++;
			rte_mempool_put(mp, o);
		}
	}
	TIMED_END(collect, t1);
	*done = ok;
	return t1 - t0;
}

static __rte_noinline uint64_t
timed_mp_put_get(struct rte_mempool *mp, void **objs, uint32_t n,
		 bool collect, uint32_t *done)
{
	uint64_t t0, t1;
	uint32_t i, ok = 0;

	TIMED_BEGIN(collect, t0);
	for (i = 0; i < n; i += BENCH_BURST) {
		rte_mempool_put_bulk(mp, objs, BENCH_BURST);
		if (rte_mempool_get_bulk(mp, objs, BENCH_BURST) == 0)
			ok += BENCH_BURST;
	}
	TIMED_END(collect, t1);
	*done = ok;
	return t1 - t0;
}

static __rte_noinline uint64_t
timed_mp_get_put(struct rte_mempool *mp, void **objs, uint32_t n,
		 bool collect, uint32_t *done)
{
	uint64_t t0, t1;
	uint32_t i, ok = 0;

	TIMED_BEGIN(collect, t0);
	for (i = 0; i < n; i += BENCH_BURST) {
		if (rte_mempool_get_bulk(mp, objs, BENCH_BURST) == 0) {
			ok += BENCH_BURST;
			rte_mempool_put_bulk(mp, objs, BENCH_BURST);
		}
	}
	TIMED_END(collect, t1);
	*done = ok;
	return t1 - t0;
}

static int
bench_mempool_case(uint64_t n, void **held, enum acase ac)
{
	const uint32_t step = bench_opts.step;
	const unsigned int loops = bench_opts.loops;
	double samples[loops];
	unsigned int cache = ac == AC_FAST ? BENCH_MEMPOOL_CACHE : 0;
	uint64_t nb = rte_align64pow2(n + 2 * step + 1024) - 1, i;
	struct rte_mempool *mp;
	void *objs[BENCH_BURST];
	uint64_t cyc = 0;
	uint32_t done = 0;
	unsigned int l, retries = 0;
	int64_t preempted = 0;
	struct bench_sw sw;
	bool switched;
	int ret = -1;

	mp = rte_mempool_create("bench_mp", nb, sizeof(struct bench_obj),
				cache, 0, NULL, NULL, NULL, NULL,
				bench_env.socket, 0);
	if (mp == NULL) {
		bench_error("mempool of %" PRIu64 " objects: %s", nb,
			    rte_strerror(rte_errno));
		return -1;
	}
	for (i = 0; i < n; ) {
		uint32_t k = RTE_MIN(n - i, (uint64_t)BENCH_BURST);

		if (rte_mempool_get_bulk(mp, &held[i], k) != 0) {
			bench_error("mempool: cannot hold %" PRIu64, n);
			goto out_put;
		}
		i += k;
	}
	for (l = 0; l <= loops; l++) {
		bench_sw_start(&sw);
		switch (ac) {
		case AC_FAST:
			cyc = timed_mp_fast(mp, step, l > 0, &done);
			break;
		case AC_RETURN:
			if (rte_mempool_get_bulk(mp, objs, BENCH_BURST) != 0)
				goto fail;
			cyc = timed_mp_put_get(mp, objs, step, l > 0, &done);
			rte_mempool_put_bulk(mp, objs, BENCH_BURST);
			break;
		case AC_SLOW:
			cyc = timed_mp_get_put(mp, objs, step, l > 0, &done);
			break;
		default:
			goto fail;
		}
		switched = bench_sw_stop(&sw, NULL);
		if (done != step)
			goto fail;
		if (alloc_loop_again(switched, l, &retries, &preempted)) {
			l--;
			continue;
		}
		if (l > 0)
			samples[l - 1] = (double)cyc / step;
	}
	alloc_dump("mempool", ac, n, (uint64_t)(loops + retries) * step);
	bench_report("mempool", acase_names[ac], "-", n, step, samples, loops,
		     NULL, preempted);
	ret = 0;
	goto out_put;
fail:
	bench_error("mempool:%s: %u of %u objects", acase_names[ac], done,
		    step);
out_put:
	rte_mempool_put_bulk(mp, held, i);
	rte_mempool_free(mp);
	return ret;
}

int
bench_alloc_run(uint64_t n)
{
	void **held = malloc(n * sizeof(*held));
	int ret = 0;
	int ac;

	if (held == NULL) {
		bench_error("no memory for %" PRIu64 " pointers", n);
		return -1;
	}
	for (ac = 0; ac < AC_NB && bench_opts.dpdk && ret == 0; ac++)
		ret = bench_mempool_case(n, held, ac);
	if (ret == 0)
		ret = bench_recycler_run(n, held);
	free(held);
	return ret;
}
