/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Arm, cancel and expiry, on swtim's drivers and on DPDK's software
 * event timer adapter, with N timers outstanding.
 *
 * For each size N and timeout distribution, each implementation in turn
 * gets a fresh adapter (tick --tick-ns, max timeout --max-tmo-ns,
 * nb_timers N + step + 64) and N timers armed with long timeouts: equal
 * (all max_tmo / 2) or random (uniform over [1 tick, max_tmo]). Then each
 * fast-path case runs one warm-up loop and --loops measured loops of
 * `step` operations, timed as a whole with the TSC:
 *
 *   arm                 step x arm_burst(1)          (cancelled after)
 *   arm_burst           step/32 x arm_burst(32)      (cancelled after)
 *   arm_tmo_tick_burst  step/32 x arm_tmo_tick_burst(32)
 *   cancel              step x cancel_burst(1)       (armed before)
 *   cancel_burst        step/32 x cancel_burst(32)   (armed before)
 *
 * The services never run during these cases (their service lcore is
 * mapped but stopped), so nothing expires even where a random timeout is
 * short: N stays N.
 *
 * Expiry: the N timers are cancelled, armed again with timeouts that
 * fall due soon (equal: all 1 ms; random: uniform over [1 tick, 100 ms]),
 * and once the last deadline has passed the bench calls
 * rte_service_run_iter_on_app_lcore() until all N expiry events came out
 * of the worker port; only those calls are timed, and the dequeues in
 * between are not. Cycles per expired timer = timed cycles / N.
 *
 * Every loop checks its counts: each call armed/cancelled what it was
 * given, every expiry event came exactly once, states and the adapter's
 * statistics agree.
 *
 * The CPUs may be shared: a measured loop during which the thread was
 * switched out is run again, and an expiry call that was switched out
 * counts the thread's CPU time instead of the TSC if smaller (see
 * struct bench_sw).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_event_timer_adapter.h>
#include <rte_eventdev.h>
#include <rte_lcore.h>
#include <rte_prefetch.h>
#include <rte_random.h>
#include <rte_service.h>

#include "swtim.h"
#include "swtim_bench.h"
#include "bench_adapter.h"

/* Expiry timeouts: short, so that the bench does not wait long. */
#define BENCH_EXP_EQUAL_NS	UINT64_C(1000000)	/* 1 ms */
#define BENCH_EXP_RANDOM_MAX_NS	UINT64_C(100000000)	/* 100 ms */

/* nb_timers above N + step. */
#define BENCH_NB_TIMERS_SLACK 64

/*
 * How many timers ahead the floor loop fetches the event timers, and
 * twice that the records: as far as the wheel's expiry fetches them
 * (WHL_PREFETCH_AHEAD).
 */
#define BENCH_FLOOR_AHEAD	16

/* An expiry loop that makes no progress for this long has failed. */
#define BENCH_EXP_STALL_S 30

const char *const bench_dist_names[BENCH_NB_DISTS] = {
	"equal", "random",
};

int
ta_stats(const struct tadapter *ta, struct rte_event_timer_adapter_stats *s)
{
	memset(s, 0, sizeof(*s));
	return ta->impl->stats_get(ta->a, s);
}

const char *
ta_ref(const struct tadapter *ta)
{
	if (ta->impl == &adapter_impl_dpdk)
		return NULL;
	if (ta->dpdk)
		return ta->name + strlen(BENCH_DPDK_API_PREFIX);
	return bench_opts.dpdk ? "dpdk" : NULL;
}

static int
bench_port_cb(uint16_t id, uint8_t event_dev_id, uint8_t *event_port_id,
	      void *conf_arg)
{
	RTE_SET_USED(id);
	RTE_SET_USED(event_dev_id);
	*event_port_id = *(const uint8_t *)conf_arg;
	return 0;
}

void
ta_destroy(struct tadapter *ta)
{
	if (ta->a == NULL)
		return;
	ta->impl->stop(ta->a);
	rte_service_runstate_set(ta->sid, 0);
	rte_service_map_lcore_set(ta->sid, bench_env.service_lcore, 0);
	if (ta->impl->free(ta->a) != 0)
		bench_error("%s: cannot free the adapter", ta->name);
	ta->a = NULL;
}

int
ta_create(struct tadapter *ta, const char *name, uint64_t nb_timers)
{
	struct rte_event_timer_adapter_conf conf = {
		.event_dev_id = bench_env.dev_id,
		.timer_adapter_id = 0,
		.socket_id = bench_env.socket,
		.clk_src = RTE_EVENT_TIMER_ADAPTER_CPU_CLK,
		.timer_tick_ns = bench_opts.tick_ns,
		.max_tmo_ns = bench_opts.max_tmo_ns,
		.nb_timers = nb_timers,
		.flags = RTE_EVENT_TIMER_ADAPTER_F_ADJUST_RES,
	};
	struct rte_event_timer_adapter_info info;
	int ret;

	memset(ta, 0, sizeof(*ta));
	ta->name = name;
	if (strcmp(name, "dpdk") == 0) {
		ta->impl = &adapter_impl_dpdk;
	} else if (strncmp(name, BENCH_DPDK_API_PREFIX,
			   strlen(BENCH_DPDK_API_PREFIX)) == 0) {
		ta->impl = bench_dropin_impl();
		if (ta->impl == NULL)
			return -1;
		/* The drop-in library reads its driver at each create. */
		setenv("SWTIM_DRIVER", name + strlen(BENCH_DPDK_API_PREFIX),
		       1);
	} else {
		ta->impl = &adapter_impl_swtim;
	}
	ta->dpdk = ta->impl != &adapter_impl_swtim;
	/*
	 * DPDK's adapter on its own port, swtim's on swtim's; name is the
	 * driver where the implementation has drivers (swtim's).
	 */
	ta->a = adapter_impl_create(ta->impl, &conf, bench_port_cb,
			ta->impl == &adapter_impl_dpdk ? &bench_env.dpdk_port :
			&bench_env.swtim_port, name, NULL);
	if (ta->a == NULL)
		goto fail_create;
	ret = ta->impl->service_id_get(ta->a, &ta->sid);
	if (ret == 0)
		ret = ta->impl->get_info(ta->a, &info);
	if (ret != 0) {
		bench_error("%s: no service id or info: %d", name, ret);
		goto fail;
	}
	/* Mapped to the stopped service lcore: startable, never run but
	 * by us. */
	ret = rte_service_map_lcore_set(ta->sid, bench_env.service_lcore, 1);
	if (ret == 0)
		ret = rte_service_runstate_set(ta->sid, 1);
	if (ret == 0)
		ret = ta->impl->start(ta->a);
	if (ret != 0) {
		bench_error("%s: cannot start the adapter: %d", name, ret);
		goto fail;
	}
	ta->tick_ns = info.min_resolution_ns;
	ta->max_ticks = info.max_tmo_ns / ta->tick_ns;
	ta->tick_cycles = (ta->tick_ns * bench_env.tsc_hz + 999999999) /
		1000000000;
	return 0;

fail_create:
	bench_error("%s: cannot create the adapter (%" PRIu64 " timers): %s",
		    name, nb_timers, rte_strerror(rte_errno));
	return -1;
fail:
	ta_destroy(ta);
	return -1;
}

/* ---- timers ---- */

int
tset_alloc(struct tset *s, uint64_t n)
{
	s->n = n;
	s->t = aligned_alloc(RTE_CACHE_LINE_SIZE,
			     RTE_ALIGN_CEIL(n * sizeof(s->t[0]),
					    RTE_CACHE_LINE_SIZE));
	s->p = malloc(n * sizeof(s->p[0]));
	if (s->t == NULL || s->p == NULL) {
		bench_error("no memory for %" PRIu64 " timers", n);
		return -1;
	}
	return 0;
}

void
tset_free(struct tset *s)
{
	free(s->t);
	free(s->p);
	memset(s, 0, sizeof(*s));
}

/* Fresh NOT_ARMED timers carrying their index. */
void
tset_init(struct tset *s)
{
	uint64_t i;

	memset(s->t, 0, s->n * sizeof(s->t[0]));
	for (i = 0; i < s->n; i++) {
		struct rte_event_timer *t = &s->t[i];

		t->ev.queue_id = bench_env.queue_id;
		t->ev.sched_type = bench_env.sched_type;
		t->ev.op = RTE_EVENT_OP_NEW;
		t->ev.event_type = RTE_EVENT_TYPE_TIMER;
		t->ev.priority = RTE_EVENT_DEV_PRIORITY_NORMAL;
		t->ev.u64 = i;
		t->state = RTE_EVENT_TIMER_NOT_ARMED;
		s->p[i] = t;
	}
}

void
tset_timeouts(struct tset *s, uint64_t n, enum bench_dist dist,
	      uint64_t equal, uint64_t max, uint64_t *rng)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		s->t[i].timeout_ticks = dist == BENCH_DIST_EQUAL ? equal :
			bench_rand_range(rng, 1, max);
}

int
arm_all(const struct tadapter *ta, struct rte_event_timer **p, uint64_t n)
{
	uint64_t i;
	uint16_t k;

	for (i = 0; i < n; i += k) {
		k = RTE_MIN(n - i, (uint64_t)BENCH_BURST);
		if (ta_arm_burst(ta, &p[i], k) != k) {
			bench_error("%s: arming timer %" PRIu64 " of %" PRIu64
				    ": %s", ta->name, i, n,
				    rte_strerror(rte_errno));
			return -1;
		}
	}
	return 0;
}

int
cancel_all(const struct tadapter *ta, struct rte_event_timer **p, uint64_t n)
{
	uint64_t i;
	uint16_t k;

	for (i = 0; i < n; i += k) {
		k = RTE_MIN(n - i, (uint64_t)BENCH_BURST);
		if (ta_cancel_burst(ta, &p[i], k) != k) {
			bench_error("%s: cancelling timer %" PRIu64 " of %"
				    PRIu64 ": %s", ta->name, i, n,
				    rte_strerror(rte_errno));
			return -1;
		}
	}
	return 0;
}

/* ---- timed regions: nothing else between the two TSC reads ---- */

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

static __rte_noinline uint64_t
timed_arm(const struct tadapter *ta, struct rte_event_timer **p, uint32_t n,
	  bool collect, uint32_t *done)
{
	uint64_t t0, t1;
	uint32_t i, ok = 0;

	TIMED_BEGIN(collect, t0);
	for (i = 0; i < n; i++)
		ok += ta_arm_burst(ta, &p[i], 1);
	TIMED_END(collect, t1);
	*done = ok;
	return t1 - t0;
}

static __rte_noinline uint64_t
timed_arm_burst(const struct tadapter *ta, struct rte_event_timer **p,
		uint32_t n, bool collect, uint32_t *done)
{
	uint64_t t0, t1;
	uint32_t i, ok = 0;

	TIMED_BEGIN(collect, t0);
	for (i = 0; i < n; i += BENCH_BURST)
		ok += ta_arm_burst(ta, &p[i], BENCH_BURST);
	TIMED_END(collect, t1);
	*done = ok;
	return t1 - t0;
}

static __rte_noinline uint64_t
timed_arm_tmo_tick_burst(const struct tadapter *ta, struct rte_event_timer **p,
			 uint32_t n, const uint64_t *tmo, bool collect,
			 uint32_t *done)
{
	uint64_t t0, t1;
	uint32_t i, ok = 0;

	TIMED_BEGIN(collect, t0);
	for (i = 0; i < n; i += BENCH_BURST)
		ok += ta_arm_tmo_burst(ta, &p[i], tmo[i / BENCH_BURST],
				       BENCH_BURST);
	TIMED_END(collect, t1);
	*done = ok;
	return t1 - t0;
}

static __rte_noinline uint64_t
timed_cancel(const struct tadapter *ta, struct rte_event_timer **p,
	     uint32_t n, bool collect, uint32_t *done)
{
	uint64_t t0, t1;
	uint32_t i, ok = 0;

	TIMED_BEGIN(collect, t0);
	for (i = 0; i < n; i++)
		ok += ta_cancel_burst(ta, &p[i], 1);
	TIMED_END(collect, t1);
	*done = ok;
	return t1 - t0;
}

static __rte_noinline uint64_t
timed_cancel_burst(const struct tadapter *ta, struct rte_event_timer **p,
		   uint32_t n, bool collect, uint32_t *done)
{
	uint64_t t0, t1;
	uint32_t i, ok = 0;

	TIMED_BEGIN(collect, t0);
	for (i = 0; i < n; i += BENCH_BURST)
		ok += ta_cancel_burst(ta, &p[i], BENCH_BURST);
	TIMED_END(collect, t1);
	*done = ok;
	return t1 - t0;
}

static __rte_noinline uint64_t
timed_service_iter(uint32_t sid, bool collect, int32_t *ret)
{
	uint64_t t0, t1;

	TIMED_BEGIN(collect, t0);
	*ret = rte_service_run_iter_on_app_lcore(sid, 1);
	TIMED_END(collect, t1);
	return t1 - t0;
}

/* ---- fast-path cases ---- */

/* The equal timeout of the outstanding timers: half the longest. */
uint64_t
bench_equal_ticks(const struct tadapter *ta)
{
	return RTE_MAX(ta->max_ticks / 2, (uint64_t)1);
}

enum tcase {
	TC_ARM,
	TC_ARM_BURST,
	TC_ARM_TMO_BURST,
	TC_CANCEL,
	TC_CANCEL_BURST,
	TC_NB,
};

static const char *const tcase_names[TC_NB] = {
	"arm", "arm_burst", "arm_tmo_tick_burst", "cancel", "cancel_burst",
};

static void
bench_dump(const struct tadapter *ta, const char *kase, enum bench_dist dist,
	   uint64_t n, uint64_t ops)
{
	char label[128], nbuf[32];

	snprintf(label, sizeof(label), "%s:%s:%s:%s ops=%" PRIu64, ta->name,
		 kase, bench_dist_names[dist],
		 bench_size_str(n, nbuf, sizeof(nbuf)), ops);
	BENCH_DUMP(label);
}

static int
run_fastpath_case(const struct tadapter *ta, enum tcase tc, uint64_t n,
		  enum bench_dist dist, struct tset *stp, double *samples,
		  int64_t *preempted)
{
	const uint32_t step = bench_opts.step;
	const unsigned int loops = bench_opts.loops;
	uint64_t rng = bench_case_seed(n, dist, tcase_names[tc]);
	uint64_t tmo[step / BENCH_BURST];
	uint64_t cyc = 0, eq = bench_equal_ticks(ta), rng_at_loop;
	uint32_t done = 0, i;
	unsigned int l, retries = 0;
	struct bench_sw sw;
	bool collect, switched;

	*preempted = 0;
	for (l = 0; l <= loops; l++) {
		/* A loop run again gets the same timeouts. */
		rng_at_loop = rng;
		collect = l > 0;	/* loop 0 warms up */
		/* Untimed preparation. librte_timer draws skiplist levels
		 * from rte_rand(), which event_dsw also draws from at times
		 * of its own: restart the stream for repeatable counts. */
		rte_srand(rng);
		if (tc == TC_ARM_TMO_BURST) {
			for (i = 0; i < step / BENCH_BURST; i++)
				tmo[i] = dist == BENCH_DIST_EQUAL ? eq :
					bench_rand_range(&rng, 1,
							 ta->max_ticks);
		} else {
			tset_timeouts(stp, step, dist, eq, ta->max_ticks, &rng);
		}
		if ((tc == TC_CANCEL || tc == TC_CANCEL_BURST) &&
		    arm_all(ta, stp->p, step) != 0)
			return -1;

		bench_sw_start(&sw);
		switch (tc) {
		case TC_ARM:
			cyc = timed_arm(ta, stp->p, step, collect, &done);
			break;
		case TC_ARM_BURST:
			cyc = timed_arm_burst(ta, stp->p, step, collect, &done);
			break;
		case TC_ARM_TMO_BURST:
			cyc = timed_arm_tmo_tick_burst(ta, stp->p, step, tmo,
						       collect, &done);
			break;
		case TC_CANCEL:
			cyc = timed_cancel(ta, stp->p, step, collect, &done);
			break;
		case TC_CANCEL_BURST:
			cyc = timed_cancel_burst(ta, stp->p, step, collect,
						 &done);
			break;
		default:
			return -1;
		}
		switched = bench_sw_stop(&sw, NULL) && l > 0;
		if (done != step) {
			bench_error("%s:%s:%s: %u of %u operations done: %s",
				    ta->name, tcase_names[tc],
				    bench_dist_names[dist], done, step,
				    rte_strerror(rte_errno));
			return -1;
		}
		for (i = 0; i < step; i++) {
			enum rte_event_timer_state want =
				tc >= TC_CANCEL ? RTE_EVENT_TIMER_CANCELED :
				RTE_EVENT_TIMER_ARMED;

			if (stp->t[i].state != want) {
				bench_error("%s:%s: timer %u in state %d",
					    ta->name, tcase_names[tc], i,
					    stp->t[i].state);
				return -1;
			}
		}
		/* Back to N outstanding. */
		if (tc < TC_CANCEL && cancel_all(ta, stp->p, step) != 0)
			return -1;
		if (switched) {
			(*preempted)++;
			/* Not in the callgrind mode: instructions do not
			 * depend on it, and valgrind is switched out often. */
			if (!bench_opts.deterministic &&
			    retries < BENCH_RETRIES_MAX) {
				retries++;
				rng = rng_at_loop;
				l--;	/* this loop again */
				continue;
			}
		}
		if (l > 0)
			samples[l - 1] = (double)cyc / step;
	}
	bench_dump(ta, tcase_names[tc], dist, n,
		   (uint64_t)(loops + retries) * step);
	return 0;
}

/* ---- expiry ---- */

/*
 * Dequeue everything the worker port has; mark each timer's index. A
 * device with a scheduler service (event_sw) gets it run before each
 * dequeue, and is empty once a run moved nothing to the port twice.
 */
uint64_t
drain_port(uint8_t *seen, uint64_t cnt, uint64_t *bad)
{
	struct rte_event ev[64];
	uint64_t total = 0, id;
	unsigned int idle = 0;
	uint16_t k, i;

	for (;;) {
		if (bench_env.dev_service)
			rte_service_run_iter_on_app_lcore(
				bench_env.dev_service_id, 1);
		k = rte_event_dequeue_burst(bench_env.dev_id,
					    bench_env.worker_port, ev,
					    RTE_DIM(ev), 0);
		if (k == 0) {
			if (!bench_env.dev_service || ++idle == 2)
				break;
			continue;
		}
		idle = 0;
		for (i = 0; i < k; i++) {
			id = ev[i].u64;
			if (seen == NULL)
				continue;
			if (id >= cnt || seen[id])
				(*bad)++;
			else
				seen[id] = 1;
		}
		total += k;
	}
	return total;
}

static uint64_t
ns_to_ticks(const struct tadapter *ta, uint64_t ns)
{
	uint64_t t = ns / ta->tick_ns;

	return RTE_MIN(RTE_MAX(t, (uint64_t)1), ta->max_ticks);
}

/*
 * One expiry loop over cnt timers of s: arm, wait until all are due, then
 * drive the service until every event came. Returns the timed cycles, or
 * UINT64_MAX on a failed check.
 */
static uint64_t
expiry_loop(const struct tadapter *ta, struct tset *s, uint64_t cnt,
	    enum bench_dist dist, uint8_t *seen, uint64_t *rng, bool collect,
	    int64_t *preempted, uint64_t *refused)
{
	const uint64_t eq = ns_to_ticks(ta, BENCH_EXP_EQUAL_NS);
	const uint64_t rmax = ns_to_ticks(ta, BENCH_EXP_RANDOM_MAX_NS);
	const uint64_t tmo_max = dist == BENCH_DIST_EQUAL ? eq : rmax;
	struct rte_event_timer_adapter_stats st0, st1;
	uint64_t cyc = 0, got = 0, bad = 0, k, i, deadline, now;
	uint64_t last_progress, idle_us, call, cpu;
	struct bench_sw sw;
	int32_t ret;

	tset_timeouts(s, cnt, dist, eq, rmax, rng);
	memset(seen, 0, cnt);
	if (ta_stats(ta, &st0) != 0)
		return UINT64_MAX;
	if (arm_all(ta, s->p, cnt) != 0)
		return UINT64_MAX;
	/* The last timer is due tmo_max ticks from now; allow the adapter
	 * its tick of lateness and a tick of rounding. */
	deadline = bench_tsc() + (tmo_max + 3) * ta->tick_cycles;
	now = bench_tsc();
	if (deadline > now)
		rte_delay_us_sleep((deadline - now) * 1000000 /
				   bench_env.tsc_hz + 1);

	idle_us = RTE_MAX(ta->tick_ns / 1000, (uint64_t)1);
	last_progress = bench_tsc();
	while (got < cnt) {
		bench_sw_start(&sw);
		call = timed_service_iter(ta->sid, collect, &ret);
		if (bench_sw_stop(&sw, &cpu)) {
			(*preempted)++;
			call = RTE_MIN(call, cpu);
		}
		cyc += call;
		if (ret != 0 && ret != -EAGAIN) {
			bench_error("%s: service run: %d", ta->name, ret);
			return UINT64_MAX;
		}
		k = drain_port(seen, cnt, &bad);
		got += k;
		now = bench_tsc();
		if (k > 0) {
			last_progress = now;
			continue;
		}
		if (now - last_progress >
		    BENCH_EXP_STALL_S * bench_env.tsc_hz) {
			bench_error("%s: expiry stalled at %" PRIu64 " of %"
				    PRIu64 " events", ta->name, got, cnt);
			return UINT64_MAX;
		}
		/* Nothing came: let a tick pass rather than time idle
		 * polls. */
		rte_delay_us_sleep(idle_us);
	}

	/* Nothing more may come. */
	for (i = 0; i < 3; i++) {
		rte_delay_us_sleep(idle_us);
		rte_service_run_iter_on_app_lcore(ta->sid, 1);
		got += drain_port(seen, cnt, &bad);
	}
	if (got != cnt || bad != 0) {
		bench_error("%s:expiry:%s: %" PRIu64 " events for %" PRIu64
			    " timers, %" PRIu64 " unknown or repeated",
			    ta->name, bench_dist_names[dist], got, cnt, bad);
		return UINT64_MAX;
	}
	for (i = 0; i < cnt; i++)
		if (s->t[i].state != RTE_EVENT_TIMER_NOT_ARMED) {
			bench_error("%s:expiry: timer %" PRIu64 " in state %d",
				    ta->name, i, s->t[i].state);
			return UINT64_MAX;
		}
	if (ta_stats(ta, &st1) != 0 ||
	    st1.evtim_exp_count - st0.evtim_exp_count != cnt ||
	    st1.ev_enq_count - st0.ev_enq_count != cnt) {
		bench_error("%s:expiry: stats say %" PRIu64 " expired, %" PRIu64
			    " enqueued, for %" PRIu64 " timers", ta->name,
			    st1.evtim_exp_count - st0.evtim_exp_count,
			    st1.ev_enq_count - st0.ev_enq_count, cnt);
		return UINT64_MAX;
	}
	*refused = st1.evtim_retry_count - st0.evtim_retry_count;
	return cyc;
}

static int
run_expiry_case(const struct tadapter *ta, uint64_t n, enum bench_dist dist,
		struct tset *out, struct tset *stp, uint8_t *seen)
{
	unsigned int loops = bench_opts.expiry_loops != 0 ?
		bench_opts.expiry_loops :
		n >= 1000000 ? 1 : bench_opts.loops;
	double samples[loops];
	uint64_t rng = bench_case_seed(n, dist, "expiry");
	int64_t preempted = 0;
	uint64_t cyc, refused, refused_all = 0;
	unsigned int l;

	/* Warm-up on `step` timers, then the N. */
	cyc = expiry_loop(ta, stp, RTE_MIN(n, (uint64_t)bench_opts.step), dist,
			  seen, &rng, false, &preempted, &refused);
	if (cyc == UINT64_MAX)
		return -1;
	preempted = 0;
	for (l = 0; l < loops; l++) {
		cyc = expiry_loop(ta, out, n, dist, seen, &rng, true,
				  &preempted, &refused);
		if (cyc == UINT64_MAX)
			return -1;
		samples[l] = (double)cyc / n;
		refused_all += refused;
	}
	bench_dump(ta, "expiry", dist, n, (uint64_t)loops * n);
	bench_report(ta->name, "expiry", bench_dist_names[dist], n, n, samples,
		     loops, ta_ref(ta),
		     preempted);
	/*
	 * All N fall due before the service runs, and the device holds
	 * only so many events (event_dsw 16384) until the untimed dequeues:
	 * above that, expiry is measured under back-pressure. Say how much
	 * (DPDK's adapter re-arms each refused timer, swtim keeps it).
	 */
	bench_report_retries(ta->name, "expiry", bench_dist_names[dist], n,
			     (double)refused_all / ((double)loops * n));
	return 0;
}

/* ---- the memory floor of an expiry ---- */

/*
 * A 32-byte record naming an event timer, like the entry a timer store
 * keeps for each timer (a skiplist object names its event timer; the
 * wheel's slot blocks hold bare 8-byte pointers, so this floor reads
 * more memory than the wheel does).
 */
struct floor_rec {
	struct rte_event_timer *evtim;
	uint64_t expiry;
	uint64_t unused[2];
};

/* Events copied out per burst, and the ring they go to (in cache, as the
 * event device's ring is once the bench has warmed it). */
#define FLOOR_BURST 32
#define FLOOR_RING 4096

static const struct rte_event_timer *floor_timers;

/* Due order: by timeout, then by arm order (the expiry case's order). */
static int
floor_cmp(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	uint64_t ti = floor_timers[i].timeout_ticks;
	uint64_t tj = floor_timers[j].timeout_ticks;

	if (ti != tj)
		return ti < tj ? -1 : 1;
	return i < j ? -1 : (i > j);
}

/* One timed pass: every timer in due order, through its record. */
static __rte_noinline uint64_t
floor_pass(struct floor_rec *rec, const uint32_t *order, uint64_t n,
	   struct rte_event *ring)
{
	struct rte_event stage[FLOOR_BURST];
	uint64_t t0, t1, k, w = 0;

	TIMED_BEGIN(true, t0);

	for (k = 0; k < n; k++) {
		struct rte_event_timer *t = rec[order[k]].evtim;
		struct rte_event *ev = &stage[k % FLOOR_BURST];

		if (k + 2 * BENCH_FLOOR_AHEAD < n)
			rte_prefetch0(&rec[order[k + 2 * BENCH_FLOOR_AHEAD]]);
		if (k + BENCH_FLOOR_AHEAD < n)
			rte_prefetch0(rec[order[k + BENCH_FLOOR_AHEAD]].evtim);
		*ev = t->ev;
		ev->op = RTE_EVENT_OP_NEW;
		__atomic_store_n(&t->state, RTE_EVENT_TIMER_NOT_ARMED,
				 __ATOMIC_RELEASE);
		if (k % FLOOR_BURST == FLOOR_BURST - 1) {
			memcpy(&ring[w % FLOOR_RING], stage, sizeof(stage));
			w += FLOOR_BURST;
		}
	}
	/* The last, partial burst (FLOOR_RING is a multiple of it). */
	memcpy(&ring[w % FLOOR_RING], stage,
	       (n % FLOOR_BURST) * sizeof(stage[0]));
	TIMED_END(true, t1);
	return t1 - t0;
}

/*
 * What any adapter's expiry does to memory, without the adapter: the N
 * event timers, written first in arm order as arming them writes them,
 * are visited in the order they fall due, each through a record, their
 * events copied out a burst at a time and their states written. How
 * this grows from 1k to 4M is the memory hierarchy's doing, the floor
 * under the expiry rows' growth.
 */
static int
bench_floor_run(uint64_t n, enum bench_dist dist, struct tset *s)
{
	const unsigned int loops = bench_opts.expiry_loops != 0 ?
		bench_opts.expiry_loops :
		n >= 1000000 ? 1 : bench_opts.loops;
	const uint64_t tick = RTE_MAX(bench_opts.tick_ns, (uint64_t)1);
	uint64_t rng = bench_case_seed(n, dist, "expiry"), i, cyc;
	char label[128], nbuf[32];
	double samples[loops];
	struct floor_rec *rec;
	struct rte_event *ring;
	uint32_t *order;
	unsigned int l, retries = 0;
	int64_t preempted = 0;
	struct bench_sw sw;
	int ret = -1;

	rec = aligned_alloc(RTE_CACHE_LINE_SIZE,
			    RTE_ALIGN_CEIL(n * sizeof(*rec),
					   RTE_CACHE_LINE_SIZE));
	ring = aligned_alloc(RTE_CACHE_LINE_SIZE, FLOOR_RING * sizeof(*ring));
	order = malloc(n * sizeof(*order));
	if (rec == NULL || ring == NULL || order == NULL) {
		bench_error("no memory for the floor of %" PRIu64 " timers", n);
		goto out;
	}
	/* Fault everything in first, as the adapters' memory is. */
	memset(rec, 0, n * sizeof(*rec));
	memset(ring, 0, FLOOR_RING * sizeof(*ring));
	tset_init(s);
	tset_timeouts(s, n, dist, RTE_MAX(BENCH_EXP_EQUAL_NS / tick,
					  (uint64_t)1),
		      RTE_MAX(BENCH_EXP_RANDOM_MAX_NS / tick, (uint64_t)1),
		      &rng);
	for (i = 0; i < n; i++)
		order[i] = i;
	floor_timers = s->t;
	qsort(order, n, sizeof(order[0]), floor_cmp);
	for (l = 0; l < loops; l++) {
		/* "Arming", untimed. */
		for (i = 0; i < n; i++) {
			rec[i].evtim = &s->t[i];
			rec[i].expiry = s->t[i].timeout_ticks;
			s->t[i].impl_opaque[0] = i;
			s->t[i].state = RTE_EVENT_TIMER_ARMED;
		}
		bench_sw_start(&sw);
		cyc = floor_pass(rec, order, n, ring);
		if (bench_sw_stop(&sw, NULL)) {
			preempted++;
			if (!bench_opts.deterministic &&
			    retries < BENCH_RETRIES_MAX) {
				retries++;
				l--;
				continue;
			}
		}
		samples[l] = (double)cyc / n;
	}
	for (i = 0; i < n; i++)
		if (s->t[i].state != RTE_EVENT_TIMER_NOT_ARMED) {
			bench_error("floor: timer %" PRIu64 " not visited", i);
			goto out;
		}
	snprintf(label, sizeof(label), "floor:expiry:%s:%s ops=%" PRIu64,
		 bench_dist_names[dist], bench_size_str(n, nbuf, sizeof(nbuf)),
		 (uint64_t)(loops + retries) * n);
	BENCH_DUMP(label);
	bench_report("floor", "expiry", bench_dist_names[dist], n, n, samples,
		     loops, NULL, preempted);
	ret = 0;
out:
	free(rec);
	free(ring);
	free(order);
	return ret;
}

/* ---- one implementation, one size, one distribution ---- */

static int
bench_impl_run(const char *name, uint64_t n, enum bench_dist dist,
	       struct tset *out, struct tset *stp, uint8_t *seen)
{
	double samples[bench_opts.loops];
	uint64_t rng = bench_case_seed(n, dist, "outstanding");
	struct tadapter ta;
	int64_t preempted;
	char nbuf[32];
	int ret = -1;
	int tc;

	tset_init(out);
	tset_init(stp);
	if (ta_create(&ta, name, n + bench_opts.step +
		      BENCH_NB_TIMERS_SLACK) != 0)
		return -1;
	bench_progress("%s %s %s: arming the outstanding timers", name,
		       bench_dist_names[dist],
		       bench_size_str(n, nbuf, sizeof(nbuf)));
	tset_timeouts(out, n, dist, bench_equal_ticks(&ta), ta.max_ticks,
		      &rng);
	rte_srand(rng);
	if (arm_all(&ta, out->p, n) != 0)
		goto out;

	for (tc = 0; tc < TC_NB; tc++) {
		if (run_fastpath_case(&ta, tc, n, dist, stp, samples,
				      &preempted) != 0)
			goto out;
		bench_report(name, tcase_names[tc], bench_dist_names[dist], n,
			     bench_opts.step, samples, bench_opts.loops,
			     ta_ref(&ta),
			     preempted);
	}

	bench_progress("%s %s %s: expiry", name, bench_dist_names[dist],
		       bench_size_str(n, nbuf, sizeof(nbuf)));
	if (cancel_all(&ta, out->p, n) != 0)
		goto out;
	if (run_expiry_case(&ta, n, dist, out, stp, seen) != 0)
		goto out;
	ret = 0;
out:
	ta_destroy(&ta);
	if (drain_port(NULL, 0, NULL) != 0 && ret == 0) {
		bench_error("%s: stray expiry events", name);
		ret = -1;
	}
	return ret;
}

int
bench_timers_run(uint64_t n)
{
	struct tset out, stp;
	uint8_t *seen;
	unsigned int d, i;
	int ret = 0;

	memset(&out, 0, sizeof(out));
	memset(&stp, 0, sizeof(stp));
	seen = malloc(RTE_MAX(n, (uint64_t)bench_opts.step));
	if (seen == NULL || tset_alloc(&out, n) != 0 ||
	    tset_alloc(&stp, bench_opts.step) != 0) {
		ret = -1;
		goto out;
	}
	for (d = 0; d < BENCH_NB_DISTS && ret == 0; d++) {
		if (!bench_opts.dists[d])
			continue;
		/* DPDK first: every swtim line carries the ratio to it. */
		if (bench_opts.timers && bench_opts.dpdk)
			ret = bench_impl_run("dpdk", n, d, &out, &stp, seen);
		for (i = 0; bench_opts.timers && i < bench_opts.nb_drivers &&
		     ret == 0; i++)
			ret = bench_impl_run(bench_opts.drivers[i], n, d, &out,
					     &stp, seen);
		if (ret == 0 && bench_opts.floor)
			ret = bench_floor_run(n, d, &out);
	}
out:
	tset_free(&out);
	tset_free(&stp);
	free(seen);
	return ret;
}
