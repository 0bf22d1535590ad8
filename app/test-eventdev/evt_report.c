/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_version.h>

#include "evt_report.h"
#include "json_writer.h"

#define US(ns) ((double)(ns) / 1000.0)

bool
evt_run_sample(struct evt_run *r, const struct evt_test *t, uint64_t tsc)
{
	const uint32_t width = EVT_SAMPLE_HDR + t->nb_workers;
	uint64_t *s, armed = 0;
	uint32_t w;

	if (r->nb_samples == r->max_samples) {
		uint32_t max = r->max_samples ? r->max_samples * 2 : 1024;

		s = realloc(r->samples, (size_t)max * width * sizeof(*s));
		if (s == NULL)
			return false;
		r->samples = s;
		r->max_samples = max;
	}
	s = &r->samples[(size_t)r->nb_samples * width];
	for (w = 0; w < t->nb_producers; w++)
		armed += __atomic_load_n(&t->prod[w].armed, __ATOMIC_RELAXED);
	s[0] = tsc;
	s[1] = armed;
	for (w = 0; w < t->nb_workers; w++)
		s[EVT_SAMPLE_HDR + w] = __atomic_load_n(&t->workers[w].received,
							__ATOMIC_RELAXED);
	r->nb_samples++;
	return true;
}

/* Everything the report needs, computed once. */
struct figures {
	uint64_t target, armed, received, processed, dups, early, lost;
	uint64_t flushed;
	uint64_t load_expected;	/* timed loads: what the schedule arms */
	int64_t min_late_cycles;
	struct latency_hist late;
	struct latency_hist arm;
	double run_s;
	/* Throughput over the steady window. */
	bool steady;
	const char *window;
	double win_s;
	double out_avg;		/* timers outstanding, steady window */
	uint64_t out_max;
	double total_mpps;
	double worker_mpps[RTE_MAX_LCORE];
	double run_mpps;
	double fwd_us;
	bool pass;
	char why[512];
};

static void
add_why(struct figures *f, const char *fmt, uint64_t v)
{
	size_t len = strlen(f->why);

	snprintf(f->why + len, sizeof(f->why) - len, "%s", len ? "; " : "");
	len = strlen(f->why);
	snprintf(f->why + len, sizeof(f->why) - len, fmt, v);
}

/* Expiries received by the time of a sample. */
static uint64_t
sample_received(const uint64_t *s, uint32_t width)
{
	uint64_t sum = 0;
	uint32_t w;

	for (w = EVT_SAMPLE_HDR; w < width; w++)
		sum += s[w];
	return sum;
}

/*
 * Timers armed and not yet received at a sample. A producer counts a
 * timer once its arm call has returned, by which time a short timeout
 * may already have been received: hence the floor at 0.
 */
static uint64_t
sample_outstanding(const uint64_t *s, uint32_t width)
{
	uint64_t received = sample_received(s, width);

	return s[1] > received ? s[1] - received : 0;
}

/* Index of the first sample whose total reaches want. */
static uint32_t
sample_reaching(const struct evt_run *r, uint32_t width, uint64_t want)
{
	uint32_t i;

	for (i = 0; i < r->nb_samples; i++)
		if (sample_received(&r->samples[(size_t)i * width], width) >=
		    want)
			return i;
	return r->nb_samples ? r->nb_samples - 1 : 0;
}

/* Timers a timed load's schedule arms when nothing holds it up. */
static uint64_t
load_expected(const struct evt_test *t)
{
	const struct evt_options *opt = t->opt;

	switch (opt->load) {
	case EVT_LOAD_LOW:
	case EVT_LOAD_HIGH:
		return opt->load_rate * opt->duration_s * t->nb_producers;
	case EVT_LOAD_BURSTY:
		return (opt->duration_s * 1000 + opt->burst_period_ms - 1) /
			opt->burst_period_ms * opt->burst_timers *
			t->nb_producers;
	default:
		return 0;
	}
}

static void
compute(const struct evt_test *t, const struct evt_run *r, struct figures *f)
{
	const uint32_t width = EVT_SAMPLE_HDR + t->nb_workers;
	uint64_t fwd_cycles = 0, last_arm_tsc = 0;
	double out_sum = 0;
	uint32_t i, a, b;

	memset(f, 0, sizeof(*f));
	latency_hist_init(&f->late);
	latency_hist_init(&f->arm);
	f->min_late_cycles = INT64_MAX;
	for (i = 0; i < t->nb_producers; i++) {
		last_arm_tsc = RTE_MAX(last_arm_tsc, t->prod[i].end_tsc);
		f->armed += t->prod[i].armed;
		latency_hist_merge(&f->arm, &t->prod[i].arm_hist);
	}
	f->load_expected = load_expected(t);
	/* A timed load asks for what its schedule armed in the duration. */
	f->target = t->opt->load == EVT_LOAD_COUNT ?
		t->opt->nb_timers * t->nb_producers : f->armed;
	for (i = 0; i < t->nb_workers; i++) {
		const struct evt_worker *w = &t->workers[i];

		f->received += w->received;
		f->processed += w->processed;
		f->dups += w->duplicates;
		f->early += w->early;
		f->flushed += w->flushed;
		fwd_cycles += w->fwd_cycles;
		if (w->received > 0 && w->min_lateness < f->min_late_cycles)
			f->min_late_cycles = w->min_lateness;
		latency_hist_merge(&f->late, &w->late_hist);
	}
	if (f->min_late_cycles == INT64_MAX)
		f->min_late_cycles = 0;
	f->lost = f->armed - f->received;
	f->run_s = (double)(r->end_tsc - r->launch_tsc) / (double)t->hz;
	f->run_mpps = f->run_s > 0 ? (double)f->received / f->run_s / 1e6 : 0;
	if (f->processed > 0 && t->opt->fwd_latency)
		f->fwd_us = (double)fwd_cycles / (double)f->processed *
			t->ns_per_cycle / 1000.0;

	/*
	 * Steady part: from the first expiry received to the moment the
	 * last producer stopped arming. In between, every expiry frees a
	 * timer object that a producer arms again, so what the adapter
	 * delivers is what it can (or, with long timeouts, what the pool
	 * and the timeout allow). Runs too short for that use the span
	 * from 10 % to 90 % of the expiries received.
	 */
	a = sample_reaching(r, width, 1);
	b = a;
	for (i = a; i < r->nb_samples; i++)
		if (r->samples[(size_t)i * width] <= last_arm_tsc)
			b = i;
	f->window = "first expiry to last arm";
	if (b <= a || r->samples[(size_t)b * width] -
	    r->samples[(size_t)a * width] < t->hz / 5) {
		a = sample_reaching(r, width, f->received / 10);
		b = sample_reaching(r, width, f->received - f->received / 10);
		f->window = "10% to 90% of the expiries";
	}
	if (r->nb_samples >= 2 && b > a) {
		const uint64_t *sa = &r->samples[(size_t)a * width];
		const uint64_t *sb = &r->samples[(size_t)b * width];

		f->steady = true;
		f->win_s = (double)(sb[0] - sa[0]) / (double)t->hz;
		for (i = 0; i < t->nb_workers; i++) {
			f->worker_mpps[i] = (double)(sb[EVT_SAMPLE_HDR + i] -
						     sa[EVT_SAMPLE_HDR + i]) /
				f->win_s / 1e6;
			f->total_mpps += f->worker_mpps[i];
		}
		/* Timers outstanding, on average over the window. */
		for (i = a; i <= b; i++)
			out_sum += (double)sample_outstanding(
				&r->samples[(size_t)i * width], width);
		f->out_avg = out_sum / (double)(b - a + 1);
	} else {
		/* Too short to tell: the whole run. */
		f->window = "whole run";
		f->win_s = f->run_s;
		for (i = 0; i < t->nb_workers; i++) {
			f->worker_mpps[i] = f->run_s > 0 ?
				(double)t->workers[i].received / f->run_s / 1e6 :
				0;
			f->total_mpps += f->worker_mpps[i];
		}
	}

	for (i = 0; i < r->nb_samples; i++)
		f->out_max = RTE_MAX(f->out_max, sample_outstanding(
			&r->samples[(size_t)i * width], width));

	if (f->armed != f->target)
		add_why(f, "armed %" PRIu64 " of the timers asked for",
			f->armed);
	for (i = 0; i < t->nb_producers; i++) {
		if (t->prod[i].error != 0)
			add_why(f, "an arm call failed with errno %" PRIu64,
				(uint64_t)t->prod[i].error);
	}
	if (f->lost)
		add_why(f, "%" PRIu64 " lost", f->lost);
	if (f->dups)
		add_why(f, "%" PRIu64 " duplicates", f->dups);
	if (f->early)
		add_why(f, "%" PRIu64 " early", f->early);
	if (f->processed != f->received)
		add_why(f, "%" PRIu64 " did not finish the last stage",
			f->received - f->processed);
	if (r->stalled)
		add_why(f, "no progress for %" PRIu64 " s", t->opt->stall_sec);
	if (r->interrupted)
		add_why(f, "interrupted by signal %" PRIu64,
			(uint64_t)t->interrupted);
	f->pass = f->why[0] == '\0';
}

/* dpdk-test-eventdev's figure: integer cycles per timer, then in us. */
static double
upstream_arm_us(const struct evt_test *t, const struct evt_producer *p)
{
	uint64_t mhz = t->hz / 1000000;

	if (p->armed == 0 || mhz == 0)
		return 0;
	return (double)(float)(p->arm_cycles / p->armed) / (double)mhz;
}

/* Each lcore's CPU time from the OS over the measured interval. */
static void
print_cpu(const char *role, const struct evt_lcore_cpu *lc, unsigned int nb,
	  uint64_t hz)
{
	double cpu, wall, wait;
	unsigned int i;

	for (i = 0; i < nb; i++) {
		if (!evt_lcore_cpu_get(&lc[i], hz, &cpu, &wall))
			printf("%s lcore %u: thread not found, no CPU time\n",
			       role, lc[i].lcore);
		else if (!evt_lcore_wait_get(&lc[i], &wait))
			printf("%s lcore %u: %.3f s of CPU over %.3f s"
			       " (%.1f %% of a CPU)\n", role, lc[i].lcore, cpu,
			       wall, wall > 0 ? 100.0 * cpu / wall : 0.0);
		else
			printf("%s lcore %u: %.3f s of CPU over %.3f s"
			       " (%.1f %% of a CPU; runnable %.1f %%)\n", role,
			       lc[i].lcore, cpu, wall,
			       wall > 0 ? 100.0 * cpu / wall : 0.0,
			       wall > 0 ? 100.0 * (cpu + wait) / wall : 0.0);
	}
}

static void
json_cpu(struct json_writer *j, const struct evt_lcore_cpu *l, uint64_t hz)
{
	double cpu, wall, wait;

	if (evt_lcore_cpu_get(l, hz, &cpu, &wall)) {
		json_double(j, "cpu_s", cpu);
		json_double(j, "wall_s", wall);
		json_double(j, "cpu_share", wall > 0 ? cpu / wall : 0);
		if (evt_lcore_wait_get(l, &wait)) {
			json_double(j, "runq_wait_s", wait);
			json_double(j, "runnable_share", wall > 0 ?
				    (cpu + wait) / wall : 0);
		} else {
			json_null(j, "runq_wait_s");
			json_null(j, "runnable_share");
		}
	} else {
		json_null(j, "cpu_s");
		json_double(j, "wall_s", wall);
		json_null(j, "cpu_share");
	}
}

static void
print_text(const struct evt_test *t, const struct evt_run *r,
	   const struct figures *f)
{
	const struct evt_options *opt = t->opt;
	uint32_t i;

	printf("\n");
	for (i = 0; i < t->nb_producers; i++) {
		const struct evt_producer *p = &t->prod[i];

		printf("%s(): lcore %u Average event timer arm latency ="
		       " %.3f us\n", opt->timdev_use_burst ?
		       "perf_event_timer_producer_burst" :
		       "perf_event_timer_producer", p->lcore,
		       upstream_arm_us(t, p));
	}
	printf("\nProducers (%s, %s):\n", evt_adapter_name(opt->adapter),
	       opt->timdev_use_burst ?
	       (opt->timeout_spread_nsec ? "burst, arm_burst" :
		"burst, arm_tmo_tick_burst") : "one timer per arm_burst call");
	printf("  %-6s %12s %9s %9s %9s %9s %10s %9s %9s\n", "lcore",
	       "armed", "avg ns", "p50 ns", "p99 ns", "max ns", "Mtim/s",
	       "short", "pool-emp");
	for (i = 0; i < t->nb_producers; i++) {
		const struct evt_producer *p = &t->prod[i];
		double secs = (double)(p->end_tsc - p->start_tsc) /
			(double)t->hz;

		printf("  %-6u %12" PRIu64 " %9.1f %9" PRIu64 " %9" PRIu64
		       " %9" PRIu64 " %10.3f %9" PRIu64 " %9" PRIu64 "\n",
		       p->lcore, p->armed,
		       p->armed ? (double)p->arm_cycles * t->ns_per_cycle /
		       (double)p->armed : 0.0,
		       latency_hist_quantile(&p->arm_hist, 0.5),
		       latency_hist_quantile(&p->arm_hist, 0.99),
		       p->arm_hist.count ? p->arm_hist.max : 0,
		       secs > 0 ? (double)p->armed / secs / 1e6 : 0.0,
		       p->arm_short, p->pool_empty);
		if (p->error)
			printf("  lcore %u: arm refused: %s (timer state %d)\n",
			       p->lcore, rte_strerror(p->error),
			       p->error_state);
	}

	printf("\nThroughput, expiry events dequeued (steady part: %s, %.3f s):"
	       " %.3f Mpps; whole run %.3f Mpps in %.3f s\n",
	       f->window, f->win_s, f->total_mpps, f->run_mpps, f->run_s);
	printf("Timers outstanding: %.0f on average in the steady part, %"
	       PRIu64 " at most\n", f->out_avg, f->out_max);
	for (i = 0; i < t->nb_workers; i++) {
		const struct evt_worker *w = &t->workers[i];

		printf("  worker lcore %-4u %10.3f Mpps %12" PRIu64
		       " received (%5.1f %%)\n", w->lcore, f->worker_mpps[i],
		       w->received, f->received ?
		       100.0 * (double)w->received / (double)f->received : 0);
	}

	printf("\nExpiry lateness, deadline to dequeue: avg %.1f us, p50 %.1f"
	       " us, p99 %.1f us, p99.9 %.1f us, max %.1f us, min %.3f us\n",
	       US(latency_hist_mean(&f->late)),
	       US(latency_hist_quantile(&f->late, 0.5)),
	       US(latency_hist_quantile(&f->late, 0.99)),
	       US(latency_hist_quantile(&f->late, 0.999)),
	       US(f->late.count ? f->late.max : 0),
	       (double)f->min_late_cycles * t->ns_per_cycle / 1000.0);
	if (opt->fwd_latency)
		printf("Forward latency, arm to last stage: avg %.3f us\n",
		       f->fwd_us);

	if (opt->load != EVT_LOAD_COUNT) {
		printf("\nLoad %s for %" PRIu64 " s: armed %" PRIu64,
		       evt_load_name(opt->load), opt->duration_s, f->armed);
		if (f->load_expected)
			printf(" of the %" PRIu64 " the schedule arms (%.1f %%)",
			       f->load_expected, 100.0 * (double)f->armed /
			       (double)f->load_expected);
		printf("\n");
	}
	printf("\nTimers: asked %" PRIu64 ", armed %" PRIu64 ", received %"
	       PRIu64 ", lost %" PRIu64 ", duplicates %" PRIu64 ", early %"
	       PRIu64 "\n", f->target, f->armed, f->received, f->lost,
	       f->dups, f->early);
	if (f->flushed)
		printf("Events flushed from worker ports at the end: %" PRIu64
		       "\n", f->flushed);

	for (i = 0; i < t->nb_adapters; i++) {
		const struct rte_event_timer_adapter_stats *s = &r->stats[i];

		if (r->stats_ret[i] != 0) {
			printf("Adapter %u stats: unavailable (%s)\n", i,
			       rte_strerror(-r->stats_ret[i]));
			continue;
		}
		printf("Adapter %u stats: evtim_exp_count %" PRIu64
		       ", ev_enq_count %" PRIu64 ", ev_inv_count %" PRIu64
		       ", evtim_retry_count %" PRIu64 ", adapter_tick_count %"
		       PRIu64 ", evtim_drop_count %" PRIu64 "\n", i,
		       s->evtim_exp_count, s->ev_enq_count, s->ev_inv_count,
		       s->evtim_retry_count, s->adapter_tick_count,
		       s->evtim_drop_count);
	}
	for (i = 0; i < r->svc.nb_svc; i++) {
		const struct evt_service *e = &r->svc.svc[i];
		double busy = (double)(e->cycles[1] - e->cycles[0]) /
			(double)t->hz;
		char lcores[256];
		unsigned int k;
		size_t len = 0;

		lcores[0] = '\0';
		for (k = 0; k < e->nb_lcores && len < sizeof(lcores); k++)
			len += snprintf(lcores + len, sizeof(lcores) - len,
					"%s%u", k ? "," : "", e->lcores[k]);
		printf("Service %-10s (id %u) on lcore%s %s: %.3f s in its"
		       " callback over %.3f s (%.1f %%), %" PRIu64 " calls\n",
		       e->what, e->id, e->nb_lcores > 1 ? "s" : "", lcores,
		       busy, f->run_s,
		       f->run_s > 0 ? 100.0 * busy / f->run_s : 0.0,
		       e->calls[1] - e->calls[0]);
	}
	print_cpu("Service", r->svc.lc, r->svc.nb_lc, t->hz);
	print_cpu("Worker", r->wcpu, t->nb_workers, t->hz);
	print_cpu("Producer", r->pcpu, t->nb_producers, t->hz);
	for (i = 0; i < t->nb_workers && opt->max_sleep_us; i++) {
		const struct evt_worker *w = &t->workers[i];

		printf("Worker lcore %u: %" PRIu64 " dequeues, %" PRIu64
		       " empty, %" PRIu64 " sleeps for %.3f s asked"
		       " (--max-sleep-us=%u)\n", w->lcore, w->polls,
		       w->empty_polls, w->sleeps, (double)w->sleep_ns / 1e9,
		       opt->max_sleep_us);
	}
	printf("\nResult: %s%s%s\n", f->pass ? "PASS" : "FAIL",
	       f->pass ? "" : ": ", f->why);
}

/* The histogram's buckets that hold samples, each [smallest value, count],
 * for plots of the whole distribution. */
static void
json_hist_buckets(struct json_writer *j, const struct latency_hist *h,
		  double scale)
{
	uint64_t low, width;
	unsigned int i;

	json_array_begin(j, "buckets");
	for (i = 0; i < LATENCY_HIST_BUCKETS; i++) {
		if (h->bucket[i] == 0)
			continue;
		latency_hist_bucket_range(i, &low, &width);
		json_array_begin(j, NULL);
		json_double(j, NULL, (double)low * scale);
		json_u64(j, NULL, h->bucket[i]);
		json_array_end(j);
	}
	json_array_end(j);
}

static void
json_hist(struct json_writer *j, const char *key, const struct latency_hist *h,
	  double scale, bool with_buckets)
{
	json_object_begin(j, key);
	json_u64(j, "count", h->count);
	json_double(j, "avg", latency_hist_mean(h) * scale);
	json_double(j, "p50", (double)latency_hist_quantile(h, 0.5) * scale);
	json_double(j, "p90", (double)latency_hist_quantile(h, 0.9) * scale);
	json_double(j, "p99", (double)latency_hist_quantile(h, 0.99) * scale);
	json_double(j, "p999", (double)latency_hist_quantile(h, 0.999) *
		    scale);
	json_double(j, "max", (double)(h->count ? h->max : 0) * scale);
	if (with_buckets)
		json_hist_buckets(j, h, scale);
	json_object_end(j);
}

static int
write_json(const struct evt_test *t, const struct evt_run *r,
	   const struct figures *f)
{
	const struct evt_options *opt = t->opt;
	struct json_writer jw, *j = &jw;
	uint32_t i;
	FILE *fp;

	fp = fopen(opt->json_path, "w");
	if (fp == NULL) {
		fprintf(stderr, "swtim-test-eventdev: cannot write %s: %s\n",
			opt->json_path, strerror(errno));
		return -errno;
	}
	json_init(j, fp);
	json_object_begin(j, NULL);
	json_str(j, "tool", "swtim-test-eventdev");
	json_u64(j, "format", 1);
	json_str(j, "dpdk_version", rte_version());
	json_str(j, "result", f->pass ? "pass" : "fail");
	json_str(j, "failure", f->why);

	json_object_begin(j, "config");
	evt_options_report(opt, j);
	/* What the run made of the options. */
	json_str(j, "eventdev", r->dev_name);
	json_str(j, "arm_call", opt->timdev_use_burst ?
		 (opt->timeout_spread_nsec ? "arm_burst" :
		  "arm_tmo_tick_burst") : "arm_burst(1)");
	json_u64(j, "nb_producers", t->nb_producers);
	json_u64(j, "nb_workers", t->nb_workers);
	json_u64(j, "timer_tick_nsec_in_force", t->tick_ns);
	json_u64(j, "timeout_ticks", t->timeout_ticks);
	json_u64(j, "tsc_hz", t->hz);
	json_object_end(j);

	json_u64(j, "asked", f->target);
	json_u64(j, "load_expected", f->load_expected);
	json_u64(j, "armed", f->armed);
	json_u64(j, "received", f->received);
	json_u64(j, "processed", f->processed);
	json_u64(j, "lost", f->lost);
	json_u64(j, "duplicates", f->dups);
	json_u64(j, "early", f->early);
	json_u64(j, "flushed", f->flushed);
	json_bool(j, "complete", r->complete);
	json_bool(j, "stalled", r->stalled);
	json_bool(j, "interrupted", r->interrupted);
	json_double(j, "run_s", f->run_s);

	json_array_begin(j, "producers");
	for (i = 0; i < t->nb_producers; i++) {
		const struct evt_producer *p = &t->prod[i];
		double secs = (double)(p->end_tsc - p->start_tsc) /
			(double)t->hz;

		json_object_begin(j, NULL);
		json_u64(j, "lcore", p->lcore);
		json_u64(j, "armed", p->armed);
		json_u64(j, "arm_calls", p->arm_calls);
		json_u64(j, "arm_short", p->arm_short);
		json_u64(j, "pool_empty", p->pool_empty);
		json_double(j, "arm_s", secs);
		json_double(j, "arm_mtimers_per_s", secs > 0 ?
			    (double)p->armed / secs / 1e6 : 0);
		json_double(j, "arm_latency_us_upstream",
			    upstream_arm_us(t, p));
		json_double(j, "arm_latency_ns_avg", p->armed ?
			    (double)p->arm_cycles * t->ns_per_cycle /
			    (double)p->armed : 0);
		json_double(j, "short_call_s", (double)p->short_cycles /
			    (double)t->hz);
		json_hist(j, "arm_latency_ns", &p->arm_hist, 1.0, false);
		json_i64(j, "error", p->error);
		json_cpu(j, &r->pcpu[i], t->hz);
		json_object_end(j);
	}
	json_array_end(j);
	json_hist(j, "arm_latency_ns", &f->arm, 1.0, false);

	json_object_begin(j, "throughput");
	json_bool(j, "steady", f->steady);
	json_str(j, "window", f->window);
	json_double(j, "window_s", f->win_s);
	json_double(j, "total_mpps", f->total_mpps);
	json_double(j, "run_mpps", f->run_mpps);
	json_double(j, "outstanding_avg", f->out_avg);
	json_u64(j, "outstanding_max", f->out_max);
	json_array_begin(j, "workers");
	for (i = 0; i < t->nb_workers; i++) {
		const struct evt_worker *w = &t->workers[i];

		json_object_begin(j, NULL);
		json_u64(j, "lcore", w->lcore);
		json_u64(j, "received", w->received);
		json_u64(j, "processed", w->processed);
		json_u64(j, "duplicates", w->duplicates);
		json_u64(j, "early", w->early);
		json_double(j, "mpps", f->worker_mpps[i]);
		json_u64(j, "dequeues", w->polls);
		json_u64(j, "empty_dequeues", w->empty_polls);
		json_u64(j, "sleeps", w->sleeps);
		json_double(j, "sleep_s", (double)w->sleep_ns / 1e9);
		json_cpu(j, &r->wcpu[i], t->hz);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);

	json_hist(j, "lateness_us", &f->late, 1e-3, true);
	json_double(j, "lateness_min_us", (double)f->min_late_cycles *
		    t->ns_per_cycle / 1000.0);
	if (opt->fwd_latency)
		json_double(j, "fwd_latency_us", f->fwd_us);
	else
		json_null(j, "fwd_latency_us");

	json_array_begin(j, "adapter_stats");
	for (i = 0; i < t->nb_adapters; i++) {
		const struct rte_event_timer_adapter_stats *s = &r->stats[i];

		json_object_begin(j, NULL);
		json_u64(j, "adapter", i);
		json_bool(j, "valid", r->stats_ret[i] == 0);
		json_u64(j, "evtim_exp_count", s->evtim_exp_count);
		json_u64(j, "ev_enq_count", s->ev_enq_count);
		json_u64(j, "ev_inv_count", s->ev_inv_count);
		json_u64(j, "evtim_retry_count", s->evtim_retry_count);
		json_u64(j, "adapter_tick_count", s->adapter_tick_count);
		json_u64(j, "evtim_drop_count", s->evtim_drop_count);
		json_object_end(j);
	}
	json_array_end(j);

	json_array_begin(j, "services");
	for (i = 0; i < r->svc.nb_svc; i++) {
		const struct evt_service *e = &r->svc.svc[i];
		double busy = (double)(e->cycles[1] - e->cycles[0]) /
			(double)t->hz;

		json_object_begin(j, NULL);
		json_str(j, "what", e->what);
		json_u64(j, "id", e->id);
		json_u64(j, "lcore", e->lcore);
		json_array_begin(j, "lcores");
		for (unsigned int k = 0; k < e->nb_lcores; k++)
			json_u64(j, NULL, e->lcores[k]);
		json_array_end(j);
		json_double(j, "callback_s", busy);
		json_u64(j, "calls", e->calls[1] - e->calls[0]);
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, "service_lcores");
	for (i = 0; i < r->svc.nb_lc; i++) {
		json_object_begin(j, NULL);
		json_u64(j, "lcore", r->svc.lc[i].lcore);
		json_cpu(j, &r->svc.lc[i], t->hz);
		json_object_end(j);
	}
	json_array_end(j);

	json_object_end(j);
	json_finish(j);
	if (fclose(fp) != 0) {
		fprintf(stderr, "swtim-test-eventdev: writing %s: %s\n",
			opt->json_path, strerror(errno));
		return -EIO;
	}
	return 0;
}

bool
evt_report(const struct evt_test *t, struct evt_run *r)
{
	struct figures *f;
	bool pass;

	f = calloc(1, sizeof(*f));
	if (f == NULL) {
		fprintf(stderr, "swtim-test-eventdev: out of memory\n");
		return false;
	}
	compute(t, r, f);
	print_text(t, r, f);
	pass = f->pass;
	if (t->opt->json_path[0] != '\0' && write_json(t, r, f) < 0)
		pass = false;
	free(f);
	return pass;
}
