/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The allocation interposer (fault_alloc.h). The real functions are found
 * once each with dlsym(RTLD_NEXT), the next definition after this
 * program's in the lookup order: librte_eal's.
 */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memzone.h>

#include "fault_alloc.h"

static struct {
	uint64_t first, last;
	uint32_t lcore;
	bool armed;
	uint64_t calls, failed;
} fault;

/* Allocator calls this thread is inside: only the outermost counts. */
static __thread unsigned int fault_depth;

void
fault_alloc_arm(uint64_t first, uint64_t last, uint32_t lcore)
{
	__atomic_store_n(&fault.armed, false, __ATOMIC_SEQ_CST);
	fault.first = first;
	fault.last = last;
	fault.lcore = lcore;
	__atomic_store_n(&fault.calls, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&fault.failed, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&fault.armed, true, __ATOMIC_SEQ_CST);
}

void
fault_alloc_disarm(void)
{
	__atomic_store_n(&fault.armed, false, __ATOMIC_SEQ_CST);
}

uint64_t
fault_alloc_calls(void)
{
	return __atomic_load_n(&fault.calls, __ATOMIC_RELAXED);
}

uint64_t
fault_alloc_failed(void)
{
	return __atomic_load_n(&fault.failed, __ATOMIC_RELAXED);
}

/* Enter an allocator; true if this call is to fail. */
static bool
fault_enter(void)
{
	uint64_t n;

	if (fault_depth++ != 0 ||
	    !__atomic_load_n(&fault.armed, __ATOMIC_SEQ_CST) ||
	    (fault.lcore != FAULT_ALLOC_ANY_LCORE &&
	     rte_lcore_id() != fault.lcore))
		return false;
	n = __atomic_add_fetch(&fault.calls, 1, __ATOMIC_RELAXED);
	if (n < fault.first || n > fault.last)
		return false;
	__atomic_fetch_add(&fault.failed, 1, __ATOMIC_RELAXED);
	return true;
}

static void *
fault_real(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (f == NULL) {
		fprintf(stderr, "fault_alloc: no %s after ours: %s\n", name,
			dlerror());
		abort();
	}
	return f;
}

/*
 * Define fn(params) passing args on to the real fn, or failing with
 * rte_errno ENOMEM.
 */
#define FAULT_WRAP(type, fn, params, args) \
type fn params \
{ \
	static type (*real) params; \
	type ret; \
	if (real == NULL) \
		real = (type (*) params)fault_real(#fn); \
	if (fault_enter()) { \
		fault_depth--; \
		rte_errno = ENOMEM; \
		return NULL; \
	} \
	ret = real args; \
	fault_depth--; \
	return ret; \
}

FAULT_WRAP(void *, rte_malloc, (const char *type, size_t size,
	   unsigned int align), (type, size, align))
FAULT_WRAP(void *, rte_zmalloc, (const char *type, size_t size,
	   unsigned int align), (type, size, align))
FAULT_WRAP(void *, rte_calloc, (const char *type, size_t num, size_t size,
	   unsigned int align), (type, num, size, align))
FAULT_WRAP(void *, rte_realloc, (void *ptr, size_t size, unsigned int align),
	   (ptr, size, align))
FAULT_WRAP(void *, rte_malloc_socket, (const char *type, size_t size,
	   unsigned int align, int socket), (type, size, align, socket))
FAULT_WRAP(void *, rte_zmalloc_socket, (const char *type, size_t size,
	   unsigned int align, int socket), (type, size, align, socket))
FAULT_WRAP(void *, rte_calloc_socket, (const char *type, size_t num,
	   size_t size, unsigned int align, int socket),
	   (type, num, size, align, socket))
FAULT_WRAP(void *, rte_realloc_socket, (void *ptr, size_t size,
	   unsigned int align, int socket), (ptr, size, align, socket))
FAULT_WRAP(const struct rte_memzone *, rte_memzone_reserve,
	   (const char *name, size_t len, int socket_id, unsigned int flags),
	   (name, len, socket_id, flags))
FAULT_WRAP(const struct rte_memzone *, rte_memzone_reserve_aligned,
	   (const char *name, size_t len, int socket_id, unsigned int flags,
	    unsigned int align), (name, len, socket_id, flags, align))
FAULT_WRAP(const struct rte_memzone *, rte_memzone_reserve_bounded,
	   (const char *name, size_t len, int socket_id, unsigned int flags,
	    unsigned int align, unsigned int bound),
	   (name, len, socket_id, flags, align, bound))
