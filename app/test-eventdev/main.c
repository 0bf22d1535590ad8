/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * swtim-test-eventdev: dpdk-test-eventdev's event timer benchmark
 * (perf_queue/perf_atq with --prod_type_timerdev[_burst]) for swtim and
 * DPDK's own software adapter, measuring more: arm latency percentiles,
 * expiry lateness, lost/duplicate/early expiries, steady throughput and
 * the service lcore's cost.
 *
 * The main lcore sets everything up, launches workers then producers,
 * and sleeps, waking every few milliseconds to sample the counters and
 * once a second to print the rate, until every armed timer's expiry has
 * been received, nothing has moved for --stall-sec, or a signal came.
 */

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eventdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mempool.h>
#include <rte_service.h>

#include "evt_eventdev.h"
#include "evt_options.h"
#include "evt_report.h"
#include "evt_service.h"
#include "evt_test.h"

#define APP "swtim-test-eventdev"

/* The main lcore's sleep between two samples. */
#define SAMPLE_US 10000
/* After the last expiry, how long workers keep watching for duplicates. */
#define GRACE_US 100000

static struct evt_test *the_test;

static void
on_signal(int sig)
{
	if (the_test != NULL) {
		the_test->interrupted = sig;
		the_test->done = 1;
	}
}

static void
usage_hook(const char *prgname)
{
	printf("\n");
	evt_options_usage(prgname);
}

static void
rec_init(struct rte_mempool *mp, void *arg, void *obj, unsigned int idx)
{
	RTE_SET_USED(mp);
	RTE_SET_USED(arg);
	RTE_SET_USED(idx);
	/* The low bits of its address carry an arming's generation. */
	RTE_VERIFY(((uintptr_t)obj & EVT_REC_GEN_MASK) == 0);
	memset(obj, 0, sizeof(struct evt_timer_rec));
}

static int
setup_lcores(struct evt_test *t)
{
	const struct evt_options *opt = t->opt;
	unsigned int l, n;

	t->nb_producers = evt_nr_lcores(opt->plcores);
	t->nb_workers = evt_nr_lcores(opt->wlcores);
	t->prod = rte_zmalloc("evt_prod", sizeof(*t->prod) * t->nb_producers,
			      RTE_CACHE_LINE_SIZE);
	t->workers = rte_zmalloc("evt_workers",
				 sizeof(*t->workers) * t->nb_workers,
				 RTE_CACHE_LINE_SIZE);
	if (t->prod == NULL || t->workers == NULL) {
		fprintf(stderr, APP ": out of memory for lcore state\n");
		return -ENOMEM;
	}
	n = 0;
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		struct evt_producer *p;

		if (!opt->plcores[l])
			continue;
		p = &t->prod[n];
		p->t = t;
		p->lcore = l;
		p->idx = (uint16_t)n;
		/* Stage 0 of this producer's pipeline. */
		p->queue_id = (uint8_t)(opt->test == EVT_TEST_PERF_ATQ ? n :
					n * t->nb_stages);
		p->nb_timers = opt->nb_timers;
		latency_hist_init(&p->arm_hist);
		n++;
	}
	n = 0;
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		if (!opt->wlcores[l])
			continue;
		t->workers[n].t = t;
		t->workers[n].lcore = l;
		latency_hist_init(&t->workers[n].late_hist);
		n++;
	}
	return 0;
}

static int
setup_pool(struct evt_test *t)
{
	const struct evt_options *opt = t->opt;
	unsigned int cache;
	int socket = opt->socket_id == SOCKET_ID_ANY ? (int)rte_socket_id() :
		opt->socket_id;

	/*
	 * Upstream gives each worker's cache a third of the pool, but a
	 * cache holds up to 1.5 times its size: with a small pool the
	 * workers' caches held every timer and the producers starved. So
	 * that all the caches (workers put, producers get) hold at most half
	 * the pool: pool / (3 x lcores), at most the maximum.
	 */
	cache = RTE_MIN((unsigned int)RTE_MEMPOOL_CACHE_MAX_SIZE,
			opt->pool_sz / (3 * (t->nb_workers + t->nb_producers)));
	t->pool = rte_mempool_create("evt_timers", opt->pool_sz,
				     sizeof(struct evt_timer_rec), cache, 0,
				     NULL, NULL, rec_init, NULL, socket, 0);
	if (t->pool == NULL) {
		fprintf(stderr, APP ": cannot create a pool of %u timers of %zu"
			" bytes: %s (raise EAL -m)\n", opt->pool_sz,
			sizeof(struct evt_timer_rec), rte_strerror(rte_errno));
		return -ENOMEM;
	}
	return 0;
}

/*
 * --adapter-ports: give adapter i its other ports, each a port added to
 * the device the way the port callback adds the first.
 */
static int
adapter_ports_add(struct evt_test *t, uint8_t i)
{
	uint32_t k;
	uint8_t port;
	int ret;

	for (k = 1; k < t->opt->adapter_ports; k++) {
		ret = evt_eventdev_adapter_port(i, t->dev_id, &port, t);
		if (ret < 0)
			return ret;
		/* Options give DPDK's adapter one port (evt_options.c). */
		ret = t->impl->port_add != NULL ?
			t->impl->port_add(t->adapters[i], port) : -ENOTSUP;
		if (ret < 0) {
			fprintf(stderr, APP ": giving adapter %u port %u: %s\n",
				i, port, rte_strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static int
setup_adapters(struct evt_test *t, struct evt_run *r)
{
	const struct evt_options *opt = t->opt;
	struct rte_event_timer_adapter_info info;
	uint64_t max_ticks;
	uint32_t sid;
	uint8_t i;
	int ret;

	for (i = 0; i < opt->nb_timer_adptrs; i++) {
		struct rte_event_timer_adapter_conf conf;
		char what[32];

		memset(&conf, 0, sizeof(conf));
		conf.event_dev_id = t->dev_id;
		conf.timer_adapter_id = i;
		conf.socket_id = opt->socket_id == SOCKET_ID_ANY ?
			(int)rte_socket_id() : opt->socket_id;
		conf.clk_src = RTE_EVENT_TIMER_ADAPTER_CPU_CLK;
		conf.timer_tick_ns = opt->timer_tick_nsec;
		conf.max_tmo_ns = opt->max_tmo_nsec;
		/* As upstream: the adapter holds as many as the pool. */
		conf.nb_timers = opt->pool_sz;
		conf.flags = RTE_EVENT_TIMER_ADAPTER_F_ADJUST_RES;
		if (t->nb_producers == 1)
			conf.flags |= RTE_EVENT_TIMER_ADAPTER_F_SP_PUT;
		t->adapters[i] = adapter_impl_create(t->impl, &conf,
			opt->library_port ? NULL : evt_eventdev_adapter_port, t,
			opt->swtim_driver[0] != '\0' ? opt->swtim_driver : NULL,
			opt->swtim_args);
		if (t->adapters[i] == NULL) {
			ret = rte_errno;
			fprintf(stderr, APP ": creating %s adapter %u: %s\n",
				t->impl->name, i, rte_strerror(ret));
			/* The library has named the driver or option. */
			if (ret == EINVAL && (opt->swtim_driver_set ||
					      opt->swtim_args_set)) {
				fprintf(stderr, APP ": check --swtim-driver=%s"
					" --swtim-args=%s\n", opt->swtim_driver,
					opt->swtim_args);
				t->bad_option = true;
			}
			return -ret;
		}
		t->nb_adapters = i + 1;
		ret = adapter_ports_add(t, i);
		if (ret < 0)
			return ret;
		ret = t->impl->get_info(t->adapters[i], &info);
		if (ret < 0) {
			fprintf(stderr, APP ": adapter %u info: %s\n", i,
				rte_strerror(-ret));
			return ret;
		}
		if (i == 0)
			t->tick_ns = info.min_resolution_ns;
		/* Adapters with an internal port (hardware) have no service. */
		if (info.caps & RTE_EVENT_TIMER_ADAPTER_CAP_INTERNAL_PORT)
			continue;
		ret = t->impl->service_id_get(t->adapters[i], &sid);
		if (ret < 0) {
			fprintf(stderr, APP ": adapter %u service: %s\n", i,
				rte_strerror(-ret));
			return ret;
		}
		snprintf(what, sizeof(what), "adapter%u", i);
		ret = evt_service_add(&r->svc, sid, what,
				      opt->adapter_svc_lcores);
		if (ret == -E2BIG) {
			fprintf(stderr, APP ": --adapter-service-lcores=%u: EAL"
				" has only %d service lcore(s); give more with"
				" -S or -s\n", opt->adapter_svc_lcores,
				rte_service_lcore_count());
			t->bad_option = true;
			return ret;
		}
		if (ret < 0) {
			fprintf(stderr, APP ": mapping adapter %u's service: %s%s\n",
				i, rte_strerror(-ret), ret == -ENOENT ?
				"; give EAL a service lcore with -s or -S"
				" (after --lcores)" : "");
			return ret;
		}
	}
	t->timeout_ticks = evt_ns_to_ticks(t, opt->expiry_nsec);
	max_ticks = evt_ns_to_ticks(t, opt->expiry_nsec +
				    opt->timeout_spread_nsec);
	if (max_ticks * t->tick_ns > opt->max_tmo_nsec) {
		fprintf(stderr, APP ": with the adapter's tick of %" PRIu64
			" ns, a timeout of %" PRIu64 " ticks exceeds"
			" --max_tmo_nsec %" PRIu64 "\n", t->tick_ns,
			max_ticks, opt->max_tmo_nsec);
		return -ERANGE;
	}
	return 0;
}

static void
print_progress(const struct evt_test *t, uint64_t processed_delta,
	       double *sum_mpps, uint64_t *nb_samples)
{
	double mpps = (double)processed_delta / 1e6;
	uint64_t fwd = 0, processed = 0;
	uint32_t w;

	*sum_mpps += mpps;
	(*nb_samples)++;
	if (isatty(STDOUT_FILENO))
		fputs("\r", stdout);
	printf("%.3f mpps avg %.3f mpps", mpps, *sum_mpps / (double)*nb_samples);
	if (t->opt->fwd_latency) {
		for (w = 0; w < t->nb_workers; w++) {
			fwd += __atomic_load_n(&t->workers[w].fwd_cycles,
					       __ATOMIC_RELAXED);
			processed += __atomic_load_n(&t->workers[w].processed,
						     __ATOMIC_RELAXED);
		}
		if (processed)
			printf(" [avg fwd latency %.3f us]",
			       (double)fwd / (double)processed *
			       t->ns_per_cycle / 1000.0);
	}
	fputs(isatty(STDOUT_FILENO) ? " " : "\n", stdout);
	fflush(stdout);
}

/* Sleep and watch until the run is over. */
static void
supervise(struct evt_test *t, struct evt_run *r)
{
	const uint64_t second = t->hz;
	const uint64_t stall = t->opt->stall_sec * t->hz;
	uint64_t last_print, last_move, progress, last_progress = 0;
	uint64_t printed_processed = 0, nb_prints = 0;
	double sum_mpps = 0;
	bool oom = false;

	last_print = last_move = r->launch_tsc;
	while (!t->done) {
		uint64_t armed = 0, received = 0, processed = 0, now;
		bool finished = true;
		uint32_t i;

		rte_delay_us_sleep(SAMPLE_US);
		now = rte_get_timer_cycles();
		/* finished first: once it is seen, armed is final. */
		for (i = 0; i < t->nb_producers; i++) {
			finished &= __atomic_load_n(&t->prod[i].finished,
						    __ATOMIC_ACQUIRE);
			armed += __atomic_load_n(&t->prod[i].armed,
						 __ATOMIC_RELAXED);
		}
		for (i = 0; i < t->nb_workers; i++) {
			received += __atomic_load_n(&t->workers[i].received,
						    __ATOMIC_RELAXED);
			processed += __atomic_load_n(&t->workers[i].processed,
						     __ATOMIC_RELAXED);
		}
		if (!oom && !evt_run_sample(r, t, now)) {
			fprintf(stderr, APP ": out of memory for samples\n");
			oom = true;
		}
		if (t->opt->verbose_level > 0 && now - last_print >= second) {
			print_progress(t, processed - printed_processed,
				       &sum_mpps, &nb_prints);
			printed_processed = processed;
			last_print += second;
			if (now - last_print >= second)
				last_print = now;
		}
		if (finished && received >= armed && processed >= received) {
			r->complete = true;
			break;
		}
		progress = armed + received + processed;
		if (progress != last_progress || now < t->load_end_tsc) {
			last_progress = progress;
			last_move = now;
		} else if (now - last_move > stall) {
			r->stalled = true;
			break;
		}
	}
	r->end_tsc = rte_get_timer_cycles();
	/* A complete run ends with its last event, not with the sample
	 * (every SAMPLE_US) that saw it: short runs would read long. */
	if (r->complete) {
		uint64_t last = 0;
		uint32_t i;

		for (i = 0; i < t->nb_workers; i++)
			last = RTE_MAX(last, __atomic_load_n(
				&t->workers[i].last_tsc, __ATOMIC_ACQUIRE));
		if (last > r->launch_tsc && last < r->end_tsc)
			r->end_tsc = last;
	}
	r->interrupted = t->interrupted != 0;
	if (t->opt->verbose_level > 0 && nb_prints > 0 &&
	    isatty(STDOUT_FILENO))
		printf("\n");
	if (r->stalled)
		fprintf(stderr, APP ": nothing moved for %" PRIu64 " s;"
			" stopping\n", t->opt->stall_sec);
	if (r->stalled && t->opt->verbose_level > 1)
		rte_event_dev_dump(t->dev_id, stdout);
}

/* CPU time of the service, worker and producer lcores' threads. */
static void
snapshot_lcores(struct evt_test *t, struct evt_run *r, int which)
{
	uint32_t i;

	evt_service_snapshot(&r->svc, which);
	for (i = 0; i < t->nb_workers; i++)
		evt_lcore_cpu_snapshot(&r->wcpu[i], which);
	for (i = 0; i < t->nb_producers; i++)
		evt_lcore_cpu_snapshot(&r->pcpu[i], which);
}

static int
launch(struct evt_test *t)
{
	uint32_t i;
	int ret;

	for (i = 0; i < t->nb_workers; i++) {
		ret = rte_eal_remote_launch(evt_worker_main, &t->workers[i],
					    t->workers[i].lcore);
		if (ret < 0) {
			fprintf(stderr, APP ": launching worker lcore %u: %s\n",
				t->workers[i].lcore, rte_strerror(-ret));
			return ret;
		}
	}
	for (i = 0; i < t->nb_producers; i++) {
		ret = rte_eal_remote_launch(evt_producer_main, &t->prod[i],
					    t->prod[i].lcore);
		if (ret < 0) {
			fprintf(stderr, APP ": launching producer lcore %u: %s\n",
				t->prod[i].lcore, rte_strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/* Split argv at the first "--": EAL's part and ours. */
static int
split_args(int argc, char **argv, int *eal_argc, int *app_argc,
	   char ***app_argv)
{
	char **a;
	int i, sep = argc;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			sep = i;
			break;
		}
	}
	a = calloc((size_t)argc + 1, sizeof(*a));
	if (a == NULL)
		return -ENOMEM;
	a[0] = argv[0];
	*app_argc = 1;
	for (i = sep + 1; i < argc; i++)
		a[(*app_argc)++] = argv[i];
	/* Without "--", --help asks for this application's help (which
	 * says where EAL's arguments go), not for EAL's. */
	for (i = 1; i < sep && sep == argc; i++) {
		if (strcmp(argv[i], "--help") == 0) {
			a[(*app_argc)++] = argv[i];
			break;
		}
	}
	*eal_argc = sep;
	*app_argv = a;
	return 0;
}

int
main(int argc, char **argv)
{
	static struct evt_options opt;
	static struct evt_test test;
	static struct evt_run run;
	struct evt_test *t = &test;
	struct evt_run *r = &run;
	struct rte_event_dev_info dinfo;
	int eal_argc, app_argc, ret, rc = EXIT_FAILURE;
	bool dev_started = false, pass = false, stopped = false;
	uint8_t nb_started = 0;
	char **app_argv;
	uint32_t sid;
	uint8_t i;

	evt_options_default(&opt);
	if (split_args(argc, argv, &eal_argc, &app_argc, &app_argv) < 0)
		return EXIT_FAILURE;
	ret = evt_options_parse(&opt, app_argc, app_argv);
	free(app_argv);
	if (ret == 1)
		return EXIT_SUCCESS;
	if (ret < 0)
		return EVT_EXIT_USAGE;

	rte_set_application_usage_hook(usage_hook);
	ret = rte_eal_init(eal_argc, argv);
	if (ret < 0) {
		fprintf(stderr, APP ": EAL initialisation failed: %s\n",
			rte_strerror(rte_errno));
		return rte_errno == EINVAL ? EVT_EXIT_USAGE : EXIT_FAILURE;
	}
	if (evt_options_check(&opt) < 0) {
		rte_eal_cleanup();
		return EVT_EXIT_USAGE;
	}

	memset(t, 0, sizeof(*t));
	memset(r, 0, sizeof(*r));
	r->dev_service = UINT32_MAX;
	t->opt = &opt;
	t->dev_id = opt.dev_id;
	t->nb_stages = opt.nb_stages;
	memcpy(t->sched_type_list, opt.sched_type_list,
	       sizeof(t->sched_type_list));
	t->impl = opt.adapter == EVT_ADAPTER_DPDK ? &adapter_impl_dpdk :
		&adapter_impl_swtim;
	t->hz = rte_get_timer_hz();
	t->ns_per_cycle = 1e9 / (double)t->hz;
	the_test = t;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	if (rte_event_dev_info_get(t->dev_id, &dinfo) == 0)
		snprintf(r->dev_name, sizeof(r->dev_name), "%s",
			 dinfo.driver_name);

	if (setup_lcores(t) < 0 || setup_pool(t) < 0 ||
	    evt_eventdev_setup(t) < 0 || setup_adapters(t, r) < 0)
		goto out;
	/* A device that schedules from a service (event_sw) gets one. */
	if (evt_eventdev_service_id(t, &sid) == 0) {
		ret = evt_service_add(&r->svc, sid, "eventdev", 1);
		if (ret < 0) {
			fprintf(stderr, APP ": mapping the event device's"
				" service: %s%s\n", rte_strerror(-ret),
				ret == -ENOENT ? "; give EAL a service lcore"
				" with -s or -S (after --lcores)" : "");
			goto out;
		}
		r->dev_service = sid;
	}
	ret = rte_event_dev_start(t->dev_id);
	if (ret < 0) {
		fprintf(stderr, APP ": starting event device %u: %s\n",
			t->dev_id, rte_strerror(-ret));
		goto out;
	}
	dev_started = true;
	ret = evt_service_lcores_start(&r->svc);
	if (ret < 0) {
		fprintf(stderr, APP ": starting service lcores: %s\n",
			rte_strerror(-ret));
		goto out;
	}
	for (i = 0; i < t->nb_adapters; i++) {
		ret = t->impl->start(t->adapters[i]);
		if (ret < 0) {
			fprintf(stderr, APP ": starting adapter %u: %s\n", i,
				rte_strerror(-ret));
			goto out;
		}
		nb_started++;
	}
	if (opt.stall_sec == 0)
		opt.stall_sec = EVT_STALL_SLACK_S +
			(opt.max_tmo_nsec + 999999999) / 1000000000;

	if (opt.verbose_level > 0) {
		printf("swtim-test-eventdev on %s (device %u), %u service"
		       " lcore(s) used, TSC %.3f GHz\n", r->dev_name,
		       t->dev_id, r->svc.nb_lc, (double)t->hz / 1e9);
		evt_options_dump(&opt);
		printf("\t%-20s : %" PRIu64 " ns\n", "tick in force",
		       t->tick_ns);
		printf("\t%-20s : %" PRIu64 "\n", "timeout_ticks",
		       t->timeout_ticks);
		fflush(stdout);
	}

	for (i = 0; i < t->nb_workers; i++)
		evt_lcore_cpu_init(&r->wcpu[i], t->workers[i].lcore);
	for (i = 0; i < t->nb_producers; i++)
		evt_lcore_cpu_init(&r->pcpu[i], t->prod[i].lcore);
	snapshot_lcores(t, r, 0);
	r->launch_tsc = rte_get_timer_cycles();
	if (opt.load != EVT_LOAD_COUNT) {
		t->load_start_tsc = r->launch_tsc;
		t->load_end_tsc = r->launch_tsc + opt.duration_s * t->hz;
	}
	if (launch(t) < 0) {
		t->done = 1;
		rte_eal_mp_wait_lcore();
		goto out;
	}
	supervise(t, r);
	snapshot_lcores(t, r, 1);
	if (r->complete)
		rte_delay_us_sleep(GRACE_US);
	t->done = 1;
	rte_eal_mp_wait_lcore();

	for (i = 0; i < nb_started; i++)
		t->impl->stop(t->adapters[i]);
	stopped = true;
	for (i = 0; i < t->nb_adapters; i++)
		r->stats_ret[i] = t->impl->stats_get(t->adapters[i],
						    &r->stats[i]);
	pass = evt_report(t, r);
	rc = pass ? EXIT_SUCCESS : EXIT_FAILURE;
out:
	t->done = 1;
	for (i = 0; i < nb_started && !stopped; i++)
		t->impl->stop(t->adapters[i]);
	for (i = 0; i < r->svc.nb_svc; i++)
		rte_service_runstate_set(r->svc.svc[i].id, 0);
	for (i = 0; i < r->svc.nb_lc; i++)
		rte_service_lcore_stop(r->svc.lc[i].lcore);
	for (i = 0; i < t->nb_adapters; i++) {
		ret = t->impl->free(t->adapters[i]);
		if (ret < 0)
			fprintf(stderr, APP ": freeing adapter %u: %s\n", i,
				rte_strerror(-ret));
	}
	if (dev_started)
		rte_event_dev_stop(t->dev_id);
	rte_event_dev_close(t->dev_id);
	rte_mempool_free(t->pool);
	rte_free(t->prod);
	rte_free(t->workers);
	free(r->samples);
	rte_eal_cleanup();
	return t->bad_option ? EVT_EXIT_USAGE : rc;
}
