/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The soak's producers, worker and non-EAL canceller (soak.h): arms,
 * cancels and re-arms, each booked in the ledger before or after the
 * call as soak_ledger.h says.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_eventdev.h>
#include <rte_ring_elem.h>

#include "soak.h"
#include "swtim_test.h"

/* Most timers one arm or cancel call takes. */
#define SOAK_BURST_MAX		32
/* Events the worker dequeues at once. */
#define SOAK_DEQUEUE_MAX	64
/* Recent armings a producer remembers, to cancel some (power of 2). */
#define SOAK_RECENT		4096
/* Periodic timers one producer may hold. */
#define SOAK_LIVE_MAX		65536
/* Between two rounds of a producer, and when a canceller found no work:
 * a nap, so that the soak leaves some CPU to the service lcores. */
#define SOAK_NAP_US		50

enum soak_arm_kind {
	SOAK_ARM_SINGLE,
	SOAK_ARM_BURST,
	SOAK_ARM_TMO_TICK,
	SOAK_ARM_KINDS,
};

/* Timeout of a one-shot timer of the steady mix, in 100 us ticks: 40 %
 * up to 5 ms, 40 % up to 100 ms, 20 % up to 2 s. */
static uint64_t
soak_oneshot_ticks(uint64_t *rnd)
{
	uint64_t r = swt_rand(rnd) % 10;

	if (r < 4)
		return swt_rand_range(rnd, 1, 50);
	if (r < 8)
		return swt_rand_range(rnd, 51, 1000);
	return swt_rand_range(rnd, 1001, 20000);
}

/*
 * A peak timer falls due peak_hold after its arm and up to peak_spread
 * later: all of a peak are outstanding at once if the fill takes less
 * than peak_hold.
 */
static uint64_t
soak_peak_ticks(const struct soak *s, uint64_t *rnd)
{
	uint64_t tick = s->pools[SOAK_ONESHOT].tick_cycles_floor;
	uint64_t most = SOAK_ONESHOT_MAX_TMO_NS / SOAK_ONESHOT_TICK_NS - 1;

	return RTE_MIN((s->peak_hold + swt_rand(rnd) % s->peak_spread) / tick,
		       most);
}

/* Free timers of pool, at most n. */
static unsigned int
soak_take_free(struct soak *s, enum soak_pool pool, uint32_t *idx,
	       unsigned int n)
{
	return rte_ring_dequeue_burst_elem(s->free[pool], idx,
					   sizeof(idx[0]), n, NULL);
}

static void
soak_give_free(struct soak_thread *th, enum soak_pool pool,
	       const uint32_t *idx, unsigned int n)
{
	if (n != 0 && rte_ring_enqueue_bulk_elem(th->s->free[pool], idx,
			sizeof(idx[0]), n, NULL) != n) {
		SOAK_ADD(th->c.errors, 1);
		fprintf(stderr, "soak: free ring of pool %u full\n", pool);
	}
}

/*
 * Arm timers idx[0..nb) of pool with ticks[] (a tmo_tick burst: ticks[0]
 * for all) the way kind says. Those the adapter refuses are given back
 * (ENOSPC: legal, the adapter is full) or kept out of the pool (any other
 * error, which fails the soak). Returns how many were armed.
 */
static unsigned int
soak_arm(struct soak_thread *th, enum soak_pool pool, const uint32_t *idx,
	 const uint64_t *ticks, unsigned int nb, enum soak_arm_kind kind,
	 bool peak)
{
	struct soak *s = th->s;
	struct soak_pool_ledger *pl = &s->pools[pool];
	const struct swtim_adapter *a = s->adapters[pool];
	struct rte_event_timer *p[SOAK_BURST_MAX];
	unsigned int i, done = 0;
	uint64_t tsc;
	int err;

	RTE_ASSERT(nb <= SOAK_BURST_MAX);
	tsc = rte_get_timer_cycles();
	for (i = 0; i < nb; i++) {
		soak_arming_begin(pl, pool, idx[i],
				  kind == SOAK_ARM_TMO_TICK ? ticks[0] :
				  ticks[i], tsc, peak);
		p[i] = &pl->tim[idx[i]];
	}
	rte_errno = 0;
	switch (kind) {
	case SOAK_ARM_SINGLE:
		while (done < nb && swtim_arm(a, p[done]) == 1)
			done++;
		break;
	case SOAK_ARM_BURST:
		done = swtim_arm_burst(a, p, nb);
		break;
	default:
		done = swtim_arm_tmo_tick_burst(a, p, ticks[0], nb);
		break;
	}
	err = rte_errno;
	SOAK_ADD(th->c.armed[pool], done);
	if (done == nb)
		return done;
	for (i = done; i < nb; i++)
		soak_arming_undo(pl, idx[i]);
	if (err == ENOSPC) {
		SOAK_ADD(th->c.enospc, 1);
		soak_give_free(th, pool, &idx[done], nb - done);
	} else {
		SOAK_ADD(th->c.errors, 1);
		fprintf(stderr, "soak: arming pool %u timer %u: %s (state %d,"
			" %" PRIu64 " ticks)\n", pool, idx[done],
			rte_strerror(err), p[done]->state,
			p[done]->timeout_ticks);
		/* The others were never tried. */
		soak_give_free(th, pool, &idx[done + 1], nb - done - 1);
	}
	return done;
}

/* Arm one-shot timers idx[0..nb) with the steady mix, any kind. */
static void
soak_arm_steady(struct soak_thread *th, const uint32_t *idx, unsigned int nb)
{
	uint64_t ticks[SOAK_BURST_MAX];
	unsigned int i;

	for (i = 0; i < nb; i++)
		ticks[i] = soak_oneshot_ticks(&th->rnd);
	soak_arm(th, SOAK_ONESHOT, idx, ticks, nb,
		 (enum soak_arm_kind)(swt_rand(&th->rnd) % SOAK_ARM_KINDS),
		 false);
}

/*
 * Cancel timers idx[0..nb) of pool, in bursts or one at a time, and
 * settle what was cancelled; the indices of those go to got[]. One-shot
 * timers no longer armed (expired, or cancelled by another thread) are
 * passed over; a periodic timer is retried while it expires (EAGAIN):
 * only its owner cancels it, so anything else is an error. Returns how
 * many went to got[].
 */
static unsigned int
soak_cancel(struct soak_thread *th, enum soak_pool pool, const uint32_t *idx,
	    unsigned int nb, bool burst, uint32_t *got)
{
	struct soak *s = th->s;
	struct soak_pool_ledger *pl = &s->pools[pool];
	struct rte_event_timer *p[SOAK_BURST_MAX];
	unsigned int i, k = 0, done, n = 0;
	uint64_t tsc;
	int err;

	for (i = 0; i < nb; i++)
		p[i] = &pl->tim[idx[i]];
	while (k < nb) {
		rte_errno = 0;
		done = burst ? swtim_cancel_burst(s->adapters[pool], &p[k],
						  nb - k) :
			swtim_cancel(s->adapters[pool], p[k]);
		err = rte_errno;
		tsc = rte_get_timer_cycles();
		SOAK_ADD(th->c.cancelled[pool], done);
		for (i = k; i < k + done; i++)
			if (soak_settle_cancelled(pl, idx[i], tsc,
						  &th->c.faults))
				got[n++] = idx[i];
		k += done;
		if (k == nb || (!burst && done == 1))
			continue;
		if (pool == SOAK_PERIODIC && err == EAGAIN) {
			rte_pause();
			continue;
		}
		if (pool == SOAK_PERIODIC ||
		    (err != EINVAL && err != EALREADY && err != EAGAIN)) {
			SOAK_ADD(th->c.errors, 1);
			fprintf(stderr, "soak: cancelling pool %u timer %u: "
				"%s (state %d)\n", pool, idx[k],
				rte_strerror(err), p[k]->state);
		}
		k++;
	}
	return n;
}

/* Cancelled periodic timers wait out their quarantine (soak_ledger.h). */
static void
soak_quarantine(struct soak_thread *th, const uint32_t *idx, unsigned int n)
{
	if (n != 0 && rte_ring_enqueue_bulk_elem(th->s->quarantine, idx,
			sizeof(idx[0]), n, NULL) != n) {
		SOAK_ADD(th->c.errors, 1);
		fprintf(stderr, "soak: quarantine ring full\n");
	}
}

/*
 * One-shot timers whose cancel this thread won: armed again now and then
 * (while the soak runs), else free.
 */
static void
soak_after_cancel(struct soak_thread *th, const uint32_t *idx, unsigned int n)
{
	if (n != 0 && th->s->phase == SOAK_RUN && swt_rand(&th->rnd) % 4 == 0)
		soak_arm_steady(th, idx, n);
	else
		soak_give_free(th, SOAK_ONESHOT, idx, n);
}

/*
 * Cancel up to max timers other threads handed over. Returns how many
 * requests there were.
 */
static unsigned int
soak_cancel_handed(struct soak_thread *th, unsigned int max)
{
	struct soak *s = th->s;
	uint64_t tags[SOAK_BURST_MAX];
	uint32_t idx[SOAK_BURST_MAX], got[SOAK_BURST_MAX], one;
	unsigned int n, i, k = 0, c;

	max = RTE_MIN(max, (unsigned int)SOAK_BURST_MAX);
	n = rte_ring_dequeue_burst_elem(s->cancels, tags, sizeof(tags[0]), max,
					NULL);
	for (i = 0; i < n; i++) {
		uint32_t x = soak_tag_idx(tags[i]);

		if (soak_tag_pool(tags[i]) == SOAK_PERIODIC) {
			c = soak_cancel(th, SOAK_PERIODIC, &x, 1, false, &one);
			soak_quarantine(th, &one, c);
			continue;
		}
		/* Armed again since: not the arming it was handed for. */
		if (__atomic_load_n(&s->pools[SOAK_ONESHOT].slot[x].gen,
				    __ATOMIC_RELAXED) == soak_tag_gen(tags[i]))
			idx[k++] = x;
	}
	c = soak_cancel(th, SOAK_ONESHOT, idx, k, swt_rand(&th->rnd) & 1, got);
	soak_after_cancel(th, got, c);
	return n;
}

/* Hand a timer over to be cancelled elsewhere; false if no room. */
static bool
soak_hand_over(struct soak *s, uint64_t tag)
{
	return rte_ring_enqueue_elem(s->cancels, &tag, sizeof(tag)) == 0;
}

/* ---- producers ---- */

struct soak_live {
	uint32_t idx;
	uint64_t cancel_at;	/* TSC */
};

struct soak_producer {
	uint64_t recent[SOAK_RECENT];	/* tags of recent armings */
	unsigned int recent_pos;
	struct soak_live live[SOAK_LIVE_MAX];
	unsigned int nb_live;
};

static void
soak_recent_add(struct soak_producer *pr, const struct soak_pool_ledger *pl,
		const uint32_t *idx, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		pr->recent[pr->recent_pos++ & (SOAK_RECENT - 1)] =
			pl->tim[idx[i]].ev.u64;
}

/* Arm up to SOAK_BURST_MAX one-shot timers: steady mix, or the peak. */
static void
soak_produce_oneshot(struct soak_thread *th, struct soak_producer *pr,
		     bool peak)
{
	struct soak *s = th->s;
	uint32_t idx[SOAK_BURST_MAX];
	uint64_t ticks[SOAK_BURST_MAX];
	enum soak_arm_kind kind;
	unsigned int n, i, done;

	n = soak_take_free(s, SOAK_ONESHOT, idx,
			   swt_rand_range(&th->rnd, 1, SOAK_BURST_MAX));
	if (n == 0)
		return;
	kind = (enum soak_arm_kind)(swt_rand(&th->rnd) % SOAK_ARM_KINDS);
	for (i = 0; i < n; i++)
		ticks[i] = peak ? soak_peak_ticks(s, &th->rnd) :
			soak_oneshot_ticks(&th->rnd);
	done = soak_arm(th, SOAK_ONESHOT, idx, ticks, n, kind, peak);
	/* Only the front was armed; before the call the tags were set. */
	soak_recent_add(pr, &s->pools[SOAK_ONESHOT], idx, done);
}

/*
 * Cancel a few recent armings of our own, and hand a few over to the
 * worker and the non-EAL thread.
 */
static void
soak_produce_cancels(struct soak_thread *th, struct soak_producer *pr)
{
	struct soak *s = th->s;
	const struct soak_slot *slot = s->pools[SOAK_ONESHOT].slot;
	uint32_t idx[SOAK_BURST_MAX], got[SOAK_BURST_MAX];
	unsigned int n, i, k = 0, c;
	uint64_t tag;

	n = swt_rand_range(&th->rnd, 1, 8);
	for (i = 0; i < n; i++) {
		tag = pr->recent[swt_rand(&th->rnd) & (SOAK_RECENT - 1)];
		if (tag == 0 || __atomic_load_n(&slot[soak_tag_idx(tag)].gen,
				__ATOMIC_RELAXED) != soak_tag_gen(tag))
			continue;
		if (swt_rand(&th->rnd) & 1)
			idx[k++] = soak_tag_idx(tag);
		else
			soak_hand_over(s, tag);	/* full: never mind */
	}
	c = soak_cancel(th, SOAK_ONESHOT, idx, k, swt_rand(&th->rnd) & 1, got);
	soak_after_cancel(th, got, c);
}

/*
 * Keep our share of periodic timers alive: arm new ones, each with a
 * life of 0.1 to 20 s (one in ten: 150 to 300 s), and end those whose
 * life is over, cancelling
 * them ourselves or handing them over. all: end every one (the end of
 * the soak).
 */
static void
soak_produce_periodic(struct soak_thread *th, struct soak_producer *pr,
		      unsigned int share, bool all)
{
	struct soak *s = th->s;
	uint64_t hz = rte_get_timer_hz(), now = rte_get_timer_cycles();
	uint64_t ticks[SOAK_BURST_MAX];
	uint32_t idx[SOAK_BURST_MAX], one, got;
	unsigned int i, n, done;

	for (i = 0; i < pr->nb_live;) {
		struct soak_live *l = &pr->live[i];

		if (!all && l->cancel_at > now) {
			i++;
			continue;
		}
		one = l->idx;
		if (all || (swt_rand(&th->rnd) & 1) ||
		    !soak_hand_over(s, soak_tag(SOAK_PERIODIC, one,
				    s->pools[SOAK_PERIODIC].slot[one].gen))) {
			n = soak_cancel(th, SOAK_PERIODIC, &one, 1,
					swt_rand(&th->rnd) & 1, &got);
			soak_quarantine(th, &got, n);
		}
		*l = pr->live[--pr->nb_live];
	}
	if (all || pr->nb_live >= RTE_MIN(share, (unsigned int)SOAK_LIVE_MAX))
		return;
	n = soak_take_free(s, SOAK_PERIODIC, idx,
			   RTE_MIN(share - pr->nb_live, 4u));
	for (i = 0; i < n; i++)
		ticks[i] = swt_rand_range(&th->rnd, 10, 100); /* ms */
	done = soak_arm(th, SOAK_PERIODIC, idx, ticks, n,
			(enum soak_arm_kind)(swt_rand(&th->rnd) %
					     SOAK_ARM_KINDS), false);
	for (i = 0; i < done; i++) {
		pr->live[pr->nb_live].idx = idx[i];
		/* One in ten lives long enough for its periods to be
		 * checked against SOAK_LOST_BOUND_MS at its cancel. */
		pr->live[pr->nb_live++].cancel_at = now +
			(swt_rand(&th->rnd) % 10 == 0 ?
			 swt_rand_range(&th->rnd, 150 * hz, 300 * hz) :
			 swt_rand_range(&th->rnd, hz / 10, 20 * hz));
	}
}

int
soak_producer_run(void *arg)
{
	struct soak_thread *th = arg;
	struct soak *s = th->s;
	struct soak_producer *pr = calloc(1, sizeof(*pr));
	unsigned int share = s->periodic_live / 2 + 1;

	if (pr == NULL) {
		SOAK_ADD(th->c.errors, 1);
		return -1;
	}
	while (s->phase == SOAK_RUN) {
		if (s->peak_fill) {
			/* As fast as we can: the peak is a race. */
			soak_produce_oneshot(th, pr, true);
			continue;
		}
		if (s->steady_outstanding < s->steady)
			soak_produce_oneshot(th, pr, false);
		if (swt_rand(&th->rnd) % 4 == 0)
			soak_produce_cancels(th, pr);
		soak_produce_periodic(th, pr, share, false);
		rte_delay_us_sleep(SOAK_NAP_US);
	}
	soak_produce_periodic(th, pr, share, true);
	free(pr);
	return 0;
}

/* ---- the worker ---- */

/* Re-arm, or free, the one-shot timers whose events came. */
static void
soak_worker_recycle(struct soak_thread *th, const uint32_t *idx,
		    unsigned int n)
{
	struct soak *s = th->s;
	uint32_t rearm[SOAK_DEQUEUE_MAX], freed[SOAK_DEQUEUE_MAX];
	unsigned int i, nr = 0, nf = 0, pct, k;

	/* Fewer re-arms while the peak drains, none at the end. */
	pct = s->phase != SOAK_RUN || s->peak_fill ? 0 :
		s->steady_outstanding < s->steady ? 50 : 10;
	for (i = 0; i < n; i++) {
		if (swt_rand(&th->rnd) % 100 < pct)
			rearm[nr++] = idx[i];
		else
			freed[nf++] = idx[i];
	}
	for (i = 0; i < nr; i += k) {
		k = RTE_MIN(nr - i, (unsigned int)SOAK_BURST_MAX);
		soak_arm_steady(th, &rearm[i], k);
	}
	soak_give_free(th, SOAK_ONESHOT, freed, nf);
}

int
soak_worker_run(void *arg)
{
	struct soak_thread *th = arg;
	struct soak *s = th->s;
	struct rte_event evs[SOAK_DEQUEUE_MAX];
	uint32_t mine[SOAK_DEQUEUE_MAX];
	unsigned int i, n, nm, loops = 0;
	uint32_t idx;
	uint64_t now;

	while (s->phase != SOAK_DONE) {
		now = rte_get_timer_cycles();
		if (now < s->pause_until) {
			/* Looking away: the device fills and refuses. */
			rte_delay_us_sleep(1000);
			continue;
		}
		n = rte_event_dequeue_burst(s->dev_id, s->worker_port, evs,
					    RTE_DIM(evs), 0);
		if (n == 0) {
			if (soak_cancel_handed(th, 8) == 0)
				rte_delay_us_sleep(20);
			continue;
		}
		now = rte_get_timer_cycles();
		for (i = nm = 0; i < n; i++) {
			SOAK_ADD(th->c.expired[soak_tag_pool(evs[i].u64)], 1);
			idx = soak_event_check(s->pools, &evs[i], now,
					       &th->c.faults, th->c.hist);
			if (idx != UINT32_MAX)
				mine[nm++] = idx;
		}
		soak_worker_recycle(th, mine, nm);
		if ((++loops & 15) == 0)
			soak_cancel_handed(th, 4);
	}
	return 0;
}

/* ---- the thread without an lcore id ---- */

void *
soak_non_eal_run(void *arg)
{
	struct soak_thread *th = arg;
	struct soak *s = th->s;
	uint32_t idx[8];
	unsigned int n, did;

	while (!s->cancellers_quit) {
		did = soak_cancel_handed(th, 16);
		if (s->phase == SOAK_RUN && !s->peak_fill &&
		    s->steady_outstanding < s->steady &&
		    swt_rand(&th->rnd) % 8 == 0) {
			n = soak_take_free(s, SOAK_ONESHOT, idx, RTE_DIM(idx));
			soak_arm_steady(th, idx, n);
		}
		if (did == 0)
			rte_delay_us_sleep(SOAK_NAP_US);
	}
	return NULL;
}
