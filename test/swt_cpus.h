/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWT_CPUS_H
#define SWT_CPUS_H

/**
 * @file
 * The CPUs a test program or swtim-bench places its lcores on.
 *
 * Every C program of test/, test/bench, test/dropin and test/fuzz that
 * builds an EAL --lcores map takes its CPUs from swt_cpus_pick(), so that
 * all of them fit the machine the same way: the lowest-numbered CPUs of
 * the process's scheduler affinity, which a container's or taskset's
 * limits narrow (not CPUs 0 and 1, which may not be ours). How many a
 * program takes, and what it does with fewer, is its own choice.
 *
 * The scripts pick theirs in one place too, tev_cpus in
 * app/test-eventdev/tev_lib.sh, by the same rule.
 *
 * Header-only, so that swtim-bench and the fuzz targets, which are built
 * without the test harness library (-Dtests=false), include it as well.
 */

#include <sched.h>

/**
 * Fill @p cpus with the first @p max CPUs this process may run on, in
 * increasing order.
 *
 * Thread-safe.
 *
 * @param cpus
 *   Array of at least @p max entries, written.
 * @param max
 *   How many CPUs the caller wants at most; at least 1.
 * @return
 *   How many CPUs were written, from 1 to @p max: fewer than @p max when
 *   the process may run on fewer. Always at least one: CPU 0 when the
 *   affinity cannot be read, so that the caller has a map to try.
 */
static inline unsigned int
swt_cpus_pick(int *cpus, unsigned int max)
{
	cpu_set_t set;
	unsigned int n = 0;
	int c;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		for (c = 0; c < CPU_SETSIZE && n < max; c++)
			if (CPU_ISSET(c, &set))
				cpus[n++] = c;
	if (n == 0)
		cpus[n++] = 0;
	return n;
}

#endif /* SWT_CPUS_H */
