/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The driver interface, seen from a driver: a minimal driver defined and
 * registered here, by constructor, like a PMD, on the generic layer's
 * base like every driver. It keeps no timers; it only records what the
 * generic layer hands it.
 *
 * This covers the rules no real driver can show: what the generic layer
 * gives every driver whatever it declares (its service, named after the
 * driver's short name; the option SWTIM_IDLE_ARG; periodic adapters; the
 * finest tick), the options a driver declares for itself, that the
 * generic layer's checks stop a bad timer before the driver sees it, and
 * that the statistics drivers keep per list survive a reset racing their
 * writer. Runs once, not per driver.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_service.h>

#include "swtim_base.h"
#include "swtim_driver.h"
#include "swtim_lane_stats.h"
#include "swtim_test.h"

#define TICK_NS		(100 * 1000)
#define MAX_TMO_NS	(100 * TICK_NS)
#define ID		7
#define APP_PORT	1

/* What the fixture driver saw. */
static struct {
	unsigned int inits;
	unsigned int teardowns;
	unsigned int armed;
	char option[16];	/* value of "speed" at init; args are freed */
} seen;

/* The fixture's adapter: the base, and lanes that keep nothing. */
struct fixture_adapter {
	struct swtim_base base;
	struct swtim_lane lanes[SWTIM_LANES_MAX];
};

static int
fixture_init(struct swtim_base *base,
	     const struct swtim_adapter_params *params __rte_unused,
	     const struct rte_kvargs *args)
{
	struct fixture_adapter *f = container_of(base, struct fixture_adapter,
						 base);
	const char *v = args != NULL ? rte_kvargs_get(args, "speed") : NULL;

	seen.inits++;
	snprintf(seen.option, sizeof(seen.option), "%s", v != NULL ? v : "");
	swtim_base_lanes_set(base, &f->lanes[0], sizeof(f->lanes[0]));
	return 0;
}

static void
fixture_teardown(struct swtim_base *base __rte_unused)
{
	seen.teardowns++;
}

static uint16_t
fixture_arm(struct swtim_base *base __rte_unused,
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
fixture_cancel(struct swtim_base *base __rte_unused,
	       struct rte_event_timer **evtims, uint16_t nb)
{
	uint16_t i;

	for (i = 0; i < nb; i++)
		evtims[i]->state = RTE_EVENT_TIMER_CANCELED;
	return nb;
}

static int
fixture_remaining(const struct swtim_base *base __rte_unused,
		  const struct rte_event_timer *evtim, uint64_t *ticks)
{
	*ticks = evtim->timeout_ticks;
	return 0;
}

static bool
fixture_due(const struct swtim_base *base __rte_unused,
	    const struct swtim_lane *lane __rte_unused,
	    uint64_t now __rte_unused)
{
	return false;
}

static uint32_t
fixture_expire(struct swtim_base *base __rte_unused,
	       struct swtim_lane *lane __rte_unused, uint64_t now __rte_unused,
	       uint32_t max __rte_unused)
{
	return 0;
}

static uint64_t
fixture_next_deadline(const struct swtim_base *base __rte_unused,
		      const struct swtim_lane *lane __rte_unused)
{
	return UINT64_MAX;
}

static void
fixture_periodic_resume(struct swtim_base *base __rte_unused,
			struct swtim_lane *lane __rte_unused,
			uint32_t first __rte_unused, uint32_t n __rte_unused)
{
}

static void
fixture_waiting_drop(struct swtim_base *base __rte_unused,
		     uintptr_t tag __rte_unused)
{
}

static const struct swtim_driver_ops fixture_ops = {
	.init = fixture_init,
	.teardown = fixture_teardown,
	.arm_burst = fixture_arm,
	.cancel_burst = fixture_cancel,
	.remaining_ticks_get = fixture_remaining,
	.due = fixture_due,
	.expire = fixture_expire,
	.next_deadline = fixture_next_deadline,
	.periodic_resume = fixture_periodic_resume,
	.waiting_drop = fixture_waiting_drop,
};

static const char *const fixture_args[] = { "speed", NULL };

static struct swtim_driver fixture_driver = {
	.name = "test_fixture",
	.short_name = "fix",
	.valid_args = fixture_args,
	.priv_size = sizeof(struct fixture_adapter),
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

/*
 * The generic layer's service, named after the driver's short name:
 * start wants it mapped to a service lcore.
 */
static int
service_generic(void)
{
	struct swtim_adapter *a = mk_fixture(TICK_NS, 0, NULL);
	uint32_t sid = UINT32_MAX;
	char name[32];

	SWT_ASSERT(a != NULL, "create: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swtim_adapter_service_id_get(a, &sid));
	snprintf(name, sizeof(name), "swtim_fix_%u", ID);
	SWT_ASSERT(strcmp(rte_service_get_name(sid), name) == 0,
		   "service %s", rte_service_get_name(sid));
	SWT_ASSERT_EQ(swtim_adapter_service_id_get(a, NULL), -EINVAL);
	SWT_ASSERT_EQ(swtim_adapter_start(a), -ENOENT);
	SWT_ASSERT_OK(swt_adapter_start(a));
	SWT_ASSERT_EQ(swtim_adapter_start(a), -EALREADY);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	SWT_ASSERT_OK(swtim_adapter_free(a));
	SWT_ASSERT_EQ(rte_service_get_by_name(name, &sid), -ENODEV);
	return SWT_PASS;
}

/*
 * Declared options reach init, with the generic layer's; others are
 * refused before init runs; a bad value of the generic one refuses the
 * adapter before the driver's init too.
 */
static int
options_declared(void)
{
	struct swtim_adapter *a;
	unsigned int inits = seen.inits;

	SWT_ASSERT_NULL_ERRNO(mk_fixture(TICK_NS, 0, "colour=red"), EINVAL);
	SWT_ASSERT_NULL_ERRNO(mk_fixture(TICK_NS, 0, "speed=1,colour=red"),
			      EINVAL);
	SWT_ASSERT_NULL_ERRNO(mk_fixture(TICK_NS, 0, SWTIM_IDLE_ARG "=-1"),
			      EINVAL);
	SWT_ASSERT_EQ(seen.inits, inits);
	a = mk_fixture(TICK_NS, 0, "speed=fast," SWTIM_IDLE_ARG "=100");
	SWT_ASSERT(a != NULL, "create: %s", rte_strerror(rte_errno));
	SWT_ASSERT(strcmp(seen.option, "fast") == 0, "init saw speed=%s",
		   seen.option);
	SWT_ASSERT_OK(swtim_adapter_free(a));
	SWT_ASSERT_EQ(seen.teardowns, seen.inits);
	return SWT_PASS;
}

/* Every driver has periodic timers: the generic layer runs them. */
static int
periodic_for_every_driver(void)
{
	struct swtim_adapter *a = mk_fixture(TICK_NS,
			RTE_EVENT_TIMER_ADAPTER_F_PERIODIC, NULL);
	struct rte_event_timer_adapter_info info;

	SWT_ASSERT(a != NULL, "create: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swtim_adapter_get_info(a, &info));
	SWT_ASSERT_EQ(info.caps, RTE_EVENT_TIMER_ADAPTER_CAP_PERIODIC);
	SWT_ASSERT_EQ(swtim_driver_find("test_fixture")->caps,
		      RTE_EVENT_TIMER_ADAPTER_CAP_PERIODIC);
	SWT_ASSERT_OK(swtim_adapter_free(a));
	return SWT_PASS;
}

/* The finest tick, every driver's: ERANGE below, raised with ADJUST_RES. */
static int
finest_tick(void)
{
	struct rte_event_timer_adapter_info info;
	struct swtim_adapter *a;

	SWT_ASSERT_EQ(swtim_driver_find("test_fixture")->min_tick_ns,
		      SWTIM_MIN_TICK_NS);
	SWT_ASSERT_NULL_ERRNO(mk_fixture(SWTIM_MIN_TICK_NS / 2, 0, NULL),
			      ERANGE);
	a = mk_fixture(SWTIM_MIN_TICK_NS / 2,
		       RTE_EVENT_TIMER_ADAPTER_F_ADJUST_RES, NULL);
	SWT_ASSERT(a != NULL, "create: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swtim_adapter_get_info(a, &info));
	SWT_ASSERT_EQ(info.min_resolution_ns, SWTIM_MIN_TICK_NS);
	SWT_ASSERT_EQ(info.conf.timer_tick_ns, SWTIM_MIN_TICK_NS);
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
	SWT_CASE(service_generic),
	SWT_CASE(options_declared),
	SWT_CASE(periodic_for_every_driver),
	SWT_CASE(finest_tick),
	SWT_CASE(checks_before_driver),
	SWT_CASE(stats_reset_against_writer),
};

int
main(int argc, char **argv)
{
	return swt_main(argc, argv, cases, RTE_DIM(cases));
}
