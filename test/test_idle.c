/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * A service that sleeps when idle (driver option max_sleep_us) and the
 * next-deadline query.
 *
 * Sleeping must never lose, double or reorder a timer, and a timer armed
 * while the service sleeps must still fire within the documented bound:
 * max_sleep_us plus a tick (plus the OS's wake-up latency). On two CPUs
 * shared with other tests the bound is checked with a generous margin; a
 * service that slept past its cap would still be caught by the call-count
 * case, which needs no timing at all beyond "it slept".
 */

#include <errno.h>
#include <string.h>

#include <rte_service.h>

#include "swtim_test.h"

#define TICK_NS		(100 * 1000)		/* 100 us */
#define MAX_TMO_NS	(10ULL * 1000 * 1000 * 1000)
#define ID		6
#define APP_PORT	1
#define MAX_SLEEP_US	2000
/* What two busy CPUs may add to any wake-up. */
#define MARGIN_MS	50

static struct swtim_adapter *
mk_sleepy_adapter(uint64_t nb_timers, const char *devargs)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, nb_timers, 0);
	struct swtim_adapter *a;

	a = swtim_adapter_create_with_driver(&c, swt_port_cb,
					     swt_port_arg(APP_PORT),
					     swt_driver, devargs);
	if (a != NULL && swt_adapter_start(a) != 0)
		return NULL;
	return a;
}

/* Nothing armed: no deadline; bad arguments: -EINVAL. */
static int
next_deadline_empty(void)
{
	struct swtim_adapter *a = mk_sleepy_adapter(16, NULL);
	uint64_t next = 0;

	SWT_ASSERT(a != NULL, "adapter: %s", rte_strerror(rte_errno));
	SWT_ASSERT_EQ(swtim_adapter_next_deadline(NULL, &next), -EINVAL);
	SWT_ASSERT_EQ(swtim_adapter_next_deadline(a, NULL), -EINVAL);
	SWT_ASSERT_OK(swtim_adapter_next_deadline(a, &next));
	SWT_ASSERT(next == UINT64_MAX, "next %" PRIu64 " with nothing armed",
		   next);
	return SWT_PASS;
}

/*
 * An armed timer's deadline is never later than its expiry, and once it
 * is cancelled there is none again.
 */
static int
next_deadline_follows_arm(void)
{
	const uint64_t ticks = 2000;	/* 200 ms */
	struct swtim_adapter *a = mk_sleepy_adapter(16, NULL);
	struct rte_event_timer *t = swt_timers(1);
	uint64_t next, armed, expiry;

	SWT_ASSERT(a != NULL && t != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	swt_timer_init(t, SWT_Q_ATOMIC, 1, ticks);
	armed = swt_now();
	SWT_ASSERT_BURST(swtim_arm(a, t), 1, 0);
	/* The timer may fire at the tick boundary after its deadline. */
	expiry = armed + swt_ns_to_cycles((ticks + 1) * TICK_NS);
	SWT_ASSERT_OK(swtim_adapter_next_deadline(a, &next));
	SWT_ASSERT(next <= expiry, "next deadline %.3f ms after the expiry",
		   swt_cycles_to_ms(next - expiry));
	SWT_ASSERT_EQ(swt_cancel_retry(a, t), 1);
	SWT_ASSERT_OK(swtim_adapter_next_deadline(a, &next));
	SWT_ASSERT(next == UINT64_MAX, "next %" PRIu64 " after cancel", next);
	return SWT_PASS;
}

/*
 * Timers with distinct deadlines, armed from one lcore into a sleeping
 * adapter, come exactly once, in deadline order, never early.
 */
static int
sleep_keeps_order(void)
{
	const unsigned int n = 200;
	struct swtim_adapter *a = mk_sleepy_adapter(n, "max_sleep_us=1000");
	struct rte_event_timer *t = swt_timers(n);
	struct rte_event_timer **p = swt_timer_ptrs(t, n);
	uint64_t *due = swt_calloc(n, sizeof(*due));
	struct rte_event ev[32];
	unsigned int i, got = 0, k, nb;
	uint64_t armed, deadline, waited, last = 0;

	SWT_ASSERT(a != NULL && p != NULL && due != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	/* Let the service back off to its cap before arming. */
	swt_sleep_ms(50);
	/* Timer i is due 3 ticks after timer i - 1: ticks apart. */
	for (i = 0; i < n; i++)
		swt_timer_init(&t[i], SWT_Q_ATOMIC, i, 3 * (i + 1));
	waited = swt_cpu_waited();
	armed = swt_now();
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, n), n, 0);
	for (i = 0; i < n; i++)
		due[i] = armed + swt_ns_to_cycles(3 * (i + 1) * TICK_NS);
	/* Plus what this process waited for a CPU meanwhile. */
	deadline = swt_now() + swt_ms_to_cycles(3 * n * TICK_NS / 1000000 +
						2 * MARGIN_MS);
	while (got < n && (swt_now() < deadline ||
			   swt_now() < armed + swt_bound_plus_waited(
				   deadline - armed, waited))) {
		nb = swt_dequeue(&swt_dev, ev, RTE_DIM(ev));
		for (k = 0; k < nb; k++) {
			uint64_t now = swt_now();

			i = ev[k].u64;
			SWT_ASSERT(i < n, "stray event %u", i);
			SWT_ASSERT(i == got, "timer %u came as #%u", i, got);
			SWT_ASSERT(now >= due[i], "timer %u %.3f ms early", i,
				   swt_cycles_to_ms(due[i] - now));
			SWT_ASSERT(ev[k].u64 >= last, "out of order");
			last = ev[k].u64;
			got++;
		}
		if (nb == 0)
			swt_idle();
	}
	SWT_ASSERT(got == n, "%u of %u within %.0f ms (this process waited"
		   " %.0f ms for a CPU meanwhile)", got, n,
		   swt_cycles_to_ms(swt_now() - armed),
		   swt_cycles_to_ms(swt_cpu_waited() - waited));
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 20), 0);
	return SWT_PASS;
}

/*
 * A timer armed while the service sleeps at its cap fires within
 * max_sleep_us plus a tick (with the margin for busy CPUs). Two CPUs
 * shared with parallel tests can hold any thread back now and then, so a
 * round or two past the bound is forgiven, never a late service: that
 * makes most rounds late. Every round stays within a second, plus what
 * this process waited for a CPU meanwhile.
 */
static int
armed_during_sleep_fires_in_bound(void)
{
	const unsigned int rounds = 20;
	char devargs[32];
	struct swtim_adapter *a;
	struct rte_event_timer *t = swt_timers(1);
	uint64_t bound, armed, took, worst = 0, waited, worst_bound = 0;
	unsigned int r, over = 0;

	snprintf(devargs, sizeof(devargs), "max_sleep_us=%u", MAX_SLEEP_US);
	a = mk_sleepy_adapter(4, devargs);
	SWT_ASSERT(a != NULL && t != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	bound = swt_ns_to_cycles(MAX_SLEEP_US * 1000ULL + TICK_NS) +
		swt_ms_to_cycles(MARGIN_MS);
	for (r = 0; r < rounds; r++) {
		struct rte_event ev;

		/* Idle long enough for the back-off to reach its cap. */
		swt_sleep_ms(30);
		swt_timer_init(t, SWT_Q_ATOMIC, r, 1);
		waited = swt_cpu_waited();
		armed = swt_now();
		SWT_ASSERT_BURST(swtim_arm(a, t), 1, 0);
		SWT_ASSERT_EQ(swt_collect(&swt_dev, &ev, 1, 2000), 1);
		SWT_ASSERT_EQ(ev.u64, r);
		took = swt_now() - armed;
		if (took > worst) {
			worst = took;
			worst_bound = swt_bound_plus_waited(
				swt_ms_to_cycles(1000), waited);
		}
		over += took > bound;
	}
	printf("    worst arm-to-dequeue %.3f ms, %u of %u rounds over %.3f ms "
	       "(cap %u us, tick %u us)\n", swt_cycles_to_ms(worst), over,
	       rounds, swt_cycles_to_ms(bound), MAX_SLEEP_US, TICK_NS / 1000);
	SWT_ASSERT(over <= 2, "%u of %u rounds late", over, rounds);
	SWT_ASSERT(worst <= worst_bound, "%.3f ms, bound %.3f ms",
		   swt_cycles_to_ms(worst), swt_cycles_to_ms(worst_bound));
	return SWT_PASS;
}

/*
 * The service really sleeps: while idle it is called a few hundred times
 * a second instead of millions. Counted by librte_service, not timed.
 */
static int
idle_service_sleeps(void)
{
	struct swtim_adapter *a = mk_sleepy_adapter(4, "max_sleep_us=1000");
	uint64_t before = 0, after = 0;
	uint32_t sid;

	SWT_ASSERT(a != NULL, "adapter: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swtim_adapter_service_id_get(a, &sid));
	SWT_ASSERT_OK(rte_service_set_stats_enable(sid, 1));
	swt_sleep_ms(50);
	SWT_ASSERT_OK(rte_service_attr_get(sid, RTE_SERVICE_ATTR_CALL_COUNT,
					   &before));
	swt_sleep_ms(200);
	SWT_ASSERT_OK(rte_service_attr_get(sid, RTE_SERVICE_ATTR_CALL_COUNT,
					   &after));
	printf("    %" PRIu64 " service calls in 200 ms idle\n",
	       after - before);
	/* At a 1 ms cap: about 200; polling would be far above 10000. */
	SWT_ASSERT(after - before < 10000, "%" PRIu64 " calls: not sleeping",
		   after - before);
	SWT_ASSERT(after > before, "the service did not run at all");
	return SWT_PASS;
}

static const struct swt_case cases[] = {
	SWT_CASE(next_deadline_empty),
	SWT_CASE(next_deadline_follows_arm),
	SWT_CASE(sleep_keeps_order),
	SWT_CASE(armed_during_sleep_fires_in_bound),
	SWT_CASE(idle_service_sleeps),
};

int
main(int argc, char **argv)
{
	return swt_main(argc, argv, cases, RTE_DIM(cases));
}
