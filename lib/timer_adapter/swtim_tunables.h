/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_TUNABLES_H
#define SWTIM_TUNABLES_H

/**
 * @file
 * Every tunable of the generic layer, each with the reason for its
 * value: what was measured, or why that number where nothing was, and
 * what goes wrong if it is too low or too high. The headers and files
 * that use them include this one; nothing here depends on anything else.
 *
 * Not here: the API's limits (swtim.h: SWTIM_ADAPTER_NUM_MAX,
 * SWTIM_ADAPTER_PORTS_MAX), what every driver must have
 * (swtim_driver.h: SWTIM_MIN_TICK_NS and the driver table's sizes), the
 * range of the max_sleep_us option (swtim_idle.h) and layouts (the
 * process tag's bits, swtim_proc.h). The drivers' tunables are in their
 * private headers (whl_private.h, skl_private.h, skl_recycler.h).
 */

/*
 * The clock (swtim_base.c). A tick is cut in up to 2^SWTIM_GRAIN_SHIFT_MAX
 * grains, each of at least 2^SWTIM_GRAIN_MIN_BITS timer cycles (0.4 ms at
 * 2.6 GHz: the service steps through no more than that many grains a
 * second). A grain is a whole number of cycles, rounded up, so a timeout
 * of n ticks placed as n << grain_shift grains is never shorter than n
 * ticks and at most n * 2^-SWTIM_GRAIN_MIN_BITS ticks longer (the minimum
 * grain bounds the rounding): less than what rounding the tick itself to
 * cycles gives at the finest ticks. Ticks under twice the minimum grain
 * are one grain.
 */
#define SWTIM_GRAIN_SHIFT_MAX 4u
#define SWTIM_GRAIN_MIN_BITS 20u

/*
 * Bursts go through the checks and to the driver SWTIM_BURST_CHUNK timers
 * at a time (swtim_fastpath.c): the filter of swtim_burst_seen_before()
 * covers one chunk, and a timer repeated in a later chunk is found armed
 * (or cancelled) by then, as one call per timer in turn would find it.
 * Over a whole burst of thousands the filter fills up, and every timer
 * was compared with all those before it: 60000 timers in one call took
 * 1.24 s (16 s under ASan); in chunks of 64, the width of the filter, the
 * same test takes 597 ms in all.
 */
#define SWTIM_BURST_CHUNK 64

/*
 * Most expiries a service run asks a driver to put into a lane's buffer
 * before it offers them to the device (struct swtim_driver_ops.expire):
 * workers start on a large expiry before the run has expired all of it,
 * and a driver that holds its store's lock while it expires (the wheel)
 * keeps a producer arming there waiting a few microseconds at most;
 * large enough that each enqueue call, and each take of that lock, is
 * spread over many timers.
 */
#define SWTIM_EXPIRE_BURST 256

/*
 * The nb_timers budget (swtim_budget.h). Slots a lane takes from avail at
 * once, and half the credit it keeps at most (struct swtim_budget's
 * batch): one shared write per batch of arms or cancels. On its own line,
 * avail still moves between the CPUs of the lanes that write it, a few
 * hundred cycles each time: with batches of 32, two producers on CPUs of
 * their own paid 5-8 cycles a timer more than one (doc/performance.md,
 * "Single calls and two producers (issue 16)"), with 256 about 2. A
 * lane's credit is hidden from the others until a reclaim, though, so a
 * small adapter takes less: the batch is nb_timers / 1024 between these
 * bounds, 32 for up to 32k timers, 256 from 256k on.
 */
#define SWTIM_BUDGET_BATCH_MIN 32
#define SWTIM_BUDGET_BATCH_MAX 256
#define SWTIM_BUDGET_BATCH_SHARE 1024

/*
 * Batches a lane's staged credit (swtim_budget.h) is refilled with at
 * once. Each refill is a locked arm, which meets the service on the
 * wheel's lock; with one batch, one arm in 33 took it in
 * dpdk-test-eventdev's non-burst run, whose figure was a quarter higher
 * than with 4 or 16 (doc/performance.md, "The staged arm"). Like
 * credit, it is hidden from the other lanes until a reclaim, so it is an
 * eighth of nb_timers at most (swtim_budget_init()).
 */
#define SWTIM_STAGED_CREDIT_BATCHES 8

/*
 * Events a lane's buffer (swtim_evbuf.h) starts with at least: it grows
 * when a scan finds more due than it holds, so this only spares the
 * common case the growing.
 */
#define SWTIM_EVBUF_MIN 1024

/*
 * A buffer whose events the device refused outright is not offered again
 * for this long (swtim_evbuf_backing_off(); the service leaves its lane
 * alone meanwhile, due timers included, which would only grow the
 * buffer): a service polling in a tight loop would otherwise hold the
 * lane's claim nearly all the time, and a cancel that needs the
 * claim to take back a periodic timer's waiting event would see EAGAIN
 * hundreds of times in a row (measured: up to 68 ms with two service
 * lcores on two shared CPUs). The device frees room only as workers
 * dequeue; 2 us adds at most that to a stall.
 */
#define SWTIM_EVBUF_RETRY_US 2

/*
 * A device that has refused every event offered for this long gets a
 * warning in the log: the timers wait, counted, for as long as it takes,
 * and without a word the application would only see expiries stop.
 */
#define SWTIM_EVBUF_STALL_MS 1000

/*
 * How often an idle service maintains a port (swtim_port.h): event_dsw
 * answers other ports' flow-migration requests only from maintenance, so
 * a port left alone stalls the workers' migrations; every 10 us keeps
 * that latency below the device's own, while an idle service (called
 * millions of times a second) skips the call almost always.
 */
#define SWTIM_PORT_MAINTAIN_US 10

/*
 * Largest number of events handed to rte_event_enqueue_new_burst() at
 * once (further capped by the port's enqueue depth). 32 matches the bursts
 * event devices are tuned for; larger only holds the first events back.
 */
#define SWTIM_PORT_ENQ_BURST_MAX 32

/*
 * Sleeping when idle (swtim_idle.h). How much longer each idle run in a
 * row sleeps. 10 us reaches a 500 us cap in 50 idle runs (about 13 ms):
 * short enough to save power soon after a burst, long enough that a lull
 * between bursts costs no latency.
 */
#define SWTIM_IDLE_STEP_US 10

/*
 * How long before the next deadline a sleep ends. Inside this margin the
 * service polls, so it costs CPU for every distinct deadline: 100 us made
 * an adapter with a few thousand deadlines a second spend a third of a
 * CPU there (doc/performance-history.md, "Power: the sleeping service on
 * the development machine, three libraries"). 20 us keeps that small;
 * the rest of the OS's wake-up latency (typically 50-60 us for
 * nanosleep) is lateness, well inside the bound the sleeping mode
 * documents (doc/performance.md, "Power: sleeping service").
 */
#define SWTIM_IDLE_MARGIN_US 20

/*
 * Spins of a waiter on a lock that records its holder (swtim_olock.h)
 * between two looks at whether the holder is alive: a look reads the
 * process table, and /proc when the holder is in another process and
 * its last answer is older than SWTIM_PROC_ALIVE_HOLD_DIV allows, so it
 * must be rare next to the spins of a lock held for an arm burst; 1024
 * spins (each an rte_pause()) are still only tens of microseconds of
 * waiting on a dead holder. Not measured.
 */
#define SWTIM_OLOCK_CHECK_SPINS 1024

/*
 * Processes that can use swtim at once, one slot each in the process
 * table (swtim_proc.h; a process past them cannot create or look up an
 * adapter): DPDK's multi-process groups are a primary and a few
 * secondaries, and 128 slots are 3 KiB of shared memory. At most
 * 2^SWTIM_PROC_SLOT_BITS, the slot's bits in a tag. Not measured.
 */
#define SWTIM_PROCS_MAX 128

/*
 * A live answer on a process (swtim_proc.c) is kept for 1/this of a
 * second: a waiter reads /proc at most that often per slot, and a holder
 * that died is noticed at most 10 ms late.
 */
#define SWTIM_PROC_ALIVE_HOLD_DIV 100

/*
 * Quiescing a service at free (swtim_service.c): how long it waits
 * before it says in the log what it waits for.
 */
#define SWTIM_QUIESCE_WARN_MS 1000

/*
 * How long it waits for a service lcore the service is not mapped to (the
 * application may have unmapped it while that lcore was about to call):
 * such a lcore counts no loops at all once it has no service left.
 */
#define SWTIM_QUIESCE_UNMAPPED_MS 10

#endif /* SWTIM_TUNABLES_H */
