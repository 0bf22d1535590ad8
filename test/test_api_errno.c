/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Every error return and state transition of the API contract, one rule
 * per case: create/lookup/free argument checks, start/stop states,
 * service and stats argument checks, and the arm/cancel/remaining-ticks
 * error paths with the timer states they leave behind.
 */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_dev.h>
#include <rte_log.h>
#include <rte_service.h>

#include "swtim_test.h"
/* Internal: which options a driver takes, to test bad option values. */
#include "swtim_idle.h"

#define TICK_NS		(1000 * 1000)		/* 1 ms */
#define MAX_TMO_TICKS	100
#define MAX_TMO_NS	(MAX_TMO_TICKS * TICK_NS)
#define NB_TIMERS	512
#define ID		5
#define APP_PORT	1

/* Whether the driver under test runs a service (-ESRCH if not). */
static bool
has_service(struct swtim_adapter *a)
{
	uint32_t sid;

	return swtim_adapter_service_id_get(a, &sid) != -ESRCH;
}

/* A started (or not) adapter with id ID on an application port. */
static struct swtim_adapter *
mk_adapter(uint16_t id, bool start)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(id, TICK_NS, MAX_TMO_NS, NB_TIMERS, 0);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);

	if (a != NULL && start && swt_adapter_start(a) != 0) {
		swtim_adapter_free(a);
		return NULL;
	}
	return a;
}

/* ---- create ---- */

static int
create_null_conf(void)
{
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_create(NULL), EINVAL);
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_create_ext(NULL, swt_port_cb,
			      swt_port_arg(APP_PORT)), EINVAL);
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_create_with_driver(NULL,
			      swt_port_cb, swt_port_arg(APP_PORT), swt_driver,
			      NULL), EINVAL);
	return SWT_PASS;
}

static int
create_bad_dev_id(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, NB_TIMERS, 0);

	/* The first id without a device, and one beyond any device. */
	c.event_dev_id = rte_event_dev_count();
	SWT_ASSERT_NULL_ERRNO(swt_adapter_create(&c, APP_PORT), EINVAL);
	SWT_ASSERT_NULL_ERRNO(swt_adapter_create(&c, -1), EINVAL);
	c.event_dev_id = UINT8_MAX;
	SWT_ASSERT_NULL_ERRNO(swt_adapter_create(&c, APP_PORT), EINVAL);
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(ID), ENOENT);
	return SWT_PASS;
}

static int
create_id_out_of_range(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(SWTIM_ADAPTER_NUM_MAX, TICK_NS, MAX_TMO_NS,
			 NB_TIMERS, 0);

	SWT_ASSERT_NULL_ERRNO(swt_adapter_create(&c, APP_PORT), EINVAL);
	c.timer_adapter_id = UINT16_MAX;
	SWT_ASSERT_NULL_ERRNO(swt_adapter_create(&c, APP_PORT), EINVAL);
	/* The last valid id works. */
	c.timer_adapter_id = SWTIM_ADAPTER_NUM_MAX - 1;
	SWT_ASSERT(swt_adapter_create(&c, APP_PORT) != NULL, "%s",
		   rte_strerror(rte_errno));
	return SWT_PASS;
}

static int
create_tick_zero(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, 0, MAX_TMO_NS, NB_TIMERS, 0);

	SWT_ASSERT_NULL_ERRNO(swt_adapter_create(&c, APP_PORT), EINVAL);
	/* Not even ADJUST_RES may turn a zero tick into something. */
	c.flags = RTE_EVENT_TIMER_ADAPTER_F_ADJUST_RES;
	SWT_ASSERT_NULL_ERRNO(swt_adapter_create(&c, APP_PORT), EINVAL);
	return SWT_PASS;
}

static int
create_max_tmo_below_tick(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, TICK_NS - 1, NB_TIMERS, 0);

	SWT_ASSERT_NULL_ERRNO(swt_adapter_create(&c, APP_PORT), EINVAL);
	/* Equal is fine: one tick is the only timeout. */
	c.max_tmo_ns = TICK_NS;
	SWT_ASSERT(swt_adapter_create(&c, APP_PORT) != NULL, "%s",
		   rte_strerror(rte_errno));
	return SWT_PASS;
}

static int
create_nb_timers_zero(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, 0, 0);
	uint32_t ports = swt_evdev_port_count(swt_dev.dev_id);

	SWT_ASSERT_NULL_ERRNO(swt_adapter_create(&c, APP_PORT), EINVAL);
	SWT_ASSERT_NULL_ERRNO(swt_adapter_create(&c, -1), EINVAL);
	SWT_ASSERT_EQ(swt_evdev_port_count(swt_dev.dev_id), ports);
	return SWT_PASS;
}

static int
create_duplicate_id(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, NB_TIMERS, 0);
	struct swtim_adapter *a;
	uint32_t ports;

	a = swt_adapter_create(&c, APP_PORT);
	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	ports = swt_evdev_port_count(swt_dev.dev_id);
	SWT_ASSERT_NULL_ERRNO(swt_adapter_create(&c, APP_PORT), EEXIST);
	/* A refused create through the add-a-port path adds no port. */
	SWT_ASSERT_NULL_ERRNO(swt_adapter_create(&c, -1), EEXIST);
	SWT_ASSERT_EQ(swt_evdev_port_count(swt_dev.dev_id), ports);
	/* The first adapter is untouched. */
	SWT_ASSERT(swtim_adapter_lookup(ID) == a, "lookup changed");
	return SWT_PASS;
}

static int
create_ext_null_cb(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, NB_TIMERS, 0);

	SWT_ASSERT_NULL_ERRNO(swtim_adapter_create_ext(&c, NULL, NULL),
			      EINVAL);
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(ID), ENOENT);
	return SWT_PASS;
}

struct cb_arg {
	int ret;
	unsigned int calls;
};

static int
counting_cb(uint16_t id, uint8_t event_dev_id, uint8_t *event_port_id,
	    void *conf_arg)
{
	struct cb_arg *arg = conf_arg;

	RTE_SET_USED(id);
	RTE_SET_USED(event_dev_id);
	arg->calls++;
	*event_port_id = APP_PORT;
	return arg->ret;
}

static int
create_cb_error_leaves_nothing(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, NB_TIMERS, 0);
	static const int errs[] = { ENODEV, EIO, ENOSPC };
	struct cb_arg arg;
	unsigned int i;

	for (i = 0; i < RTE_DIM(errs); i++) {
		arg.ret = -errs[i];
		arg.calls = 0;
		rte_errno = 0;
		SWT_ASSERT(swtim_adapter_create_ext(&c, counting_cb, &arg) ==
			   NULL, "create succeeded despite cb %d", arg.ret);
		SWT_ASSERT_EQ(rte_errno, errs[i]);
		SWT_ASSERT_EQ(arg.calls, 1);
		/* The id is free again. */
		SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(ID), ENOENT);
	}
	/* A failure that is no -errno (-INT_MIN is no int): EINVAL. */
	arg.ret = INT_MIN;
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_create_ext(&c, counting_cb, &arg),
			      EINVAL);
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(ID), ENOENT);
	/* And really free: the same id can be created now. */
	arg.ret = 0;
	arg.calls = 0;
	SWT_ASSERT(swtim_adapter_create_ext(&c, counting_cb, &arg) != NULL,
		   "%s", rte_strerror(rte_errno));
	SWT_ASSERT_EQ(arg.calls, 1);
	return SWT_PASS;
}

static int
create_unknown_driver(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, NB_TIMERS, 0);
	const void *a;
	int err;

	/* Refused with EINVAL and a log line that names the driver. */
	SWT_ASSERT_OK(swt_log_capture());
	rte_errno = 0;
	a = swtim_adapter_create_with_driver(&c, swt_port_cb,
					     swt_port_arg(APP_PORT),
					     "no_such_driver", NULL);
	err = rte_errno;
	SWT_ASSERT(swt_log_captured("no_such_driver"), "no log line names it");
	SWT_ASSERT(a == NULL && err == EINVAL, "%p/%s", a, rte_strerror(err));
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_create_with_driver(&c, NULL,
			      NULL, "", NULL), EINVAL);
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(ID), ENOENT);
	return SWT_PASS;
}

static int
create_unknown_devargs(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, NB_TIMERS, 0);
	static const char *const bad[] = {
		"no_such_key=1",
		"no_such_key",
		"=1",
		/* rte_kvargs alone would read these as max_sleep_us=5. */
		"no_such_key=" SWTIM_IDLE_ARG "=5",
		SWTIM_IDLE_ARG "=" SWTIM_IDLE_ARG "=5",
	};
	unsigned int i;
	uint32_t ports = swt_evdev_port_count(swt_dev.dev_id);
	const void *a;
	int err;

	SWT_ASSERT_OK(swt_log_capture());
	rte_errno = 0;
	a = swtim_adapter_create_with_driver(&c, swt_port_cb,
					     swt_port_arg(APP_PORT),
					     swt_driver, "no_such_key=1");
	err = rte_errno;
	SWT_ASSERT(swt_log_captured("no_such_key"), "no log line names it");
	SWT_ASSERT(a == NULL && err == EINVAL, "%p/%s", a, rte_strerror(err));
	SWT_ASSERT_OK(swt_log_capture());
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_create_with_driver(&c,
			      swt_port_cb, swt_port_arg(APP_PORT), swt_driver,
			      "no_such_key=" SWTIM_IDLE_ARG "=5"), EINVAL);
	SWT_ASSERT(swt_log_captured("no_such_key=" SWTIM_IDLE_ARG "=5"),
		   "no log line names the piece with two '='");
	for (i = 0; i < RTE_DIM(bad); i++) {
		SWT_ASSERT_NULL_ERRNO(swtim_adapter_create_with_driver(&c,
				      swt_port_cb, swt_port_arg(APP_PORT),
				      swt_driver, bad[i]), EINVAL);
		SWT_ASSERT_NULL_ERRNO(swtim_adapter_create_with_driver(&c,
				      NULL, NULL, swt_driver, bad[i]), EINVAL);
		SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(ID), ENOENT);
	}
	SWT_ASSERT_EQ(swt_evdev_port_count(swt_dev.dev_id), ports);
	return SWT_PASS;
}

/*
 * A known option with a bad value is refused like an unknown one; a good
 * value is taken. Uses the idle-sleep option, which every driver has.
 */
static int
create_bad_option_value(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, NB_TIMERS, 0);
	char arg[64];
	static const char *const bad[] = { "abc", "", "-1", "12x" };
	unsigned int i;
	const void *a;
	int err;

	for (i = 0; i < RTE_DIM(bad); i++) {
		snprintf(arg, sizeof(arg), SWTIM_IDLE_ARG "=%s", bad[i]);
		SWT_ASSERT_OK(swt_log_capture());
		SWT_ASSERT_NULL_ERRNO(swtim_adapter_create_with_driver(&c,
				      swt_port_cb, swt_port_arg(APP_PORT),
				      swt_driver, arg), EINVAL);
		/* The log says which option, its value and why. */
		snprintf(arg, sizeof(arg), SWTIM_IDLE_ARG "=\"%s\": not a"
			 " whole number", bad[i]);
		SWT_ASSERT(swt_log_captured(arg), "no log line says %s", arg);
	}
	/* A bare key, and a key twice: refused, the option named. */
	SWT_ASSERT_OK(swt_log_capture());
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_create_with_driver(&c,
			      swt_port_cb, swt_port_arg(APP_PORT), swt_driver,
			      SWTIM_IDLE_ARG), EINVAL);
	SWT_ASSERT(swt_log_captured(SWTIM_IDLE_ARG "\" needs a value"),
		   "no log line for a bare key");
	SWT_ASSERT_OK(swt_log_capture());
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_create_with_driver(&c,
			      swt_port_cb, swt_port_arg(APP_PORT), swt_driver,
			      SWTIM_IDLE_ARG "=5," SWTIM_IDLE_ARG "=6"), EINVAL);
	SWT_ASSERT(swt_log_captured("more than once"),
		   "no log line for a key twice");
	snprintf(arg, sizeof(arg), SWTIM_IDLE_ARG "=%u",
		 SWTIM_IDLE_MAX_SLEEP_US + 1);
	SWT_ASSERT_OK(swt_log_capture());
	rte_errno = 0;
	a = swtim_adapter_create_with_driver(&c, swt_port_cb,
					     swt_port_arg(APP_PORT),
					     swt_driver, arg);
	err = rte_errno;
	snprintf(arg, sizeof(arg), SWTIM_IDLE_ARG "=\"%u\": above %u us",
		 SWTIM_IDLE_MAX_SLEEP_US + 1, SWTIM_IDLE_MAX_SLEEP_US);
	SWT_ASSERT(swt_log_captured(arg), "no log line says %s", arg);
	SWT_ASSERT(a == NULL && err == EINVAL, "%p/%s", a, rte_strerror(err));
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(ID), ENOENT);

	snprintf(arg, sizeof(arg), SWTIM_IDLE_ARG "=%u",
		 SWTIM_IDLE_MAX_SLEEP_US);
	a = swtim_adapter_create_with_driver(&c, swt_port_cb,
					     swt_port_arg(APP_PORT),
					     swt_driver, arg);
	SWT_ASSERT(a != NULL, "%s: %s", arg, rte_strerror(rte_errno));
	return SWT_PASS;
}

/*
 * A driver that refuses the adapter (an option's value, too many timers)
 * does so before create takes a port: through the add-a-port path the
 * device keeps its ports, and no port is left for a later create to find.
 */
static int
create_refused_by_driver_adds_no_port(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, NB_TIMERS, 0);
	struct rte_event_timer_adapter_conf huge =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, UINT32_MAX, 0);
	uint32_t ports = swt_evdev_port_count(swt_dev.dev_id);

	SWT_ASSERT_NULL_ERRNO(swtim_adapter_create_with_driver(&c, NULL, NULL,
			      swt_driver, SWTIM_IDLE_ARG "=abc"), EINVAL);
	SWT_ASSERT_EQ(swt_evdev_port_count(swt_dev.dev_id), ports);
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_create_with_driver(&huge, NULL,
			      NULL, swt_driver, NULL), EINVAL);
	SWT_ASSERT_EQ(swt_evdev_port_count(swt_dev.dev_id), ports);
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(ID), ENOENT);
	return SWT_PASS;
}

static int
create_default_driver(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, NB_TIMERS, 0);
	struct swtim_adapter *a;

	/* NULL driver means the default one; NULL or "" devargs, none. */
	a = swtim_adapter_create_with_driver(&c, swt_port_cb,
					     swt_port_arg(APP_PORT), NULL, "");
	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swtim_adapter_free(a));
	a = swtim_adapter_create_with_driver(&c, swt_port_cb,
					     swt_port_arg(APP_PORT),
					     SWTIM_DEFAULT_DRIVER, NULL);
	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swtim_adapter_free(a));
	a = swtim_adapter_create_ext(&c, swt_port_cb, swt_port_arg(APP_PORT));
	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT(swtim_adapter_lookup(ID) == a, "lookup");
	return SWT_PASS;
}

/*
 * The driver's finest tick is learnt through ADJUST_RES itself (ask for
 * 1 ns), so the test needs nothing but the public API.
 */
static int
create_tick_too_fine(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, 1, MAX_TMO_NS, NB_TIMERS,
			 RTE_EVENT_TIMER_ADAPTER_F_ADJUST_RES);
	struct rte_event_timer_adapter_info info;
	struct swtim_adapter *a;
	uint64_t min_tick;
	uint32_t ports;

	a = swt_adapter_create(&c, APP_PORT);
	SWT_ASSERT(a != NULL, "ADJUST_RES create: %s",
		   rte_strerror(rte_errno));
	SWT_ASSERT_OK(swtim_adapter_get_info(a, &info));
	min_tick = info.min_resolution_ns;
	SWT_ASSERT(min_tick >= 1, "min_resolution_ns 0");
	/* The configuration reported is the one in force. */
	SWT_ASSERT_EQ(info.conf.timer_tick_ns, min_tick);
	SWT_ASSERT_OK(swtim_adapter_free(a));
	printf("    driver %s: finest tick %" PRIu64 " ns\n", swt_driver,
	       min_tick);

	if (min_tick > 1) {
		c.flags = 0;
		c.timer_tick_ns = min_tick - 1;
		SWT_ASSERT_NULL_ERRNO(swt_adapter_create(&c, APP_PORT),
				      ERANGE);
		SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(ID), ENOENT);
		/* Refused on the add-a-port path: no port added either. */
		ports = swt_evdev_port_count(swt_dev.dev_id);
		SWT_ASSERT_NULL_ERRNO(swt_adapter_create(&c, -1), ERANGE);
		SWT_ASSERT_EQ(swt_evdev_port_count(swt_dev.dev_id), ports);
		c.timer_tick_ns = 1;
		SWT_ASSERT_NULL_ERRNO(swt_adapter_create(&c, APP_PORT),
				      ERANGE);
	}
	/* The finest tick itself needs no flag and is kept. */
	c.flags = 0;
	c.timer_tick_ns = min_tick;
	a = swt_adapter_create(&c, APP_PORT);
	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_EQ(swt_adapter_tick_ns(a), min_tick);
	return SWT_PASS;
}

/*
 * A tick too long for 64 bits of timer cycles (centuries) is refused:
 * wrapped, it would make timers fall due at once. The longest that fits
 * is taken.
 */
static int
create_tick_past_the_clock(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, UINT64_MAX, UINT64_MAX, NB_TIMERS, 0);
	uint64_t fits = (uint64_t)(((unsigned __int128)UINT64_MAX - 1) *
				   1000000000 / swt_ns_to_cycles(1000000000));
	struct swtim_adapter *a;
	uint32_t ports = swt_evdev_port_count(swt_dev.dev_id);

	SWT_ASSERT_NULL_ERRNO(swt_adapter_create(&c, APP_PORT), ERANGE);
	SWT_ASSERT_NULL_ERRNO(swt_adapter_create(&c, -1), ERANGE);
	SWT_ASSERT_EQ(swt_evdev_port_count(swt_dev.dev_id), ports);
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(ID), ENOENT);
	c.timer_tick_ns = fits;
	a = swt_adapter_create(&c, APP_PORT);
	SWT_ASSERT(a != NULL, "tick %" PRIu64 " ns: %s", fits,
		   rte_strerror(rte_errno));
	SWT_ASSERT_EQ(swt_adapter_tick_ns(a), fits);
	return SWT_PASS;
}

static int
create_adjust_res_keeps_coarse_tick(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, NB_TIMERS,
			 RTE_EVENT_TIMER_ADAPTER_F_ADJUST_RES);
	struct rte_event_timer_adapter_info info;
	struct swtim_adapter *a;

	/* ADJUST_RES only raises a tick that is too fine. */
	a = swt_adapter_create(&c, APP_PORT);
	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swtim_adapter_get_info(a, &info));
	SWT_ASSERT_EQ(info.min_resolution_ns, TICK_NS);
	SWT_ASSERT_EQ(info.conf.timer_tick_ns, TICK_NS);
	SWT_ASSERT_EQ(info.conf.timer_adapter_id, ID);
	SWT_ASSERT_EQ(info.conf.nb_timers, NB_TIMERS);
	SWT_ASSERT(info.max_tmo_ns >= TICK_NS, "max_tmo_ns %" PRIu64,
		   info.max_tmo_ns);
	SWT_ASSERT_EQ(info.event_dev_port_id, APP_PORT);
	return SWT_PASS;
}

static int
get_info_einval(void)
{
	struct rte_event_timer_adapter_info info;
	struct swtim_adapter *a = mk_adapter(ID, false);

	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_EQ(swtim_adapter_get_info(NULL, &info), -EINVAL);
	SWT_ASSERT_EQ(swtim_adapter_get_info(a, NULL), -EINVAL);
	return SWT_PASS;
}

/* ---- start / stop / free / lookup ---- */

static int
start_einval(void)
{
	SWT_ASSERT_EQ(swtim_adapter_start(NULL), -EINVAL);
	return SWT_PASS;
}

static int
start_twice(void)
{
	struct swtim_adapter *a = mk_adapter(ID, false);

	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_service_map(a, SWT_SERVICE_LCORE));
	SWT_ASSERT_OK(swtim_adapter_start(a));
	SWT_ASSERT_EQ(swtim_adapter_start(a), -EALREADY);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	/* Stopped, it may be started again. */
	SWT_ASSERT_OK(swtim_adapter_start(a));
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	return SWT_PASS;
}

static int
start_unmapped(void)
{
	struct swtim_adapter *a = mk_adapter(ID, false);

	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	if (!has_service(a)) {
		printf("    driver %s runs no service\n", swt_driver);
		return SWT_PASS;
	}
	SWT_ASSERT_EQ(swtim_adapter_start(a), -ENOENT);
	SWT_ASSERT_OK(swt_service_map(a, SWT_SERVICE_LCORE));
	SWT_ASSERT_OK(swtim_adapter_start(a));
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	/* Unmapped again: refused again. */
	SWT_ASSERT_OK(swt_service_unmap(a, SWT_SERVICE_LCORE));
	SWT_ASSERT_EQ(swtim_adapter_start(a), -ENOENT);
	return SWT_PASS;
}

static int
start_two_service_lcores(void)
{
	const unsigned int second = SWT_FIRST_PRODUCER_LCORE;
	const unsigned int n = 50;
	struct rte_event_timer *t = swt_timers(n);
	struct rte_event ev[50];
	struct swtim_adapter *a = mk_adapter(ID, false);
	unsigned int i, got;
	int ret;

	SWT_ASSERT(a != NULL && t != NULL, "setup");
	SWT_ASSERT_OK(swt_service_map(a, SWT_SERVICE_LCORE));
	SWT_ASSERT_OK(swt_service_map(a, second));
	ret = swtim_adapter_start(a);
	if (ret == 0) {
		/* Both lcores may run the service: it still works. */
		for (i = 0; i < n; i++) {
			swt_timer_init(&t[i], SWT_Q_PARALLEL, i, 1 + i % 5);
			SWT_ASSERT_EQ(swtim_arm(a, &t[i]), 1);
		}
		got = swt_collect(&swt_dev, ev, n, 2000);
		SWT_ASSERT_EQ(got, n);
		SWT_ASSERT_EQ(swt_drain(&swt_dev, 20), 0);
		SWT_ASSERT_OK(swtim_adapter_stop(a));
	}
	SWT_ASSERT_OK(swtim_adapter_free(a));
	SWT_ASSERT_OK(swt_service_lcore_release(second));
	SWT_ASSERT_EQ(ret, 0);
	return SWT_PASS;
}

/* ---- extra event ports ---- */

static int
port_add_errors(void)
{
	struct swtim_adapter *a = mk_adapter(ID, false);

	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_EQ(swtim_adapter_port_add(NULL, APP_PORT + 1), -EINVAL);
	/* No such port on the device. */
	SWT_ASSERT_EQ(swtim_adapter_port_add(a, 200), -EINVAL);
	/* The adapter's own port, then one added twice. */
	SWT_ASSERT_EQ(swtim_adapter_port_add(a, APP_PORT), -EEXIST);
	SWT_ASSERT_OK(swtim_adapter_port_add(a, APP_PORT + 1));
	SWT_ASSERT_EQ(swtim_adapter_port_add(a, APP_PORT + 1), -EEXIST);
	/* Only before the first start, even once stopped. */
	SWT_ASSERT_OK(swt_adapter_start(a));
	SWT_ASSERT_EQ(swtim_adapter_port_add(a, APP_PORT + 2), -EBUSY);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	SWT_ASSERT_EQ(swtim_adapter_port_add(a, APP_PORT + 2), -EBUSY);
	SWT_ASSERT_OK(swtim_adapter_free(a));
	/* A freed adapter is no adapter. */
	SWT_ASSERT_EQ(swtim_adapter_port_add(a, APP_PORT + 2), -EINVAL);
	return SWT_PASS;
}

/*
 * SWTIM_ADAPTER_PORTS_MAX ports and no more: on a second event_dsw,
 * created here, with enough ports.
 */
static int
port_add_nospc(void)
{
	static struct swt_evdev big;
	const struct swt_evdev_conf bconf = {
		.name = "event_dsw1",
		.nb_app_ports = SWTIM_ADAPTER_PORTS_MAX + 1,
	};
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, NB_TIMERS, 0);
	struct swtim_adapter *a;
	unsigned int p;

	if (rte_event_dev_get_dev_id(bconf.name) < 0)
		SWT_ASSERT_OK(rte_eal_hotplug_add("vdev", bconf.name, ""));
	if (big.nb_app_ports == 0)
		SWT_ASSERT_OK(swt_evdev_setup(&bconf, &big));
	c.event_dev_id = big.dev_id;
	a = swtim_adapter_create_with_driver(&c, swt_port_cb,
			swt_port_arg(big.app_port), swt_driver, NULL);
	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	for (p = 1; p < SWTIM_ADAPTER_PORTS_MAX; p++)
		SWT_ASSERT_OK(swtim_adapter_port_add(a, big.app_port + p));
	SWT_ASSERT_EQ(swtim_adapter_port_add(a, big.app_port + p), -ENOSPC);
	SWT_ASSERT_OK(swtim_adapter_free(a));
	return SWT_PASS;
}

static int
stop_states(void)
{
	struct swtim_adapter *a = mk_adapter(ID, false);

	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_EQ(swtim_adapter_stop(NULL), -EINVAL);
	/* Never started: stop is a no-op that succeeds. */
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	SWT_ASSERT_OK(swt_adapter_start(a));
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	return SWT_PASS;
}

static int
free_states(void)
{
	struct swtim_adapter *a = mk_adapter(ID, true);

	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_EQ(swtim_adapter_free(NULL), -EINVAL);
	SWT_ASSERT_EQ(swtim_adapter_free(a), -EBUSY);
	/* Refused, so the adapter is still there and still started. */
	SWT_ASSERT(swtim_adapter_lookup(ID) == a, "lookup after -EBUSY");
	SWT_ASSERT_EQ(swtim_adapter_start(a), -EALREADY);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	SWT_ASSERT_OK(swtim_adapter_free(a));
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(ID), ENOENT);
	return SWT_PASS;
}

/* Refused control calls say why in the log, as DPDK's adapter does. */
static int
refused_calls_say_why(void)
{
	struct swtim_adapter *a = mk_adapter(ID, true);
	struct rte_event_timer_adapter_stats st;

	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_log_capture());
	SWT_ASSERT_EQ(swtim_adapter_start(a), -EALREADY);
	SWT_ASSERT(swt_log_captured("already started"), "start twice");
	SWT_ASSERT_OK(swt_log_capture());
	SWT_ASSERT_EQ(swtim_adapter_free(a), -EBUSY);
	SWT_ASSERT(swt_log_captured("must be stopped"), "free started");
	SWT_ASSERT_OK(swt_log_capture());
	SWT_ASSERT_EQ(swtim_adapter_stop(NULL), -EINVAL);
	SWT_ASSERT(swt_log_captured("stop: no such adapter"), "stop NULL");
	SWT_ASSERT_OK(swt_log_capture());
	SWT_ASSERT_EQ(swtim_adapter_stats_get(a, NULL), -EINVAL);
	SWT_ASSERT(swt_log_captured("NULL stats"), "stats_get NULL");
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	SWT_ASSERT_OK(swtim_adapter_free(a));
	SWT_ASSERT_OK(swt_log_capture());
	SWT_ASSERT_EQ(swtim_adapter_stats_get(a, &st), -EINVAL);
	SWT_ASSERT(swt_log_captured("stats_get: no such adapter"),
		   "stats_get freed");
	return SWT_PASS;
}

static int
lookup_states(void)
{
	struct swtim_adapter *a;

	SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(SWTIM_ADAPTER_NUM_MAX),
			      EINVAL);
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(UINT16_MAX), EINVAL);
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(ID), ENOENT);
	a = mk_adapter(ID, false);
	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT(swtim_adapter_lookup(ID) == a, "lookup");
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(ID + 1), ENOENT);
	return SWT_PASS;
}

static int
service_id_get_einval(void)
{
	struct swtim_adapter *a = mk_adapter(ID, false);
	struct swtim_adapter *b = mk_adapter(ID + 1, false);
	uint32_t sa, sb;

	SWT_ASSERT(a != NULL && b != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_EQ(swtim_adapter_service_id_get(NULL, &sa), -EINVAL);
	SWT_ASSERT_EQ(swtim_adapter_service_id_get(a, NULL), -EINVAL);
	if (!has_service(a)) {
		printf("    driver %s runs no service\n", swt_driver);
		return SWT_PASS;
	}
	SWT_ASSERT_OK(swtim_adapter_service_id_get(a, &sa));
	SWT_ASSERT_OK(swtim_adapter_service_id_get(b, &sb));
	/* Real, distinct services. */
	SWT_ASSERT(rte_service_get_name(sa) != NULL, "service %u", sa);
	SWT_ASSERT(sa != sb, "adapters share service %u", sa);
	return SWT_PASS;
}

static int
stats_einval(void)
{
	struct rte_event_timer_adapter_stats st;
	struct swtim_adapter *a = mk_adapter(ID, false);

	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_EQ(swtim_adapter_stats_get(NULL, &st), -EINVAL);
	SWT_ASSERT_EQ(swtim_adapter_stats_get(a, NULL), -EINVAL);
	SWT_ASSERT_EQ(swtim_adapter_stats_reset(NULL), -EINVAL);
	/* A new adapter counts nothing. */
	memset(&st, 0xff, sizeof(st));
	SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
	SWT_ASSERT_EQ(st.evtim_exp_count, 0);
	SWT_ASSERT_EQ(st.ev_enq_count, 0);
	SWT_ASSERT_EQ(st.ev_inv_count, 0);
	SWT_ASSERT_EQ(st.evtim_retry_count, 0);
	SWT_ASSERT_EQ(st.evtim_drop_count, 0);
	SWT_ASSERT_OK(swtim_adapter_stats_reset(a));
	return SWT_PASS;
}

/* ---- arm ---- */

static int
arm_null_args(void)
{
	struct rte_event_timer *t = swt_timers(1);
	struct rte_event_timer *null_tim = NULL;
	struct swtim_adapter *a = mk_adapter(ID, true);

	SWT_ASSERT(a != NULL && t != NULL, "setup");
	swt_timer_init(t, SWT_Q_ATOMIC, 0, 10);
	SWT_ASSERT_BURST(swtim_arm(NULL, t), 0, EINVAL);
	SWT_ASSERT_BURST(swtim_arm_tmo_tick_burst(NULL, &t, 10, 1), 0,
			 EINVAL);
	SWT_ASSERT_BURST(swtim_cancel(NULL, t), 0, EINVAL);
	SWT_ASSERT_EQ(t->state, RTE_EVENT_TIMER_NOT_ARMED);
	SWT_ASSERT_BURST(swtim_arm_burst(a, &null_tim, 1), 0, EINVAL);
	SWT_ASSERT_BURST(swtim_cancel_burst(a, &null_tim, 1), 0, EINVAL);
	/* Zero timers: nothing to do, nothing wrong. */
	SWT_ASSERT_EQ(swtim_arm_burst(a, &t, 0), 0);
	SWT_ASSERT_EQ(t->state, RTE_EVENT_TIMER_NOT_ARMED);
	return SWT_PASS;
}

static int
arm_already_armed(void)
{
	struct rte_event_timer *t = swt_timers(1);
	struct swtim_adapter *a = mk_adapter(ID, true);

	SWT_ASSERT(a != NULL && t != NULL, "setup");
	swt_timer_init(t, SWT_Q_ATOMIC, 0, MAX_TMO_TICKS);
	SWT_ASSERT_BURST(swtim_arm(a, t), 1, 0);
	SWT_ASSERT_EQ(t->state, RTE_EVENT_TIMER_ARMED);
	SWT_ASSERT_BURST(swtim_arm(a, t), 0, EALREADY);
	SWT_ASSERT_BURST(swtim_arm_tmo_tick_burst(a, &t, 10, 1), 0, EALREADY);
	SWT_ASSERT_EQ(t->state, RTE_EVENT_TIMER_ARMED);
	SWT_ASSERT_EQ(swtim_cancel(a, t), 1);
	return SWT_PASS;
}

static int
arm_bad_states(void)
{
	static const int states[] = {
		RTE_EVENT_TIMER_ERROR,
		RTE_EVENT_TIMER_ERROR_TOOEARLY,
		RTE_EVENT_TIMER_ERROR_TOOLATE,
		7,	/* not a state at all */
	};
	struct rte_event_timer *t = swt_timers(1);
	struct swtim_adapter *a = mk_adapter(ID, true);
	unsigned int i;

	SWT_ASSERT(a != NULL && t != NULL, "setup");
	for (i = 0; i < RTE_DIM(states); i++) {
		swt_timer_init(t, SWT_Q_ATOMIC, 0, 10);
		t->state = (enum rte_event_timer_state)states[i];
		SWT_ASSERT_BURST(swtim_arm(a, t), 0, EINVAL);
		SWT_ASSERT(t->state != RTE_EVENT_TIMER_ARMED,
			   "state %d armed", states[i]);
	}
	/* CANCELED is as good as NOT_ARMED for arming. */
	swt_timer_init(t, SWT_Q_ATOMIC, 0, MAX_TMO_TICKS);
	t->state = RTE_EVENT_TIMER_CANCELED;
	SWT_ASSERT_BURST(swtim_arm(a, t), 1, 0);
	SWT_ASSERT_EQ(swtim_cancel(a, t), 1);
	return SWT_PASS;
}

static int
arm_sched_type_mismatch(void)
{
	struct rte_event_timer *t = swt_timers(2);
	struct swtim_adapter *a = mk_adapter(ID, true);

	SWT_ASSERT(a != NULL && t != NULL, "setup");
	swt_timer_init(&t[0], SWT_Q_ATOMIC, 0, 10);
	t[0].ev.sched_type = RTE_SCHED_TYPE_PARALLEL;
	SWT_ASSERT_BURST(swtim_arm(a, &t[0]), 0, EINVAL);
	SWT_ASSERT_EQ(t[0].state, RTE_EVENT_TIMER_ERROR);

	swt_timer_init(&t[1], SWT_Q_PARALLEL, 0, 10);
	t[1].ev.sched_type = RTE_SCHED_TYPE_ATOMIC;
	SWT_ASSERT_BURST(swtim_arm(a, &t[1]), 0, EINVAL);
	SWT_ASSERT_EQ(t[1].state, RTE_EVENT_TIMER_ERROR);

	/* ERROR sticks: fixing the type alone does not make it armable. */
	t[0].ev.sched_type = RTE_SCHED_TYPE_ATOMIC;
	SWT_ASSERT_BURST(swtim_arm(a, &t[0]), 0, EINVAL);
	t[0].state = RTE_EVENT_TIMER_NOT_ARMED;
	t[0].timeout_ticks = MAX_TMO_TICKS;
	SWT_ASSERT_BURST(swtim_arm(a, &t[0]), 1, 0);
	SWT_ASSERT_EQ(swtim_cancel(a, &t[0]), 1);
	return SWT_PASS;
}

static int
arm_timeout_zero(void)
{
	struct rte_event_timer *t = swt_timers(1);
	struct swtim_adapter *a = mk_adapter(ID, true);

	SWT_ASSERT(a != NULL && t != NULL, "setup");
	swt_timer_init(t, SWT_Q_ATOMIC, 0, 0);
	SWT_ASSERT_BURST(swtim_arm(a, t), 0, EINVAL);
	SWT_ASSERT_EQ(t->state, RTE_EVENT_TIMER_ERROR_TOOEARLY);

	swt_timer_init(t, SWT_Q_ATOMIC, 0, 10);
	SWT_ASSERT_BURST(swtim_arm_tmo_tick_burst(a, &t, 0, 1), 0, EINVAL);
	SWT_ASSERT_EQ(t->state, RTE_EVENT_TIMER_ERROR_TOOEARLY);
	return SWT_PASS;
}

static int
arm_timeout_too_late(void)
{
	static const uint64_t late[] = {
		MAX_TMO_TICKS + 1,
		UINT64_MAX / TICK_NS + 1,	/* ticks * tick_ns overflows */
		UINT64_MAX,
	};
	struct rte_event_timer *t = swt_timers(1);
	struct swtim_adapter *a = mk_adapter(ID, true);
	unsigned int i;

	SWT_ASSERT(a != NULL && t != NULL, "setup");
	for (i = 0; i < RTE_DIM(late); i++) {
		swt_timer_init(t, SWT_Q_ATOMIC, 0, late[i]);
		SWT_ASSERT_BURST(swtim_arm(a, t), 0, EINVAL);
		SWT_ASSERT_EQ(t->state, RTE_EVENT_TIMER_ERROR_TOOLATE);

		swt_timer_init(t, SWT_Q_ATOMIC, 0, 1);
		SWT_ASSERT_BURST(swtim_arm_tmo_tick_burst(a, &t, late[i], 1),
				 0, EINVAL);
		SWT_ASSERT_EQ(t->state, RTE_EVENT_TIMER_ERROR_TOOLATE);
	}
	/* Exactly max_tmo_ns is allowed. */
	swt_timer_init(t, SWT_Q_ATOMIC, 0, MAX_TMO_TICKS);
	SWT_ASSERT_BURST(swtim_arm(a, t), 1, 0);
	SWT_ASSERT_EQ(swtim_cancel(a, t), 1);
	return SWT_PASS;
}

/*
 * The longest timeout is max_tmo_ns in ticks of the tick in force: after
 * ADJUST_RES raised the tick, and when max_tmo_ns is not a whole number
 * of ticks.
 */
static int
arm_max_timeout_in_ticks(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, 1, 1000 * 1000, NB_TIMERS,
			 RTE_EVENT_TIMER_ADAPTER_F_ADJUST_RES);
	struct rte_event_timer *t = swt_timers(1);
	struct swtim_adapter *a;
	uint64_t tick, max_ticks;

	SWT_ASSERT(t != NULL, "alloc");
	a = swt_adapter_create(&c, APP_PORT);
	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_adapter_start(a));
	tick = swt_adapter_tick_ns(a);
	max_ticks = c.max_tmo_ns / tick;
	SWT_ASSERT(max_ticks >= 1, "tick %" PRIu64, tick);
	swt_timer_init(t, SWT_Q_ATOMIC, 0, max_ticks + 1);
	SWT_ASSERT_BURST(swtim_arm(a, t), 0, EINVAL);
	SWT_ASSERT_EQ(t->state, RTE_EVENT_TIMER_ERROR_TOOLATE);
	swt_timer_init(t, SWT_Q_ATOMIC, 0, max_ticks);
	SWT_ASSERT_BURST(swtim_arm(a, t), 1, 0);
	SWT_ASSERT_EQ(swt_cancel_retry(a, t), 1);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	SWT_ASSERT_OK(swtim_adapter_free(a));

	/* 2.5 ticks: 2 is the most. */
	c = swt_conf(ID, TICK_NS, TICK_NS * 5 / 2, NB_TIMERS, 0);
	a = swt_adapter_create(&c, APP_PORT);
	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	swt_timer_init(t, SWT_Q_ATOMIC, 0, 3);
	SWT_ASSERT_BURST(swtim_arm(a, t), 0, EINVAL);
	SWT_ASSERT_EQ(t->state, RTE_EVENT_TIMER_ERROR_TOOLATE);
	swt_timer_init(t, SWT_Q_ATOMIC, 0, 2);
	SWT_ASSERT_BURST(swtim_arm(a, t), 1, 0);
	SWT_ASSERT_EQ(swt_cancel_retry(a, t), 1);
	return SWT_PASS;
}

/*
 * [ok, ok, too early] on an adapter with room for one more: the driver
 * stops at the budget, so the burst fails with ENOSPC, and the invalid
 * timer it never reached keeps its state (its error is not the one the
 * call reports).
 */
static int
arm_burst_budget_before_invalid(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, 2, 0);
	struct rte_event_timer *t = swt_timers(4);
	struct rte_event_timer **p = swt_timer_ptrs(t, 4);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);
	unsigned int i;

	SWT_ASSERT(a != NULL && t != NULL && p != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_adapter_start(a));
	for (i = 0; i < 4; i++)
		swt_timer_init(&t[i], SWT_Q_PARALLEL, i, MAX_TMO_TICKS);
	SWT_ASSERT_EQ(swtim_arm(a, &t[0]), 1);
	t[3].timeout_ticks = 0;
	SWT_ASSERT_BURST(swtim_arm_burst(a, &p[1], 3), 1, ENOSPC);
	SWT_ASSERT_EQ(t[1].state, RTE_EVENT_TIMER_ARMED);
	SWT_ASSERT_EQ(t[2].state, RTE_EVENT_TIMER_NOT_ARMED);
	SWT_ASSERT_EQ(t[3].state, RTE_EVENT_TIMER_NOT_ARMED);
	SWT_ASSERT_EQ(swtim_cancel_burst(a, p, 2), 2);
	return SWT_PASS;
}

static int
arm_burst_stops_at_first_failure(void)
{
	struct rte_event_timer *t = swt_timers(4);
	struct rte_event_timer **p = swt_timer_ptrs(t, 4);
	struct swtim_adapter *a = mk_adapter(ID, true);
	unsigned int i;

	SWT_ASSERT(a != NULL && t != NULL && p != NULL, "setup");

	/* [ok, ok, already armed, ok]: two armed, the last untouched. */
	for (i = 0; i < 4; i++)
		swt_timer_init(&t[i], SWT_Q_ATOMIC, i, MAX_TMO_TICKS);
	SWT_ASSERT_EQ(swtim_arm(a, &t[2]), 1);
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, 4), 2, EALREADY);
	SWT_ASSERT_EQ(t[0].state, RTE_EVENT_TIMER_ARMED);
	SWT_ASSERT_EQ(t[1].state, RTE_EVENT_TIMER_ARMED);
	SWT_ASSERT_EQ(t[2].state, RTE_EVENT_TIMER_ARMED);
	SWT_ASSERT_EQ(t[3].state, RTE_EVENT_TIMER_NOT_ARMED);
	SWT_ASSERT_EQ(swtim_cancel_burst(a, p, 3), 3);

	/* [ok, wrong sched type, ok]. */
	for (i = 0; i < 3; i++)
		swt_timer_init(&t[i], SWT_Q_ATOMIC, i, MAX_TMO_TICKS);
	t[1].ev.sched_type = RTE_SCHED_TYPE_PARALLEL;
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, 3), 1, EINVAL);
	SWT_ASSERT_EQ(t[0].state, RTE_EVENT_TIMER_ARMED);
	SWT_ASSERT_EQ(t[1].state, RTE_EVENT_TIMER_ERROR);
	SWT_ASSERT_EQ(t[2].state, RTE_EVENT_TIMER_NOT_ARMED);
	SWT_ASSERT_EQ(swtim_cancel(a, &t[0]), 1);

	/* [ok, ok, ok, too early]. */
	for (i = 0; i < 4; i++)
		swt_timer_init(&t[i], SWT_Q_PARALLEL, i, MAX_TMO_TICKS);
	t[3].timeout_ticks = 0;
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, 4), 3, EINVAL);
	SWT_ASSERT_EQ(t[3].state, RTE_EVENT_TIMER_ERROR_TOOEARLY);
	SWT_ASSERT_EQ(swtim_cancel_burst(a, p, 3), 3);

	/* [ok, too late, ok]. */
	for (i = 0; i < 3; i++)
		swt_timer_init(&t[i], SWT_Q_PARALLEL, i, MAX_TMO_TICKS);
	t[1].timeout_ticks = MAX_TMO_TICKS + 1;
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, 3), 1, EINVAL);
	SWT_ASSERT_EQ(t[1].state, RTE_EVENT_TIMER_ERROR_TOOLATE);
	SWT_ASSERT_EQ(t[2].state, RTE_EVENT_TIMER_NOT_ARMED);
	SWT_ASSERT_EQ(swtim_cancel(a, &t[0]), 1);
	return SWT_PASS;
}

/*
 * Bursts longer than a chunk of the checks (swtim_fastpath.c): a timer
 * given again 240 entries later, and a bad timeout 200 entries in, stop
 * the burst there as in a short one, for arm and for cancel alike.
 */
static int
long_burst_stops_where_short_ones_do(void)
{
	enum { N = 300, REPEAT_AT = 250, BAD_AT = 200 };
	struct rte_event_timer *t = swt_timers(N);
	struct rte_event_timer **p = swt_timer_ptrs(t, N);
	struct swtim_adapter *a = mk_adapter(ID, true);
	unsigned int i;

	SWT_ASSERT(a != NULL && t != NULL && p != NULL, "setup");
	SWT_ASSERT(NB_TIMERS >= N, "NB_TIMERS %u below %u", NB_TIMERS, N);
	for (i = 0; i < N; i++)
		swt_timer_init(&t[i], SWT_Q_ATOMIC, i, MAX_TMO_TICKS);
	/* t[10] again at REPEAT_AT: armed once, then EALREADY. */
	p[REPEAT_AT] = &t[10];
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, N), REPEAT_AT, EALREADY);
	for (i = 0; i < N; i++)
		SWT_ASSERT_EQ(t[i].state, i < REPEAT_AT ?
			      RTE_EVENT_TIMER_ARMED :
			      RTE_EVENT_TIMER_NOT_ARMED);
	SWT_ASSERT_BURST(swtim_cancel_burst(a, p, N), REPEAT_AT, EALREADY);
	for (i = 0; i < N; i++)
		SWT_ASSERT_EQ(t[i].state, i < REPEAT_AT ?
			      RTE_EVENT_TIMER_CANCELED :
			      RTE_EVENT_TIMER_NOT_ARMED);

	/* Too early at BAD_AT: the front armed, that one marked. */
	p[REPEAT_AT] = &t[REPEAT_AT];
	for (i = 0; i < N; i++)
		swt_timer_init(&t[i], SWT_Q_ATOMIC, i, MAX_TMO_TICKS);
	t[BAD_AT].timeout_ticks = 0;
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, N), BAD_AT, EINVAL);
	SWT_ASSERT_EQ(t[BAD_AT].state, RTE_EVENT_TIMER_ERROR_TOOEARLY);
	SWT_ASSERT_EQ(t[BAD_AT + 1].state, RTE_EVENT_TIMER_NOT_ARMED);
	SWT_ASSERT_EQ(swtim_cancel_burst(a, p, BAD_AT), BAD_AT);
	return SWT_PASS;
}

static int
arm_tmo_tick_burst_front(void)
{
	struct rte_event_timer *t = swt_timers(4);
	struct rte_event_timer **p = swt_timer_ptrs(t, 4);
	struct swtim_adapter *a = mk_adapter(ID, true);
	unsigned int i;

	SWT_ASSERT(a != NULL && t != NULL && p != NULL, "setup");

	/* [ok, ok, already armed, ok] with the common timeout. */
	for (i = 0; i < 4; i++)
		swt_timer_init(&t[i], SWT_Q_ATOMIC, i, 1);
	SWT_ASSERT_EQ(swtim_arm_tmo_tick_burst(a, &p[2], MAX_TMO_TICKS, 1),
		      1);
	SWT_ASSERT_BURST(swtim_arm_tmo_tick_burst(a, p, MAX_TMO_TICKS - 1,
						  4), 2, EALREADY);
	SWT_ASSERT_EQ(t[0].state, RTE_EVENT_TIMER_ARMED);
	SWT_ASSERT_EQ(t[1].state, RTE_EVENT_TIMER_ARMED);
	SWT_ASSERT_EQ(t[3].state, RTE_EVENT_TIMER_NOT_ARMED);
	/* The common timeout is written to each armed timer. */
	SWT_ASSERT_EQ(t[0].timeout_ticks, MAX_TMO_TICKS - 1);
	SWT_ASSERT_EQ(t[1].timeout_ticks, MAX_TMO_TICKS - 1);
	SWT_ASSERT_EQ(swtim_cancel_burst(a, p, 3), 3);

	/* [ok, ok, wrong sched type]. */
	for (i = 0; i < 3; i++)
		swt_timer_init(&t[i], SWT_Q_PARALLEL, i, 1);
	t[2].ev.sched_type = RTE_SCHED_TYPE_ATOMIC;
	SWT_ASSERT_BURST(swtim_arm_tmo_tick_burst(a, p, MAX_TMO_TICKS, 3), 2,
			 EINVAL);
	SWT_ASSERT_EQ(t[2].state, RTE_EVENT_TIMER_ERROR);
	SWT_ASSERT_EQ(swtim_cancel_burst(a, p, 2), 2);
	return SWT_PASS;
}

static int
cancel_errors(void)
{
	struct rte_event_timer *t = swt_timers(4);
	struct rte_event_timer **p = swt_timer_ptrs(t, 4);
	struct swtim_adapter *a = mk_adapter(ID, true);
	struct rte_event ev;
	unsigned int i;

	SWT_ASSERT(a != NULL && t != NULL && p != NULL, "setup");

	/* Never armed. */
	swt_timer_init(&t[0], SWT_Q_ATOMIC, 0, MAX_TMO_TICKS);
	SWT_ASSERT_BURST(swtim_cancel(a, &t[0]), 0, EINVAL);
	SWT_ASSERT_EQ(t[0].state, RTE_EVENT_TIMER_NOT_ARMED);

	/* Cancelled twice. */
	SWT_ASSERT_EQ(swtim_arm(a, &t[0]), 1);
	SWT_ASSERT_BURST(swtim_cancel(a, &t[0]), 1, 0);
	SWT_ASSERT_EQ(t[0].state, RTE_EVENT_TIMER_CANCELED);
	SWT_ASSERT_BURST(swtim_cancel(a, &t[0]), 0, EALREADY);
	SWT_ASSERT_EQ(t[0].state, RTE_EVENT_TIMER_CANCELED);

	/* An error state is not ARMED. */
	t[0].state = RTE_EVENT_TIMER_ERROR;
	SWT_ASSERT_BURST(swtim_cancel(a, &t[0]), 0, EINVAL);

	/* Expired: the event came, the state is NOT_ARMED again. */
	swt_timer_init(&t[0], SWT_Q_ATOMIC, 42, 1);
	SWT_ASSERT_EQ(swtim_arm(a, &t[0]), 1);
	SWT_ASSERT_EQ(swt_collect(&swt_dev, &ev, 1, 2000), 1);
	SWT_ASSERT_EQ(ev.u64, 42);
	SWT_ASSERT_EQ(t[0].state, RTE_EVENT_TIMER_NOT_ARMED);
	SWT_ASSERT_BURST(swtim_cancel(a, &t[0]), 0, EINVAL);

	/* [armed, armed, not armed, armed]: two cancelled, last armed. */
	for (i = 0; i < 4; i++) {
		swt_timer_init(&t[i], SWT_Q_ATOMIC, i, MAX_TMO_TICKS);
		if (i != 2)
			SWT_ASSERT_EQ(swtim_arm(a, &t[i]), 1);
	}
	SWT_ASSERT_BURST(swtim_cancel_burst(a, p, 4), 2, EINVAL);
	SWT_ASSERT_EQ(t[0].state, RTE_EVENT_TIMER_CANCELED);
	SWT_ASSERT_EQ(t[1].state, RTE_EVENT_TIMER_CANCELED);
	SWT_ASSERT_EQ(t[3].state, RTE_EVENT_TIMER_ARMED);

	/* [canceled, armed]: stops at once with EALREADY. */
	SWT_ASSERT_BURST(swtim_cancel_burst(a, &p[1], 3), 0, EALREADY);
	SWT_ASSERT_EQ(t[3].state, RTE_EVENT_TIMER_ARMED);
	SWT_ASSERT_EQ(swtim_cancel(a, &t[3]), 1);

	/* Nothing cancelled was delivered. */
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 20), 0);
	return SWT_PASS;
}

/*
 * A timer belongs to the adapter that armed it: another adapter cannot
 * cancel it or read its ticks. Once expired, it may go to another one.
 */
static int
timer_of_other_adapter(void)
{
	struct rte_event_timer *t = swt_timers(1);
	struct swtim_adapter *a = mk_adapter(ID, true);
	struct swtim_adapter *b = mk_adapter(ID + 1, true);
	struct rte_event ev;
	uint64_t ticks;

	SWT_ASSERT(a != NULL && b != NULL && t != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	swt_timer_init(t, SWT_Q_ATOMIC, 1, MAX_TMO_TICKS);
	SWT_ASSERT_EQ(swtim_arm(a, t), 1);
	SWT_ASSERT_BURST(swtim_cancel(b, t), 0, EINVAL);
	SWT_ASSERT_EQ(swtim_remaining_ticks_get(b, t, &ticks), -EINVAL);
	SWT_ASSERT_BURST(swtim_arm(b, t), 0, EALREADY);
	SWT_ASSERT_EQ(t->state, RTE_EVENT_TIMER_ARMED);
	SWT_ASSERT_EQ(swtim_cancel(a, t), 1);

	/* Cancelled on a, armed on b: delivered by b, cancellable on b. */
	t->timeout_ticks = 1;
	SWT_ASSERT_EQ(swtim_arm(b, t), 1);
	SWT_ASSERT_EQ(swt_collect(&swt_dev, &ev, 1, 2000), 1);
	SWT_ASSERT_EQ(ev.u64, 1);
	SWT_ASSERT_EQ(t->state, RTE_EVENT_TIMER_NOT_ARMED);
	t->timeout_ticks = MAX_TMO_TICKS;
	SWT_ASSERT_EQ(swtim_arm(a, t), 1);
	SWT_ASSERT_BURST(swtim_cancel(b, t), 0, EINVAL);
	SWT_ASSERT_EQ(swtim_cancel(a, t), 1);
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 20), 0);
	return SWT_PASS;
}

/* ---- remaining ticks ---- */

static int
remaining_ticks(void)
{
	const uint64_t T = 50;
	struct rte_event_timer *t = swt_timers(1);
	struct swtim_adapter *a = mk_adapter(ID, true);
	uint64_t ticks, t0, t1, tick_cycles;
	struct rte_event ev;

	SWT_ASSERT(a != NULL && t != NULL, "setup");
	tick_cycles = swt_ns_to_cycles(TICK_NS);
	swt_timer_init(t, SWT_Q_ATOMIC, 0, T);

	SWT_ASSERT_EQ(swtim_remaining_ticks_get(a, t, &ticks), -EINVAL);
	SWT_ASSERT_EQ(swtim_remaining_ticks_get(NULL, t, &ticks), -EINVAL);
	SWT_ASSERT_EQ(swtim_remaining_ticks_get(a, NULL, &ticks), -EINVAL);

	t0 = swt_now();
	SWT_ASSERT_EQ(swtim_arm(a, t), 1);
	SWT_ASSERT_EQ(swtim_remaining_ticks_get(a, t, NULL), -EINVAL);
	SWT_ASSERT_OK(swtim_remaining_ticks_get(a, t, &ticks));
	t1 = swt_now();
	SWT_ASSERT(ticks > 0 && ticks <= T, "%" PRIu64 " of %" PRIu64,
		   ticks, T);
	/*
	 * Rounded up: with less than a tick gone, T ticks remain. Only
	 * asserted when we were not descheduled for a tick meanwhile.
	 */
	if (t1 - t0 < tick_cycles / 2)
		SWT_ASSERT_EQ(ticks, T);

	/* Time passes, the count goes down. */
	swt_sleep_ms(5 * TICK_NS / 1000000);
	SWT_ASSERT_OK(swtim_remaining_ticks_get(a, t, &ticks));
	SWT_ASSERT(ticks < T, "%" PRIu64 " after 5 ticks", ticks);

	SWT_ASSERT_EQ(swtim_cancel(a, t), 1);
	SWT_ASSERT_EQ(swtim_remaining_ticks_get(a, t, &ticks), -EINVAL);

	/*
	 * Due: on a stopped adapter an armed timer stays ARMED past its
	 * deadline, so 0 can be seen without racing the service.
	 */
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	swt_timer_init(t, SWT_Q_ATOMIC, 7, 3);
	SWT_ASSERT_EQ(swtim_arm(a, t), 1);
	swt_sleep_ms(20 * TICK_NS / 1000000);
	SWT_ASSERT_EQ(t->state, RTE_EVENT_TIMER_ARMED);
	ticks = UINT64_MAX;
	SWT_ASSERT_OK(swtim_remaining_ticks_get(a, t, &ticks));
	SWT_ASSERT_EQ(ticks, 0);

	/* Started again, the late timer is delivered, then not ARMED. */
	SWT_ASSERT_OK(swtim_adapter_start(a));
	SWT_ASSERT_EQ(swt_collect(&swt_dev, &ev, 1, 2000), 1);
	SWT_ASSERT_EQ(ev.u64, 7);
	SWT_ASSERT_EQ(swtim_remaining_ticks_get(a, t, &ticks), -EINVAL);
	return SWT_PASS;
}

/* The ticks from now to deadline, rounded up (0 once due). */
static uint64_t
ticks_to(uint64_t deadline, uint64_t now, uint64_t tick_cycles)
{
	return deadline > now ?
		(deadline - now + tick_cycles - 1) / tick_cycles : 0;
}

/*
 * Counted as DPDK's autotest counts them (test_timer_ticks_remaining, 31
 * cases from 23.03): after each whole tick slept, the ticks to the exact
 * deadline, rounded up. The deadline is known to within the time the arm
 * call took, now to within the time the count's call took: the count
 * must lie between what those bounds give, one value but where a bound
 * falls on a tick boundary. A wheel timer falls due at the first grain
 * after its deadline; counted to that grain, the count was one too many
 * whenever the deadline was less than a grain short of a whole tick from
 * now, as it is here after each sleep. 10 ms ticks: 16 grains a tick.
 * Never started, the adapter leaves the timer ARMED however long the
 * sleeps take.
 */
static int
remaining_ticks_after_whole_ticks(void)
{
	const uint64_t T = 5, tick_ns = 10 * 1000 * 1000;
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, tick_ns, 100 * tick_ns, NB_TIMERS, 0);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);
	struct rte_event_timer *t = swt_timers(1);
	uint64_t tick = swt_ns_to_cycles(tick_ns);
	uint64_t arm0, arm1, q0, q1, ticks, lo, hi;
	unsigned int i;

	SWT_ASSERT(a != NULL && t != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	swt_timer_init(t, SWT_Q_ATOMIC, 0, T);
	arm0 = swt_now();
	SWT_ASSERT_EQ(swtim_arm(a, t), 1);
	arm1 = swt_now();
	for (i = 0; i <= T; i++) {
		q0 = swt_now();
		SWT_ASSERT_OK(swtim_remaining_ticks_get(a, t, &ticks));
		q1 = swt_now();
		/* A tick of whole cycles may be a cycle longer than ours. */
		lo = ticks_to(arm0 + T * tick, q1, tick);
		hi = ticks_to(arm1 + T * (tick + 1), q0, tick);
		SWT_ASSERT(ticks >= lo && ticks <= hi, "after %u ticks slept:"
			   " %" PRIu64 " ticks remaining, not %" PRIu64 "-%"
			   PRIu64, i, ticks, lo, hi);
		swt_sleep_ms(tick_ns / 1000000);
	}
	SWT_ASSERT_EQ(ticks, 0);
	SWT_ASSERT_EQ(swtim_cancel(a, t), 1);
	return SWT_PASS;
}

static const struct swt_case cases[] = {
	SWT_CASE(create_null_conf),
	SWT_CASE(create_bad_dev_id),
	SWT_CASE(create_id_out_of_range),
	SWT_CASE(create_tick_zero),
	SWT_CASE(create_max_tmo_below_tick),
	SWT_CASE(create_nb_timers_zero),
	SWT_CASE(create_duplicate_id),
	SWT_CASE(create_ext_null_cb),
	SWT_CASE(create_cb_error_leaves_nothing),
	SWT_CASE(create_unknown_driver),
	SWT_CASE(create_unknown_devargs),
	SWT_CASE(create_bad_option_value),
	SWT_CASE(create_refused_by_driver_adds_no_port),
	SWT_CASE(create_default_driver),
	SWT_CASE(create_tick_too_fine),
	SWT_CASE(create_adjust_res_keeps_coarse_tick),
	SWT_CASE(create_tick_past_the_clock),
	SWT_CASE(get_info_einval),
	SWT_CASE(start_einval),
	SWT_CASE(start_twice),
	SWT_CASE(start_unmapped),
	SWT_CASE(start_two_service_lcores),
	SWT_CASE(port_add_errors),
	SWT_CASE(port_add_nospc),
	SWT_CASE(stop_states),
	SWT_CASE(free_states),
	SWT_CASE(refused_calls_say_why),
	SWT_CASE(lookup_states),
	SWT_CASE(service_id_get_einval),
	SWT_CASE(stats_einval),
	SWT_CASE(arm_null_args),
	SWT_CASE(arm_already_armed),
	SWT_CASE(arm_bad_states),
	SWT_CASE(arm_sched_type_mismatch),
	SWT_CASE(arm_timeout_zero),
	SWT_CASE(arm_timeout_too_late),
	SWT_CASE(arm_max_timeout_in_ticks),
	SWT_CASE(arm_burst_stops_at_first_failure),
	SWT_CASE(long_burst_stops_where_short_ones_do),
	SWT_CASE(arm_burst_budget_before_invalid),
	SWT_CASE(arm_tmo_tick_burst_front),
	SWT_CASE(cancel_errors),
	SWT_CASE(timer_of_other_adapter),
	SWT_CASE(remaining_ticks),
	SWT_CASE(remaining_ticks_after_whole_ticks),
};

int
main(int argc, char **argv)
{
	return swt_main(argc, argv, cases, RTE_DIM(cases));
}
