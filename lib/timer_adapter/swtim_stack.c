/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/* The shared free-object pool (swtim_stack.h). */

#include <string.h>

#include <rte_debug.h>
#include <rte_malloc.h>

#include "swtim_stack.h"

struct swtim_stack *
swtim_stack_create(const char *name, uint32_t capacity, uint32_t esize,
		   int socket)
{
	struct swtim_stack *s;

	s = rte_zmalloc_socket(name, sizeof(*s) + (size_t)capacity * esize,
			       RTE_CACHE_LINE_SIZE, socket);
	if (s == NULL)
		return NULL;
	swtim_olock_init(&s->lock);
	s->capacity = capacity;
	s->esize = esize;
	return s;
}

void
swtim_stack_free(struct swtim_stack *s)
{
	rte_free(s);
}

/* The lock is only ever held with STEAL: nothing can refuse it. */
static void
swtim_stack_lock(struct swtim_stack *s)
{
	RTE_VERIFY(swtim_olock_lock(&s->lock, SWTIM_OLOCK_STEAL) == 0);
}

uint32_t
swtim_stack_push(struct swtim_stack *s, const void *objs, uint32_t n)
{
	uint32_t count;

	swtim_stack_lock(s);
	/* Acquire: the lock may have been taken over from a dead holder,
	 * whose count store no unlock released. */
	count = __atomic_load_n(&s->count, __ATOMIC_ACQUIRE);
	n = RTE_MIN(n, s->capacity - count);
	memcpy(&s->objs[(size_t)count * s->esize], objs, (size_t)n * s->esize);
	/* The commit: before this store the pool is as it was. */
	__atomic_store_n(&s->count, count + n, __ATOMIC_RELEASE);
	swtim_olock_unlock(&s->lock);
	return n;
}

uint32_t
swtim_stack_pop(struct swtim_stack *s, void *objs, uint32_t n)
{
	uint32_t count;

	swtim_stack_lock(s);
	count = __atomic_load_n(&s->count, __ATOMIC_ACQUIRE);
	n = RTE_MIN(n, count);
	memcpy(objs, &s->objs[(size_t)(count - n) * s->esize],
	       (size_t)n * s->esize);
	__atomic_store_n(&s->count, count - n, __ATOMIC_RELEASE);
	swtim_olock_unlock(&s->lock);
	return n;
}
