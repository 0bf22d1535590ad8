/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Command line options. Each is declared once, in evt_opts[] below, from
 * which evt_optable.c makes the parser, the --help lines and the report's
 * options; what relates one option to another is checked after the
 * parse, in check_static() and evt_options_check(). Long options only,
 * as getopt_long() takes them: "--name=value" or "--name value", and any
 * unambiguous prefix of a name ("--wlcore" for "--wlcores"), which is
 * what dpdk-test-eventdev accepts too.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_debug.h>
#include <rte_eventdev.h>
#include <rte_lcore.h>

#include <swtim.h>

#include "evt_optable.h"
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

/*
 * The names each choice option accepts; the same lists name the values
 * in the dump and the report.
 */
static const struct evt_opt_choice test_choices[] = {
	{ "perf_queue", EVT_TEST_PERF_QUEUE },
	{ "perf_atq", EVT_TEST_PERF_ATQ },
	{ NULL, 0 },
};

static const struct evt_opt_choice adapter_choices[] = {
	{ "swtim", EVT_ADAPTER_SWTIM },
	{ "dpdk", EVT_ADAPTER_DPDK },
	{ NULL, 0 },
};

/* Who adds each adapter's event port: the value is library_port. */
static const struct evt_opt_choice adapter_port_choices[] = {
	{ "app", false },
	{ "library", true },
	{ NULL, 0 },
};

static const struct evt_opt_choice load_choices[] = {
	{ "count", EVT_LOAD_COUNT },
	{ "idle", EVT_LOAD_IDLE },
	{ "low", EVT_LOAD_LOW },
	{ "high", EVT_LOAD_HIGH },
	{ "bursty", EVT_LOAD_BURSTY },
	{ NULL, 0 },
};

const char *
evt_load_name(enum evt_load_kind k)
{
	return evt_optable_choice_name(load_choices, k);
}

const char *
evt_test_name(enum evt_test_kind k)
{
	return evt_optable_choice_name(test_choices, k);
}

const char *
evt_adapter_name(enum evt_adapter_kind k)
{
	return evt_optable_choice_name(adapter_choices, k);
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


static int
parse_stlist(struct evt_options *opt, const struct evt_opt *o,
	     const char *arg)
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
			fprintf(stderr, APP ": --%s: '%c' is not a schedule"
				" type (a, o or p) in '%s'\n", o->name, *p,
				arg);
			return -EINVAL;
		}
		if (n == EVT_MAX_STAGES) {
			fprintf(stderr, APP ": --%s: more than %d stages\n",
				o->name, EVT_MAX_STAGES);
			return -EINVAL;
		}
		opt->sched_type_list[n++] = t;
	}
	if (n == 0) {
		fprintf(stderr, APP ": --%s: no stage in '%s'\n", o->name, arg);
		return -EINVAL;
	}
	opt->nb_stages = n;
	return 0;
}

/* The stages as "a,p", which evt_options_check() writes. */
static void
report_stlist(struct json_writer *j, const struct evt_options *opt,
	      const struct evt_opt *o)
{
	json_str(j, o->json, opt->stlist_str);
}

/* An empty driver is the library's default: report which that is. */
static void
report_swtim_driver(struct json_writer *j, const struct evt_options *opt,
		    const struct evt_opt *o)
{
	json_str(j, o->json, opt->swtim_driver[0] != '\0' ?
		 opt->swtim_driver : SWTIM_DEFAULT_DRIVER);
}

static bool
adapter_is_swtim(const struct evt_options *opt)
{
	return opt->adapter == EVT_ADAPTER_SWTIM;
}

static bool
load_is_timed(const struct evt_options *opt)
{
	return opt->load != EVT_LOAD_COUNT;
}

static bool
load_is_paced(const struct evt_options *opt)
{
	return opt->load == EVT_LOAD_LOW || opt->load == EVT_LOAD_HIGH;
}

static bool
load_is_bursty(const struct evt_options *opt)
{
	return opt->load == EVT_LOAD_BURSTY;
}

/*
 * Every option, in the order --help lists them. A default the help
 * states is EVT_OPT_HELP_DEFAULT, which --help prints from
 * evt_options_default(), or a named constant: never a number here.
 */
static const struct evt_opt evt_opts[] = {
	{
		.name = "test", .kind = EVT_OPT_CHOICE, .arg = "NAME",
		EVT_OPT_FIELD(test), .choices = test_choices,
		.json = "test",
		.help = "perf_queue or perf_atq (default "
			EVT_OPT_HELP_DEFAULT ")",
		.section = "Options of dpdk-test-eventdev"
			" (same meaning and defaults):",
	},
	{
		.name = "dev", .kind = EVT_OPT_UINT, .arg = "ID",
		EVT_OPT_FIELD(dev_id), .min = 0, .max = RTE_EVENT_MAX_DEVS - 1,
		.json = "dev",
		.help = "event device id (default " EVT_OPT_HELP_DEFAULT ")",
	},
	{
		.name = "plcores", .kind = EVT_OPT_LCORES, .arg = "LIST",
		EVT_OPT_FIELD(plcores),
		.help = "producer lcores, e.g. 1 or 1,3-4 (required)",
	},
	{
		.name = "wlcores", .kind = EVT_OPT_LCORES, .arg = "LIST",
		EVT_OPT_FIELD(wlcores),
		.help = "worker lcores (required)",
	},
	{
		.name = "stlist", .kind = EVT_OPT_CUSTOM, .arg = "TYPES",
		.parse = parse_stlist,
		.json = "stlist", .report = report_stlist,
		.help = "schedule type of each stage: a(tomic),\n"
			"o(rdered), p(arallel), e.g. a or a,p\n"
			"(default: a, one atomic stage)",
	},
	{
		.name = "nb_flows", .kind = EVT_OPT_UINT, .arg = "N",
		EVT_OPT_FIELD(nb_flows), .min = 1, .max = UINT32_MAX,
		.json = "nb_flows",
		.help = "flows per queue (default " EVT_OPT_HELP_DEFAULT ")",
	},
	{
		.name = "nb_timers", .kind = EVT_OPT_UINT, .arg = "N",
		EVT_OPT_FIELD(nb_timers), .min = 1, .max = UINT64_MAX / 2,
		.json = "nb_timers",
		.help = "timers each producer arms (default "
			EVT_OPT_HELP_DEFAULT ")",
	},
	{
		.name = "nb_timer_adptrs", .kind = EVT_OPT_UINT, .arg = "N",
		EVT_OPT_FIELD(nb_timer_adptrs), .min = 1,
		.max = EVT_MAX_ADAPTERS,
		.json = "nb_timer_adptrs",
		.help = "adapters, used round robin (default "
			EVT_OPT_HELP_DEFAULT ", max " RTE_STR(EVT_MAX_ADAPTERS)
			")",
	},
	{
		.name = "timer_tick_nsec", .kind = EVT_OPT_UINT, .arg = "NS",
		EVT_OPT_FIELD(timer_tick_nsec), .min = 1,
		.max = UINT64_MAX / 4,
		.json = "timer_tick_nsec",
		.help = "adapter tick (default " EVT_OPT_HELP_DEFAULT ")",
	},
	{
		.name = "max_tmo_nsec", .kind = EVT_OPT_UINT, .arg = "NS",
		EVT_OPT_FIELD(max_tmo_nsec), .min = 1, .max = UINT64_MAX / 4,
		.json = "max_tmo_nsec",
		.help = "adapter maximum timeout (default "
			EVT_OPT_HELP_DEFAULT ")",
	},
	{
		.name = "expiry_nsec", .kind = EVT_OPT_UINT, .arg = "NS",
		EVT_OPT_FIELD(expiry_nsec), .min = 0, .max = UINT64_MAX / 4,
		.json = "expiry_nsec",
		.help = "timeout of each timer (default "
			EVT_OPT_HELP_DEFAULT ")",
	},
	{
		.name = "pool_sz", .kind = EVT_OPT_UINT, .arg = "N",
		EVT_OPT_FIELD(pool_sz), .min = 1, .max = UINT32_MAX / 2,
		.json = "pool_sz",
		.help = "timer objects, i.e. the most timers outstanding;\n"
			"also the adapter's nb_timers (default "
			EVT_OPT_HELP_DEFAULT ")",
	},
	{
		.name = "prod_type_timerdev", .kind = EVT_OPT_FLAG,
		EVT_OPT_FIELD(timdev),
		.help = "producers arm one timer per call (arm_burst 1)",
	},
	{
		.name = "prod_type_timerdev_burst", .kind = EVT_OPT_FLAG,
		EVT_OPT_FIELD(timdev_use_burst), EVT_OPT_GIVEN(timdev),
		.json = "burst",
		.help = "producers arm 16 timers per call\n"
			"(arm_tmo_tick_burst; arm_burst with a spread)",
	},
	{
		.name = "prod_enq_burst_sz", .kind = EVT_OPT_UINT, .arg = "N",
		EVT_OPT_FIELD(prod_enq_burst_sz), .min = 0,
		.max = UINT32_MAX,
		.help = "accepted; timer producers arm by 16 as upstream",
	},
	{
		.name = "worker_deq_depth", .kind = EVT_OPT_UINT, .arg = "N",
		EVT_OPT_FIELD(wkr_deq_dep), .min = 1, .max = UINT16_MAX,
		.json = "worker_deq_depth",
		.help = "worker port dequeue depth and burst (default "
			EVT_OPT_HELP_DEFAULT ")",
	},
	{
		.name = "fwd_latency", .kind = EVT_OPT_FLAG,
		EVT_OPT_FIELD(fwd_latency),
		.json = "fwd_latency",
		.help = "also measure arm-to-last-stage latency",
	},
	{
		.name = "queue_priority", .kind = EVT_OPT_FLAG,
		EVT_OPT_FIELD(q_priority),
		.help = "stage queues get rising priorities",
	},
	{
		.name = "deq_tmo_nsec", .kind = EVT_OPT_UINT, .arg = "NS",
		EVT_OPT_FIELD(deq_tmo_nsec), .min = 0, .max = UINT32_MAX,
		.help = "event device dequeue timeout (default "
			EVT_OPT_HELP_DEFAULT ")",
	},
	{
		.name = "socket_id", .kind = EVT_OPT_INT, .arg = "N",
		EVT_OPT_FIELD(socket_id), .min = 0,
		.max = RTE_MAX_NUMA_NODES - 1,
		.below_min = "any",
		.help = "socket of the timer objects (default "
			EVT_OPT_HELP_DEFAULT ")",
	},
	{
		.name = "nb_pkts", .kind = EVT_OPT_UINT, .arg = "N",
		EVT_OPT_FIELD(nb_pkts), .min = 0, .max = UINT64_MAX,
		.help = "accepted and ignored, as in timer runs",
	},
	{
		.name = "verbose", .kind = EVT_OPT_INT, .arg = "N",
		EVT_OPT_FIELD(verbose_level), .min = 0, .max = 100,
		.help = "0: results only, 1: progress too, 2: more\n"
			"(default " EVT_OPT_HELP_DEFAULT ")",
	},
	{
		.name = "help", .kind = EVT_OPT_HELP,
		.help = "this text",
	},
	{
		.name = "adapter", .kind = EVT_OPT_CHOICE,
		EVT_OPT_FIELD(adapter), .choices = adapter_choices,
		.json = "adapter",
		.help = "timer adapter to measure (default "
			EVT_OPT_HELP_DEFAULT ")",
		.section = "Options of this application:",
	},
	{
		.name = "swtim-driver", .kind = EVT_OPT_STRING, .arg = "NAME",
		EVT_OPT_FIELD(swtim_driver), EVT_OPT_GIVEN(swtim_driver_set),
		.json = "swtim_driver", .in_force = adapter_is_swtim,
		.report = report_swtim_driver,
		.help = "swtim driver (default: the library's, "
			SWTIM_DEFAULT_DRIVER ")",
	},
	{
		.name = "swtim-args", .kind = EVT_OPT_STRING, .arg = "K=V,...",
		EVT_OPT_FIELD(swtim_args), EVT_OPT_GIVEN(swtim_args_set),
		.json = "swtim_args", .in_force = adapter_is_swtim,
		.help = "swtim driver options",
	},
	{
		.name = "json", .kind = EVT_OPT_STRING, .arg = "FILE",
		EVT_OPT_FIELD(json_path), .min = 1,
		.help = "write every figure to FILE as JSON",
	},
	{
		.name = "timeout-spread", .kind = EVT_OPT_UINT, .arg = "NS",
		EVT_OPT_FIELD(timeout_spread_nsec), .min = 0,
		.max = UINT64_MAX / 4,
		.json = "timeout_spread_nsec",
		.help = "arm each timer with its own random timeout in\n"
			"[expiry_nsec, expiry_nsec + NS] (default "
			EVT_OPT_HELP_DEFAULT ")",
	},
	{
		.name = "stall-sec", .kind = EVT_OPT_UINT, .arg = "S",
		EVT_OPT_FIELD(stall_sec), .min = 1, .max = 86400,
		.help = "give up after S seconds without progress\n"
			"(default " RTE_STR(EVT_STALL_SLACK_S)
			" s plus max_tmo_nsec, rounded up\n"
			"to whole seconds)",
	},
	{
		.name = "seed", .kind = EVT_OPT_UINT, .arg = "N",
		EVT_OPT_FIELD(seed), .min = 0, .max = UINT64_MAX,
		.help = "seed of the timeout spread (default "
			EVT_OPT_HELP_DEFAULT ")",
	},
	{
		.name = "adapter-port", .kind = EVT_OPT_CHOICE,
		EVT_OPT_FIELD(library_port), .choices = adapter_port_choices,
		.json = "adapter_port",
		.help = "who adds each adapter's event port: this\n"
			"application, from the device configuration it\n"
			"chose, as DPDK's default callback does (app),\n"
			"or the adapter library's own create()\n"
			"(rte_event_timer_adapter_create(),\n"
			"swtim_adapter_create()) (library); default "
			EVT_OPT_HELP_DEFAULT,
	},
	{
		.name = "adapter-service-lcores", .kind = EVT_OPT_UINT,
		.arg = "N|all",
		EVT_OPT_FIELD(adapter_svc_lcores), .min = 1,
		.max = RTE_MAX_LCORE, .word = "all", .word_value = 0,
		.json = "adapter_service_lcores",
		.help = "map each adapter's service to N service\n"
			"lcores, or to all of them (default "
			EVT_OPT_HELP_DEFAULT "). swtim's\n"
			"services are MT safe and split their work per\n"
			"producer lcore's wheel or list; DPDK's adapter\n"
			"refuses more than one service lcore",
	},
	{
		.name = "adapter-ports", .kind = EVT_OPT_UINT, .arg = "N",
		EVT_OPT_FIELD(adapter_ports), .min = 1,
		.max = SWTIM_ADAPTER_PORTS_MAX,
		.json = "adapter_ports",
		.help = "give each adapter N event ports (default "
			EVT_OPT_HELP_DEFAULT ";\n"
			"swtim_adapter_port_add()): the producer lcores'\n"
			"timers are delivered through them round robin,\n"
			"so service lcores enqueue in parallel; swtim\n"
			"only",
	},
	{
		.name = "max-sleep-us", .kind = EVT_OPT_UINT, .arg = "N",
		EVT_OPT_FIELD(max_sleep_us), .min = 0, .max = 1000000,
		.json = "max_sleep_us",
		.help = "worker lcores sleep when idle, like testpmd's:\n"
			"after a dequeue of less than half a burst a\n"
			"worker sleeps " RTE_STR(EVT_WORKER_SLEEP_STEP_US)
			" us longer than after the one\n"
			"before, up to N us; half a burst or more returns\n"
			"it to full polling\n"
			"(default " EVT_OPT_HELP_DEFAULT
			"; 0: never sleep). The adapter's service\n"
			"sleeps with --swtim-args=max_sleep_us=N",
		.section = "Power and load (see doc/performance.md,"
			" \"Power: sleeping service\"):",
	},
	{
		.name = "load", .kind = EVT_OPT_CHOICE, .arg = "KIND",
		EVT_OPT_FIELD(load), .choices = load_choices,
		.json = "load",
		.help = "what the producers offer (default "
			EVT_OPT_HELP_DEFAULT "):\n"
			"count  - each arms --nb_timers as fast as it can,\n"
			"         the run ends when all have expired\n"
			"         (dpdk-test-eventdev's way)\n"
			"idle   - nothing, for --duration-s\n"
			"low    - --load-rate timers/s (default "
			RTE_STR(EVT_LOAD_LOW_RATE) ") per\n"
			"         producer, evenly paced, for --duration-s\n"
			"high   - as fast as it can (or --load-rate) for\n"
			"         --duration-s\n"
			"bursty - --burst-timers timers (default "
			RTE_STR(EVT_LOAD_BURST_TIMERS) ") at\n"
			"         once every --burst-period-ms (default\n"
			"         " RTE_STR(EVT_LOAD_BURST_PERIOD_MS)
			"), for --duration-s\n"
			"Timed loads ignore --nb_timers; the run ends once\n"
			"the timers armed in the duration have expired",
	},
	{
		.name = "duration-s", .kind = EVT_OPT_UINT, .arg = "S",
		EVT_OPT_FIELD(duration_s), .min = 1, .max = 3600,
		.json = "duration_s", .in_force = load_is_timed,
		.help = "length of a timed load (default "
			EVT_OPT_HELP_DEFAULT ")",
	},
	{
		.name = "load-rate", .kind = EVT_OPT_UINT, .arg = "N",
		EVT_OPT_FIELD(load_rate), EVT_OPT_GIVEN(load_rate_set),
		.min = 1, .max = 1000000000,
		.json = "load_rate", .in_force = load_is_paced,
		.help = "timers/s per producer for low and high",
	},
	{
		.name = "burst-timers", .kind = EVT_OPT_UINT, .arg = "N",
		EVT_OPT_FIELD(burst_timers), .min = 1, .max = UINT32_MAX / 2,
		.json = "burst_timers", .in_force = load_is_bursty,
		.help = "timers per burst, at most --pool_sz",
	},
	{
		.name = "burst-period-ms", .kind = EVT_OPT_UINT, .arg = "MS",
		EVT_OPT_FIELD(burst_period_ms), .min = 1, .max = 3600000,
		.json = "burst_period_ms", .in_force = load_is_bursty,
		.help = "time from one burst's start to the next",
	},
};

void
evt_options_usage(const char *prgname)
{
	struct evt_options defaults;

	printf(
"Usage: %s [EAL options] -- [options]\n"
"\n"
"Event timer adapter benchmark: producer lcores arm event timers, worker\n"
"lcores dequeue their expiry events. Runs swtim or DPDK's own software\n"
"event timer adapter; takes dpdk-test-eventdev's timer command lines.\n",
	       prgname);
	evt_options_default(&defaults);
	evt_optable_usage(evt_opts, RTE_DIM(evt_opts), &defaults, stdout);
	printf(
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
	       prgname, EVT_EXIT_USAGE);
}

void
evt_options_report(const struct evt_options *opt, struct json_writer *j)
{
	evt_optable_report(evt_opts, RTE_DIM(evt_opts), opt, j);
}

/*
 * After a bad command line: the message above names what is wrong, and
 * a hundred lines of usage would push it off the screen.
 */
static void
see_help(void)
{
	fprintf(stderr, APP ": see --help\n");
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
	int ret;

	/* A table mistake shows in every run, --help included. */
	RTE_VERIFY(evt_optable_check(evt_opts, RTE_DIM(evt_opts)));
	ret = evt_optable_parse(evt_opts, RTE_DIM(evt_opts), opt, argc, argv);
	if (ret == EVT_OPTABLE_HELP) {
		evt_options_usage(argv[0]);
		return 1;
	}
	if (ret == 0)
		ret = check_static(opt);
	if (ret < 0)
		see_help();
	return ret;
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
	see_help();
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
