/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Worker lcores: dequeue expiry events and take each timer through the
 * stages of --stlist, as dpdk-test-eventdev's perf_queue (one queue per
 * stage) and perf_atq (one all-types queue, the stage in sub_event_type)
 * do. At the first stage a worker marks the timer received, which tells
 * duplicates apart, and measures how late its expiry came: from the
 * deadline the producer wrote to the dequeue. At the last stage the timer
 * object goes back to the pool, where a producer may take it again.
 *
 * With --max-sleep-us=N a worker behaves like testpmd's forwarding lcores
 * under --max-sleep-us: after a poll that got less than half a burst (its
 * events handled and forwarded first) it sleeps,
 * EVT_WORKER_SLEEP_STEP_US longer after each such poll in a row, up to N
 * us; a poll that gets half a burst or more resets the back-off and the
 * worker polls at full speed.
 */

#include <stdio.h>

#include <rte_cycles.h>
#include <rte_eventdev.h>
#include <rte_lcore.h>
#include <rte_mempool.h>
#include <rte_pause.h>

#include "evt_test.h"

static void
flush_cb(uint8_t dev_id, struct rte_event ev, void *arg)
{
	struct evt_worker *w = arg;

	RTE_SET_USED(dev_id);
	RTE_SET_USED(ev);
	w->flushed++;
}

/* Publish a counter for the main lcore. */
#define PUBLISH(field, v) __atomic_store_n(&(field), (v), __ATOMIC_RELAXED)

/* Sleep a step longer than the last nap in a row, up to max_us. */
static void
worker_nap(uint32_t max_us, uint32_t *backoff_us, uint64_t *sleeps,
	   uint64_t *sleep_us_sum)
{
	*backoff_us = RTE_MIN(*backoff_us + EVT_WORKER_SLEEP_STEP_US, max_us);
	rte_delay_us_sleep(*backoff_us);
	(*sleeps)++;
	*sleep_us_sum += *backoff_us;
}

int
evt_worker_main(void *arg)
{
	struct evt_worker *w = arg;
	struct evt_test *t = w->t;
	const struct evt_options *opt = t->opt;
	const uint8_t dev = t->dev_id;
	const uint8_t port = w->port_id;
	const bool atq = opt->test == EVT_TEST_PERF_ATQ;
	const bool fwd_latency = opt->fwd_latency;
	const uint8_t nb_stages = t->nb_stages;
	const uint8_t last = nb_stages - 1;
	const uint16_t deq = t->deq_depth;
	const double ns_per_cycle = t->ns_per_cycle;
	struct rte_event ev[EVT_MAX_DEQ];
	void *to_free[EVT_MAX_DEQ];
	uint64_t received = 0, processed = 0, dups = 0, early = 0;
	uint64_t fwd_cycles = 0;
	uint64_t polls = 0, empty_polls = 0, sleeps = 0, sleep_us_sum = 0;
	const uint32_t max_sleep_us = opt->max_sleep_us;
	uint32_t backoff_us = 0;
	int64_t min_late = INT64_MAX;
	uint16_t n, i, nfree, nfwd, enq;
	uint64_t now;
	/* testpmd's rule: a poll below half a burst is a reason to nap. */
	const uint16_t busy_poll = RTE_MAX(deq / 2, 1);

	if (opt->verbose_level > 1)
		printf("worker on lcore %u: port %u\n", rte_lcore_id(), port);

	while (!t->done) {
		n = rte_event_dequeue_burst(dev, port, ev, deq, 0);
		polls++;
		if (n == 0) {
			empty_polls++;
			if (max_sleep_us == 0)
				rte_pause();
			else
				worker_nap(max_sleep_us, &backoff_us, &sleeps,
					   &sleep_us_sum);
			continue;
		}
		if (n >= busy_poll)
			backoff_us = 0;
		now = rte_get_timer_cycles();
		nfree = 0;
		nfwd = 0;
		for (i = 0; i < n; i++) {
			uint32_t gen;
			struct evt_timer_rec *r = evt_rec_of(&ev[i], &gen);
			uint8_t stage = atq ? ev[i].sub_event_type :
				ev[i].queue_id % nb_stages;

			if (stage == 0) {
				uint32_t armed = gen;
				int64_t late;

				if (!__atomic_compare_exchange_n(&r->pending,
						&armed, 0, false,
						__ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
					/* Not this arming's first event: a
					 * second one, or one of an earlier
					 * arming of the record. */
					dups++;
					ev[i].op = RTE_EVENT_OP_RELEASE;
					continue;
				}
				received++;
				late = (int64_t)(now - r->deadline_tsc);
				if (late < min_late)
					min_late = late;
				if (late < 0) {
					early++;
					late = 0;
				}
				latency_hist_add(&w->late_hist,
					(uint64_t)((double)late * ns_per_cycle));
			}
			if (stage == last) {
				processed++;
				if (fwd_latency)
					fwd_cycles += now - r->arm_tsc;
				to_free[nfree++] = r;
				ev[i].op = RTE_EVENT_OP_RELEASE;
			} else {
				if (atq)
					ev[i].sub_event_type++;
				else
					ev[i].queue_id++;
				ev[i].sched_type =
					t->sched_type_list[stage + 1];
				ev[i].op = RTE_EVENT_OP_FORWARD;
				ev[i].event_type = RTE_EVENT_TYPE_CPU;
				nfwd++;
			}
		}
		PUBLISH(w->received, received);
		/* Before processed: once the main lcore sees the count
		 * complete, this is the time of the last event. */
		if (nfree != 0)
			__atomic_store_n(&w->last_tsc, now, __ATOMIC_RELEASE);
		PUBLISH(w->processed, processed);
		PUBLISH(w->duplicates, dups);
		PUBLISH(w->early, early);
		PUBLISH(w->fwd_cycles, fwd_cycles);
		if (nfree > 0)
			rte_mempool_put_bulk(t->pool, to_free, nfree);
		/* Burst devices get the releases too, as upstream sends
		 * them; others take one event at a time and release it
		 * implicitly at the next dequeue.
		 */
		if (!t->dev_burst && nfwd == 0)
			goto nap;
		enq = 0;
		while (enq < n) {
			enq += rte_event_enqueue_burst(dev, port, ev + enq,
						       n - enq);
			if (enq < n) {
				if (t->done)
					break;
				rte_pause();
			}
		}
nap:
		if (max_sleep_us != 0 && n < busy_poll)
			worker_nap(max_sleep_us, &backoff_us, &sleeps,
				   &sleep_us_sum);
	}
	w->min_lateness = min_late;
	w->polls = polls;
	w->empty_polls = empty_polls;
	w->sleeps = sleeps;
	w->sleep_ns = sleep_us_sum * 1000;
	rte_event_port_quiesce(dev, port, flush_cb, w);
	return 0;
}
