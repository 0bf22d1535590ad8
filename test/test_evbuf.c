/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The expiry event buffer (lib/timer_adapter/swtim_evbuf.[ch]) driven
 * directly: tags stay with their events across wrap-around and growth,
 * taking a tagged event out keeps the others in order and the retry
 * bookkeeping right, and after a flush the tags of the events the device
 * took are those of the events that came out of it, in order. Runs once,
 * not per driver.
 */

#include <dlfcn.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eventdev.h>

#include "swtim_evbuf.h"
#include "swtim_port.h"
#include "swtim_test.h"

/* The tag of event number i, and its u64. */
#define TAG(i)	(UINT64_C(0x7a90000000000000) | (i))

/* Append events first .. first + n - 1, each tagged with its u64. */
static int
append(struct swtim_evbuf *buf, uint32_t first, uint32_t n)
{
	struct rte_event *ev;
	uint32_t i;

	SWT_ASSERT(swtim_evbuf_reserve(buf, n), "no room for %u events", n);
	for (i = first; i < first + n; i++) {
		ev = swtim_evbuf_at(buf, i - first);
		*swtim_evbuf_tag_at(buf, i - first) = TAG(i);
		memset(ev, 0, sizeof(*ev));
		ev->queue_id = SWT_Q_ATOMIC;
		ev->sched_type = swt_queue_sched_type(SWT_Q_ATOMIC);
		ev->op = RTE_EVENT_OP_NEW;
		ev->event_type = RTE_EVENT_TYPE_TIMER;
		ev->u64 = TAG(i);
	}
	swtim_evbuf_commit(buf, n);
	return SWT_PASS;
}

/* The buffer holds exactly want[0 .. n - 1], in order, tags matching. */
static int
holds(const struct swtim_evbuf *buf, const uint32_t *want, uint32_t n)
{
	uint32_t k;

	SWT_ASSERT_EQ(swtim_evbuf_count(buf), n);
	for (k = 0; k < n; k++) {
		uint32_t pos = buf->head + k;

		SWT_ASSERT(buf->evs[pos & buf->mask].u64 == TAG(want[k]),
			   "event %u is %#" PRIx64 ", not event %u", k,
			   buf->evs[pos & buf->mask].u64, want[k]);
		SWT_ASSERT(swtim_evbuf_tag_of(buf, pos) == TAG(want[k]),
			   "tag %u is %#" PRIx64 ", not event %u's", k,
			   (uint64_t)swtim_evbuf_tag_of(buf, pos), want[k]);
	}
	return SWT_PASS;
}

/*
 * Take events out of the front, the middle and the back, across the end
 * of the array, and one that is not there.
 */
static int
remove_keeps_order(void)
{
	struct swtim_evbuf buf;
	uint32_t want[16], n = 0, i, size;

	SWT_ASSERT_OK(swtim_evbuf_init(&buf, 0, SOCKET_ID_ANY, true));
	size = buf.mask + 1;
	/* Start 5 short of the end of the array, so that the 12 wrap. */
	buf.head = buf.tail = buf.tried = size - 5;
	SWT_ASSERT_OK(append(&buf, 0, 12));
	for (i = 0; i < 12; i++)
		want[n++] = i;
	/* The first 6 were offered once already (tried). */
	buf.tried = buf.head + 6;

	/* The middle, across the wrap: 4 sits before the end, 6 after. */
	SWT_ASSERT(swtim_evbuf_remove_tagged(&buf, TAG(4)), "4 not found");
	memmove(&want[4], &want[5], (--n - 4) * sizeof(want[0]));
	SWT_ASSERT_OK(holds(&buf, want, n));
	SWT_ASSERT_EQ(buf.tried, buf.head + 5);	/* 4 had been offered */
	SWT_ASSERT(swtim_evbuf_remove_tagged(&buf, TAG(9)), "9 not found");
	memmove(&want[8], &want[9], (--n - 8) * sizeof(want[0]));
	SWT_ASSERT_OK(holds(&buf, want, n));
	SWT_ASSERT_EQ(buf.tried, buf.head + 5);	/* 9 had not */
	/* The front and the back. */
	SWT_ASSERT(swtim_evbuf_remove_tagged(&buf, TAG(0)), "0 not found");
	memmove(&want[0], &want[1], --n * sizeof(want[0]));
	SWT_ASSERT(swtim_evbuf_remove_tagged(&buf, TAG(11)), "11 not found");
	n--;
	SWT_ASSERT_OK(holds(&buf, want, n));
	SWT_ASSERT_EQ(buf.tried, buf.head + 4);
	/* Gone already, and never there. */
	SWT_ASSERT(!swtim_evbuf_remove_tagged(&buf, TAG(4)), "4 twice");
	SWT_ASSERT(!swtim_evbuf_remove_tagged(&buf, TAG(99)), "99 found");
	SWT_ASSERT_OK(holds(&buf, want, n));
	/* Appending goes on after the last one left. */
	SWT_ASSERT_OK(append(&buf, 12, 1));
	want[n++] = 12;
	SWT_ASSERT_OK(holds(&buf, want, n));
	swtim_evbuf_free(&buf);
	SWT_ASSERT(buf.evs == NULL && buf.tags == NULL, "not released");
	return SWT_PASS;
}

/* A buffer that grows, from the middle of its array, keeps its tags. */
static int
grow_keeps_tags(void)
{
	struct swtim_evbuf buf;
	uint32_t *want, n, i, size;

	SWT_ASSERT_OK(swtim_evbuf_init(&buf, 0, SOCKET_ID_ANY, true));
	size = buf.mask + 1;
	n = 2 * size + 3;
	want = swt_calloc(n, sizeof(*want));
	SWT_ASSERT(want != NULL, "no memory");
	buf.head = buf.tail = buf.tried = size / 2;
	SWT_ASSERT_OK(append(&buf, 0, n));
	SWT_ASSERT(buf.mask + 1 >= n, "did not grow: %u for %u",
		   buf.mask + 1, n);
	for (i = 0; i < n; i++)
		want[i] = i;
	SWT_ASSERT_OK(holds(&buf, want, n));
	swtim_evbuf_free(&buf);
	/* An untagged buffer has no tags to keep. */
	SWT_ASSERT_OK(swtim_evbuf_init(&buf, 0, SOCKET_ID_ANY, false));
	SWT_ASSERT(buf.tags == NULL, "untagged buffer with tags");
	swtim_evbuf_free(&buf);
	return SWT_PASS;
}

/*
 * Flush to the device: the tags from the head before the flush on, for
 * as many as it took, are those of the events the worker dequeues.
 */
static int
flush_then_tags(void)
{
	const uint32_t n = 100;
	struct swtim_evbuf buf;
	struct swtim_port port;
	struct rte_event evs[128];
	uint64_t retries = 0;
	uint32_t first, accepted, i;

	SWT_ASSERT_OK(swtim_evbuf_init(&buf, 0, SOCKET_ID_ANY, true));
	swtim_port_init(&port, swt_dev.dev_id, swt_dev.app_port);
	SWT_ASSERT_OK(append(&buf, 0, n));
	/* One in the middle taken back before the device sees any. */
	SWT_ASSERT(swtim_evbuf_remove_tagged(&buf, TAG(50)), "50 not found");
	first = buf.head;
	accepted = swtim_evbuf_flush(&buf, &port, NULL, &retries);
	SWT_ASSERT(accepted > 0 && accepted <= n - 1, "%u accepted",
		   accepted);
	SWT_ASSERT_EQ(swtim_evbuf_count(&buf), n - 1 - accepted);
	SWT_ASSERT_EQ(swt_collect(&swt_dev, evs, accepted, 2000), accepted);
	/* One atomic flow: they come out in the order they went in. */
	for (i = 0; i < accepted; i++) {
		SWT_ASSERT(swtim_evbuf_tag_of(&buf, first + i) == evs[i].u64,
			   "tag %u is %#" PRIx64 ", event %#" PRIx64, i,
			   (uint64_t)swtim_evbuf_tag_of(&buf, first + i),
			   evs[i].u64);
		SWT_ASSERT(evs[i].u64 != TAG(50), "taken-back event came");
	}
	while (swtim_evbuf_count(&buf) != 0)
		swtim_evbuf_flush(&buf, &port, NULL, &retries);
	SWT_ASSERT_EQ(swt_collect(&swt_dev, NULL, n - 1 - accepted, 2000),
		      n - 1 - accepted);
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 20), 0);
	swtim_evbuf_free(&buf);
	return SWT_PASS;
}

/*
 * A device that takes nothing, while refusing is set: this program's
 * swtim_port_enqueue() stands in front of the library's (it is exported
 * for that, swtim_port.h), which it calls otherwise.
 */
static bool refusing;

uint16_t
swtim_port_enqueue(struct swtim_port *port, const struct rte_event *ev,
		   uint16_t nb)
{
	static uint16_t (*next)(struct swtim_port *, const struct rte_event *,
				uint16_t);

	if (refusing)
		return 0;
	if (next == NULL)
		*(void **)&next = dlsym(RTLD_NEXT, "swtim_port_enqueue");
	RTE_VERIFY(next != NULL);
	return next(port, ev, nb);
}

/*
 * Taking back the last event that a device refused ends that stall: the
 * buffer does not back off any more, and the next refusal is measured
 * from itself (else it would be reported as a stall of all the time in
 * between).
 */
static int
remove_last_ends_stall(void)
{
	struct swtim_evbuf buf;
	struct swtim_port port;
	uint64_t retries = 0, t2;
	uint32_t accepted;

	SWT_ASSERT_OK(swtim_evbuf_init(&buf, 0, SOCKET_ID_ANY, true));
	swtim_port_init(&port, swt_dev.dev_id, swt_dev.app_port);
	refusing = true;
	SWT_ASSERT_OK(append(&buf, 0, 1));
	accepted = swtim_evbuf_flush(&buf, &port, NULL, &retries);
	SWT_ASSERT_EQ(accepted, 0);
	SWT_ASSERT(buf.refused_since != 0, "refusal not seen");
	SWT_ASSERT(swtim_evbuf_backing_off(&buf, rte_get_timer_cycles()),
		   "not backing off after a refusal");
	SWT_ASSERT(swtim_evbuf_remove_tagged(&buf, TAG(0)), "0 not found");
	SWT_ASSERT_EQ(swtim_evbuf_count(&buf), 0);
	SWT_ASSERT(!swtim_evbuf_backing_off(&buf, rte_get_timer_cycles()),
		   "still backing off with nothing to offer");
	SWT_ASSERT_EQ(buf.refused_since, 0);
	swt_sleep_ms(5);
	t2 = rte_get_timer_cycles();
	SWT_ASSERT_OK(append(&buf, 1, 1));
	SWT_ASSERT_EQ(swtim_evbuf_flush(&buf, &port, NULL, &retries), 0);
	SWT_ASSERT(buf.refused_since >= t2, "stall counted from %" PRIu64
		   " cycles before this refusal", t2 - buf.refused_since);
	/* Refused again: a retry is counted once per refused event, not
	 * per offer (evtim_retry_count). */
	SWT_ASSERT_EQ(swtim_evbuf_flush(&buf, &port, NULL, &retries), 0);
	SWT_ASSERT_EQ(retries, 2);
	refusing = false;
	while (swtim_evbuf_count(&buf) != 0)
		swtim_evbuf_flush(&buf, &port, NULL, &retries);
	SWT_ASSERT_EQ(swt_collect(&swt_dev, NULL, 1, 2000), 1);
	swtim_evbuf_free(&buf);
	return SWT_PASS;
}

static const struct swt_case cases[] = {
	SWT_CASE(remove_keeps_order),
	SWT_CASE(grow_keeps_tags),
	SWT_CASE(flush_then_tags),
	SWT_CASE(remove_last_ends_stall),
};

int
main(int argc, char **argv)
{
	return swt_main(argc, argv, cases, RTE_DIM(cases));
}
