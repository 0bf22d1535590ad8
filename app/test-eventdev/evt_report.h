/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef EVT_REPORT_H
#define EVT_REPORT_H

/**
 * @file
 * The end of a run: figures computed from the counters, printed, and
 * written as JSON.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_event_timer_adapter.h>

#include "evt_service.h"
#include "evt_test.h"

#define EVT_SAMPLE_HDR 2

/* What the main lcore saw while supervising the run. */
struct evt_run {
	uint64_t launch_tsc;
	uint64_t end_tsc;		/* all received, stall or interrupt */
	bool complete;
	bool stalled;
	bool interrupted;
	/*
	 * Every sample: the TSC, the timers armed so far, then each worker's
	 * received count.
	 */
	uint64_t *samples;
	uint32_t nb_samples;
	uint32_t max_samples;
	struct evt_services svc;
	/* CPU time of each worker and producer lcore, as t->workers/prod. */
	struct evt_lcore_cpu wcpu[RTE_MAX_LCORE];
	struct evt_lcore_cpu pcpu[RTE_MAX_LCORE];
	struct rte_event_timer_adapter_stats stats[EVT_MAX_ADAPTERS];
	int stats_ret[EVT_MAX_ADAPTERS];
	char dev_name[64];
	uint32_t dev_service;		/* UINT32_MAX: none */
};

/* Record a sample; false when out of memory. */
bool evt_run_sample(struct evt_run *r, const struct evt_test *t,
		    uint64_t tsc);

/*
 * Print the results and write the JSON file if asked for.
 * @return true when the run passed: every timer armed, received once,
 *   none early.
 */
bool evt_report(const struct evt_test *t, struct evt_run *r);

#endif /* EVT_REPORT_H */
