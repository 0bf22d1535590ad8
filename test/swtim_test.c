/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_malloc.h>
#include <rte_service.h>

#include "swt_cpus.h"
#include "swtim_test.h"

const char *swt_driver = SWTIM_DEFAULT_DRIVER;
struct swt_evdev swt_dev;

/* Devices to drain after each case. */
#define SWT_MAX_DEVS 4
static struct swt_evdev *swt_devs[SWT_MAX_DEVS];
static unsigned int swt_nb_devs;

/* Failures may be reported from any thread. */
static volatile int swt_fail_flag;

/* Memory from swt_calloc(), freed after each case. */
#define SWT_MAX_ALLOCS 256
static void *swt_allocs[SWT_MAX_ALLOCS];
static unsigned int swt_nb_allocs;

/* Lcores launched by swt_launch() and not yet joined. */
static bool swt_launched[RTE_MAX_LCORE];

static uint8_t swt_port_ids[UINT8_MAX + 1];
static uint64_t swt_seed_base;
static unsigned int swt_case_idx;
static char swt_name[64];

void
swt_fail(const char *file, int line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* One fprintf so lines from several threads do not interleave. */
	fprintf(stderr, "    FAIL %s:%d: %s\n", file, line, msg);
	__atomic_store_n(&swt_fail_flag, 1, __ATOMIC_RELEASE);
}

void
swt_fail_stuck(const char *file, int line, const char *what)
{
	swt_fail(file, line, "%s: an lcore is stuck, exiting", what);
	fflush(stdout);
	fflush(stderr);
	_exit(1);
}

bool
swt_failed(void)
{
	return __atomic_load_n(&swt_fail_flag, __ATOMIC_ACQUIRE) != 0;
}

uint64_t
swt_ns_to_cycles(uint64_t ns)
{
	return (uint64_t)((unsigned __int128)ns * rte_get_timer_hz() /
			  NS_PER_S);
}

double
swt_cycles_to_ms(uint64_t cycles)
{
	return (double)cycles * 1000.0 / (double)rte_get_timer_hz();
}

uint64_t
swt_cpu_waited(void)
{
	char path[sizeof("/proc/self/task//schedstat") + NAME_MAX];
	struct dirent *d;
	uint64_t total = 0, ran, waited;
	FILE *f;
	DIR *dir = opendir("/proc/self/task");

	if (dir == NULL)
		return 0;
	while ((d = readdir(dir)) != NULL) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/schedstat",
			 d->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		/* "<ns on a CPU> <ns ready but waiting> <time slices>" */
		if (fscanf(f, "%" SCNu64 " %" SCNu64, &ran, &waited) == 2)
			total += waited;
		fclose(f);
	}
	closedir(dir);
	return swt_ns_to_cycles(total);
}

uint64_t
swt_bound_plus_waited(uint64_t bound, uint64_t since)
{
	uint64_t now = swt_cpu_waited();
	uint64_t extra = now > since ? now - since : 0;

	/* Summed over the threads, the wait can grow faster than time
	 * passes: capped, a case whose event never comes still ends, with
	 * its own message, before meson's timeout. */
	return bound + RTE_MIN(extra, swt_ms_to_cycles(SWT_WAITED_MAX_MS));
}

void
swt_sleep_ms(unsigned int ms)
{
	rte_delay_us_sleep(ms * 1000);
}

void
swt_idle(void)
{
	/*
	 * Sleeping rather than spinning lets a service lcore that shares
	 * our CPU run; 20 us keeps dequeue latency well below any tick.
	 */
	rte_delay_us_sleep(20);
}

uint64_t
swt_seed(void)
{
	/* Never 0: xorshift would stay at 0 for ever. */
	return (swt_seed_base + swt_case_idx * UINT64_C(0x9E3779B97F4A7C15)) |
		1;
}

void *
swt_calloc(size_t nb, size_t size)
{
	void *p;
	size_t len = nb * size;

	if (swt_nb_allocs == SWT_MAX_ALLOCS || len == 0)
		return NULL;
	if (posix_memalign(&p, RTE_CACHE_LINE_SIZE, len) != 0)
		return NULL;
	memset(p, 0, len);
	swt_allocs[swt_nb_allocs++] = p;
	return p;
}

struct rte_event_timer *
swt_timers(unsigned int n)
{
	return swt_calloc(n, sizeof(struct rte_event_timer));
}

struct rte_event_timer **
swt_timer_ptrs(struct rte_event_timer *timers, unsigned int n)
{
	struct rte_event_timer **p = swt_calloc(n, sizeof(*p));
	unsigned int i;

	if (p == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		p[i] = &timers[i];
	return p;
}

uint8_t
swt_queue_sched_type(uint8_t q)
{
	return q == SWT_Q_ATOMIC ? RTE_SCHED_TYPE_ATOMIC :
		RTE_SCHED_TYPE_PARALLEL;
}

void
swt_timer_init(struct rte_event_timer *t, uint8_t q, uint64_t u64,
	       uint64_t timeout_ticks)
{
	memset(t, 0, sizeof(*t));
	t->ev.queue_id = q;
	t->ev.sched_type = swt_queue_sched_type(q);
	t->ev.op = RTE_EVENT_OP_NEW;
	t->ev.event_type = RTE_EVENT_TYPE_TIMER;
	t->ev.priority = RTE_EVENT_DEV_PRIORITY_NORMAL;
	t->ev.u64 = u64;
	t->timeout_ticks = timeout_ticks;
	t->state = RTE_EVENT_TIMER_NOT_ARMED;
}

uint16_t
swt_cancel_retry(const struct swtim_adapter *a, struct rte_event_timer *t)
{
	for (;;) {
		if (swtim_cancel(a, t) == 1)
			return 1;
		/* EAGAIN: the timer is expiring right now; ask again. */
		if (rte_errno != EAGAIN)
			return 0;
		rte_pause();
	}
}

/* ---- event device ---- */

uint32_t
swt_evdev_port_count(uint8_t dev_id)
{
	uint32_t n = 0;

	if (rte_event_dev_attr_get(dev_id, RTE_EVENT_DEV_ATTR_PORT_COUNT,
				   &n) != 0)
		return 0;
	return n;
}

int
swt_evdev_setup(const struct swt_evdev_conf *conf, struct swt_evdev *dev)
{
	struct rte_event_dev_config dconf;
	struct rte_event_dev_info info;
	struct rte_event_queue_conf qconf;
	struct rte_event_port_conf pconf;
	uint32_t service_id;
	int dev_id, ret;
	uint8_t q, p;

	dev_id = rte_event_dev_get_dev_id(conf->name);
	if (dev_id < 0) {
		fprintf(stderr, "no event device %s\n", conf->name);
		return -1;
	}
	if (rte_event_dev_info_get(dev_id, &info) != 0)
		return -1;

	memset(&dconf, 0, sizeof(dconf));
	dconf.nb_event_queues = SWT_NB_QUEUES;
	dconf.nb_event_ports = 1 + conf->nb_app_ports;
	dconf.nb_events_limit = conf->nb_events_limit > 0 ?
		conf->nb_events_limit : info.max_num_events;
	dconf.nb_event_queue_flows = info.max_event_queue_flows;
	dconf.nb_event_port_dequeue_depth = info.max_event_port_dequeue_depth;
	dconf.nb_event_port_enqueue_depth = info.max_event_port_enqueue_depth;
	ret = rte_event_dev_configure(dev_id, &dconf);
	if (ret != 0) {
		fprintf(stderr, "configure %s: %d\n", conf->name, ret);
		return -1;
	}

	for (q = 0; q < SWT_NB_QUEUES; q++) {
		if (rte_event_queue_default_conf_get(dev_id, q, &qconf) != 0)
			return -1;
		/* One schedule type per queue: arming checks against it. */
		qconf.event_queue_cfg = 0;
		qconf.schedule_type = swt_queue_sched_type(q);
		ret = rte_event_queue_setup(dev_id, q, &qconf);
		if (ret != 0) {
			fprintf(stderr, "queue %u setup: %d\n", q, ret);
			return -1;
		}
	}

	for (p = 0; p < dconf.nb_event_ports; p++) {
		if (rte_event_port_default_conf_get(dev_id, p, &pconf) != 0)
			return -1;
		if (p == SWT_WORKER_PORT)
			pconf.new_event_threshold = dconf.nb_events_limit;
		else if (conf->app_new_event_threshold > 0)
			pconf.new_event_threshold =
				conf->app_new_event_threshold;
		ret = rte_event_port_setup(dev_id, p, &pconf);
		if (ret != 0) {
			fprintf(stderr, "port %u setup: %d\n", p, ret);
			return -1;
		}
	}
	/* The worker port takes every queue; adapter ports take none. */
	if (rte_event_port_link(dev_id, SWT_WORKER_PORT, NULL, NULL, 0) !=
	    SWT_NB_QUEUES) {
		fprintf(stderr, "link: %s\n", rte_strerror(rte_errno));
		return -1;
	}

	/* event_sw schedules from a service; dsw needs none. */
	if (rte_event_dev_service_id_get(dev_id, &service_id) == 0) {
		if (rte_service_map_lcore_set(service_id, SWT_SERVICE_LCORE,
					      1) != 0 ||
		    rte_service_runstate_set(service_id, 1) != 0) {
			fprintf(stderr, "cannot run %s's service\n",
				conf->name);
			return -1;
		}
	}

	ret = rte_event_dev_start(dev_id);
	if (ret != 0) {
		fprintf(stderr, "start %s: %d\n", conf->name, ret);
		return -1;
	}

	dev->dev_id = dev_id;
	dev->app_port = 1;
	dev->nb_app_ports = conf->nb_app_ports;
	dev->nb_ports_at_setup = dconf.nb_event_ports;
	if (swt_nb_devs < SWT_MAX_DEVS)
		swt_devs[swt_nb_devs++] = dev;
	return 0;
}

uint16_t
swt_dequeue(const struct swt_evdev *dev, struct rte_event *evs, uint16_t n)
{
	return rte_event_dequeue_burst(dev->dev_id, SWT_WORKER_PORT, evs, n,
				       0);
}

unsigned int
swt_collect(const struct swt_evdev *dev, struct rte_event *evs,
	    unsigned int n, unsigned int timeout_ms)
{
	struct rte_event buf[32];
	uint64_t end = swt_now() + swt_ms_to_cycles(timeout_ms);
	unsigned int got = 0;
	uint16_t k, i;

	while (got < n && swt_now() < end) {
		/* Never take more than asked: the rest stay queued. */
		k = swt_dequeue(dev, buf, RTE_MIN(n - got, RTE_DIM(buf)));
		if (k == 0) {
			swt_idle();
			continue;
		}
		for (i = 0; i < k; i++, got++)
			if (evs != NULL)
				evs[got] = buf[i];
	}
	return got;
}

unsigned int
swt_drain(const struct swt_evdev *dev, unsigned int quiet_ms)
{
	struct rte_event evs[32];
	uint64_t quiet = swt_ms_to_cycles(quiet_ms);
	uint64_t last = swt_now();
	unsigned int total = 0;
	uint16_t n;

	while (swt_now() - last < quiet) {
		n = swt_dequeue(dev, evs, RTE_DIM(evs));
		if (n > 0) {
			total += n;
			last = swt_now();
		} else {
			swt_idle();
		}
	}
	return total;
}

/* ---- adapters ---- */

struct rte_event_timer_adapter_conf
swt_conf(uint16_t id, uint64_t tick_ns, uint64_t max_tmo_ns,
	 uint64_t nb_timers, uint64_t flags)
{
	struct rte_event_timer_adapter_conf c = {
		.event_dev_id = swt_dev.dev_id,
		.timer_adapter_id = id,
		.socket_id = SOCKET_ID_ANY,
		.clk_src = RTE_EVENT_TIMER_ADAPTER_CPU_CLK,
		.timer_tick_ns = tick_ns,
		.max_tmo_ns = max_tmo_ns,
		.nb_timers = nb_timers,
		.flags = flags,
	};

	return c;
}

int
swt_port_cb(uint16_t id, uint8_t event_dev_id, uint8_t *event_port_id,
	    void *conf_arg)
{
	RTE_SET_USED(id);
	RTE_SET_USED(event_dev_id);
	*event_port_id = *(const uint8_t *)conf_arg;
	return 0;
}

void *
swt_port_arg(uint8_t port)
{
	return &swt_port_ids[port];
}

struct swtim_adapter *
swt_adapter_create(const struct rte_event_timer_adapter_conf *conf, int port)
{
	if (port < 0)
		return swtim_adapter_create_with_driver(conf, NULL, NULL,
							swt_driver, NULL);
	return swtim_adapter_create_with_driver(conf, swt_port_cb,
						swt_port_arg(port),
						swt_driver, NULL);
}

int
swt_service_map_only(struct swtim_adapter *a, unsigned int lcore)
{
	uint32_t sid;
	int ret;

	ret = swtim_adapter_service_id_get(a, &sid);
	if (ret == -ESRCH)
		return 0;	/* the driver needs no service */
	if (ret != 0)
		return ret;
	if (!rte_lcore_has_role(lcore, ROLE_SERVICE)) {
		ret = rte_service_lcore_add(lcore);
		if (ret != 0 && ret != -EALREADY)
			return ret;
	}
	ret = rte_service_map_lcore_set(sid, lcore, 1);
	if (ret != 0)
		return ret;
	return rte_service_runstate_set(sid, 1);
}

int
swt_service_map(struct swtim_adapter *a, unsigned int lcore)
{
	int ret = swt_service_map_only(a, lcore);

	if (ret != 0)
		return ret;
	ret = rte_service_lcore_start(lcore);
	return ret == -EALREADY ? 0 : ret;
}

int
swt_service_unmap(struct swtim_adapter *a, unsigned int lcore)
{
	uint32_t sid;
	int ret;

	ret = swtim_adapter_service_id_get(a, &sid);
	if (ret == -ESRCH)
		return 0;
	if (ret != 0)
		return ret;
	return rte_service_map_lcore_set(sid, lcore, 0);
}

int
swt_service_lcore_release(unsigned int lcore)
{
	int ret;

	ret = rte_service_lcore_stop(lcore);
	if (ret != 0 && ret != -EALREADY)
		return ret;
	/*
	 * stop only asks the service loop to end; until it has returned,
	 * rte_eal_remote_launch() on the lcore fails with -EBUSY.
	 */
	rte_eal_wait_lcore(lcore);
	return rte_service_lcore_del(lcore);
}

int
swt_adapter_start(struct swtim_adapter *a)
{
	int ret = swt_service_map(a, SWT_SERVICE_LCORE);

	if (ret != 0)
		return ret;
	return swtim_adapter_start(a);
}

uint64_t
swt_adapter_tick_ns(const struct swtim_adapter *a)
{
	struct rte_event_timer_adapter_info info;

	if (swtim_adapter_get_info(a, &info) != 0)
		return 0;
	return info.min_resolution_ns;
}

unsigned int
swt_adapters_cleanup(void)
{
	struct swtim_adapter *a;
	unsigned int n = 0;
	uint16_t id;

	for (id = 0; id < SWTIM_ADAPTER_NUM_MAX; id++) {
		a = swtim_adapter_lookup(id);
		if (a == NULL)
			continue;
		swtim_adapter_stop(a);
		if (swtim_adapter_free(a) != 0)
			fprintf(stderr, "    cleanup: cannot free adapter %u\n",
				id);
		n++;
	}
	return n;
}

/* ---- lcores ---- */

/* Log lines written between swt_log_capture() and swt_log_captured(). */
static char *swt_log_buf;
static size_t swt_log_len;
static FILE *swt_log_file;

int
swt_log_capture(void)
{
	swt_log_file = open_memstream(&swt_log_buf, &swt_log_len);
	if (swt_log_file == NULL)
		return -1;
	return rte_openlog_stream(swt_log_file);
}

unsigned int
swt_log_captured(const char *needle)
{
	unsigned int n = 0;
	const char *p;

	rte_openlog_stream(NULL);
	fclose(swt_log_file);
	for (p = swt_log_buf; p != NULL && (p = strstr(p, needle)) != NULL;
	     p += strlen(needle))
		n++;
	if (n == 0)
		printf("    log was: %s\n", swt_log_buf != NULL ?
		       swt_log_buf : "");
	free(swt_log_buf);
	swt_log_buf = NULL;
	return n;
}

int
swt_launch(lcore_function_t *fn, void *arg, unsigned int lcore)
{
	int ret = rte_eal_remote_launch(fn, arg, lcore);

	if (ret == 0)
		swt_launched[lcore] = true;
	return ret;
}

int
swt_join(void)
{
	unsigned int lcore;
	int bad = 0;

	/*
	 * Not rte_eal_mp_wait_lcore(): it would wait for service lcores
	 * too, which never return.
	 */
	for (lcore = 0; lcore < RTE_MAX_LCORE; lcore++) {
		if (!swt_launched[lcore])
			continue;
		if (rte_eal_wait_lcore(lcore) != 0)
			bad++;
		swt_launched[lcore] = false;
	}
	return bad;
}

/* ---- program structure ---- */

/*
 * Lcore layout over the first two CPUs we may run on (swt_cpus.h): main
 * and service lcores pinned apart when there are two, the rest floating.
 */
static void
swt_lcores_arg(char *buf, size_t len)
{
	int cpus[2];

	if (swt_cpus_pick(cpus, RTE_DIM(cpus)) < 2)
		snprintf(buf, len, "0@%d,1@%d,(2-5)@%d", cpus[0], cpus[0],
			 cpus[0]);
	else
		snprintf(buf, len, "0@%d,1@%d,(2-5)@(%d,%d)", cpus[0],
			 cpus[1], cpus[0], cpus[1]);
}

/* The cases named on the command line (argv[1..]); all when none. */
static char **swt_chosen;
static int swt_nb_chosen;

static void
swt_usage(const char *prog, const struct swt_case *cases, unsigned int nb)
{
	unsigned int i;

	printf("usage: %s [CASE...]\n"
	       "Runs the cases named, or all of them, in this order:\n", prog);
	for (i = 0; i < nb; i++)
		printf("  %s\n", cases[i].name);
	printf("Environment: SWTIM_TEST_DRIVER, the driver under test"
	       " (default %s); SWTIM_TEST_SEED, the seed of the random cases"
	       " (default: from the time, printed at the start).\n"
	       "EAL starts with its own arguments (test/README.md).\n",
	       SWTIM_DEFAULT_DRIVER);
}

/* Whether case name was chosen on the command line. */
static bool
swt_is_chosen(const char *name)
{
	int i;

	for (i = 0; i < swt_nb_chosen; i++)
		if (strcmp(swt_chosen[i], name) == 0)
			return true;
	return swt_nb_chosen == 0;
}

/* Take the case names of the command line; -1 for one no case has. */
static int
swt_choose(int argc, char **argv, const struct swt_case *cases,
	   unsigned int nb)
{
	unsigned int j;
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			swt_usage(argv[0], cases, nb);
			exit(0);
		}
		for (j = 0; j < nb && strcmp(cases[j].name, argv[i]) != 0; j++)
			;
		if (j == nb) {
			fprintf(stderr, "%s: no case named '%s' (--help lists"
				" them)\n", argv[0], argv[i]);
			return -1;
		}
	}
	swt_chosen = argv + 1;
	swt_nb_chosen = argc - 1;
	return 0;
}

int
swt_init(int argc, char **argv, const char *const *vdevs,
	 const struct swt_case *cases, unsigned int nb)
{
	static const char *const default_vdevs[] = { "event_dsw0", NULL };
	static char prefix[128], lcores[64], vdev_args[SWT_MAX_DEVS][64];
	char *eal_argv[32];
	char prog[256];
	const char *env, *base;
	int eal_argc = 0, i, ret;

	if (swt_choose(argc, argv, cases, nb) != 0)
		return -1;
	/* Case lines and failure messages (stderr) stay in order in logs. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	env = getenv("SWTIM_TEST_DRIVER");
	if (env != NULL && env[0] != '\0')
		swt_driver = env;

	snprintf(prog, sizeof(prog), "%s", argv[0]);
	base = basename(prog);
	if (strncmp(base, "test_", 5) == 0)
		base += 5;
	snprintf(swt_name, sizeof(swt_name), "%s", base);

	env = getenv("SWTIM_TEST_SEED");
	swt_seed_base = env != NULL ? strtoull(env, NULL, 0) :
		(uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);

	/* Unique per process: meson runs tests and drivers in parallel. */
	snprintf(prefix, sizeof(prefix), "--file-prefix=swtim_%s_%d",
		 swt_name, (int)getpid());
	swt_lcores_arg(lcores, sizeof(lcores));

	eal_argv[eal_argc++] = argv[0];
	eal_argv[eal_argc++] = (char *)(uintptr_t)"--no-huge";
	eal_argv[eal_argc++] = (char *)(uintptr_t)"-m";
	eal_argv[eal_argc++] = (char *)(uintptr_t)"512";
	eal_argv[eal_argc++] = (char *)(uintptr_t)"--no-shconf";
	eal_argv[eal_argc++] = (char *)(uintptr_t)"--no-pci";
	eal_argv[eal_argc++] = prefix;
	eal_argv[eal_argc++] = (char *)(uintptr_t)"--log-level=lib.eal:error";
	if (vdevs == NULL)
		vdevs = default_vdevs;
	for (i = 0; vdevs[i] != NULL && i < SWT_MAX_DEVS; i++) {
		snprintf(vdev_args[i], sizeof(vdev_args[i]), "--vdev=%s",
			 vdevs[i]);
		eal_argv[eal_argc++] = vdev_args[i];
	}
	eal_argv[eal_argc++] = (char *)(uintptr_t)"--lcores";
	eal_argv[eal_argc++] = lcores;
	eal_argv[eal_argc] = NULL;

	ret = rte_eal_init(eal_argc, eal_argv);
	if (ret < 0) {
		fprintf(stderr, "rte_eal_init: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	if (rte_lcore_count() < SWT_FIRST_PRODUCER_LCORE +
	    SWT_NB_PRODUCER_LCORES) {
		fprintf(stderr, "need %d lcores\n",
			SWT_FIRST_PRODUCER_LCORE + SWT_NB_PRODUCER_LCORES);
		return -1;
	}
	for (i = 0; i <= UINT8_MAX; i++)
		swt_port_ids[i] = i;

	/* One service lcore for the whole program. */
	ret = rte_service_lcore_add(SWT_SERVICE_LCORE);
	if (ret == 0)
		ret = rte_service_lcore_start(SWT_SERVICE_LCORE);
	if (ret != 0) {
		fprintf(stderr, "service lcore: %d\n", ret);
		return -1;
	}
	printf("%s: driver %s, seed 0x%" PRIx64 ", %" PRIu64 " timer Hz\n",
	       swt_name, swt_driver, swt_seed_base, rte_get_timer_hz());
	return 0;
}

static void
swt_case_cleanup(void)
{
	unsigned int i;

	swt_join();
	swt_adapters_cleanup();
	/* Lcores a case turned into service lcores go back to EAL. */
	for (i = SWT_FIRST_PRODUCER_LCORE;
	     i < SWT_FIRST_PRODUCER_LCORE + SWT_NB_PRODUCER_LCORES; i++)
		if (rte_lcore_has_role(i, ROLE_SERVICE))
			swt_service_lcore_release(i);
	/* Events of a failed case must not reach the next one. */
	for (i = 0; i < swt_nb_devs; i++)
		swt_drain(swt_devs[i], 5);
	for (i = 0; i < swt_nb_allocs; i++)
		free(swt_allocs[i]);
	swt_nb_allocs = 0;
}

int
swt_run(const struct swt_case *cases, unsigned int nb)
{
	unsigned int passed = 0, failed = 0;
	uint64_t start;
	int ret;

	for (swt_case_idx = 0; swt_case_idx < nb; swt_case_idx++) {
		const struct swt_case *c = &cases[swt_case_idx];

		if (!swt_is_chosen(c->name))
			continue;
		__atomic_store_n(&swt_fail_flag, 0, __ATOMIC_RELEASE);
		start = swt_now();
		ret = c->fn();
		/* Join before judging: launched lcores may still fail. */
		swt_join();
		if (ret != SWT_PASS || swt_failed()) {
			failed++;
			printf("[FAIL] %s (%.0f ms)\n", c->name,
			       swt_cycles_to_ms(swt_now() - start));
		} else {
			passed++;
			printf("[ OK ] %s (%.0f ms)\n", c->name,
			       swt_cycles_to_ms(swt_now() - start));
		}
		fflush(stdout);
		swt_case_cleanup();
	}
	printf("%u passed, %u failed\n", passed, failed);
	fflush(stdout);
	return failed == 0 ? 0 : 1;
}

int
swt_hugepages_check(unsigned int mb, char *dir, size_t len)
{
	char line[512], dev[128], mnt[PATH_MAX], type[64];
	unsigned long free_pages = 0, page_kb = 0;
	FILE *f;

	dir[0] = '\0';
	f = fopen("/proc/mounts", "r");
	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "%127s %4095s %63s", dev, mnt, type) == 3 &&
		    strcmp(type, "hugetlbfs") == 0 && dir[0] == '\0')
			snprintf(dir, len, "%s", mnt);
	if (f != NULL)
		fclose(f);
	f = fopen("/proc/meminfo", "r");
	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		sscanf(line, "HugePages_Free: %lu", &free_pages);
		sscanf(line, "Hugepagesize: %lu kB", &page_kb);
	}
	if (f != NULL)
		fclose(f);
	if (dir[0] != '\0' && page_kb != 0 &&
	    free_pages * page_kb >= mb * 1024ul)
		return 0;
	fprintf(stderr, "FAIL: multi-process needs hugepages: %s, %lu free "
		"of %lu kB (want %u MB); as root: echo 512 > "
		"/proc/sys/vm/nr_hugepages; mkdir -p /dev/hugepages; mount -t "
		"hugetlbfs nodev /dev/hugepages (scripts/lib.sh: "
		"hugepages_setup)\n", dir[0] != '\0' ? dir :
		"no hugetlbfs mount", free_pages, page_kb, mb);
	return -1;
}

void
swt_hugepages_release(const char *dir, const char *prefix)
{
	char pattern[PATH_MAX + 80];
	glob_t g;
	size_t i;

	snprintf(pattern, sizeof(pattern), "%s/%smap_*", dir, prefix);
	if (glob(pattern, 0, NULL, &g) != 0)
		return;
	for (i = 0; i < g.gl_pathc; i++)
		unlink(g.gl_pathv[i]);
	globfree(&g);
}

/* Leave no empty runtime directory per test run behind. */
static void
swt_remove_dir(const char *path)
{
	struct dirent *de;
	DIR *d = opendir(path);

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
	rmdir(path);
}

int
swt_fini(int ret)
{
	char dir[PATH_MAX];
	unsigned int i;

	swt_case_cleanup();
	snprintf(dir, sizeof(dir), "%s", rte_eal_get_runtime_dir());
	for (i = 0; i < swt_nb_devs; i++) {
		rte_event_dev_stop(swt_devs[i]->dev_id);
		rte_event_dev_close(swt_devs[i]->dev_id);
	}
	if (rte_eal_cleanup() != 0 && ret == 0)
		ret = 1;
	/* The prefix is ours alone (it carries our pid). */
	if (strstr(dir, "swtim_") != NULL)
		swt_remove_dir(dir);
	return ret;
}

int
swt_main(int argc, char **argv, const struct swt_case *cases,
	 unsigned int nb)
{
	const struct swt_evdev_conf dconf = {
		.name = "event_dsw0",
		.nb_app_ports = 4,
	};
	int ret;

	if (swt_init(argc, argv, NULL, cases, nb) != 0)
		return 1;
	if (swt_evdev_setup(&dconf, &swt_dev) != 0) {
		rte_eal_cleanup();
		return 1;
	}
	ret = swt_run(cases, nb);
	return swt_fini(ret);
}

uint64_t
swt_heap_bytes(void)
{
	struct rte_malloc_socket_stats st;
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < rte_socket_count(); i++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i),
						&st) == 0)
			sum += st.heap_allocsz_bytes;
	return sum;
}

pid_t
swt_self_spawn(char *const argv[])
{
	pid_t pid = fork();

	if (pid == 0) {
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	return pid;
}
