/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Allocation failures, one allocation at a time, through the interposer
 * in front of DPDK's allocators (fault_alloc.h).
 *
 * - create: the n-th allocation create makes fails, for every n up to
 *   the number create makes: create answers NULL with rte_errno ENOMEM,
 *   the rte_malloc heap and the service count are back to what they were,
 *   the id is free again (lookup: ENOENT; a create with it succeeds and
 *   its timers expire). With the application's port, and with the port
 *   create adds to the device, whose set-up allocates too.
 * - the service: every allocation the service lcore makes from the n-th
 *   on fails (its expiry event buffer, created on a lane's first expiry
 *   and grown when a scan expires more than it holds), for every n up to
 *   the number it makes; meanwhile it keeps every timer, and once memory
 *   is back each one-shot timer is delivered exactly once and never
 *   early, each periodic one fires again, no expiry was dropped
 *   (evtim_drop_count 0); nothing is left on the heap after the adapter
 *   is freed.
 */

#include <errno.h>
#include <string.h>

#include <rte_malloc.h>
#include <rte_service.h>
#include <rte_timer.h>

#include "fault_alloc.h"
#include "swtim_test.h"

#define TICK_NS		(1000 * 1000)			/* 1 ms */
#define MAX_TMO_NS	(UINT64_C(10) * 1000 * 1000 * 1000)	/* 10 s */
#define ID		3
#define APP_PORT	1
/*
 * Due at one tick, so that one scan of the skiplist driver expires them
 * all: more than the buffer's first SWTIM_EVBUF_MIN (1024), so that it
 * grows twice. (The wheel expires in chunks that its first buffer
 * holds: it only ever allocates that one.)
 */
#define NB_ONESHOT	3000
#define NB_PERIODIC	1500
#define DUE_TICKS	20
/* How long the service goes without memory. */
#define STARVE_MS	200
/* Generous: two CPUs shared with other tests. */
#define DELIVER_MS	5000
/* Most allocations a create or the service may make here: a bound that
 * stops the search should something allocate without end. */
#define MAX_ALLOCS	1000

static struct rte_event_timer_adapter_conf
conf(uint64_t flags)
{
	return swt_conf(ID, TICK_NS, MAX_TMO_NS, 2 * NB_ONESHOT, flags);
}

/* One timer armed on a, its event dequeued, within DELIVER_MS. */
static int
deliver_one(struct swtim_adapter *a)
{
	struct rte_event_timer *t = swt_timers(1);
	struct rte_event ev;

	SWT_ASSERT(t != NULL, "no memory");
	swt_timer_init(t, SWT_Q_ATOMIC, 0x5eed, 2);
	SWT_ASSERT_BURST(swtim_arm(a, t), 1, 0);
	SWT_ASSERT_EQ(swt_collect(&swt_dev, &ev, 1, DELIVER_MS), 1);
	SWT_ASSERT_EQ(ev.u64, 0x5eed);
	return SWT_PASS;
}

/*
 * Fail the n-th allocation of create, n = 1, 2, ... until a create makes
 * fewer than n; port < 0: create adds a port to the device.
 */
static int
create_fails_cleanly(int port)
{
	struct rte_event_timer_adapter_conf c = conf(0);
	struct swtim_adapter *a;
	uint64_t heap, n, allocs = 0;
	uint32_t services, ports0;

	/*
	 * Another adapter first: what a first create sets up for good
	 * (librte_timer's state) is not create's to give back; and with
	 * ports create adds, it holds the port a freed adapter left, so
	 * that each create below adds one (and its set-up allocates).
	 */
	c.timer_adapter_id = ID + 1;
	a = swt_adapter_create(&c, port);
	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	if (port >= 0)
		SWT_ASSERT_OK(swtim_adapter_free(a));
	c.timer_adapter_id = ID;
	ports0 = swt_evdev_port_count(swt_dev.dev_id);
	for (n = 1; n <= MAX_ALLOCS; n++) {
		heap = swt_heap_bytes();
		services = rte_service_get_count();
		fault_alloc_arm(n, n, FAULT_ALLOC_ANY_LCORE);
		rte_errno = 0;
		a = swt_adapter_create(&c, port);
		fault_alloc_disarm();
		if (fault_alloc_failed() == 0) {
			/* Fewer than n allocations: all were tried. */
			SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
			allocs = fault_alloc_calls();
			break;
		}
		SWT_ASSERT(a == NULL, "allocation %" PRIu64 " failed, create "
			   "succeeded", n);
		SWT_ASSERT(rte_errno == ENOMEM, "allocation %" PRIu64
			   " failed: %s", n, rte_strerror(rte_errno));
		SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(ID), ENOENT);
		SWT_ASSERT(swt_heap_bytes() == heap, "allocation %" PRIu64
			   " failed: heap %+" PRId64 " bytes", n,
			   (int64_t)(swt_heap_bytes() - heap));
		SWT_ASSERT_EQ(rte_service_get_count(), services);
		/* A port whose set-up failed stays, once: the next create
		 * takes it (swtim_adapter_create()). */
		SWT_ASSERT(swt_evdev_port_count(swt_dev.dev_id) <= ports0 +
			   (port < 0), "allocation %" PRIu64 " failed: %u "
			   "ports, %u before", n,
			   swt_evdev_port_count(swt_dev.dev_id), ports0);
	}
	SWT_ASSERT(swt_evdev_port_count(swt_dev.dev_id) <= ports0 + (port < 0),
		   "%u ports, %u before", swt_evdev_port_count(swt_dev.dev_id),
		   ports0);
	printf("    create makes %" PRIu64 " allocations; each refused "
	       "cleanly\n", allocs);
	SWT_ASSERT(allocs >= 3 && n <= MAX_ALLOCS, "%" PRIu64 " allocations",
		   allocs);
	/* The last create, not failed, has the id: it works. */
	SWT_ASSERT_OK(swt_adapter_start(a));
	return deliver_one(a);
}

static int
create_app_port(void)
{
	return create_fails_cleanly(APP_PORT);
}

static int
create_added_port(void)
{
	return create_fails_cleanly(-1);
}

/*
 * Arm nb timers of t on a, all due at DUE_TICKS (a periodic adapter:
 * their period), booking the TSC before the call in *armed.
 */
static int
arm_all(struct swtim_adapter *a, struct rte_event_timer *t, unsigned int nb,
	uint64_t *armed)
{
	struct rte_event_timer **p = swt_timer_ptrs(t, nb);
	unsigned int i;

	SWT_ASSERT(p != NULL, "no memory");
	for (i = 0; i < nb; i++)
		swt_timer_init(&t[i], SWT_Q_PARALLEL, i, DUE_TICKS);
	*armed = swt_now();
	SWT_ASSERT_BURST(swtim_arm_tmo_tick_burst(a, p, DUE_TICKS, nb), nb, 0);
	return SWT_PASS;
}

/* Dequeue for ms (until want came, if want != 0), counting per timer. */
static int
count_events(uint32_t *seen, unsigned int nb, unsigned int want,
	     unsigned int ms, uint64_t armed, unsigned int *total)
{
	struct rte_event evs[32];
	uint64_t end = swt_now() + swt_ms_to_cycles(ms);
	uint64_t due = armed + swt_ns_to_cycles(DUE_TICKS * TICK_NS);
	uint64_t now;
	uint16_t k, j;

	while (swt_now() < end && (want == 0 || *total < want)) {
		k = swt_dequeue(&swt_dev, evs, RTE_DIM(evs));
		now = swt_now();
		if (k == 0)
			swt_idle();
		for (j = 0; j < k; j++) {
			SWT_ASSERT(evs[j].u64 < nb, "u64 %" PRIu64, evs[j].u64);
			SWT_ASSERT(now >= due, "timer %" PRIu64 " early by "
				   "%.3f ms", evs[j].u64,
				   swt_cycles_to_ms(due - now));
			seen[evs[j].u64]++;
			(*total)++;
		}
	}
	return SWT_PASS;
}

/* Dequeue while the service is kept without memory (service_round()). */
static int
starve(uint32_t *seen, unsigned int nb, bool periodic, uint64_t armed,
       unsigned int *total)
{
	uint64_t end = swt_now() + swt_ms_to_cycles(DELIVER_MS);
	uint64_t first = 0;

	while (swt_now() < end) {
		SWT_ASSERT_OK(count_events(seen, nb, 0, 10, armed, total));
		if (first == 0 && fault_alloc_failed() != 0)
			first = swt_now();
		if (first != 0 &&
		    swt_now() - first >= swt_ms_to_cycles(STARVE_MS))
			break;
		if (first == 0 && !periodic && *total == nb)
			break;
		/* Periodic: a period is DUE_TICKS ms; by then it has tried. */
		if (first == 0 && periodic && *total >= 2 * nb)
			break;
	}
	return SWT_PASS;
}

/* Dequeue until every timer has fired, or DELIVER_MS. */
static int
count_until_each(uint32_t *seen, unsigned int nb, uint64_t armed,
		 unsigned int *total)
{
	uint64_t end = swt_now() + swt_ms_to_cycles(DELIVER_MS);
	unsigned int i = 0;

	while (swt_now() < end) {
		SWT_ASSERT_OK(count_events(seen, nb, 0, 10, armed, total));
		while (i < nb && seen[i] > 0)
			i++;
		if (i == nb)
			break;
	}
	return SWT_PASS;
}

/*
 * One round: the service's allocations fail from the n-th on for
 * STARVE_MS, then memory is back. Sets *fired to whether any failed.
 */
static int
service_round(uint64_t n, bool periodic, bool *fired)
{
	struct rte_event_timer_adapter_conf c =
		conf(periodic ? RTE_EVENT_TIMER_ADAPTER_F_PERIODIC : 0);
	unsigned int nb = periodic ? NB_PERIODIC : NB_ONESHOT;
	struct rte_event_timer *t = swt_timers(nb);
	uint32_t *seen = swt_calloc(nb, sizeof(*seen));
	struct rte_event_timer_adapter_stats st;
	unsigned int i, total = 0, starved;
	uint64_t heap = swt_heap_bytes(), armed;
	struct swtim_adapter *a;

	SWT_ASSERT(t != NULL && seen != NULL, "no memory");
	/* librte_timer's state is the application's, set up once. */
	SWT_ASSERT(rte_timer_subsystem_init() != -ENOMEM, "librte_timer");
	heap = swt_heap_bytes();
	a = swt_adapter_create(&c, APP_PORT);
	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_adapter_start(a));
	fault_alloc_arm(n, UINT64_MAX, SWT_SERVICE_LCORE);
	SWT_ASSERT_OK(arm_all(a, t, nb, &armed));
	/* Starved STARVE_MS from the first failure; if none comes before
	 * every one-shot timer did (or DELIVER_MS), the service makes fewer
	 * than n allocations. A busy CPU may keep the service away. */
	SWT_ASSERT_OK(starve(seen, nb, periodic, armed, &total));
	fault_alloc_disarm();
	*fired = fault_alloc_failed() != 0;
	starved = total;
	if (!periodic) {
		SWT_ASSERT_OK(count_events(seen, nb, nb, DELIVER_MS, armed,
					   &total));
		SWT_ASSERT_EQ(swt_drain(&swt_dev, 50), 0);
		for (i = 0; i < nb; i++)
			SWT_ASSERT(seen[i] == 1, "timer %u delivered %u times",
				   i, seen[i]);
	} else {
		/* Each fires again now (a period is DUE_TICKS ms). */
		memset(seen, 0, nb * sizeof(*seen));
		SWT_ASSERT_OK(count_until_each(seen, nb, armed, &total));
		for (i = 0; i < nb; i++) {
			SWT_ASSERT(seen[i] > 0, "timer %u silent once memory "
				   "was back", i);
			SWT_ASSERT_EQ(swt_cancel_retry(a, &t[i]), 1);
		}
		swt_drain(&swt_dev, 50);
	}
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
	printf("    service allocations from number %" PRIu64 " on: %" PRIu64
	       " failed, %u events meanwhile, then %u; exp %" PRIu64 " enq %"
	       PRIu64 " retry %" PRIu64 " drop %" PRIu64 "\n", n,
	       fault_alloc_failed(), starved, total - starved,
	       st.evtim_exp_count, st.ev_enq_count, st.evtim_retry_count,
	       st.evtim_drop_count);
	SWT_ASSERT_EQ(st.ev_enq_count, st.evtim_exp_count);
	SWT_ASSERT_EQ(st.evtim_drop_count, 0);
	if (!periodic)
		SWT_ASSERT_EQ(st.ev_enq_count, nb);
	SWT_ASSERT_OK(swtim_adapter_free(a));
	SWT_ASSERT(swt_heap_bytes() == heap, "heap %+" PRId64 " bytes after free",
		   (int64_t)(swt_heap_bytes() - heap));
	return SWT_PASS;
}

static int
service_starved(bool periodic)
{
	bool fired = true;
	uint64_t n;

	for (n = 1; fired && n <= MAX_ALLOCS; n++)
		SWT_ASSERT_OK(service_round(n, periodic, &fired));
	/* The last round failed nothing: n - 2 rounds did. */
	SWT_ASSERT(n - 2 >= 1 && n <= MAX_ALLOCS, "%" PRIu64 " rounds", n);
	printf("    the service makes %" PRIu64 " allocations here; "
	       "each starved in turn\n", n - 2);
	return SWT_PASS;
}

static int
service_starved_oneshot(void)
{
	return service_starved(false);
}

static int
service_starved_periodic(void)
{
	return service_starved(true);
}

static const struct swt_case cases[] = {
	SWT_CASE(create_app_port),
	SWT_CASE(create_added_port),
	SWT_CASE(service_starved_oneshot),
	SWT_CASE(service_starved_periodic),
};

int
main(int argc, char **argv)
{
	return swt_main(argc, argv, cases, RTE_DIM(cases));
}
