/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_STACK_H
#define SWTIM_STACK_H

/**
 * @file
 * A pool of free objects shared by every process: an array stack under a
 * lock that knows its holder (swtim_olock.h), in rte_malloc memory. The
 * drivers keep their free slot blocks and timer objects here, behind
 * per-lane caches, so that it is reached once per bulk.
 *
 * Why not an rte_ring: a process killed between a ring's head and tail
 * updates leaves every later producer (or consumer) of that ring waiting
 * for good, and nothing tells it apart from a slow one. Here the only
 * store that changes the pool is the count's, made last, under the lock:
 * a holder killed before it has changed nothing (objects it was pushing
 * are lost with it, those it was popping stay in the pool), one killed
 * after it has changed all of it, so a waiter that finds the holder dead
 * takes the lock over (SWTIM_OLOCK_STEAL).
 */

#include <stdint.h>

#include "swtim_olock.h"

/** The pool. Create with swtim_stack_create(). */
struct swtim_stack {
	swtim_olock_t lock;
	/** Objects in the pool, at the bottom of objs. */
	uint32_t count;
	/** Objects the pool can hold. */
	uint32_t capacity;
	/** Bytes per object. */
	uint32_t esize;
	/** The objects. */
	char objs[] __rte_cache_aligned;
};

/**
 * Allocate an empty pool.
 *
 * @param name
 *   For rte_malloc's statistics.
 * @param capacity
 *   Objects it must hold at once.
 * @param esize
 *   Bytes per object (a multiple of 4: slot block indices, pointers).
 * @param socket
 *   NUMA socket, or SOCKET_ID_ANY.
 * @return
 *   The pool, or NULL (no memory).
 */
struct swtim_stack *swtim_stack_create(const char *name, uint32_t capacity,
				       uint32_t esize, int socket);

/**
 * Free a pool from swtim_stack_create(); NULL is a no-op.
 *
 * @param s
 *   The pool.
 */
void swtim_stack_free(struct swtim_stack *s);

/**
 * Put objects in the pool, as many as there is room for.
 *
 * @param s
 *   The pool.
 * @param objs
 *   n objects of s->esize bytes.
 * @param n
 *   How many.
 * @return
 *   How many went in, from the front of objs.
 */
uint32_t swtim_stack_push(struct swtim_stack *s, const void *objs,
			  uint32_t n);

/**
 * Take objects out of the pool, up to n.
 *
 * @param s
 *   The pool.
 * @param objs
 *   Room for n objects.
 * @param n
 *   How many are wanted.
 * @return
 *   How many were taken.
 */
uint32_t swtim_stack_pop(struct swtim_stack *s, void *objs, uint32_t n);

#endif /* SWTIM_STACK_H */
