/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SEQ_EXEC_H
#define SEQ_EXEC_H

/**
 * @file
 * A sequence of timer adapter API calls read from bytes, run against an
 * adapter implementation (struct seq_api: swtim, or DPDK's own adapter
 * for the differential test), one step at a time. Each step's call, what
 * it returned, rte_errno, every timer's state before and after, and the
 * expiry events dequeued, go to an observer: the reference model of the
 * contract (fuzz_seq.c) or the differential test's recorder.
 *
 * The harness drives the adapters' services itself (their service is
 * mapped to a service lcore that never runs), so nothing expires between
 * steps. Timeouts come in classes far apart: a few ticks of 10 us, which
 * are due after a service step's wait, or a million ticks and more, which
 * never are within a run. Every service step drains the event device, so
 * an event not dequeued by the end of its step was not enqueued.
 *
 * The timers are the harness's, shared by every adapter (so a timer can
 * be armed on one and cancelled through another), and the harness never
 * writes a timer that is ARMED: it would be the application breaking the
 * contract, not the adapter.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_event_timer_adapter.h>
#include <rte_eventdev.h>

#include "adapter_impl.h"
#include "fuzz_env.h"
#include "fuzz_input.h"

/** Adapters a sequence uses at once: ids 0 .. SEQ_NB_SLOTS - 1. */
#define SEQ_NB_SLOTS FUZZ_ADAPTERS_AT_ONCE
/** Timers of a sequence. */
#define SEQ_NB_TIMERS 16
/** Longest burst, NULL entries and repeats included. */
#define SEQ_BURST_MAX 8
/** Most steps of one sequence. */
#define SEQ_STEPS_MAX 64
/** Most events one service step dequeues. */
#define SEQ_EVENTS_MAX 1024
/** The adapters' tick. */
#define SEQ_TICK_NS 10000
/** Their max_tmo_ns: SEQ_MAX_TMO_TICKS ticks. */
#define SEQ_MAX_TMO_TICKS 10000000
/** A long timeout, in ticks: ten seconds, never due within a run. */
#define SEQ_LONG_TICKS 1000000
/** How long a service step waits, when it waits: short timers are due. */
#define SEQ_WAIT_US 200

struct seq_step;

/**
 * An adapter implementation under test: its calls, and what the harness
 * must do around them for it.
 */
struct seq_api {
	const char *name;
	/**
	 * The implementation's calls (adapter_impl.h); create passes
	 * seq_swtim_driver where it has drivers.
	 */
	const struct adapter_impl *impl;
	/**
	 * NULL, or what keeps from the implementation a call it would crash
	 * on: called before each step's call but create and service, with
	 * the adapter and the burst p of the step. Returns true with *nb
	 * the entries of p to pass (s->nb: all), or false where the call is
	 * not made: s->ret (and rte_errno) are then what the step answers
	 * and not_called says why.
	 */
	bool (*guard)(struct seq_step *s, void *a, struct rte_event_timer **p,
		      uint16_t *nb);
	/**
	 * NULL, or called after each call the guard let through, with the
	 * entries passed and s->ret set: what the guard needs to remember,
	 * and not_called where the call stopped where it was cut short.
	 */
	void (*note)(struct seq_step *s, void *a, struct rte_event_timer **p,
		     uint16_t nb);
	/**
	 * NULL, or what the harness does after running an adapter's
	 * service so that the events it enqueued reach the device's queues.
	 */
	void (*service_flush)(void *a);
	/**
	 * Set by a call that was not made because the implementation would
	 * crash on it (a NULL timer, a freed adapter): why. NULL otherwise.
	 */
	const char *not_called;
};

/** swtim's API, with the driver seq_swtim_driver names. */
extern struct seq_api seq_swtim_api;
extern const char *seq_swtim_driver;

enum seq_op {
	SEQ_CREATE,
	SEQ_START,
	SEQ_STOP,
	SEQ_FREE,
	SEQ_ARM,
	SEQ_ARM_TMO,
	SEQ_CANCEL,
	SEQ_REMAINING,
	SEQ_STATS,
	SEQ_SERVICE,
	SEQ_LOOKUP,
	SEQ_INFO,
	SEQ_NB_OPS
};

const char *seq_op_name(enum seq_op op);

/** One step: the call, and all that could be seen of its effect. */
struct seq_step {
	enum seq_op op;
	unsigned int slot;	/**< adapter slot (SEQ_LOOKUP: the id) */
	/* SEQ_CREATE */
	bool ext;		/**< port from the callback */
	bool periodic;
	bool mapped;		/**< service mapped after create */
	uint64_t nb_timers;
	/* bursts: timer index of each entry, -1 for NULL */
	uint16_t nb;
	int idx[SEQ_BURST_MAX];
	/** timeout of each entry (SEQ_ARM_TMO: all the same) */
	uint64_t tmo[SEQ_BURST_MAX];
	/* SEQ_STATS */
	bool reset;
	/* SEQ_SERVICE */
	bool waited;
	unsigned int iterations;
	/* SEQ_INFO, SEQ_REMAINING: pass a NULL out-pointer */
	bool null_out;

	/** What the call returned: int, count, or 1/0 for a pointer. */
	int64_t ret;
	/** rte_errno after the call (0 before it). */
	int err;
	/** SEQ_REMAINING: ticks; SEQ_STATS: ev_enq_count. */
	uint64_t value;
	struct rte_event_timer_adapter_stats stats;
	/** Timer cycles just before and just after the call. */
	uint64_t t_before, t_after;
	int32_t state_before[SEQ_NB_TIMERS];
	int32_t state_after[SEQ_NB_TIMERS];
	/** SEQ_SERVICE: events dequeued. */
	unsigned int nb_evs;
	struct rte_event evs[SEQ_EVENTS_MAX];
	/** The implementation's not_called for this step. */
	const char *not_called;
};

/** Gets each step once it has run; a step not to be judged returns. */
typedef void (*seq_observer_t)(const struct seq_step *step, void *arg);

/** What a sequence runs on. */
struct seq_world {
	struct seq_api *api;
	uint8_t dev_id;
	/** First of FUZZ_NB_APP_PORTS unlinked ports for ext creates. */
	uint8_t app_port;
	void *adapters[SEQ_NB_SLOTS];	/**< the last made in each slot */
	bool live[SEQ_NB_SLOTS];	/**< made and not freed */
	bool started[SEQ_NB_SLOTS];
	uint32_t sid[SEQ_NB_SLOTS];
	struct rte_event_timer *timers;	/**< SEQ_NB_TIMERS of them */
	/** Steps read: each arming's events carry a tag of their own. */
	uint32_t steps;
};

/** Timer cycles of a timeout of ticks adapter ticks. */
uint64_t seq_ticks_to_cycles(uint64_t ticks);

/**
 * The tag an arming's events carry in ev.u64: the timer index in the low
 * byte, the burst entry and the step above.
 */
static inline unsigned int
seq_tag_timer(uint64_t tag)
{
	return tag & 0xff;
}

/**
 * Run the sequence in the input on the world (its timers zeroed first),
 * then a last service step for every adapter still started, then stop
 * and free what is left (those steps are observed too). Returns the
 * number of steps run.
 */
unsigned int seq_run(struct seq_world *w, struct fuzz_input *in,
		     seq_observer_t observe, void *arg);

#endif /* SEQ_EXEC_H */
