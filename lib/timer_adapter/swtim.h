/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_H
#define SWTIM_H

/**
 * @file
 * swtim: a software event timer adapter for DPDK.
 *
 * The API mirrors DPDK's rte_event_timer_adapter API one for one and uses
 * DPDK's own types: struct rte_event_timer_adapter_conf, struct
 * rte_event_timer_adapter_info, struct rte_event_timer_adapter_stats,
 * struct rte_event_timer and enum rte_event_timer_state. An application
 * moves over by renaming rte_event_timer_adapter_X() to swtim_adapter_X()
 * and rte_event_timer_X() to swtim_X().
 *
 * Timers are kept by a driver chosen by name when the adapter is created
 * (swtim_adapter_create_with_driver()); the default driver is
 * SWTIM_DEFAULT_DRIVER. Expiry events are enqueued to the event device by
 * a service (librte_service) that the application maps to one or more
 * service lcores, or runs itself with rte_service_run_iter_on_app_lcore()
 * (start still wants it mapped to a service lcore, which need not run:
 * see swtim_adapter_start()).
 *
 * Thread safety: the control path (create, start, stop, free, lookup,
 * stats) may be called from any thread. Create, start, stop, free and
 * swtim_adapter_port_add() are serialised; one of them that finds the
 * adapter freed by another thread meanwhile answers -EINVAL. Stats and
 * info must not race a free of the same adapter. The fast path (arm,
 * cancel, remaining ticks) may be called concurrently from any EAL lcore
 * and from non-EAL threads, and a timer may be cancelled from another
 * thread than the one that armed it.
 *
 * Multi-process: adapters live in DPDK shared memory (a memzone for the
 * table, rte_malloc for the drivers' data), so in a secondary process
 * swtim_adapter_lookup() returns the adapter the primary created, and
 * swtim_arm_burst(), swtim_arm_tmo_tick_burst(), swtim_cancel_burst(),
 * swtim_remaining_ticks_get(), swtim_adapter_get_info(),
 * swtim_adapter_stats_get(), swtim_adapter_stats_reset(),
 * swtim_adapter_service_id_get() and swtim_adapter_next_deadline() work
 * there with the same contract. No extra call is needed (the skiplist
 * driver attaches librte_timer's shared lists itself at lookup).
 * - The service runs where it is mapped to a service lcore, normally
 *   the primary: it is registered in the primary's librte_service when
 *   the primary creates the adapter, and delivers every process's
 *   expiries.
 * - Only the primary creates, adds ports to, starts, stops and frees
 *   adapters: in a secondary these calls are refused with rte_errno
 *   E_RTE_SECONDARY (create returns NULL, the others -E_RTE_SECONDARY)
 *   and a log line.
 * - Each process arms from its own lcores: secondaries are started with
 *   lcore ids the primary does not use (DPDK's rule; for example primary
 *   --lcores '0@0,1@1', secondary --proc-type=secondary with the
 *   primary's --file-prefix and --lcores '4@(0-1)'). Each lcore id has a
 *   timer store of its own; non-EAL threads of every process share one,
 *   under a lock in shared memory.
 * - Event timers armed from a secondary must be in memory the primary
 *   can write (rte_malloc, rte_mempool, a memzone): the service writes
 *   their state when they expire. A secondary's arms refuse a timer
 *   outside DPDK's memory (its own heap, stack or static memory) with
 *   EINVAL and a log line; memory that DPDK maps but the primary does
 *   not share cannot be told apart.
 * - A secondary that exits, or is killed (even with SIGKILL) between
 *   two calls, loses nothing it armed: its timers are delivered and its
 *   cancels hold (the timers' memory stays allocated in the shared
 *   heap).
 * - A secondary killed inside an arm or cancel call never stalls the
 *   service or the other producers: every lock of the adapter records
 *   its holder's process, and whoever waits on a lock whose holder is
 *   dead (a zombie counts) stops waiting. Where the holder changes
 *   things with one store (the free-object pools, the list of lanes, a
 *   budget reclaim) the lock is taken over and nothing is lost. Where
 *   it may have left a timer store half changed (the lock or claim of
 *   an lcore's store, and with the skiplist driver its librte_timer
 *   list) that store, a lane, is dead: the service skips it and logs it
 *   once, its timers are never delivered (each stays ARMED, counted in
 *   nb_timers, until the adapter is freed), and arm from that lcore id,
 *   cancel and remaining ticks of its timers answer ENOTRECOVERABLE.
 *   The lanes of other lcores go on. A lane is the killed process's own
 *   lcore's, unless it was cancelling another lcore's timer or arming
 *   from a non-EAL thread (the lane all non-EAL threads share). A kill
 *   inside a call may also lose up to that call's burst of nb_timers
 *   slots (a cancel's, given back at its end). What is left to the
 *   application: to re-arm, from another lcore id, the dead lane's
 *   timers it still needs (their events will not come: set their state
 *   to RTE_EVENT_TIMER_NOT_ARMED first, as arm refuses an ARMED timer),
 *   or, to get the lane back, to re-create the adapter. A process is
 *   looked up in /proc: one in another pid namespace (another container)
 *   cannot be, so it is waited for as if alive, and its slot in the
 *   table of 128 processes is never reused. Stopping a
 *   secondary's producers (a flag its lcores poll between calls) before
 *   killing it loses nothing.
 * - Every process must run the same swtim build: lookup compares the
 *   adapter's driver with this process's and refuses (ENOTSUP, logged)
 *   a mismatch.
 */

#include <stdint.h>

#include <rte_common.h>
#include <rte_event_timer_adapter.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Number of adapters that may exist at once (ids 0 .. NUM_MAX - 1). */
#define SWTIM_ADAPTER_NUM_MAX 32

/**
 * Most event ports one adapter enqueues its expiry events through: the one
 * it is created with and those added by swtim_adapter_port_add().
 */
#define SWTIM_ADAPTER_PORTS_MAX 16

/**
 * Name of the driver that swtim_adapter_create() uses: the timing wheel,
 * whose arm, cancel and expiry cost the same whatever the number of
 * timers (see doc/performance.md). "skiplist" selects the librte_timer
 * based driver.
 */
#define SWTIM_DEFAULT_DRIVER "wheel"

/**
 * An event timer adapter. Opaque: applications only pass it around.
 */
struct swtim_adapter;

/**
 * Create an event timer adapter with the default driver, adding one event
 * port to the event device for it.
 *
 * The event device is stopped if it was started (swtim's started adapters
 * on it are stopped meanwhile, as DPDK wants adapters stopped before
 * their device, and started again after: their expiries wait, late,
 * never lost), reconfigured with one more port, the port is set up with
 * the device's default port
 * configuration (its depths and new-event threshold capped to what the
 * device is configured with), and the device is restarted if it was
 * running. If that restart fails, create fails (EIO) and the device
 * stays stopped: the adapters on it leave it alone, their expiries
 * waiting, until the application starts it again. A port added this
 * way is reused by a later create on the same device once the adapter
 * that used it has been freed, as long as the device keeps that
 * configuration: once the application has configured
 * the device again (its port count changed, or the port is linked to a
 * queue), swtim's freed ports are the application's and a create adds a
 * new one.
 *
 * As with DPDK's adapter, the port takes new events only up to the
 * device's default new_event_threshold (event_dsw: 1024). event_dsw lets
 * each of its ports keep up to 128 credits idle, so with eight or more
 * ports that dequeue that can be reached for good, and every expiry is
 * then refused (the adapter logs a warning after a second). Such
 * applications pass a port of their own, with a higher threshold,
 * through swtim_adapter_create_ext().
 *
 * @param conf
 *   The adapter configuration. timer_tick_ns, max_tmo_ns and nb_timers
 *   must be non-zero and max_tmo_ns >= timer_tick_ns.
 * @return
 *   The adapter, or NULL with rte_errno set:
 *   - EINVAL: NULL conf, bad event device, id >= SWTIM_ADAPTER_NUM_MAX,
 *     zero tick/nb_timers, max_tmo_ns < timer_tick_ns, bad flags,
 *     nb_timers more than the driver can index (the wheel: 2^31 less
 *     some 4.2M, its slot blocks' indices; the skiplist: 2^32 less its
 *     objects' slack);
 *   - EEXIST: an adapter with this id exists;
 *   - ERANGE: tick finer than 1 us, the finest swtim supports, without
 *     RTE_EVENT_TIMER_ADAPTER_F_ADJUST_RES, or so long (centuries) that
 *     it does not fit in 64 bits of timer cycles;
 *   - ENOMEM: out of memory;
 *   - E_RTE_SECONDARY: called in a secondary process;
 *   - any error of the event device port setup.
 *   A refused create leaves nothing behind but, when the set-up of the
 *   port it added failed, that port on the device (unlinked, not set up:
 *   an event device cannot be given one port fewer safely), which the
 *   next create on the device sets up and takes instead of adding one.
 */
struct swtim_adapter *
swtim_adapter_create(const struct rte_event_timer_adapter_conf *conf);

/**
 * Create an event timer adapter with the default driver and an event port
 * supplied by the application's callback.
 *
 * @param conf
 *   The adapter configuration, as for swtim_adapter_create().
 * @param conf_cb
 *   Called once to obtain the event port the adapter enqueues expiry
 *   events on. Must not be NULL. A negative return -E fails the create
 *   with rte_errno E (INT_MIN, the negation of no int: EINVAL).
 * @param conf_arg
 *   Passed to conf_cb unchanged.
 * @return
 *   The adapter, or NULL with rte_errno set as for swtim_adapter_create().
 */
struct swtim_adapter *
swtim_adapter_create_ext(const struct rte_event_timer_adapter_conf *conf,
			 rte_event_timer_adapter_port_conf_cb_t conf_cb,
			 void *conf_arg);

/**
 * Create an event timer adapter with a named driver and driver options.
 *
 * @param conf
 *   The adapter configuration, as for swtim_adapter_create().
 * @param conf_cb
 *   Port callback as for swtim_adapter_create_ext(), or NULL to add a port
 *   to the event device as swtim_adapter_create() does.
 * @param conf_arg
 *   Passed to conf_cb unchanged.
 * @param driver
 *   Name of a registered driver, or NULL for SWTIM_DEFAULT_DRIVER.
 * @param devargs
 *   Driver options as "key=value,key=value" (rte_kvargs syntax), or NULL
 *   or "" for none.
 * @return
 *   The adapter, or NULL with rte_errno set as for swtim_adapter_create();
 *   an unknown driver, an option the driver does not know, or a bad option
 *   value gives EINVAL and a log line naming it.
 */
struct swtim_adapter *
swtim_adapter_create_with_driver(
	const struct rte_event_timer_adapter_conf *conf,
	rte_event_timer_adapter_port_conf_cb_t conf_cb, void *conf_arg,
	const char *driver, const char *devargs);

/**
 * Get the adapter's information.
 *
 * @param adapter
 *   The adapter.
 * @param[out] adapter_info
 *   Filled with the resolution in force (min_resolution_ns), the maximum
 *   timeout, the configuration (with the tick in force), the capabilities
 *   and the event port used for expiry events.
 * @return
 *   0, or -EINVAL for a NULL/bad adapter or a NULL adapter_info.
 */
int
swtim_adapter_get_info(const struct swtim_adapter *adapter,
		       struct rte_event_timer_adapter_info *adapter_info);

/**
 * Start the adapter: its service begins to deliver expiry events.
 *
 * @param adapter
 *   The adapter.
 * @return
 *   - 0: started;
 *   - -EINVAL: NULL or bad adapter;
 *   - -EALREADY: already started;
 *   - -ENOENT: the adapter's service is mapped to no service lcore;
 *   - -E_RTE_SECONDARY: called in a secondary process.
 *   Unlike DPDK's software adapter, several mapped service lcores are
 *   allowed.
 */
int
swtim_adapter_start(const struct swtim_adapter *adapter);

/**
 * Stop the adapter.
 *
 * Returns once the service no longer runs the adapter. Armed timers stay
 * armed; those that fall due while stopped are delivered after the next
 * start. Expiries already taken from the timer lists are kept and
 * delivered after the next start.
 *
 * @param adapter
 *   The adapter.
 * @return
 *   0 (also when not started), -EINVAL for a NULL/bad adapter,
 *   -E_RTE_SECONDARY in a secondary process.
 */
int
swtim_adapter_stop(const struct swtim_adapter *adapter);

/**
 * Look up an adapter by id.
 *
 * In a secondary process: the adapter the primary created, usable there
 * for the fast path, info, statistics, the service id and the next
 * deadline (see the file's Multi-process notes); the same pointer in
 * every process.
 *
 * @param adapter_id
 *   The id given in the configuration at create.
 * @return
 *   The adapter, or NULL with rte_errno EINVAL (id out of range), ENOENT
 *   (no adapter with this id), or, in a secondary, ENOTSUP (the primary
 *   runs another swtim build) or a driver's error setting the adapter up
 *   in this process (logged).
 */
struct swtim_adapter *
swtim_adapter_lookup(uint16_t adapter_id);

/**
 * Free a stopped adapter and every outstanding timer's resources.
 *
 * Timers still armed are set to RTE_EVENT_TIMER_CANCELED; expiry events
 * not yet accepted by the event device are discarded (and logged). Free
 * waits for service lcores still in a run of the adapter's service; a
 * thread that runs the service itself (rte_service_run_iter_on_app_lcore())
 * must have returned from its last such call before free is called, as
 * DPDK cannot unregister a service that such a call is about to run. A
 * port that swtim_adapter_create() added becomes available to the next
 * create on the same device.
 *
 * @param adapter
 *   The adapter.
 * @return
 *   0, -EINVAL for a NULL/bad adapter, -EBUSY while started,
 *   -E_RTE_SECONDARY in a secondary process.
 */
int
swtim_adapter_free(struct swtim_adapter *adapter);

/**
 * Get the id of the service that delivers the adapter's expiry events.
 *
 * @param adapter
 *   The adapter.
 * @param[out] service_id
 *   The service id.
 * @return
 *   0, or -EINVAL for a NULL/bad adapter or NULL service_id. (DPDK's
 *   -ESRCH, for an adapter without a service, does not occur: every
 *   swtim adapter has one.)
 */
int
swtim_adapter_service_id_get(struct swtim_adapter *adapter,
			     uint32_t *service_id);

/**
 * Get the adapter's statistics.
 *
 * - evtim_exp_count: expiries taken from the timer lists;
 * - ev_enq_count: expiry events accepted by the event device;
 * - ev_inv_count: events the device rejected as invalid;
 * - evtim_retry_count: expiry events that the device refused at their
 *   first attempt and that were kept to be retried;
 * - adapter_tick_count: adapter ticks begun since create or the last
 *   reset, brought up to the moment of the call while started;
 * - evtim_drop_count: expiry events dropped; always 0, as swtim drops
 *   none: expiries that find no room, or no memory to keep their
 *   events, wait in order until there is.
 *
 * @param adapter
 *   The adapter.
 * @param[out] stats
 *   The statistics.
 * @return
 *   0, or -EINVAL for a NULL/bad adapter or NULL stats.
 */
int
swtim_adapter_stats_get(struct swtim_adapter *adapter,
			struct rte_event_timer_adapter_stats *stats);

/**
 * Reset the adapter's statistics to zero.
 *
 * @param adapter
 *   The adapter.
 * @return
 *   0, or -EINVAL for a NULL/bad adapter.
 */
int
swtim_adapter_stats_reset(struct swtim_adapter *adapter);

/**
 * Arm a burst of event timers, each with its own timeout_ticks.
 *
 * Timers are armed from the front of the array; arming stops at the first
 * failure, with rte_errno set:
 * - EALREADY: the timer is already ARMED, or comes a second time in the
 *   burst (its first occurrence armed it);
 * - EINVAL: NULL/bad adapter or timer; state neither NOT_ARMED nor
 *   CANCELED; ev.sched_type differs from the destination queue's schedule
 *   type, or ev.queue_id names a queue the device does not have (state
 *   set to RTE_EVENT_TIMER_ERROR); timeout_ticks of 0 (state
 *   RTE_EVENT_TIMER_ERROR_TOOEARLY); timeout above max_tmo_ns (state
 *   RTE_EVENT_TIMER_ERROR_TOOLATE); in a secondary process, a timer
 *   outside DPDK's memory (state untouched);
 * - ENOSPC: nb_timers timers are already armed;
 * - ENOTRECOVERABLE: the calling lcore's timer store is dead (a process
 *   was killed inside a call holding it: see "Multi-process" above).
 * Armed timers are in state RTE_EVENT_TIMER_ARMED.
 *
 * Thread safety: MT safe, from EAL lcores and non-EAL threads.
 *
 * @param adapter
 *   The adapter.
 * @param evtims
 *   The timers. Each must stay valid while it is armed; from a secondary
 *   process, in memory the primary can write (rte_malloc, a mempool).
 * @param nb_evtims
 *   Number of timers.
 * @return
 *   Number of timers armed.
 */
uint16_t
swtim_arm_burst(const struct swtim_adapter *adapter,
		struct rte_event_timer **evtims, uint16_t nb_evtims);

/**
 * Arm a burst of event timers, all with the same timeout.
 *
 * As swtim_arm_burst(), with timeout_ticks applied to every timer (and
 * written to each timer's timeout_ticks field).
 *
 * @param adapter
 *   The adapter.
 * @param evtims
 *   The timers.
 * @param timeout_ticks
 *   Timeout in adapter ticks, from now.
 * @param nb_evtims
 *   Number of timers.
 * @return
 *   Number of timers armed.
 */
uint16_t
swtim_arm_tmo_tick_burst(const struct swtim_adapter *adapter,
			 struct rte_event_timer **evtims,
			 uint64_t timeout_ticks, uint16_t nb_evtims);

/**
 * Cancel a burst of armed event timers.
 *
 * Timers are cancelled from the front; cancelling stops at the first
 * failure, with rte_errno set:
 * - EALREADY: the timer is already CANCELED, or comes a second time in
 *   the burst (its first occurrence cancelled it);
 * - EINVAL: NULL/bad adapter or timer, or the timer is not ARMED (for
 *   example it has expired);
 * - EAGAIN: the timer is expiring at this very moment; a retry gives
 *   EINVAL once its state has become NOT_ARMED (a periodic timer: a
 *   retry cancels it). Also while another thread's arm of it has not
 *   returned yet (the wheel driver's single arm: ARMED is visible a
 *   moment before the timer can be found); a retry cancels it;
 * - ENOTRECOVERABLE: the timer's store is dead (a process was killed
 *   inside a call holding it: see "Multi-process" above), or the process
 *   arming it was killed inside that arm; the timer stays ARMED and will
 *   not expire.
 * A cancelled timer is in state RTE_EVENT_TIMER_CANCELED and no expiry
 * event of it is enqueued after the cancel returned: a periodic timer's
 * event that still waits in the adapter for the event device (under
 * back-pressure, or with the adapter stopped) is taken back and never
 * enqueued; events of its earlier periods may still be in the device.
 *
 * Thread safety: MT safe; any thread may cancel any timer.
 *
 * @param adapter
 *   The adapter.
 * @param evtims
 *   The timers.
 * @param nb_evtims
 *   Number of timers.
 * @return
 *   Number of timers cancelled.
 */
uint16_t
swtim_cancel_burst(const struct swtim_adapter *adapter,
		   struct rte_event_timer **evtims, uint16_t nb_evtims);

/**
 * Get the number of adapter ticks left before an armed timer expires.
 *
 * @param adapter
 *   The adapter.
 * @param evtim
 *   An ARMED timer.
 * @param[out] ticks_remaining
 *   Ticks left, rounded up; 0 once the timer is due.
 * @return
 *   0, -EINVAL for a NULL/bad argument or a timer that is not ARMED, or
 *   -ENOTRECOVERABLE for a timer of a dead store (see "Multi-process").
 */
int
swtim_remaining_ticks_get(const struct swtim_adapter *adapter,
			  const struct rte_event_timer *evtim,
			  uint64_t *ticks_remaining);

/**
 * When the adapter next needs its service to run.
 *
 * For applications that drive the service themselves (for example with
 * rte_service_run_iter_on_app_lcore() on an lcore that also does other
 * work) and want to sleep in between instead of polling. A timer armed
 * after the call may be due earlier: ask again after arming.
 *
 * The wheel driver answers with its next expiry; the skiplist driver,
 * which cannot look into librte_timer's lists, with its next tick while
 * any timer is armed.
 *
 * Thread safety: MT safe.
 *
 * @param adapter
 *   The adapter.
 * @param[out] next_cycles
 *   Time, in rte_get_timer_cycles() units, by which the service must run
 *   again: 0 if it has work now (expiry events waiting for the device),
 *   UINT64_MAX if no timer is armed.
 * @return
 *   0, or -EINVAL for a NULL/bad adapter or NULL next_cycles.
 */
int
swtim_adapter_next_deadline(const struct swtim_adapter *adapter,
			    uint64_t *next_cycles);

/**
 * Give the adapter another event port for its expiry events.
 *
 * An adapter enqueues through the port it was created with. When its
 * service is mapped to several service lcores, their runs expire
 * different producer lcores' timers at the same time, and with one port
 * they take turns at it (under a lock). With more ports, each producer
 * lcore's timers are delivered through one of them, round robin in the
 * order the producer lcores first armed a timer, so runs working on
 * different producer lcores' timers enqueue in parallel; the events of
 * one producer lcore still go through one port, in order. DPDK's adapter
 * has one port and no such call.
 *
 * The port must be set up on the adapter's event device and, like the
 * adapter's own, not linked to any queue; the application keeps it (free
 * does not release it). Add ports before the first start.
 *
 * Thread safety: MT safe against other control-path calls.
 *
 * @param adapter
 *   The adapter, created and never started.
 * @param event_port_id
 *   The port.
 * @return
 *   - 0: the adapter also uses the port;
 *   - -EINVAL: NULL or bad adapter, or no such port on the device;
 *   - -EBUSY: the adapter has been started;
 *   - -EEXIST: the adapter uses that port already;
 *   - -ENOSPC: the adapter has SWTIM_ADAPTER_PORTS_MAX ports;
 *   - -E_RTE_SECONDARY: called in a secondary process.
 */
int
swtim_adapter_port_add(struct swtim_adapter *adapter, uint8_t event_port_id);

/**
 * Single-timer convenience wrapper around swtim_arm_burst().
 *
 * @param adapter
 *   The adapter.
 * @param evtim
 *   The timer.
 * @return
 *   1 if armed, 0 with rte_errno set otherwise.
 */
static inline uint16_t
swtim_arm(const struct swtim_adapter *adapter, struct rte_event_timer *evtim)
{
	return swtim_arm_burst(adapter, &evtim, 1);
}

/**
 * Single-timer convenience wrapper around swtim_cancel_burst().
 *
 * @param adapter
 *   The adapter.
 * @param evtim
 *   The timer.
 * @return
 *   1 if cancelled, 0 with rte_errno set otherwise.
 */
static inline uint16_t
swtim_cancel(const struct swtim_adapter *adapter, struct rte_event_timer *evtim)
{
	return swtim_cancel_burst(adapter, &evtim, 1);
}

#ifdef __cplusplus
}
#endif

#endif /* SWTIM_H */
