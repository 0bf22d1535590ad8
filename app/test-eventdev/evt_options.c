/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Command line parsing. Long options only, as getopt_long() takes them:
 * "--name=value" or "--name value", and any unambiguous prefix of a name
 * ("--wlcore" for "--wlcores"), which is what dpdk-test-eventdev accepts
 * too.
 */

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eventdev.h>
#include <rte_lcore.h>

#include <swtim.h>

#include "evt_options.h"

#define APP "swtim-test-eventdev"

void
evt_options_default(struct evt_options *opt)
{
	memset(opt, 0, sizeof(*opt));
	/* The same defaults as dpdk-test-eventdev. */
	opt->test = EVT_TEST_PERF_QUEUE;
	opt->dev_id = 0;
	opt->nb_flows = 1024;
	opt->nb_timers = 100000000;
	opt->nb_timer_adptrs = 1;
	opt->timer_tick_nsec = 1000;
	opt->max_tmo_nsec = 100000;
	opt->expiry_nsec = 10000;
	opt->pool_sz = 16 * 1024;
	opt->prod_enq_burst_sz = 0;
	opt->wkr_deq_dep = 16;
	opt->verbose_level = 1;
	opt->socket_id = SOCKET_ID_ANY;
	opt->nb_pkts = UINT64_C(1) << 26;
	/* Ours. */
	opt->adapter = EVT_ADAPTER_SWTIM;
	opt->seed = 1;
	opt->load = EVT_LOAD_COUNT;
	opt->duration_s = EVT_LOAD_DURATION_S;
	opt->burst_timers = EVT_LOAD_BURST_TIMERS;
	opt->burst_period_ms = EVT_LOAD_BURST_PERIOD_MS;
	opt->adapter_svc_lcores = 1;
	opt->adapter_ports = 1;
}

const char *
evt_load_name(enum evt_load_kind k)
{
	switch (k) {
	case EVT_LOAD_IDLE:
		return "idle";
	case EVT_LOAD_LOW:
		return "low";
	case EVT_LOAD_HIGH:
		return "high";
	case EVT_LOAD_BURSTY:
		return "bursty";
	default:
		return "count";
	}
}

const char *
evt_test_name(enum evt_test_kind k)
{
	return k == EVT_TEST_PERF_ATQ ? "perf_atq" : "perf_queue";
}

const char *
evt_adapter_name(enum evt_adapter_kind k)
{
	return k == EVT_ADAPTER_DPDK ? "dpdk" : "swtim";
}

const char *
evt_sched_type_name(uint8_t t)
{
	switch (t) {
	case RTE_SCHED_TYPE_ORDERED:
		return "ordered";
	case RTE_SCHED_TYPE_ATOMIC:
		return "atomic";
	case RTE_SCHED_TYPE_PARALLEL:
		return "parallel";
	default:
		return "?";
	}
}

unsigned int
evt_nr_lcores(const bool *lcores)
{
	unsigned int i, n = 0;

	for (i = 0; i < RTE_MAX_LCORE; i++)
		n += lcores[i];
	return n;
}

void
evt_options_usage(const char *prgname)
{
	printf(
"Usage: %s [EAL options] -- [options]\n"
"\n"
"Event timer adapter benchmark: producer lcores arm event timers, worker\n"
"lcores dequeue their expiry events. Runs swtim or DPDK's own software\n"
"event timer adapter; takes dpdk-test-eventdev's timer command lines.\n"
"\n"
"Options of dpdk-test-eventdev (same meaning and defaults):\n"
"  --test=NAME               perf_queue (default) or perf_atq\n"
"  --dev=ID                  event device id (default 0)\n"
"  --plcores=LIST            producer lcores, e.g. 1 or 1,3-4 (required)\n"
"  --wlcores=LIST            worker lcores (required)\n"
"  --stlist=TYPES            schedule type of each stage: a(tomic),\n"
"                            o(rdered), p(arallel), e.g. a or a,p\n"
"                            (default: a, one atomic stage)\n"
"  --nb_flows=N              flows per queue (default 1024)\n"
"  --nb_timers=N             timers each producer arms (default 100000000)\n"
"  --nb_timer_adptrs=N       adapters, used round robin (default 1, max %d)\n"
"  --timer_tick_nsec=NS      adapter tick (default 1000)\n"
"  --max_tmo_nsec=NS         adapter maximum timeout (default 100000)\n"
"  --expiry_nsec=NS          timeout of each timer (default 10000)\n"
"  --pool_sz=N               timer objects, i.e. the most timers outstanding;\n"
"                            also the adapter's nb_timers (default 16384)\n"
"  --prod_type_timerdev      producers arm one timer per call (arm_burst 1)\n"
"  --prod_type_timerdev_burst  producers arm 16 timers per call\n"
"                            (arm_tmo_tick_burst; arm_burst with a spread)\n"
"  --prod_enq_burst_sz=N     accepted; timer producers arm by 16 as upstream\n"
"  --worker_deq_depth=N      worker port dequeue depth and burst (default 16)\n"
"  --fwd_latency             also measure arm-to-last-stage latency\n"
"  --queue_priority          stage queues get rising priorities\n"
"  --deq_tmo_nsec=NS         event device dequeue timeout (default 0)\n"
"  --socket_id=N             socket of the timer objects (default any)\n"
"  --nb_pkts=N               accepted and ignored, as in timer runs\n"
"  --verbose=N               0: results only, 1: default, 2: more\n"
"  --help                    this text\n"
"\n"
"Options of this application:\n"
"  --adapter=swtim|dpdk      timer adapter to measure (default swtim)\n"
"  --swtim-driver=NAME       swtim driver (default: the library's, wheel)\n"
"  --swtim-args=K=V,...      swtim driver options\n"
"  --json=FILE               write every figure to FILE as JSON\n"
"  --timeout-spread=NS       arm each timer with its own random timeout in\n"
"                            [expiry_nsec, expiry_nsec + NS] (default 0)\n"
"  --stall-sec=S             give up after S seconds without progress\n"
"                            (default 5 s plus max_tmo_nsec, rounded up\n"
"                            to whole seconds)\n"
"  --seed=N                  seed of the timeout spread (default 1)\n"
"  --adapter-port=app|library  who adds each adapter's event port: this\n"
"                            application, from the device configuration it\n"
"                            chose, as DPDK's default callback does (app,\n"
"                            the default), or the adapter library's own\n"
"                            create() (rte_event_timer_adapter_create(),\n"
"                            swtim_adapter_create())\n"
"  --adapter-service-lcores=N|all  map each adapter's service to N service\n"
"                            lcores, or to all of them (default 1). swtim's\n"
"                            services are MT safe and split their work per\n"
"                            producer lcore's wheel or list; DPDK's adapter\n"
"                            refuses more than one service lcore\n"
"  --adapter-ports=N         give each adapter N event ports (default 1;\n"
"                            swtim_adapter_port_add()): the producer lcores'\n"
"                            timers are delivered through them round robin,\n"
"                            so service lcores enqueue in parallel; swtim\n"
"                            only\n"
"\n"
"Power and load (see doc/performance.md, \"Power: sleeping service\"):\n"
"  --max-sleep-us=N          worker lcores sleep when idle, like testpmd's:\n"
"                            after a dequeue of less than half a burst a\n"
"                            worker sleeps %d us longer than after the one\n"
"                            before, up to N us; half a burst or more returns\n"
"                            it to full polling\n"
"                            (default 0: never sleep). The adapter's service\n"
"                            sleeps with --swtim-args=max_sleep_us=N\n"
"  --load=KIND               what the producers offer:\n"
"                            count  - each arms --nb_timers as fast as it can,\n"
"                                     the run ends when all have expired\n"
"                                     (default; dpdk-test-eventdev's way)\n"
"                            idle   - nothing, for --duration-s\n"
"                            low    - --load-rate timers/s (default %d) per\n"
"                                     producer, evenly paced, for --duration-s\n"
"                            high   - as fast as it can (or --load-rate) for\n"
"                                     --duration-s\n"
"                            bursty - --burst-timers timers (default %d) at\n"
"                                     once every --burst-period-ms (default\n"
"                                     %d), for --duration-s\n"
"                            Timed loads ignore --nb_timers; the run ends once\n"
"                            the timers armed in the duration have expired\n"
"  --duration-s=S            length of a timed load (default %d)\n"
"  --load-rate=N             timers/s per producer for low and high\n"
"  --burst-timers=N          timers per burst, at most --pool_sz\n"
"  --burst-period-ms=MS      time from one burst's start to the next\n"
"\n"
"Service lcores (EAL -S/-s, after --lcores) run each adapter's service\n"
"and, for devices that need one (event_sw), the device's scheduler; each\n"
"service goes to the service lcore with the fewest services. On a small\n"
"machine without hugepages, for example:\n"
"  %s --no-huge -m 512 --no-shconf --no-pci --file-prefix=tev \\\n"
"      --vdev=event_dsw0 --lcores '0@0,(1-3)@(0-1)' -S 3 -- \\\n"
"      --test=perf_queue --plcores=1 --wlcores=2 --stlist=a \\\n"
"      --prod_type_timerdev_burst --nb_timers=1000000 --pool_sz=16384\n"
"\n"
"At the end: per producer the timers armed and the arm latency (as\n"
"dpdk-test-eventdev computes it, and p50/p99/max), expiry events per\n"
"second per worker and in total, the lateness of each expiry after its\n"
"deadline, early, lost and duplicate expiries, the adapter statistics and\n"
"the CPU time (from the OS) of the service, worker and producer lcores.\n"
"\n"
"Exit status: 0 when every armed timer expired exactly once and none\n"
"early; 1 when not, or on errors; %d for a bad command line.\n",
	       prgname, EVT_MAX_ADAPTERS, EVT_WORKER_SLEEP_STEP_US,
	       EVT_LOAD_LOW_RATE, EVT_LOAD_BURST_TIMERS,
	       EVT_LOAD_BURST_PERIOD_MS, EVT_LOAD_DURATION_S, prgname,
	       EVT_EXIT_USAGE);
}

/* Decimal with an optional K/M/G/T (binary) suffix, as upstream takes. */
static int
parse_u64(const char *s, uint64_t *val)
{
	unsigned long long v;
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0)
		return -EINVAL;
	switch (*end) {
	case 'T':
	case 't':
		if (v > UINT64_MAX >> 10)
			return -EINVAL;
		v <<= 10;
		/* fall through */
	case 'G':
	case 'g':
		if (v > UINT64_MAX >> 10)
			return -EINVAL;
		v <<= 10;
		/* fall through */
	case 'M':
	case 'm':
		if (v > UINT64_MAX >> 10)
			return -EINVAL;
		v <<= 10;
		/* fall through */
	case 'K':
	case 'k':
		if (v > UINT64_MAX >> 10)
			return -EINVAL;
		v <<= 10;
		end++;
		break;
	default:
		break;
	}
	while (isspace((unsigned char)*end))
		end++;
	if (*end != '\0')
		return -EINVAL;
	*val = v;
	return 0;
}

static int
parse_ranged(const char *name, const char *arg, uint64_t min, uint64_t max,
	     uint64_t *val)
{
	if (parse_u64(arg, val) < 0 || *val < min || *val > max) {
		fprintf(stderr, APP ": --%s: want a number in %" PRIu64
			"..%" PRIu64 ", got '%s'\n", name, min, max, arg);
		return -EINVAL;
	}
	return 0;
}

/* "1,3,5-7": set each lcore; a repeated lcore is an error. */
static int
parse_lcore_list(const char *name, const char *arg, bool *set)
{
	const char *p = arg;
	unsigned long a, b, i;
	char *end;

	memset(set, 0, sizeof(bool) * RTE_MAX_LCORE);
	if (*p == '\0')
		goto bad;
	while (*p != '\0') {
		if (!isdigit((unsigned char)*p))
			goto bad;
		a = strtoul(p, &end, 10);
		p = end;
		b = a;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				goto bad;
			b = strtoul(p, &end, 10);
			p = end;
		}
		if (*p == ',')
			p++;
		else if (*p != '\0')
			goto bad;
		if (a > b || b >= RTE_MAX_LCORE)
			goto bad;
		for (i = a; i <= b; i++) {
			if (set[i]) {
				fprintf(stderr, APP ": --%s: lcore %lu appears"
					" twice in '%s'\n", name, i, arg);
				return -EINVAL;
			}
			set[i] = true;
		}
	}
	return 0;
bad:
	fprintf(stderr, APP ": --%s: want a list of lcore ids below %d such"
		" as 1,3-4, got '%s'\n", name, RTE_MAX_LCORE, arg);
	return -EINVAL;
}

static int
parse_stlist(struct evt_options *opt, const char *arg)
{
	const char *p;
	uint8_t n = 0;

	for (p = arg; *p != '\0'; p++) {
		uint8_t t;

		switch (*p) {
		case 'a':
		case 'A':
			t = RTE_SCHED_TYPE_ATOMIC;
			break;
		case 'o':
		case 'O':
			t = RTE_SCHED_TYPE_ORDERED;
			break;
		case 'p':
		case 'P':
			t = RTE_SCHED_TYPE_PARALLEL;
			break;
		case ',':
			continue;
		default:
			fprintf(stderr, APP ": --stlist: '%c' is not a schedule"
				" type (a, o or p) in '%s'\n", *p, arg);
			return -EINVAL;
		}
		if (n == EVT_MAX_STAGES) {
			fprintf(stderr, APP ": --stlist: more than %d stages\n",
				EVT_MAX_STAGES);
			return -EINVAL;
		}
		opt->sched_type_list[n++] = t;
	}
	if (n == 0) {
		fprintf(stderr, APP ": --stlist: no stage in '%s'\n", arg);
		return -EINVAL;
	}
	opt->nb_stages = n;
	return 0;
}

static int
copy_str(const char *name, const char *arg, char *dst, size_t size)
{
	if (strlen(arg) >= size) {
		fprintf(stderr, APP ": --%s: value longer than %zu characters\n",
			name, size - 1);
		return -EINVAL;
	}
	strcpy(dst, arg);
	return 0;
}

enum {
	OPT_TEST = 256,
	OPT_DEV,
	OPT_VERBOSE,
	OPT_PLCORES,
	OPT_WLCORES,
	OPT_STLIST,
	OPT_NB_FLOWS,
	OPT_NB_TIMERS,
	OPT_NB_TIMER_ADPTRS,
	OPT_TIMER_TICK_NSEC,
	OPT_MAX_TMO_NSEC,
	OPT_EXPIRY_NSEC,
	OPT_POOL_SZ,
	OPT_PROD_TIMERDEV,
	OPT_PROD_TIMERDEV_BURST,
	OPT_PROD_ENQ_BURST_SZ,
	OPT_WKR_DEQ_DEP,
	OPT_FWD_LATENCY,
	OPT_QUEUE_PRIORITY,
	OPT_DEQ_TMO_NSEC,
	OPT_SOCKET_ID,
	OPT_NB_PKTS,
	OPT_HELP,
	OPT_ADAPTER,
	OPT_SWTIM_DRIVER,
	OPT_SWTIM_ARGS,
	OPT_JSON,
	OPT_TIMEOUT_SPREAD,
	OPT_STALL_SEC,
	OPT_SEED,
	OPT_ADAPTER_PORT,
	OPT_ADAPTER_SVC_LCORES,
	OPT_ADAPTER_PORTS,
	OPT_MAX_SLEEP_US,
	OPT_LOAD,
	OPT_DURATION_S,
	OPT_LOAD_RATE,
	OPT_BURST_TIMERS,
	OPT_BURST_PERIOD_MS,
};

static const struct option evt_longopts[] = {
	{ "test", required_argument, NULL, OPT_TEST },
	{ "dev", required_argument, NULL, OPT_DEV },
	{ "verbose", required_argument, NULL, OPT_VERBOSE },
	{ "plcores", required_argument, NULL, OPT_PLCORES },
	{ "wlcores", required_argument, NULL, OPT_WLCORES },
	{ "stlist", required_argument, NULL, OPT_STLIST },
	{ "nb_flows", required_argument, NULL, OPT_NB_FLOWS },
	{ "nb_timers", required_argument, NULL, OPT_NB_TIMERS },
	{ "nb_timer_adptrs", required_argument, NULL, OPT_NB_TIMER_ADPTRS },
	{ "timer_tick_nsec", required_argument, NULL, OPT_TIMER_TICK_NSEC },
	{ "max_tmo_nsec", required_argument, NULL, OPT_MAX_TMO_NSEC },
	{ "expiry_nsec", required_argument, NULL, OPT_EXPIRY_NSEC },
	{ "pool_sz", required_argument, NULL, OPT_POOL_SZ },
	{ "prod_type_timerdev", no_argument, NULL, OPT_PROD_TIMERDEV },
	{ "prod_type_timerdev_burst", no_argument, NULL,
	  OPT_PROD_TIMERDEV_BURST },
	{ "prod_enq_burst_sz", required_argument, NULL, OPT_PROD_ENQ_BURST_SZ },
	{ "worker_deq_depth", required_argument, NULL, OPT_WKR_DEQ_DEP },
	{ "fwd_latency", no_argument, NULL, OPT_FWD_LATENCY },
	{ "queue_priority", no_argument, NULL, OPT_QUEUE_PRIORITY },
	{ "deq_tmo_nsec", required_argument, NULL, OPT_DEQ_TMO_NSEC },
	{ "socket_id", required_argument, NULL, OPT_SOCKET_ID },
	{ "nb_pkts", required_argument, NULL, OPT_NB_PKTS },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "adapter", required_argument, NULL, OPT_ADAPTER },
	{ "swtim-driver", required_argument, NULL, OPT_SWTIM_DRIVER },
	{ "swtim-args", required_argument, NULL, OPT_SWTIM_ARGS },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "timeout-spread", required_argument, NULL, OPT_TIMEOUT_SPREAD },
	{ "stall-sec", required_argument, NULL, OPT_STALL_SEC },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "adapter-port", required_argument, NULL, OPT_ADAPTER_PORT },
	{ "adapter-service-lcores", required_argument, NULL,
	  OPT_ADAPTER_SVC_LCORES },
	{ "adapter-ports", required_argument, NULL, OPT_ADAPTER_PORTS },
	{ "max-sleep-us", required_argument, NULL, OPT_MAX_SLEEP_US },
	{ "load", required_argument, NULL, OPT_LOAD },
	{ "duration-s", required_argument, NULL, OPT_DURATION_S },
	{ "load-rate", required_argument, NULL, OPT_LOAD_RATE },
	{ "burst-timers", required_argument, NULL, OPT_BURST_TIMERS },
	{ "burst-period-ms", required_argument, NULL, OPT_BURST_PERIOD_MS },
	{ NULL, 0, NULL, 0 },
};

static int
parse_one(struct evt_options *opt, int c, const char *arg)
{
	uint64_t v;
	int ret = 0;

	switch (c) {
	case OPT_TEST:
		if (strcmp(arg, "perf_queue") == 0) {
			opt->test = EVT_TEST_PERF_QUEUE;
		} else if (strcmp(arg, "perf_atq") == 0) {
			opt->test = EVT_TEST_PERF_ATQ;
		} else {
			fprintf(stderr, APP ": --test: '%s' is not one of this"
				" application's tests (perf_queue, perf_atq)\n",
				arg);
			ret = -EINVAL;
		}
		break;
	case OPT_DEV:
		ret = parse_ranged("dev", arg, 0, RTE_EVENT_MAX_DEVS - 1, &v);
		opt->dev_id = (uint8_t)v;
		break;
	case OPT_VERBOSE:
		ret = parse_ranged("verbose", arg, 0, 100, &v);
		opt->verbose_level = (int)v;
		break;
	case OPT_PLCORES:
		ret = parse_lcore_list("plcores", arg, opt->plcores);
		break;
	case OPT_WLCORES:
		ret = parse_lcore_list("wlcores", arg, opt->wlcores);
		break;
	case OPT_STLIST:
		ret = parse_stlist(opt, arg);
		break;
	case OPT_NB_FLOWS:
		ret = parse_ranged("nb_flows", arg, 1, UINT32_MAX, &v);
		opt->nb_flows = (uint32_t)v;
		break;
	case OPT_NB_TIMERS:
		ret = parse_ranged("nb_timers", arg, 1, UINT64_MAX / 2,
				   &opt->nb_timers);
		break;
	case OPT_NB_TIMER_ADPTRS:
		ret = parse_ranged("nb_timer_adptrs", arg, 1, EVT_MAX_ADAPTERS,
				   &v);
		opt->nb_timer_adptrs = (uint8_t)v;
		break;
	case OPT_TIMER_TICK_NSEC:
		ret = parse_ranged("timer_tick_nsec", arg, 1, UINT64_MAX / 4,
				   &opt->timer_tick_nsec);
		break;
	case OPT_MAX_TMO_NSEC:
		ret = parse_ranged("max_tmo_nsec", arg, 1, UINT64_MAX / 4,
				   &opt->max_tmo_nsec);
		break;
	case OPT_EXPIRY_NSEC:
		ret = parse_ranged("expiry_nsec", arg, 0, UINT64_MAX / 4,
				   &opt->expiry_nsec);
		break;
	case OPT_POOL_SZ:
		ret = parse_ranged("pool_sz", arg, 1, UINT32_MAX / 2, &v);
		opt->pool_sz = (uint32_t)v;
		break;
	case OPT_PROD_TIMERDEV:
		opt->timdev = true;
		break;
	case OPT_PROD_TIMERDEV_BURST:
		opt->timdev = true;
		opt->timdev_use_burst = true;
		break;
	case OPT_PROD_ENQ_BURST_SZ:
		ret = parse_ranged("prod_enq_burst_sz", arg, 0, UINT32_MAX, &v);
		opt->prod_enq_burst_sz = (uint32_t)v;
		break;
	case OPT_WKR_DEQ_DEP:
		ret = parse_ranged("worker_deq_depth", arg, 1, UINT16_MAX, &v);
		opt->wkr_deq_dep = (uint16_t)v;
		break;
	case OPT_FWD_LATENCY:
		opt->fwd_latency = true;
		break;
	case OPT_QUEUE_PRIORITY:
		opt->q_priority = true;
		break;
	case OPT_DEQ_TMO_NSEC:
		ret = parse_ranged("deq_tmo_nsec", arg, 0, UINT32_MAX, &v);
		opt->deq_tmo_nsec = (uint32_t)v;
		break;
	case OPT_SOCKET_ID:
		ret = parse_ranged("socket_id", arg, 0, RTE_MAX_NUMA_NODES - 1,
				   &v);
		opt->socket_id = (int)v;
		break;
	case OPT_NB_PKTS:
		ret = parse_ranged("nb_pkts", arg, 0, UINT64_MAX, &opt->nb_pkts);
		break;
	case OPT_ADAPTER:
		if (strcmp(arg, "swtim") == 0) {
			opt->adapter = EVT_ADAPTER_SWTIM;
		} else if (strcmp(arg, "dpdk") == 0) {
			opt->adapter = EVT_ADAPTER_DPDK;
		} else {
			fprintf(stderr, APP ": --adapter: want swtim or dpdk,"
				" got '%s'\n", arg);
			ret = -EINVAL;
		}
		break;
	case OPT_SWTIM_DRIVER:
		ret = copy_str("swtim-driver", arg, opt->swtim_driver,
			       sizeof(opt->swtim_driver));
		opt->swtim_driver_set = true;
		break;
	case OPT_SWTIM_ARGS:
		ret = copy_str("swtim-args", arg, opt->swtim_args,
			       sizeof(opt->swtim_args));
		opt->swtim_args_set = true;
		break;
	case OPT_JSON:
		ret = copy_str("json", arg, opt->json_path,
			       sizeof(opt->json_path));
		if (ret == 0 && arg[0] == '\0') {
			fprintf(stderr, APP ": --json: empty file name\n");
			ret = -EINVAL;
		}
		break;
	case OPT_TIMEOUT_SPREAD:
		ret = parse_ranged("timeout-spread", arg, 0, UINT64_MAX / 4,
				   &opt->timeout_spread_nsec);
		break;
	case OPT_STALL_SEC:
		ret = parse_ranged("stall-sec", arg, 1, 86400, &opt->stall_sec);
		break;
	case OPT_SEED:
		ret = parse_ranged("seed", arg, 0, UINT64_MAX, &opt->seed);
		break;
	case OPT_ADAPTER_PORT:
		if (strcmp(arg, "app") == 0) {
			opt->library_port = false;
		} else if (strcmp(arg, "library") == 0) {
			opt->library_port = true;
		} else {
			fprintf(stderr, APP ": --adapter-port: want app or"
				" library, got '%s'\n", arg);
			ret = -EINVAL;
		}
		break;
	case OPT_ADAPTER_SVC_LCORES:
		if (strcmp(arg, "all") == 0) {
			opt->adapter_svc_lcores = 0;
		} else if (parse_u64(arg, &v) < 0 || v < 1 ||
			   v > RTE_MAX_LCORE) {
			fprintf(stderr, APP ": --adapter-service-lcores: want"
				" 'all' or a number in 1..%d, got '%s'\n",
				RTE_MAX_LCORE, arg);
			ret = -EINVAL;
		} else {
			opt->adapter_svc_lcores = (uint32_t)v;
		}
		break;
	case OPT_ADAPTER_PORTS:
		ret = parse_ranged("adapter-ports", arg, 1,
				   SWTIM_ADAPTER_PORTS_MAX, &v);
		opt->adapter_ports = (uint32_t)v;
		break;
	case OPT_MAX_SLEEP_US:
		ret = parse_ranged("max-sleep-us", arg, 0, 1000000, &v);
		opt->max_sleep_us = (uint32_t)v;
		break;
	case OPT_LOAD: {
		static const enum evt_load_kind kinds[] = {
			EVT_LOAD_COUNT, EVT_LOAD_IDLE, EVT_LOAD_LOW,
			EVT_LOAD_HIGH, EVT_LOAD_BURSTY,
		};
		unsigned int k;

		ret = -EINVAL;
		for (k = 0; k < RTE_DIM(kinds); k++) {
			if (strcmp(arg, evt_load_name(kinds[k])) == 0) {
				opt->load = kinds[k];
				ret = 0;
			}
		}
		if (ret < 0)
			fprintf(stderr, APP ": --load: want count, idle, low,"
				" high or bursty, got '%s'\n", arg);
		break;
	}
	case OPT_DURATION_S:
		ret = parse_ranged("duration-s", arg, 1, 3600, &opt->duration_s);
		break;
	case OPT_LOAD_RATE:
		ret = parse_ranged("load-rate", arg, 1, 1000000000,
				   &opt->load_rate);
		opt->load_rate_set = true;
		break;
	case OPT_BURST_TIMERS:
		ret = parse_ranged("burst-timers", arg, 1, UINT32_MAX / 2,
				   &opt->burst_timers);
		break;
	case OPT_BURST_PERIOD_MS:
		ret = parse_ranged("burst-period-ms", arg, 1, 3600000,
				   &opt->burst_period_ms);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	return ret;
}

/* Checks that need nothing from EAL. */
static int
check_static(struct evt_options *opt)
{
	if (!opt->timdev) {
		fprintf(stderr, APP ": this application runs the event timer"
			" producer only: give --prod_type_timerdev or"
			" --prod_type_timerdev_burst\n");
		return -EINVAL;
	}
	if (evt_nr_lcores(opt->plcores) == 0) {
		fprintf(stderr, APP ": --plcores: at least one producer lcore"
			" is required\n");
		return -EINVAL;
	}
	if (evt_nr_lcores(opt->wlcores) == 0) {
		fprintf(stderr, APP ": --wlcores: at least one worker lcore is"
			" required\n");
		return -EINVAL;
	}
	for (unsigned int i = 0; i < RTE_MAX_LCORE; i++) {
		if (opt->plcores[i] && opt->wlcores[i]) {
			fprintf(stderr, APP ": --wlcores and --plcores both"
				" name lcore %u\n", i);
			return -EINVAL;
		}
	}
	if (opt->max_tmo_nsec < opt->timer_tick_nsec) {
		fprintf(stderr, APP ": --max_tmo_nsec (%" PRIu64 ") is below"
			" --timer_tick_nsec (%" PRIu64 ")\n",
			opt->max_tmo_nsec, opt->timer_tick_nsec);
		return -EINVAL;
	}
	if (opt->expiry_nsec + opt->timeout_spread_nsec > opt->max_tmo_nsec) {
		fprintf(stderr, APP ": --expiry_nsec (%" PRIu64 ") plus"
			" --timeout-spread (%" PRIu64 ") exceeds --max_tmo_nsec"
			" (%" PRIu64 "): the adapter would refuse the timers\n",
			opt->expiry_nsec, opt->timeout_spread_nsec,
			opt->max_tmo_nsec);
		return -EINVAL;
	}
	if (opt->adapter != EVT_ADAPTER_SWTIM &&
	    (opt->swtim_driver_set || opt->swtim_args_set)) {
		fprintf(stderr, APP ": --swtim-driver and --swtim-args apply to"
			" --adapter=swtim only\n");
		return -EINVAL;
	}
	if (opt->adapter == EVT_ADAPTER_DPDK && opt->adapter_svc_lcores != 1) {
		fprintf(stderr, APP ": --adapter-service-lcores: DPDK's software"
			" event timer adapter runs on exactly one service lcore"
			" (its start refuses a service mapped to more); only"
			" --adapter=swtim takes several\n");
		return -EINVAL;
	}
	if (opt->adapter == EVT_ADAPTER_DPDK && opt->adapter_ports != 1) {
		fprintf(stderr, APP ": --adapter-ports: DPDK's software event"
			" timer adapter enqueues through one port; only"
			" --adapter=swtim takes more\n");
		return -EINVAL;
	}
	if (opt->pool_sz < EVT_BURST_SIZE) {
		fprintf(stderr, APP ": --pool_sz (%u) below %u: a producer takes"
			" timers from the pool %u at a time\n", opt->pool_sz,
			EVT_BURST_SIZE, EVT_BURST_SIZE);
		return -EINVAL;
	}
	/* The stall detector must not give up on timers not yet due. */
	if (opt->stall_sec != 0 &&
	    opt->stall_sec * UINT64_C(1000000000) <=
	    opt->expiry_nsec + opt->timeout_spread_nsec) {
		fprintf(stderr, APP ": --stall-sec (%" PRIu64 ") is not above"
			" the longest timeout (%" PRIu64 " ns): a run would"
			" give up before its timers fall due\n", opt->stall_sec,
			opt->expiry_nsec + opt->timeout_spread_nsec);
		return -EINVAL;
	}
	if (opt->library_port && opt->adapter_ports > 1) {
		fprintf(stderr, APP ": --adapter-ports above 1 needs"
			" --adapter-port=app: the extra ports are added to the"
			" device configuration this application keeps, which a"
			" port the library added is not part of\n");
		return -EINVAL;
	}
	if (opt->load == EVT_LOAD_LOW && !opt->load_rate_set)
		opt->load_rate = EVT_LOAD_LOW_RATE;
	if (opt->load_rate_set && opt->load != EVT_LOAD_LOW &&
	    opt->load != EVT_LOAD_HIGH) {
		fprintf(stderr, APP ": --load-rate applies to --load=low and"
			" --load=high only\n");
		return -EINVAL;
	}
	if (opt->load == EVT_LOAD_BURSTY && opt->burst_timers > opt->pool_sz) {
		fprintf(stderr, APP ": --burst-timers (%" PRIu64 ") exceeds"
			" --pool_sz (%u): a burst could never be armed at once;"
			" raise --pool_sz\n", opt->burst_timers, opt->pool_sz);
		return -EINVAL;
	}
	if (opt->nb_stages == 0) {
		opt->sched_type_list[0] = RTE_SCHED_TYPE_ATOMIC;
		opt->nb_stages = 1;
	}
	return 0;
}

int
evt_options_parse(struct evt_options *opt, int argc, char **argv)
{
	int c, idx, ret;

	optind = 0;	/* full reinitialisation of getopt */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", evt_longopts, &idx)) != -1) {
		if (c == '?') {
			if (optopt != 0)
				fprintf(stderr, APP ": unknown option '-%c'\n",
					optopt);
			else
				fprintf(stderr, APP ": unknown or ambiguous"
					" option '%s'\n", argv[optind - 1]);
			goto bad;
		}
		if (c == ':') {
			fprintf(stderr, APP ": option '%s' needs a value\n",
				argv[optind - 1]);
			goto bad;
		}
		if (c == OPT_HELP) {
			evt_options_usage(argv[0]);
			return 1;
		}
		ret = parse_one(opt, c, optarg);
		if (ret < 0)
			goto bad;
	}
	if (optind < argc) {
		fprintf(stderr, APP ": unexpected argument '%s'\n",
			argv[optind]);
		goto bad;
	}
	optind = 0;
	if (check_static(opt) < 0)
		goto bad;
	return 0;
bad:
	optind = 0;
	fprintf(stderr, "\n");
	evt_options_usage(argv[0]);
	return -EINVAL;
}

static int
check_lcores(const char *name, const bool *set)
{
	unsigned int i;

	for (i = 0; i < RTE_MAX_LCORE; i++) {
		if (!set[i])
			continue;
		if (i == rte_get_main_lcore()) {
			fprintf(stderr, APP ": --%s: lcore %u is the main lcore,"
				" which only supervises the run\n", name, i);
			return -EINVAL;
		}
		if (!rte_lcore_is_enabled(i)) {
			fprintf(stderr, APP ": --%s: lcore %u is not an EAL"
				" worker lcore (not in -l/--lcores, or a service"
				" lcore)\n", name, i);
			return -EINVAL;
		}
	}
	return 0;
}

int
evt_options_check(struct evt_options *opt)
{
	char *p = opt->stlist_str;
	uint8_t i;

	if (check_lcores("plcores", opt->plcores) < 0 ||
	    check_lcores("wlcores", opt->wlcores) < 0)
		goto bad;
	if (opt->dev_id >= rte_event_dev_count()) {
		fprintf(stderr, APP ": --dev: no event device %u (there are %u);"
			" create one with an EAL option such as"
			" --vdev=event_dsw0\n", opt->dev_id,
			rte_event_dev_count());
		goto bad;
	}
	for (i = 0; i < opt->nb_stages; i++) {
		/* RTE_SCHED_TYPE_ORDERED, _ATOMIC, _PARALLEL are 0, 1, 2. */
		*p++ = "oap"[opt->sched_type_list[i] % 3];
		if (i + 1 < opt->nb_stages)
			*p++ = ',';
	}
	*p = '\0';
	return 0;
bad:
	fprintf(stderr, "\n");
	evt_options_usage("swtim-test-eventdev");
	return -EINVAL;
}

static void
dump_lcores(const char *name, const bool *set)
{
	unsigned int i;
	const char *sep = "";

	printf("\t%-20s : ", name);
	for (i = 0; i < RTE_MAX_LCORE; i++) {
		if (set[i]) {
			printf("%s%u", sep, i);
			sep = ",";
		}
	}
	printf("\n");
}

void
evt_options_dump(const struct evt_options *opt)
{
	printf("\t%-20s : %s\n", "test", evt_test_name(opt->test));
	printf("\t%-20s : %s%s%s%s\n", "adapter", evt_adapter_name(opt->adapter),
	       opt->adapter == EVT_ADAPTER_SWTIM ? " (driver " : "",
	       opt->adapter == EVT_ADAPTER_SWTIM ?
	       (opt->swtim_driver[0] ? opt->swtim_driver :
		SWTIM_DEFAULT_DRIVER) : "",
	       opt->adapter == EVT_ADAPTER_SWTIM ? ")" : "");
	if (opt->swtim_args[0])
		printf("\t%-20s : %s\n", "swtim_args", opt->swtim_args);
	printf("\t%-20s : %u\n", "dev", opt->dev_id);
	dump_lcores("plcores", opt->plcores);
	dump_lcores("wlcores", opt->wlcores);
	printf("\t%-20s : %s\n", "stlist", opt->stlist_str);
	printf("\t%-20s : %s\n", "prod_type",
	       opt->timdev_use_burst ? "event_timer_adptr (burst)" :
	       "event_timer_adptr");
	printf("\t%-20s : %u\n", "nb_flows", opt->nb_flows);
	printf("\t%-20s : %" PRIu64 "\n", "nb_timers", opt->nb_timers);
	printf("\t%-20s : %u\n", "nb_timer_adptrs", opt->nb_timer_adptrs);
	printf("\t%-20s : %" PRIu64 "\n", "timer_tick_nsec",
	       opt->timer_tick_nsec);
	printf("\t%-20s : %" PRIu64 "\n", "max_tmo_nsec", opt->max_tmo_nsec);
	printf("\t%-20s : %" PRIu64 "\n", "expiry_nsec", opt->expiry_nsec);
	if (opt->timeout_spread_nsec)
		printf("\t%-20s : %" PRIu64 "\n", "timeout_spread_nsec",
		       opt->timeout_spread_nsec);
	printf("\t%-20s : %u\n", "pool_sz", opt->pool_sz);
	printf("\t%-20s : %u\n", "worker_deq_depth", opt->wkr_deq_dep);
	printf("\t%-20s : %s\n", "fwd_latency",
	       opt->fwd_latency ? "true" : "false");
	printf("\t%-20s : %s\n", "adapter port",
	       opt->library_port ? "added by the library" :
	       "added by the application");
	if (opt->adapter_svc_lcores != 1) {
		if (opt->adapter_svc_lcores == 0)
			printf("\t%-20s : all\n", "adapter svc lcores");
		else
			printf("\t%-20s : %u\n", "adapter svc lcores",
			       opt->adapter_svc_lcores);
	}
	if (opt->adapter_ports != 1)
		printf("\t%-20s : %u\n", "adapter ports",
		       opt->adapter_ports);
	if (opt->max_sleep_us)
		printf("\t%-20s : %u us\n", "worker max sleep",
		       opt->max_sleep_us);
	if (opt->load != EVT_LOAD_COUNT) {
		printf("\t%-20s : %s for %" PRIu64 " s", "load",
		       evt_load_name(opt->load), opt->duration_s);
		if (opt->load == EVT_LOAD_BURSTY)
			printf(", %" PRIu64 " timers every %" PRIu64 " ms",
			       opt->burst_timers, opt->burst_period_ms);
		else if (opt->load_rate)
			printf(", %" PRIu64 " timers/s per producer",
			       opt->load_rate);
		else if (opt->load == EVT_LOAD_HIGH)
			printf(", as fast as possible");
		printf("\n");
	}
}
