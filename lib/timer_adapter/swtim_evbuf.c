/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_malloc.h>

#include "swtim_budget.h"
#include "swtim_evbuf.h"
#include "swtim_log.h"

/* Timer cycles of the last warning that a new buffer found no memory. */
static uint64_t swtim_evbuf_nomem_at;

/*
 * No memory for size events. The service retries every run; nothing is
 * lost meanwhile (the timers wait in their lanes' stores, or in the
 * skiplist driver's overflow queues), but the expiries are late: say
 * so, once until a buffer that grows gets memory again (reported, which
 * a new buffer, possibly never written before, cannot keep: those say so
 * at most once a second in all).
 */
static void
swtim_evbuf_nomem(bool *reported, uint64_t size)
{
	uint64_t now = rte_get_timer_cycles();
	uint64_t last = __atomic_load_n(&swtim_evbuf_nomem_at,
					__ATOMIC_RELAXED);

	if (reported != NULL) {
		if (*reported)
			return;
		*reported = true;
	} else if ((last != 0 && now - last < rte_get_timer_hz()) ||
		   !__atomic_compare_exchange_n(&swtim_evbuf_nomem_at, &last,
				now, false, __ATOMIC_RELAXED,
				__ATOMIC_RELAXED)) {
		return;
	}
	SWTIM_LOG(WARNING, "no memory for an expiry event buffer of %" PRIu64
		  " events: the expiries wait, and are late, until there is",
		  size);
}

int
swtim_evbuf_init(struct swtim_evbuf *buf, uint64_t size_hint, int socket,
		 bool tagged)
{
	uint64_t size = rte_align64pow2(RTE_MAX(size_hint,
						(uint64_t)SWTIM_EVBUF_MIN));

	if (size > UINT32_MAX / 2)
		size = (UINT32_MAX / 2) + 1;
	memset(buf, 0, sizeof(*buf));
	buf->evs = rte_malloc_socket("swtim_evbuf", size * sizeof(buf->evs[0]),
				     RTE_CACHE_LINE_SIZE, socket);
	if (tagged)
		buf->tags = rte_malloc_socket("swtim_evbuf_tags",
					      size * sizeof(buf->tags[0]),
					      RTE_CACHE_LINE_SIZE, socket);
	if (buf->evs == NULL || (tagged && buf->tags == NULL)) {
		swtim_evbuf_free(buf);
		swtim_evbuf_nomem(NULL, size);
		return -ENOMEM;
	}
	buf->mask = size - 1;
	buf->socket = socket;
	return 0;
}

void
swtim_evbuf_free(struct swtim_evbuf *buf)
{
	rte_free(buf->evs);
	rte_free(buf->tags);
	buf->evs = NULL;
	buf->tags = NULL;
}

int
swtim_evbuf_grow(struct swtim_evbuf *buf)
{
	uint32_t size = buf->mask + 1, n = buf->tail - buf->head, i;
	struct rte_event *evs;
	uintptr_t *tags = NULL;

	if (size > UINT32_MAX / 2)
		return -ENOSPC;
	evs = rte_malloc_socket("swtim_evbuf",
				2 * (size_t)size * sizeof(evs[0]),
				RTE_CACHE_LINE_SIZE, buf->socket);
	if (buf->tags != NULL)
		tags = rte_malloc_socket("swtim_evbuf_tags",
					 2 * (size_t)size * sizeof(tags[0]),
					 RTE_CACHE_LINE_SIZE, buf->socket);
	if (evs == NULL || (buf->tags != NULL && tags == NULL)) {
		rte_free(evs);
		rte_free(tags);
		swtim_evbuf_nomem(&buf->nomem_reported, 2 * (uint64_t)size);
		return -ENOMEM;
	}
	buf->nomem_reported = false;
	for (i = 0; i < n; i++)
		evs[i] = buf->evs[(buf->head + i) & buf->mask];
	if (tags != NULL)
		for (i = 0; i < n; i++)
			tags[i] = buf->tags[(buf->head + i) & buf->mask];
	rte_free(buf->evs);
	rte_free(buf->tags);
	buf->evs = evs;
	buf->tags = tags;
	buf->tried -= buf->head;
	buf->head = 0;
	buf->tail = n;
	buf->mask = 2 * size - 1;
	return 0;
}

bool
swtim_evbuf_remove_tagged(struct swtim_evbuf *buf, uintptr_t tag)
{
	uint32_t gap, pos, next;

	for (gap = buf->head; gap != buf->tail; gap++)
		if (buf->tags[gap & buf->mask] == tag)
			break;
	if (gap == buf->tail)
		return false;
	/* Close the gap from behind: the events before it keep their
	 * places, and so does the head the device takes from. */
	for (pos = gap, next = gap + 1; next != buf->tail; pos = next++) {
		buf->evs[pos & buf->mask] = buf->evs[next & buf->mask];
		buf->tags[pos & buf->mask] = buf->tags[next & buf->mask];
	}
	buf->tail--;
	/* It was offered to the device already if it sat before tried. */
	if ((int32_t)(buf->tried - gap) > 0)
		buf->tried--;
	/* Nothing waits for the device any more: a refusal later starts a
	 * stall of its own, not one counted from these events'. */
	if (buf->head == buf->tail)
		swtim_evbuf_stall_reset(buf);
	return true;
}

/*
 * After a flush that left events in the buffer, or the first one after a
 * stall: keep the time since the device last took anything, warn once a
 * stall has lasted SWTIM_EVBUF_STALL_MS, say when it ends.
 */
static void
swtim_evbuf_watch_stall(struct swtim_evbuf *buf,
			const struct swtim_port *port, uint32_t accepted)
{
	uint64_t now = rte_get_timer_cycles(), hz = rte_get_timer_hz();
	uint64_t stalled_ms;

	/* Refused outright: let the device breathe before the next offer. */
	__atomic_store_n(&buf->retry_at, accepted == 0 &&
			 buf->head != buf->tail ?
			 now + hz * SWTIM_EVBUF_RETRY_US / US_PER_S : 0,
			 __ATOMIC_RELAXED);
	if (accepted != 0 || buf->head == buf->tail) {
		if (buf->stall_reported)
			SWTIM_LOG(NOTICE, "event device %u port %u takes expiry"
				  " events again after %" PRIu64 " ms",
				  port->dev_id, port->port_id,
				  (now - buf->refused_since) * MS_PER_S / hz);
		buf->stall_reported = false;
		/* Events still here were refused just now. */
		buf->refused_since = buf->head == buf->tail ? 0 : now;
		return;
	}
	if (buf->refused_since == 0) {
		buf->refused_since = now;
		return;
	}
	stalled_ms = (now - buf->refused_since) * MS_PER_S / hz;
	if (buf->stall_reported || stalled_ms < SWTIM_EVBUF_STALL_MS)
		return;
	SWTIM_LOG(WARNING, "event device %u port %u has refused every expiry"
		  " event for %" PRIu64 " ms (%u waiting, kept for later): are"
		  " the workers dequeuing, and does the port's"
		  " new_event_threshold leave room for the credits the"
		  " device's ports may hold (event_dsw: up to 128 each)?",
		  port->dev_id, port->port_id, stalled_ms,
		  buf->tail - buf->head);
	buf->stall_reported = true;
}

uint32_t
swtim_evbuf_flush(struct swtim_evbuf *buf, struct swtim_port *port,
		  struct swtim_budget *budget, uint64_t *retries)
{
	uint32_t n, first, accepted, total = 0, start;

	rte_spinlock_lock(&port->lock);
	while (buf->head != buf->tail) {
		first = buf->head & buf->mask;
		n = RTE_MIN(buf->tail - buf->head, (uint32_t)port->enq_burst);
		/* Stop at the end of the array; the next loop wraps. */
		n = RTE_MIN(n, buf->mask + 1 - first);
		if (budget != NULL)
			swtim_budget_give(budget, n);
		accepted = swtim_port_enqueue(port, &buf->evs[first], n);
		if (budget != NULL)
			swtim_budget_retake(budget, n - accepted);
		buf->head += accepted;
		total += accepted;
		if (accepted < n)
			break;
	}
	/*
	 * event_dsw would otherwise hold the events in the port until its
	 * next background pass, which with a sleeping service can be many
	 * runs away.
	 */
	if (total != 0 && port->needs_maintenance)
		rte_event_maintain(port->dev_id, port->port_id,
				   RTE_EVENT_DEV_MAINT_OP_FLUSH);
	rte_spinlock_unlock(&port->lock);
	if (unlikely(buf->head != buf->tail || buf->refused_since != 0))
		swtim_evbuf_watch_stall(buf, port, total);
	/* Events new since the last flush that are still here are retries. */
	start = (int32_t)(buf->head - buf->tried) > 0 ? buf->head : buf->tried;
	*retries += buf->tail - start;
	buf->tried = buf->tail;
	return total;
}
