/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The driver interface, seen from a driver: a minimal driver defined and
 * registered here, by constructor, like a PMD. It runs no service and
 * keeps no timers; it only records what the generic layer hands it.
 *
 * This covers the rules no real driver can show: -ESRCH from
 * service_id_get() for a driver without a service, start without any
 * service mapping, the options a driver declares, periodic adapters on a
 * driver without RTE_EVENT_TIMER_ADAPTER_CAP_PERIODIC, the driver's finest
 * tick, that the generic layer's checks stop a bad timer before the
 * driver sees it, and that the statistics drivers keep per list survive a
 * reset racing their writer. Runs once, not per driver.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "swtim_driver.h"
#include "swtim_lane_stats.h"
#include "swtim_test.h"

#define TICK_NS		(100 * 1000)
#define MAX_TMO_NS	(100 * TICK_NS)
#define ID		7
#define APP_PORT	1
#define FIXTURE_MIN_TICK_NS	50000

/* What the fixture driver saw. */
static struct {
	unsigned int inits;
	unsigned int uninits;
	unsigned int armed;
	char option[16];	/* value of "speed" at init; args are freed */
} seen;

static int
fixture_init(struct swtim_adapter *adapter, const struct rte_kvargs *args)
{
	const char *v = args != NULL ? rte_kvargs_get(args, "speed") : NULL;

	seen.inits++;
	snprintf(seen.option, sizeof(seen.option), "%s", v != NULL ? v : "");
	swtim_adapter_priv_set(adapter, &seen);
	return 0;
}

static void
fixture_uninit(struct swtim_adapter *adapter)
{
	seen.uninits++;
	swtim_adapter_priv_set(adapter, NULL);
}

static int
fixture_start_stop(struct swtim_adapter *adapter __rte_unused)
{
	return 0;
}

static void
fixture_stats_get(const struct swtim_adapter *adapter __rte_unused,
		  struct rte_event_timer_adapter_stats *stats __rte_unused)
{
}

static void
fixture_stats_reset(struct swtim_adapter *adapter __rte_unused)
{
}

static uint16_t
fixture_arm(const struct swtim_adapter *adapter __rte_unused,
	    struct rte_event_timer **evtims, uint64_t ticks __rte_unused,
	    uint16_t nb)
{
	uint16_t i;

	for (i = 0; i < nb; i++)
		evtims[i]->state = RTE_EVENT_TIMER_ARMED;
	seen.armed += nb;
	return nb;
}

static uint16_t
fixture_cancel(const struct swtim_adapter *adapter __rte_unused,
	       struct rte_event_timer **evtims, uint16_t nb)
{
	uint16_t i;

	for (i = 0; i < nb; i++)
		evtims[i]->state = RTE_EVENT_TIMER_CANCELED;
	return nb;
}

static int
fixture_remaining(const struct swtim_adapter *adapter __rte_unused,
		  const struct rte_event_timer *evtim, uint64_t *ticks)
{
	*ticks = evtim->timeout_ticks;
	return 0;
}

static uint64_t
fixture_next_deadline(const struct swtim_adapter *adapter __rte_unused)
{
	return UINT64_MAX;
}

static const struct swtim_driver_ops fixture_ops = {
	.init = fixture_init,
	.uninit = fixture_uninit,
	.start = fixture_start_stop,
	.stop = fixture_start_stop,
	.service_id_get = NULL,		/* no service */
	.stats_get = fixture_stats_get,
	.stats_reset = fixture_stats_reset,
	.arm_burst = fixture_arm,
	.cancel_burst = fixture_cancel,
	.remaining_ticks_get = fixture_remaining,
	.next_deadline = fixture_next_deadline,
};

static const char *const fixture_args[] = { "speed", NULL };

static struct swtim_driver fixture_driver = {
	.name = "test_fixture",
	.valid_args = fixture_args,
	.min_tick_ns = FIXTURE_MIN_TICK_NS,
	.caps = 0,			/* no periodic timers */
	.ops = &fixture_ops,
};

SWTIM_DRIVER_REGISTER(fixture_driver);

static struct swtim_adapter *
mk_fixture(uint64_t tick_ns, uint64_t flags, const char *devargs)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, tick_ns, MAX_TMO_NS, 16, flags);

	return swtim_adapter_create_with_driver(&c, swt_port_cb,
						swt_port_arg(APP_PORT),
						"test_fixture", devargs);
}

/* Registered by constructor and found by name. */
static int
driver_registered(void)
{
	const struct swtim_driver *drv = swtim_driver_find("test_fixture");

	SWT_ASSERT(drv == &fixture_driver, "fixture driver not found");
	SWT_ASSERT(swtim_driver_find("no_such_driver") == NULL, "found junk");
	SWT_ASSERT(swtim_driver_find(SWTIM_DEFAULT_DRIVER) != NULL,
		   "default driver %s missing", SWTIM_DEFAULT_DRIVER);
	return SWT_PASS;
}

/* No service: -ESRCH, and start needs no service lcore (no -ENOENT). */
static int
no_service_esrch(void)
{
	struct swtim_adapter *a = mk_fixture(TICK_NS, 0, NULL);
	uint32_t sid = 12345;

	SWT_ASSERT(a != NULL, "create: %s", rte_strerror(rte_errno));
	SWT_ASSERT_EQ(swtim_adapter_service_id_get(a, &sid), -ESRCH);
	SWT_ASSERT_EQ(sid, 12345);
	SWT_ASSERT_EQ(swtim_adapter_service_id_get(a, NULL), -EINVAL);
	SWT_ASSERT_OK(swtim_adapter_start(a));
	SWT_ASSERT_EQ(swtim_adapter_start(a), -EALREADY);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	SWT_ASSERT_OK(swtim_adapter_free(a));
	return SWT_PASS;
}

/* Declared options reach init; others are refused before init runs. */
static int
options_declared(void)
{
	struct swtim_adapter *a;
	unsigned int inits = seen.inits;

	SWT_ASSERT_NULL_ERRNO(mk_fixture(TICK_NS, 0, "colour=red"), EINVAL);
	SWT_ASSERT_NULL_ERRNO(mk_fixture(TICK_NS, 0, "speed=1,colour=red"),
			      EINVAL);
	SWT_ASSERT_EQ(seen.inits, inits);
	a = mk_fixture(TICK_NS, 0, "speed=fast");
	SWT_ASSERT(a != NULL, "create: %s", rte_strerror(rte_errno));
	SWT_ASSERT(strcmp(seen.option, "fast") == 0, "init saw speed=%s",
		   seen.option);
	SWT_ASSERT_OK(swtim_adapter_free(a));
	SWT_ASSERT_EQ(seen.uninits, seen.inits);
	return SWT_PASS;
}

/* Periodic adapters need the driver's capability. */
static int
periodic_needs_cap(void)
{
	SWT_ASSERT_NULL_ERRNO(mk_fixture(TICK_NS,
			      RTE_EVENT_TIMER_ADAPTER_F_PERIODIC, NULL),
			      ENOTSUP);
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(ID), ENOENT);
	return SWT_PASS;
}

/* The driver's finest tick: ERANGE below it, raised with ADJUST_RES. */
static int
finest_tick(void)
{
	struct rte_event_timer_adapter_info info;
	struct swtim_adapter *a;

	SWT_ASSERT_NULL_ERRNO(mk_fixture(FIXTURE_MIN_TICK_NS / 2, 0, NULL),
			      ERANGE);
	a = mk_fixture(FIXTURE_MIN_TICK_NS / 2,
		       RTE_EVENT_TIMER_ADAPTER_F_ADJUST_RES, NULL);
	SWT_ASSERT(a != NULL, "create: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swtim_adapter_get_info(a, &info));
	SWT_ASSERT_EQ(info.min_resolution_ns, FIXTURE_MIN_TICK_NS);
	SWT_ASSERT_EQ(info.conf.timer_tick_ns, FIXTURE_MIN_TICK_NS);
	SWT_ASSERT_EQ(info.caps, 0);
	SWT_ASSERT_OK(swtim_adapter_free(a));
	return SWT_PASS;
}

/* The generic checks stop a bad timer before the driver sees it. */
static int
checks_before_driver(void)
{
	struct swtim_adapter *a = mk_fixture(TICK_NS, 0, NULL);
	struct rte_event_timer *t = swt_timers(3);
	struct rte_event_timer **p = swt_timer_ptrs(t, 3);
	unsigned int armed = seen.armed;

	SWT_ASSERT(a != NULL && p != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	swt_timer_init(&t[0], SWT_Q_ATOMIC, 0, 1);
	swt_timer_init(&t[1], SWT_Q_ATOMIC, 1, 0);	/* too early */
	swt_timer_init(&t[2], SWT_Q_ATOMIC, 2, 1);
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, 3), 1, EINVAL);
	SWT_ASSERT_EQ(seen.armed, armed + 1);
	SWT_ASSERT_EQ(t[1].state, RTE_EVENT_TIMER_ERROR_TOOEARLY);
	SWT_ASSERT_EQ(t[2].state, RTE_EVENT_TIMER_NOT_ARMED);
	SWT_ASSERT_OK(swtim_adapter_free(a));
	return SWT_PASS;
}

/*
 * The per-list statistics drivers keep (swtim_lane_stats.h) against a
 * reset from another thread: a writer that loaded a counter before the
 * reset and stores after it, and a cancel that takes back an event
 * counted before the reset, the two interleavings a service lcore and an
 * application thread can produce.
 */
static int
stats_reset_against_writer(void)
{
	struct swtim_lane_stats s;
	struct rte_event_timer_adapter_stats sum;
	uint64_t loaded;

	memset(&s, 0, sizeof(s));
	s.ev_enq_count = 1001;
	s.evtim_exp_count = 5;
	s.evtim_retry_count = 70;
	/* The writer has loaded the counter; the reset comes; the writer
	 * stores what it loaded plus its 8. */
	loaded = s.ev_enq_count;
	swtim_lane_stats_reset(&s);
	s.ev_enq_count = loaded + 8;
	/* A cancel takes back an event counted before the reset. */
	swtim_lane_stats_exp_take_back(&s);
	/* Each counter counts from the reset. */
	s.evtim_retry_count += 2;
	memset(&sum, 0, sizeof(sum));
	swtim_lane_stats_add(&sum, &s);
	SWT_ASSERT_EQ(sum.ev_enq_count, 8);
	SWT_ASSERT_EQ(sum.evtim_exp_count, 0);
	SWT_ASSERT_EQ(sum.evtim_retry_count, 2);
	SWT_ASSERT_EQ(sum.evtim_drop_count, 0);
	/* Counting on from there: three expiries since the reset. */
	s.evtim_exp_count += 3;
	memset(&sum, 0, sizeof(sum));
	swtim_lane_stats_add(&sum, &s);
	SWT_ASSERT_EQ(sum.evtim_exp_count, 3);
	SWT_ASSERT_EQ(sum.ev_enq_count, 8);
	return SWT_PASS;
}

static const struct swt_case cases[] = {
	SWT_CASE(driver_registered),
	SWT_CASE(no_service_esrch),
	SWT_CASE(options_declared),
	SWT_CASE(periodic_needs_cap),
	SWT_CASE(finest_tick),
	SWT_CASE(checks_before_driver),
	SWT_CASE(stats_reset_against_writer),
};

int
main(int argc, char **argv)
{
	return swt_main(argc, argv, cases, RTE_DIM(cases));
}
