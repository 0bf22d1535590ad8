/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_EVBUF_H
#define SWTIM_EVBUF_H

/**
 * @file
 * The expiry event buffer drivers share: a FIFO of events waiting for
 * the event device. A driver's service appends the expiry events of a
 * scan and flushes; what the device refuses stays, in order, for the next
 * flush, so nothing is dropped under back-pressure.
 *
 * Single-threaded: one buffer belongs to one service run at a time.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_eventdev.h>

/** Events the buffer starts with at least. */
#define SWTIM_EVBUF_MIN 1024

/**
 * Largest number of events handed to rte_event_enqueue_new_burst() at
 * once (further capped by the port's enqueue depth). 32 matches the bursts
 * event devices are tuned for; larger only holds the first events back.
 */
#define SWTIM_EVBUF_ENQ_BURST_MAX 32

/** The buffer. Indices run freely and are masked on use. */
struct swtim_evbuf {
	struct rte_event *evs;
	uint32_t mask;
	uint32_t head;		/**< next event to enqueue */
	uint32_t tail;		/**< next free slot */
	uint32_t tried;		/**< events before this were offered once */
	uint8_t dev_id;
	uint8_t port_id;
	uint16_t enq_burst;
	bool needs_maintenance;	/**< device wants rte_event_maintain() */
	int socket;
};

/**
 * Whether a device needs rte_event_maintain() on ports that only enqueue.
 *
 * Devices without RTE_EVENT_DEV_CAP_MAINTENANCE_FREE (event_dsw, say) hold
 * enqueued events in per-port buffers until the port is used again.
 *
 * @param dev_id
 *   Event device.
 * @return
 *   true if the device needs maintenance (or cannot be asked).
 */
bool swtim_event_dev_needs_maintenance(uint8_t dev_id);

/**
 * Set a buffer up for a port.
 *
 * @param buf
 *   The buffer.
 * @param size_hint
 *   Events it should hold without growing (rounded up to a power of 2).
 * @param dev_id
 *   Event device.
 * @param port_id
 *   Port the events are enqueued on.
 * @param socket
 *   NUMA socket for the memory.
 * @return
 *   0 or -ENOMEM.
 */
int swtim_evbuf_init(struct swtim_evbuf *buf, uint64_t size_hint,
		     uint8_t dev_id, uint8_t port_id, int socket);

/**
 * Release a buffer; events still in it are lost.
 *
 * @param buf
 *   The buffer.
 */
void swtim_evbuf_free(struct swtim_evbuf *buf);

/**
 * Double the buffer, keeping its events in order.
 *
 * @param buf
 *   The buffer.
 * @return
 *   0, -ENOSPC or -ENOMEM.
 */
int swtim_evbuf_grow(struct swtim_evbuf *buf);

/**
 * Number of events in the buffer.
 *
 * @param buf
 *   The buffer.
 * @return
 *   Events waiting.
 */
static inline uint32_t
swtim_evbuf_count(const struct swtim_evbuf *buf)
{
	return buf->tail - buf->head;
}

/**
 * Slot for one more event at the tail, growing the buffer if full.
 *
 * @param buf
 *   The buffer.
 * @return
 *   The slot to fill, or NULL if the buffer could not grow.
 */
static inline struct rte_event *
swtim_evbuf_slot(struct swtim_evbuf *buf)
{
	if (unlikely(buf->tail - buf->head > buf->mask) &&
	    swtim_evbuf_grow(buf) != 0)
		return NULL;
	return &buf->evs[buf->tail++ & buf->mask];
}

/**
 * Offer the buffered events to the device until it refuses some.
 *
 * rte_errno is never read after a short enqueue: some devices leave it
 * stale.
 *
 * @param buf
 *   The buffer.
 * @param[out] retries
 *   Incremented by the events that were new since the last flush and are
 *   still in the buffer (kept to be retried).
 * @return
 *   Events the device accepted.
 */
uint32_t swtim_evbuf_flush(struct swtim_evbuf *buf, uint64_t *retries);

/**
 * Let the device move on events it holds for the port, if it needs that
 * (no RTE_EVENT_DEV_CAP_MAINTENANCE_FREE). Call on every service run:
 * event_dsw keeps the last enqueued events in the port until then.
 *
 * @param buf
 *   The buffer.
 */
static inline void
swtim_evbuf_maintain(const struct swtim_evbuf *buf)
{
	if (buf->needs_maintenance)
		rte_event_maintain(buf->dev_id, buf->port_id, 0);
}

#endif /* SWTIM_EVBUF_H */
