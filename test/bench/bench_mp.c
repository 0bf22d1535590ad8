/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Several producers at once: P lcores arm and cancel timers of their own
 * into one adapter at the same time, for each P of --producers, on
 * DPDK's software adapter and on each swtim driver, in the same run.
 *
 * For each size N, distribution and P, each implementation gets a fresh
 * adapter (nb_timers N + P x ops + slack) and each producer arms its
 * share of the N outstanding timers (N / P, the same timeouts as the
 * single-producer cases: equal, or uniform over [1 tick, max_tmo]).
 * Then one warm-up round and --loops measured rounds, each of these
 * phases, every producer on `ops` timers of its own (--mp-ops):
 *
 *   mp_arm                 ops x arm_burst(1)
 *   mp_cancel              ops x cancel_burst(1), the timers just armed
 *   mp_arm_burst           ops/32 x arm_burst(32)
 *   mp_cancel_burst        ops/32 x cancel_burst(32)
 *   (untimed)              each lcore arms the timers of the producer
 *                          before it (producer p's are armed by lcore
 *                          p + 1, the last producer's by the first; with
 *                          one producer, by a second lcore that is no
 *                          producer and rests during the timed phases)
 *   mp_cross_cancel        ops x cancel_burst(1) of those
 *   (untimed)              the same arming again
 *   mp_cross_cancel_burst  ops/32 x cancel_burst(32) of those
 *
 * Every phase starts at a barrier that lets all lcores go at once, and
 * ends at another; each producer times its own operations with its own
 * TSC reads. A phase's figure is the median producer's cycles per timer
 * (the slowest producer's is reported too), the result the least over
 * the measured rounds. How much of the phase the producers really ran
 * together (from the latest start to the earliest end, over the first
 * start to the last end) is reported as the overlap.
 *
 * The services never run: nothing falls due, N stays N between phases.
 * Each producer checks that every call armed or cancelled all it was
 * given and left its timers in the state expected; a failed check stops
 * every lcore at the next barrier and makes the exit status 1.
 *
 * A producer switched out during its timed phase (the CPUs may be shared)
 * counts its thread's CPU time instead of the TSC if smaller; the number
 * of such phases is reported. The other producers meanwhile ran with one
 * competitor less: with more producers than CPUs the figures say nothing
 * about scaling (the output says so), only that the mode runs.
 */

#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "swtim_bench.h"
#include "bench_adapter.h"

/* Polls of a barrier before each sched_yield(): with more lcores than
 * CPUs a waiter must give its CPU to the lcores it waits for. */
#define MP_SPINS 20000

/* nb_timers above N + P x ops: per-lcore object caches and then some. */
#define MP_NB_TIMERS_SLACK 1024

enum mp_case {
	MP_ARM,
	MP_CANCEL,
	MP_ARM_BURST,
	MP_CANCEL_BURST,
	MP_CROSS_CANCEL,
	MP_CROSS_CANCEL_BURST,
	MP_NB_CASES,
};

static const char *const mp_case_names[MP_NB_CASES] = {
	"mp_arm", "mp_cancel", "mp_arm_burst", "mp_cancel_burst",
	"mp_cross_cancel", "mp_cross_cancel_burst",
};

/* The order of the report: as the single-producer cases. */
static const enum mp_case mp_report_order[MP_NB_CASES] = {
	MP_ARM, MP_ARM_BURST, MP_CANCEL, MP_CANCEL_BURST, MP_CROSS_CANCEL,
	MP_CROSS_CANCEL_BURST,
};

/* One producer's timed phase. */
struct mp_sample {
	uint64_t t0, t1;	/* its TSC at start and end */
	uint64_t cyc;		/* t1 - t0, or its CPU time if less and
				 * switched out */
	bool switched;
};

/* One implementation, distribution and producer count. */
struct mp_run {
	const struct tadapter *ta;
	enum bench_dist dist;
	uint64_t n;		/* outstanding, all producers */
	unsigned int nb_prod;	/* producers */
	unsigned int nb_lcores;	/* lcores at the barriers: >= 2 */
	uint32_t ops;		/* timers a producer per phase */
	unsigned int rounds;	/* warm-up + measured */
	struct tset *out;	/* the N outstanding, split in nb_prod */
	struct tset *own;	/* nb_lcores x ops, lcore i's from i x ops */
	struct mp_sample *samples; /* [round][case][lcore] */
	/* Set by the main lcore once every worker was launched: 1 go on,
	 * -1 give up (a launch failed, nobody may wait at a barrier). */
	int32_t go;

	/* The barrier: arrivals, and its generation, which the last
	 * arrival moves on. */
	uint32_t arrived __rte_cache_aligned;
	uint32_t gen __rte_cache_aligned;
	/* Set by an lcore whose check failed, read after each barrier. */
	uint32_t failed __rte_cache_aligned;
};

struct mp_lcore_arg {
	struct mp_run *run;
	unsigned int idx;	/* 0: the main lcore */
};

unsigned int
bench_mp_lcores(void)
{
	unsigned int i, max = 2;

	if (!bench_opts.mp)
		return 1;
	for (i = 0; i < bench_opts.nb_producers; i++)
		max = RTE_MAX(max, bench_opts.producers[i]);
	return max;
}

/*
 * Wait for every lcore of the run; the last to come lets all go at
 * once. Returns false once any lcore failed a check: all of them see it
 * after the same barrier, so none is left waiting at the next.
 */
static bool
mp_barrier(struct mp_run *r)
{
	uint32_t gen = __atomic_load_n(&r->gen, __ATOMIC_ACQUIRE);
	unsigned int spins = 0;

	if (__atomic_add_fetch(&r->arrived, 1, __ATOMIC_ACQ_REL) ==
	    r->nb_lcores) {
		/* Before the release: the next barrier counts from 0. */
		__atomic_store_n(&r->arrived, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&r->gen, gen + 1, __ATOMIC_RELEASE);
	} else {
		while (__atomic_load_n(&r->gen, __ATOMIC_ACQUIRE) == gen) {
			if (++spins < MP_SPINS) {
				rte_pause();
			} else {
				sched_yield();
				spins = 0;
			}
		}
	}
	return __atomic_load_n(&r->failed, __ATOMIC_ACQUIRE) == 0;
}

static void
mp_fail(struct mp_run *r)
{
	__atomic_store_n(&r->failed, 1, __ATOMIC_RELEASE);
}

/* A view of timers [from, from + cnt) of s. */
static struct tset
mp_view(const struct tset *s, uint64_t from, uint64_t cnt)
{
	struct tset v = {
		.t = s->t + from,
		.p = s->p + from,
		.n = cnt,
	};

	return v;
}

/* Lcore idx's own timers. */
static struct tset
mp_own(const struct mp_run *r, unsigned int idx)
{
	return mp_view(r->own, (uint64_t)idx * r->ops, r->ops);
}

/* Producer idx's share of the outstanding timers. */
static struct tset
mp_share(const struct mp_run *r, unsigned int idx)
{
	uint64_t from = r->n * idx / r->nb_prod;
	uint64_t to = r->n * (idx + 1) / r->nb_prod;

	return mp_view(r->out, from, to - from);
}

/*
 * Whose timers lcore idx arms before a cross cancel: the producer before
 * it, so that producer p cancels what lcore p + 1 armed (the last
 * producer's, lcore 0's; with one producer, lcore 1's). -1: none.
 */
static int
mp_cross_victim(const struct mp_run *r, unsigned int idx)
{
	unsigned int v = (idx + r->nb_lcores - 1) % r->nb_lcores;

	return v < r->nb_prod ? (int)v : -1;
}

static void
mp_timeouts(const struct mp_run *r, struct tset *s, uint64_t *rng)
{
	tset_timeouts(s, s->n, r->dist, bench_equal_ticks(r->ta),
		      r->ta->max_ticks, rng);
}

/* ---- timed regions: nothing else between the two TSC reads ---- */

static __rte_noinline uint32_t
mp_timed(const struct tadapter *ta, enum mp_case c,
	 struct rte_event_timer **p, uint32_t n, uint64_t *t0, uint64_t *t1)
{
	uint32_t i, ok = 0;

	switch (c) {
	case MP_ARM:
		*t0 = bench_tsc();
		for (i = 0; i < n; i++)
			ok += ta_arm_burst(ta, &p[i], 1);
		*t1 = bench_tsc();
		break;
	case MP_ARM_BURST:
		*t0 = bench_tsc();
		for (i = 0; i < n; i += BENCH_BURST)
			ok += ta_arm_burst(ta, &p[i], BENCH_BURST);
		*t1 = bench_tsc();
		break;
	case MP_CANCEL:
	case MP_CROSS_CANCEL:
		*t0 = bench_tsc();
		for (i = 0; i < n; i++)
			ok += ta_cancel_burst(ta, &p[i], 1);
		*t1 = bench_tsc();
		break;
	default:
		*t0 = bench_tsc();
		for (i = 0; i < n; i += BENCH_BURST)
			ok += ta_cancel_burst(ta, &p[i], BENCH_BURST);
		*t1 = bench_tsc();
		break;
	}
	return ok;
}

static bool
mp_check_states(const struct mp_run *r, const struct tset *s,
		enum rte_event_timer_state want, const char *what,
		unsigned int idx)
{
	uint64_t i;

	for (i = 0; i < s->n; i++)
		if (__atomic_load_n(&s->t[i].state, __ATOMIC_ACQUIRE) !=
		    want) {
			bench_error("%s:%s: lcore %u: timer %" PRIu64 " of %"
				    PRIu64 " in state %d, not %d", r->ta->name,
				    what, idx, i, s->n, s->t[i].state, want);
			return false;
		}
	return true;
}

/*
 * One producer's timed phase on its own timers s: start with the others,
 * time, check. Lcores that are no producer only keep the barriers.
 */
static bool
mp_phase(struct mp_run *r, unsigned int idx, unsigned int round,
	 enum mp_case c, struct tset *s)
{
	struct mp_sample *smp = &r->samples[((size_t)round * MP_NB_CASES +
					     c) * r->nb_lcores + idx];
	const bool arm = c == MP_ARM || c == MP_ARM_BURST;
	struct bench_sw sw;
	uint64_t cpu;
	uint32_t done;

	if (!mp_barrier(r))
		return false;	/* the start */
	if (idx < r->nb_prod) {
		bench_sw_start(&sw);
		done = mp_timed(r->ta, c, s->p, r->ops, &smp->t0, &smp->t1);
		smp->switched = bench_sw_stop(&sw, &cpu);
		smp->cyc = smp->t1 - smp->t0;
		if (smp->switched)
			smp->cyc = RTE_MIN(smp->cyc, cpu);
		if (done != r->ops) {
			bench_error("%s:%s:%s: lcore %u: %u of %u timers "
				    "done: %s", r->ta->name, mp_case_names[c],
				    bench_dist_names[r->dist], idx, done,
				    r->ops, rte_strerror(rte_errno));
			mp_fail(r);
		} else if (!mp_check_states(r, s, arm ?
				RTE_EVENT_TIMER_ARMED :
				RTE_EVENT_TIMER_CANCELED, mp_case_names[c],
				idx)) {
			mp_fail(r);
		}
	}
	return mp_barrier(r);	/* the end: every check done */
}

/* Untimed: lcore idx arms the timers of the producer it cancels for. */
static bool
mp_cross_arm(struct mp_run *r, unsigned int idx, uint64_t *rng)
{
	int v = mp_cross_victim(r, idx);

	if (v >= 0) {
		struct tset s = mp_own(r, v);

		mp_timeouts(r, &s, rng);
		if (arm_all(r->ta, s.p, s.n) != 0 ||
		    !mp_check_states(r, &s, RTE_EVENT_TIMER_ARMED,
				     "cross arm", idx))
			mp_fail(r);
	}
	return mp_barrier(r);
}

static int
mp_lcore_main(void *arg)
{
	const struct mp_lcore_arg *a = arg;
	struct mp_run *r = a->run;
	const unsigned int idx = a->idx;
	struct tset own = mp_own(r, idx);
	struct tset share;
	char nbuf[32];
	uint64_t rng = bench_case_seed(r->n, r->dist, "mp") ^
		((uint64_t)(idx + 1) * UINT64_C(0x9e3779b97f4a7c15));
	unsigned int round;
	int32_t go;

	while ((go = __atomic_load_n(&r->go, __ATOMIC_ACQUIRE)) == 0)
		sched_yield();
	if (go < 0)
		return -1;
	rng |= 1;
	/* The outstanding timers, each producer its share, all at once. */
	if (idx < r->nb_prod) {
		share = mp_share(r, idx);
		mp_timeouts(r, &share, &rng);
		if (arm_all(r->ta, share.p, share.n) != 0)
			mp_fail(r);
	}
	if (!mp_barrier(r))
		return -1;
	for (round = 0; round < r->rounds; round++) {
		if (idx == 0)
			bench_progress("%s %s %s p%u: round %u of %u%s",
				       r->ta->name, bench_dist_names[r->dist],
				       bench_size_str(r->n, nbuf,
						      sizeof(nbuf)),
				       r->nb_prod, round + 1, r->rounds,
				       round == 0 ? " (warm-up)" : "");
		if (idx < r->nb_prod)
			mp_timeouts(r, &own, &rng);
		if (!mp_phase(r, idx, round, MP_ARM, &own) ||
		    !mp_phase(r, idx, round, MP_CANCEL, &own))
			return -1;
		if (idx < r->nb_prod)
			mp_timeouts(r, &own, &rng);
		if (!mp_phase(r, idx, round, MP_ARM_BURST, &own) ||
		    !mp_phase(r, idx, round, MP_CANCEL_BURST, &own))
			return -1;
		if (!mp_cross_arm(r, idx, &rng) ||
		    !mp_phase(r, idx, round, MP_CROSS_CANCEL, &own) ||
		    !mp_cross_arm(r, idx, &rng) ||
		    !mp_phase(r, idx, round, MP_CROSS_CANCEL_BURST, &own))
			return -1;
	}
	/* N back to none, checked. */
	if (idx < r->nb_prod) {
		share = mp_share(r, idx);
		if (cancel_all(r->ta, share.p, share.n) != 0 ||
		    !mp_check_states(r, &share, RTE_EVENT_TIMER_CANCELED,
				     "outstanding", idx))
			mp_fail(r);
	}
	return mp_barrier(r) ? 0 : -1;
}

/* The lcores of a run: the main lcore first, then the workers. */
static int
mp_lcore_ids(unsigned int *ids, unsigned int nb)
{
	unsigned int i, lcore = rte_get_main_lcore();

	ids[0] = lcore;
	lcore = -1;
	for (i = 1; i < nb; i++) {
		lcore = rte_get_next_lcore(lcore, 1, 0);
		if (lcore >= RTE_MAX_LCORE) {
			bench_error("multi-producer cases: %u lcores wanted "
				    "besides the service lcore, %u given", nb,
				    i);
			return -1;
		}
		ids[i] = lcore;
	}
	return 0;
}

/*
 * Whether the first nb producer lcores share CPUs: fewer CPUs in their
 * sets together than producers, or one CPU in two of them.
 */
static bool
mp_cpus_shared(const unsigned int *ids, unsigned int nb)
{
	rte_cpuset_t all;
	unsigned int i;

	CPU_ZERO(&all);
	for (i = 0; i < nb; i++) {
		rte_cpuset_t set = rte_lcore_cpuset(ids[i]), both;

		CPU_AND(&both, &all, &set);
		if (CPU_COUNT(&both) > 0)
			return true;
		CPU_OR(&all, &all, &set);
	}
	return CPU_COUNT(&all) < (int)nb;
}

static double
mp_median(double *v, unsigned int nb)
{
	unsigned int i, j;

	/* A handful of producers: insertion sort. */
	for (i = 1; i < nb; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--)
			RTE_SWAP(v[j - 1], v[j]);
	return nb % 2 ? v[nb / 2] : (v[nb / 2 - 1] + v[nb / 2]) / 2;
}

static void
mp_report(const struct mp_run *r, bool shared)
{
	const unsigned int loops = r->rounds - 1;
	double med[loops], max[loops], ovl[loops], per[r->nb_prod];
	unsigned int c, l, i;

	for (c = 0; c < MP_NB_CASES; c++) {
		enum mp_case kase = mp_report_order[c];
		int64_t switched = 0;

		for (l = 0; l < loops; l++) {
			const struct mp_sample *s = &r->samples[
				((size_t)(l + 1) * MP_NB_CASES + kase) *
				r->nb_lcores];
			uint64_t first = UINT64_MAX, last = 0;
			uint64_t late = 0, early = UINT64_MAX;

			max[l] = 0;
			for (i = 0; i < r->nb_prod; i++) {
				per[i] = (double)s[i].cyc / r->ops;
				max[l] = RTE_MAX(max[l], per[i]);
				first = RTE_MIN(first, s[i].t0);
				late = RTE_MAX(late, s[i].t0);
				early = RTE_MIN(early, s[i].t1);
				last = RTE_MAX(last, s[i].t1);
				switched += s[i].switched;
			}
			med[l] = mp_median(per, r->nb_prod);
			ovl[l] = early > late && last > first ?
				(double)(early - late) / (last - first) : 0;
		}
		bench_report_mp(r->ta->name, mp_case_names[kase],
				bench_dist_names[r->dist], r->n, r->nb_prod,
				r->ops, med, max, ovl, loops,
				ta_ref(r->ta),
				switched, shared);
	}
}

/* One implementation, distribution and producer count. */
static int
mp_impl_run(const char *name, uint64_t n, enum bench_dist dist,
	    unsigned int nb_prod, struct tset *out, struct tset *own,
	    struct mp_sample *samples, const unsigned int *ids, bool shared)
{
	struct mp_lcore_arg args[BENCH_MAX_PRODUCERS];
	struct rte_event_timer_adapter_stats st;
	struct mp_run r;
	struct tadapter ta;
	unsigned int i, launched;
	int ret = 0, rc;

	memset(&r, 0, sizeof(r));
	r.ta = &ta;
	r.dist = dist;
	r.n = n;
	r.nb_prod = nb_prod;
	r.nb_lcores = RTE_MAX(nb_prod, 2u);
	r.ops = bench_opts.mp_ops;
	r.rounds = bench_opts.loops + 1;
	r.out = out;
	r.own = own;
	r.samples = samples;
	tset_init(out);
	tset_init(own);
	if (ta_create(&ta, name, n + (uint64_t)nb_prod * r.ops +
		      (uint64_t)r.nb_lcores * MP_NB_TIMERS_SLACK) != 0)
		return -1;
	for (i = 0; i < r.nb_lcores; i++) {
		args[i].run = &r;
		args[i].idx = i;
	}
	launched = 1;
	for (i = 1; i < r.nb_lcores; i++) {
		if (rte_eal_remote_launch(mp_lcore_main, &args[i],
					  ids[i]) != 0) {
			bench_error("cannot launch lcore %u", ids[i]);
			break;
		}
		launched++;
	}
	/* Those launched wait for this before their first barrier. */
	__atomic_store_n(&r.go, launched == r.nb_lcores ? 1 : -1,
			 __ATOMIC_RELEASE);
	ret = launched == r.nb_lcores ? mp_lcore_main(&args[0]) : -1;
	for (i = 1; i < launched; i++) {
		rc = rte_eal_wait_lcore(ids[i]);
		if (rc != 0)
			ret = -1;
	}
	if (r.failed != 0)
		ret = -1;
	if (ret == 0)
		mp_report(&r, shared);
	if (ret == 0 && (ta_stats(&ta, &st) != 0 || st.evtim_exp_count != 0 ||
			 st.ev_enq_count != 0)) {
		bench_error("%s: the multi-producer cases expired timers",
			    name);
		ret = -1;
	}
	ta_destroy(&ta);
	if (drain_port(NULL, 0, NULL) != 0 && ret == 0) {
		bench_error("%s: stray expiry events", name);
		ret = -1;
	}
	return ret;
}

int
bench_mp_run(uint64_t n)
{
	const unsigned int nb_lcores = bench_mp_lcores();
	unsigned int ids[BENCH_MAX_PRODUCERS];
	struct mp_sample *samples = NULL;
	struct tset out, own;
	unsigned int d, i, k;
	char nbuf[32];
	int ret = -1;

	memset(&out, 0, sizeof(out));
	memset(&own, 0, sizeof(own));
	if (mp_lcore_ids(ids, nb_lcores) != 0)
		return -1;
	samples = calloc((size_t)(bench_opts.loops + 1) * MP_NB_CASES *
			 nb_lcores, sizeof(*samples));
	if (samples == NULL || tset_alloc(&out, RTE_MAX(n, (uint64_t)1)) != 0 ||
	    tset_alloc(&own, (uint64_t)nb_lcores * bench_opts.mp_ops) != 0) {
		bench_error("no memory for the multi-producer cases");
		goto out;
	}
	out.n = n;
	for (k = 0; k < bench_opts.nb_producers; k++) {
		unsigned int p = bench_opts.producers[k];
		bool shared = mp_cpus_shared(ids, p);

		printf("swtim-bench: %u producer%s (lcore%s", p,
		       p > 1 ? "s" : "", p > 1 ? "s" : "");
		for (i = 0; i < p; i++)
			printf(" %u", ids[i]);
		printf("), %u timers each a phase, %s outstanding in all; "
		       "per timer: the median producer%s\n",
		       bench_opts.mp_ops, bench_size_str(n, nbuf, sizeof(nbuf)),
		       shared ? "; the producers SHARE CPUs: no scaling "
		       "figures" : "");
		fflush(stdout);
		for (d = 0; d < BENCH_NB_DISTS; d++) {
			if (!bench_opts.dists[d])
				continue;
			/* DPDK first: every swtim line carries the ratio. */
			if (bench_opts.dpdk &&
			    mp_impl_run("dpdk", n, d, p, &out, &own, samples,
					ids, shared) != 0)
				goto out;
			for (i = 0; i < bench_opts.nb_drivers; i++)
				if (mp_impl_run(bench_opts.drivers[i], n, d, p,
						&out, &own, samples, ids,
						shared) != 0)
					goto out;
		}
	}
	ret = 0;
out:
	tset_free(&out);
	tset_free(&own);
	free(samples);
	return ret;
}
