/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Stress: control calls on one adapter from two lcores at once. The
 * application owns the handle and may hand it to several threads; a call
 * that lost the race to a free must answer -EINVAL, never use what the
 * free released. Each round creates a stopped adapter, releases the main
 * lcore and one other at the same moment, each making one call, and
 * checks the pair of answers against the two orders the calls could have
 * taken. The service lcore is mapped but never started, so that the two
 * racers have the two CPUs to themselves.
 */

#include <errno.h>
#include <sched.h>

#include <rte_service.h>

#include "swtim_test.h"

#define TICK_NS		(100 * 1000)			/* 100 us */
#define MAX_TMO_NS	(1000ULL * 1000 * 1000)		/* 1 s */
#define NB_TIMERS	64
#define ID		3
#define APP_PORT	1
/*
 * Rounds per case (the window is a few instructions wide), unless the
 * case has run for RACE_MS already: on a loaded machine a round can wait
 * for a CPU for a whole time slice.
 */
#define ROUNDS		5000
#define RACE_MS		5000
/* Spins at the start line before yielding the CPU to the other racer. */
#define SPINS_BEFORE_YIELD 10000

enum call { CALL_START, CALL_STOP, CALL_FREE };

/* What the two racers (the main lcore and one other) do this round. */
static struct {
	struct swtim_adapter *a;
	uint32_t arrived;	/* racers at the start line */
	enum call call[2];
	int ret[2];
} race;

static unsigned int racer_ids[2] = { 0, 1 };

/* Wait for the other racer, then make this one's call. */
static int
race_one(void *arg)
{
	unsigned int who = *(const unsigned int *)arg, spins = 0;

	__atomic_add_fetch(&race.arrived, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&race.arrived, __ATOMIC_ACQUIRE) != 2) {
		if (++spins < SPINS_BEFORE_YIELD)
			rte_pause();
		else
			sched_yield();	/* the other is not on a CPU */
	}
	switch (race.call[who]) {
	case CALL_START:
		race.ret[who] = swtim_adapter_start(race.a);
		break;
	case CALL_STOP:
		race.ret[who] = swtim_adapter_stop(race.a);
		break;
	case CALL_FREE:
		race.ret[who] = swtim_adapter_free(race.a);
		break;
	}
	return 0;
}

/*
 * Stop the service lcore's loop for a case (no service is mapped), and
 * keep the log of the calls that lose (one line each) out of the output.
 */
static int
races_begin(void)
{
	int ret = rte_service_lcore_stop(SWT_SERVICE_LCORE);

	if (ret != 0 && ret != -EALREADY)
		return ret;
	rte_eal_wait_lcore(SWT_SERVICE_LCORE);
	return swt_log_capture();
}

/* Give the service lcore its loop back, the log its stream. */
static int
races_end(void)
{
	int ret;

	swt_log_captured("no such adapter");
	ret = rte_service_lcore_start(SWT_SERVICE_LCORE);
	return ret == -EALREADY ? 0 : ret;
}

/*
 * One round of calls c0 (the main lcore) and c1 (another lcore) on a
 * fresh stopped adapter; both spin at the start line, so that the calls
 * start within a few cycles of each other.
 */
static int
race_round(enum call c0, enum call c1)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, NB_TIMERS, 0);

	race.a = swt_adapter_create(&c, APP_PORT);
	SWT_ASSERT(race.a != NULL, "create: %s", rte_strerror(rte_errno));
	/* The loop races_begin() stopped: start wants a mapping only. */
	SWT_ASSERT_OK(swt_service_map_only(race.a, SWT_SERVICE_LCORE));
	race.call[0] = c0;
	race.call[1] = c1;
	race.arrived = 0;
	SWT_ASSERT_OK(swt_launch(race_one, &racer_ids[1],
				 SWT_FIRST_PRODUCER_LCORE));
	race_one(&racer_ids[0]);
	swt_join();
	return SWT_PASS;
}

/* Whether the case has run long enough (round r is about to start). */
static bool
race_time_up(uint32_t r)
{
	static uint64_t end;

	if (r == 1)
		end = swt_now() + swt_ms_to_cycles(RACE_MS);
	return swt_now() > end;
}

/* Two frees: one frees, the other finds no adapter. */
static int
free_races_free(void)
{
	uint32_t r;

	SWT_ASSERT_OK(races_begin());
	for (r = 1; r <= ROUNDS && !race_time_up(r); r++) {
		SWT_ASSERT_OK(race_round(CALL_FREE, CALL_FREE));
		SWT_ASSERT((race.ret[0] == 0 && race.ret[1] == -EINVAL) ||
			   (race.ret[0] == -EINVAL && race.ret[1] == 0),
			   "round %u: free %d, free %d", r, race.ret[0],
			   race.ret[1]);
		SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(ID), ENOENT);
	}
	return races_end() == 0 ? SWT_PASS : SWT_FAIL;
}

/*
 * Start against free: started first, the free is refused (-EBUSY) and
 * the adapter runs; freed first, the start finds no adapter.
 */
static int
start_races_free(void)
{
	uint32_t r;

	SWT_ASSERT_OK(races_begin());
	for (r = 1; r <= ROUNDS && !race_time_up(r); r++) {
		SWT_ASSERT_OK(race_round(CALL_START, CALL_FREE));
		if (race.ret[0] == 0) {
			SWT_ASSERT(race.ret[1] == -EBUSY, "round %u: started,"
				   " free %d", r, race.ret[1]);
			SWT_ASSERT_OK(swtim_adapter_stop(race.a));
			SWT_ASSERT_OK(swtim_adapter_free(race.a));
		} else {
			SWT_ASSERT(race.ret[0] == -EINVAL && race.ret[1] == 0,
				   "round %u: start %d, free %d", r,
				   race.ret[0], race.ret[1]);
		}
		SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(ID), ENOENT);
	}
	return races_end() == 0 ? SWT_PASS : SWT_FAIL;
}

/* Stop against free of a stopped adapter: stop answers 0 or -EINVAL. */
static int
stop_races_free(void)
{
	uint32_t r;

	SWT_ASSERT_OK(races_begin());
	for (r = 1; r <= ROUNDS && !race_time_up(r); r++) {
		SWT_ASSERT_OK(race_round(CALL_STOP, CALL_FREE));
		SWT_ASSERT((race.ret[0] == 0 || race.ret[0] == -EINVAL) &&
			   race.ret[1] == 0, "round %u: stop %d, free %d", r,
			   race.ret[0], race.ret[1]);
		SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(ID), ENOENT);
	}
	return races_end() == 0 ? SWT_PASS : SWT_FAIL;
}

static const struct swt_case cases[] = {
	SWT_CASE(free_races_free),
	SWT_CASE(start_races_free),
	SWT_CASE(stop_races_free),
};

int
main(int argc, char **argv)
{
	return swt_main(argc, argv, cases, RTE_DIM(cases));
}
