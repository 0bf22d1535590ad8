/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Limits and lifecycle: exactly nb_timers timers armed at once, from one
 * lcore or several, with bursts that overflow arming their front; stop
 * and start with timers armed (late, never lost); free with timers
 * outstanding and create again; the add-a-port create and its port reuse
 * over many create/free cycles; SWTIM_ADAPTER_NUM_MAX adapters at once.
 */

#include <errno.h>
#include <string.h>

#include <rte_dev.h>
#include <rte_malloc.h>

#include "swtim_test.h"

#define TICK_NS		(1000 * 1000)			/* 1 ms */
#define MAX_TMO_NS	(UINT64_C(10) * 1000 * 1000 * 1000)	/* 10 s */
/* Long enough never to expire during a case. */
#define FAR_TICKS	5000
#define ID		3
#define APP_PORT	1

static struct swtim_adapter *
mk_adapter(uint16_t id, uint64_t nb_timers, bool start)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(id, TICK_NS, MAX_TMO_NS, nb_timers, 0);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);

	if (a != NULL && start && swt_adapter_start(a) != 0)
		return NULL;
	return a;
}

static void
init_all(struct rte_event_timer *t, unsigned int n, uint64_t ticks)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		swt_timer_init(&t[i], i & 1 ? SWT_Q_ATOMIC : SWT_Q_PARALLEL,
			       i, ticks);
}

/* ---- nb_timers ---- */

static int
enospc_exactly_at_limit(void)
{
	/* Not a power of two, not a multiple of any cache size. */
	const unsigned int nb = 100;
	struct swtim_adapter *a = mk_adapter(ID, nb, true);
	struct rte_event_timer *t = swt_timers(nb + 1);
	struct rte_event_timer **p = swt_timer_ptrs(t, nb + 1);
	unsigned int i;

	SWT_ASSERT(a != NULL && t != NULL && p != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	init_all(t, nb + 1, FAR_TICKS);
	for (i = 0; i < nb; i++)
		SWT_ASSERT_BURST(swtim_arm(a, &t[i]), 1, 0);
	SWT_ASSERT_BURST(swtim_arm(a, &t[nb]), 0, ENOSPC);
	SWT_ASSERT(t[nb].state != RTE_EVENT_TIMER_ARMED, "armed anyway");
	SWT_ASSERT_BURST(swtim_arm_tmo_tick_burst(a, &p[nb], FAR_TICKS, 1), 0,
			 ENOSPC);

	/* Cancelling one frees exactly one place. */
	t[nb].state = RTE_EVENT_TIMER_NOT_ARMED;
	SWT_ASSERT_EQ(swtim_cancel(a, &t[17]), 1);
	SWT_ASSERT_BURST(swtim_arm(a, &t[nb]), 1, 0);
	SWT_ASSERT_BURST(swtim_arm(a, &t[17]), 0, ENOSPC);

	/* All cancelled: the whole capacity comes back, in one burst. */
	t[17].state = RTE_EVENT_TIMER_NOT_ARMED;
	SWT_ASSERT_EQ(swtim_cancel_burst(a, p, 17), 17);
	SWT_ASSERT_EQ(swtim_cancel_burst(a, &p[18], nb + 1 - 18), nb + 1 - 18);
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, nb), nb, 0);
	SWT_ASSERT_BURST(swtim_arm(a, &t[nb]), 0, ENOSPC);
	SWT_ASSERT_EQ(swtim_cancel_burst(a, p, nb), nb);
	return SWT_PASS;
}

/*
 * An expired timer stops counting once its event is in the event
 * device: after all nb events came, nb can be armed again.
 */
static int
enospc_expired_free_their_place(void)
{
	const unsigned int nb = 100, rounds = 5;
	struct swtim_adapter *a = mk_adapter(ID, nb, true);
	struct rte_event_timer *t = swt_timers(nb + 1);
	struct rte_event_timer **p = swt_timer_ptrs(t, nb + 1);
	unsigned int r;

	SWT_ASSERT(a != NULL && t != NULL && p != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	init_all(t, nb + 1, 1);
	for (r = 0; r < rounds; r++) {
		SWT_ASSERT_BURST(swtim_arm_burst(a, p, nb), nb, 0);
		SWT_ASSERT_EQ(swt_collect(&swt_dev, NULL, nb, 2000), nb);
	}
	/* Still exactly nb places: nothing leaked or was lost. */
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, nb + 1), nb, ENOSPC);
	SWT_ASSERT_EQ(swt_collect(&swt_dev, NULL, nb, 2000), nb);
	return SWT_PASS;
}

static int
enospc_burst_arms_front(void)
{
	const unsigned int nb = 100;
	struct swtim_adapter *a = mk_adapter(ID, nb, true);
	struct rte_event_timer *t = swt_timers(nb + 10);
	struct rte_event_timer **p = swt_timer_ptrs(t, nb + 10);
	unsigned int i;

	SWT_ASSERT(a != NULL && t != NULL && p != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	init_all(t, nb + 10, FAR_TICKS);
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, 90), 90, 0);
	/* 20 asked, 10 places: the first 10 armed, then ENOSPC. */
	SWT_ASSERT_BURST(swtim_arm_burst(a, &p[90], 20), 10, ENOSPC);
	for (i = 90; i < 100; i++)
		SWT_ASSERT_EQ(t[i].state, RTE_EVENT_TIMER_ARMED);
	SWT_ASSERT(t[100].state != RTE_EVENT_TIMER_ARMED, "armed anyway");
	for (i = 101; i < nb + 10; i++)
		SWT_ASSERT_EQ(t[i].state, RTE_EVENT_TIMER_NOT_ARMED);

	/* The same with a common timeout. */
	SWT_ASSERT_EQ(swtim_cancel_burst(a, &p[85], 15), 15);
	for (i = 85; i < nb + 10; i++)
		t[i].state = RTE_EVENT_TIMER_NOT_ARMED;
	SWT_ASSERT_BURST(swtim_arm_tmo_tick_burst(a, &p[85], FAR_TICKS, 25),
			 15, ENOSPC);
	SWT_ASSERT_EQ(swtim_cancel_burst(a, p, nb), nb);
	return SWT_PASS;
}

/* Arms its timers one by one until ENOSPC. */
struct filler {
	const struct swtim_adapter *a;
	struct rte_event_timer *t;
	unsigned int n;
	unsigned int armed;
	int err;
};

static int
filler_run(void *arg)
{
	struct filler *f = arg;

	for (f->armed = 0; f->armed < f->n; f->armed++) {
		rte_errno = 0;
		if (swtim_arm(f->a, &f->t[f->armed]) != 1) {
			f->err = rte_errno;
			break;
		}
	}
	return 0;
}

/*
 * Several lcores fill the adapter at once, then the main lcore tops it
 * up: whatever the lcores' caches hold, exactly nb are armed. Then all
 * are cancelled from the main lcore, which must be able to arm nb.
 */
static int
enospc_across_lcores(void)
{
	const unsigned int nb = 1000, nl = SWT_NB_PRODUCER_LCORES;
	struct swtim_adapter *a = mk_adapter(ID, nb, true);
	struct filler f[SWT_NB_PRODUCER_LCORES + 1];
	struct rte_event_timer *t = swt_timers((nl + 1) * nb);
	unsigned int i, j, total = 0;

	SWT_ASSERT(a != NULL && t != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	init_all(t, (nl + 1) * nb, FAR_TICKS);
	for (i = 0; i <= nl; i++)
		f[i] = (struct filler){ .a = a, .t = &t[i * nb], .n = nb };
	for (i = 0; i < nl; i++)
		SWT_ASSERT_OK(swt_launch(filler_run, &f[i],
					 SWT_FIRST_PRODUCER_LCORE + i));
	SWT_ASSERT_EQ(swt_join(), 0);
	for (i = 0; i < nl; i++) {
		SWT_ASSERT(f[i].armed == nb || f[i].err == ENOSPC,
			   "lcore %u: %s", i, rte_strerror(f[i].err));
		total += f[i].armed;
	}
	printf("    lcores armed %u of %u\n", total, nb);
	filler_run(&f[nl]);
	SWT_ASSERT_EQ(f[nl].err, ENOSPC);
	SWT_ASSERT_EQ(total + f[nl].armed, nb);

	/* Cancel everything from the main lcore; the lcores are idle. */
	for (i = 0; i <= nl; i++)
		for (j = 0; j < f[i].armed; j++)
			SWT_ASSERT_EQ(swtim_cancel(a, &f[i].t[j]), 1);
	/* The main lcore alone can now arm nb, and no more. */
	init_all(f[nl].t, nb, FAR_TICKS);
	filler_run(&f[nl]);
	SWT_ASSERT_EQ(f[nl].armed, nb);
	init_all(f[0].t, 1, FAR_TICKS);
	SWT_ASSERT_BURST(swtim_arm(a, f[0].t), 0, ENOSPC);

	/* One cancelled on this lcore makes room for one armed on another. */
	SWT_ASSERT_EQ(swtim_cancel(a, &f[nl].t[5]), 1);
	f[0].t->state = RTE_EVENT_TIMER_NOT_ARMED;
	f[2] = (struct filler){ .a = a, .t = f[0].t, .n = 1 };
	SWT_ASSERT_OK(swt_launch(filler_run, &f[2],
				 SWT_FIRST_PRODUCER_LCORE + 1));
	SWT_ASSERT_EQ(swt_join(), 0);
	SWT_ASSERT_EQ(f[2].armed, 1);
	return SWT_PASS;
}

/* Bursts far larger than any internal chunk or cache. */
static int
big_bursts(void)
{
	const unsigned int nb = 5000;
	struct swtim_adapter *a = mk_adapter(ID, nb, true);
	struct rte_event_timer *t = swt_timers(nb + 1);
	struct rte_event_timer **p = swt_timer_ptrs(t, nb + 1);
	unsigned int i;

	SWT_ASSERT(a != NULL && t != NULL && p != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	init_all(t, nb + 1, FAR_TICKS);
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, nb + 1), nb, ENOSPC);
	SWT_ASSERT_BURST(swtim_cancel_burst(a, p, nb), nb, 0);
	for (i = 0; i < nb; i++)
		SWT_ASSERT_EQ(t[i].state, RTE_EVENT_TIMER_CANCELED);
	SWT_ASSERT_BURST(swtim_arm_tmo_tick_burst(a, p, 1, nb), nb, 0);
	SWT_ASSERT_EQ(swt_collect(&swt_dev, NULL, nb, 3000), nb);
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 30), 0);
	return SWT_PASS;
}

/* ---- stop / start ---- */

/*
 * Stop and start the adapter many times while timers fall due: every
 * timer still delivers exactly once.
 */
static int
stop_start_cycles(void)
{
	const unsigned int n = 500, cycles = 20;
	struct swtim_adapter *a = mk_adapter(ID, n, true);
	struct rte_event_timer *t = swt_timers(n);
	struct rte_event_timer **p = swt_timer_ptrs(t, n);
	uint32_t *seen = swt_calloc(n, sizeof(*seen));
	struct rte_event evs[32];
	uint64_t rnd = swt_seed(), end;
	unsigned int i, c, total = 0;
	uint16_t k, j;

	SWT_ASSERT(a != NULL && t != NULL && p != NULL && seen != NULL,
		   "setup: %s", rte_strerror(rte_errno));
	for (i = 0; i < n; i++)
		swt_timer_init(&t[i], SWT_Q_PARALLEL, i,
			       swt_rand_range(&rnd, 1, 100));
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, n), n, 0);
	for (c = 0; c < cycles; c++) {
		SWT_ASSERT_OK(swtim_adapter_stop(a));
		swt_sleep_ms(swt_rand_range(&rnd, 0, 5));
		SWT_ASSERT_OK(swtim_adapter_start(a));
		swt_sleep_ms(swt_rand_range(&rnd, 0, 5));
	}
	end = swt_now() + swt_ms_to_cycles(100 + 2000);
	while (total < n && swt_now() < end) {
		k = swt_dequeue(&swt_dev, evs, RTE_DIM(evs));
		if (k == 0)
			swt_idle();
		for (j = 0; j < k; j++) {
			i = evs[j].u64;
			SWT_ASSERT(i < n && seen[i] == 0, "event %" PRIu64
				   " unexpected", evs[j].u64);
			seen[i]++;
			total++;
		}
	}
	SWT_ASSERT_EQ(total, n);
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 50), 0);
	for (i = 0; i < n; i++)
		SWT_ASSERT_EQ(t[i].state, RTE_EVENT_TIMER_NOT_ARMED);
	return SWT_PASS;
}

/*
 * Timers that fall due while the adapter is stopped are delivered after
 * the next start. Once stop has returned and what was already in the
 * device is drained, nothing comes until start.
 */
static int
stopped_delivers_after_start(void)
{
	const unsigned int n = 200;
	struct swtim_adapter *a = mk_adapter(ID, n, true);
	struct rte_event_timer *t = swt_timers(n);
	struct rte_event_timer **p = swt_timer_ptrs(t, n);
	unsigned int before, during, after, armed = 0, i;

	SWT_ASSERT(a != NULL && t != NULL && p != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	for (i = 0; i < n; i++)
		swt_timer_init(&t[i], SWT_Q_ATOMIC, i, 10 + i % 10);
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, n), n, 0);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	/* Whatever was enqueued before stop returned. */
	before = swt_drain(&swt_dev, 30);
	/* All are due now; none may be enqueued while stopped. */
	swt_sleep_ms(50);
	during = swt_drain(&swt_dev, 50);
	SWT_ASSERT_EQ(during, 0);
	for (i = 0; i < n; i++)
		armed += t[i].state == RTE_EVENT_TIMER_ARMED;
	SWT_ASSERT(armed <= n - before, "%u armed, %u delivered", armed,
		   before);
	SWT_ASSERT_OK(swtim_adapter_start(a));
	after = swt_collect(&swt_dev, NULL, n - before, 2000);
	SWT_ASSERT_EQ(before + after, n);
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 50), 0);
	printf("    %u before stop, %u after start (%u still armed)\n",
	       before, after, armed);
	return SWT_PASS;
}

/*
 * With two service lcores, stop still returns only once neither runs the
 * adapter: from then on its counters and the device stay still, though
 * timers fall due. After start, every timer delivers exactly once.
 */
static int
stop_with_two_service_lcores(void)
{
	const unsigned int n = 500;
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, n, 0);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);
	struct rte_event_timer *t = swt_timers(n);
	struct rte_event_timer **p = swt_timer_ptrs(t, n);
	struct rte_event_timer_adapter_stats st0, st1;
	uint64_t rnd = swt_seed();
	unsigned int i, before;

	SWT_ASSERT(a != NULL && t != NULL && p != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_service_map(a, SWT_SERVICE_LCORE));
	SWT_ASSERT_OK(swt_service_map(a, SWT_FIRST_PRODUCER_LCORE));
	SWT_ASSERT_OK(swtim_adapter_start(a));
	for (i = 0; i < n; i++)
		swt_timer_init(&t[i], SWT_Q_PARALLEL, i,
			       swt_rand_range(&rnd, 1, 100));
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, n), n, 0);
	swt_sleep_ms(30);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st0));
	before = swt_drain(&swt_dev, 30);
	swt_sleep_ms(100);
	SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st1));
	SWT_ASSERT_EQ(st1.evtim_exp_count, st0.evtim_exp_count);
	SWT_ASSERT_EQ(st1.ev_enq_count, st0.ev_enq_count);
	SWT_ASSERT_EQ(st1.adapter_tick_count, st0.adapter_tick_count);
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 30), 0);
	SWT_ASSERT_OK(swtim_adapter_start(a));
	SWT_ASSERT_EQ(swt_collect(&swt_dev, NULL, n - before, 2000),
		      n - before);
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 50), 0);
	return SWT_PASS;
}

/* ---- free ---- */

/*
 * Free with every place taken: the timers are released (CANCELED), and
 * an adapter created again with the same id has all its places. Half
 * share one timeout (one slot, several blocks of it), half are spread
 * over the whole range (many slots, more than one wheel level): free
 * must find them wherever they are.
 */
static int
free_outstanding_then_recreate(void)
{
	const unsigned int nb = 200, rounds = 3;
	struct swtim_adapter *a;
	struct rte_event_timer *t = swt_timers(nb + 1);
	struct rte_event_timer **p = swt_timer_ptrs(t, nb + 1);
	unsigned int r, i;

	SWT_ASSERT(t != NULL && p != NULL, "alloc");
	init_all(t, nb + 1, FAR_TICKS);
	for (i = nb / 2; i < nb; i++)
		t[i].timeout_ticks = 100 + (i - nb / 2) * 97;
	for (r = 0; r < rounds; r++) {
		a = mk_adapter(ID, nb, true);
		SWT_ASSERT(a != NULL, "round %u: %s", r,
			   rte_strerror(rte_errno));
		SWT_ASSERT_BURST(swtim_arm_burst(a, p, nb), nb, 0);
		SWT_ASSERT_BURST(swtim_arm(a, &t[nb]), 0, ENOSPC);
		t[nb].state = RTE_EVENT_TIMER_NOT_ARMED;
		SWT_ASSERT_OK(swtim_adapter_stop(a));
		SWT_ASSERT_OK(swtim_adapter_free(a));
		for (i = 0; i < nb; i++)
			SWT_ASSERT_EQ(t[i].state, RTE_EVENT_TIMER_CANCELED);
		SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(ID), ENOENT);
	}
	/* Nothing armed was ever delivered. */
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 20), 0);
	return SWT_PASS;
}

/* Free with expiry events in the device, not yet dequeued. */
static int
free_with_undequeued_expiries(void)
{
	const unsigned int nb = 200;
	struct swtim_adapter *a;
	struct rte_event_timer *t = swt_timers(nb);
	struct rte_event_timer **p = swt_timer_ptrs(t, nb);
	unsigned int got;

	SWT_ASSERT(t != NULL && p != NULL, "alloc");
	init_all(t, nb, 1);
	a = mk_adapter(ID, nb, true);
	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, nb), nb, 0);
	swt_sleep_ms(50);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	SWT_ASSERT_OK(swtim_adapter_free(a));
	got = swt_drain(&swt_dev, 30);
	SWT_ASSERT(got <= nb, "%u events", got);

	init_all(t, nb, FAR_TICKS);
	a = mk_adapter(ID, nb, true);
	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, nb), nb, 0);
	return SWT_PASS;
}

/* ---- ports and adapter count ---- */

static int
evdev_started(uint8_t dev_id)
{
	uint32_t started = 0;

	rte_event_dev_attr_get(dev_id, RTE_EVENT_DEV_ATTR_STARTED, &started);
	return started;
}

/* One timer through adapter a; proves its port and the links work. */
static int
deliver_one(struct swtim_adapter *a, uint64_t tag)
{
	struct rte_event_timer *t = swt_timers(1);
	struct rte_event ev;

	SWT_ASSERT(t != NULL, "alloc");
	swt_timer_init(t, SWT_Q_ATOMIC, tag, 1);
	SWT_ASSERT_BURST(swtim_arm(a, t), 1, 0);
	SWT_ASSERT_EQ(swt_collect(&swt_dev, &ev, 1, 2000), 1);
	SWT_ASSERT_EQ(ev.u64, tag);
	return SWT_PASS;
}

static int16_t
adapter_port(const struct swtim_adapter *a)
{
	struct rte_event_timer_adapter_info info;

	if (swtim_adapter_get_info(a, &info) != 0)
		return -1;
	return info.event_dev_port_id;
}

/*
 * create without a callback adds one port, keeps the device running if
 * it was (stopped if it was not), and a freed adapter's port is reused.
 */
static int
create_adds_one_port(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, 16, 0);
	const uint8_t dev = swt_dev.dev_id;
	struct swtim_adapter *a, *b, *d;
	uint32_t p0 = swt_evdev_port_count(dev);
	int16_t pa, pb;

	a = swt_adapter_create(&c, -1);
	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_EQ(swt_evdev_port_count(dev), p0 + 1);
	pa = adapter_port(a);
	SWT_ASSERT_EQ(pa, p0);
	SWT_ASSERT_EQ(evdev_started(dev), 1);
	SWT_ASSERT_OK(swt_adapter_start(a));
	SWT_ASSERT_OK(deliver_one(a, 1));
	SWT_ASSERT_OK(swtim_adapter_stop(a));

	/* A second one at the same time needs a port of its own. */
	c.timer_adapter_id = ID + 1;
	b = swt_adapter_create(&c, -1);
	SWT_ASSERT(b != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_EQ(swt_evdev_port_count(dev), p0 + 2);
	pb = adapter_port(b);
	SWT_ASSERT(pb != pa && pb >= (int16_t)p0, "port %d", pb);
	SWT_ASSERT_EQ(evdev_started(dev), 1);
	SWT_ASSERT_OK(swt_adapter_start(b));
	SWT_ASSERT_OK(swtim_adapter_start(a));
	SWT_ASSERT_OK(deliver_one(a, 2));
	SWT_ASSERT_OK(deliver_one(b, 3));
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	SWT_ASSERT_OK(swtim_adapter_stop(b));

	/* Freed ports are reused: no growth. */
	SWT_ASSERT_OK(swtim_adapter_free(a));
	SWT_ASSERT_OK(swtim_adapter_free(b));
	c.timer_adapter_id = ID;
	a = swt_adapter_create(&c, -1);
	c.timer_adapter_id = ID + 1;
	b = swt_adapter_create(&c, -1);
	SWT_ASSERT(a != NULL && b != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_EQ(swt_evdev_port_count(dev), p0 + 2);
	SWT_ASSERT_OK(swt_adapter_start(b));
	SWT_ASSERT_OK(deliver_one(b, 4));
	SWT_ASSERT_OK(swtim_adapter_stop(b));

	/* A stopped device gets its port and stays stopped. */
	rte_event_dev_stop(dev);
	c.timer_adapter_id = ID + 2;
	d = swt_adapter_create(&c, -1);
	SWT_ASSERT(d != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_EQ(swt_evdev_port_count(dev), p0 + 3);
	SWT_ASSERT_EQ(evdev_started(dev), 0);
	SWT_ASSERT_OK(rte_event_dev_start(dev));
	SWT_ASSERT_OK(swt_adapter_start(d));
	SWT_ASSERT_OK(deliver_one(d, 5));
	return SWT_PASS;
}

/*
 * Take all the memory rte_malloc() has left, in pieces; return how many
 * (at most max), kept in p.
 */
static unsigned int
heap_exhaust(void **p, unsigned int max)
{
	size_t size = (size_t)256 << 20;
	unsigned int n = 0;

	while (n < max && size >= 64) {
		p[n] = rte_malloc(NULL, size, 0);
		if (p[n] != NULL)
			n++;
		else
			size /= 2;
	}
	return n;
}

/*
 * No memory for the service's event buffer (the first expiry of a list or
 * wheel creates it): the timers wait on the adapter, nothing is lost or
 * delivered twice, the log says so once, not at every run (for a buffer
 * not yet allocated, at most once a second: a loaded machine may stretch
 * the about 100 ms without memory past a second, and the count with it),
 * and once memory is back every timer comes.
 */
static int
no_memory_for_events(void)
{
	enum { N = 100, PIECES = 4096 };
	static void *piece[PIECES];
	struct swtim_adapter *a = mk_adapter(ID, 2 * N, true);
	struct rte_event_timer *t = swt_timers(N);
	struct rte_event evs[N];
	unsigned int pieces, i, warned;
	bool seen[N] = { false };
	uint64_t armed, freed;

	SWT_ASSERT(a != NULL && t != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_log_capture());
	pieces = heap_exhaust(piece, PIECES);
	for (i = 0; i < N; i++)
		swt_timer_init(&t[i], SWT_Q_PARALLEL, i, 2);
	armed = swt_now();
	for (i = 0; i < N; i++)
		SWT_ASSERT_BURST(swtim_arm(a, &t[i]), 1, 0);
	/* About 100 ticks, each a service run that finds no memory. */
	SWT_ASSERT_EQ(swt_collect(&swt_dev, evs, N, 100), 0);
	for (i = 0; i < pieces; i++)
		rte_free(piece[i]);
	freed = swt_now();
	warned = swt_log_captured("no memory for an expiry event buffer");
	SWT_ASSERT(warned >= 1 && warned <= 1 + (freed - armed) /
		   rte_get_timer_hz(), "%u warnings in %.0f ms without memory",
		   warned, swt_cycles_to_ms(freed - armed));
	SWT_ASSERT_EQ(swt_collect(&swt_dev, evs, N, 2000), N);
	for (i = 0; i < N; i++) {
		SWT_ASSERT(evs[i].u64 < N && !seen[evs[i].u64],
			   "event %" PRIu64 " unknown or twice", evs[i].u64);
		seen[evs[i].u64] = true;
	}
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 50), 0);
	return SWT_PASS;
}

/*
 * Configure event device dev as an application would: nb_ports ports of
 * its own, those whose bit is set in linked linked to queue 0, started.
 */
static int
app_dev_configure(uint8_t dev, uint8_t nb_ports, uint32_t linked)
{
	struct rte_event_dev_config conf;
	struct rte_event_dev_info info;
	uint8_t p, q = 0;

	if (rte_event_dev_info_get(dev, &info) != 0)
		return -EIO;
	memset(&conf, 0, sizeof(conf));
	conf.nb_event_queues = 1;
	conf.nb_event_ports = nb_ports;
	conf.nb_events_limit = info.max_num_events;
	conf.nb_event_queue_flows = info.max_event_queue_flows;
	conf.nb_event_port_dequeue_depth = info.max_event_port_dequeue_depth;
	conf.nb_event_port_enqueue_depth = info.max_event_port_enqueue_depth;
	if (rte_event_dev_configure(dev, &conf) != 0 ||
	    rte_event_queue_setup(dev, 0, NULL) != 0)
		return -EIO;
	for (p = 0; p < nb_ports; p++) {
		if (rte_event_port_setup(dev, p, NULL) != 0)
			return -EIO;
		if ((linked >> p & 1) &&
		    rte_event_port_link(dev, p, &q, NULL, 1) != 1)
			return -EIO;
	}
	return rte_event_dev_start(dev);
}

/*
 * A port that create added and free gave back is only handed out again
 * while the device keeps the configuration swtim left: an application
 * that closed the device and set it up again owns its ports, whether it
 * kept their number (a linked port is not swtim's) or not. On a device
 * of this case's own.
 */
static int
reconfigured_device_ports_not_reused(void)
{
	const char *name = "event_dsw2";
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, 16, 0);
	struct swtim_adapter *a;
	int dev;

	if (rte_event_dev_get_dev_id(name) < 0)
		SWT_ASSERT_OK(rte_eal_hotplug_add("vdev", name, ""));
	dev = rte_event_dev_get_dev_id(name);
	SWT_ASSERT(dev >= 0, "no %s", name);
	c.event_dev_id = dev;
	SWT_ASSERT_OK(app_dev_configure(dev, 1, 0x1));

	/* Port 1 added, then freed. */
	a = swt_adapter_create(&c, -1);
	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_EQ(adapter_port(a), 1);
	SWT_ASSERT_OK(swtim_adapter_free(a));

	/* Set up again with two linked ports of its own: port 1 is the
	 * application's now, although the count is what swtim left. */
	rte_event_dev_stop(dev);
	SWT_ASSERT_OK(rte_event_dev_close(dev));
	SWT_ASSERT_OK(app_dev_configure(dev, 2, 0x3));
	a = swt_adapter_create(&c, -1);
	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_EQ(adapter_port(a), 2);
	SWT_ASSERT_EQ(swt_evdev_port_count(dev), 3);
	SWT_ASSERT_OK(swtim_adapter_free(a));

	/* Set up again with four ports, port 2 unlinked (a producer
	 * port): another count, so swtim's freed port 2 is forgotten. */
	rte_event_dev_stop(dev);
	SWT_ASSERT_OK(rte_event_dev_close(dev));
	SWT_ASSERT_OK(app_dev_configure(dev, 4, 0xb));
	a = swt_adapter_create(&c, -1);
	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_EQ(adapter_port(a), 4);
	SWT_ASSERT_OK(swtim_adapter_free(a));

	/* Left alone, the device gives the freed port back as before. */
	a = swt_adapter_create(&c, -1);
	SWT_ASSERT(a != NULL, "%s", rte_strerror(rte_errno));
	SWT_ASSERT_EQ(adapter_port(a), 4);
	SWT_ASSERT_EQ(swt_evdev_port_count(dev), 5);
	SWT_ASSERT_OK(swtim_adapter_free(a));
	rte_event_dev_stop(dev);	/* closed by EAL cleanup */
	return SWT_PASS;
}

/*
 * Many create/free cycles, mixing the add-a-port path (with the default
 * driver through swtim_adapter_create() and with the driver under test)
 * and application ports: the device's ports never grow past one extra.
 */
static int
create_free_cycles(void)
{
	const unsigned int cycles = 1000;
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, MAX_TMO_NS, 64, 0);
	const uint8_t dev = swt_dev.dev_id;
	struct swtim_adapter *a;
	uint32_t p0 = swt_evdev_port_count(dev), pmax = 0;
	unsigned int i;

	for (i = 0; i < cycles; i++) {
		switch (i % 4) {
		case 0:
			a = swtim_adapter_create(&c);
			break;
		case 1:
			a = swt_adapter_create(&c, -1);
			break;
		default:
			a = swt_adapter_create(&c, APP_PORT);
			break;
		}
		SWT_ASSERT(a != NULL, "cycle %u: %s", i,
			   rte_strerror(rte_errno));
		pmax = RTE_MAX(pmax, swt_evdev_port_count(dev));
		SWT_ASSERT(pmax <= p0 + 1, "cycle %u: %u ports, was %u", i,
			   pmax, p0);
		/* Now and then prove the adapter actually works. */
		if (i % 100 < 2) {
			SWT_ASSERT_OK(swt_adapter_start(a));
			SWT_ASSERT_OK(deliver_one(a, i));
			SWT_ASSERT_OK(swtim_adapter_stop(a));
		}
		SWT_ASSERT_OK(swtim_adapter_free(a));
		SWT_ASSERT_NULL_ERRNO(swtim_adapter_lookup(ID), ENOENT);
	}
	printf("    %u cycles, ports %u -> at most %u\n", cycles, p0, pmax);
	return SWT_PASS;
}

/* SWTIM_ADAPTER_NUM_MAX adapters at once, sharing one port and lcore. */
static int
num_max_adapters(void)
{
	const unsigned int n = SWTIM_ADAPTER_NUM_MAX;
	struct swtim_adapter *a[SWTIM_ADAPTER_NUM_MAX];
	struct rte_event_timer *t = swt_timers(n);
	struct rte_event evs[SWTIM_ADAPTER_NUM_MAX];
	uint8_t seen[SWTIM_ADAPTER_NUM_MAX] = { 0 };
	unsigned int i;

	SWT_ASSERT(t != NULL, "alloc");
	RTE_BUILD_BUG_ON(SWTIM_ADAPTER_NUM_MAX < 32);
	for (i = 0; i < n; i++) {
		a[i] = mk_adapter(i, 4, true);
		SWT_ASSERT(a[i] != NULL, "adapter %u: %s", i,
			   rte_strerror(rte_errno));
	}
	for (i = 0; i < n; i++) {
		SWT_ASSERT(swtim_adapter_lookup(i) == a[i], "lookup %u", i);
		swt_timer_init(&t[i], SWT_Q_PARALLEL, i, 1 + i % 5);
		SWT_ASSERT_BURST(swtim_arm(a[i], &t[i]), 1, 0);
	}
	SWT_ASSERT_EQ(swt_collect(&swt_dev, evs, n, 3000), n);
	for (i = 0; i < n; i++) {
		SWT_ASSERT(evs[i].u64 < n, "u64 %" PRIu64, evs[i].u64);
		SWT_ASSERT(seen[evs[i].u64]++ == 0, "adapter %" PRIu64
			   " delivered twice", evs[i].u64);
	}
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 20), 0);
	for (i = 0; i < n; i++) {
		SWT_ASSERT_OK(swtim_adapter_stop(a[i]));
		SWT_ASSERT_OK(swtim_adapter_free(a[i]));
	}
	return SWT_PASS;
}

/* ---- timeouts ---- */

/*
 * max_tmo_ns = UINT64_MAX allows timeouts whose length in timer cycles
 * does not fit in 64 bits (about 224 years at 2.6 GHz): such a timer must
 * not wrap into one that falls due at once, must report about its whole
 * timeout as remaining, and must not hold up a short timer next to it.
 */
static int
timeout_past_the_clock(void)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(ID, TICK_NS, UINT64_MAX, 4, 0);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);
	struct rte_event_timer *t = swt_timers(2);
	struct rte_event_timer **p = swt_timer_ptrs(t, 2);
	uint64_t tick_cycles = swt_ns_to_cycles(TICK_NS);
	uint64_t far = RTE_MIN(UINT64_MAX / tick_cycles + 1,
			       UINT64_MAX / TICK_NS);
	uint64_t rem = 0;
	struct rte_event ev;

	SWT_ASSERT(a != NULL && t != NULL && p != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_adapter_start(a));
	swt_timer_init(&t[0], SWT_Q_ATOMIC, 1, far);
	swt_timer_init(&t[1], SWT_Q_ATOMIC, 2, 20);
	SWT_ASSERT_BURST(swtim_arm_burst(a, p, 2), 2, 0);
	SWT_ASSERT_OK(swtim_remaining_ticks_get(a, &t[0], &rem));
	SWT_ASSERT(rem >= far - far / 1000 && rem <= far,
		   "%" PRIu64 " ticks remaining of %" PRIu64, rem, far);
	/* The short one comes, alone. */
	SWT_ASSERT_EQ(swt_collect(&swt_dev, &ev, 1, 2000), 1);
	SWT_ASSERT_EQ(ev.u64, 2);
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 200), 0);
	SWT_ASSERT_EQ(t[0].state, RTE_EVENT_TIMER_ARMED);
	SWT_ASSERT_EQ(swtim_cancel(a, &t[0]), 1);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	SWT_ASSERT_OK(swtim_adapter_free(a));
	return SWT_PASS;
}

static const struct swt_case cases[] = {
	SWT_CASE(enospc_exactly_at_limit),
	SWT_CASE(enospc_expired_free_their_place),
	SWT_CASE(enospc_burst_arms_front),
	/* Before a case that launches on the lcore it borrows for service. */
	SWT_CASE(stop_with_two_service_lcores),
	SWT_CASE(enospc_across_lcores),
	SWT_CASE(big_bursts),
	SWT_CASE(stop_start_cycles),
	SWT_CASE(stopped_delivers_after_start),
	SWT_CASE(free_outstanding_then_recreate),
	SWT_CASE(free_with_undequeued_expiries),
	SWT_CASE(create_adds_one_port),
	SWT_CASE(create_free_cycles),
	SWT_CASE(reconfigured_device_ports_not_reused),
	SWT_CASE(no_memory_for_events),
	SWT_CASE(num_max_adapters),
	SWT_CASE(timeout_past_the_clock),
};

int
main(int argc, char **argv)
{
	return swt_main(argc, argv, cases, RTE_DIM(cases));
}
