/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_EVBUF_H
#define SWTIM_EVBUF_H

/**
 * @file
 * The expiry event buffer of a lane (swtim_lane.h): a FIFO of events
 * waiting for the event device. A driver's scan appends the expiry
 * events it builds, a batch at a time (swtim_evbuf_reserve(), then
 * swtim_evbuf_at() for each, then swtim_evbuf_commit()), and flushes;
 * what the device refuses stays, in order, for the next flush, so
 * nothing is dropped under back-pressure.
 *
 * Single-threaded: a buffer belongs to whoever holds its lane's claim.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_eventdev.h>

#include "swtim_port.h"
#include "swtim_tunables.h"

struct swtim_budget;

/**
 * The buffer. Indices run freely and are masked on use.
 *
 * A tagged buffer keeps a word beside each event (the driver's handle on
 * the timer it came from), so that once the device has taken events the
 * driver knows whose they were: a periodic timer is not armed for its
 * next period until its event is in the device, so that a cancel that
 * returns success leaves no event of it behind in the buffer.
 */
struct swtim_evbuf {
	struct rte_event *evs;
	uintptr_t *tags;	/**< NULL unless tagged */
	uint32_t mask;
	uint32_t head;		/**< next event to enqueue */
	uint32_t tail;		/**< next free slot */
	uint32_t tried;		/**< events before this were offered once */
	int socket;
	bool stall_reported;	/**< the warning for this stall is out */
	/** The warning that memory ran out is out (until memory is had). */
	bool nomem_reported;
	/** Timer cycles since the device refuses everything; 0: it does not. */
	uint64_t refused_since;
	/** Timer cycles before which not to offer refused events again. */
	uint64_t retry_at;
};

/**
 * Set a buffer up.
 *
 * @param buf
 *   The buffer.
 * @param size_hint
 *   Events it should hold without growing (rounded up to a power of 2).
 * @param socket
 *   NUMA socket for the memory.
 * @param tagged
 *   Whether each event has a tag beside it (see struct swtim_evbuf).
 * @return
 *   0 or -ENOMEM.
 */
int swtim_evbuf_init(struct swtim_evbuf *buf, uint64_t size_hint,
		     int socket, bool tagged);

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
 * Whether the buffer holds events that the device refused outright so
 * recently that they are not to be offered yet (SWTIM_EVBUF_RETRY_US).
 * A hint, read without the buffer's owner.
 *
 * @param buf
 *   The buffer.
 * @param now
 *   Timer cycles now.
 * @return
 *   true if the buffer has nothing to offer before a later run.
 */
static inline bool
swtim_evbuf_backing_off(const struct swtim_evbuf *buf, uint64_t now)
{
	return now < __atomic_load_n(&buf->retry_at, __ATOMIC_RELAXED);
}

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
 * Make room for n more events at the tail, growing the buffer as needed,
 * so that a batch can be written without a check per event: event i of
 * the batch goes to swtim_evbuf_at(buf, i), and swtim_evbuf_commit()
 * appends them.
 *
 * @param buf
 *   The buffer.
 * @param n
 *   Events about to be written.
 * @return
 *   true, or false if the buffer could not grow (nothing changed).
 */
static inline bool
swtim_evbuf_reserve(struct swtim_evbuf *buf, uint32_t n)
{
	while (unlikely(buf->mask + 1 - (buf->tail - buf->head) < n))
		if (swtim_evbuf_grow(buf) != 0)
			return false;
	return true;
}

/**
 * Slot i past the tail, within room made by swtim_evbuf_reserve().
 *
 * @param buf
 *   The buffer.
 * @param i
 *   Position in the batch being written.
 * @return
 *   The slot.
 */
static inline struct rte_event *
swtim_evbuf_at(struct swtim_evbuf *buf, uint32_t i)
{
	return &buf->evs[(buf->tail + i) & buf->mask];
}

/**
 * Tag of slot i past the tail, within room made by swtim_evbuf_reserve(),
 * in a tagged buffer.
 *
 * @param buf
 *   The buffer.
 * @param i
 *   Position in the batch being written.
 * @return
 *   Where to write the tag.
 */
static inline uintptr_t *
swtim_evbuf_tag_at(struct swtim_evbuf *buf, uint32_t i)
{
	return &buf->tags[(buf->tail + i) & buf->mask];
}

/**
 * Tag of the event at free-running index pos, in a tagged buffer: used
 * right after swtim_evbuf_flush() on the events it took, from the head
 * before the flush on; valid until the next append.
 *
 * @param buf
 *   The buffer.
 * @param pos
 *   Free-running index of the event.
 * @return
 *   Its tag.
 */
static inline uintptr_t
swtim_evbuf_tag_of(const struct swtim_evbuf *buf, uint32_t pos)
{
	return buf->tags[pos & buf->mask];
}

/**
 * Take the event tagged tag out of a tagged buffer, keeping the others in
 * order: for a cancel that beat the device to a periodic timer's event.
 * The caller must own the buffer as the service does (the driver's scan
 * claim).
 *
 * @param buf
 *   The buffer.
 * @param tag
 *   The event's tag.
 * @return
 *   true, or false if no event has that tag.
 */
bool swtim_evbuf_remove_tagged(struct swtim_evbuf *buf, uintptr_t tag);

/**
 * Append the first n events written with swtim_evbuf_at().
 *
 * @param buf
 *   The buffer.
 * @param n
 *   Events written.
 */
static inline void
swtim_evbuf_commit(struct swtim_evbuf *buf, uint32_t n)
{
	buf->tail += n;
}

/**
 * Offer the buffered events to the device until it refuses some, holding
 * the port's lock.
 *
 * rte_errno is never read after a short enqueue: some devices leave it
 * stale.
 *
 * A one-shot timer stops counting against nb_timers once its event is in
 * the device, and an application that dequeues the event may arm another
 * timer at once; so the events' slots are given back to the budget just
 * before each enqueue call, and those of refused events taken back after
 * it. Under back-pressure the budget may therefore be exceeded by up to
 * one enqueue burst, for as long as the device refuses events.
 *
 * On devices that need maintenance, the port is flushed after events were
 * enqueued, so that they are visible to workers at once.
 *
 * When the device has taken none of the buffer's events for
 * SWTIM_EVBUF_STALL_MS, a warning is logged once, and a notice when it
 * takes events again.
 *
 * @param buf
 *   The buffer.
 * @param port
 *   The port.
 * @param budget
 *   The budget the events' timers count against, or NULL (periodic
 *   timers keep counting after each expiry).
 * @param[out] retries
 *   Incremented by the events that were new since the last flush and are
 *   still in the buffer (kept to be retried).
 * @return
 *   Events the device accepted.
 */
uint32_t swtim_evbuf_flush(struct swtim_evbuf *buf, struct swtim_port *port,
			   struct swtim_budget *budget, uint64_t *retries);

/**
 * Forget the buffer's stall, if any: call when the adapter starts, so
 * that time spent stopped does not count as time the device refused.
 *
 * @param buf
 *   The buffer.
 */
static inline void
swtim_evbuf_stall_reset(struct swtim_evbuf *buf)
{
	__atomic_store_n(&buf->retry_at, 0, __ATOMIC_RELAXED);
	buf->refused_since = 0;
	buf->stall_reported = false;
}

#endif /* SWTIM_EVBUF_H */
