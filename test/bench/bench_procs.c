/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * swtim-bench-procs: what arm and cancel cost from a secondary process,
 * against the primary, in one run on one adapter.
 *
 * The primary creates the adapter (its service on lcore 1) and starts a
 * secondary of itself (the primary's --file-prefix, lcore 4 on the
 * primary's main CPU) that looks the adapter up. Then they take turns,
 * round by round, so that both see the same machine: each measures
 * arm_burst, cancel_burst, single arms and single cancels of --timers
 * timers of its own while the other sleeps. Results go through a memzone.
 * Timeouts are far beyond the run, so nothing expires while measuring;
 * each figure is the median over --rounds of timer cycles per timer. See
 * doc/performance.md ("Secondary processes").
 */

#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memzone.h>

#include "swtim.h"
#include "swtim_test.h"

#define BP_MZ_NAME "swtim_bench_procs"
#define BP_BURST 32
#define BP_ROUNDS_MAX 32
#define BP_TICK_NS 100000
/* Far beyond the run: nothing expires while measuring (100 s). */
#define BP_TICKS 1000000
#define BP_MEM_MB 256
/* nb_timers of the adapter, in --timers (see bp_primary()). */
#define BP_HEADROOM 4
/* Bound on a wait for a turn: far above a round's seconds. */
#define BP_SECONDARY_S 300

enum bp_op { BP_ARM_BURST, BP_CANCEL_BURST, BP_ARM, BP_CANCEL, BP_NB_OPS };
enum bp_proc { BP_PRIMARY, BP_SECONDARY, BP_NB_PROCS };

static const char *const bp_op_names[BP_NB_OPS] = {
	"arm_burst", "cancel_burst", "arm", "cancel",
};

struct bp_shared {
	uint32_t nb_timers;
	uint32_t rounds;
	/* Cycles per timer of each process, op and round. */
	double runs[BP_NB_PROCS][BP_NB_OPS][BP_ROUNDS_MAX];
	/* Whose turn it is: 2 * round + process; BP_DONE once over. */
	volatile uint32_t turn;
	/* Set by a process that failed (it writes why on stderr). */
	volatile int failed;
};

/* turn once every round is done or a process failed. */
#define BP_DONE UINT32_MAX

static struct bp_shared *bp;

static int
bp_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One round of every op over timers; cycles per timer in per_op. */
static int
bp_round(const struct swtim_adapter *a, struct rte_event_timer *timers,
	 struct rte_event_timer **ptrs, uint32_t n, double *per_op)
{
	uint64_t t0;
	uint32_t i;
	uint16_t nb;

	for (i = 0; i < n; i++)
		swt_timer_init(&timers[i], SWT_Q_ATOMIC, i, BP_TICKS);
	t0 = rte_rdtsc_precise();
	for (i = 0; i < n; i += nb) {
		nb = RTE_MIN((uint32_t)BP_BURST, n - i);
		if (swtim_arm_tmo_tick_burst(a, &ptrs[i], BP_TICKS, nb) != nb)
			return -1;
	}
	per_op[BP_ARM_BURST] = (double)(rte_rdtsc_precise() - t0) / n;
	t0 = rte_rdtsc_precise();
	for (i = 0; i < n; i += nb) {
		nb = RTE_MIN((uint32_t)BP_BURST, n - i);
		if (swtim_cancel_burst(a, &ptrs[i], nb) != nb)
			return -1;
	}
	per_op[BP_CANCEL_BURST] = (double)(rte_rdtsc_precise() - t0) / n;
	t0 = rte_rdtsc_precise();
	for (i = 0; i < n; i++)
		if (swtim_arm(a, ptrs[i]) != 1)
			return -1;
	per_op[BP_ARM] = (double)(rte_rdtsc_precise() - t0) / n;
	t0 = rte_rdtsc_precise();
	for (i = 0; i < n; i++)
		if (swtim_cancel(a, ptrs[i]) != 1)
			return -1;
	per_op[BP_CANCEL] = (double)(rte_rdtsc_precise() - t0) / n;
	return 0;
}

/* Wait, sleeping, for turn t; false if the run ended or timed out. */
static bool
bp_turn_wait(uint32_t t)
{
	uint64_t start = rte_get_timer_cycles();

	while (bp->turn != t && bp->turn != BP_DONE && !bp->failed) {
		if (rte_get_timer_cycles() - start >
		    BP_SECONDARY_S * rte_get_timer_hz()) {
			fprintf(stderr, "no turn %u after %d s\n", t,
				BP_SECONDARY_S);
			bp->failed = 1;
			return false;
		}
		usleep(1000);
	}
	return bp->turn == t && !bp->failed;
}

/* This process's rounds, each in its turn. */
static int
bp_measure(const struct swtim_adapter *a, enum bp_proc proc)
{
	struct rte_event_timer **ptrs;
	struct rte_event_timer *timers;
	double per_op[BP_NB_OPS];
	uint32_t r, i;

	/* Shared memory: the primary's service may write any timer. */
	timers = rte_zmalloc("bench_procs", bp->nb_timers * sizeof(*timers),
			     RTE_CACHE_LINE_SIZE);
	ptrs = malloc(bp->nb_timers * sizeof(*ptrs));
	if (timers == NULL || ptrs == NULL) {
		fprintf(stderr, "no memory for %u timers\n", bp->nb_timers);
		bp->failed = 1;
		return -1;
	}
	for (i = 0; i < bp->nb_timers; i++)
		ptrs[i] = &timers[i];
	for (r = 0; r < bp->rounds; r++) {
		if (!bp_turn_wait(2 * r + proc))
			return -1;
		if (bp_round(a, timers, ptrs, bp->nb_timers, per_op) != 0) {
			fprintf(stderr, "round %u: short arm or cancel, "
				"rte_errno %d\n", r, rte_errno);
			bp->failed = 1;
			return -1;
		}
		for (i = 0; i < BP_NB_OPS; i++)
			bp->runs[proc][i][r] = per_op[i];
		bp->turn = 2 * r + proc + 1 == 2 * bp->rounds ? BP_DONE :
			2 * r + proc + 1;
	}
	free(ptrs);
	rte_free(timers);
	return 0;
}

/* Median of op's rounds of proc. */
static double
bp_median(enum bp_proc proc, unsigned int op)
{
	double v[BP_ROUNDS_MAX];

	memcpy(v, bp->runs[proc][op], bp->rounds * sizeof(v[0]));
	qsort(v, bp->rounds, sizeof(v[0]), bp_cmp);
	return v[bp->rounds / 2];
}

static void
bp_usage(const char *prog)
{
	printf("usage: %s [--help] [--driver=NAME] [--timers=N] "
	       "[--rounds=R]\n"
	       "Cycles per timer of arm_burst, cancel_burst, arm and cancel "
	       "from the\nprimary and from a secondary process, on one "
	       "adapter (median of R rounds,\ndefault 9, of N timers, "
	       "default 65536; driver default %s).\nNeeds hugepages "
	       "(scripts/lib.sh: hugepages_setup).\n", prog,
	       SWTIM_DEFAULT_DRIVER);
}

static pid_t
bp_secondary_start(const char *prefix)
{
	char pfx[96];
	char *argv[] = { (char *)(uintptr_t)"swtim-bench-procs",
		(char *)(uintptr_t)"--secondary", pfx,
		(char *)(uintptr_t)"--lcores=4@0",
		(char *)(uintptr_t)"--proc-type=secondary",
		(char *)(uintptr_t)"--no-pci",
		(char *)(uintptr_t)"--log-level=lib.eal:error", NULL };

	snprintf(pfx, sizeof(pfx), "--file-prefix=%s", prefix);
	return swt_self_spawn(argv);
}

static int
bp_primary(const char *prefix)
{
	struct swt_evdev_conf dconf = { .name = "event_dsw0",
		.nb_app_ports = 1 };
	struct rte_event_timer_adapter_conf conf;
	struct swtim_adapter *a;
	uint64_t start;
	pid_t pid;
	int status, i, ret = 0;

	if (swt_evdev_setup(&dconf, &swt_dev) != 0)
		return -1;
	/*
	 * Room for both processes' timers and more: an adapter armed to
	 * its last nb_timers slot reclaims the credit other lanes hold,
	 * every lane's lock in turn, which would be what this measures.
	 */
	conf = swt_conf(0, BP_TICK_NS, (uint64_t)BP_TICKS * BP_TICK_NS,
			BP_HEADROOM * bp->nb_timers, 0);
	a = swtim_adapter_create_with_driver(&conf, swt_port_cb,
					     &swt_dev.app_port, swt_driver,
					     NULL);
	if (a == NULL || swt_adapter_start(a) != 0) {
		fprintf(stderr, "adapter: rte_errno %d\n", rte_errno);
		return -1;
	}
	/* The secondary's first turn, round 0's second, waits for it. */
	pid = bp_secondary_start(prefix);
	if (pid < 0 || bp_measure(a, BP_PRIMARY) != 0 ||
	    !bp_turn_wait(BP_DONE)) {
		fprintf(stderr, "no result%s\n", pid < 0 ? ": fork failed" :
			"");
		ret = -1;
	} else {
		printf("driver %s, %u timers, median of %u rounds, timer "
		       "cycles per timer\n%-10s", swt_driver, bp->nb_timers,
		       bp->rounds, "process");
		for (i = 0; i < BP_NB_OPS; i++)
			printf(" %12s", bp_op_names[i]);
		printf("\n%-10s", "primary");
		for (i = 0; i < BP_NB_OPS; i++)
			printf(" %12.1f", bp_median(BP_PRIMARY, i));
		printf("\n%-10s", "secondary");
		for (i = 0; i < BP_NB_OPS; i++)
			printf(" %12.1f", bp_median(BP_SECONDARY, i));
		printf("\n");
	}
	start = rte_get_timer_cycles();
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (rte_get_timer_cycles() - start > 10 * rte_get_timer_hz())
			kill(pid, SIGKILL);
		usleep(10000);
	}
	swtim_adapter_stop(a);
	swtim_adapter_free(a);
	rte_event_dev_stop(swt_dev.dev_id);
	return ret;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "driver", required_argument, NULL, 'd' },
		{ "timers", required_argument, NULL, 't' },
		{ "rounds", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	char prefix[64], pfx_arg[96], huge_dir[PATH_MAX], huge[PATH_MAX + 16];
	char *eal_argv[] = { argv[0], (char *)(uintptr_t)"--lcores=0@0,1@1",
		(char *)(uintptr_t)"-m", (char *)(uintptr_t)"256",
		(char *)(uintptr_t)"--no-pci",
		(char *)(uintptr_t)"--vdev=event_dsw0",
		(char *)(uintptr_t)"--log-level=lib.eal:error", pfx_arg, huge,
		(char *)(uintptr_t)SWT_MP_BASE_VIRTADDR, NULL };
	uint32_t nb_timers = 65536, rounds = 9;
	const struct rte_memzone *mz;
	struct swtim_adapter *a;
	int c, ret;

	if (argc >= 2 && strcmp(argv[1], "--secondary") == 0) {
		argv[1] = argv[0];
		if (rte_eal_init(argc - 1, argv + 1) < 0 ||
		    (mz = rte_memzone_lookup(BP_MZ_NAME)) == NULL)
			return 1;
		bp = mz->addr;
		a = swtim_adapter_lookup(0);
		if (a == NULL)
			bp->failed = 1;
		else
			bp_measure(a, BP_SECONDARY);
		_exit(0);
	}
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			swt_driver = optarg;
			break;
		case 't':
			nb_timers = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			rounds = strtoul(optarg, NULL, 0);
			break;
		case 'h':
			bp_usage(argv[0]);
			return 0;
		default:
			bp_usage(argv[0]);
			return 2;
		}
	}
	if (nb_timers == 0 || rounds == 0 || rounds > BP_ROUNDS_MAX) {
		fprintf(stderr, "--timers must be > 0, --rounds 1..%d\n",
			BP_ROUNDS_MAX);
		return 2;
	}
	if (swt_hugepages_check(BP_MEM_MB, huge_dir, sizeof(huge_dir)) != 0)
		return 1;
	snprintf(prefix, sizeof(prefix), "swtim_bp_%d", (int)getpid());
	snprintf(pfx_arg, sizeof(pfx_arg), "--file-prefix=%s", prefix);
	snprintf(huge, sizeof(huge), "--huge-dir=%s", huge_dir);
	if (rte_eal_init(RTE_DIM(eal_argv) - 1, eal_argv) < 0) {
		fprintf(stderr, "rte_eal_init: %s\n", rte_strerror(rte_errno));
		swt_hugepages_release(huge_dir, prefix);
		return 1;
	}
	mz = rte_memzone_reserve(BP_MZ_NAME, sizeof(*bp), SOCKET_ID_ANY, 0);
	ret = -1;
	if (mz != NULL) {
		bp = mz->addr;
		memset(bp, 0, sizeof(*bp));
		bp->nb_timers = nb_timers;
		bp->rounds = rounds;
		ret = bp_primary(prefix);
	}
	rte_eal_cleanup();
	swt_hugepages_release(huge_dir, prefix);
	return ret == 0 ? 0 : 1;
}
