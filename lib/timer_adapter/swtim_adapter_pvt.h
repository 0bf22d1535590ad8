/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_ADAPTER_PVT_H
#define SWTIM_ADAPTER_PVT_H

/**
 * @file
 * The adapter object and the helpers shared by the generic layer's files.
 * Not installed; drivers use swtim_driver.h instead.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_eventdev.h>

#include "swtim_driver.h"

/*
 * Set while an adapter slot holds a live adapter. The fast path checks it
 * so that a stale or foreign pointer gives EINVAL instead of a crash in
 * the driver; the value is arbitrary but unlikely in uninitialised memory.
 */
#define SWTIM_ADAPTER_MAGIC 0x5717a0a7u

/*
 * Name of the memzone that holds the adapter table, so that every process
 * of a DPDK multi-process group sees the same adapters at the same
 * address (swtim_adapters_attach()).
 */
#define SWTIM_ADAPTERS_MZ_NAME "swtim_adapters"

/*
 * The adapter; one slot per id in the table, in shared memory (a
 * memzone). Everything in it, and everything its pointers lead to (the
 * driver's data, in rte_malloc memory), is valid in every process: no
 * function pointer, no process-local address. The driver is named by its
 * index (swtim_driver.c), its ops looked up in each process's own table.
 */
struct swtim_adapter {
	/** SWTIM_ADAPTER_MAGIC while allocated, 0 otherwise. */
	uint32_t magic;
	/** Adapter id, the slot's index. */
	uint16_t id;
	/** Whether start succeeded and stop has not been called. */
	bool started;
	/** Whether start ever succeeded: no ports are added after that. */
	bool ever_started;
	/** The port was added by create and goes back to the port table. */
	bool port_from_table;
	/** The driver, by registration order (swtim_driver.c). */
	uint16_t drv_index;
	/** The driver's name: a secondary checks it against its own. */
	char drv_name[SWTIM_DRIVER_NAME_MAX];
	/** The driver's adapter struct, beginning with the base. */
	void *priv;
	/** Fixed parameters handed to the driver. */
	struct swtim_adapter_params params;
	/** Number of queues of the event device when last cached. */
	uint16_t nb_queues;
	/**
	 * Schedule type of each queue, cached at create and start so that
	 * arming a timer never calls rte_event_queue_attr_get().
	 */
	uint8_t queue_sched_type[RTE_EVENT_MAX_QUEUES_PER_DEV];
};

/** Queue accepts every schedule type. */
#define SWTIM_SCHED_TYPE_ANY 0xfe

/*
 * The adapter table (NULL until swtim_adapters_attach()), in shared
 * memory, and the lock that serialises this process's control path: only
 * the primary creates, starts, stops and frees, so no lock across
 * processes is needed.
 */
extern struct swtim_adapter *swtim_adapters;
extern pthread_mutex_t swtim_adapters_lock;

/*
 * Find the adapter table, the primary reserving it on its first call.
 * Returns it, or NULL with rte_errno set (logged): ENOENT in a secondary
 * whose primary has never created an adapter, ENOMEM.
 */
struct swtim_adapter *swtim_adapters_attach(void);

/*
 * Make the primary's adapter usable in this process, a secondary
 * (swtim_secondary.c), at each lookup. 0, or -1 with rte_errno set
 * (logged).
 */
int swtim_adapter_secondary_attach(struct swtim_adapter *adapter);

/* The ops of an adapter's driver, in this process. */
static inline const struct swtim_driver_ops *
swtim_adapter_ops(const struct swtim_adapter *adapter)
{
	return swtim_driver_ops_by_index[adapter->drv_index];
}

/* An adapter's driver, in this process. */
static inline const struct swtim_driver *
swtim_adapter_driver(const struct swtim_adapter *adapter)
{
	return swtim_drivers_by_index[adapter->drv_index];
}

/*
 * The driver's adapter struct, the base at its start (swtim_base.h).
 * Inline: the fast path reads it on every call.
 */
static inline void *
swtim_adapter_priv(const struct swtim_adapter *adapter)
{
	return adapter->priv;
}

struct swtim_base;

/* The adapter's base (swtim_base.h), the start of its driver's struct. */
static inline struct swtim_base *
swtim_adapter_base(const struct swtim_adapter *adapter)
{
	return adapter->priv;
}

/** Whether a pointer is a live adapter of the table. */
static inline bool
swtim_adapter_is_valid(const struct swtim_adapter *adapter)
{
	return adapter != NULL &&
		__atomic_load_n(&adapter->magic, __ATOMIC_ACQUIRE) ==
		SWTIM_ADAPTER_MAGIC;
}

/**
 * Take a port on the event device the way DPDK's default port callback
 * does (reconfigure the device with one more port), reusing a port an
 * earlier create added once its adapter is gone. Called with
 * swtim_adapters_lock held. Returns 0 or -errno.
 */
int swtim_port_acquire(uint8_t dev_id, uint8_t *port_id);

/** Give back a port taken with swtim_port_acquire(). */
void swtim_port_release(uint8_t dev_id, uint8_t port_id);

#endif /* SWTIM_ADAPTER_PVT_H */
