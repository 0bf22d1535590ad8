/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * arm_one: the smallest complete swtim program.
 *
 * It configures an event device with one ATOMIC queue and one worker port,
 * creates a swtim adapter (which adds its own event port to the device),
 * runs the adapter's service on a service lcore, arms one event timer and
 * waits on the main lcore for its expiry event.
 *
 * Run, for example, on a machine without hugepages:
 *
 *   ./build/arm_one --no-huge -m 512 --no-shconf --no-pci \
 *       --vdev=event_dsw0 --lcores '0@0,1@1' -s 0x2 -- --ticks 100
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eventdev.h>
#include <rte_event_timer_adapter.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_service.h>

#include <swtim.h>

#define APP "arm_one"

/* Exit codes. */
#define EXIT_OK		0
#define EXIT_ERROR	1	/* setup failed or the event was wrong */
#define EXIT_TIMEOUT	2	/* no expiry event within --wait-ms */

#define ADAPTER_ID	0
#define TICK_NS		(UINT64_C(1000) * 1000)			/* 1 ms */
#define MAX_TMO_NS	(UINT64_C(10) * 1000 * 1000 * 1000)	/* 10 s */
#define MAX_TICKS	(MAX_TMO_NS / TICK_NS)
#define NB_TIMERS	16
#define QUEUE_ID	0
#define WORKER_PORT	0
#define FLOW_ID		0x5a5	/* any value that fits in 20 bits */
#define IDLE_SLEEP_US	100
#define DEFAULT_TICKS	100
#define DEFAULT_SLACK_MS 2000

struct options {
	const char *dev_name;	/* NULL: event device 0 */
	uint64_t ticks;
	uint64_t wait_ms;	/* 0: requested timeout + DEFAULT_SLACK_MS */
};

static void
usage(const char *prgname)
{
	printf("Usage: %s [EAL options] -- [options]\n"
	       "\n"
	       "Arms one swtim event timer and waits for its expiry event.\n"
	       "\n"
	       "Options (after --):\n"
	       "  -d, --dev NAME     event device to use (default: event device 0),\n"
	       "                     e.g. event_dsw0 or event_sw0 created with --vdev\n"
	       "  -t, --ticks N      timeout in adapter ticks of 1 ms, 1..%" PRIu64
	       " (default %d)\n"
	       "  -w, --wait-ms MS   give up after MS ms without the expiry event\n"
	       "                     (default: the timeout + %d ms)\n"
	       "  -h, --help         print this help and exit\n"
	       "\n"
	       "The adapter's service (and event_sw's scheduler service) run on\n"
	       "the first service lcore, so EAL needs one: give -s COREMASK or\n"
	       "-S LIST after --lcores, e.g.\n"
	       "  %s --no-huge -m 512 --no-shconf --no-pci --vdev=event_dsw0 \\\n"
	       "      --lcores '0@0,1@1' -s 0x2 -- --ticks 100\n"
	       "\n"
	       "Exit status: 0 when the expiry event arrived, not early and as\n"
	       "armed; %d on errors; %d when no event arrived in time.\n",
	       prgname, MAX_TICKS, DEFAULT_TICKS, DEFAULT_SLACK_MS,
	       prgname, EXIT_ERROR, EXIT_TIMEOUT);
}

static void
usage_hook(const char *prgname)
{
	printf("\n");
	usage(prgname);
}

/* Whether "--help" or "-h" follows a "--": answered before EAL starts. */
static bool
help_requested(int argc, char **argv)
{
	bool after_dashes = false;
	int i;

	for (i = 1; i < argc; i++) {
		if (!after_dashes) {
			after_dashes = strcmp(argv[i], "--") == 0;
			continue;
		}
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return true;
	}
	return false;
}

static int
parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *val)
{
	char *end;
	unsigned long long v;

	if (s[0] == '\0' || s[0] == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return -EINVAL;
	*val = v;
	return 0;
}

static int
parse_args(int argc, char **argv, struct options *opt)
{
	static const struct option longopts[] = {
		{ "dev", required_argument, NULL, 'd' },
		{ "ticks", required_argument, NULL, 't' },
		{ "wait-ms", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opt->dev_name = NULL;
	opt->ticks = DEFAULT_TICKS;
	opt->wait_ms = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:t:w:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			opt->dev_name = optarg;
			break;
		case 't':
			if (parse_u64(optarg, 1, MAX_TICKS,
				      &opt->ticks) < 0) {
				fprintf(stderr, APP ": --ticks: want 1..%" PRIu64
					", got '%s'\n", MAX_TICKS,
					optarg);
				return -EINVAL;
			}
			break;
		case 'w':
			if (parse_u64(optarg, 1, UINT32_MAX, &opt->wait_ms) < 0) {
				fprintf(stderr, APP ": --wait-ms: want a positive"
					" number of ms, got '%s'\n", optarg);
				return -EINVAL;
			}
			break;
		default:
			/* getopt_long has said what was wrong. */
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, APP ": unexpected argument '%s'\n", argv[optind]);
		return -EINVAL;
	}
	return 0;
}

static const char *
sched_type_str(uint8_t t)
{
	switch (t) {
	case RTE_SCHED_TYPE_ORDERED:
		return "ORDERED";
	case RTE_SCHED_TYPE_ATOMIC:
		return "ATOMIC";
	case RTE_SCHED_TYPE_PARALLEL:
		return "PARALLEL";
	default:
		return "?";
	}
}

static const char *
event_type_str(uint8_t t)
{
	switch (t) {
	case RTE_EVENT_TYPE_ETHDEV:
		return "ETHDEV";
	case RTE_EVENT_TYPE_CRYPTODEV:
		return "CRYPTODEV";
	case RTE_EVENT_TYPE_TIMER:
		return "TIMER";
	case RTE_EVENT_TYPE_CPU:
		return "CPU";
	default:
		return "?";
	}
}

/* Pick the event device: by name, or device 0. */
static int
find_event_dev(const char *name, uint8_t *dev_id)
{
	int id;

	if (rte_event_dev_count() == 0) {
		fprintf(stderr, APP ": no event device; create one with an EAL"
			" option such as --vdev=event_dsw0\n");
		return -ENODEV;
	}
	if (name == NULL) {
		*dev_id = 0;
		return 0;
	}
	id = rte_event_dev_get_dev_id(name);
	if (id < 0) {
		fprintf(stderr, APP ": no event device named '%s'\n", name);
		return -ENODEV;
	}
	*dev_id = (uint8_t)id;
	return 0;
}

/*
 * One ATOMIC queue and one worker port linked to it. swtim_adapter_create()
 * later adds the adapter's own port to the device.
 */
static int
setup_event_dev(uint8_t dev_id)
{
	struct rte_event_dev_info info;
	struct rte_event_dev_config dev_conf;
	struct rte_event_queue_conf queue_conf;
	struct rte_event_port_conf port_conf;
	uint8_t queue = QUEUE_ID;
	int ret;

	ret = rte_event_dev_info_get(dev_id, &info);
	if (ret < 0) {
		fprintf(stderr, APP ": rte_event_dev_info_get: %s\n",
			rte_strerror(-ret));
		return ret;
	}
	if (info.max_event_ports < 2) {
		fprintf(stderr, APP ": event device %u (%s) has %u port(s);"
			" need 2 (worker + adapter)\n", dev_id,
			info.driver_name, info.max_event_ports);
		return -ENOTSUP;
	}

	memset(&dev_conf, 0, sizeof(dev_conf));
	dev_conf.nb_event_queues = 1;
	dev_conf.nb_event_ports = 1;
	dev_conf.nb_events_limit = info.max_num_events > 0 ?
		(int32_t)RTE_MIN(info.max_num_events, 4096) : 4096;
	dev_conf.nb_event_queue_flows = RTE_MIN(info.max_event_queue_flows,
						(uint32_t)1024);
	dev_conf.nb_event_port_dequeue_depth =
		info.max_event_port_dequeue_depth;
	dev_conf.nb_event_port_enqueue_depth =
		info.max_event_port_enqueue_depth;
	dev_conf.dequeue_timeout_ns = 0;
	ret = rte_event_dev_configure(dev_id, &dev_conf);
	if (ret < 0) {
		fprintf(stderr, APP ": rte_event_dev_configure: %s\n",
			rte_strerror(-ret));
		return ret;
	}

	ret = rte_event_queue_default_conf_get(dev_id, QUEUE_ID, &queue_conf);
	if (ret < 0) {
		fprintf(stderr, APP ": rte_event_queue_default_conf_get: %s\n",
			rte_strerror(-ret));
		return ret;
	}
	queue_conf.event_queue_cfg = 0;
	queue_conf.schedule_type = RTE_SCHED_TYPE_ATOMIC;
	queue_conf.nb_atomic_flows = dev_conf.nb_event_queue_flows;
	ret = rte_event_queue_setup(dev_id, QUEUE_ID, &queue_conf);
	if (ret < 0) {
		fprintf(stderr, APP ": rte_event_queue_setup: %s\n",
			rte_strerror(-ret));
		return ret;
	}

	ret = rte_event_port_default_conf_get(dev_id, WORKER_PORT, &port_conf);
	if (ret < 0) {
		fprintf(stderr, APP ": rte_event_port_default_conf_get: %s\n",
			rte_strerror(-ret));
		return ret;
	}
	ret = rte_event_port_setup(dev_id, WORKER_PORT, &port_conf);
	if (ret < 0) {
		fprintf(stderr, APP ": rte_event_port_setup: %s\n",
			rte_strerror(-ret));
		return ret;
	}
	ret = rte_event_port_link(dev_id, WORKER_PORT, &queue, NULL, 1);
	if (ret != 1) {
		fprintf(stderr, APP ": rte_event_port_link: %s\n",
			rte_strerror(rte_errno));
		return -EIO;
	}
	return 0;
}

/* Run service_id on lcore (a service lcore). */
static int
map_service(uint32_t service_id, uint32_t lcore, const char *what)
{
	int ret;

	ret = rte_service_map_lcore_set(service_id, lcore, 1);
	if (ret < 0) {
		fprintf(stderr, APP ": mapping the %s service to lcore %u: %s\n",
			what, lcore, rte_strerror(-ret));
		return ret;
	}
	ret = rte_service_runstate_set(service_id, 1);
	if (ret < 0) {
		fprintf(stderr, APP ": starting the %s service: %s\n", what,
			rte_strerror(-ret));
		return ret;
	}
	return 0;
}

static int
arm_one(const struct options *opt)
{
	struct rte_event_timer_adapter_conf conf;
	struct rte_event_timer_adapter_info info;
	struct rte_event_timer_adapter_stats stats;
	struct rte_event_dev_info dev_info;
	struct rte_event_timer *tim = NULL;
	struct swtim_adapter *adapter = NULL;
	struct rte_event ev;
	uint32_t service_lcores[RTE_MAX_LCORE];
	uint32_t service_lcore, adapter_service, dev_service;
	uint64_t hz, t_arm, t_now, deadline, wait_ms;
	double requested_ms, delay_ms;
	bool dev_started = false;
	bool adapter_started = false;
	bool have_dev_service;
	uint8_t dev_id;
	int ret, rc = EXIT_ERROR;

	ret = find_event_dev(opt->dev_name, &dev_id);
	if (ret < 0)
		return EXIT_ERROR;

	ret = rte_service_lcore_list(service_lcores, RTE_DIM(service_lcores));
	if (ret <= 0) {
		fprintf(stderr, APP ": no service lcore; give EAL -s COREMASK"
			" or -S LIST (after --lcores), e.g. --lcores '0@0,1@1'"
			" -s 0x2\n");
		return EXIT_ERROR;
	}
	service_lcore = service_lcores[0];

	ret = setup_event_dev(dev_id);
	if (ret < 0)
		goto close_dev;
	if (rte_event_dev_info_get(dev_id, &dev_info) < 0)
		dev_info.driver_name = "?";

	/* Devices such as event_sw schedule from a service of their own. */
	have_dev_service = rte_event_dev_service_id_get(dev_id,
							&dev_service) == 0;
	if (have_dev_service &&
	    map_service(dev_service, service_lcore, "event device") < 0)
		goto close_dev;

	memset(&conf, 0, sizeof(conf));
	conf.event_dev_id = dev_id;
	conf.timer_adapter_id = ADAPTER_ID;
	conf.socket_id = (int)rte_socket_id();
	conf.clk_src = RTE_EVENT_TIMER_ADAPTER_CPU_CLK;
	conf.timer_tick_ns = TICK_NS;
	conf.max_tmo_ns = MAX_TMO_NS;
	conf.nb_timers = NB_TIMERS;
	conf.flags = RTE_EVENT_TIMER_ADAPTER_F_ADJUST_RES;
	/*
	 * Adds the adapter's event port: reconfigures the device with one
	 * more port and sets it up (stopping and restarting the device first
	 * had it been started).
	 */
	adapter = swtim_adapter_create(&conf);
	if (adapter == NULL) {
		fprintf(stderr, APP ": swtim_adapter_create: %s\n",
			rte_strerror(rte_errno));
		goto close_dev;
	}
	ret = swtim_adapter_get_info(adapter, &info);
	if (ret < 0) {
		fprintf(stderr, APP ": swtim_adapter_get_info: %s\n",
			rte_strerror(-ret));
		goto free_adapter;
	}

	ret = rte_event_dev_start(dev_id);
	if (ret < 0) {
		fprintf(stderr, APP ": rte_event_dev_start: %s\n",
			rte_strerror(-ret));
		goto free_adapter;
	}
	dev_started = true;

	ret = swtim_adapter_service_id_get(adapter, &adapter_service);
	if (ret < 0) {
		fprintf(stderr, APP ": swtim_adapter_service_id_get: %s\n",
			rte_strerror(-ret));
		goto free_adapter;
	}
	if (map_service(adapter_service, service_lcore, "timer adapter") < 0)
		goto free_adapter;
	ret = rte_service_lcore_start(service_lcore);
	if (ret < 0 && ret != -EALREADY) {
		fprintf(stderr, APP ": rte_service_lcore_start(%u): %s\n",
			service_lcore, rte_strerror(-ret));
		goto free_adapter;
	}

	ret = swtim_adapter_start(adapter);
	if (ret < 0) {
		fprintf(stderr, APP ": swtim_adapter_start: %s\n",
			rte_strerror(-ret));
		goto free_adapter;
	}
	adapter_started = true;

	printf(APP ": event device %u (%s), adapter %u (tick %" PRIu64
	       " ns, event port %u), service lcore %u\n", dev_id,
	       dev_info.driver_name, ADAPTER_ID, info.min_resolution_ns,
	       info.event_dev_port_id, service_lcore);

	tim = rte_zmalloc("arm_one_timer", sizeof(*tim), RTE_CACHE_LINE_SIZE);
	if (tim == NULL) {
		fprintf(stderr, APP ": out of memory for the timer\n");
		goto free_adapter;
	}
	tim->ev.op = RTE_EVENT_OP_NEW;
	tim->ev.queue_id = QUEUE_ID;
	tim->ev.sched_type = RTE_SCHED_TYPE_ATOMIC;
	tim->ev.priority = RTE_EVENT_DEV_PRIORITY_NORMAL;
	tim->ev.event_type = RTE_EVENT_TYPE_TIMER;
	tim->ev.flow_id = FLOW_ID;
	tim->ev.event_ptr = tim;
	tim->state = RTE_EVENT_TIMER_NOT_ARMED;
	tim->timeout_ticks = opt->ticks;

	hz = rte_get_timer_hz();
	requested_ms = (double)opt->ticks * info.min_resolution_ns / 1e6;
	wait_ms = opt->wait_ms != 0 ? opt->wait_ms :
		(uint64_t)requested_ms + DEFAULT_SLACK_MS;

	t_arm = rte_get_timer_cycles();
	if (swtim_arm_burst(adapter, &tim, 1) != 1) {
		fprintf(stderr, APP ": swtim_arm_burst: %s (timer state %d)\n",
			rte_strerror(rte_errno), (int)tim->state);
		goto free_adapter;
	}
	printf(APP ": armed one timer for %" PRIu64 " ticks (%.3f ms)\n",
	       opt->ticks, requested_ms);

	deadline = t_arm + wait_ms * hz / 1000;
	for (;;) {
		if (rte_event_dequeue_burst(dev_id, WORKER_PORT, &ev, 1, 0) == 1)
			break;
		if (rte_get_timer_cycles() > deadline) {
			fprintf(stderr, APP ": timed out: no expiry event within"
				" %" PRIu64 " ms (timer state %d)\n", wait_ms,
				(int)tim->state);
			rc = EXIT_TIMEOUT;
			goto free_adapter;
		}
		rte_delay_us_sleep(IDLE_SLEEP_US);
	}
	t_now = rte_get_timer_cycles();
	delay_ms = (double)(t_now - t_arm) * 1e3 / hz;

	printf(APP ": expiry event: queue %u, flow 0x%x, sched %s, type %s,"
	       " event_ptr %s\n", ev.queue_id, ev.flow_id,
	       sched_type_str(ev.sched_type), event_type_str(ev.event_type),
	       ev.event_ptr == tim ? "= the timer" : "WRONG");
	printf(APP ": delay %.3f ms for %.3f ms requested (%+.3f ms)\n",
	       delay_ms, requested_ms, delay_ms - requested_ms);

	rc = EXIT_OK;
	if (ev.event_ptr != tim || ev.queue_id != QUEUE_ID ||
	    ev.flow_id != FLOW_ID || ev.sched_type != RTE_SCHED_TYPE_ATOMIC ||
	    ev.event_type != RTE_EVENT_TYPE_TIMER) {
		fprintf(stderr, APP ": the event is not the one armed\n");
		rc = EXIT_ERROR;
	}
	if (delay_ms < requested_ms) {
		fprintf(stderr, APP ": the event came early\n");
		rc = EXIT_ERROR;
	}
	if (tim->state != RTE_EVENT_TIMER_NOT_ARMED) {
		fprintf(stderr, APP ": timer state is %d after expiry, want"
			" NOT_ARMED (%d)\n", (int)tim->state,
			(int)RTE_EVENT_TIMER_NOT_ARMED);
		rc = EXIT_ERROR;
	}
	if (swtim_adapter_stats_get(adapter, &stats) == 0)
		printf(APP ": stats: %" PRIu64 " expired, %" PRIu64
		       " enqueued, %" PRIu64 " adapter ticks\n",
		       stats.evtim_exp_count, stats.ev_enq_count,
		       stats.adapter_tick_count);

free_adapter:
	if (adapter_started) {
		ret = swtim_adapter_stop(adapter);
		if (ret < 0) {
			fprintf(stderr, APP ": swtim_adapter_stop: %s\n",
				rte_strerror(-ret));
			rc = EXIT_ERROR;
		}
	}
	ret = swtim_adapter_free(adapter);
	if (ret < 0) {
		fprintf(stderr, APP ": swtim_adapter_free: %s\n",
			rte_strerror(-ret));
		rc = EXIT_ERROR;
	}
	rte_free(tim);
close_dev:
	if (dev_started)
		rte_event_dev_stop(dev_id);
	rte_event_dev_close(dev_id);
	return rc;
}

int
main(int argc, char **argv)
{
	struct options opt;
	int ret, rc;

	/* Keep stdout in order with stderr when both go to a pipe. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (help_requested(argc, argv)) {
		usage(argv[0]);
		return EXIT_OK;
	}
	rte_set_application_usage_hook(usage_hook);

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, APP ": cannot initialise EAL: %s\n",
			rte_strerror(rte_errno));
		return EXIT_ERROR;
	}
	argc -= ret;
	argv += ret;

	/* getopt_long reports errors with argv[0]: keep the program name. */
	argv[0] = (char *)(uintptr_t)APP;
	if (parse_args(argc, argv, &opt) < 0) {
		/* What was wrong is said above; the options are in --help. */
		fprintf(stderr, APP ": see --help\n");
		rc = EXIT_ERROR;
	} else {
		rc = arm_one(&opt);
	}

	ret = rte_eal_cleanup();
	if (ret < 0) {
		fprintf(stderr, APP ": rte_eal_cleanup: %s\n",
			rte_strerror(-ret));
		if (rc == EXIT_OK)
			rc = EXIT_ERROR;
	}
	if (rc == EXIT_OK)
		printf(APP ": OK\n");
	return rc;
}
