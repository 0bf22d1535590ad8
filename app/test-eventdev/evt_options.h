/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef EVT_OPTIONS_H
#define EVT_OPTIONS_H

/**
 * @file
 * Command line options of swtim-test-eventdev.
 *
 * The options that dpdk-test-eventdev uses for its event timer runs keep
 * their names, meaning and defaults; the others are this application's
 * own. Parsing happens in two steps: evt_options_parse() before EAL starts
 * (syntax and ranges), evt_options_check() after (lcores, devices). The
 * options themselves are a table in evt_options.c (see evt_optable.h).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_config.h>

/* Timers a producer takes from the pool, and arms, at a time. */
#define EVT_BURST_SIZE 16

/* Exit status for a bad command line. */
#define EVT_EXIT_USAGE 2

#define EVT_MAX_STAGES 64
#define EVT_MAX_ADAPTERS 32
#define EVT_NAME_MAX 64

enum evt_test_kind {
	EVT_TEST_PERF_QUEUE,
	EVT_TEST_PERF_ATQ,
};

enum evt_adapter_kind {
	EVT_ADAPTER_SWTIM,
	EVT_ADAPTER_DPDK,
};

/*
 * What the producers offer. COUNT: each producer arms --nb_timers as fast
 * as it can (dpdk-test-eventdev's behaviour, the default). The others last
 * --duration-s and ignore --nb_timers: IDLE arms nothing, LOW and HIGH arm
 * at --load-rate timers/s per producer (HIGH: as fast as possible unless a
 * rate is given), BURSTY arms --burst-timers at once every
 * --burst-period-ms.
 */
enum evt_load_kind {
	EVT_LOAD_COUNT,
	EVT_LOAD_IDLE,
	EVT_LOAD_LOW,
	EVT_LOAD_HIGH,
	EVT_LOAD_BURSTY,
};

/* Default --load-rate of --load=low, timers/s per producer. */
#define EVT_LOAD_LOW_RATE 2000
/* Default --burst-timers and --burst-period-ms of --load=bursty. */
#define EVT_LOAD_BURST_TIMERS 50000
#define EVT_LOAD_BURST_PERIOD_MS 500
/* Default --duration-s of the timed loads. */
#define EVT_LOAD_DURATION_S 3
/*
 * Default --stall-sec: this many seconds more than the longest timeout
 * (max_tmo_nsec), so that a run gives up only once every timer is
 * overdue by seconds, which a loaded machine's late service never is.
 */
#define EVT_STALL_SLACK_S 5
/* How much longer each empty poll makes a worker's sleep, in us. */
#define EVT_WORKER_SLEEP_STEP_US 10

struct evt_options {
	/* Upstream options. */
	enum evt_test_kind test;
	uint8_t dev_id;
	bool plcores[RTE_MAX_LCORE];
	bool wlcores[RTE_MAX_LCORE];
	uint8_t sched_type_list[EVT_MAX_STAGES];
	uint8_t nb_stages;
	uint32_t nb_flows;
	uint64_t nb_timers;		/* per producer */
	uint8_t nb_timer_adptrs;
	uint64_t timer_tick_nsec;
	uint64_t max_tmo_nsec;
	uint64_t expiry_nsec;
	uint32_t pool_sz;
	bool timdev;			/* --prod_type_timerdev[_burst] given */
	bool timdev_use_burst;
	uint32_t prod_enq_burst_sz;	/* accepted; timers arm by 16 */
	uint16_t wkr_deq_dep;
	bool fwd_latency;
	bool q_priority;
	uint32_t deq_tmo_nsec;
	int socket_id;
	uint64_t nb_pkts;		/* accepted, unused by timer runs */
	int verbose_level;

	/* This application's own. */
	enum evt_adapter_kind adapter;
	char swtim_driver[EVT_NAME_MAX];	/* "" = library default */
	char swtim_args[256];
	bool swtim_driver_set;
	bool swtim_args_set;
	char json_path[4096];			/* "" = none */
	bool library_port;			/* adapters add their port */
	uint64_t timeout_spread_nsec;
	uint64_t stall_sec;			/* 0 = automatic */
	uint64_t seed;
	uint32_t max_sleep_us;			/* workers; 0 = never sleep */
	enum evt_load_kind load;
	uint64_t duration_s;			/* timed loads */
	uint64_t load_rate;			/* timers/s per producer, 0 = max */
	bool load_rate_set;
	uint64_t burst_timers;			/* --load=bursty */
	uint64_t burst_period_ms;
	/* Service lcores each adapter's service is mapped to; 0 = all. */
	uint32_t adapter_svc_lcores;
	/* Event ports of each adapter (swtim_adapter_port_add()). */
	uint32_t adapter_ports;

	/* Filled at check time. */
	char stlist_str[EVT_MAX_STAGES * 2];
};

/** Fill opt with the defaults. */
void evt_options_default(struct evt_options *opt);

struct json_writer;

/**
 * Parse the application's arguments (those after "--").
 *
 * @return
 *   0 on success, 1 when --help was given (usage printed), or -EINVAL
 *   after printing a message naming the bad option and a line pointing
 *   to --help.
 */
int evt_options_parse(struct evt_options *opt, int argc, char **argv);

/**
 * Checks that need EAL: lcore roles, the event device.
 * @return 0, or -EINVAL after a message and a line pointing to --help.
 */
int evt_options_check(struct evt_options *opt);

/** Print the usage text to stdout. */
void evt_options_usage(const char *prgname);

/**
 * Write the options the report names (their keys in the option table)
 * into the JSON object open in j.
 */
void evt_options_report(const struct evt_options *opt, struct json_writer *j);

/** Print the configuration in force (verbose >= 1). */
void evt_options_dump(const struct evt_options *opt);

/** Number of lcores set in a list. */
unsigned int evt_nr_lcores(const bool *lcores);

const char *evt_test_name(enum evt_test_kind k);
const char *evt_adapter_name(enum evt_adapter_kind k);
const char *evt_sched_type_name(uint8_t t);
const char *evt_load_name(enum evt_load_kind k);

#endif /* EVT_OPTIONS_H */
