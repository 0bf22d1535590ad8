/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * swtim-bench: command line, EAL and event device set-up, reporting.
 *
 *   swtim-bench [EAL args --] [options]
 *
 * Without EAL args (nothing before "--", or no "--" at all) EAL gets
 * defaults for a small machine without hugepages; see bench_eal_args().
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eventdev.h>
#include <rte_lcore.h>
#include <rte_random.h>
#include <rte_service.h>

#include "swt_cpus.h"
#include "swtim.h"
#include "swtim_bench.h"

struct bench_opts bench_opts;
struct bench_env bench_env;

/* ---- results ---- */

struct bench_result {
	char impl[16];
	char kase[24];
	char dist[8];
	char ref[16];
	uint64_t n;
	uint64_t ops;
	unsigned int loops;
	double cyc_min;
	double cyc_median;
	double ns_min;
	double ratio;		/* NAN: no reference ran */
	int64_t preempted;	/* -1: not counted */
	double retries;		/* refused events retried per op; NAN: n/a */
	/*
	 * Multi-producer rows: the samples are the median producer's, and
	 * the figure is their median over the loops, not the least: the
	 * least disturbed loop is also the one where the producers ran
	 * together least, which is what such a case measures.
	 */
	unsigned int producers;	/* 0: a single-producer case */
	double cyc_pmax;	/* the slowest producer, median of the loops */
	double overlap;		/* median of the loops; NAN: one producer */
	bool cpus_shared;	/* producers shared CPUs */
};

static struct bench_result *bench_results;
static unsigned int bench_nb_results, bench_results_cap;
static unsigned int bench_nb_errors;

void
bench_error(const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	/* One write per message: producer lcores may fail at once. */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "swtim-bench: ERROR: %s\n", msg);
	__atomic_fetch_add(&bench_nb_errors, 1, __ATOMIC_RELAXED);
}

void
bench_progress(const char *fmt, ...)
{
	va_list ap;

	if (bench_opts.quiet)
		return;
	va_start(ap, fmt);
	fprintf(stderr, "swtim-bench: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
}

const char *
bench_size_str(uint64_t n, char *buf, size_t len)
{
	if (n >= 1000000 && n % 1000000 == 0)
		snprintf(buf, len, "%" PRIu64 "M", n / 1000000);
	else if (n >= 1000 && n % 1000 == 0)
		snprintf(buf, len, "%" PRIu64 "k", n / 1000);
	else
		snprintf(buf, len, "%" PRIu64, n);
	return buf;
}

/* FNV-1a over the case's identity, mixed with the seed. */
uint64_t
bench_case_seed(uint64_t n, unsigned int dist, const char *kase)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325) ^ bench_opts.seed;
	const char *c;

	for (c = kase; *c != '\0'; c++)
		h = (h ^ (uint8_t)*c) * UINT64_C(0x100000001b3);
	h = (h ^ n) * UINT64_C(0x100000001b3);
	h = (h ^ dist) * UINT64_C(0x100000001b3);
	return h | 1;
}

static int64_t
bench_nivcsw(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) != 0)
		return 0;
	return ru.ru_nivcsw;
}

static uint64_t
bench_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void
bench_sw_start(struct bench_sw *sw)
{
	sw->nivcsw = bench_nivcsw();
	sw->cpu_ns = bench_cpu_ns();
}

bool
bench_sw_stop(const struct bench_sw *sw, uint64_t *cpu_cycles)
{
	uint64_t cpu = bench_cpu_ns() - sw->cpu_ns;

	if (cpu_cycles != NULL)
		*cpu_cycles = (uint64_t)((double)cpu *
					 (double)bench_env.tsc_hz / 1e9);
	return bench_nivcsw() != sw->nivcsw;
}

static int
bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static const struct bench_result *
bench_find(const char *impl, const char *kase, const char *dist, uint64_t n,
	   unsigned int producers)
{
	unsigned int i;

	for (i = 0; i < bench_nb_results; i++) {
		const struct bench_result *r = &bench_results[i];

		if (r->n == n && r->producers == producers &&
		    strcmp(r->impl, impl) == 0 &&
		    strcmp(r->kase, kase) == 0 && strcmp(r->dist, dist) == 0)
			return r;
	}
	return NULL;
}

/* The figure a result is reported and compared by. */
static double
bench_figure(const struct bench_result *r)
{
	return r->producers > 0 ? r->cyc_median : r->cyc_min;
}

static double
bench_median(double *v, unsigned int nb)
{
	qsort(v, nb, sizeof(v[0]), bench_cmp_double);
	return nb % 2 ? v[nb / 2] : (v[nb / 2 - 1] + v[nb / 2]) / 2;
}

/* A new result from its samples, its ratio to ref_impl's if that ran. */
static struct bench_result *
bench_result_add(const char *impl, const char *kase, const char *dist,
		 uint64_t n, unsigned int producers, uint64_t ops,
		 const double *samples, unsigned int loops,
		 const char *ref_impl, int64_t preempted)
{
	const struct bench_result *ref = NULL;
	struct bench_result *r;
	double sorted[loops];
	unsigned int i;

	if (bench_nb_results == bench_results_cap) {
		unsigned int cap = bench_results_cap ? 2 * bench_results_cap :
			64;
		struct bench_result *p = realloc(bench_results,
						 cap * sizeof(*p));

		if (p == NULL) {
			bench_error("out of memory for results");
			return NULL;
		}
		bench_results = p;
		bench_results_cap = cap;
	}
	r = &bench_results[bench_nb_results++];
	memset(r, 0, sizeof(*r));
	snprintf(r->impl, sizeof(r->impl), "%s", impl);
	snprintf(r->kase, sizeof(r->kase), "%s", kase);
	snprintf(r->dist, sizeof(r->dist), "%s", dist);
	r->n = n;
	r->producers = producers;
	r->ops = ops;
	r->loops = loops;
	for (i = 0; i < loops; i++)
		sorted[i] = samples[i];
	r->cyc_median = bench_median(sorted, loops);
	r->cyc_min = sorted[0];
	r->ns_min = r->cyc_min * 1e9 / (double)bench_env.tsc_hz;
	r->ratio = NAN;
	r->retries = NAN;
	r->cyc_pmax = NAN;
	r->overlap = NAN;
	r->preempted = preempted;
	if (ref_impl != NULL)
		ref = bench_find(ref_impl, kase, dist, n, producers);
	if (ref != NULL && bench_figure(ref) > 0) {
		snprintf(r->ref, sizeof(r->ref), "%s", ref_impl);
		r->ratio = bench_figure(r) / bench_figure(ref);
	}
	return r;
}

void
bench_report(const char *impl, const char *kase, const char *dist,
	     uint64_t n, uint64_t ops, const double *samples,
	     unsigned int loops, const char *ref_impl, int64_t preempted)
{
	const struct bench_result *r;
	char type[96], nbuf[32], ratio[64] = "", pre[64] = "";

	if (loops == 0)
		return;
	r = bench_result_add(impl, kase, dist, n, 0, ops, samples, loops,
			     ref_impl, preempted);
	if (r == NULL)
		return;
	if (preempted > 0)
		snprintf(pre, sizeof(pre), " - (switched out: %" PRId64
			 ")", preempted);
	if (!isnan(r->ratio))
		snprintf(ratio, sizeof(ratio), " - ratio %s/%s: %.3g", impl,
			 ref_impl, r->ratio);
	snprintf(type, sizeof(type), "%s:%s:%s:%s", impl, kase, dist,
		 bench_size_str(n, nbuf, sizeof(nbuf)));
	printf("swtim-bench: Type:%-38s Per elem: %4.0f cycles(tsc) %8.3f ns "
	       "(step:%" PRIu64 ") - (min of %u loops, median %.0f)%s%s\n",
	       type, r->cyc_min, r->ns_min, ops, loops, r->cyc_median, ratio,
	       pre);
	fflush(stdout);
}

void
bench_report_mp(const char *impl, const char *kase, const char *dist,
		uint64_t n, unsigned int producers, uint64_t ops,
		const double *med, const double *max, const double *overlap,
		unsigned int loops, const char *ref_impl, int64_t preempted,
		bool cpus_shared)
{
	struct bench_result *r;
	char type[96], nbuf[32], ratio[64] = "", pre[64] = "", ovl[32] = "";
	double sorted[loops > 0 ? loops : 1];
	unsigned int i;

	if (loops == 0)
		return;
	r = bench_result_add(impl, kase, dist, n, producers, ops, med, loops,
			     ref_impl, preempted);
	if (r == NULL)
		return;
	r->cpus_shared = cpus_shared;
	for (i = 0; i < loops; i++)
		sorted[i] = max[i];
	r->cyc_pmax = bench_median(sorted, loops);
	if (producers > 1) {
		for (i = 0; i < loops; i++)
			sorted[i] = overlap[i];
		r->overlap = bench_median(sorted, loops);
		snprintf(ovl, sizeof(ovl), " - overlap %.0f%%",
			 100 * r->overlap);
	}
	if (preempted > 0)
		snprintf(pre, sizeof(pre), " - (switched out: %" PRId64
			 ")", preempted);
	if (!isnan(r->ratio))
		snprintf(ratio, sizeof(ratio), " - ratio %s/%s: %.3g", impl,
			 ref_impl, r->ratio);
	snprintf(type, sizeof(type), "%s:%s:%s:%s:p%u", impl, kase, dist,
		 bench_size_str(n, nbuf, sizeof(nbuf)), producers);
	printf("swtim-bench: Type:%-38s Per elem: %4.0f cycles(tsc) %8.3f ns "
	       "(step:%" PRIu64 " each) - (median producer of %u, median of "
	       "%u loops, min %.0f; slowest producer %.0f)%s%s%s%s\n",
	       type, r->cyc_median, r->cyc_median * 1e9 /
	       (double)bench_env.tsc_hz, ops, producers, loops, r->cyc_min,
	       r->cyc_pmax, ovl, ratio, pre, cpus_shared ?
	       " - CPUs shared" : "");
	fflush(stdout);
}

void
bench_report_retries(const char *impl, const char *kase, const char *dist,
		     uint64_t n, double per_op)
{
	struct bench_result *r = (struct bench_result *)(uintptr_t)
		bench_find(impl, kase, dist, n, 0);

	if (r == NULL)
		return;
	r->retries = per_op;
	printf("swtim-bench:   %s:%s:%s: the device refused %.3g events per"
	       " op at first (retried)\n", impl, kase, dist, per_op);
	fflush(stdout);
}

static int
bench_json_write(const char *path)
{
	FILE *f = fopen(path, "w");
	unsigned int i;

	if (f == NULL) {
		bench_error("cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "{\n  \"program\": \"swtim-bench\",\n");
	fprintf(f, "  \"tsc_hz\": %" PRIu64 ",\n", bench_env.tsc_hz);
	fprintf(f, "  \"event_device\": \"%s\",\n", bench_env.dev_driver);
	fprintf(f, "  \"config\": {\"tick_ns\": %" PRIu64 ", \"max_tmo_ns\": %"
		PRIu64 ", \"step\": %u, \"loops\": %u, \"expiry_loops\": %u, "
		"\"seed\": %" PRIu64 ", \"deterministic\": %s, "
		"\"statistic\": \"min\", \"mp_ops\": %u},\n",
		bench_opts.tick_ns, bench_opts.max_tmo_ns, bench_opts.step,
		bench_opts.loops, bench_opts.expiry_loops, bench_opts.seed,
		bench_opts.deterministic ? "true" : "false",
		bench_opts.mp ? bench_opts.mp_ops : 0);
	fprintf(f, "  \"results\": [\n");
	for (i = 0; i < bench_nb_results; i++) {
		const struct bench_result *r = &bench_results[i];

		fprintf(f, "    {\"impl\": \"%s\", \"case\": \"%s\", "
			"\"dist\": \"%s\", \"n\": %" PRIu64 ", \"step\": %"
			PRIu64 ", \"loops\": %u, \"cycles\": %.2f, "
			"\"cycles_median\": %.2f, \"ns\": %.3f",
			r->impl, r->kase, r->dist, r->n, r->ops, r->loops,
			bench_figure(r), r->cyc_median, bench_figure(r) * 1e9 /
			(double)bench_env.tsc_hz);
		if (!isnan(r->ratio))
			fprintf(f, ", \"ref\": \"%s\", \"ratio\": %.4f",
				r->ref, r->ratio);
		if (r->preempted >= 0)
			fprintf(f, ", \"switched_out\": %" PRId64,
				r->preempted);
		if (!isnan(r->retries))
			fprintf(f, ", \"retries\": %.4f", r->retries);
		if (r->producers > 0)
			fprintf(f, ", \"producers\": %u, \"across\": "
				"\"median\", \"statistic\": \"median\", "
				"\"cycles_min\": %.2f, \"cycles_slowest\": "
				"%.2f, \"cpus_shared\": %s", r->producers,
				r->cyc_min, r->cyc_pmax,
				r->cpus_shared ? "true" : "false");
		if (!isnan(r->overlap))
			fprintf(f, ", \"overlap\": %.4f", r->overlap);
		fprintf(f, "}%s\n", i + 1 < bench_nb_results ? "," : "");
	}
	fprintf(f, "  ],\n  \"errors\": %u\n}\n", bench_nb_errors);
	if (fclose(f) != 0) {
		bench_error("cannot write %s", path);
		return -1;
	}
	return 0;
}

/* ---- options ---- */

static void
bench_usage(const char *prog)
{
	printf(
"usage: %s [EAL args --] [options]\n"
"\n"
"Cycles per operation of swtim's fast paths, page_pool style, against\n"
"DPDK's software event timer adapter and rte_mempool.\n"
"\n"
"  --sizes=LIST        outstanding timers, e.g. 1k,64k,1M,4M (k = 1000,\n"
"                      M = 1000000); default 1k,64k,1M\n"
"  --drivers=LIST      swtim drivers, and dpdk-api-DRIVER: the driver\n"
"                      through DPDK's API, created through the drop-in\n"
"                      library (compared with the driver's own API);\n"
"                      default skiplist,wheel,dpdk-api-wheel\n"
"  --dropin=PATH       the drop-in library (default " BENCH_DROPIN_PATH "\n"
"                      through the run path: the build's in a build tree,\n"
"                      the installed one once installed)\n"
"  --no-dpdk           skip DPDK's adapter and rte_mempool (no ratios)\n"
"  --dists=LIST        timeout distributions: equal,random (default both)\n"
"  --cases=LIST        timers,alloc,floor,mp (default timers,alloc,floor;\n"
"                      mp alone with --producers); floor: the memory work\n"
"                      of an expiry without an adapter (each event timer\n"
"                      read through a record, in due order, its state\n"
"                      written), the floor under expiry's growth; mp: see\n"
"                      --producers\n"
"  --producers=LIST    the multi-producer cases (--cases=mp) for each\n"
"                      count in LIST, e.g. 1,2 or 1,2,4,8 (default 1,2):\n"
"                      that many lcores arm and cancel their own timers at\n"
"                      once into one adapter, each phase started together;\n"
"                      the --sizes timers outstanding are split between\n"
"                      them. Cases: mp_arm, mp_arm_burst, mp_cancel,\n"
"                      mp_cancel_burst (one a call / bursts of 32), and\n"
"                      mp_cross_cancel(_burst): each cancels what the\n"
"                      next lcore armed. Reported per timer: the median\n"
"                      producer (the slowest too), its ratio to DPDK's\n"
"                      adapter with as many producers\n"
"  --mp-ops=N          timers each producer arms or cancels in a phase, a\n"
"                      multiple of 32 (default 200k; 2048 deterministic)\n"
"  --loops=N           measured loops per case after one warm-up loop;\n"
"                      the minimum is reported (default 5)\n"
"  --expiry-loops=N    measured expiry loops (default: --loops below 1M\n"
"                      timers, 1 from 1M)\n"
"  --step=N            operations per loop, a multiple of 32 (default 1024)\n"
"  --tick-ns=N         adapter tick (default 10000)\n"
"  --max-tmo-ns=N      adapter max timeout (default 10 s, less where DPDK\n"
"                      22.11's adapter would overflow: see below)\n"
"  --seed=N            seed of the random timeouts\n"
"  --evdev=NAME        event device to create without EAL args:\n"
"                      event_dsw0 (default) or event_sw0, whose scheduler\n"
"                      service the bench runs between its dequeues\n"
"  --json=FILE         write the results as JSON\n"
"  --deterministic     fixed seeds, sizes 1k,4k, 1 loop, step 256, no\n"
"                      re-run of switched-out loops: for valgrind\n"
"                      --tool=callgrind (see callgrind.sh)\n"
"  --quiet             no progress messages on stderr\n"
"  --help\n"
"\n"
"Without EAL args: --no-huge -m <enough for --sizes> --no-shconf --no-pci\n"
"--no-telemetry --file-prefix=swtim_bench_<pid> --vdev=<--evdev>\n"
"--lcores 0@A,1@B -s 0x2 --log-level=lib.eal:error (A, B: the first two\n"
"CPUs we may run on). Everything runs on the main lcore; the service\n"
"lcore is only mapped, never started: the bench drives the services.\n"
"With --cases=mp, P = the most of --producers (at least 2) producer\n"
"lcores: 0 (main) and 2..P, each pinned to a CPU of its own while there\n"
"are enough (0@A,1@B,2@B,3@C...), else all of 2..P floating over every\n"
"CPU (0@A,1@B,(2-P)@(A,B,...)): the output then says the producers\n"
"share CPUs, and their figures say nothing about scaling.\n"
"With EAL args, the bench uses the event device --evdev names, else\n"
"the first one; for --cases=mp they must give P - 1 worker lcores\n"
"besides the service lcore.\n"
"\n"
"DPDK 22.11's adapter computes timeout_ns * timer_hz in 64 bits and\n"
"overflows above UINT64_MAX / timer_hz ns (7.09 s at 2.6 GHz): the\n"
"default max timeout stays below that.\n", prog);
}

/* A decimal number, with an optional k, M or G (10^3, 10^6, 10^9). */
static int
bench_parse_u64(const char *s, uint64_t *v)
{
	unsigned long long x, mult = 1;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;	/* no sign, no blank */
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno != 0 || end == s)
		return -1;
	if (*end == 'k' || *end == 'K')
		mult = 1000;
	else if (*end == 'M')
		mult = 1000000;
	else if (*end == 'G')
		mult = 1000000000;
	if (mult != 1)
		end++;
	if (*end != '\0' || x > UINT64_MAX / mult)
		return -1;
	*v = x * mult;
	return 0;
}

static int
bench_parse_sizes(char *list)
{
	char *tok, *save = NULL;

	bench_opts.nb_sizes = 0;
	for (tok = strtok_r(list, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		if (bench_opts.nb_sizes == BENCH_MAX_SIZES ||
		    bench_parse_u64(tok, &v) != 0 || v == 0 ||
		    v > UINT32_MAX / 2) {
			fprintf(stderr, "swtim-bench: --sizes: bad size '%s' "
				"(1 to %u, k = 1000, M = 1000000; at most %u "
				"sizes)\n", tok, UINT32_MAX / 2, BENCH_MAX_SIZES);
			return -1;
		}
		bench_opts.sizes[bench_opts.nb_sizes++] = v;
	}
	if (bench_opts.nb_sizes == 0) {
		fprintf(stderr, "swtim-bench: --sizes: empty list\n");
		return -1;
	}
	return 0;
}

static int
bench_parse_list(const char *option, char *list, const char *const *names,
		 bool *set, unsigned int nb)
{
	char *tok, *save = NULL;
	unsigned int i;

	for (i = 0; i < nb; i++)
		set[i] = false;
	for (tok = strtok_r(list, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < nb; i++)
			if (strcmp(tok, names[i]) == 0)
				break;
		if (i == nb) {
			fprintf(stderr, "swtim-bench: --%s: unknown '%s'\n",
				option, tok);
			return -1;
		}
		set[i] = true;
	}
	return 0;
}

enum {
	OPT_SIZES = 256, OPT_DRIVERS, OPT_NO_DPDK, OPT_DISTS, OPT_CASES,
	OPT_LOOPS, OPT_EXPIRY_LOOPS, OPT_STEP, OPT_TICK, OPT_MAX_TMO,
	OPT_SEED, OPT_EVDEV, OPT_JSON, OPT_DETERMINISTIC, OPT_QUIET, OPT_HELP,
	OPT_PRODUCERS, OPT_MP_OPS, OPT_DROPIN,
};

static int
bench_parse_producers(char *list)
{
	char *tok, *save = NULL;
	uint64_t v;

	bench_opts.nb_producers = 0;
	for (tok = strtok_r(list, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		if (bench_opts.nb_producers == BENCH_MAX_PRODUCER_COUNTS ||
		    bench_parse_u64(tok, &v) != 0 || v == 0 ||
		    v > BENCH_MAX_PRODUCERS)
			return -1;
		bench_opts.producers[bench_opts.nb_producers++] = v;
	}
	return bench_opts.nb_producers > 0 ? 0 : -1;
}

/* Say which option had a bad value, and what it takes; -1. */
static int
bench_bad_option(const char *name, const char *value, const char *takes)
{
	fprintf(stderr, "swtim-bench: --%s=%s: %s\n", name, value, takes);
	return -1;
}

static int
bench_parse_opts(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "sizes", required_argument, NULL, OPT_SIZES },
		{ "drivers", required_argument, NULL, OPT_DRIVERS },
		{ "dropin", required_argument, NULL, OPT_DROPIN },
		{ "no-dpdk", no_argument, NULL, OPT_NO_DPDK },
		{ "dists", required_argument, NULL, OPT_DISTS },
		{ "cases", required_argument, NULL, OPT_CASES },
		{ "loops", required_argument, NULL, OPT_LOOPS },
		{ "expiry-loops", required_argument, NULL, OPT_EXPIRY_LOOPS },
		{ "step", required_argument, NULL, OPT_STEP },
		{ "tick-ns", required_argument, NULL, OPT_TICK },
		{ "max-tmo-ns", required_argument, NULL, OPT_MAX_TMO },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "evdev", required_argument, NULL, OPT_EVDEV },
		{ "json", required_argument, NULL, OPT_JSON },
		{ "deterministic", no_argument, NULL, OPT_DETERMINISTIC },
		{ "quiet", no_argument, NULL, OPT_QUIET },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "producers", required_argument, NULL, OPT_PRODUCERS },
		{ "mp-ops", required_argument, NULL, OPT_MP_OPS },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const dist_names[] = { "equal", "random" };
	static const char *const case_names[] = {
		"timers", "alloc", "floor", "mp",
	};
	bool sizes_set = false, loops_set = false, step_set = false;
	bool cases[4] = { true, true, true, false };
	bool cases_set = false, mp_ops_set = false;
	char *tok, *save = NULL;
	uint64_t v;
	int c;

	memset(&bench_opts, 0, sizeof(bench_opts));
	bench_opts.sizes[0] = 1000;
	bench_opts.sizes[1] = 64000;
	bench_opts.sizes[2] = 1000000;
	bench_opts.nb_sizes = 3;
	bench_opts.drivers[0] = "skiplist";
	bench_opts.drivers[1] = "wheel";
	bench_opts.drivers[2] = BENCH_DPDK_API_PREFIX "wheel";
	bench_opts.nb_drivers = 3;
	bench_opts.dropin = BENCH_DROPIN_PATH;
	bench_opts.dpdk = true;
	bench_opts.dists[BENCH_DIST_EQUAL] = true;
	bench_opts.dists[BENCH_DIST_RANDOM] = true;
	bench_opts.loops = 5;
	bench_opts.step = 1024;
	bench_opts.tick_ns = 10000;
	bench_opts.max_tmo_ns = 0;	/* bench_max_tmo() */
	bench_opts.seed = UINT64_C(0x5357494d42454e43); /* "SWIMBENC" */
	bench_opts.evdev = "event_dsw0";

	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_SIZES:
			if (bench_parse_sizes(optarg) != 0)
				return -1;
			sizes_set = true;
			break;
		case OPT_DRIVERS:
			bench_opts.nb_drivers = 0;
			for (tok = strtok_r(optarg, ",", &save); tok != NULL;
			     tok = strtok_r(NULL, ",", &save)) {
				if (bench_opts.nb_drivers == BENCH_MAX_DRIVERS)
					return bench_bad_option("drivers",
						optarg, "too many drivers");
				bench_opts.drivers[bench_opts.nb_drivers++] =
					tok;
			}
			break;
		case OPT_DROPIN:
			bench_opts.dropin = optarg;
			break;
		case OPT_NO_DPDK:
			bench_opts.dpdk = false;
			break;
		case OPT_DISTS:
			if (bench_parse_list("dists", optarg, dist_names,
					     bench_opts.dists,
					     BENCH_NB_DISTS) != 0)
				return -1;
			break;
		case OPT_CASES:
			if (bench_parse_list("cases", optarg, case_names,
					     cases, 4) != 0)
				return -1;
			cases_set = true;
			break;
		case OPT_PRODUCERS:
			if (bench_parse_producers(optarg) != 0)
				return bench_bad_option("producers", optarg,
					"counts from 1 to 64, e.g. 1,2,4");
			break;
		case OPT_MP_OPS:
			if (bench_parse_u64(optarg, &v) != 0 ||
			    v < BENCH_BURST || v % BENCH_BURST != 0 ||
			    v > 1 << 24)
				return bench_bad_option("mp-ops", optarg,
					"a multiple of 32 up to 16777216");
			bench_opts.mp_ops = v;
			mp_ops_set = true;
			break;
		case OPT_LOOPS:
			if (bench_parse_u64(optarg, &v) != 0 || v == 0 ||
			    v > 1000)
				return bench_bad_option("loops", optarg,
							"1 to 1000");
			bench_opts.loops = v;
			loops_set = true;
			break;
		case OPT_EXPIRY_LOOPS:
			if (bench_parse_u64(optarg, &v) != 0 || v == 0 ||
			    v > 1000)
				return bench_bad_option("expiry-loops", optarg,
							"1 to 1000");
			bench_opts.expiry_loops = v;
			break;
		case OPT_STEP:
			if (bench_parse_u64(optarg, &v) != 0 ||
			    v < BENCH_BURST || v % BENCH_BURST != 0 ||
			    v > 1 << 20)
				return bench_bad_option("step", optarg,
					"a multiple of 32 up to 1048576");
			bench_opts.step = v;
			step_set = true;
			break;
		case OPT_TICK:
			if (bench_parse_u64(optarg, &v) != 0 || v == 0)
				return bench_bad_option("tick-ns", optarg,
							"a positive number");
			bench_opts.tick_ns = v;
			break;
		case OPT_MAX_TMO:
			if (bench_parse_u64(optarg, &v) != 0 || v == 0)
				return bench_bad_option("max-tmo-ns", optarg,
							"a positive number");
			bench_opts.max_tmo_ns = v;
			break;
		case OPT_SEED:
			if (bench_parse_u64(optarg, &v) != 0)
				return bench_bad_option("seed", optarg,
							"a number");
			bench_opts.seed = v;
			break;
		case OPT_EVDEV:
			if (strncmp(optarg, "event_", 6) != 0 ||
			    strlen(optarg) > 32)
				return bench_bad_option("evdev", optarg,
					"an event vdev, e.g. event_sw0");
			bench_opts.evdev = optarg;
			break;
		case OPT_JSON:
			bench_opts.json = optarg;
			break;
		case OPT_DETERMINISTIC:
			bench_opts.deterministic = true;
			break;
		case OPT_QUIET:
			bench_opts.quiet = true;
			break;
		case OPT_HELP:
			bench_usage(argv[0]);
			exit(0);
		default:
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "swtim-bench: unexpected argument '%s' (EAL "
			"args go before --)\n", argv[optind]);
		return -1;
	}
	/* --producers alone asks for the multi-producer cases only. */
	if (bench_opts.nb_producers > 0 && !cases_set) {
		cases[0] = false;
		cases[1] = false;
		cases[2] = false;
		cases[3] = true;
	}
	bench_opts.timers = cases[0];
	bench_opts.alloc = cases[1];
	bench_opts.floor = cases[2];
	bench_opts.mp = cases[3];
	if (bench_opts.mp && bench_opts.nb_producers == 0) {
		bench_opts.producers[0] = 1;
		bench_opts.producers[1] = 2;
		bench_opts.nb_producers = 2;
	}
	if (!mp_ops_set)
		bench_opts.mp_ops = bench_opts.deterministic ? 2048 : 200000;
	if (bench_opts.deterministic) {
		/* Small enough for callgrind; the seed stays fixed. */
		if (!sizes_set) {
			bench_opts.sizes[0] = 1000;
			bench_opts.sizes[1] = 4000;
			bench_opts.nb_sizes = 2;
		}
		if (!loops_set)
			bench_opts.loops = 1;
		if (!step_set)
			bench_opts.step = 256;
	}
	if (bench_opts.max_tmo_ns != 0 &&
	    bench_opts.max_tmo_ns < bench_opts.tick_ns) {
		fprintf(stderr, "swtim-bench: --max-tmo-ns below --tick-ns\n");
		return -1;
	}
	return 0;
}

/*
 * DPDK 22.11's software adapter turns a timeout into TSC cycles as
 * ns * timer_hz in 64 bits: above UINT64_MAX / timer_hz ns (7.09 s at
 * 2.6 GHz) its timers get a wrapped, shorter expiry. The default max
 * timeout is 10 s, or the largest whole 100 ms below that limit.
 */
static void
bench_max_tmo(void)
{
	uint64_t limit = UINT64_MAX / rte_get_timer_hz();

	if (bench_opts.max_tmo_ns == 0) {
		bench_opts.max_tmo_ns = RTE_MIN(UINT64_C(10000000000),
				limit / 100000000 * 100000000);
		bench_opts.max_tmo_ns = RTE_MAX(bench_opts.max_tmo_ns,
						bench_opts.tick_ns);
	} else if (bench_opts.max_tmo_ns > limit && bench_opts.dpdk) {
		fprintf(stderr, "swtim-bench: warning: DPDK 22.11's adapter "
			"overflows timeouts above %" PRIu64 " ns on this "
			"machine\n", limit);
	}
}

/* ---- EAL ---- */

/* EAL memory for the largest size, in MB. */
static unsigned int
bench_mem_mb(void)
{
	uint64_t max = 0, objs;
	unsigned int i;

	for (i = 0; i < bench_opts.nb_sizes; i++)
		max = RTE_MAX(max, bench_opts.sizes[i]);
	/*
	 * Adapters run one at a time. The largest is DPDK's: a mempool of
	 * rte_timers rounded up to a power of 2, 192 bytes an object with
	 * the mempool header; the skiplist driver's objects and its
	 * expiry event buffer come to less, the wheel's slot blocks (8
	 * bytes a timer) to much less. 256 bytes a timer covers each, plus 256 MB for
	 * the rest.
	 */
	if (bench_opts.mp)
		max += (uint64_t)bench_mp_lcores() * bench_opts.mp_ops;
	objs = rte_align64pow2(max + 2 * bench_opts.step + 1024);
	return 256 + (unsigned int)(objs * 256 / (1024 * 1024));
}

/*
 * --lcores: the main lcore 0 on the first CPU, the service lcore 1 on
 * the second (it never runs: it may share one). The multi-producer cases'
 * producers are lcore 0 and 2..P: each on a CPU of its own while there
 * are enough, else lcores 2..P float over all the CPUs, as the scheduler
 * balances them better than a fixed sharing would.
 */
static void
bench_lcores_arg(char *buf, size_t len)
{
	int cpus[BENCH_MAX_PRODUCERS + 1];
	unsigned int nb = swt_cpus_pick(cpus, RTE_DIM(cpus));
	unsigned int prod = bench_mp_lcores(), i;
	size_t off;

	off = snprintf(buf, len, "0@%d,1@%d", cpus[0], cpus[1 % nb]);
	if (prod <= 1)
		return;
	if (prod <= nb) {
		for (i = 1; i < prod && off < len; i++)
			off += snprintf(buf + off, len - off, ",%u@%d", i + 1,
					cpus[i]);
		return;
	}
	if (prod == 2)
		off += snprintf(buf + off, len - off, ",2@(");
	else
		off += snprintf(buf + off, len - off, ",(2-%u)@(", prod);
	for (i = 0; i < nb && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%d", i ? "," : "",
				cpus[i]);
	if (off < len)
		snprintf(buf + off, len - off, ")");
}

static int
bench_eal_init(int argc, char **argv)
{
	static char mem[32], prefix[64], lcores[1024], vdev[48];
	char *eal_argv[24];
	int eal_argc = 0;

	if (argc > 1) {
		/* The user's EAL args, verbatim. */
		return rte_eal_init(argc, argv);
	}
	snprintf(mem, sizeof(mem), "%u", bench_mem_mb());
	snprintf(prefix, sizeof(prefix), "--file-prefix=swtim_bench_%d",
		 (int)getpid());
	bench_lcores_arg(lcores, sizeof(lcores));
	eal_argv[eal_argc++] = argv[0];
	eal_argv[eal_argc++] = (char *)(uintptr_t)"--no-huge";
	eal_argv[eal_argc++] = (char *)(uintptr_t)"-m";
	eal_argv[eal_argc++] = mem;
	eal_argv[eal_argc++] = (char *)(uintptr_t)"--no-shconf";
	eal_argv[eal_argc++] = (char *)(uintptr_t)"--no-pci";
	eal_argv[eal_argc++] = (char *)(uintptr_t)"--no-telemetry";
	eal_argv[eal_argc++] = prefix;
	snprintf(vdev, sizeof(vdev), "--vdev=%s", bench_opts.evdev);
	eal_argv[eal_argc++] = vdev;
	eal_argv[eal_argc++] = (char *)(uintptr_t)"--lcores";
	eal_argv[eal_argc++] = lcores;
	eal_argv[eal_argc++] = (char *)(uintptr_t)"-s";
	eal_argv[eal_argc++] = (char *)(uintptr_t)"0x2";
	eal_argv[eal_argc++] = (char *)(uintptr_t)"--log-level=lib.eal:error";
	eal_argv[eal_argc] = NULL;
	bench_progress("EAL: --no-huge -m %s --lcores %s -s 0x2", mem,
		       lcores);
	return rte_eal_init(eal_argc, eal_argv);
}

/*
 * The adapters' services must be mapped to a service lcore for the
 * adapters to start, but nothing may run them behind the bench's back:
 * take a service lcore (EAL's -s, or the first worker lcore) and make
 * sure it is stopped. EAL starts -s lcores itself.
 */
static int
bench_service_lcore(void)
{
	unsigned int lcore;
	int ret;

	for (lcore = 0; lcore < RTE_MAX_LCORE; lcore++)
		if (rte_lcore_has_role(lcore, ROLE_SERVICE))
			break;
	if (lcore == RTE_MAX_LCORE) {
		lcore = rte_get_next_lcore(-1, 1, 0);
		if (lcore >= RTE_MAX_LCORE) {
			fprintf(stderr, "need a second lcore for the service "
				"mapping\n");
			return -1;
		}
		ret = rte_service_lcore_add(lcore);
		if (ret != 0 && ret != -EALREADY) {
			fprintf(stderr, "rte_service_lcore_add(%u): %d\n",
				lcore, ret);
			return -1;
		}
	}
	ret = rte_service_lcore_stop(lcore);
	if (ret != 0 && ret != -EALREADY) {
		fprintf(stderr, "rte_service_lcore_stop(%u): %d\n", lcore, ret);
		return -1;
	}
	bench_env.service_lcore = lcore;
	return 0;
}

/*
 * A device with a scheduler service (event_sw) gets it mapped to the
 * bench's stopped service lcore, as its start requires, and running: the
 * bench runs it itself between dequeues (drain_port()), never timed.
 */
static int
bench_evdev_service(uint8_t dev_id)
{
	uint32_t sid;
	int ret;

	if (rte_event_dev_service_id_get(dev_id, &sid) != 0)
		return 0;	/* none needed (event_dsw) */
	ret = rte_service_map_lcore_set(sid, bench_env.service_lcore, 1);
	if (ret == 0)
		ret = rte_service_runstate_set(sid, 1);
	if (ret != 0) {
		fprintf(stderr, "event device service %u: %s\n", sid,
			rte_strerror(-ret));
		return -1;
	}
	bench_env.dev_service = true;
	bench_env.dev_service_id = sid;
	return 0;
}

/*
 * Push twice the device's event limit through each adapter port to the
 * worker port before anything is measured. Without hugepages (--no-huge)
 * the device's rings are plain anonymous memory whose pages are faulted
 * in on first write: an expiry case that happened to be the first to
 * carry events through a stretch of event_dsw's 16384-event ring paid a
 * page fault per 256 events (8-14k cycles each on this VM), about 40
 * cycles an event at 1k timers, for both adapters alike. Returns -1 if
 * not every event came back.
 */
static int
bench_evdev_warm(uint8_t dev_id, uint32_t nb_events)
{
	struct rte_event ev[BENCH_BURST], out[64];
	uint64_t sent = 0, got = 0, idle = 0;
	uint8_t ports[] = { bench_env.swtim_port, bench_env.dpdk_port };
	unsigned int i, p;
	uint16_t k;

	memset(ev, 0, sizeof(ev));
	for (i = 0; i < RTE_DIM(ev); i++) {
		ev[i].queue_id = bench_env.queue_id;
		ev[i].sched_type = bench_env.sched_type;
		ev[i].op = RTE_EVENT_OP_NEW;
		ev[i].event_type = RTE_EVENT_TYPE_CPU;
	}
	for (p = 0; p < RTE_DIM(ports); p++) {
		uint64_t target = sent + 2 * (uint64_t)nb_events;

		while (sent < target || got < sent) {
			if (sent < target) {
				sent += rte_event_enqueue_new_burst(dev_id,
						ports[p], ev, RTE_DIM(ev));
				rte_event_maintain(dev_id, ports[p],
						RTE_EVENT_DEV_MAINT_OP_FLUSH);
			}
			if (bench_env.dev_service)
				rte_service_run_iter_on_app_lcore(
					bench_env.dev_service_id, 1);
			k = rte_event_dequeue_burst(dev_id,
					bench_env.worker_port, out,
					RTE_DIM(out), 0);
			got += k;
			idle = k == 0 ? idle + 1 : 0;
			if (idle > 1000000) {
				fprintf(stderr, "event device warm-up: %" PRIu64
					" of %" PRIu64 " events came back\n",
					got, sent);
				return -1;
			}
		}
	}
	return 0;
}

/* One queue, the worker port linked to it, one port per kind of
 * adapter. */
static int
bench_evdev_setup(void)
{
	struct rte_event_dev_config dconf;
	struct rte_event_dev_info info;
	struct rte_event_queue_conf qconf;
	struct rte_event_port_conf pconf;
	int dev_id, ret;
	uint8_t p;

	dev_id = rte_event_dev_get_dev_id(bench_opts.evdev);
	if (dev_id < 0 && rte_event_dev_count() > 0)
		dev_id = 0;
	if (dev_id < 0) {
		fprintf(stderr, "no event device (--vdev=%s)\n",
			bench_opts.evdev);
		return -1;
	}
	if (rte_event_dev_info_get(dev_id, &info) != 0)
		return -1;

	memset(&dconf, 0, sizeof(dconf));
	dconf.nb_event_queues = 1;
	dconf.nb_event_ports = 3;
	dconf.nb_events_limit = info.max_num_events;
	dconf.nb_event_queue_flows = info.max_event_queue_flows;
	dconf.nb_event_port_dequeue_depth = info.max_event_port_dequeue_depth;
	dconf.nb_event_port_enqueue_depth = info.max_event_port_enqueue_depth;
	dconf.dequeue_timeout_ns = info.min_dequeue_timeout_ns;
	ret = rte_event_dev_configure(dev_id, &dconf);
	if (ret != 0) {
		fprintf(stderr, "rte_event_dev_configure: %d\n", ret);
		return -1;
	}
	if (rte_event_queue_default_conf_get(dev_id, 0, &qconf) != 0)
		return -1;
	qconf.event_queue_cfg = 0;
	qconf.schedule_type = RTE_SCHED_TYPE_ATOMIC;
	ret = rte_event_queue_setup(dev_id, 0, &qconf);
	if (ret != 0) {
		fprintf(stderr, "rte_event_queue_setup: %d\n", ret);
		return -1;
	}
	for (p = 0; p < dconf.nb_event_ports; p++) {
		if (rte_event_port_default_conf_get(dev_id, p, &pconf) != 0)
			return -1;
		/* The device never refuses an adapter for being "new". */
		pconf.new_event_threshold = dconf.nb_events_limit;
		ret = rte_event_port_setup(dev_id, p, &pconf);
		if (ret != 0) {
			fprintf(stderr, "rte_event_port_setup(%u): %d\n", p,
				ret);
			return -1;
		}
	}
	bench_env.dev_id = dev_id;
	bench_env.worker_port = 0;
	bench_env.swtim_port = 1;
	bench_env.dpdk_port = 2;
	bench_env.queue_id = 0;
	bench_env.sched_type = RTE_SCHED_TYPE_ATOMIC;
	snprintf(bench_env.dev_driver, sizeof(bench_env.dev_driver), "%s",
		 info.driver_name);
	if (rte_event_port_link(dev_id, bench_env.worker_port, NULL, NULL,
				0) != 1) {
		fprintf(stderr, "rte_event_port_link: %s\n",
			rte_strerror(rte_errno));
		return -1;
	}
	if (bench_evdev_service(dev_id) != 0)
		return -1;
	ret = rte_event_dev_start(dev_id);
	if (ret != 0) {
		fprintf(stderr, "rte_event_dev_start: %d\n", ret);
		return -1;
	}
	if (bench_evdev_warm(dev_id, dconf.nb_events_limit) != 0)
		return -1;
	bench_progress("event device %s: %d events, %u ports%s",
		       info.driver_name, dconf.nb_events_limit,
		       dconf.nb_event_ports, bench_env.dev_service ?
		       ", its service run by the bench" : "");
	return 0;
}

int
main(int argc, char **argv)
{
	int eal_argc = 1, i, ret;
	char **opt_argv;
	int opt_argc;
	char nbuf[32];

	/* [EAL args --] options */
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0)
			break;
	if (i < argc) {
		eal_argc = i;
		opt_argv = &argv[i];	/* "--" stands in for argv[0] */
		opt_argc = argc - i;
	} else {
		opt_argv = argv;
		opt_argc = argc;
	}
	{
		/* getopt wants argv[0] to be the program. */
		char *saved = opt_argv[0];

		opt_argv[0] = argv[0];
		ret = bench_parse_opts(opt_argc, opt_argv);
		opt_argv[0] = saved;
		if (ret != 0) {
			/* The error is above; the options are in --help. */
			fprintf(stderr, "swtim-bench: see --help\n");
			return 2;
		}
	}
	ret = bench_eal_init(eal_argc, argv);
	if (ret < 0) {
		fprintf(stderr, "rte_eal_init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	/* librte_timer picks skiplist levels with rte_rand(), seeded from
	 * the TSC at start: fix it, so that instruction counts repeat. */
	rte_srand(bench_opts.seed);
	bench_env.tsc_hz = rte_get_tsc_hz();
	bench_max_tmo();
	bench_env.socket = (int)rte_socket_id();
	if (bench_service_lcore() != 0 || bench_evdev_setup() != 0) {
		rte_eal_cleanup();
		return 1;
	}
	printf("swtim-bench: TSC %" PRIu64 " Hz, %s, tick %" PRIu64 " ns, "
	       "max timeout %" PRIu64 " ns, step %u, loops %u (+1 warm-up, "
	       "minimum reported), seed %#" PRIx64 "%s\n",
	       bench_env.tsc_hz, bench_env.dev_driver, bench_opts.tick_ns,
	       bench_opts.max_tmo_ns,
	       bench_opts.step, bench_opts.loops, bench_opts.seed,
	       bench_opts.deterministic ? ", deterministic" : "");
	fflush(stdout);
	for (i = 0; i < (int)bench_opts.nb_sizes; i++) {
		uint64_t n = bench_opts.sizes[i];

		bench_progress("== %s outstanding ==",
			       bench_size_str(n, nbuf, sizeof(nbuf)));
		if (bench_opts.alloc && bench_alloc_run(n) != 0)
			break;
		if ((bench_opts.timers || bench_opts.floor) &&
		    bench_timers_run(n) != 0)
			break;
		if (bench_opts.mp && bench_mp_run(n) != 0)
			break;
	}
	if (bench_opts.json != NULL)
		bench_json_write(bench_opts.json);

	rte_event_dev_stop(bench_env.dev_id);
	rte_event_dev_close(bench_env.dev_id);
	rte_eal_cleanup();
	free(bench_results);
	printf("swtim-bench: %u cases, %u consistency errors\n",
	       bench_nb_results, bench_nb_errors);
	return bench_nb_errors == 0 && i == (int)bench_opts.nb_sizes ? 0 : 1;
}
