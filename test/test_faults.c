/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Stress: the world around the adapter failing.
 *
 * - The event device refuses create's port: reconfiguring it, setting
 *   the port up or restarting the device fails (-EIO, from this program's
 *   definitions of those calls, which the library's reach because the
 *   program exports them). Create answers NULL with rte_errno EIO and
 *   leaves no adapter, service or memory behind; the device runs again
 *   and an adapter already on it keeps delivering; the next create works.
 * - The event device is stopped under running timers, the way DPDK says
 *   it must be (adapter stopped first; the device drains what it holds
 *   through its stop-flush callback), then started again; and by a create
 *   adding a port to it while another adapter runs: every timer is
 *   delivered or flushed exactly once, none early, those after the
 *   restart late by at most the stop plus a generous bound.
 * - A create's restart of the device fails under a running adapter: the
 *   adapter's service never calls the stopped device's fast path
 *   (maintenance, enqueue), not even at the moment DPDK's
 *   rte_event_dev_start() has marked the device started but not yet
 *   given it its fast path; every timer is delivered exactly once, none
 *   early, once the application has started the device again.
 * - A service lcore stalls for STALL_MS at random points (a signal whose
 *   handler sleeps: it may hold a lane's claim or lock, or a port's lock
 *   at that moment), again and again while timers expire; alone, or with
 *   a second service lcore mapped: nothing lost or doubled, nothing
 *   early, lateness within the stall plus the same bound.
 */

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include <rte_malloc.h>
#include <rte_service.h>

#include "swtim_test.h"

#define TICK_NS		(1000 * 1000)			/* 1 ms */
#define MAX_TMO_NS	(UINT64_C(10) * 1000 * 1000 * 1000)	/* 10 s */
#define ID		5
#define BYSTANDER_ID	6
#define APP_PORT	1
/* Generous: two CPUs shared with other tests, and the stalls' backlog. */
#define LATE_BOUND_MS	10000
#define DELIVER_MS	5000
#define STALL_MS	100
#define NB_STALLS	10
#define NB_TIMERS	20000
/* Timeouts up to this many ticks: the stalls and stops fall among them. */
#define SPREAD_TICKS	3000
#define TAG		UINT64_C(0xfa17000000000000)
#define TAG_MASK	UINT64_C(0xffff000000000000)

/* ---- the event device's calls, failing on demand ---- */

enum dev_call {
	DEV_CONFIGURE,
	DEV_PORT_SETUP,
	DEV_START,
	DEV_CALLS,
};

static const char *const dev_call_names[DEV_CALLS] = {
	"rte_event_dev_configure", "rte_event_port_setup",
	"rte_event_dev_start",
};

/* Calls of each to fail from now on (the next ones, whoever calls). */
static unsigned int dev_fail[DEV_CALLS];

static void *
dev_real(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	RTE_VERIFY(f != NULL);
	return f;
}

static bool
dev_failing(enum dev_call c)
{
	if (dev_fail[c] == 0)
		return false;
	dev_fail[c]--;
	return true;
}

int
rte_event_dev_configure(uint8_t dev_id,
			const struct rte_event_dev_config *dev_conf)
{
	static int (*real)(uint8_t, const struct rte_event_dev_config *);

	if (real == NULL)
		real = dev_real(dev_call_names[DEV_CONFIGURE]);
	return dev_failing(DEV_CONFIGURE) ? -EIO : real(dev_id, dev_conf);
}

int
rte_event_port_setup(uint8_t dev_id, uint8_t port_id,
		     const struct rte_event_port_conf *port_conf)
{
	static int (*real)(uint8_t, uint8_t,
			   const struct rte_event_port_conf *);

	if (real == NULL)
		real = dev_real(dev_call_names[DEV_PORT_SETUP]);
	return dev_failing(DEV_PORT_SETUP) ? -EIO :
		real(dev_id, port_id, port_conf);
}

int
rte_event_dev_start(uint8_t dev_id)
{
	static int (*real)(uint8_t);

	if (real == NULL)
		real = dev_real(dev_call_names[DEV_START]);
	return dev_failing(DEV_START) ? -EIO : real(dev_id);
}

/*
 * While set, the device of the tests answers "started" whatever it is:
 * what anyone reading the flag sees inside DPDK's rte_event_dev_start(),
 * which marks the device started before it puts the device's fast path
 * in place (rte_event_fp_ops).
 */
static volatile bool dev_says_started;

int
rte_event_dev_attr_get(uint8_t dev_id, uint32_t attr_id,
		       uint32_t *attr_value)
{
	static int (*real)(uint8_t, uint32_t, uint32_t *);

	if (real == NULL)
		real = dev_real("rte_event_dev_attr_get");
	if (dev_says_started && dev_id == swt_dev.dev_id &&
	    attr_id == RTE_EVENT_DEV_ATTR_STARTED && attr_value != NULL) {
		*attr_value = 1;
		return 0;
	}
	return real(dev_id, attr_id, attr_value);
}

/* ---- helpers ---- */

static uint32_t
dev_started(void)
{
	uint32_t v = 0;

	rte_event_dev_attr_get(swt_dev.dev_id, RTE_EVENT_DEV_ATTR_STARTED, &v);
	return v;
}

/* One timer armed on a, its event dequeued, within DELIVER_MS. */
static int
deliver_one(struct swtim_adapter *a, uint64_t u64)
{
	struct rte_event_timer *t = swt_timers(1);
	struct rte_event ev;

	SWT_ASSERT(t != NULL, "no memory");
	swt_timer_init(t, SWT_Q_ATOMIC, u64, 2);
	SWT_ASSERT_BURST(swtim_arm(a, t), 1, 0);
	SWT_ASSERT_EQ(swt_collect(&swt_dev, &ev, 1, DELIVER_MS), 1);
	SWT_ASSERT_EQ(ev.u64, u64);
	return SWT_PASS;
}

/* ---- create refused by the device ---- */

static int
create_refused(enum dev_call call, struct swtim_adapter *bystander)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, 100, 0);
	uint32_t services = rte_service_get_count();
	uint32_t ports = swt_evdev_port_count(swt_dev.dev_id);
	uint64_t heap = swt_heap_bytes();

	printf("    %s fails\n", dev_call_names[call]);
	dev_fail[call] = 1;
	SWT_ASSERT_NULL_ERRNO(swt_adapter_create(&c, -1), EIO);
	SWT_ASSERT(dev_fail[call] == 0, "%s never called",
		   dev_call_names[call]);
	SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(ID), ENOENT);
	SWT_ASSERT_EQ(rte_service_get_count(), services);
	/* At most the port whose set-up failed, which the next create
	 * takes (swtim_adapter_create()). */
	SWT_ASSERT(swt_evdev_port_count(swt_dev.dev_id) <= ports + 1,
		   "%u ports, %u before", swt_evdev_port_count(swt_dev.dev_id),
		   ports);
	if (call == DEV_START) {
		/* The port is set up, its memory the device's; the device
		 * stays stopped, for the application to start. */
		SWT_ASSERT_EQ(dev_started(), 0);
		SWT_ASSERT_OK(rte_event_dev_start(swt_dev.dev_id));
	} else {
		SWT_ASSERT(swt_heap_bytes() == heap, "heap %+" PRId64 " bytes",
			   (int64_t)(swt_heap_bytes() - heap));
		SWT_ASSERT_EQ(dev_started(), 1);
	}
	/* The device works: an adapter on it still delivers. */
	return deliver_one(bystander, TAG | call);
}

static int
port_setup_refused(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(BYSTANDER_ID, TICK_NS, MAX_TMO_NS, 100, 0);
	struct swtim_adapter *bystander = swt_adapter_create(&c, APP_PORT);
	struct swtim_adapter *a;
	uint32_t ports;

	SWT_ASSERT(bystander != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_adapter_start(bystander));
	SWT_ASSERT_OK(create_refused(DEV_CONFIGURE, bystander));
	SWT_ASSERT_OK(create_refused(DEV_PORT_SETUP, bystander));
	/* Again: the port left behind is tried, no other added. */
	ports = swt_evdev_port_count(swt_dev.dev_id);
	SWT_ASSERT_OK(create_refused(DEV_PORT_SETUP, bystander));
	SWT_ASSERT_EQ(swt_evdev_port_count(swt_dev.dev_id), ports);
	/* Set up this time, and the device not restarted. */
	SWT_ASSERT_OK(create_refused(DEV_START, bystander));
	SWT_ASSERT_EQ(swt_evdev_port_count(swt_dev.dev_id), ports);
	/* And the next create takes it. */
	c.timer_adapter_id = ID;
	a = swt_adapter_create(&c, -1);
	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_EQ(swt_evdev_port_count(swt_dev.dev_id), ports);
	SWT_ASSERT_OK(swt_adapter_start(a));
	return deliver_one(a, TAG | DEV_CALLS);
}

/* ---- timers checked against what arrives ---- */

struct expect {
	struct rte_event_timer *t;
	uint64_t *armed;	/* TSC before the arm call */
	uint32_t *seen;		/* dequeued or flushed */
	unsigned int n, total;
	uint64_t max_late;
};

static struct expect x;

static int
expect_arm(struct swtim_adapter *a, unsigned int n, uint64_t *rnd)
{
	unsigned int i;

	memset(&x, 0, sizeof(x));
	x.n = n;
	x.t = swt_timers(n);
	x.armed = swt_calloc(n, sizeof(*x.armed));
	x.seen = swt_calloc(n, sizeof(*x.seen));
	SWT_ASSERT(x.t != NULL && x.armed != NULL && x.seen != NULL,
		   "no memory");
	for (i = 0; i < n; i++) {
		swt_timer_init(&x.t[i], i & 1 ? SWT_Q_ATOMIC : SWT_Q_PARALLEL,
			       TAG | i, swt_rand_range(rnd, 1, SPREAD_TICKS));
		x.armed[i] = swt_now();
		SWT_ASSERT_BURST(swtim_arm(a, &x.t[i]), 1, 0);
	}
	return SWT_PASS;
}

/* One event of timer u64 arrived at now (flushed: not dequeued). */
static int
expect_one(uint64_t u64, uint64_t now, bool flushed, uint64_t bound)
{
	uint64_t due, i = u64 & ~TAG_MASK;

	SWT_ASSERT((u64 & TAG_MASK) == TAG && i < x.n, "u64 %#" PRIx64, u64);
	SWT_ASSERT(x.seen[i] == 0, "timer %" PRIu64 " delivered twice", i);
	x.seen[i]++;
	x.total++;
	if (flushed)
		return SWT_PASS;
	due = x.armed[i] + swt_ns_to_cycles(x.t[i].timeout_ticks * TICK_NS);
	SWT_ASSERT(now >= due, "timer %" PRIu64 " early by %.3f ms", i,
		   swt_cycles_to_ms(due - now));
	x.max_late = RTE_MAX(x.max_late, now - due);
	SWT_ASSERT(now - due <= bound, "timer %" PRIu64 " late by %.1f ms", i,
		   swt_cycles_to_ms(now - due));
	return SWT_PASS;
}

/* Dequeue and check for ms, or until every timer came. */
static int
expect_poll(unsigned int ms, uint64_t bound)
{
	struct rte_event evs[32];
	uint64_t end = swt_now() + swt_ms_to_cycles(ms), now;
	uint16_t k, j;

	while (x.total < x.n && swt_now() < end) {
		k = swt_dequeue(&swt_dev, evs, RTE_DIM(evs));
		now = swt_now();
		if (k == 0)
			swt_idle();
		for (j = 0; j < k; j++)
			SWT_ASSERT_OK(expect_one(evs[j].u64, now, false,
						 bound));
	}
	return SWT_PASS;
}

static int
expect_all(uint64_t bound)
{
	SWT_ASSERT_OK(expect_poll(SPREAD_TICKS + DELIVER_MS, bound));
	SWT_ASSERT_EQ(x.total, x.n);
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 50), 0);
	printf("    %u timers, each once, worst lateness %.1f ms\n", x.n,
	       swt_cycles_to_ms(x.max_late));
	return SWT_PASS;
}

/* ---- the device stopped under running timers ---- */

static unsigned int flushed;
static int flush_bad;

static void
flush_cb(uint8_t dev_id, struct rte_event ev, void *arg)
{
	RTE_SET_USED(dev_id);
	RTE_SET_USED(arg);
	flushed++;
	if (expect_one(ev.u64, 0, true, 0) != SWT_PASS)
		flush_bad++;
}

static int
device_stopped(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, NB_TIMERS, 0);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);
	uint64_t rnd = swt_seed(), bound, stop_ms;
	unsigned int round;

	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_adapter_start(a));
	SWT_ASSERT_OK(expect_arm(a, NB_TIMERS, &rnd));
	flushed = 0;
	flush_bad = 0;
	SWT_ASSERT_OK(rte_event_dev_stop_flush_callback_register(
		swt_dev.dev_id, flush_cb, NULL));
	for (round = 0; round < 3; round++) {
		/* Workers look away a little: events wait in the device. */
		swt_sleep_ms(swt_rand_range(&rnd, 20, 200));
		stop_ms = STALL_MS;
		SWT_ASSERT_OK(swtim_adapter_stop(a));
		rte_event_dev_stop(swt_dev.dev_id);
		swt_sleep_ms(stop_ms);
		SWT_ASSERT_OK(rte_event_dev_start(swt_dev.dev_id));
		SWT_ASSERT_OK(swtim_adapter_start(a));
		bound = swt_ms_to_cycles(3 * (stop_ms + 200) + LATE_BOUND_MS);
		SWT_ASSERT_OK(expect_poll(50, bound));
	}
	rte_event_dev_stop_flush_callback_register(swt_dev.dev_id, NULL,
						   NULL);
	SWT_ASSERT_EQ(flush_bad, 0);
	printf("    %u flushed by the device's stops\n", flushed);
	return expect_all(swt_ms_to_cycles(3 * (STALL_MS + 200) +
					   LATE_BOUND_MS));
}

/*
 * A create that adds a port stops the device under every adapter on it
 * (as DPDK's default port callback does): the library stops those
 * adapters first, as DPDK wants, and starts them again after. Every
 * timer of the adapter already running is delivered or flushed once,
 * none early, and nothing calls into the stopped device (DPDK's dummy
 * functions log each call).
 */
static int
create_under_running_adapter(void)
{
	static const char needle[] = "for unconfigured event device";
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, NB_TIMERS, 0);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);
	uint64_t rnd = swt_seed(), bound;
	unsigned int round, logged;

	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_adapter_start(a));
	SWT_ASSERT_OK(expect_arm(a, NB_TIMERS, &rnd));
	flushed = 0;
	flush_bad = 0;
	SWT_ASSERT_OK(rte_event_dev_stop_flush_callback_register(
		swt_dev.dev_id, flush_cb, NULL));
	SWT_ASSERT_OK(swt_log_capture());
	bound = swt_ms_to_cycles(3 * 200 + LATE_BOUND_MS);
	for (round = 0; round < 3; round++) {
		swt_sleep_ms(swt_rand_range(&rnd, 20, 200));
		/* Kept: each create adds a port, stopping the device. */
		c.timer_adapter_id = BYSTANDER_ID + round;
		SWT_ASSERT(swt_adapter_create(&c, -1) != NULL, "%s",
			   rte_strerror(rte_errno));
		SWT_ASSERT_OK(expect_poll(50, bound));
	}
	logged = swt_log_captured(needle);
	rte_event_dev_stop_flush_callback_register(swt_dev.dev_id, NULL,
						   NULL);
	SWT_ASSERT_EQ(flush_bad, 0);
	printf("    %u flushed by the device's stops, %u calls into the "
	       "stopped device\n", flushed, logged);
	SWT_ASSERT_EQ(logged, 0);
	return expect_all(bound);
}

/* ---- a restart of the device that fails ---- */

/*
 * What each function DPDK gives a stopped device logs when called (every
 * release from 22.11 to 25.11): calls into a stopped device's fast path,
 * counted from the log.
 */
#define STOPPED_DEVICE_CALLED "requested for unconfigured event device"

/* Loops the service lcore has begun. */
static uint64_t
service_loops(void)
{
	uint64_t loops = 0;

	rte_service_lcore_attr_get(SWT_SERVICE_LCORE,
				   RTE_SERVICE_LCORE_ATTR_LOOPS, &loops);
	return loops;
}

/*
 * A create adds a port while an adapter runs on the device, and the
 * device's restart fails: the device stays stopped, for the application
 * to start. Meanwhile timers fall due. The adapter's service must not
 * maintain the device's ports or enqueue to it, also not at the moment
 * DPDK's rte_event_dev_start() has set the device's started flag and not
 * yet its fast path: there event_dsw's maintain was once called with the
 * stopped device's NULL port and crashed. That moment lasts a few
 * instructions; the test holds it open (dev_says_started) for at least
 * one whole run of the service, and counts every call into the stopped
 * device's fast path. Then the application starts the device: every
 * timer comes exactly once, none early.
 */
static int
restart_refused(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, NB_TIMERS, 0);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);
	uint64_t rnd = swt_seed(), bound, loops, start;
	unsigned int stopped_calls;

	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_adapter_start(a));
	SWT_ASSERT_OK(expect_arm(a, NB_TIMERS, &rnd));
	/* A while: the device takes some expiries before it stops. */
	swt_sleep_ms(swt_rand_range(&rnd, 20, 200));

	/*
	 * Creates take the ports earlier cases freed without touching the
	 * device (kept: the harness frees them); the first that has to add
	 * one restarts the device, and that fails.
	 */
	dev_fail[DEV_START] = 1;
	for (c.timer_adapter_id = BYSTANDER_ID;
	     swt_adapter_create(&c, -1) != NULL; c.timer_adapter_id++)
		SWT_ASSERT(c.timer_adapter_id < SWTIM_ADAPTER_NUM_MAX - 1,
			   "every create took a free port");
	SWT_ASSERT(rte_errno == EIO, "create: rte_errno %d", rte_errno);
	SWT_ASSERT(dev_fail[DEV_START] == 0, "the device was not restarted");
	SWT_ASSERT_EQ(dev_started(), 0);

	/* The stopped device's fast path, its calls counted in the log. */
	SWT_ASSERT_OK(swt_log_capture());
	dev_says_started = true;
	/*
	 * Two loops of the service lcore begun since: one whole run of the
	 * service saw the device "started". And long enough for timers to
	 * fall due while the device is stopped.
	 */
	loops = service_loops();
	start = swt_now();
	while (service_loops() < loops + 2 ||
	       swt_now() - start < swt_ms_to_cycles(STALL_MS))
		SWT_ASSERT(swt_now() - start < swt_ms_to_cycles(DELIVER_MS),
			   "the service lcore did not loop");
	dev_says_started = false;
	stopped_calls = swt_log_captured(STOPPED_DEVICE_CALLED);
	printf("    %u calls into the stopped device's fast path over %"
	       PRIu64 " loops of the service lcore\n", stopped_calls,
	       service_loops() - loops);
	SWT_ASSERT_EQ(stopped_calls, 0);

	/* The application starts the device: every timer comes. */
	SWT_ASSERT_OK(rte_event_dev_start(swt_dev.dev_id));
	bound = swt_ms_to_cycles(3 * 200 + DELIVER_MS + LATE_BOUND_MS);
	return expect_all(bound);
}

/* ---- a service lcore stalled ---- */

static volatile sig_atomic_t stalls;

static void
stall_handler(int sig)
{
	struct timespec ts = { 0, STALL_MS * 1000 * 1000 };

	RTE_SET_USED(sig);
	/* Interrupted by nothing we send; nanosleep is async-signal-safe. */
	nanosleep(&ts, NULL);
	stalls++;
}

static pthread_t lcore_threads[RTE_MAX_LCORE];

static int
record_thread(void *arg)
{
	RTE_SET_USED(arg);
	lcore_threads[rte_lcore_id()] = pthread_self();
	return 0;
}

/*
 * Timers expire while the first of nb_svc service lcores (the adapter's
 * only ones) stalls STALL_MS at random moments, over and over.
 */
static int
service_stalled(unsigned int nb_svc)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, NB_TIMERS, 0);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);
	unsigned int lcore = SWT_FIRST_PRODUCER_LCORE, i, sent = 0;
	struct sigaction sa, old;
	uint64_t rnd = swt_seed(), next, bound;

	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	for (i = 0; i < nb_svc; i++) {
		SWT_ASSERT_OK(swt_launch(record_thread, NULL, lcore + i));
		SWT_ASSERT_EQ(swt_join(), 0);
		SWT_ASSERT_OK(swt_service_map(a, lcore + i));
	}
	SWT_ASSERT_OK(swtim_adapter_start(a));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = stall_handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	SWT_ASSERT_OK(sigaction(SIGUSR1, &sa, &old));
	stalls = 0;
	SWT_ASSERT_OK(expect_arm(a, NB_TIMERS, &rnd));
	/* A stall every 100 to 300 ms while the timers fall due; back to
	 * back at worst, so a timer may wait out all of them. */
	bound = swt_ms_to_cycles(NB_STALLS * STALL_MS + LATE_BOUND_MS);
	next = swt_now();
	while (x.total < x.n && sent < NB_STALLS) {
		if (swt_now() >= next) {
			SWT_ASSERT_OK(pthread_kill(lcore_threads[lcore],
						   SIGUSR1));
			sent++;
			next = swt_now() + swt_ms_to_cycles(
				STALL_MS + swt_rand_range(&rnd, 0, 200));
		}
		SWT_ASSERT_OK(expect_poll(5, bound));
	}
	SWT_ASSERT_OK(expect_all(bound));
	sigaction(SIGUSR1, &old, NULL);
	printf("    %u stalls of %u ms sent, %d done\n", sent, STALL_MS,
	       (int)stalls);
	SWT_ASSERT(stalls > 0, "the service lcore never stalled");
	/* Alone, a stall holds every expiry back: some timer felt it. */
	if (nb_svc == 1)
		SWT_ASSERT(x.max_late >= swt_ms_to_cycles(STALL_MS / 2),
			   "worst lateness %.1f ms: no stall felt",
			   swt_cycles_to_ms(x.max_late));
	return SWT_PASS;
}

static int
service_stalled_alone(void)
{
	return service_stalled(1);
}

static int
service_stalled_with_another(void)
{
	return service_stalled(2);
}

static const struct swt_case cases[] = {
	SWT_CASE(port_setup_refused),
	SWT_CASE(device_stopped),
	SWT_CASE(create_under_running_adapter),
	SWT_CASE(restart_refused),
	SWT_CASE(service_stalled_alone),
	SWT_CASE(service_stalled_with_another),
};

int
main(int argc, char **argv)
{
	return swt_main(argc, argv, cases, RTE_DIM(cases));
}
