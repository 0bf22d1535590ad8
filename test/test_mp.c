/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Multi-process: secondary processes look up the primary's adapter and
 * arm, cancel and query timers on it; the primary's service delivers.
 *
 * The primary (this program run with a case name) starts EAL with
 * hugepages and a file prefix of its own, creates an adapter with the
 * driver under test (SWTIM_TEST_DRIVER), maps its service to lcore 1 and
 * starts secondaries: this program again, with --secondary, the
 * primary's --file-prefix, --proc-type=secondary and lcores of their own
 * (DPDK's rule: no lcore id of the primary's). A secondary records in
 * shared memory (a memzone of the primary's) what it armed, when, and
 * what it cancelled, and reports its result there: waiting for a
 * secondary to exit was seen to freeze for seconds on the test machines,
 * so the primary never relies on it, and bounds every wait.
 *
 * The primary dequeues every expiry event and checks it is never early;
 * at the end, that each armed timer not cancelled came exactly once and
 * no cancelled one came, that the statistics count them, and that the
 * adapter stops and frees cleanly.
 *
 * Cases:
 *   basic  one secondary: lookup, info, service id, the control calls it
 *          is refused, a timer outside shared memory refused, MP_TIMERS
 *          timers armed in bursts of both kinds and singly, one in seven
 *          cancelled, remaining ticks, errors, stats
 *   kill   a secondary arms and cancels, then is SIGKILLed between calls;
 *          the primary arms more of its own while and after it dies
 *   two    two secondaries at once, the second exiting as soon as it
 *          is done arming
 *   dropin one secondary on DPDK's API (rte_event_timer_adapter_lookup(),
 *          the inline arm and cancel), through libswtim_dropin, which
 *          this program is linked with ahead of librte_eventdev
 *   hold-lane, hold-claim, hold-steal
 *          as kill, but the secondary is killed inside a call: after
 *          its arms, one more timer armed, it takes (reaching into the
 *          library: white box) what an arm or a cancel holds, and is
 *          killed holding it. lane: its lane's lock; claim: its lane's
 *          claim. Both leave the store maybe half changed: the lane
 *          must be found dead, its timers answer remaining ticks and
 *          cancel with ENOTRECOVERABLE, and none is delivered twice,
 *          while the primary's timers are all delivered. steal: every
 *          lock whose holder commits with one store (every lane's, as a
 *          budget reclaim takes them; the poll set's; the free-object
 *          pool's): the primary takes each over, and every timer of
 *          both is delivered exactly once.
 *   hold-free
 *          as hold-lane, with the adapter stopped first, so that
 *          nothing waits on the lock after the kill: free must find the
 *          lane dead itself (and log it), leave its store alone, and
 *          end.
 *   calls  every public call from one secondary, each answering what
 *          swtim.h says it answers there, swtim_adapter_next_deadline()
 *          included: the primary stops the adapter and arms one timer,
 *          so that the deadline stands still, and the secondary's answer
 *          must be the primary's, before and after it arms its own. The
 *          secondary is test_mp_shifted, this program linked behind a
 *          library that only takes address space, so that libswtim is
 *          mapped elsewhere than in the primary even without address
 *          space randomisation (checked): a pointer into the primary's
 *          library followed there leads nowhere it should. And the
 *          primary checks that nothing the adapter keeps in shared
 *          memory (the adapter table, the driver's data, the lanes'
 *          buffers) holds an address inside any object this process
 *          has loaded, such as a function or a table of them: valid in
 *          this process only.
 *
 * Hugepages are needed (DPDK's multi-process shares them): without free
 * ones and a hugetlbfs mount the test fails saying so (scripts/lib.sh
 * sets them up for CI).
 */

#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <link.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memzone.h>
#include <rte_pause.h>

#include "skl_private.h"
#include "swtim.h"
#include "swtim_adapter_pvt.h"
#include "swtim_poll_set.h"
#include "swtim_test.h"
#include "whl_private.h"

/* Timers each secondary arms: the issue asks for 100k and more. */
#define MP_TIMERS 102400
/* Timers the primary arms itself in the kill case. */
#define MP_PRIMARY_TIMERS 20000
/* Burst size of the arms. */
#define MP_BURST 32
/* Every MP_CANCEL_EVERY-th timer gets the longest timeout and is
 * cancelled right after its burst was armed. */
#define MP_CANCEL_EVERY 7
/* Adapter tick, and the longest timeout in ticks (200 ms). */
#define MP_TICK_NS 100000
#define MP_MAX_TICKS 2000
#define MP_SECONDARIES_MAX 2
/* Owner ids in the events' u64, above the timer's index. */
#define MP_OWNER_PRIMARY MP_SECONDARIES_MAX
#define MP_OWNER_SHIFT 32
/*
 * Generous upper bounds: far above what a run under ASan on two shared
 * CPUs takes; they only catch hangs.
 */
#define MP_SECONDARY_START_S 60
#define MP_DELIVERY_S 120
#define MP_EXIT_S 10
/* Quiet time after the last expected event, to catch duplicates. */
#define MP_QUIET_MS 300
/* Hugepages (2 MB) the primary needs free: -m below, and some slack. */
#define MP_MEM_MB 256
#define MP_MZ_NAME "swtim_test_mp"
/* How long a dead lane may take to be found: far above the tick. */
#define MP_DEAD_FOUND_S 30

/* What a secondary did to one timer, written by it (deliveries: by the
 * primary). */
struct mp_record {
	/* Timer cycles read just before the arm call. */
	uint64_t armed_at;
	uint32_t ticks;
	/* Set once the arm returned it armed. */
	uint8_t armed;
	/* Set once a cancel returned it cancelled. */
	uint8_t cancelled;
	uint16_t deliveries;
};

enum mp_status {
	MP_STARTING = 0,
	/* Done arming and cancelling: its records are final. */
	MP_ARMED,
	/* Killed by the primary (kill case), once MP_ARMED. */
	MP_KILLED,
	MP_PASSED,
	MP_FAILED,
};

/* What a secondary holds when it is killed (hold-* cases). */
enum mp_hold {
	MP_HOLD_NONE = 0,
	MP_HOLD_LANE,
	MP_HOLD_CLAIM,
	MP_HOLD_STEAL,
	/* MP_HOLD_LANE, taken once the primary has stopped the adapter. */
	MP_HOLD_FREE,
};

struct mp_owner {
	volatile int status;
	/* Events of its timers the primary dequeued. */
	uint64_t delivered;
	char msg[256];
	struct mp_record *recs;
	uint32_t nb_recs;
	pid_t pid;
	/* The primary has reaped it. */
	bool reaped;
	/* It exits as soon as it is done arming, its timers outstanding. */
	bool exit_when_armed;
};

/* The memzone the primary shares with its secondaries. */
struct mp_shared {
	uint16_t adapter_id;
	uint32_t service_id;
	struct rte_event_timer_adapter_info info;
	/* Set by the primary once every expected event came. */
	volatile int all_delivered;
	/* The case: secondaries are killed once armed; they use DPDK's API
	 * through libswtim_dropin. */
	bool kill_when_armed;
	bool dropin;
	enum mp_hold hold;
	/* The timer the secondary armed last in a hold case, and its lane. */
	struct rte_event_timer *held_timer;
	unsigned int held_lane;
	/* hold-free: the secondary is done arming / the adapter stopped. */
	volatile int ready_to_hold;
	volatile int stopped;
	/*
	 * calls: the primary's next deadline, with the adapter stopped, as
	 * the secondary must find it; the secondary's once it has armed, as
	 * the primary must find it; where the primary has libswtim.
	 */
	bool calls;
	uint64_t deadline;
	uint64_t sec_deadline;
	uintptr_t primary_lib;
	struct mp_owner owners[MP_SECONDARIES_MAX + 1];
};

static struct mp_shared *mp;
static int mp_owner_id = -1;

#ifdef SWT_MP_SHIFTED
/* mp_shift.c: what moves this program's libraries (used, so linked). */
extern uint8_t swt_mp_shift_pad[];
#endif

/* Report a failed check of this process (first one wins) and return. */
#define MP_CHECK(cond, ...) do { \
	if (!(cond)) { \
		mp_fail(__LINE__, __VA_ARGS__); \
		return -1; \
	} \
} while (0)

static void __rte_format_printf(2, 3)
mp_fail(int line, const char *fmt, ...)
{
	struct mp_owner *o = &mp->owners[mp_owner_id];
	char buf[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(stderr, "FAIL (%s %d, line %d): %s\n",
		mp_owner_id == MP_OWNER_PRIMARY ? "primary" : "secondary",
		mp_owner_id, line, buf);
	if (o->msg[0] == '\0')
		snprintf(o->msg, sizeof(o->msg), "line %d: %s", line, buf);
}

/* The u64 of timer i's events, armed by owner. */
static uint64_t
mp_event_id(unsigned int owner, uint32_t i)
{
	return (uint64_t)owner << MP_OWNER_SHIFT | i;
}

static double
mp_seconds(uint64_t since)
{
	return (double)(rte_get_timer_cycles() - since) /
		(double)rte_get_timer_hz();
}

static uint64_t
mp_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* ---- what a secondary (or the primary, in the kill case) arms ---- */

/*
 * Cancel timers[i] if the arm left it ARMED: EAGAIN is retried, EINVAL
 * is right only for a timer that expired meanwhile (NOT_ARMED).
 */
static int
mp_cancel_one(const struct swtim_adapter *a, struct rte_event_timer *t,
	      struct mp_record *r)
{
	for (;;) {
		if (swtim_cancel(a, t) == 1) {
			r->cancelled = 1;
			MP_CHECK(t->state == RTE_EVENT_TIMER_CANCELED,
				 "cancelled timer in state %d", t->state);
			return 0;
		}
		if (rte_errno == EAGAIN) {
			rte_pause();
			continue;
		}
		MP_CHECK(rte_errno == EINVAL &&
			 t->state == RTE_EVENT_TIMER_NOT_ARMED,
			 "cancel: rte_errno %d, state %d", rte_errno,
			 t->state);
		return 0;
	}
}

/*
 * Arm n timers of owner id: bursts with their own timeouts, bursts with
 * one timeout, singles in turn; cancel the long ones of each burst right
 * after it. checks: also the errors and remaining ticks on the first
 * long timer of each burst.
 */
static int
mp_arm_all(const struct swtim_adapter *a, unsigned int owner,
	   struct rte_event_timer *timers, uint32_t n, bool checks)
{
	struct mp_record *recs = mp->owners[owner].recs;
	struct rte_event_timer *burst[MP_BURST];
	uint64_t seed = 0x9e3779b97f4a7c15ull ^ ((uint64_t)owner << 40) ^
		(uint64_t)getpid();
	uint32_t first, i, k, nb;

	for (first = 0; first < n; first += nb) {
		unsigned int kind = (first / MP_BURST) % 3;
		uint32_t same = 1 + mp_rand(&seed) % (MP_MAX_TICKS - 1);
		uint64_t now;

		nb = RTE_MIN((uint32_t)MP_BURST, n - first);
		for (k = 0; k < nb; k++) {
			i = first + k;
			if (i % MP_CANCEL_EVERY == 0)
				recs[i].ticks = MP_MAX_TICKS;
			else if (kind == 1)
				recs[i].ticks = same;
			else
				recs[i].ticks = 1 + mp_rand(&seed) %
					(MP_MAX_TICKS - 1);
			swt_timer_init(&timers[i], SWT_Q_ATOMIC,
				       mp_event_id(owner, i), recs[i].ticks);
			burst[k] = &timers[i];
		}
		now = rte_get_timer_cycles();
		for (k = 0; k < nb; k++)
			recs[first + k].armed_at = now;
		if (kind == 0) {
			MP_CHECK(swtim_arm_burst(a, burst, nb) == nb,
				 "arm_burst at %u: rte_errno %d", first,
				 rte_errno);
		} else if (kind == 1 && first % MP_CANCEL_EVERY != 0 &&
			   (first + nb - 1) / MP_CANCEL_EVERY ==
			   first / MP_CANCEL_EVERY) {
			/* No long timer in it: one timeout for all. */
			MP_CHECK(swtim_arm_tmo_tick_burst(a, burst, same, nb) ==
				 nb, "arm_tmo_tick_burst at %u: rte_errno %d",
				 first, rte_errno);
		} else {
			for (k = 0; k < nb; k++)
				MP_CHECK(swtim_arm(a, burst[k]) == 1,
					 "arm at %u: rte_errno %d", first + k,
					 rte_errno);
		}
		for (k = 0; k < nb; k++)
			recs[first + k].armed = 1;

		for (k = 0; k < nb; k++) {
			uint64_t rem = UINT64_MAX;

			i = first + k;
			if (i % MP_CANCEL_EVERY != 0)
				continue;
			if (checks && k == 0 &&
			    timers[i].state == RTE_EVENT_TIMER_ARMED) {
				MP_CHECK(swtim_remaining_ticks_get(a,
					 &timers[i], &rem) == 0 &&
					 rem <= recs[i].ticks,
					 "remaining ticks %" PRIu64 " of %u",
					 rem, recs[i].ticks);
				MP_CHECK(swtim_arm(a, &timers[i]) == 0 &&
					 rte_errno == EALREADY,
					 "re-arm: rte_errno %d", rte_errno);
			}
			if (mp_cancel_one(a, &timers[i], &recs[i]) != 0)
				return -1;
			if (checks && k == 0 && recs[i].cancelled) {
				MP_CHECK(swtim_cancel(a, &timers[i]) == 0 &&
					 rte_errno == EALREADY,
					 "cancel twice: rte_errno %d",
					 rte_errno);
				MP_CHECK(swtim_remaining_ticks_get(a,
					 &timers[i], &rem) == -EINVAL,
					 "remaining ticks when cancelled");
			}
		}
	}
	return 0;
}

/* ---- the secondary ---- */

/*
 * A timer in this process's own memory cannot be delivered by the
 * primary: arm refuses it (EINVAL, state untouched), after the front of
 * the burst that is in shared memory.
 */
static int
mp_private_memory_check(const struct swtim_adapter *a)
{
	struct rte_event_timer private_timer __rte_cache_aligned;
	struct rte_event_timer *shared, *burst[2];

	shared = rte_zmalloc("test_mp_one", sizeof(*shared),
			     RTE_CACHE_LINE_SIZE);
	MP_CHECK(shared != NULL, "no memory for a timer");
	/* Never delivered: the primary fails on an event naming none. */
	swt_timer_init(shared, SWT_Q_ATOMIC, UINT64_MAX, MP_MAX_TICKS);
	swt_timer_init(&private_timer, SWT_Q_ATOMIC, UINT64_MAX,
		       MP_MAX_TICKS);
	burst[0] = shared;
	burst[1] = &private_timer;
	MP_CHECK(swtim_arm(a, &private_timer) == 0 && rte_errno == EINVAL &&
		 private_timer.state == RTE_EVENT_TIMER_NOT_ARMED,
		 "arm of a timer on the stack: rte_errno %d, state %d",
		 rte_errno, private_timer.state);
	MP_CHECK(swtim_arm_burst(a, burst, 2) == 1 && rte_errno == EINVAL &&
		 shared->state == RTE_EVENT_TIMER_ARMED &&
		 private_timer.state == RTE_EVENT_TIMER_NOT_ARMED,
		 "burst of a shared and a stack timer: rte_errno %d",
		 rte_errno);
	MP_CHECK(swtim_cancel(a, shared) == 1, "cancel: rte_errno %d",
		 rte_errno);
	return 0;
}

static int
mp_secondary_checks(struct swtim_adapter **ap)
{
	struct rte_event_timer_adapter_info info;
	struct rte_event_timer_adapter_conf conf = mp->info.conf;
	struct swtim_adapter *a;
	uint32_t sid = UINT32_MAX;

	a = swtim_adapter_lookup(mp->adapter_id);
	MP_CHECK(a != NULL, "lookup: NULL, rte_errno %d", rte_errno);
	MP_CHECK(swtim_adapter_lookup(SWTIM_ADAPTER_NUM_MAX) == NULL &&
		 rte_errno == EINVAL, "lookup out of range");
	MP_CHECK(swtim_adapter_lookup(mp->adapter_id + 1) == NULL &&
		 rte_errno == ENOENT, "lookup of no adapter");
	MP_CHECK(swtim_adapter_get_info(a, &info) == 0, "get_info");
	MP_CHECK(info.min_resolution_ns == mp->info.min_resolution_ns &&
		 info.max_tmo_ns == mp->info.max_tmo_ns &&
		 info.conf.nb_timers == mp->info.conf.nb_timers &&
		 info.caps == mp->info.caps &&
		 info.event_dev_port_id == mp->info.event_dev_port_id,
		 "get_info differs from the primary's");
	MP_CHECK(swtim_adapter_service_id_get(a, &sid) == 0 &&
		 sid == mp->service_id, "service id %u, primary's %u", sid,
		 mp->service_id);

	/* What changes what exists is the primary's. */
	conf.timer_adapter_id = mp->adapter_id + 1;
	MP_CHECK(swtim_adapter_create(&conf) == NULL &&
		 rte_errno == E_RTE_SECONDARY, "create: rte_errno %d",
		 rte_errno);
	MP_CHECK(swtim_adapter_start(a) == -E_RTE_SECONDARY &&
		 rte_errno == E_RTE_SECONDARY, "start");
	MP_CHECK(swtim_adapter_stop(a) == -E_RTE_SECONDARY, "stop");
	MP_CHECK(swtim_adapter_free(a) == -E_RTE_SECONDARY, "free");
	MP_CHECK(swtim_adapter_lookup(mp->adapter_id) == a,
		 "adapter gone after the refused calls");
	*ap = a;
	return mp_private_memory_check(a);
}

/* Where this process has mapped libswtim. */
static uintptr_t
mp_lib_base(void)
{
	Dl_info info;

	if (dladdr((void *)(uintptr_t)swtim_adapter_lookup, &info) == 0)
		return 0;
	return (uintptr_t)info.dli_fbase;
}

static int
mp_conf_cb(uint16_t id, uint8_t dev_id, uint8_t *port, void *arg)
{
	RTE_SET_USED(id);
	RTE_SET_USED(dev_id);
	RTE_SET_USED(port);
	RTE_SET_USED(arg);
	return -EINVAL;
}

/*
 * The calls case, before the secondary arms: every call of swtim.h not
 * made by mp_secondary_checks() and mp_arm_all(), each answering what
 * swtim.h says it answers in a secondary, on the primary's stopped
 * adapter.
 */
static int
mp_secondary_calls(struct swtim_adapter *a)
{
	struct rte_event_timer_adapter_conf conf = mp->info.conf;
	struct rte_event_timer_adapter_stats st;
	uint64_t next = 0;

#ifdef SWT_MP_SHIFTED
	MP_CHECK(swt_mp_shift_pad[0] == 0, "the shift library");
#endif
	/* Else this process could follow the primary's pointers unharmed. */
	MP_CHECK(mp_lib_base() != 0 && mp_lib_base() != mp->primary_lib,
		 "libswtim at %#" PRIxPTR " here and %#" PRIxPTR " in the "
		 "primary", mp_lib_base(), mp->primary_lib);
	MP_CHECK(swtim_adapter_next_deadline(a, &next) == 0 &&
		 next == mp->deadline, "next deadline %" PRIu64 ", the "
		 "primary's %" PRIu64, next, mp->deadline);
	MP_CHECK(swtim_adapter_next_deadline(a, NULL) == -EINVAL &&
		 swtim_adapter_next_deadline(NULL, &next) == -EINVAL,
		 "next deadline without an adapter or a result");
	/* Counted so far: nothing (stopped before any expiry). */
	MP_CHECK(swtim_adapter_stats_reset(a) == 0 &&
		 swtim_adapter_stats_get(a, &st) == 0 &&
		 st.evtim_exp_count == 0 && st.ev_enq_count == 0 &&
		 st.adapter_tick_count == 0, "stats after a reset");
	MP_CHECK(swtim_adapter_stats_reset(NULL) == -EINVAL &&
		 swtim_adapter_stats_get(a, NULL) == -EINVAL, "stats errors");
	conf.timer_adapter_id = mp->adapter_id + 1;
	MP_CHECK(swtim_adapter_create_ext(&conf, mp_conf_cb, NULL) == NULL &&
		 rte_errno == E_RTE_SECONDARY, "create_ext: rte_errno %d",
		 rte_errno);
	MP_CHECK(swtim_adapter_create_with_driver(&conf, NULL, NULL,
		 swt_driver, NULL) == NULL && rte_errno == E_RTE_SECONDARY,
		 "create_with_driver: rte_errno %d", rte_errno);
	MP_CHECK(swtim_adapter_port_add(a, 0) == -E_RTE_SECONDARY,
		 "port_add");
	return 0;
}

/*
 * The dropin case: DPDK's own API, served by swtim through
 * libswtim_dropin (linked ahead of librte_eventdev): lookup gives a
 * handle of this process whose inline arm and cancel lead into swtim.
 * Bursts of timers with their own timeouts and bursts of the longest
 * one, every MP_CANCEL_EVERY-th cancelled.
 */
static int
mp_dropin_arm_all(struct rte_event_timer *timers,
		  struct rte_event_timer_adapter **hp)
{
	struct mp_owner *o = &mp->owners[mp_owner_id];
	struct rte_event_timer_adapter_info info;
	struct rte_event_timer *burst[MP_BURST];
	struct rte_event_timer_adapter *h;
	uint64_t seed = 0x2545f4914f6cdd1dull ^ (uint64_t)getpid();
	uint32_t first, i, k, nb, sid = UINT32_MAX;
	bool same;

	h = rte_event_timer_adapter_lookup(mp->adapter_id);
	MP_CHECK(h != NULL, "rte_event_timer_adapter_lookup: rte_errno %d",
		 rte_errno);
	MP_CHECK(rte_event_timer_adapter_get_info(h, &info) == 0 &&
		 info.conf.timer_adapter_id == mp->adapter_id &&
		 info.conf.nb_timers == mp->info.conf.nb_timers &&
		 info.min_resolution_ns == mp->info.min_resolution_ns,
		 "get_info differs from the primary's");
	MP_CHECK(rte_event_timer_adapter_service_id_get(h, &sid) == 0 &&
		 sid == mp->service_id, "service id %u", sid);
	MP_CHECK(rte_event_timer_adapter_stop(h) == -E_RTE_SECONDARY &&
		 rte_event_timer_adapter_free(h) == -E_RTE_SECONDARY,
		 "stop or free not refused");
	for (first = 0; first < o->nb_recs; first += nb) {
		uint64_t now;

		nb = RTE_MIN((uint32_t)MP_BURST, o->nb_recs - first);
		same = (first / MP_BURST) % 2 == 1;
		for (k = 0; k < nb; k++) {
			i = first + k;
			o->recs[i].ticks = same || i % MP_CANCEL_EVERY == 0 ?
				MP_MAX_TICKS :
				1 + mp_rand(&seed) % (MP_MAX_TICKS - 1);
			swt_timer_init(&timers[i], SWT_Q_ATOMIC,
				       mp_event_id(mp_owner_id, i),
				       o->recs[i].ticks);
			burst[k] = &timers[i];
		}
		now = rte_get_timer_cycles();
		for (k = 0; k < nb; k++)
			o->recs[first + k].armed_at = now;
		if (same)
			MP_CHECK(rte_event_timer_arm_tmo_tick_burst(h, burst,
				 MP_MAX_TICKS, nb) == nb,
				 "arm_tmo_tick_burst: rte_errno %d", rte_errno);
		else
			MP_CHECK(rte_event_timer_arm_burst(h, burst, nb) == nb,
				 "arm_burst: rte_errno %d", rte_errno);
		for (k = 0; k < nb; k++) {
			i = first + k;
			o->recs[i].armed = 1;
			if (i % MP_CANCEL_EVERY != 0)
				continue;
			while (rte_event_timer_cancel_burst(h, &burst[k], 1)
			       != 1 && rte_errno == EAGAIN)
				rte_pause();
			if (timers[i].state == RTE_EVENT_TIMER_CANCELED)
				o->recs[i].cancelled = 1;
			else
				MP_CHECK(timers[i].state ==
					 RTE_EVENT_TIMER_NOT_ARMED,
					 "cancel: rte_errno %d, state %d",
					 rte_errno, timers[i].state);
		}
	}
	*hp = h;
	return 0;
}

/* The free-object pool the driver arms from (white box). */
static swtim_olock_t *
mp_pool_lock(struct swtim_adapter *a)
{
	if (strcmp(swt_driver, "wheel") == 0)
		return &((struct whl_adapter *)swtim_adapter_priv(a))->
			block_pool->lock;
	return &((struct skl_adapter *)swtim_adapter_priv(a))->recycler->
		shared->lock;
}

/*
 * Arm the last timer, then take what the case says and keep it: the
 * primary kills this process holding it, as if inside an arm or cancel.
 */
static int
mp_hold_take(struct swtim_adapter *a, struct rte_event_timer *timers)
{
	struct mp_owner *o = &mp->owners[mp_owner_id];
	struct swtim_base *base = swtim_adapter_priv(a);
	struct swtim_lane *lane = swtim_base_lane(base, rte_lcore_id());
	struct mp_record *r = &o->recs[MP_TIMERS];
	struct rte_event_timer *t = &timers[MP_TIMERS];
	uint64_t start;
	unsigned int i;

	r->ticks = MP_MAX_TICKS;
	swt_timer_init(t, SWT_Q_ATOMIC, mp_event_id(mp_owner_id, MP_TIMERS),
		       r->ticks);
	r->armed_at = rte_get_timer_cycles();
	MP_CHECK(swtim_arm(a, t) == 1, "arm: rte_errno %d", rte_errno);
	r->armed = 1;
	mp->held_timer = t;
	mp->held_lane = rte_lcore_id();
	switch (mp->hold) {
	case MP_HOLD_FREE:
		/* A stopped adapter's service waits on nothing. */
		mp->ready_to_hold = 1;
		start = rte_get_timer_cycles();
		while (!mp->stopped)
			MP_CHECK(mp_seconds(start) < MP_DELIVERY_S,
				 "the primary did not stop the adapter");
		/* fall through */
	case MP_HOLD_LANE:
		MP_CHECK(swtim_lane_lock(lane) == 0, "lane lock");
		break;
	case MP_HOLD_CLAIM:
		/* A service run may have it for a moment. */
		start = rte_get_timer_cycles();
		while (!swtim_lane_claim(lane))
			MP_CHECK(mp_seconds(start) < MP_DELIVERY_S,
				 "the lane's claim stays taken");
		break;
	default:
		for (i = 0; i < SWTIM_LANES_MAX; i++)
			MP_CHECK(swtim_olock_lock(&swtim_base_lane(base, i)->
				 lock, SWTIM_OLOCK_STEAL) == 0, "lane %u", i);
		MP_CHECK(swtim_olock_lock(&base->polled.lock,
					  SWTIM_OLOCK_STEAL) == 0, "poll set");
		MP_CHECK(swtim_olock_lock(mp_pool_lock(a), SWTIM_OLOCK_STEAL)
			 == 0, "pool");
		break;
	}
	return 0;
}

static int
mp_secondary(void)
{
	struct mp_owner *o = &mp->owners[mp_owner_id];
	struct rte_event_timer_adapter_stats st;
	struct rte_event_timer_adapter *h = NULL;
	struct rte_event_timer *timers;
	struct swtim_adapter *a = NULL;
	uint64_t expected = 0, start;
	uint32_t i;

	/* Timers in memory the primary's service can write. */
	timers = rte_zmalloc("test_mp_timers", o->nb_recs * sizeof(*timers),
			     RTE_CACHE_LINE_SIZE);
	MP_CHECK(timers != NULL, "no memory for the timers");
	if (mp->dropin) {
		if (mp_dropin_arm_all(timers, &h) != 0)
			return -1;
	} else if (mp_secondary_checks(&a) != 0 ||
		   (mp->calls && mp_secondary_calls(a) != 0) ||
		   mp_arm_all(a, mp_owner_id, timers, mp->hold == MP_HOLD_NONE ?
			      o->nb_recs : MP_TIMERS, true) != 0) {
		return -1;
	}
	if (mp->calls)
		MP_CHECK(swtim_adapter_next_deadline(a, &mp->sec_deadline) == 0,
			 "next deadline");
	MP_CHECK((h != NULL ? rte_event_timer_adapter_stats_get(h, &st) :
		  swtim_adapter_stats_get(a, &st)) == 0 &&
		 st.ev_enq_count <= st.evtim_exp_count, "stats_get");
	if (o->exit_when_armed)
		return 0;
	if (mp->hold != MP_HOLD_NONE && mp_hold_take(a, timers) != 0)
		return -1;
	o->status = MP_ARMED;
	/* Between two calls: it holds nothing of the adapter's. */
	while (mp->kill_when_armed)
		pause();
	for (i = 0; i < o->nb_recs; i++)
		expected += o->recs[i].armed && !o->recs[i].cancelled;
	start = rte_get_timer_cycles();
	while (!mp->all_delivered && mp_seconds(start) < MP_DELIVERY_S)
		rte_delay_ms(1);
	MP_CHECK(mp->all_delivered, "the primary did not see every expiry");
	/* The statistics are the adapter's, read here. */
	MP_CHECK((h != NULL ? rte_event_timer_adapter_stats_get(h, &st) :
		  swtim_adapter_stats_get(a, &st)) == 0 &&
		 st.evtim_exp_count >= expected, "stats: %" PRIu64
		 " expiries, this process armed %" PRIu64 " not cancelled",
		 st.evtim_exp_count, expected);
	return 0;
}

/* ---- the primary ---- */

static char mp_prefix[64];
static char mp_huge_dir[PATH_MAX];

/* test_mp_shifted, next to this program. */
static char mp_shifted[PATH_MAX];

static pid_t
mp_secondary_start(const char *self, unsigned int owner)
{
	char role[32], prefix[96], lcores[32];
	char *argv[] = { (char *)(uintptr_t)self, role, prefix, lcores,
		(char *)(uintptr_t)"--proc-type=secondary",
		(char *)(uintptr_t)"--no-pci",
		(char *)(uintptr_t)"--log-level=lib.eal:error", NULL };
	pid_t pid;

	snprintf(role, sizeof(role), "--secondary=%u", owner);
	snprintf(prefix, sizeof(prefix), "--file-prefix=%s", mp_prefix);
	/* Lcore ids of its own: 4 and 5, both CPUs. */
	snprintf(lcores, sizeof(lcores), "--lcores=%u@(0-1)", 4 + owner);
	if (!mp->calls)
		return swt_self_spawn(argv);
	argv[0] = mp_shifted;
	pid = fork();
	if (pid == 0) {
		execv(mp_shifted, argv);
		_exit(127);
	}
	return pid;
}

/* ---- the calls case: no process-local address in shared memory ---- */

#define MP_IMAGE_RANGES_MAX 8192

/* The address ranges of what this process has loaded: its objects. */
struct mp_images {
	uintptr_t lo[MP_IMAGE_RANGES_MAX];
	uintptr_t hi[MP_IMAGE_RANGES_MAX];
	unsigned int n;
};

static int
mp_image_add(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct mp_images *im = arg;
	unsigned int i;

	RTE_SET_USED(size);
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD || im->n == MP_IMAGE_RANGES_MAX)
			continue;
		im->lo[im->n] = info->dlpi_addr + ph->p_vaddr;
		im->hi[im->n] = im->lo[im->n] + ph->p_memsz;
		im->n++;
	}
	return 0;
}

/*
 * Check that no word of [p, p + len) is an address inside one of the
 * images: a function, a table of them, a string of a library, all of
 * which are where this process has mapped them, not where another has.
 * (Other data, such as timer cycles, are far from these addresses.)
 */
static int
mp_region_check(const struct mp_images *im, const char *what,
		const void *p, size_t len)
{
	const uintptr_t *w = p;
	size_t i, nb = len / sizeof(*w);
	unsigned int k;
	Dl_info info;

	MP_CHECK(p != NULL && len != 0, "%s: nothing to check", what);
	for (i = 0; i < nb; i++)
		for (k = 0; k < im->n; k++) {
			if (w[i] < im->lo[k] || w[i] >= im->hi[k])
				continue;
			if (dladdr((void *)w[i], &info) == 0)
				info.dli_sname = info.dli_fname = NULL;
			MP_CHECK(false, "%s, byte %zu: %#" PRIxPTR ", an "
				 "address of this process (%s in %s)", what,
				 i * sizeof(*w), w[i], info.dli_sname != NULL ?
				 info.dli_sname : "?", info.dli_fname != NULL ?
				 info.dli_fname : "?");
		}
	return 0;
}

/* An rte_malloc allocation, whole. */
static int
mp_alloc_check(const struct mp_images *im, const char *what, const void *p)
{
	size_t len = 0;

	MP_CHECK(p != NULL && rte_malloc_validate(p, &len) == 0,
		 "%s: not an allocation", what);
	return mp_region_check(im, what, p, len);
}

/*
 * What the adapter keeps in shared memory: the adapter table (its
 * memzone), the driver's data with the base and its lanes, the wheels,
 * and the lanes' event buffers.
 */
static int
mp_shared_memory_check(struct swtim_adapter *a)
{
	const struct rte_memzone *mz =
		rte_memzone_lookup(SWTIM_ADAPTERS_MZ_NAME);
	struct swtim_base *base = swtim_adapter_priv(a);
	static struct mp_images im;
	unsigned int i;

	im.n = 0;
	dl_iterate_phdr(mp_image_add, &im);
	MP_CHECK(im.n > 0 && im.n < MP_IMAGE_RANGES_MAX, "%u image ranges",
		 im.n);
	MP_CHECK(mz != NULL, "no adapter table");
	if (mp_region_check(&im, "the adapter table", mz->addr, mz->len) != 0 ||
	    mp_alloc_check(&im, "the driver's data", base) != 0)
		return -1;
	if (strcmp(swt_driver, "wheel") == 0 &&
	    mp_alloc_check(&im, "the wheels",
			   ((struct whl_adapter *)base)->wheels) != 0)
		return -1;
	for (i = 0; i < SWTIM_LANES_MAX; i++) {
		const struct swtim_evbuf *buf =
			&swtim_base_lane(base, i)->evbuf;

		if ((buf->evs != NULL &&
		     mp_alloc_check(&im, "an event buffer", buf->evs) != 0) ||
		    (buf->tags != NULL &&
		     mp_alloc_check(&im, "an event buffer's tags",
				    buf->tags) != 0))
			return -1;
	}
	return 0;
}

/* Check one event and count it; -1 on a failed check. */
static int
mp_event_check(const struct rte_event *ev, uint64_t tick_cycles)
{
	unsigned int owner = ev->u64 >> MP_OWNER_SHIFT;
	uint32_t i = (uint32_t)ev->u64;
	uint64_t now = rte_get_timer_cycles();
	struct mp_record *r;

	MP_CHECK(owner <= MP_OWNER_PRIMARY && i < mp->owners[owner].nb_recs,
		 "event u64 0x%" PRIx64 " names no timer", ev->u64);
	MP_CHECK(ev->event_type == RTE_EVENT_TYPE_TIMER &&
		 ev->queue_id == SWT_Q_ATOMIC, "event type %u queue %u",
		 ev->event_type, ev->queue_id);
	r = &mp->owners[owner].recs[i];
	r->deliveries++;
	mp->owners[owner].delivered++;
	MP_CHECK(now >= r->armed_at + r->ticks * tick_cycles,
		 "owner %u timer %u early by %" PRIu64 " cycles", owner, i,
		 r->armed_at + r->ticks * tick_cycles - now);
	return 0;
}

/*
 * Follow a secondary: kill it once it is done arming if kill_one, notice
 * it died before it reported. -1 if it failed.
 */
static int
mp_secondary_poll(struct mp_owner *ow, bool kill_one)
{
	int status;

	if (ow->status == MP_ARMED && kill_one) {
		kill(ow->pid, SIGKILL);
		ow->status = MP_KILLED;
	}
	if (!ow->reaped && waitpid(ow->pid, &status, WNOHANG) == ow->pid) {
		ow->reaped = true;
		if (ow->status == MP_STARTING || ow->status == MP_ARMED) {
			mp_fail(__LINE__, "secondary %d ended (status 0x%x) "
				"before it reported", (int)ow->pid, status);
			return -1;
		}
	}
	return ow->status == MP_FAILED ? -1 : 0;
}

/*
 * Whether every timer of owner o that was not cancelled is to come: all
 * but those of a secondary killed holding its lane plainly (a lock or
 * claim whose state may be half changed), whose lane is lost with it.
 */
static bool
mp_owner_counted(unsigned int o)
{
	return o != 0 || mp->hold == MP_HOLD_NONE ||
		mp->hold == MP_HOLD_STEAL;
}

/* Events expected so far: armed and not cancelled, of counted owners. */
static uint64_t
mp_expected(void)
{
	uint64_t n = 0;
	unsigned int o;
	uint32_t i;

	for (o = 0; o <= MP_OWNER_PRIMARY; o++)
		for (i = 0; mp_owner_counted(o) && i < mp->owners[o].nb_recs;
		     i++)
			n += mp->owners[o].recs[i].armed &&
				!mp->owners[o].recs[i].cancelled;
	return n;
}

static int
mp_records_check(void)
{
	unsigned int o;
	uint32_t i;

	for (o = 0; o <= MP_OWNER_PRIMARY; o++)
		for (i = 0; i < mp->owners[o].nb_recs; i++) {
			const struct mp_record *r = &mp->owners[o].recs[i];
			unsigned int want = r->armed && !r->cancelled;

			/* A lost lane's timers: at most once; the last one,
			 * armed just before the kill, never. */
			if (!mp_owner_counted(o))
				MP_CHECK(r->deliveries <= want &&
					 (i < MP_TIMERS || r->deliveries == 0),
					 "owner %u timer %u of a dead lane: %u "
					 "deliveries", o, i, r->deliveries);
			else
				MP_CHECK(r->deliveries == want, "owner %u timer"
					 " %u (armed %u cancelled %u): %u "
					 "deliveries", o, i, r->armed,
					 r->cancelled, r->deliveries);
		}
	return 0;
}

/* Events of counted owners dequeued so far. */
static uint64_t
mp_delivered_counted(void)
{
	uint64_t n = 0;
	unsigned int o;

	for (o = 0; o <= MP_OWNER_PRIMARY; o++)
		if (mp_owner_counted(o))
			n += mp->owners[o].delivered;
	return n;
}

/*
 * Once the killed secondary's lane is found dead (by the service, which
 * waits on its lock or tries its claim when the lane is due), its last
 * timer answers remaining ticks and cancel with ENOTRECOVERABLE and stays
 * ARMED. 1 when checked, 0 while the lane is not found dead yet.
 */
static int
mp_dead_lane_check(struct swtim_adapter *a)
{
	struct swtim_lane *lane = swtim_base_lane(swtim_adapter_priv(a),
						  mp->held_lane);
	struct rte_event_timer *t = mp->held_timer;
	uint64_t rem;

	if (!swtim_lane_dead(lane))
		return 0;
	MP_CHECK(swtim_remaining_ticks_get(a, t, &rem) == -ENOTRECOVERABLE,
		 "remaining ticks on a dead lane");
	MP_CHECK(swtim_cancel(a, t) == 0 && rte_errno == ENOTRECOVERABLE,
		 "cancel on a dead lane: rte_errno %d", rte_errno);
	MP_CHECK(t->state == RTE_EVENT_TIMER_ARMED, "state %d", t->state);
	return 1;
}

/*
 * hold-free: stop the adapter once the secondary is done arming, let it
 * take its lane's lock, kill it, and free: the free finds the lane dead
 * (its one log line) and ends.
 */
static int
mp_primary_hold_free(struct swtim_adapter *a)
{
	struct mp_owner *ow = &mp->owners[0];
	uint64_t start = rte_get_timer_cycles();
	int status;

	while (!mp->ready_to_hold && ow->status != MP_FAILED)
		MP_CHECK(mp_seconds(start) < MP_SECONDARY_START_S +
			 MP_DELIVERY_S, "the secondary did not get ready");
	MP_CHECK(ow->status != MP_FAILED, "secondary: %s", ow->msg);
	MP_CHECK(swtim_adapter_stop(a) == 0, "stop");
	mp->stopped = 1;
	while (ow->status != MP_ARMED && ow->status != MP_FAILED)
		MP_CHECK(mp_seconds(start) < MP_SECONDARY_START_S +
			 MP_DELIVERY_S, "the secondary did not take the lock");
	MP_CHECK(ow->status == MP_ARMED, "secondary: %s", ow->msg);
	kill(ow->pid, SIGKILL);
	ow->status = MP_KILLED;
	start = rte_get_timer_cycles();
	while (waitpid(ow->pid, &status, WNOHANG) == 0)
		MP_CHECK(mp_seconds(start) < MP_EXIT_S, "no exit after kill");
	ow->reaped = true;
	MP_CHECK(swt_log_capture() == 0, "log capture");
	MP_CHECK(swtim_adapter_free(a) == 0, "free");
	MP_CHECK(swt_log_captured("a process died holding") == 1,
		 "free did not find the dead lane");
	MP_CHECK(swtim_adapter_lookup(mp->adapter_id) == NULL &&
		 rte_errno == ENOENT, "lookup after free");
	printf("hold-free: the adapter freed, its dead lane left alone\n");
	return 0;
}

static int
mp_primary(const char *self, const char *mode)
{
	const enum mp_hold hold = strcmp(mode, "hold-lane") == 0 ?
		MP_HOLD_LANE : strcmp(mode, "hold-claim") == 0 ?
		MP_HOLD_CLAIM : strcmp(mode, "hold-steal") == 0 ?
		MP_HOLD_STEAL : strcmp(mode, "hold-free") == 0 ?
		MP_HOLD_FREE : MP_HOLD_NONE;
	const bool kill_one = strcmp(mode, "kill") == 0 ||
		hold != MP_HOLD_NONE;
	const bool lane_lost = hold == MP_HOLD_LANE || hold == MP_HOLD_CLAIM;
	const unsigned int nb_sec = strcmp(mode, "two") == 0 ? 2 : 1;
	const bool calls = strcmp(mode, "calls") == 0;
	const uint64_t tick_cycles = (uint64_t)(((unsigned __int128)
		MP_TICK_NS * rte_get_timer_hz() + 999999999) / 1000000000);
	struct rte_event_timer_adapter_conf conf;
	struct rte_event_timer_adapter_stats st;
	struct swt_evdev_conf dconf = { .name = "event_dsw0",
		.nb_app_ports = 1 };
	struct rte_event_timer *ptimers = NULL;
	struct rte_event evs[64];
	const struct rte_memzone *mz;
	struct swtim_adapter *a;
	uint64_t start, delivered = 0, quiet_since = 0, expected = UINT64_MAX;
	unsigned int s, o, done;
	uint16_t n, k;
	bool primary_armed = false, dead_checked = false, stopped = false;
	uint64_t killed_at = 0;
	int status, dead, ret = 0;

	mz = rte_memzone_reserve(MP_MZ_NAME, sizeof(*mp), SOCKET_ID_ANY, 0);
	if (mz == NULL)
		return -1;
	mp = mz->addr;
	memset(mp, 0, sizeof(*mp));
	mp->kill_when_armed = kill_one;
	mp->dropin = strcmp(mode, "dropin") == 0;
	mp->hold = hold;
	mp->calls = calls;
	mp_owner_id = MP_OWNER_PRIMARY;
	for (o = 0; o <= MP_OWNER_PRIMARY; o++) {
		struct mp_owner *ow = &mp->owners[o];

		ow->nb_recs = o == MP_OWNER_PRIMARY ?
			(kill_one ? MP_PRIMARY_TIMERS : calls ? 1 : 0) :
			(o < nb_sec ? MP_TIMERS + (hold != MP_HOLD_NONE) : 0);
		ow->exit_when_armed = nb_sec == 2 && o == 1;
		ow->recs = rte_zmalloc("test_mp_recs", sizeof(ow->recs[0]) *
				       RTE_MAX(ow->nb_recs, 1u), 0);
		MP_CHECK(ow->recs != NULL, "no memory for records");
	}
	MP_CHECK(swt_evdev_setup(&dconf, &swt_dev) == 0, "event device");
	conf = swt_conf(0, MP_TICK_NS, (uint64_t)MP_MAX_TICKS * MP_TICK_NS,
			MP_SECONDARIES_MAX * MP_TIMERS + MP_PRIMARY_TIMERS, 0);
	a = swtim_adapter_create_with_driver(&conf, swt_port_cb,
					     &swt_dev.app_port, swt_driver,
					     NULL);
	MP_CHECK(a != NULL, "create: rte_errno %d", rte_errno);
	MP_CHECK(swt_adapter_start(a) == 0, "start");
	mp->adapter_id = conf.timer_adapter_id;
	MP_CHECK(swtim_adapter_get_info(a, &mp->info) == 0, "get_info");
	MP_CHECK(swtim_adapter_service_id_get(a, &mp->service_id) == 0,
		 "service id");
	if (kill_one || calls) {
		ptimers = rte_zmalloc("test_mp_ptimers", MP_PRIMARY_TIMERS *
				      sizeof(*ptimers), RTE_CACHE_LINE_SIZE);
		MP_CHECK(ptimers != NULL, "no memory for timers");
	}
	if (calls) {
		struct mp_record *r = &mp->owners[MP_OWNER_PRIMARY].recs[0];

		/*
		 * Stopped, with one timer armed: nothing expires and the next
		 * deadline stands still (the skiplist's moves with its scans)
		 * until the secondary has made its calls; the timer makes the
		 * deadline the lanes', not "nothing armed".
		 */
		MP_CHECK(swtim_adapter_stop(a) == 0, "stop");
		stopped = true;
		r->ticks = MP_MAX_TICKS;
		swt_timer_init(&ptimers[0], SWT_Q_ATOMIC,
			       mp_event_id(MP_OWNER_PRIMARY, 0), r->ticks);
		r->armed_at = rte_get_timer_cycles();
		MP_CHECK(swtim_arm(a, &ptimers[0]) == 1, "arm: rte_errno %d",
			 rte_errno);
		r->armed = 1;
		primary_armed = true;
		MP_CHECK(swtim_adapter_next_deadline(a, &mp->deadline) == 0 &&
			 mp->deadline != 0 && mp->deadline != UINT64_MAX,
			 "next deadline %" PRIu64, mp->deadline);
		mp->primary_lib = mp_lib_base();
		if (mp_shared_memory_check(a) != 0)
			return -1;
	}

	for (s = 0; s < nb_sec; s++) {
		mp->owners[s].pid = mp_secondary_start(self, s);
		MP_CHECK(mp->owners[s].pid > 0, "fork: %s", strerror(errno));
	}
	if (hold == MP_HOLD_FREE) {
		ret = mp_primary_hold_free(a);
		rte_event_dev_stop(swt_dev.dev_id);
		return ret;
	}

	start = rte_get_timer_cycles();
	for (;;) {
		n = swt_dequeue(&swt_dev, evs, RTE_DIM(evs));
		for (k = 0; k < n; k++) {
			if (mp_event_check(&evs[k], tick_cycles) != 0)
				ret = -1;
			delivered++;
		}
		if (n != 0)
			quiet_since = 0;
		for (s = 0, done = 0; s < nb_sec; s++) {
			if (mp_secondary_poll(&mp->owners[s], kill_one) != 0)
				ret = -1;
			done += mp->owners[s].status != MP_STARTING;
		}
		if (ret != 0)
			break;
		/* The secondary has made its calls and armed: the adapter
		 * answers it what it answered there, and starts. */
		if (stopped && mp->owners[0].status == MP_ARMED) {
			uint64_t next = 0;

			if (swtim_adapter_next_deadline(a, &next) != 0 ||
			    next != mp->sec_deadline) {
				mp_fail(__LINE__, "next deadline %" PRIu64
					", the secondary's %" PRIu64, next,
					mp->sec_deadline);
				ret = -1;
				break;
			}
			MP_CHECK(swtim_adapter_start(a) == 0, "start");
			stopped = false;
		}
		/* The primary arms on once its secondary is killed. */
		if (kill_one && !primary_armed &&
		    mp->owners[0].status == MP_KILLED) {
			primary_armed = true;
			killed_at = rte_get_timer_cycles();
			if (mp_arm_all(a, MP_OWNER_PRIMARY, ptimers,
				       MP_PRIMARY_TIMERS, false) != 0) {
				ret = -1;
				break;
			}
		}
		if (lane_lost && primary_armed && !dead_checked) {
			dead = mp_dead_lane_check(a);
			if (dead < 0) {
				ret = -1;
				break;
			}
			if (dead == 0 && mp_seconds(killed_at) >
			    MP_DEAD_FOUND_S) {
				mp_fail(__LINE__, "the dead lane was not found"
					" in %d s", MP_DEAD_FOUND_S);
				ret = -1;
				break;
			}
			dead_checked = dead == 1;
		}
		/* Counted once every record is final: it reads them all. */
		if (done == nb_sec && (!kill_one || primary_armed) &&
		    expected == UINT64_MAX)
			expected = mp_expected();
		if (mp_delivered_counted() >= expected &&
		    (!lane_lost || dead_checked)) {
			mp->all_delivered = 1;
			if (quiet_since == 0)
				quiet_since = rte_get_timer_cycles();
			if (mp_seconds(quiet_since) * 1000 > MP_QUIET_MS)
				break;
		}
		if (mp_seconds(start) > MP_SECONDARY_START_S + MP_DELIVERY_S) {
			mp_fail(__LINE__, "after %d s: %u of %u secondaries "
				"done arming, %" PRIu64 " of %" PRIu64
				" expiries", MP_SECONDARY_START_S +
				MP_DELIVERY_S, done, nb_sec, delivered,
				expected);
			ret = -1;
			break;
		}
	}

	/* The secondaries' last checks, then their exit: all bounded. */
	start = rte_get_timer_cycles();
	for (s = 0; s < nb_sec; s++) {
		struct mp_owner *ow = &mp->owners[s];

		while (ret == 0 && ow->status == MP_ARMED && !ow->reaped &&
		       mp_seconds(start) < MP_DELIVERY_S) {
			if (mp_secondary_poll(ow, false) != 0)
				ret = -1;
			rte_delay_ms(1);
		}
		if (ow->status != MP_PASSED && ow->status != MP_KILLED) {
			fprintf(stderr, "FAIL: secondary %u: status %d: %s\n",
				s, ow->status, ow->msg);
			ret = -1;
		}
		while (!ow->reaped && waitpid(ow->pid, &status, WNOHANG) == 0) {
			if (mp_seconds(start) > MP_DELIVERY_S + MP_EXIT_S)
				kill(ow->pid, SIGKILL);
			rte_delay_ms(10);
		}
		ow->reaped = true;
	}
	if (ret == 0 && mp_records_check() != 0)
		ret = -1;
	/* A lost lane's buffer may hold expired events never enqueued. */
	if (ret == 0 && (swtim_adapter_stats_get(a, &st) != 0 ||
			 st.evtim_exp_count < delivered ||
			 (!lane_lost && st.evtim_exp_count != delivered) ||
			 st.ev_enq_count != delivered)) {
		mp_fail(__LINE__, "stats: %" PRIu64 " expiries, %" PRIu64
			" enqueued, %" PRIu64 " dequeued", st.evtim_exp_count,
			st.ev_enq_count, delivered);
		ret = -1;
	}
	/* Its event buffers in use now. */
	if (ret == 0 && calls && mp_shared_memory_check(a) != 0)
		ret = -1;
	if (ret == 0)
		printf("%s: %" PRIu64 " expiries checked\n", mode, delivered);
	MP_CHECK(swtim_adapter_stop(a) == 0, "stop");
	MP_CHECK(swtim_adapter_free(a) == 0, "free");
	MP_CHECK(swtim_adapter_lookup(conf.timer_adapter_id) == NULL &&
		 rte_errno == ENOENT, "lookup after free");
	rte_event_dev_stop(swt_dev.dev_id);
	return ret;
}

/* test_mp_shifted is built next to this program. */
static int
mp_shifted_find(void)
{
	static const char name[] = "/test_mp_shifted";
	char self[PATH_MAX - sizeof(name)];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n <= 0) {
		fprintf(stderr, "FAIL: /proc/self/exe: %s\n", strerror(errno));
		return -1;
	}
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (slash != NULL)
		*slash = '\0';
	snprintf(mp_shifted, sizeof(mp_shifted), "%s%s", self, name);
	if (access(mp_shifted, X_OK) != 0) {
		fprintf(stderr, "FAIL: %s: %s\n", mp_shifted, strerror(errno));
		return -1;
	}
	return 0;
}

static void
mp_usage(const char *prog)
{
	printf("usage: %s [--help] "
	       "basic|kill|two|dropin|hold-lane|hold-claim|hold-steal|"
	       "hold-free|calls\n"
	       "Multi-process test of the driver SWTIM_TEST_DRIVER names: "
	       "the primary\nstarts secondaries of itself (--secondary=N, "
	       "given EAL arguments after it)\nthat arm, cancel and query "
	       "its adapter. Needs hugepages.\n", prog);
}

int
main(int argc, char **argv)
{
	char lcores[] = "--lcores=0@0,1@1", base[] = SWT_MP_BASE_VIRTADDR;
	char mem[] = "-m", mem_mb[16];
	char nopci[] = "--no-pci", vdev[] = "--vdev=event_dsw0";
	char loglevel[] = "--log-level=lib.eal:error";
	char prefix[96], huge[PATH_MAX + 16];
	char *eal_argv[16];
	const char *env;
	int eal_argc = 0, ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	env = getenv("SWTIM_TEST_DRIVER");
	if (env != NULL && env[0] != '\0')
		swt_driver = env;
	if (argc >= 2 && strcmp(argv[1], "--help") == 0) {
		mp_usage(argv[0]);
		return 0;
	}
	if (argc >= 2 && strncmp(argv[1], "--secondary=", 12) == 0) {
		const struct rte_memzone *mz;

		mp_owner_id = atoi(argv[1] + 12);
		argv[1] = argv[0];
		if (rte_eal_init(argc - 1, argv + 1) < 0 ||
		    (mz = rte_memzone_lookup(MP_MZ_NAME)) == NULL) {
			fprintf(stderr, "secondary: EAL or memzone: %s\n",
				rte_strerror(rte_errno));
			return 1;
		}
		mp = mz->addr;
		mp->owners[mp_owner_id].status =
			mp_secondary() == 0 ?
			MP_PASSED : MP_FAILED;
		/* The primary has what it needs; exit may be slow here. */
		_exit(0);
	}
	if (argc != 2 || (strcmp(argv[1], "basic") != 0 &&
			  strcmp(argv[1], "kill") != 0 &&
			  strcmp(argv[1], "two") != 0 &&
			  strcmp(argv[1], "dropin") != 0 &&
			  strcmp(argv[1], "hold-lane") != 0 &&
			  strcmp(argv[1], "hold-claim") != 0 &&
			  strcmp(argv[1], "hold-steal") != 0 &&
			  strcmp(argv[1], "hold-free") != 0 &&
			  strcmp(argv[1], "calls") != 0)) {
		mp_usage(argv[0]);
		return 2;
	}
	if (strcmp(argv[1], "calls") == 0 && mp_shifted_find() != 0)
		return 1;
	if (swt_hugepages_check(MP_MEM_MB, mp_huge_dir,
				sizeof(mp_huge_dir)) != 0)
		return 1;
	snprintf(mp_prefix, sizeof(mp_prefix), "swtim_mp_%d", (int)getpid());
	snprintf(prefix, sizeof(prefix), "--file-prefix=%s", mp_prefix);
	snprintf(huge, sizeof(huge), "--huge-dir=%s", mp_huge_dir);
	snprintf(mem_mb, sizeof(mem_mb), "%u", MP_MEM_MB);
	eal_argv[eal_argc++] = argv[0];
	eal_argv[eal_argc++] = lcores;
	eal_argv[eal_argc++] = mem;
	eal_argv[eal_argc++] = mem_mb;
	eal_argv[eal_argc++] = nopci;
	eal_argv[eal_argc++] = vdev;
	eal_argv[eal_argc++] = loglevel;
	eal_argv[eal_argc++] = prefix;
	eal_argv[eal_argc++] = huge;
	eal_argv[eal_argc++] = base;
	eal_argv[eal_argc] = NULL;
	if (rte_eal_init(eal_argc, eal_argv) < 0) {
		fprintf(stderr, "FAIL: rte_eal_init: %s\n",
			rte_strerror(rte_errno));
		swt_hugepages_release(mp_huge_dir, mp_prefix);
		return 1;
	}
	printf("test_mp %s: driver %s, prefix %s\n", argv[1], swt_driver,
	       mp_prefix);
	ret = mp_primary(argv[0], argv[1]);
	rte_eal_cleanup();
	swt_hugepages_release(mp_huge_dir, mp_prefix);
	printf("%s\n", ret == 0 ? "PASS" : "FAIL");
	return ret == 0 ? 0 : 1;
}
