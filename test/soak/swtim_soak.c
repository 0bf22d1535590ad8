/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * swtim-soak: hours of a random mix against one adapter of one-shot and
 * one of periodic timers, every expiry checked (soak.h, soak_ledger.h).
 *
 *   swtim-soak [EAL options] -- [--minutes N] [--driver NAME] [--seed S]
 *              [--peak N] [--steady N] [--periodic N] [--progress S]
 *
 * scripts/soak.sh gives it EAL options that suit a small machine. The
 * last line is
 *
 *   soak: A armed, C cancelled, E expired, L lost, D duplicate, X early,
 *   heap growth B bytes
 *
 * (one line) and the exit status is 0 only with no fault of any kind, a
 * flat heap and RSS after warm-up, the peak reached and the adapters'
 * counts matching what the worker received.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eventdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_ring_elem.h>
#include <rte_service.h>
#include <rte_timer.h>

#include "soak.h"
#include "swtim_test.h"

/*
 * After warm-up the rte_malloc heap may not grow by more than this: the
 * adapters allocate nothing after their event buffers have reached the
 * size the warm-up's disturbances gave them, so any growth is a leak or
 * a buffer growing again; the slack is for nothing in particular, and
 * stated so that a result can be read against it.
 */
#define SOAK_HEAP_TOLERANCE	(1 << 20)		/* 1 MiB */
/*
 * RSS: pages first touched after warm-up (a part of the timer arrays
 * the peak did not reach, libc's arenas, stdio) count too.
 */
#define SOAK_RSS_TOLERANCE	(UINT64_C(64) << 20)	/* 64 MiB */

/* The main lcore's step, and how often it samples the heap. */
#define SOAK_STEP_MS		10
#define SOAK_SAMPLE_MS		1000
/*
 * A peak: its timers fall due --peak-hold (default this) after their arm,
 * over this long: the fill must take less than the hold (the skiplist
 * driver arms about 100,000 a second on two busy CPUs: 4.2M take it
 * most of a minute, so its long runs take a hold of 90 s).
 */
#define SOAK_PEAK_HOLD_S	20
#define SOAK_PEAK_SPREAD_MS	15000
/* The longest a peak's timers take to fall due, and to drain after. */
#define SOAK_PEAK_DRAIN_MS	5000
/*
 * Peaks: the first at once, then this often while there is time left
 * for the hold, the spread and this much more.
 */
#define SOAK_PEAK_EVERY_S	300
#define SOAK_PEAK_MARGIN_S	10
/* Between two disturbances, after warm-up. */
#define SOAK_CHAOS_GAP_MIN_MS	500
#define SOAK_CHAOS_GAP_MAX_MS	4000
/* The end: quiet this long and the device is empty. */
#define SOAK_QUIET_MS		500

/* Main, two service lcores, the worker, two producers. */
#define SOAK_MIN_LCORES		6
#define SOAK_NB_SERVICE_LCORES	2

struct soak_opts {
	double minutes;
	const char *driver;
	uint64_t seed;
	uint64_t peak;
	unsigned int peak_hold_s;
	uint64_t steady;
	uint32_t periodic;
	unsigned int progress_s;
};

enum soak_chaos {
	SOAK_CHAOS_PAUSE,		/* the worker stops dequeuing */
	SOAK_CHAOS_ADAPTER,		/* an adapter stopped and started */
	SOAK_CHAOS_SERVICE_ONE,		/* one service lcore stopped */
	SOAK_CHAOS_SERVICE_ALL,		/* both service lcores stopped */
	SOAK_CHAOS_KINDS,
};

static const char *const soak_chaos_names[SOAK_CHAOS_KINDS] = {
	"worker pauses", "adapter stops", "service lcore stops",
	"all service lcores stopped",
};

/* The main lcore's state. */
static struct {
	struct soak s;
	struct soak_opts o;
	struct soak_thread *th;
	unsigned int nb_th;
	unsigned int svc[SOAK_NB_SERVICE_LCORES];
	unsigned int worker_lcore;
	unsigned int prod[RTE_MAX_LCORE];
	unsigned int nb_prod;
	pthread_t non_eal;
	uint64_t hz, start, end;
	uint64_t rnd;
	/* Quarantine: cancelled periodic timers, oldest first. */
	uint32_t *q;
	uint32_t q_head, q_tail, q_size;
	/* Heap and RSS: at the end of warm-up, now, the most since. */
	bool warm;
	uint64_t warm_at;
	uint64_t heap_base, heap_now, heap_max, rss_base, rss_now, rss_max;
	uint64_t peak_max, peaks, peaks_reached;
	uint64_t chaos[SOAK_CHAOS_KINDS];
	uint64_t heap_before;	/* before the soak's rings and adapters */
	uint64_t errors;	/* the main lcore's own */
	struct soak_faults faults;
} g;

static void
soak_usage(const char *prog)
{
	printf("usage: %s [EAL options] -- [options]\n"
	       "  --minutes N     how long to run (default 1; may be 0.5)\n"
	       "  --driver NAME   wheel or skiplist (default %s)\n"
	       "  --seed S        seed of the random mix (default: the clock)\n"
	       "  --peak N        one-shot timers outstanding at each peak\n"
	       "                  (default 4200000; 0: no peaks)\n"
	       "  --peak-hold S   a peak's timers fall due S seconds after\n"
	       "                  their arm, over 15 s more; its fill must\n"
	       "                  take less (default %u)\n"
	       "  --steady N      one-shot timers outstanding between peaks\n"
	       "                  (default 100000)\n"
	       "  --periodic N    periodic timers alive at once (2000)\n"
	       "  --progress S    a progress line every S seconds (60)\n"
	       "  --help          this text\n"
	       "The last line reads 'soak: A armed, C cancelled, E expired, "
	       "L lost, D duplicate,\nX early, heap growth B bytes'; the exit "
	       "status is 0 only if nothing went wrong.\n"
	       "scripts/soak.sh runs it with EAL options for a small "
	       "machine.\n", prog, SWTIM_DEFAULT_DRIVER, SOAK_PEAK_HOLD_S);
}

static int
soak_opts_parse(int argc, char **argv, struct soak_opts *o)
{
	static const struct option longs[] = {
		{ "minutes", required_argument, NULL, 'm' },
		{ "driver", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 's' },
		{ "peak", required_argument, NULL, 'p' },
		{ "peak-hold", required_argument, NULL, 'o' },
		{ "steady", required_argument, NULL, 't' },
		{ "periodic", required_argument, NULL, 'r' },
		{ "progress", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->minutes = 1;
	o->driver = SWTIM_DEFAULT_DRIVER;
	o->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	o->peak = 4200000;
	o->peak_hold_s = SOAK_PEAK_HOLD_S;
	o->steady = 100000;
	o->periodic = 2000;
	o->progress_s = 60;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (c) {
		case 'm':
			o->minutes = strtod(optarg, NULL);
			break;
		case 'd':
			o->driver = optarg;
			break;
		case 's':
			o->seed = strtoull(optarg, NULL, 0);
			break;
		case 'p':
			o->peak = strtoull(optarg, NULL, 0);
			break;
		case 'o':
			o->peak_hold_s = strtoul(optarg, NULL, 0);
			break;
		case 't':
			o->steady = strtoull(optarg, NULL, 0);
			break;
		case 'r':
			o->periodic = strtoul(optarg, NULL, 0);
			break;
		case 'g':
			o->progress_s = strtoul(optarg, NULL, 0);
			break;
		case 'h':
			soak_usage(argv[0]);
			exit(0);
		default:
			/* getopt has said which option. */
			fprintf(stderr, "swtim-soak: see --help\n");
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "swtim-soak: unexpected argument '%s'; see "
			"--help\n", argv[optind]);
		return -1;
	}
	if (o->minutes <= 0 || o->steady == 0 || o->progress_s == 0 ||
	    o->periodic == 0 || o->peak_hold_s == 0 ||
	    o->peak_hold_s + SOAK_PEAK_SPREAD_MS / 1000 >=
	    SOAK_ONESHOT_MAX_TMO_NS / NS_PER_S) {
		fprintf(stderr, "soak: --minutes, --steady, --periodic, "
			"--progress and --peak-hold must be positive, the hold "
			"below %" PRIu64 " s; see --help\n",
			SOAK_ONESHOT_MAX_TMO_NS / NS_PER_S -
			SOAK_PEAK_SPREAD_MS / 1000);
		return -1;
	}
	return 0;
}

/* ---- heap and RSS ---- */

static uint64_t
soak_rss_bytes(void)
{
	unsigned long size = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f == NULL)
		return 0;
	if (fscanf(f, "%lu %lu", &size, &resident) != 2)
		resident = 0;
	fclose(f);
	return (uint64_t)resident * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* ---- set-up ---- */

static int
soak_port_cb(uint16_t id, uint8_t event_dev_id, uint8_t *event_port_id,
	     void *conf_arg)
{
	RTE_SET_USED(id);
	RTE_SET_USED(event_dev_id);
	*event_port_id = *(const uint8_t *)conf_arg;
	return 0;
}

static struct rte_ring *
soak_ring(const char *name, uint32_t esize, uint32_t n)
{
	struct rte_ring *r = rte_ring_create_elem(name, esize, n,
						  SOCKET_ID_ANY,
						  RING_F_EXACT_SZ);

	if (r == NULL)
		fprintf(stderr, "soak: ring %s of %u: %s\n", name, n,
			rte_strerror(rte_errno));
	return r;
}

/* Pool, free ring (every timer in it) and adapter of one kind. */
static int
soak_pool_setup(enum soak_pool pool, uint32_t n, const struct swt_evdev *dev)
{
	static uint8_t ports[2];
	struct soak *s = &g.s;
	struct rte_event_timer_adapter_conf c = {
		.event_dev_id = dev->dev_id,
		.timer_adapter_id = pool,
		.socket_id = SOCKET_ID_ANY,
		.clk_src = RTE_EVENT_TIMER_ADAPTER_CPU_CLK,
		.nb_timers = n,
	};
	uint8_t q = pool == SOAK_ONESHOT ? SWT_Q_ATOMIC : SWT_Q_PARALLEL;
	uint32_t i, batch[256], k, done;
	unsigned int l;

	if (pool == SOAK_ONESHOT) {
		c.timer_tick_ns = SOAK_ONESHOT_TICK_NS;
		c.max_tmo_ns = SOAK_ONESHOT_MAX_TMO_NS;
	} else {
		c.timer_tick_ns = SOAK_PERIODIC_TICK_NS;
		c.max_tmo_ns = SOAK_PERIODIC_MAX_TMO_NS;
		c.flags = RTE_EVENT_TIMER_ADAPTER_F_PERIODIC;
	}
	if (soak_pool_init(&s->pools[pool], n, q, swt_queue_sched_type(q),
			   c.timer_tick_ns) != 0) {
		fprintf(stderr, "soak: no memory for %u timers\n", n);
		return -1;
	}
	s->free[pool] = soak_ring(pool == SOAK_ONESHOT ? "soak_free1" :
				  "soak_freep", sizeof(uint32_t), n);
	if (s->free[pool] == NULL)
		return -1;
	for (done = 0; done < n; done += k) {
		k = RTE_MIN(n - done, (uint32_t)RTE_DIM(batch));
		for (i = 0; i < k; i++)
			batch[i] = done + i;
		rte_ring_enqueue_bulk_elem(s->free[pool], batch,
					   sizeof(batch[0]), k, NULL);
	}
	ports[pool] = dev->app_port + pool;
	s->adapters[pool] = swtim_adapter_create_with_driver(&c, soak_port_cb,
			&ports[pool], g.o.driver, NULL);
	if (s->adapters[pool] == NULL) {
		fprintf(stderr, "soak: create (%s): %s\n", g.o.driver,
			rte_strerror(rte_errno));
		return -1;
	}
	for (l = 0; l < SOAK_NB_SERVICE_LCORES; l++)
		if (swt_service_map_only(s->adapters[pool], g.svc[l]) != 0) {
			fprintf(stderr, "soak: cannot map the service\n");
			return -1;
		}
	return 0;
}

static int
soak_setup(void)
{
	const struct swt_evdev_conf dconf = {
		.name = "event_dsw0",
		.nb_app_ports = 2,
		.nb_events_limit = SOAK_EVENTS_LIMIT,
		.app_new_event_threshold = SOAK_PORT_THRESHOLD,
	};
	static struct swt_evdev dev;
	struct soak *s = &g.s;
	unsigned int lcore, i = 0;
	uint32_t periodic_n = 2 * g.o.periodic + 4096;

	RTE_LCORE_FOREACH_WORKER(lcore) {
		if (i < SOAK_NB_SERVICE_LCORES)
			g.svc[i] = lcore;
		else if (i == SOAK_NB_SERVICE_LCORES)
			g.worker_lcore = lcore;
		else
			g.prod[g.nb_prod++] = lcore;
		i++;
	}
	if (rte_lcore_count() < SOAK_MIN_LCORES) {
		fprintf(stderr, "soak: needs %u lcores: main, %u service, a "
			"worker and producers\n", SOAK_MIN_LCORES,
			SOAK_NB_SERVICE_LCORES);
		return -1;
	}
	if (swt_evdev_setup(&dconf, &dev) != 0)
		return -1;
	/* librte_timer's state, which the skiplist driver would otherwise
	 * set up on its first create, is the application's. */
	if (rte_timer_subsystem_init() != 0)
		return -1;
	/* So is swtim's adapter table, a memzone that the first lookup or
	 * create reserves and that stays for the process's life (secondary
	 * processes find the adapters through it): a lookup of an id that
	 * does not exist reserves it before the heap is measured. */
	if (swtim_adapter_lookup(0) != NULL) {
		fprintf(stderr, "soak: adapter 0 exists before the soak\n");
		return -1;
	}
	g.heap_before = swt_heap_bytes();
	s->dev_id = dev.dev_id;
	s->worker_port = SWT_WORKER_PORT;
	s->steady = g.o.steady;
	s->periodic_live = g.o.periodic;
	s->seed = g.o.seed;
	s->peak_spread = g.hz * SOAK_PEAK_SPREAD_MS / MS_PER_S;
	s->peak_hold = g.hz * g.o.peak_hold_s;
	if (soak_pool_setup(SOAK_ONESHOT, (uint32_t)(RTE_MAX(g.o.peak,
			    g.o.steady) + g.o.steady + UINT64_C(200000)),
			    &dev) != 0 ||
	    soak_pool_setup(SOAK_PERIODIC, periodic_n, &dev) != 0)
		return -1;
	s->cancels = soak_ring("soak_cancels", sizeof(uint64_t), 1 << 16);
	s->quarantine = soak_ring("soak_quarantine", sizeof(uint32_t),
				  periodic_n);
	g.q_size = periodic_n;
	g.q = calloc(periodic_n, sizeof(g.q[0]));
	if (s->cancels == NULL || s->quarantine == NULL || g.q == NULL)
		return -1;
	for (i = 0; i < SOAK_NB_SERVICE_LCORES; i++)
		if (rte_service_lcore_start(g.svc[i]) != 0) {
			fprintf(stderr, "soak: service lcore %u\n", g.svc[i]);
			return -1;
		}
	for (i = 0; i < 2; i++)
		if (swtim_adapter_start(s->adapters[i]) != 0) {
			fprintf(stderr, "soak: adapter start\n");
			return -1;
		}
	return 0;
}

static void
soak_sample(void)
{
	g.heap_now = swt_heap_bytes();
	g.rss_now = soak_rss_bytes();
	if (!g.warm)
		return;
	g.heap_max = RTE_MAX(g.heap_max, g.heap_now);
	g.rss_max = RTE_MAX(g.rss_max, g.rss_now);
}

static void
soak_warm_up_ends(void)
{
	g.warm = true;
	g.warm_at = rte_get_timer_cycles();
	g.heap_base = g.heap_max = swt_heap_bytes();
	g.rss_base = g.rss_max = soak_rss_bytes();
	printf("soak: warm-up over after %.0f s: heap %" PRIu64 " bytes, "
	       "rss %" PRIu64 " MiB\n", (double)(g.warm_at - g.start) / g.hz,
	       g.heap_base, g.rss_base >> 20);
}

/* The threads' counts, summed. */
static void
soak_counts_sum(struct soak_counts *sum)
{
	unsigned int i, p;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < g.nb_th; i++) {
		const struct soak_counts *c = &g.th[i].c;

		for (p = 0; p < 2; p++) {
			sum->armed[p] += __atomic_load_n(&c->armed[p],
							 __ATOMIC_RELAXED);
			sum->cancelled[p] += __atomic_load_n(&c->cancelled[p],
							     __ATOMIC_RELAXED);
			sum->expired[p] += __atomic_load_n(&c->expired[p],
							   __ATOMIC_RELAXED);
			soak_hist_sum(&sum->hist[p], &c->hist[p]);
		}
		sum->enospc += __atomic_load_n(&c->enospc, __ATOMIC_RELAXED);
		sum->errors += __atomic_load_n(&c->errors, __ATOMIC_RELAXED);
		soak_faults_sum(&sum->faults, &c->faults);
	}
	sum->errors += g.errors;
	soak_faults_sum(&sum->faults, &g.faults);
}

/* One-shot armings not settled yet, from the counts. */
static uint64_t
soak_outstanding_estimate(const struct soak_counts *c)
{
	uint64_t settled = c->cancelled[SOAK_ONESHOT] +
		c->expired[SOAK_ONESHOT];

	return c->armed[SOAK_ONESHOT] > settled ?
		c->armed[SOAK_ONESHOT] - settled : 0;
}

static void
soak_progress(uint64_t now)
{
	struct soak_counts c;
	uint64_t overdue = 0, outstanding;

	soak_counts_sum(&c);
	outstanding = soak_pool_outstanding(&g.s.pools[SOAK_ONESHOT], now,
			g.hz * SOAK_LOST_BOUND_MS / MS_PER_S, &overdue);
	printf("soak: %5.1f min: %" PRIu64 " armed, %" PRIu64 " cancelled, %"
	       PRIu64 " expired, %" PRIu64 " outstanding (peak %" PRIu64
	       "), %" PRIu64 " overdue, %" PRIu64 " duplicate, %" PRIu64
	       " early, %" PRIu64 " errors, worst lateness %.1f ms, heap %"
	       PRIu64 " bytes (%+" PRId64 " since warm-up), rss %" PRIu64
	       " MiB\n", (double)(now - g.start) / g.hz / 60,
	       c.armed[0] + c.armed[1], c.cancelled[0] + c.cancelled[1],
	       c.expired[0] + c.expired[1], outstanding, g.peak_max, overdue,
	       c.faults.duplicate, c.faults.early, c.errors,
	       (double)RTE_MAX(c.hist[0].max_cycles, c.hist[1].max_cycles) *
	       1000 / g.hz, g.heap_now,
	       g.warm ? (int64_t)(g.heap_now - g.heap_base) : 0,
	       g.rss_now >> 20);
}

/* ---- quarantine ---- */

/*
 * How long before its cancel a periodic timer's periods must have come:
 * SOAK_LOST_BOUND_MS, or twice the worst lateness of periodic events so
 * far when the machine has held the soak back more than that.
 */
static uint64_t
soak_periodic_lag(void)
{
	uint64_t worst = 0, bound = g.hz * SOAK_LOST_BOUND_MS / MS_PER_S;
	unsigned int i;

	for (i = 0; i < g.nb_th; i++)
		worst = RTE_MAX(worst, __atomic_load_n(
			&g.th[i].c.hist[SOAK_PERIODIC].max_cycles,
			__ATOMIC_RELAXED));
	return RTE_MAX(bound, 2 * worst);
}

static void
soak_quarantine_step(uint64_t now, bool all)
{
	struct soak *s = &g.s;
	uint32_t idx[64], n, i;
	uint64_t wait = g.hz * SOAK_QUARANTINE_MS / MS_PER_S;
	uint64_t lag = soak_periodic_lag();

	while ((n = rte_ring_dequeue_burst_elem(s->quarantine, idx,
			sizeof(idx[0]), RTE_DIM(idx), NULL)) != 0)
		for (i = 0; i < n; i++)
			g.q[g.q_tail++ % g.q_size] = idx[i];
	while (g.q_head != g.q_tail) {
		uint32_t x = g.q[g.q_head % g.q_size];

		if (!all && __atomic_load_n(
			&s->pools[SOAK_PERIODIC].slot[x].cancel_tsc,
			__ATOMIC_RELAXED) + wait > now)
			break;
		soak_periodic_judge(&s->pools[SOAK_PERIODIC], x, lag,
				    &g.faults);
		if (rte_ring_enqueue_elem(s->free[SOAK_PERIODIC], &x,
					  sizeof(x)) != 0)
			g.errors++;
		g.q_head++;
	}
}

/* ---- chaos ---- */

static void
soak_sleep_ms(unsigned int ms)
{
	rte_delay_us_sleep(ms * 1000);
}

static int
soak_service_lcores_stop(unsigned int from, unsigned int n)
{
	unsigned int i;

	for (i = from; i < from + n; i++) {
		if (rte_service_lcore_stop(g.svc[i]) != 0)
			return -1;
		/* Until its loop has returned, it cannot be started. */
		rte_eal_wait_lcore(g.svc[i]);
	}
	return 0;
}

static int
soak_service_lcores_start(unsigned int from, unsigned int n)
{
	unsigned int i;

	for (i = from; i < from + n; i++)
		if (rte_service_lcore_start(g.svc[i]) != 0)
			return -1;
	return 0;
}

/* One disturbance of kind, ms long; blocks the main lcore meanwhile. */
static void
soak_chaos_do(enum soak_chaos kind, unsigned int ms)
{
	struct soak *s = &g.s;
	unsigned int which = swt_rand(&g.rnd) % 2;
	int ret = 0;

	g.chaos[kind]++;
	switch (kind) {
	case SOAK_CHAOS_PAUSE:
		s->pause_until = rte_get_timer_cycles() + g.hz * ms / MS_PER_S;
		return;
	case SOAK_CHAOS_ADAPTER:
		ret = swtim_adapter_stop(s->adapters[which]);
		soak_sleep_ms(ms);
		ret |= swtim_adapter_start(s->adapters[which]);
		break;
	case SOAK_CHAOS_SERVICE_ONE:
		ret = soak_service_lcores_stop(which, 1);
		soak_sleep_ms(ms);
		ret |= soak_service_lcores_start(which, 1);
		break;
	default:
		ret = soak_service_lcores_stop(0, SOAK_NB_SERVICE_LCORES);
		soak_sleep_ms(ms);
		ret |= soak_service_lcores_start(0, SOAK_NB_SERVICE_LCORES);
		break;
	}
	if (ret != 0) {
		g.errors++;
		fprintf(stderr, "soak: %s: failed\n", soak_chaos_names[kind]);
	}
}

/* ---- the main loop ---- */

/* Sum the counts, keep the estimate the producers steer by. */
static void
soak_steer(void)
{
	struct soak_counts c;
	uint64_t out, peak;

	soak_counts_sum(&c);
	out = soak_outstanding_estimate(&c);
	g.s.outstanding = out;
	peak = __atomic_load_n(&g.s.pools[SOAK_ONESHOT].peak_outstanding,
			       __ATOMIC_RELAXED);
	g.s.steady_outstanding = out > peak ? out - peak : 0;
	g.peak_max = RTE_MAX(g.peak_max, out);
}

/* A peak being filled. */
static struct {
	uint64_t started, ended;
} soak_fill;

/*
 * The main lcore's step while a peak fills: it ends when the peak is
 * there, or when its first timers fall due (the fill was too slow for
 * the hold: the peak is not reached, and the soak fails).
 */
static void
soak_peak_fill_step(uint64_t now, uint64_t *warm_next)
{
	struct soak *s = &g.s;

	if (!s->peak_fill)
		return;
	if (s->outstanding >= g.o.peak) {
		s->peak_fill = false;
		g.peaks_reached++;
		printf("soak: peak %" PRIu64 ": %" PRIu64 " one-shot timers "
		       "outstanding after %.1f s of arming\n", g.peaks,
		       s->outstanding,
		       (double)(now - soak_fill.started) / g.hz);
	} else if (now >= soak_fill.started + s->peak_hold) {
		s->peak_fill = false;
		printf("soak: peak %" PRIu64 " not reached: %" PRIu64 " of %"
		       PRIu64 " outstanding after %u s (see --peak-hold)\n",
		       g.peaks, s->outstanding, g.o.peak, g.o.peak_hold_s);
	} else {
		return;
	}
	soak_fill.ended = now;
	/* The warm-up's disturbances fall among the peak's expiries. */
	if (!g.warm)
		*warm_next = soak_fill.started + s->peak_hold +
			s->peak_spread / 8;
}

static void
soak_peak_start(uint64_t now)
{
	g.peaks++;
	soak_fill.started = now;
	g.s.peak_fill = true;
}

/* Whether a peak started now ends (its timers due) before the run. */
static bool
soak_peak_fits(uint64_t at)
{
	return at + g.s.peak_hold + g.s.peak_spread +
		SOAK_PEAK_MARGIN_S * g.hz <= g.end;
}

static void
soak_run(void)
{
	struct soak *s = &g.s;
	const uint64_t ms = g.hz / MS_PER_S;
	uint64_t now = rte_get_timer_cycles();
	uint64_t next_peak = now + ms * 1000, drained_at = 0;
	uint64_t next_chaos = UINT64_MAX, next_sample = now;
	uint64_t next_progress = now + g.o.progress_s * g.hz;
	unsigned int warm_step = 0;
	uint64_t warm_next = UINT64_MAX;

	if (g.o.peak == 0 || !soak_peak_fits(next_peak)) {
		if (g.o.peak != 0)
			printf("soak: no time for a peak in %.1f minutes\n",
			       g.o.minutes);
		next_peak = UINT64_MAX;
		warm_next = now + 2000 * ms;	/* the chaos, without a peak */
	}
	while ((now = rte_get_timer_cycles()) < g.end) {
		soak_steer();
		soak_peak_fill_step(now, &warm_next);
		if (now >= next_peak) {
			soak_peak_start(now);
			next_peak = now + SOAK_PEAK_EVERY_S * g.hz;
			if (!soak_peak_fits(next_peak))
				next_peak = UINT64_MAX;
		}
		/*
		 * Warm-up: while the first peak falls due, one disturbance
		 * of each kind, SOAK_CHAOS_WARMUP_MS long; its heap and RSS
		 * once the peak has drained are the reference.
		 */
		if (!g.warm && now >= warm_next && !s->peak_fill) {
			if (warm_step < SOAK_CHAOS_KINDS) {
				soak_chaos_do((enum soak_chaos)warm_step++,
					      SOAK_CHAOS_WARMUP_MS);
				warm_next = now + s->peak_spread / 5;
			} else {
				drained_at = RTE_MAX(soak_fill.ended +
					s->peak_hold + s->peak_spread, now) +
					SOAK_PEAK_DRAIN_MS * ms;
				if (g.peaks == 0)
					drained_at = now;
				warm_next = UINT64_MAX;
			}
		}
		if (!g.warm && drained_at != 0 && now >= drained_at) {
			soak_warm_up_ends();
			next_chaos = now + SOAK_CHAOS_GAP_MIN_MS * ms;
		}
		if (now >= next_chaos) {
			soak_chaos_do((enum soak_chaos)(swt_rand(&g.rnd) %
							SOAK_CHAOS_KINDS),
				      swt_rand_range(&g.rnd, 5,
						     SOAK_CHAOS_MAX_MS));
			next_chaos = rte_get_timer_cycles() + ms *
				swt_rand_range(&g.rnd, SOAK_CHAOS_GAP_MIN_MS,
					       SOAK_CHAOS_GAP_MAX_MS);
		}
		soak_quarantine_step(now, false);
		if (now >= next_sample) {
			soak_sample();
			next_sample = now + SOAK_SAMPLE_MS * ms;
		}
		if (now >= next_progress) {
			soak_progress(now);
			next_progress += g.o.progress_s * g.hz;
		}
		soak_sleep_ms(SOAK_STEP_MS);
	}
	if (s->peak_fill) {
		s->peak_fill = false;
		printf("soak: the run ended while peak %" PRIu64 " filled\n",
		       g.peaks);
	}
	if (!g.warm) {
		printf("soak: the run ended before the warm-up did\n");
		g.errors++;
		soak_warm_up_ends();
	}
}

/* Wait, stepping the quarantine, until cond() or timeout_ms. */
static bool
soak_wait(bool (*cond)(void), uint64_t timeout_ms)
{
	uint64_t end = rte_get_timer_cycles() + g.hz * timeout_ms / MS_PER_S;

	while (!cond()) {
		if (rte_get_timer_cycles() > end)
			return false;
		soak_quarantine_step(rte_get_timer_cycles(), false);
		soak_sleep_ms(SOAK_STEP_MS);
	}
	return true;
}

static bool
soak_no_cancels_left(void)
{
	return rte_ring_count(g.s.cancels) == 0;
}

/* Every one-shot arming settled, or those left lost for good. */
static bool
soak_oneshots_settled(void)
{
	uint64_t overdue, n;

	n = soak_pool_outstanding(&g.s.pools[SOAK_ONESHOT],
				  rte_get_timer_cycles(),
				  g.hz * SOAK_LOST_BOUND_MS / MS_PER_S,
				  &overdue);
	return n == overdue;
}

static bool
soak_quarantine_empty(void)
{
	return g.q_head == g.q_tail && rte_ring_count(g.s.quarantine) == 0;
}

static uint64_t soak_quiet_from;

/* The device has given nothing for SOAK_QUIET_MS. */
static bool
soak_device_quiet(void)
{
	struct soak_counts c;
	static uint64_t last_expired;
	uint64_t now = rte_get_timer_cycles(), e;

	soak_counts_sum(&c);
	e = c.expired[0] + c.expired[1];
	if (e != last_expired || soak_quiet_from == 0) {
		last_expired = e;
		soak_quiet_from = now;
	}
	return now - soak_quiet_from > g.hz * SOAK_QUIET_MS / MS_PER_S;
}

/*
 * The end: producers end their periodic timers and leave, the cancels
 * handed over are done, the one-shot timers fall due, the quarantine
 * empties, the device falls quiet; then the threads leave.
 */
static void
soak_drain(void)
{
	struct soak *s = &g.s;
	unsigned int i;
	uint64_t longest = SOAK_ONESHOT_MAX_TMO_NS / 1000000 +
		SOAK_LOST_BOUND_MS;

	printf("soak: draining\n");
	s->pause_until = 0;
	s->phase = SOAK_STOPPING;
	for (i = 0; i < g.nb_prod; i++)
		if (rte_eal_wait_lcore(g.prod[i]) != 0)
			g.errors++;
	if (!soak_wait(soak_no_cancels_left, 10000))
		g.errors++;
	s->cancellers_quit = true;
	pthread_join(g.non_eal, NULL);
	s->phase = SOAK_DRAINING;
	/* Anything handed over meanwhile is the worker's. */
	if (!soak_wait(soak_no_cancels_left, 10000))
		g.errors++;
	soak_wait(soak_oneshots_settled, longest);
	soak_wait(soak_quarantine_empty, 2 * SOAK_QUARANTINE_MS);
	soak_wait(soak_device_quiet, 10000);
	soak_quarantine_step(0, true);
	s->phase = SOAK_DONE;
	rte_eal_wait_lcore(g.worker_lcore);
}

/* The adapters' counts against what the worker received. */
static void
soak_stats_check(const struct soak_counts *c)
{
	struct rte_event_timer_adapter_stats st;
	unsigned int p;

	for (p = 0; p < 2; p++) {
		if (swtim_adapter_stats_get(g.s.adapters[p], &st) != 0) {
			g.errors++;
			continue;
		}
		printf("soak: adapter %u: %" PRIu64 " expired, %" PRIu64
		       " enqueued, %" PRIu64 " retried, %" PRIu64 " dropped, %"
		       PRIu64 " ticks\n", p, st.evtim_exp_count,
		       st.ev_enq_count, st.evtim_retry_count,
		       st.evtim_drop_count, st.adapter_tick_count);
		if (st.ev_enq_count != c->expired[p] ||
		    st.evtim_exp_count != st.ev_enq_count ||
		    st.evtim_drop_count != 0) {
			fprintf(stderr, "soak: adapter %u's counts do not "
				"match the %" PRIu64 " events received\n", p,
				c->expired[p]);
			g.errors++;
		}
	}
	if (c->armed[SOAK_PERIODIC] != c->cancelled[SOAK_PERIODIC]) {
		fprintf(stderr, "soak: %" PRIu64 " periodic armings, %" PRIu64
			" cancelled\n", c->armed[SOAK_PERIODIC],
			c->cancelled[SOAK_PERIODIC]);
		g.errors++;
	}
}

/*
 * Judge the run; the last line goes to last (printed once everything
 * else, freeing the adapters included, has had its say).
 */
static bool
soak_report(char *last, size_t len)
{
	struct soak_counts c;
	uint64_t lost, unsettled_periodic, heap_growth, rss_growth;
	unsigned int k;
	bool ok;

	lost = soak_pool_outstanding(&g.s.pools[SOAK_ONESHOT], 0, UINT64_MAX,
				     NULL);
	unsettled_periodic = soak_pool_outstanding(&g.s.pools[SOAK_PERIODIC],
						   0, UINT64_MAX, NULL);
	g.faults.lost += lost + unsettled_periodic;
	soak_sample();
	soak_counts_sum(&c);
	soak_stats_check(&c);
	soak_counts_sum(&c);
	heap_growth = g.heap_now > g.heap_base ? g.heap_now - g.heap_base : 0;
	rss_growth = g.rss_now > g.rss_base ? g.rss_now - g.rss_base : 0;

	soak_hist_print("one-shot", &c.hist[SOAK_ONESHOT]);
	soak_hist_print("periodic", &c.hist[SOAK_PERIODIC]);
	printf("soak: one-shot: %" PRIu64 " armed, %" PRIu64 " cancelled, %"
	       PRIu64 " expired, %" PRIu64 " refused for a full adapter\n",
	       c.armed[0], c.cancelled[0], c.expired[0], c.enospc);
	printf("soak: periodic: %" PRIu64 " armed, %" PRIu64 " cancelled, %"
	       PRIu64 " expiry events\n", c.armed[1], c.cancelled[1],
	       c.expired[1]);
	printf("soak: peaks: %" PRIu64 " of %" PRIu64 " reached %" PRIu64
	       " outstanding (highest %" PRIu64 ")\n", g.peaks_reached,
	       g.peaks, g.o.peak, g.peak_max);
	for (k = 0; k < SOAK_CHAOS_KINDS; k++)
		printf("soak: %s: %" PRIu64 "\n", soak_chaos_names[k],
		       g.chaos[k]);
	printf("soak: heap %" PRIu64 " bytes after warm-up, %" PRIu64
	       " at the end, %" PRIu64 " at most (tolerance %u); rss %"
	       PRIu64 " MiB, %" PRIu64 " MiB, %" PRIu64 " MiB (tolerance %"
	       PRIu64 " MiB)\n", g.heap_base, g.heap_now, g.heap_max,
	       SOAK_HEAP_TOLERANCE, g.rss_base >> 20, g.rss_now >> 20,
	       g.rss_max >> 20, SOAK_RSS_TOLERANCE >> 20);
	ok = c.errors == 0 && c.faults.lost == 0 && c.faults.duplicate == 0 &&
		c.faults.early == 0 && c.faults.bad_state == 0 &&
		c.faults.unknown == 0;
	if (c.errors != 0 || c.faults.bad_state != 0 || c.faults.unknown != 0)
		printf("soak: FAIL: %" PRIu64 " errors, %" PRIu64 " events of "
		       "timers not NOT_ARMED, %" PRIu64 " unknown events\n",
		       c.errors, c.faults.bad_state, c.faults.unknown);
	if (heap_growth > SOAK_HEAP_TOLERANCE ||
	    rss_growth > SOAK_RSS_TOLERANCE) {
		printf("soak: FAIL: heap or rss grew after warm-up\n");
		ok = false;
	}
	if (g.peaks_reached != g.peaks) {
		printf("soak: FAIL: a peak was not reached\n");
		ok = false;
	}
	snprintf(last, len, "soak: %" PRIu64 " armed, %" PRIu64 " cancelled, %"
		 PRIu64 " expired, %" PRIu64 " lost, %" PRIu64 " duplicate, %"
		 PRIu64 " early, heap growth %" PRIu64 " bytes",
		 c.armed[0] + c.armed[1], c.cancelled[0] + c.cancelled[1],
		 c.expired[0] + c.expired[1], c.faults.lost,
		 c.faults.duplicate, c.faults.early, heap_growth);
	return ok;
}

/*
 * Free what the soak made: the heap must be back where it was before
 * the adapters were created.
 */
static bool
soak_teardown(void)
{
	unsigned int i;
	uint64_t heap;
	bool ok = true;

	for (i = 0; i < 2; i++) {
		if (swtim_adapter_stop(g.s.adapters[i]) != 0 ||
		    swtim_adapter_free(g.s.adapters[i]) != 0)
			ok = false;
		rte_ring_free(g.s.free[i]);
	}
	rte_ring_free(g.s.cancels);
	rte_ring_free(g.s.quarantine);
	heap = swt_heap_bytes();
	printf("soak: adapters freed: heap %" PRIu64 " bytes, %" PRIu64
	       " before they were created\n", heap, g.heap_before);
	if (!ok || heap != g.heap_before) {
		printf("soak: FAIL: free left the heap %+" PRId64 " bytes\n",
		       (int64_t)(heap - g.heap_before));
		return false;
	}
	return true;
}

static int
soak_threads_start(void)
{
	unsigned int i;

	g.nb_th = g.nb_prod + 2;	/* producers, worker, non-EAL */
	g.th = calloc(g.nb_th, sizeof(g.th[0]));
	if (g.th == NULL)
		return -1;
	for (i = 0; i < g.nb_th; i++) {
		g.th[i].s = &g.s;
		g.th[i].id = i;
		g.th[i].rnd = (g.o.seed + (i + 1) *
			       UINT64_C(0x9E3779B97F4A7C15)) | 1;
	}
	if (rte_eal_remote_launch(soak_worker_run, &g.th[g.nb_prod],
				  g.worker_lcore) != 0)
		return -1;
	if (pthread_create(&g.non_eal, NULL, soak_non_eal_run,
			   &g.th[g.nb_prod + 1]) != 0)
		return -1;
	for (i = 0; i < g.nb_prod; i++)
		if (rte_eal_remote_launch(soak_producer_run, &g.th[i],
					  g.prod[i]) != 0)
			return -1;
	return 0;
}

int
main(int argc, char **argv)
{
	char last[256];
	int nargs;
	unsigned int i;
	bool ok;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i < (unsigned int)argc; i++)
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			soak_usage(argv[0]);
			return 0;
		}
	nargs = rte_eal_init(argc, argv);
	if (nargs < 0) {
		fprintf(stderr, "soak: rte_eal_init: %s\n",
			rte_strerror(rte_errno));
		return 1;
	}
	/* EAL leaves the program's name in front of what it did not take. */
	if (soak_opts_parse(argc - nargs, argv + nargs, &g.o) != 0)
		return 2;
	g.hz = rte_get_timer_hz();
	g.rnd = g.o.seed | 1;
	printf("soak: driver %s, seed 0x%" PRIx64 ", %.1f minutes, peaks of %"
	       PRIu64 ", steady %" PRIu64 ", %u periodic, %u lcores\n",
	       g.o.driver, g.o.seed, g.o.minutes, g.o.peak, g.o.steady,
	       g.o.periodic, rte_lcore_count());
	if (soak_setup() != 0 || soak_threads_start() != 0) {
		fprintf(stderr, "soak: set-up failed\n");
		return 1;
	}
	g.start = rte_get_timer_cycles();
	g.end = g.start + (uint64_t)(g.o.minutes * 60 * g.hz);
	soak_run();
	soak_drain();
	ok = soak_report(last, sizeof(last));
	ok &= soak_teardown();
	rte_event_dev_stop(g.s.dev_id);
	rte_event_dev_close(g.s.dev_id);
	rte_eal_cleanup();
	printf("%s\n", last);
	return ok ? 0 : 1;
}
