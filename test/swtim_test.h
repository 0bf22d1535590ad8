/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_TEST_H
#define SWTIM_TEST_H

/**
 * @file
 * The small harness every swtim test program is built on.
 *
 * A test program is a table of cases run in order by swt_main(). The
 * harness starts EAL itself (no hugepages, no shared config, a file
 * prefix unique to the process so meson may run tests in parallel), sets
 * up one event device with an ATOMIC and a PARALLEL queue, one worker
 * port linked to both and a few unlinked ports that adapters may borrow
 * through swt_port_cb(), and runs the adapters' services on a service
 * lcore. Adapters are made with the driver named by the environment
 * variable SWTIM_TEST_DRIVER, so the same program checks every driver.
 *
 * Lcores: 0 is the main lcore (it runs the cases and usually dequeues),
 * SWT_SERVICE_LCORE runs services, SWT_FIRST_PRODUCER_LCORE onwards are
 * free for rte_eal_remote_launch() through swt_launch(). With only two
 * CPUs, lcores 2 and up float over both.
 *
 * After each case the harness joins launched lcores, stops and frees
 * every adapter that is left, drains the worker ports and frees memory
 * from swt_calloc(), in that order: timers must outlive the adapters
 * that may still write their state.
 */

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_eventdev.h>
#include <rte_event_timer_adapter.h>
#include <rte_lcore.h>

#include "swtim.h"

/** Queue ids on every device set up by swt_evdev_setup(). */
#define SWT_Q_ATOMIC	0
#define SWT_Q_PARALLEL	1
#define SWT_NB_QUEUES	2

/** The port cases dequeue from; linked to every queue. */
#define SWT_WORKER_PORT	0

/** Lcore that runs the adapters' (and event_sw's) services. */
#define SWT_SERVICE_LCORE	1
/** First of the lcores free for swt_launch(). */
#define SWT_FIRST_PRODUCER_LCORE	2
/** Number of lcores free for swt_launch(). */
#define SWT_NB_PRODUCER_LCORES	4

/** Return value of a case that passed. */
#define SWT_PASS	0
/** Return value of a case that failed. */
#define SWT_FAIL	(-1)

/** One test case: returns SWT_PASS or SWT_FAIL. */
struct swt_case {
	const char *name;
	int (*fn)(void);
};

#define SWT_CASE(f) { #f, f }

/** How to set up one event device. */
struct swt_evdev_conf {
	/** vdev name given to EAL, e.g. "event_dsw0". */
	const char *name;
	/** Unlinked ports, after the worker port, for swt_port_cb(). */
	uint8_t nb_app_ports;
	/** nb_events_limit; 0 for the device maximum. */
	int32_t nb_events_limit;
	/** new_event_threshold of the unlinked ports; 0 for the default. */
	int32_t app_new_event_threshold;
};

/** An event device set up by swt_evdev_setup(). */
struct swt_evdev {
	uint8_t dev_id;
	/** First unlinked port; they are app_port .. app_port + nb - 1. */
	uint8_t app_port;
	uint8_t nb_app_ports;
	/** Port count right after setup (before any adapter added one). */
	uint32_t nb_ports_at_setup;
};

/** Driver under test (SWTIM_TEST_DRIVER, else SWTIM_DEFAULT_DRIVER). */
extern const char *swt_driver;
/** The device swt_main() sets up: event_dsw0. */
extern struct swt_evdev swt_dev;

/* ---- failure reporting ---- */

void swt_fail(const char *file, int line, const char *fmt, ...)
	__rte_format_printf(3, 4);
/** True once any thread reported a failure in the current case. */
bool swt_failed(void);
/**
 * Report a failure and end the process at once, status 1: for a launched
 * lcore stuck for good (say, spinning on a lock left held), which the
 * harness could not join after the case.
 */
__rte_noreturn void swt_fail_stuck(const char *file, int line,
				   const char *what);
/** swt_fail_stuck() unless cond. */
#define SWT_ASSERT_NOT_STUCK(cond, what) do { \
	if (!(cond)) \
		swt_fail_stuck(__FILE__, __LINE__, what); \
} while (0)

#define SWT_ASSERT(cond, fmt, ...) do { \
	if (!(cond)) { \
		swt_fail(__FILE__, __LINE__, "'%s': " fmt, #cond, \
			 ##__VA_ARGS__); \
		return SWT_FAIL; \
	} \
} while (0)

#define SWT_ASSERT_EQ(a, b) do { \
	int64_t a_ = (int64_t)(a); \
	int64_t b_ = (int64_t)(b); \
	if (a_ != b_) { \
		swt_fail(__FILE__, __LINE__, "%s == %s: %" PRId64 \
			 " != %" PRId64, #a, #b, a_, b_); \
		return SWT_FAIL; \
	} \
} while (0)

/** expr must give NULL with rte_errno err. */
#define SWT_ASSERT_NULL_ERRNO(expr, err) do { \
	rte_errno = 0; \
	const void *p_ = (expr); \
	int e_ = rte_errno; \
	if (p_ != NULL || e_ != (err)) { \
		swt_fail(__FILE__, __LINE__, "%s: want NULL/%s, got %p/%s", \
			 #expr, #err, p_, \
			 p_ != NULL ? "-" : rte_strerror(e_)); \
		return SWT_FAIL; \
	} \
} while (0)

/** A burst call (arm/cancel) must return want with rte_errno err. */
#define SWT_ASSERT_BURST(expr, want, err) do { \
	rte_errno = 0; \
	int64_t n_ = (int64_t)(expr); \
	int e_ = rte_errno; \
	if (n_ != (int64_t)(want) || e_ != (err)) { \
		swt_fail(__FILE__, __LINE__, "%s: want %" PRId64 \
			 "/%s, got %" PRId64 "/%d (%s)", #expr, \
			 (int64_t)(want), #err, n_, e_, rte_strerror(e_)); \
		return SWT_FAIL; \
	} \
} while (0)

/** A call must succeed (return 0). */
#define SWT_ASSERT_OK(expr) do { \
	int r_ = (expr); \
	if (r_ != 0) { \
		swt_fail(__FILE__, __LINE__, "%s: returned %d (%s)", \
			 #expr, r_, rte_strerror(r_ < 0 ? -r_ : r_)); \
		return SWT_FAIL; \
	} \
} while (0)

/* ---- program structure ---- */

/**
 * Read the program's arguments, then start EAL with the harness's
 * arguments plus a --vdev per name in vdevs (NULL-terminated; NULL for
 * just event_dsw0). The arguments are names of cases to run, all of them
 * if none; --help prints the usage and the cases and exits. Returns 0,
 * or -1 (a name no case has, or EAL failing).
 */
int swt_init(int argc, char **argv, const char *const *vdevs,
	     const struct swt_case *cases, unsigned int nb);
/**
 * Run the cases swt_init() chose, in order; prints one line per case and
 * "N passed, M failed".
 */
int swt_run(const struct swt_case *cases, unsigned int nb);
/** Free what is left, clean EAL up; returns ret, or 1 if cleanup failed. */
int swt_fini(int ret);
/** swt_init() + swt_evdev_setup(swt_dev, event_dsw0) + swt_run() + fini. */
int swt_main(int argc, char **argv, const struct swt_case *cases,
	     unsigned int nb);

/* ---- event device ---- */

/**
 * Configure, set up, link and start an event device. Devices with a
 * scheduling service (event_sw) get it mapped to SWT_SERVICE_LCORE.
 * Every device set up here is drained after each case.
 */
int swt_evdev_setup(const struct swt_evdev_conf *conf, struct swt_evdev *dev);
/** The event device's current port count. */
uint32_t swt_evdev_port_count(uint8_t dev_id);
/** Dequeue up to n events from the worker port, without waiting. */
uint16_t swt_dequeue(const struct swt_evdev *dev, struct rte_event *evs,
		     uint16_t n);
/**
 * Dequeue until n events came or timeout_ms passed; the events go to evs
 * (may be NULL). Returns how many came (at most n).
 */
unsigned int swt_collect(const struct swt_evdev *dev, struct rte_event *evs,
			 unsigned int n, unsigned int timeout_ms);
/** Dequeue and drop events until none came for quiet_ms; returns count. */
unsigned int swt_drain(const struct swt_evdev *dev, unsigned int quiet_ms);
/** The schedule type of queue q on devices set up here. */
uint8_t swt_queue_sched_type(uint8_t q);

/* ---- adapters ---- */

/** A configuration on swt_dev. */
struct rte_event_timer_adapter_conf
swt_conf(uint16_t id, uint64_t tick_ns, uint64_t max_tmo_ns,
	 uint64_t nb_timers, uint64_t flags);
/**
 * Port callback handing out a set-up port: conf_arg points to the port
 * id (a uint8_t). swt_port_arg(p) gives such a pointer for port p.
 */
int swt_port_cb(uint16_t id, uint8_t event_dev_id, uint8_t *event_port_id,
		void *conf_arg);
void *swt_port_arg(uint8_t port);
/**
 * Create an adapter with the driver under test. port >= 0: the adapter
 * gets that set-up port through swt_port_cb(); port < 0: no callback,
 * the library adds a port to the device.
 */
struct swtim_adapter *
swt_adapter_create(const struct rte_event_timer_adapter_conf *conf,
		   int port);
/**
 * Map the adapter's service to lcore (made a service lcore if needed) and
 * start the lcore's service loop.
 */
int swt_service_map(struct swtim_adapter *a, unsigned int lcore);
/**
 * Map the adapter's service to lcore (made a service lcore if needed),
 * leaving its service loop as it is: start wants a mapped service lcore,
 * which need not run.
 */
int swt_service_map_only(struct swtim_adapter *a, unsigned int lcore);
/** Unmap the adapter's service from lcore. */
int swt_service_unmap(struct swtim_adapter *a, unsigned int lcore);
/** Stop lcore as a service lcore and give it back to EAL. */
int swt_service_lcore_release(unsigned int lcore);
/** Map the service to SWT_SERVICE_LCORE and start the adapter. */
int swt_adapter_start(struct swtim_adapter *a);
/** The tick in force, in ns (get_info().min_resolution_ns). */
uint64_t swt_adapter_tick_ns(const struct swtim_adapter *a);
/** Stop and free every adapter that still exists; returns the count. */
unsigned int swt_adapters_cleanup(void);

/* ---- timers and memory ---- */

/** Zeroed, cache-aligned memory freed by the harness after the case. */
void *swt_calloc(size_t nb, size_t size);
/** n zeroed timers, freed after the case. */
struct rte_event_timer *swt_timers(unsigned int n);
/** Pointers to timers[0..n-1], freed after the case. */
struct rte_event_timer **swt_timer_ptrs(struct rte_event_timer *timers,
					unsigned int n);
/**
 * Make t a fresh NOT_ARMED timer for queue q (sched type to match),
 * carrying u64, with timeout_ticks.
 */
void swt_timer_init(struct rte_event_timer *t, uint8_t q, uint64_t u64,
		    uint64_t timeout_ticks);
/** Cancel t, retrying while the adapter says EAGAIN; returns 1 or 0. */
uint16_t swt_cancel_retry(const struct swtim_adapter *a,
			  struct rte_event_timer *t);

/* ---- log ---- */

/** Capture what the library logs from now on (rte_openlog_stream()). */
int swt_log_capture(void);
/**
 * Stop capturing; the number of times needle occurs in what was logged
 * (printed when none).
 */
unsigned int swt_log_captured(const char *needle);

/* ---- lcores ---- */

/** Launch fn on lcore; the harness joins it after the case. */
int swt_launch(lcore_function_t *fn, void *arg, unsigned int lcore);
/** Wait for every launched lcore; returns the number that returned != 0. */
int swt_join(void);

/* ---- time and randomness ---- */

static inline uint64_t
swt_now(void)
{
	return rte_get_timer_cycles();
}

/** ns converted to timer cycles, rounded down. */
uint64_t swt_ns_to_cycles(uint64_t ns);

static inline uint64_t
swt_ms_to_cycles(uint64_t ms)
{
	return swt_ns_to_cycles(ms * 1000000);
}

/** ns as whole ticks of tick_ns, at least 1. */
static inline uint64_t
swt_ticks(uint64_t ns, uint64_t tick_ns)
{
	uint64_t t = ns / tick_ns;

	return t > 0 ? t : 1;
}

/** Cycles as ms. */
double swt_cycles_to_ms(uint64_t cycles);
/**
 * Timer cycles this process's threads have spent ready to run and kept
 * off a CPU by others, added up over the threads (the kernel's
 * schedstat; 0 where it does not keep them). A bound on lateness or on a
 * wait is generous only on a machine that runs the test's threads: a
 * case adds what this grew by meanwhile to its bound, so that a machine
 * with many more busy threads than CPUs does not fail it, while a late
 * expiry on a machine that ran the test still does.
 */
uint64_t swt_cpu_waited(void);
/**
 * The most swt_bound_plus_waited() adds: 20 s, under the timeout of
 * every suite that uses it (60 s and more).
 */
#define SWT_WAITED_MAX_MS 20000
/**
 * bound, plus what swt_cpu_waited() grew by after it returned since, up
 * to SWT_WAITED_MAX_MS.
 */
uint64_t swt_bound_plus_waited(uint64_t bound, uint64_t since);
/** Sleep, giving the CPU to the service lcore on small machines. */
void swt_sleep_ms(unsigned int ms);
/** Give the CPU away briefly: for polling loops that found nothing. */
void swt_idle(void);

/** Seed for a case's random stream (printed, set with SWTIM_TEST_SEED). */
uint64_t swt_seed(void);

/** xorshift64*: a private, lock-free stream per thread. */
static inline uint64_t
swt_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * UINT64_C(0x2545F4914F6CDD1D);
}

/** Uniform in [lo, hi]. */
static inline uint64_t
swt_rand_range(uint64_t *state, uint64_t lo, uint64_t hi)
{
	return lo + swt_rand(state) % (hi - lo + 1);
}

/* ---- multi-process: hugepages ---- */

/**
 * EAL argument for a primary process whose secondaries must map its
 * memory at the same addresses: DPDK otherwise puts it where the kernel
 * places mappings, near the top of the address space, where a
 * secondary's own libraries (and ASan's allocator) may already be, and
 * the secondary's EAL init fails ("Cannot get a virtual area at
 * requested address"). 48 TB is above ASan's shadow memory and far below
 * where mmap() and the program are put.
 */
#define SWT_MP_BASE_VIRTADDR "--base-virtaddr=0x300000000000"

/**
 * Find a hugetlbfs mount and mb MB of free hugepages, or print why not
 * (a FAIL line saying how to get them).
 *
 * @param mb
 *   Megabytes of hugepages wanted free.
 * @param[out] dir
 *   The mount point.
 * @param len
 *   Size of dir.
 * @return
 *   0, or -1 (printed).
 */
int swt_hugepages_check(unsigned int mb, char *dir, size_t len);

/**
 * Remove the hugepage files a group of processes left: they outlive the
 * processes and keep their pages from everyone else.
 *
 * @param dir
 *   The hugetlbfs mount the group used.
 * @param prefix
 *   The group's --file-prefix.
 */
void swt_hugepages_release(const char *dir, const char *prefix);

/** Bytes allocated from the rte_malloc heaps of every socket. */
uint64_t swt_heap_bytes(void);

/**
 * Run this program again, as a child process: how the multi-process
 * tests and benchmarks start their secondaries (a fork alone would
 * inherit the primary's EAL).
 *
 * @param argv
 *   The child's arguments, argv[0] included, NULL-terminated.
 * @return
 *   The child's pid, or -1 (errno set) if there is no child.
 */
pid_t swt_self_spawn(char *const argv[]);

#endif /* SWTIM_TEST_H */
