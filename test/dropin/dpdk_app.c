/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * An application written against DPDK's event timer adapter API only: no
 * swtim header, no swtim call (swt_cpus.h, the tests' CPU pick, is libc
 * alone). Built once linked against DPDK alone (run
 * with libswtim_dropin preloaded, or without it) and once linked with
 * libswtim_dropin ahead of librte_eventdev.
 *
 * DROPIN_EXPECT=swtim|dpdk says who must serve the adapters; the first
 * case checks it through what an application can see: the name of the
 * adapter's service, and swtim_adapter_lookup() found with dlsym() in
 * whatever the process has loaded. The other cases hold for both
 * implementations, except where DPDK 22.11's differs from swtim's
 * contract (marked; checked only when swtim serves).
 */

#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_event_timer_adapter.h>
#include <rte_eventdev.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_service.h>
#include <rte_version.h>

#include "swt_cpus.h"

#define APP_DEV 0
#define APP_PORT 0
#define APP_QUEUE 0
#define APP_TICK_NS (1000 * 1000ULL)	/* 1 ms */
#define APP_MAX_TMO_NS (10 * 1000 * 1000 * 1000ULL)
#define APP_WAIT_S 2			/* generous bound on any expiry */
#define APP_NB_BURST 64
/* How DPDK 22.11's software adapter names its service. */
#define DPDK_SERVICE_PREFIX "swtim_svc_"

static bool expect_swtim;
static unsigned int service_lcore;
static int failures;

#define CHECK(cond, ...) do { \
		if (!(cond)) { \
			fprintf(stderr, "%s:%d: %s: ", __func__, __LINE__, \
				#cond); \
			fprintf(stderr, __VA_ARGS__); \
			fprintf(stderr, "\n"); \
			return -1; \
		} \
	} while (0)

static void
app_conf(struct rte_event_timer_adapter_conf *conf, uint16_t id,
	 uint64_t flags)
{
	memset(conf, 0, sizeof(*conf));
	conf->event_dev_id = APP_DEV;
	conf->timer_adapter_id = id;
	conf->socket_id = rte_socket_id();
	conf->clk_src = RTE_EVENT_TIMER_ADAPTER_CPU_CLK;
	conf->timer_tick_ns = APP_TICK_NS;
	conf->max_tmo_ns = APP_MAX_TMO_NS;
	conf->nb_timers = 1024;
	conf->flags = flags;
}

/* Create, map the service to the service lcore and start. */
static struct rte_event_timer_adapter *
app_adapter(uint16_t id, uint64_t flags)
{
	struct rte_event_timer_adapter_conf conf;
	struct rte_event_timer_adapter *a;
	uint32_t sid;
	int ret;

	app_conf(&conf, id, flags);
	a = rte_event_timer_adapter_create(&conf);
	if (a == NULL) {
		fprintf(stderr, "create %u: %s\n", id, rte_strerror(rte_errno));
		return NULL;
	}
	if (rte_event_timer_adapter_service_id_get(a, &sid) != 0 ||
	    rte_service_map_lcore_set(sid, service_lcore, 1) != 0 ||
	    rte_service_runstate_set(sid, 1) != 0) {
		fprintf(stderr, "adapter %u: cannot map its service\n", id);
		rte_event_timer_adapter_free(a);
		return NULL;
	}
	ret = rte_event_timer_adapter_start(a);
	if (ret != 0) {
		fprintf(stderr, "start %u: %d\n", id, ret);
		rte_event_timer_adapter_free(a);
		return NULL;
	}
	return a;
}

static void
app_adapter_free(struct rte_event_timer_adapter *a)
{
	if (a == NULL)
		return;
	rte_event_timer_adapter_stop(a);
	rte_event_timer_adapter_free(a);
}

static void
app_timer(struct rte_event_timer *t, uint64_t ticks)
{
	memset(t, 0, sizeof(*t));
	t->ev.op = RTE_EVENT_OP_NEW;
	t->ev.queue_id = APP_QUEUE;
	t->ev.sched_type = RTE_SCHED_TYPE_ATOMIC;
	t->ev.priority = RTE_EVENT_DEV_PRIORITY_NORMAL;
	t->ev.event_type = RTE_EVENT_TYPE_TIMER;
	t->ev.event_ptr = t;
	t->state = RTE_EVENT_TIMER_NOT_ARMED;
	t->timeout_ticks = ticks;
}

/* Dequeue up to max events within wait_ms; returns how many came. */
static unsigned int
app_dequeue(struct rte_event *evs, unsigned int max, uint64_t wait_ms)
{
	uint64_t end = rte_get_timer_cycles() +
		wait_ms * rte_get_timer_hz() / 1000;
	unsigned int n = 0;

	while (n < max && rte_get_timer_cycles() < end)
		n += rte_event_dequeue_burst(APP_DEV, APP_PORT, &evs[n],
					     max - n, 0);
	return n;
}

/* Drain whatever is left, so that cases do not see each other's events. */
static void
app_drain(void)
{
	struct rte_event ev[32];

	while (app_dequeue(ev, RTE_DIM(ev), 50) > 0)
		;
}

static int
case_served_by(void)
{
	struct rte_event_timer_adapter *(*sw_lookup)(uint16_t);
	struct rte_event_timer_adapter *a;
	const char *name;
	uint32_t caps = 0, sid;
	bool swtim_name;

	CHECK(rte_event_timer_adapter_caps_get(APP_DEV, &caps) == 0, "caps");
	CHECK(!(caps & RTE_EVENT_TIMER_ADAPTER_CAP_INTERNAL_PORT),
	      "a software device: the application maps the service");
	/* DPDK 22.11 answers 0 for software devices, periodic as it is. */
	if (expect_swtim)
		CHECK(caps & RTE_EVENT_TIMER_ADAPTER_CAP_PERIODIC,
		      "swtim's drivers have periodic timers: 0x%x", caps);

	a = app_adapter(3, 0);
	CHECK(a != NULL, "adapter");
	CHECK(a->allocated == 1 && a->data != NULL && a->arm_burst != NULL &&
	      a->arm_tmo_tick_burst != NULL && a->cancel_burst != NULL,
	      "a whole struct rte_event_timer_adapter");
	CHECK(rte_event_timer_adapter_service_id_get(a, &sid) == 0, "sid");
	name = rte_service_get_name(sid);
	CHECK(name != NULL, "service name");
	/*
	 * DPDK 22.11's software adapter names its service "swtim_svc_<id>"
	 * (its implementation is called swtim too); swtim's drivers name
	 * theirs "swtim_<driver>_<id>", whl or skl.
	 */
	swtim_name = strncmp(name, DPDK_SERVICE_PREFIX,
			     strlen(DPDK_SERVICE_PREFIX)) != 0;
	/* swtim_adapter_lookup() returns a struct swtim_adapter *: a token. */
	*(void **)&sw_lookup = dlsym(RTLD_DEFAULT, "swtim_adapter_lookup");
	if (expect_swtim) {
		CHECK(swtim_name, "service \"%s\" is not swtim's", name);
		CHECK(sw_lookup != NULL, "libswtim not loaded");
		CHECK(sw_lookup(3) != NULL, "swtim does not know adapter 3");
	} else {
		CHECK(!swtim_name, "service \"%s\" is swtim's", name);
		CHECK(sw_lookup == NULL || sw_lookup(3) == NULL,
		      "swtim serves adapter 3");
	}
	printf("adapter 3: service \"%s\"\n", name);
	app_adapter_free(a);
	return 0;
}

static int
case_arm_expire(void)
{
	struct rte_event_timer_adapter_stats st;
	struct rte_event_timer_adapter *a;
	struct rte_event_timer t, *tp = &t;
	struct rte_event ev;
	uint64_t t0, elapsed_ns;
	int ret = -1;

	a = app_adapter(0, 0);
	CHECK(a != NULL, "adapter");
	app_timer(&t, 10);
	t0 = rte_get_timer_cycles();
	if (rte_event_timer_arm_burst(a, &tp, 1) != 1) {
		fprintf(stderr, "arm: %s\n", rte_strerror(rte_errno));
		goto out;
	}
	if (t.state != RTE_EVENT_TIMER_ARMED) {
		fprintf(stderr, "state %d after arm\n", t.state);
		goto out;
	}
	if (app_dequeue(&ev, 1, APP_WAIT_S * 1000) != 1) {
		fprintf(stderr, "no expiry within %d s\n", APP_WAIT_S);
		goto out;
	}
	elapsed_ns = (rte_get_timer_cycles() - t0) * 1000000000ULL /
		rte_get_timer_hz();
	if (elapsed_ns < 10 * APP_TICK_NS || ev.event_ptr != &t ||
	    ev.event_type != RTE_EVENT_TYPE_TIMER ||
	    t.state != RTE_EVENT_TIMER_NOT_ARMED) {
		fprintf(stderr, "early (%" PRIu64 " ns) or wrong event/state"
			" (%p %u %d)\n", elapsed_ns, ev.event_ptr,
			ev.event_type, t.state);
		goto out;
	}
	if (rte_event_timer_adapter_stats_get(a, &st) != 0 ||
	    st.evtim_exp_count != 1 || st.ev_enq_count != 1) {
		fprintf(stderr, "stats: %" PRIu64 " expired, %" PRIu64
			" enqueued\n", st.evtim_exp_count, st.ev_enq_count);
		goto out;
	}
	if (rte_event_timer_adapter_stats_reset(a) != 0 ||
	    rte_event_timer_adapter_stats_get(a, &st) != 0 ||
	    st.evtim_exp_count != 0) {
		fprintf(stderr, "stats_reset\n");
		goto out;
	}
	/* Armed again at once from its own expiry. */
	if (rte_event_timer_arm_burst(a, &tp, 1) != 1 ||
	    app_dequeue(&ev, 1, APP_WAIT_S * 1000) != 1) {
		fprintf(stderr, "re-arm\n");
		goto out;
	}
	ret = 0;
out:
	app_adapter_free(a);
	return ret;
}

static int
case_cancel_and_errors(void)
{
	struct rte_event_timer_adapter *a;
	struct rte_event_timer t, *tp = &t, *twice[2] = { &t, &t };
	struct rte_event ev;
	int ret = -1;

	a = app_adapter(0, 0);
	CHECK(a != NULL, "adapter");
	app_timer(&t, 20);
	/* The same timer twice in one burst: the second finds it armed. */
	rte_errno = 0;
	if (rte_event_timer_arm_burst(a, twice, 2) != 1 ||
	    rte_errno != EALREADY || t.state != RTE_EVENT_TIMER_ARMED)
		goto out;
	/* Armed already. */
	rte_errno = 0;
	if (rte_event_timer_arm_burst(a, &tp, 1) != 0 || rte_errno != EALREADY)
		goto out;
	/* Twice in one cancel burst: the second finds it cancelled. */
	rte_errno = 0;
	if (rte_event_timer_cancel_burst(a, twice, 2) != 1 ||
	    rte_errno != EALREADY || t.state != RTE_EVENT_TIMER_CANCELED)
		goto out;
	rte_errno = 0;
	if (rte_event_timer_cancel_burst(a, &tp, 1) != 0 ||
	    rte_errno != EALREADY)
		goto out;
	/* Ten times its timeout: a cancelled timer never arrives. */
	if (app_dequeue(&ev, 1, 200) != 0) {
		fprintf(stderr, "a cancelled timer expired\n");
		goto out;
	}
	/* Beyond max_tmo_ns. */
	app_timer(&t, APP_MAX_TMO_NS / APP_TICK_NS + 1);
	rte_errno = 0;
	if (rte_event_timer_arm_burst(a, &tp, 1) != 0 || rte_errno != EINVAL ||
	    t.state != RTE_EVENT_TIMER_ERROR_TOOLATE) {
		fprintf(stderr, "too late: errno %d state %d\n", rte_errno,
			t.state);
		goto out;
	}
	app_timer(&t, 0);
	rte_errno = 0;
	if (rte_event_timer_arm_burst(a, &tp, 1) != 0 || rte_errno != EINVAL ||
	    t.state != RTE_EVENT_TIMER_ERROR_TOOEARLY) {
		fprintf(stderr, "too early: errno %d state %d\n", rte_errno,
			t.state);
		goto out;
	}
	ret = 0;
out:
	if (ret != 0)
		fprintf(stderr, "cancel/errors: rte_errno %d, state %d\n",
			rte_errno, t.state);
	app_adapter_free(a);
	return ret;
}

static int
case_tmo_tick_burst(void)
{
	static struct rte_event_timer t[APP_NB_BURST];
	struct rte_event_timer *tp[APP_NB_BURST];
	struct rte_event ev[APP_NB_BURST + 1];
	struct rte_event_timer_adapter *a;
	bool seen[APP_NB_BURST] = { false };
	unsigned int i, n;
	int ret = -1;

	a = app_adapter(0, 0);
	CHECK(a != NULL, "adapter");
	for (i = 0; i < APP_NB_BURST; i++) {
		app_timer(&t[i], 0);
		tp[i] = &t[i];
	}
	if (rte_event_timer_arm_tmo_tick_burst(a, tp, 5, APP_NB_BURST) !=
	    APP_NB_BURST) {
		fprintf(stderr, "arm: %s\n", rte_strerror(rte_errno));
		goto out;
	}
	n = app_dequeue(ev, APP_NB_BURST, APP_WAIT_S * 1000);
	if (n != APP_NB_BURST) {
		fprintf(stderr, "%u of %u expired\n", n, APP_NB_BURST);
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct rte_event_timer *e = ev[i].event_ptr;

		if (e < &t[0] || e > &t[APP_NB_BURST - 1] || seen[e - t]) {
			fprintf(stderr, "foreign or doubled event\n");
			goto out;
		}
		seen[e - t] = true;
	}
	if (app_dequeue(ev, 1, 50) != 0) {
		fprintf(stderr, "an extra event\n");
		goto out;
	}
	ret = 0;
out:
	app_adapter_free(a);
	return ret;
}

static int
case_periodic(void)
{
	struct rte_event_timer_adapter *a;
	struct rte_event_timer t, *tp = &t;
	struct rte_event ev[8];
	unsigned int n = 0;
	int ret = -1;

	a = app_adapter(1, RTE_EVENT_TIMER_ADAPTER_F_PERIODIC);
	CHECK(a != NULL, "adapter");
	app_timer(&t, 10);
	if (rte_event_timer_arm_burst(a, &tp, 1) != 1)
		goto out;
	/* Several periods of 10 ms, within a generous bound. */
	n = app_dequeue(ev, RTE_DIM(ev), APP_WAIT_S * 1000);
	if (n != RTE_DIM(ev) || ev[0].event_ptr != &t ||
	    ev[RTE_DIM(ev) - 1].event_ptr != &t) {
		fprintf(stderr, "%u periods\n", n);
		goto out;
	}
	if (t.state != RTE_EVENT_TIMER_ARMED ||
	    rte_event_timer_cancel_burst(a, &tp, 1) != 1 ||
	    t.state != RTE_EVENT_TIMER_CANCELED) {
		fprintf(stderr, "cancel a periodic timer\n");
		goto out;
	}
	ret = 0;
out:
	app_adapter_free(a);
	app_drain();
	return ret;
}

static int
case_stop_start(void)
{
	struct rte_event_timer_adapter *a;
	struct rte_event_timer t, *tp = &t;
	struct rte_event ev;
	int ret = -1;

	a = app_adapter(0, 0);
	CHECK(a != NULL, "adapter");
	if (rte_event_timer_adapter_start(a) != -EALREADY ||
	    rte_event_timer_adapter_free(a) != -EBUSY) {
		fprintf(stderr, "start twice / free started\n");
		goto out;
	}
	app_timer(&t, 5);
	if (rte_event_timer_arm_burst(a, &tp, 1) != 1 ||
	    rte_event_timer_adapter_stop(a) != 0 ||
	    rte_event_timer_adapter_stop(a) != 0)
		goto out;
	/* The timer stays armed while stopped and comes after the start. */
	if (t.state != RTE_EVENT_TIMER_ARMED) {
		fprintf(stderr, "state %d while stopped\n", t.state);
		goto out;
	}
	if (rte_event_timer_adapter_start(a) != 0 ||
	    app_dequeue(&ev, 1, APP_WAIT_S * 1000) != 1 ||
	    ev.event_ptr != &t) {
		fprintf(stderr, "not delivered after start\n");
		goto out;
	}
	ret = 0;
out:
	app_adapter_free(a);
	return ret;
}

static int
case_control_errors(void)
{
	struct rte_event_timer_adapter_conf conf;
	struct rte_event_timer_adapter_info info;
	struct rte_event_timer_adapter *a;
	uint32_t sid;

	rte_errno = 0;
	CHECK(rte_event_timer_adapter_create(NULL) == NULL &&
	      rte_errno == EINVAL, "NULL conf: %d", rte_errno);
	app_conf(&conf, RTE_EVENT_TIMER_ADAPTER_NUM_MAX, 0);
	rte_errno = 0;
	CHECK(rte_event_timer_adapter_create(&conf) == NULL &&
	      rte_errno == EINVAL, "id out of range: %d", rte_errno);
	rte_errno = 0;
	CHECK(rte_event_timer_adapter_lookup(RTE_EVENT_TIMER_ADAPTER_NUM_MAX)
	      == NULL, "lookup out of range");
	/* DPDK 22.11 leaves rte_errno alone here; swtim says EINVAL. */
	if (expect_swtim)
		CHECK(rte_errno == EINVAL, "lookup out of range: %d",
		      rte_errno);
	CHECK(rte_event_timer_adapter_free(NULL) == -EINVAL, "free NULL");
	CHECK(rte_event_timer_adapter_start(NULL) == -EINVAL, "start NULL");
	CHECK(rte_event_timer_adapter_stop(NULL) == -EINVAL, "stop NULL");
	CHECK(rte_event_timer_adapter_get_info(NULL, &info) == -EINVAL,
	      "info NULL");
	CHECK(rte_event_timer_adapter_service_id_get(NULL, &sid) == -EINVAL,
	      "sid NULL");

	a = app_adapter(2, 0);
	CHECK(a != NULL, "adapter");
	CHECK(rte_event_timer_adapter_lookup(2) == a, "lookup");
	CHECK(rte_event_timer_adapter_get_info(a, &info) == 0 &&
	      info.conf.timer_adapter_id == 2 &&
	      info.min_resolution_ns == APP_TICK_NS &&
	      info.max_tmo_ns == APP_MAX_TMO_NS, "info");
	app_conf(&conf, 2, 0);
	rte_errno = 0;
	CHECK(rte_event_timer_adapter_create(&conf) == NULL &&
	      rte_errno == EEXIST, "id in use: %d", rte_errno);
	app_adapter_free(a);
	rte_errno = 0;
	CHECK(rte_event_timer_adapter_lookup(2) == NULL, "lookup after free");
	/* DPDK 22.11 answers EINVAL here: swtim's contract says ENOENT. */
	if (expect_swtim)
		CHECK(rte_errno == ENOENT, "lookup after free: %d", rte_errno);
	return 0;
}

/* Run create with the variable set; the log it wrote comes back. */
/*
 * DPDK's own definitions, past whatever stands in front of them: the
 * librte_eventdev this program was built against, at its version.
 */
static void *
app_dpdk_sym(const char *name, const char *version)
{
	void *lib = dlopen("librte_eventdev.so." RTE_STR(SWTIM_DPDK_ABI),
			   RTLD_NOW | RTLD_NOLOAD);

	return lib != NULL ? dlvsym(lib, name, version) : NULL;
}

#define APP_DPDK_VERSION "DPDK_" RTE_STR(SWTIM_DPDK_ABI)

/*
 * The handle's pointers lead somewhere that works, whoever serves it:
 * DPDK's own definitions follow handle->ops (and ->data), which for a
 * swtim handle must serve swtim or fail cleanly, never crash. DPDK's
 * free cannot tear down a swtim adapter: it fails and leaves it whole.
 */
static int
case_handle_ops(void)
{
	int (*get_info)(const struct rte_event_timer_adapter *,
			struct rte_event_timer_adapter_info *);
	int (*stats_get)(struct rte_event_timer_adapter *,
			 struct rte_event_timer_adapter_stats *);
	int (*run)(const struct rte_event_timer_adapter *);
	int (*dpdk_free)(struct rte_event_timer_adapter *);
	struct rte_event_timer_adapter_info info;
	struct rte_event_timer_adapter_stats st;
	struct rte_event_timer_adapter *a;
	struct rte_event_timer t, *tp = &t;
	struct rte_event ev;
	int ret;

	a = app_adapter(4, 0);
	CHECK(a != NULL, "adapter");
	CHECK(a->ops != NULL, "a handle without ops");
	*(void **)&get_info = app_dpdk_sym("rte_event_timer_adapter_get_info",
					   APP_DPDK_VERSION);
	*(void **)&stats_get = app_dpdk_sym("rte_event_timer_adapter_stats_get",
					    APP_DPDK_VERSION);
	*(void **)&dpdk_free = app_dpdk_sym("rte_event_timer_adapter_free",
					    APP_DPDK_VERSION);
	CHECK(get_info != NULL && stats_get != NULL && dpdk_free != NULL,
	      "DPDK's definitions not found: %s", dlerror());
	CHECK(get_info(a, &info) == 0 && info.conf.timer_adapter_id == 4 &&
	      info.conf.timer_tick_ns == APP_TICK_NS, "DPDK's get_info");
	CHECK(stats_get(a, &st) == 0, "DPDK's stats_get");
	*(void **)&run = app_dpdk_sym("rte_event_timer_adapter_stop",
				      APP_DPDK_VERSION);
	CHECK(run != NULL && run(a) == 0, "DPDK's stop");
	/* DPDK's free gets as far as the implementation while stopped. */
	if (expect_swtim) {
		ret = dpdk_free(a);
		CHECK(ret == -ENOTSUP, "DPDK's free of a swtim adapter: %d",
		      ret);
		CHECK(a->allocated && rte_event_timer_adapter_lookup(4) == a,
		      "adapter 4 damaged by DPDK's free");
	}
	*(void **)&run = app_dpdk_sym("rte_event_timer_adapter_start",
				      APP_DPDK_VERSION);
	CHECK(run != NULL && run(a) == 0, "DPDK's start");
	/* Still working, whoever was asked. */
	app_timer(&t, 100);
	CHECK(rte_event_timer_arm_burst(a, &tp, 1) == 1, "arm");
#if RTE_VERSION >= RTE_VERSION_NUM(23, 3, 0, 0)
	{
		int (*remaining)(const struct rte_event_timer_adapter *,
				 const struct rte_event_timer *, uint64_t *);
		uint64_t ticks = 0;

		*(void **)&remaining = app_dpdk_sym(
			"rte_event_timer_remaining_ticks_get", "EXPERIMENTAL");
		CHECK(remaining != NULL, "DPDK's remaining_ticks_get");
		CHECK(remaining(a, &t, &ticks) == 0 && ticks > 0 &&
		      ticks <= 100, "DPDK's remaining_ticks_get: %" PRIu64,
		      ticks);
		ticks = 0;
		CHECK(rte_event_timer_remaining_ticks_get(a, &t, &ticks) == 0 &&
		      ticks > 0 && ticks <= 100,
		      "remaining_ticks_get: %" PRIu64, ticks);
	}
#endif
	CHECK(app_dequeue(&ev, 1, APP_WAIT_S * 1000) == 1 &&
	      ev.event_ptr == &t, "no expiry");
	app_adapter_free(a);
	return 0;
}

static struct rte_event_timer_adapter *
app_create_with_env(const char *var, const char *value, char *log,
		    size_t log_len)
{
	struct rte_event_timer_adapter_conf conf;
	struct rte_event_timer_adapter *a;
	FILE *f = fmemopen(log, log_len, "w");
	int err;

	memset(log, 0, log_len);
	if (f == NULL)
		return NULL;
	rte_openlog_stream(f);
	setenv(var, value, 1);
	app_conf(&conf, 4, 0);
	a = rte_event_timer_adapter_create(&conf);
	err = rte_errno;
	unsetenv(var);
	rte_openlog_stream(NULL);
	fclose(f);
	log[log_len - 1] = '\0';
	rte_errno = err;
	return a;
}

static int
case_environment(void)
{
	struct rte_event_timer_adapter *a;
	char log[4096], copy[64];
	uint32_t sid = 0;
	const char *name;

	if (!expect_swtim) {
		printf("environment: driver variables are swtim's, not"
		       " checked while DPDK serves\n");
		return 0;
	}
	a = app_create_with_env("SWTIM_DRIVER", "bogus", log, sizeof(log));
	CHECK(a == NULL && rte_errno == EINVAL, "SWTIM_DRIVER=bogus");
	CHECK(strstr(log, "SWTIM_DRIVER") != NULL &&
	      strstr(log, "bogus") != NULL, "log: %s", log);

	a = app_create_with_env("SWTIM_DRIVER_ARGS", "no_such_key=1", log,
				sizeof(log));
	CHECK(a == NULL && rte_errno == EINVAL, "bad SWTIM_DRIVER_ARGS");
	CHECK(strstr(log, "SWTIM_DRIVER_ARGS") != NULL &&
	      strstr(log, "no_such_key") != NULL, "log: %s", log);

	a = app_create_with_env("SWTIM_DPDK_ADAPTER", "some", log,
				sizeof(log));
	CHECK(a == NULL && rte_errno == EINVAL, "SWTIM_DPDK_ADAPTER=some");
	CHECK(strstr(log, "SWTIM_DPDK_ADAPTER") != NULL &&
	      strstr(log, "some") != NULL, "log: %s", log);
	CHECK(rte_event_timer_adapter_lookup(4) == NULL,
	      "a refused create leaves nothing");

	a = app_create_with_env("SWTIM_DRIVER", "skiplist", log, sizeof(log));
	CHECK(a != NULL, "SWTIM_DRIVER=skiplist: %s", rte_strerror(rte_errno));
	name = rte_event_timer_adapter_service_id_get(a, &sid) == 0 ?
		rte_service_get_name(sid) : NULL;
	snprintf(copy, sizeof(copy), "%s", name != NULL ? name : "(none)");
	rte_event_timer_adapter_free(a);
	/* The skiplist driver's service, not the wheel's. */
	CHECK(strncmp(copy, "swtim_skl_", 10) == 0, "service %s", copy);

	a = app_create_with_env("SWTIM_DRIVER_ARGS", "max_sleep_us=100", log,
				sizeof(log));
	CHECK(a != NULL, "SWTIM_DRIVER_ARGS=max_sleep_us=100");
	rte_event_timer_adapter_free(a);

	/* Every device handed to DPDK: its service, not swtim's. */
	a = app_create_with_env("SWTIM_DPDK_ADAPTER", "all", log, sizeof(log));
	CHECK(a != NULL, "SWTIM_DPDK_ADAPTER=all");
	name = rte_event_timer_adapter_service_id_get(a, &sid) == 0 ?
		rte_service_get_name(sid) : NULL;
	snprintf(copy, sizeof(copy), "%s", name != NULL ? name : "(none)");
	CHECK(rte_event_timer_adapter_lookup(4) == a, "lookup of DPDK's");
	CHECK(rte_event_timer_adapter_free(a) == 0, "free DPDK's");
	CHECK(strncmp(copy, DPDK_SERVICE_PREFIX,
		      strlen(DPDK_SERVICE_PREFIX)) == 0, "service %s", copy);
	return 0;
}

static int
app_setup(void)
{
	struct rte_event_dev_config dc = { 0 };
	struct rte_event_queue_conf qc;
	struct rte_event_dev_info info;
	uint8_t q = APP_QUEUE;
	uint32_t slcores[RTE_MAX_LCORE], sid;
	int ret;

	if (rte_service_lcore_list(slcores, RTE_DIM(slcores)) < 1) {
		fprintf(stderr, "no service lcore\n");
		return -1;
	}
	service_lcore = slcores[0];
	if (rte_event_dev_info_get(APP_DEV, &info) != 0)
		return -1;
	dc.nb_event_queues = 1;
	dc.nb_event_ports = 1;
	dc.nb_events_limit = info.max_num_events;
	dc.nb_event_queue_flows = info.max_event_queue_flows;
	dc.nb_event_port_dequeue_depth = info.max_event_port_dequeue_depth;
	dc.nb_event_port_enqueue_depth = info.max_event_port_enqueue_depth;
	dc.dequeue_timeout_ns = info.min_dequeue_timeout_ns;
	if (rte_event_dev_configure(APP_DEV, &dc) != 0 ||
	    rte_event_queue_default_conf_get(APP_DEV, APP_QUEUE, &qc) != 0) {
		fprintf(stderr, "cannot configure event device %u\n", APP_DEV);
		return -1;
	}
	qc.schedule_type = RTE_SCHED_TYPE_ATOMIC;
	if (rte_event_queue_setup(APP_DEV, APP_QUEUE, &qc) != 0 ||
	    rte_event_port_setup(APP_DEV, APP_PORT, NULL) != 0 ||
	    rte_event_port_link(APP_DEV, APP_PORT, &q, NULL, 1) != 1) {
		fprintf(stderr, "cannot set up queue or port\n");
		return -1;
	}
	/* event_sw schedules from a service of its own: the same lcore. */
	if (rte_event_dev_service_id_get(APP_DEV, &sid) == 0 &&
	    (rte_service_map_lcore_set(sid, service_lcore, 1) != 0 ||
	     rte_service_runstate_set(sid, 1) != 0)) {
		fprintf(stderr, "cannot map the event device's service\n");
		return -1;
	}
	if (rte_event_dev_start(APP_DEV) != 0) {
		fprintf(stderr, "cannot set up queue, port or start\n");
		return -1;
	}
	ret = rte_service_lcore_start(service_lcore);
	if (ret != 0 && ret != -EALREADY) {
		fprintf(stderr, "cannot start service lcore %u: %d\n",
			service_lcore, ret);
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(void);
	} cases[] = {
		{ "served_by", case_served_by },
		{ "arm_expire", case_arm_expire },
		{ "cancel_and_errors", case_cancel_and_errors },
		{ "tmo_tick_burst", case_tmo_tick_burst },
		{ "periodic", case_periodic },
		{ "stop_start", case_stop_start },
		{ "control_errors", case_control_errors },
		{ "handle_ops", case_handle_ops },
		{ "environment", case_environment },
	};
	char prefix[64], lcores[64], vdev[64];
	char *eal_argv[16];
	const char *expect = getenv("DROPIN_EXPECT");
	int cpus[2], eal_argc = 0;
	unsigned int n, i, passed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 ||
			 strcmp(argv[1], "-h") == 0)) {
		printf("usage: DROPIN_EXPECT=swtim|dpdk %s\n"
		       "Runs these cases through DPDK's event timer adapter"
		       " API, served by swtim (libswtim_dropin preloaded or"
		       " linked) or by DPDK, as DROPIN_EXPECT says:\n",
		       argv[0]);
		for (i = 0; i < RTE_DIM(cases); i++)
			printf("  %s\n", cases[i].name);
		return 0;
	}
	if (expect == NULL || (strcmp(expect, "swtim") != 0 &&
			       strcmp(expect, "dpdk") != 0)) {
		fprintf(stderr, "set DROPIN_EXPECT=swtim or dpdk (--help)\n");
		return 1;
	}
	expect_swtim = strcmp(expect, "swtim") == 0;

	/* Main and service lcores on CPUs of their own, or sharing one. */
	n = swt_cpus_pick(cpus, RTE_DIM(cpus));
	snprintf(lcores, sizeof(lcores), "0@%d,1@%d", cpus[0],
		 cpus[n - 1]);
	snprintf(prefix, sizeof(prefix), "--file-prefix=dropin_%d",
		 (int)getpid());
	eal_argv[eal_argc++] = argv[0];
	eal_argv[eal_argc++] = (char *)(uintptr_t)"--no-huge";
	eal_argv[eal_argc++] = (char *)(uintptr_t)"-m";
	eal_argv[eal_argc++] = (char *)(uintptr_t)"512";
	eal_argv[eal_argc++] = (char *)(uintptr_t)"--no-shconf";
	eal_argv[eal_argc++] = (char *)(uintptr_t)"--no-pci";
	eal_argv[eal_argc++] = prefix;
	eal_argv[eal_argc++] = (char *)(uintptr_t)"--log-level=lib.eal:error";
	snprintf(vdev, sizeof(vdev), "--vdev=%s",
		 getenv("DROPIN_VDEV") != NULL ? getenv("DROPIN_VDEV") :
		 "event_dsw0");
	eal_argv[eal_argc++] = vdev;
	eal_argv[eal_argc++] = (char *)(uintptr_t)"--lcores";
	eal_argv[eal_argc++] = lcores;
	eal_argv[eal_argc++] = (char *)(uintptr_t)"-s";
	eal_argv[eal_argc++] = (char *)(uintptr_t)"0x2";
	eal_argv[eal_argc] = NULL;
	RTE_SET_USED(argc);
	if (rte_eal_init(eal_argc, eal_argv) < 0) {
		fprintf(stderr, "rte_eal_init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	if (app_setup() != 0) {
		fprintf(stderr, "event device set-up failed\n");
		return 1;
	}
	for (i = 0; i < RTE_DIM(cases); i++) {
		int ret = cases[i].fn();

		app_drain();
		printf("%s: %s\n", cases[i].name, ret == 0 ? "ok" : "FAILED");
		if (ret == 0)
			passed++;
		else
			failures++;
	}
	printf("%u passed, %d failed\n", passed, failures);
	rte_service_lcore_stop(service_lcore);
	rte_event_dev_stop(APP_DEV);
	rte_event_dev_close(APP_DEV);
	rte_eal_cleanup();
	return failures == 0 ? 0 : 1;
}
