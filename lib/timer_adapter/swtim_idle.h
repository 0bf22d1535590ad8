/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_IDLE_H
#define SWTIM_IDLE_H

/**
 * @file
 * Sleeping in a driver's service when there is nothing to do, like
 * testpmd's --max-sleep-us, but bounded by the adapter's next deadline.
 *
 * After a run that found no work, the service lcore sleeps for the
 * shorter of: the time until the adapter's next deadline (less
 * SWTIM_IDLE_MARGIN_US), and a back-off that grows by
 * SWTIM_IDLE_STEP_US with each idle run in a row up to max_sleep_us. A
 * run that finds work resets the back-off, so a busy adapter polls at
 * full speed.
 *
 * An arm does not wake a sleeping service: a timer armed while the
 * service sleeps, with a deadline before the sleep ends, fires at most
 * max_sleep_us (plus the adapter's usual lateness of one tick and the OS's
 * wake-up latency) late. Timers armed before the sleep began are late by
 * at most the OS's wake-up latency beyond SWTIM_IDLE_MARGIN_US: the sleep
 * ends that much before their deadline.
 *
 * The sleep happens inside the service callback: librte_service counts it
 * as busy time, and swtim_adapter_stop() may wait up to max_sleep_us for a
 * sleeping run to end.
 *
 * The back-off is kept per service lcore, so several service lcores
 * mapped to one adapter back off independently.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_kvargs.h>

#include "swtim_tunables.h"

/** Driver option that sets max_sleep_us. */
#define SWTIM_IDLE_ARG "max_sleep_us"

/** Largest max_sleep_us accepted: a second. */
#define SWTIM_IDLE_MAX_SLEEP_US 1000000

/** Sleep state of an adapter. */
struct swtim_idle {
	/** 0: never sleep. */
	uint32_t max_sleep_us;
	/** Back-off of each service lcore, and one for non-EAL threads. */
	uint32_t sleep_us[RTE_MAX_LCORE + 1];
};

/**
 * Read max_sleep_us from the driver options.
 *
 * @param idle
 *   The state to set up (zeroed).
 * @param args
 *   Driver options, or NULL.
 * @return
 *   0, or -EINVAL for a bad value (logged).
 */
int swtim_idle_init(struct swtim_idle *idle, const struct rte_kvargs *args);

/**
 * Call at the end of every service run: sleeps if the run was idle.
 *
 * @param idle
 *   The adapter's sleep state.
 * @param worked
 *   Whether the run expired or enqueued anything.
 * @param next_deadline
 *   Timer-cycle time by which the service must run again (UINT64_MAX if
 *   nothing is armed).
 */
void swtim_idle_after_run(struct swtim_idle *idle, bool worked,
			  uint64_t next_deadline);

#endif /* SWTIM_IDLE_H */
