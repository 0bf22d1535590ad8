/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Stress: back-pressure. The event devices here take few events in
 * flight (nb_events_limit 512, adapter port new_event_threshold 256) and
 * the worker stops dequeuing for a while, so the device refuses the
 * adapter's enqueues. Expiries must be kept and retried, never dropped,
 * one-shot and periodic alike: every expiry arrives exactly once,
 * evtim_retry_count > 0, and in the end ev_enq_count == evtim_exp_count
 * == what the worker received.
 *
 * Run on event_dsw (credits per port) and event_sw (a scheduling
 * service). Thresholds stay at 128 or more: event_sw can stall for good
 * with tiny ones, which would test event_sw rather than the adapter.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_log.h>

#include "swtim_evbuf.h"
#include "swtim_test.h"

#define TICK_NS		(1000 * 1000)		/* 1 ms */
#define MAX_TMO_NS	(1000 * 1000 * 1000)	/* 1 s */
#define EVENTS_LIMIT	512
#define PORT_THRESHOLD	256
/* How long the worker stops dequeuing. */
#define PAUSE_MS	300
/* Generous: the backlog drains through a device that takes 512 at once. */
#define DELIVER_MS	5000
#define ID		8
/*
 * backlog_bounded: timers due at once, and how much the heap may grow for
 * them; buffering every event would take 16 bytes each (1 MiB).
 */
#define BACKLOG_TIMERS	60000
#define BACKLOG_HEAP_MAX	(512 * 1024)
#define TAG		UINT64_C(0xb9e5000000000000)
#define TAG_MASK	UINT64_C(0xffff000000000000)

static struct swt_evdev sw_dev;

/* port < 0: the library adds a port (with the device's defaults). */
static struct swtim_adapter *
mk_adapter_port(const struct swt_evdev *dev, uint64_t nb_timers,
		uint64_t flags, int port)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, nb_timers, flags);
	struct swtim_adapter *a;

	c.event_dev_id = dev->dev_id;
	a = swt_adapter_create(&c, port);
	if (a != NULL && swt_adapter_start(a) != 0)
		return NULL;
	return a;
}

static struct swtim_adapter *
mk_adapter(const struct swt_evdev *dev, uint64_t nb_timers, uint64_t flags)
{
	return mk_adapter_port(dev, nb_timers, flags, dev->app_port);
}

/*
 * Dequeue until want events came (or timeout), counting per timer; an
 * event seen twice or unknown fails.
 */
static int
receive(const struct swt_evdev *dev, const struct rte_event_timer *t,
	uint32_t *seen, unsigned int n, bool once, unsigned int want,
	unsigned int timeout_ms, unsigned int *total)
{
	struct rte_event evs[32];
	uint64_t end = swt_now() + swt_ms_to_cycles(timeout_ms);
	unsigned int i;
	uint16_t k, j;

	while (*total < want && swt_now() < end) {
		k = swt_dequeue(dev, evs, RTE_DIM(evs));
		if (k == 0)
			swt_idle();
		for (j = 0; j < k; j++) {
			SWT_ASSERT((evs[j].u64 & TAG_MASK) == TAG, "u64 %#"
				   PRIx64, evs[j].u64);
			i = evs[j].u64 & ~TAG_MASK;
			SWT_ASSERT(i < n, "u64 %#" PRIx64, evs[j].u64);
			SWT_ASSERT(!once || seen[i] == 0,
				   "timer %u delivered twice", i);
			SWT_ASSERT_EQ(evs[j].event_type, RTE_EVENT_TYPE_TIMER);
			SWT_ASSERT_EQ(evs[j].queue_id, t[i].ev.queue_id);
			if (once)
				SWT_ASSERT_EQ(t[i].state,
					      RTE_EVENT_TIMER_NOT_ARMED);
			seen[i]++;
			(*total)++;
		}
	}
	return SWT_PASS;
}

/* Every count settled: enqueued == expired, nothing dropped. */
static int
check_stats(struct swtim_adapter *a, unsigned int received)
{
	struct rte_event_timer_adapter_stats st;

	SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
	printf("    exp %" PRIu64 " enq %" PRIu64 " retry %" PRIu64
	       " drop %" PRIu64 " inv %" PRIu64 ", received %u\n",
	       st.evtim_exp_count, st.ev_enq_count, st.evtim_retry_count,
	       st.evtim_drop_count, st.ev_inv_count, received);
	SWT_ASSERT(st.evtim_retry_count > 0, "no retries: no back-pressure");
	SWT_ASSERT_EQ(st.ev_enq_count, st.evtim_exp_count);
	SWT_ASSERT_EQ(st.ev_enq_count, received);
	SWT_ASSERT_EQ(st.evtim_drop_count, 0);
	SWT_ASSERT_EQ(st.ev_inv_count, 0);
	return SWT_PASS;
}

/*
 * The worker looks away for PAUSE_MS, and longer if need be until the
 * device has refused something: on CPUs shared with other tests the
 * service may not have run enough in PAUSE_MS to fill the device.
 */
static void
pause_until_refused(struct swtim_adapter *a)
{
	struct rte_event_timer_adapter_stats st;
	uint64_t end = swt_now() + swt_ms_to_cycles(10000);

	swt_sleep_ms(PAUSE_MS);
	while (swtim_adapter_stats_get(a, &st) == 0 &&
	       st.evtim_retry_count == 0 && swt_now() < end)
		swt_sleep_ms(10);
}

static int
oneshot(const struct swt_evdev *dev, bool stop_while_blocked)
{
	const unsigned int n = 3000;
	struct swtim_adapter *a = mk_adapter(dev, n, 0);
	struct rte_event_timer *t = swt_timers(n);
	struct rte_event_timer **p = swt_timer_ptrs(t, n);
	uint32_t *seen = swt_calloc(n, sizeof(*seen));
	uint64_t rnd = swt_seed();
	unsigned int i, total = 0;

	SWT_ASSERT(a != NULL && t != NULL && p != NULL && seen != NULL,
		   "setup: %s", rte_strerror(rte_errno));
	for (i = 0; i < n; i++)
		swt_timer_init(&t[i], i & 1 ? SWT_Q_ATOMIC : SWT_Q_PARALLEL,
			       TAG | i, swt_rand_range(&rnd, 10, 50));
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, n), n, 0);

	/* The worker looks away; the device fills up and refuses. */
	pause_until_refused(a);
	if (stop_while_blocked) {
		/*
		 * Expiries taken from the lists but refused by the device
		 * are kept across stop and start.
		 */
		SWT_ASSERT_OK(swtim_adapter_stop(a));
		SWT_ASSERT_OK(receive(dev, t, seen, n, true, n, 200, &total));
		SWT_ASSERT(total < n, "no back-pressure: all %u came", n);
		swt_sleep_ms(50);
		SWT_ASSERT_OK(swtim_adapter_start(a));
	}
	SWT_ASSERT_OK(receive(dev, t, seen, n, true, n, DELIVER_MS, &total));
	SWT_ASSERT_EQ(total, n);
	SWT_ASSERT_EQ(swt_drain(dev, 50), 0);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	return check_stats(a, total);
}

/*
 * Cancel every timer, retrying those a service run has in hand at that
 * moment (EAGAIN): it must not take long, whether the device refuses or
 * the adapter is stopped.
 */
static int
cancel_all(struct swtim_adapter *a, struct rte_event_timer *t,
	   unsigned int n)
{
	uint64_t end = swt_now() + swt_ms_to_cycles(DELIVER_MS);
	unsigned int i, eagain = 0;

	for (i = 0; i < n; i++) {
		while (swtim_cancel(a, &t[i]) != 1) {
			SWT_ASSERT(rte_errno == EAGAIN, "cancel %u: %s", i,
				   rte_strerror(rte_errno));
			SWT_ASSERT(swt_now() < end, "cancel %u: EAGAIN for "
				   "%u ms", i, DELIVER_MS);
			eagain++;
			rte_pause();
		}
		SWT_ASSERT_EQ(t[i].state, RTE_EVENT_TIMER_CANCELED);
	}
	printf("    %u cancelled (%u EAGAIN on the way)\n", n, eagain);
	return SWT_PASS;
}

/*
 * Periodic timers keep firing while the device refuses: their expiries
 * are kept too. Cancelling them while the device still refuses (and, with
 * stop_first, while the adapter is stopped) succeeds, taking back the
 * events that wait for the device: once every cancel has returned,
 * nothing more is enqueued, and every expiry still counted arrives.
 */
static int
periodic(const struct swt_evdev *dev, bool stop_first)
{
	const unsigned int n = 50;
	struct swtim_adapter *a =
		mk_adapter(dev, n, RTE_EVENT_TIMER_ADAPTER_F_PERIODIC);
	struct rte_event_timer *t = swt_timers(n);
	uint32_t *seen = swt_calloc(n, sizeof(*seen));
	struct rte_event_timer_adapter_stats st;
	unsigned int i, total = 0;
	uint64_t end, enq_at_cancel, exp_stopped = 0;

	SWT_ASSERT(a != NULL && t != NULL && seen != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	for (i = 0; i < n; i++) {
		swt_timer_init(&t[i], SWT_Q_PARALLEL, TAG | i, 1 + i % 2);
		SWT_ASSERT_BURST(swtim_arm(a, &t[i]), 1, 0);
	}
	pause_until_refused(a);
	/* Dequeue a while, with the periods still running. */
	SWT_ASSERT_OK(receive(dev, t, seen, n, false, UINT32_MAX, 200,
			      &total));
	pause_until_refused(a);
	/* Nobody dequeues: events of some timers wait in the adapter. */
	if (stop_first) {
		SWT_ASSERT_OK(swtim_adapter_stop(a));
		SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
		exp_stopped = st.evtim_exp_count;
	}
	SWT_ASSERT_OK(cancel_all(a, t, n));
	SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
	enq_at_cancel = st.ev_enq_count;
	/* Stopped, nothing expires: what cancel took back shows. */
	if (stop_first)
		SWT_ASSERT(st.evtim_exp_count < exp_stopped, "no waiting "
			   "event taken back (%" PRIu64 " expiries before "
			   "the cancels, %" PRIu64 " after)", exp_stopped,
			   st.evtim_exp_count);
	if (stop_first)
		SWT_ASSERT_OK(swtim_adapter_start(a));
	/* Until every expiry counted has been enqueued and received. */
	end = swt_now() + swt_ms_to_cycles(DELIVER_MS);
	do {
		SWT_ASSERT_OK(receive(dev, t, seen, n, false, UINT32_MAX, 20,
				      &total));
		SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
	} while ((st.ev_enq_count != st.evtim_exp_count ||
		  total != st.ev_enq_count) && swt_now() < end);
	total += swt_drain(dev, 50);
	for (i = 0; i < n; i++)
		SWT_ASSERT(seen[i] > 0, "timer %u never delivered", i);
	SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
	SWT_ASSERT(st.ev_enq_count == enq_at_cancel, "%" PRIu64 " events "
		   "enqueued after every cancel had succeeded",
		   st.ev_enq_count - enq_at_cancel);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	return check_stats(a, total);
}

/*
 * Periodic timers whose events wait in the adapter (the device refuses,
 * the adapter is stopped) are still armed: remaining_ticks_get() answers
 * for each, 0 once their next period's tick has passed (the adapter is
 * stopped: nothing moves them on), and freeing the adapter cancels every
 * one, those waiting for the device as much as those on the lists.
 */
static int
periodic_free_while_waiting(void)
{
	const unsigned int n = 50;
	struct swtim_adapter *a =
		mk_adapter(&swt_dev, n, RTE_EVENT_TIMER_ADAPTER_F_PERIODIC);
	struct rte_event_timer *t = swt_timers(n);
	struct rte_event_timer_adapter_stats st;
	uint64_t rem;
	unsigned int i;
	int ret;

	SWT_ASSERT(a != NULL && t != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	for (i = 0; i < n; i++) {
		swt_timer_init(&t[i], SWT_Q_PARALLEL, TAG | i, 1 + i % 2);
		SWT_ASSERT_BURST(swtim_arm(a, &t[i]), 1, 0);
	}
	pause_until_refused(a);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	/* Every period set before the stop has begun. */
	swt_sleep_ms(10 * TICK_NS / 1000000);
	SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
	SWT_ASSERT(st.evtim_exp_count > st.ev_enq_count, "no event waits in "
		   "the adapter (%" PRIu64 " expired, %" PRIu64 " enqueued)",
		   st.evtim_exp_count, st.ev_enq_count);
	for (i = 0; i < n; i++) {
		SWT_ASSERT_EQ(t[i].state, RTE_EVENT_TIMER_ARMED);
		ret = swtim_remaining_ticks_get(a, &t[i], &rem);
		SWT_ASSERT(ret == 0, "timer %u: remaining ticks: %s", i,
			   rte_strerror(-ret));
		SWT_ASSERT(rem == 0, "timer %u: %" PRIu64 " ticks left of %"
			   PRIu64 ", due long ago", i, rem,
			   t[i].timeout_ticks);
	}
	SWT_ASSERT_OK(swtim_adapter_free(a));
	for (i = 0; i < n; i++)
		SWT_ASSERT(t[i].state == RTE_EVENT_TIMER_CANCELED,
			   "timer %u left %d by the free", i, t[i].state);
	swt_drain(&swt_dev, 50);
	return SWT_PASS;
}

/*
 * Free while the device refuses: the kept expiries are discarded with
 * the adapter; nothing of it reaches the device afterwards, and an
 * adapter created again with the same id and port starts clean.
 */
static int
free_while_blocked(const struct swt_evdev *dev, int port)
{
	const unsigned int n = 3000;
	struct swtim_adapter *a = mk_adapter_port(dev, n, 0, port);
	struct rte_event_timer *t = swt_timers(n + 1);
	struct rte_event_timer **p = swt_timer_ptrs(t, n);
	struct rte_event ev;
	unsigned int i, got;

	SWT_ASSERT(a != NULL && t != NULL && p != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	for (i = 0; i < n; i++)
		swt_timer_init(&t[i], SWT_Q_PARALLEL, TAG | i, 1 + i % 20);
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, n), n, 0);
	swt_sleep_ms(PAUSE_MS);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	SWT_ASSERT_OK(swtim_adapter_free(a));
	/* What the device had accepted (event_sw's scheduler may wait for
	 * a CPU a while on a loaded machine); then silence. */
	got = swt_drain(dev, 300);
	SWT_ASSERT(got < n, "no back-pressure: all %u came", n);
	SWT_ASSERT_EQ(swt_drain(dev, 100), 0);

	/* With port < 0, this create reuses the port the first one added. */
	a = mk_adapter_port(dev, n, 0, port);
	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	swt_timer_init(&t[n], SWT_Q_ATOMIC, TAG | n, 1);
	SWT_ASSERT_BURST(swtim_arm(a, &t[n]), 1, 0);
	SWT_ASSERT_EQ(swt_collect(dev, &ev, 1, 2000), 1);
	SWT_ASSERT_EQ(ev.u64, TAG | n);
	SWT_ASSERT_EQ(swt_drain(dev, 50), 0);
	return SWT_PASS;
}

/*
 * Whether the log written to f (an open_memstream() of buf and len) from
 * byte from on holds needle.
 */
static bool
log_has(FILE *f, char *const *buf, const size_t *len, size_t from,
	const char *needle)
{
	bool found;

	/* The service lcore may be writing: hold the stream meanwhile. */
	flockfile(f);
	fflush(f);
	found = *buf != NULL && from <= *len && strstr(*buf + from, needle);
	funlockfile(f);
	return found;
}

/* How much of the log f (as for log_has()) is written. */
static size_t
log_mark(FILE *f, const size_t *len)
{
	size_t mark;

	flockfile(f);
	fflush(f);
	mark = *len;
	funlockfile(f);
	return mark;
}

/*
 * A device that refuses everything for SWTIM_EVBUF_STALL_MS gets one
 * warning, not earlier, and a notice when it takes events again; the
 * expiries all arrive afterwards, once each.
 */
static int
stall_warning(const struct swt_evdev *dev)
{
	static const char warning[] = "has refused every expiry event";
	static const char notice[] = "takes expiry events again";
	const unsigned int n = 3000;
	struct swtim_adapter *a = mk_adapter(dev, n, 0);
	struct rte_event_timer *t = swt_timers(n);
	struct rte_event_timer **p = swt_timer_ptrs(t, n);
	uint32_t *seen = swt_calloc(n, sizeof(*seen));
	uint64_t armed, end, waited_ms;
	unsigned int i, total = 0;
	char *log = NULL;
	size_t log_len = 0;
	FILE *f = open_memstream(&log, &log_len);
	bool warned, noticed;
	char *first;

	SWT_ASSERT(a != NULL && t != NULL && p != NULL && seen != NULL &&
		   f != NULL, "setup: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(rte_openlog_stream(f));
	for (i = 0; i < n; i++)
		swt_timer_init(&t[i], SWT_Q_PARALLEL, TAG | i, 10);
	armed = swt_now();
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, n), n, 0);

	/* The worker looks away until the warning (generous bound). */
	end = armed + swt_ms_to_cycles(SWTIM_EVBUF_STALL_MS + 20000);
	while (!(warned = log_has(f, &log, &log_len, 0, warning)) &&
	       swt_now() < end)
		swt_sleep_ms(20);
	waited_ms = (swt_now() - armed) * 1000 / rte_get_timer_hz();
	SWT_ASSERT_OK(receive(dev, t, seen, n, true, n, DELIVER_MS, &total));
	SWT_ASSERT_EQ(swt_drain(dev, 50), 0);
	noticed = log_has(f, &log, &log_len, 0, notice);
	rte_openlog_stream(NULL);
	fclose(f);
	printf("    warned after %" PRIu64 " ms: %s", waited_ms,
	       log != NULL ? log : "(no log)\n");
	first = log != NULL ? strstr(log, warning) : NULL;
	warned = warned && first != NULL &&
		strstr(first + 1, warning) == NULL;
	free(log);
	SWT_ASSERT(warned, "no warning, or more than one, for one stall");
	/* Refusals start at the first expiry, 10 ms after arming. */
	SWT_ASSERT(waited_ms >= SWTIM_EVBUF_STALL_MS, "warned after %" PRIu64
		   " ms", waited_ms);
	SWT_ASSERT(noticed, "no notice when the device took events again");
	SWT_ASSERT_EQ(total, n);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	return check_stats(a, total);
}

static int
stall_warning_dsw(void)
{
	return stall_warning(&swt_dev);
}

/*
 * Time stopped is not time refused: an adapter stopped for longer than
 * SWTIM_EVBUF_STALL_MS with refused events kept, then started while the
 * device still refuses, gives no warning before another
 * SWTIM_EVBUF_STALL_MS of refusals.
 */
static int
stall_restart(const struct swt_evdev *dev)
{
	static const char warning[] = "has refused every expiry event";
	const unsigned int n = 3000;
	struct swtim_adapter *a = mk_adapter(dev, n, 0);
	struct rte_event_timer *t = swt_timers(n);
	struct rte_event_timer **p = swt_timer_ptrs(t, n);
	uint32_t *seen = swt_calloc(n, sizeof(*seen));
	uint64_t started, since_start_ms;
	unsigned int i, total = 0;
	char *log = NULL;
	size_t log_len = 0, mark;
	FILE *f = open_memstream(&log, &log_len);
	bool warned;

	SWT_ASSERT(a != NULL && t != NULL && p != NULL && seen != NULL &&
		   f != NULL, "setup: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(rte_openlog_stream(f));
	for (i = 0; i < n; i++)
		swt_timer_init(&t[i], SWT_Q_PARALLEL, TAG | i, 10);
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, n), n, 0);
	pause_until_refused(a);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	swt_sleep_ms(SWTIM_EVBUF_STALL_MS + 500);
	/*
	 * Only what comes after the start counts: the refusals before the
	 * stop may have lasted a stall already when this machine held the
	 * test up in pause_until_refused().
	 */
	mark = log_mark(f, &log_len);
	started = swt_now();
	SWT_ASSERT_OK(swtim_adapter_start(a));
	swt_sleep_ms(200);
	warned = log_has(f, &log, &log_len, mark, warning);
	since_start_ms = (swt_now() - started) * 1000 / rte_get_timer_hz();
	SWT_ASSERT_OK(receive(dev, t, seen, n, true, n, DELIVER_MS, &total));
	rte_openlog_stream(NULL);
	fclose(f);
	free(log);
	SWT_ASSERT(!warned || since_start_ms >= SWTIM_EVBUF_STALL_MS,
		   "warned %" PRIu64 " ms after the start", since_start_ms);
	SWT_ASSERT_EQ(total, n);
	SWT_ASSERT_EQ(swt_drain(dev, 50), 0);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	return check_stats(a, total);
}

static int
stall_restart_dsw(void)
{
	return stall_restart(&swt_dev);
}

static int
free_while_blocked_dsw(void)
{
	return free_while_blocked(&swt_dev, swt_dev.app_port);
}

static int
free_while_blocked_sw(void)
{
	return free_while_blocked(&sw_dev, sw_dev.app_port);
}

/* The same through a port the library added to the device, then reused. */
static int
free_while_blocked_added_port_dsw(void)
{
	return free_while_blocked(&swt_dev, -1);
}

static int
free_while_blocked_added_port_sw(void)
{
	return free_while_blocked(&sw_dev, -1);
}

/*
 * Cancel everything while the device refuses and expiries wait in the
 * adapter: each timer ends cancelled (never delivered) or expired
 * (delivered exactly once), whichever cancel said.
 */
static int
cancel_while_blocked(const struct swt_evdev *dev)
{
	const unsigned int n = 3000;
	struct swtim_adapter *a = mk_adapter(dev, n, 0);
	struct rte_event_timer *t = swt_timers(n);
	struct rte_event_timer **p = swt_timer_ptrs(t, n);
	uint32_t *seen = swt_calloc(n, sizeof(*seen));
	uint8_t *cancelled = swt_calloc(n, 1);
	struct rte_event_timer_adapter_stats st;
	unsigned int i, nb_cancelled = 0, total = 0;
	uint64_t rnd = swt_seed();

	SWT_ASSERT(a != NULL && t != NULL && p != NULL && seen != NULL &&
		   cancelled != NULL, "setup: %s", rte_strerror(rte_errno));
	for (i = 0; i < n; i++)
		swt_timer_init(&t[i], SWT_Q_PARALLEL, TAG | i,
			       swt_rand_range(&rnd, 10, 400));
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, n), n, 0);
	pause_until_refused(a);
	for (i = 0; i < n; i++) {
		if (swt_cancel_retry(a, &t[i]) == 1) {
			cancelled[i] = 1;
			nb_cancelled++;
			continue;
		}
		SWT_ASSERT(rte_errno == EINVAL, "cancel %u: %s", i,
			   rte_strerror(rte_errno));
	}
	SWT_ASSERT_OK(receive(dev, t, seen, n, true, n - nb_cancelled,
			      DELIVER_MS, &total));
	total += swt_drain(dev, 100);
	for (i = 0; i < n; i++) {
		SWT_ASSERT(!cancelled[i] || seen[i] == 0,
			   "timer %u cancelled and delivered", i);
		SWT_ASSERT(cancelled[i] || seen[i] == 1,
			   "timer %u expired, delivered %u times", i, seen[i]);
	}
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
	printf("    %u cancelled, %u delivered, retry %" PRIu64 "\n",
	       nb_cancelled, total, st.evtim_retry_count);
	SWT_ASSERT_EQ(st.ev_enq_count, total);
	SWT_ASSERT(st.evtim_retry_count > 0, "no back-pressure");
	return SWT_PASS;
}

/*
 * A backlog far larger than a device burst, all due at once when the
 * service comes back: n timers fall due while the adapter is stopped
 * (as when the service is held up), and once it starts, the device
 * refuses all but its first few hundred. The adapter must not buffer
 * them all (the heap grows by less than BACKLOG_HEAP_MAX: what has not
 * been turned into an event waits where it was, or in a queue made of
 * the timers themselves), and a timer past its deadline whose event is
 * not built yet is still armed: cancelling it succeeds, it is never
 * delivered, and its place in nb_timers can be armed again at once.
 * Every other timer arrives once the worker dequeues again.
 */
static int
backlog_bounded(const struct swt_evdev *dev)
{
	const unsigned int n = BACKLOG_TIMERS;
	struct swtim_adapter *a = mk_adapter(dev, n, 0);
	struct rte_event_timer *t = swt_timers(n);
	struct rte_event_timer **p = swt_timer_ptrs(t, n);
	uint32_t *seen = swt_calloc(n, sizeof(*seen));
	bool *cancelled = swt_calloc(n, sizeof(*cancelled));
	unsigned int i, k, armed, total = 0, nb_cancelled = 0;
	unsigned int delivered_first = 0;
	uint64_t heap_armed, heap_due;

	SWT_ASSERT(a != NULL && t != NULL && p != NULL && seen != NULL &&
		   cancelled != NULL, "setup: %s", rte_strerror(rte_errno));
	for (i = 0; i < n; i++)
		swt_timer_init(&t[i], SWT_Q_PARALLEL, TAG | i, 50);
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, n), n, 0);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	swt_sleep_ms(100);
	heap_armed = swt_heap_bytes();
	/* All due at once; the worker looks away, the device fills up. */
	SWT_ASSERT_OK(swtim_adapter_start(a));
	pause_until_refused(a);
	swt_sleep_ms(100);
	heap_due = swt_heap_bytes();
	printf("    heap +%" PRId64 " bytes with %u timers due\n",
	       (int64_t)(heap_due - heap_armed), n);
	SWT_ASSERT(heap_due < heap_armed + BACKLOG_HEAP_MAX, "the heap grew "
		   "by %" PRIu64 " bytes for a backlog of %u",
		   heap_due - heap_armed, n);
	/* Every other: cancelled, unless its event was built already. */
	for (i = 0; i < n; i += 2) {
		while (swtim_cancel(a, &t[i]) != 1 && rte_errno == EAGAIN)
			rte_pause();
		if (t[i].state == RTE_EVENT_TIMER_CANCELED) {
			cancelled[i] = true;
			nb_cancelled++;
		} else {
			SWT_ASSERT_EQ(t[i].state, RTE_EVENT_TIMER_NOT_ARMED);
			delivered_first++;
		}
	}
	printf("    %u cancelled past their deadline, %u had their event "
	       "built\n", nb_cancelled, delivered_first);
	SWT_ASSERT(nb_cancelled >= n / 4, "only %u of %u due timers could "
		   "be cancelled: the rest were buffered", nb_cancelled,
		   n / 2);
	/*
	 * Their places in nb_timers are back at once, device or no device:
	 * armed again (far off), all of them, then cancelled for good.
	 */
	for (i = 0, k = 0; i < n; i++)
		if (cancelled[i]) {
			t[i].timeout_ticks = MAX_TMO_NS / TICK_NS;
			p[k++] = &t[i];
		}
	for (i = 0; i < k; i += armed) {
		armed = swtim_arm_burst(a, &p[i], RTE_MIN(k - i, 1024u));
		SWT_ASSERT(armed > 0 || rte_errno == EAGAIN, "armed again %u "
			   "of %u cancelled: %s", i, k,
			   rte_strerror(rte_errno));
	}
	for (i = 0; i < k; i++) {
		while (swtim_cancel(a, p[i]) != 1)
			SWT_ASSERT(rte_errno == EAGAIN, "cancel again: %s",
				   rte_strerror(rte_errno));
	}
	SWT_ASSERT_OK(receive(dev, t, seen, n, true, n - nb_cancelled,
			      DELIVER_MS, &total));
	SWT_ASSERT_EQ(total, n - nb_cancelled);
	SWT_ASSERT_EQ(swt_drain(dev, 50), 0);
	for (i = 0; i < n; i++)
		SWT_ASSERT(cancelled[i] ? seen[i] == 0 : seen[i] == 1,
			   "timer %u (%s) delivered %u times", i,
			   cancelled[i] ? "cancelled" : "not cancelled",
			   seen[i]);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	return check_stats(a, total);
}

static int
backlog_bounded_dsw(void)
{
	return backlog_bounded(&swt_dev);
}

static int
cancel_while_blocked_dsw(void)
{
	return cancel_while_blocked(&swt_dev);
}

static int
cancel_while_blocked_sw(void)
{
	return cancel_while_blocked(&sw_dev);
}

static int
oneshot_dsw(void)
{
	return oneshot(&swt_dev, false);
}

static int
oneshot_sw(void)
{
	return oneshot(&sw_dev, false);
}

static int
oneshot_stop_while_blocked_dsw(void)
{
	return oneshot(&swt_dev, true);
}

static int
oneshot_stop_while_blocked_sw(void)
{
	return oneshot(&sw_dev, true);
}

static int
periodic_dsw(void)
{
	return periodic(&swt_dev, false);
}

static int
periodic_sw(void)
{
	return periodic(&sw_dev, false);
}

static int
periodic_stopped_dsw(void)
{
	return periodic(&swt_dev, true);
}

static int
periodic_stopped_sw(void)
{
	return periodic(&sw_dev, true);
}

static const struct swt_case cases[] = {
	SWT_CASE(oneshot_dsw),
	SWT_CASE(oneshot_sw),
	SWT_CASE(oneshot_stop_while_blocked_dsw),
	SWT_CASE(oneshot_stop_while_blocked_sw),
	SWT_CASE(periodic_dsw),
	SWT_CASE(periodic_sw),
	SWT_CASE(periodic_free_while_waiting),
	SWT_CASE(periodic_stopped_dsw),
	SWT_CASE(periodic_stopped_sw),
	SWT_CASE(free_while_blocked_dsw),
	SWT_CASE(free_while_blocked_sw),
	SWT_CASE(free_while_blocked_added_port_dsw),
	SWT_CASE(free_while_blocked_added_port_sw),
	SWT_CASE(cancel_while_blocked_dsw),
	SWT_CASE(cancel_while_blocked_sw),
	SWT_CASE(backlog_bounded_dsw),
	SWT_CASE(stall_warning_dsw),
	SWT_CASE(stall_restart_dsw),
};

int
main(int argc, char **argv)
{
	static const char *const vdevs[] = {
		"event_dsw0", "event_sw0", NULL
	};
	struct swt_evdev_conf dsw = {
		.name = "event_dsw0",
		.nb_app_ports = 1,
		.nb_events_limit = EVENTS_LIMIT,
		.app_new_event_threshold = PORT_THRESHOLD,
	};
	struct swt_evdev_conf sw = dsw;
	int ret;

	sw.name = "event_sw0";
	if (swt_init(argc, argv, vdevs, cases, RTE_DIM(cases)) != 0)
		return 1;
	if (swt_evdev_setup(&dsw, &swt_dev) != 0 ||
	    swt_evdev_setup(&sw, &sw_dev) != 0)
		return swt_fini(1);
	ret = swt_run(cases, RTE_DIM(cases));
	return swt_fini(ret);
}
