/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef FUZZ_ENV_H
#define FUZZ_ENV_H

/**
 * @file
 * What every fuzz target shares: EAL started once per process, one
 * event_dsw device kept for the whole run, a service lcore that is mapped
 * but never started (so that adapters start, and the harness runs their
 * services itself, deterministically), and a check that aborts.
 *
 * A finding is an abort(): libFuzzer saves the input as a crash, and the
 * replay program (fuzz_replay.c) exits with the abort's status, so the
 * unit test replaying that input fails.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_common.h>
#include <rte_eventdev.h>

/** Queues of the device: one ATOMIC, one PARALLEL. */
#define FUZZ_Q_ATOMIC	0
#define FUZZ_Q_PARALLEL	1
#define FUZZ_NB_QUEUES	2
/** The port that dequeues; linked to both queues. */
#define FUZZ_WORKER_PORT	0
/** Unlinked ports, after the worker port, for port callbacks. */
#define FUZZ_NB_APP_PORTS	4
/** Most adapters an input makes at once (seq_exec.h's slots). */
#define FUZZ_ADAPTERS_AT_ONCE	3

struct fuzz_env {
	uint8_t dev_id;
	/** First unlinked port (FUZZ_NB_APP_PORTS of them). */
	uint8_t app_port;
	/** The service lcore adapters' services are mapped to. */
	unsigned int service_lcore;
	/** Port count once one create without callback has added its port. */
	uint32_t nb_ports;
};

extern struct fuzz_env fuzz_env;

/** swtim's drivers (drivers/timer/meson.build's swtim_drivers). */
#define FUZZ_NB_DRIVERS 2
extern const char *const fuzz_drivers[FUZZ_NB_DRIVERS];

/**
 * If --help is among the arguments, print what the target fuzzes (what)
 * and how to run it, and exit 0. libFuzzer itself only knows -help=1, and
 * takes --help for a corpus to fuzz on for ever.
 */
void fuzz_env_help(int argc, char **argv, const char *what);

/**
 * Start EAL (with --vdev for each of vdevs, NULL-terminated; event_dsw0
 * always comes first) and set up event_dsw0. Exits the process on failure:
 * a fuzzer without its environment must not report clean runs.
 */
void fuzz_env_init(const char *name, const char *const *vdevs);

/**
 * Set up another device from vdevs the way event_dsw0 is (queues, worker
 * port, app ports); returns its id. Exits on failure.
 */
uint8_t fuzz_env_evdev_setup(const char *vdev);

/** The schedule type of queue q. */
static inline uint8_t
fuzz_queue_sched_type(uint8_t q)
{
	return q == FUZZ_Q_ATOMIC ? RTE_SCHED_TYPE_ATOMIC :
		RTE_SCHED_TYPE_PARALLEL;
}

/**
 * A port callback: conf_arg carries the port id (uintptr_t), or a
 * negative int32 to fail with.
 */
int fuzz_port_cb(uint16_t id, uint8_t event_dev_id, uint8_t *event_port_id,
		 void *conf_arg);

/** What an adapter could leave behind: compared before and after. */
struct fuzz_resources {
	uint64_t heap_allocs;	/**< rte_malloc allocations, all sockets */
	uint64_t heap_bytes;	/**< bytes they hold */
	unsigned int memzones;
	uint32_t services;	/**< registered services */
	uint32_t ports;		/**< event ports of event_dsw0 */
};

void fuzz_resources_get(struct fuzz_resources *r);
/** Abort, naming what differs, unless before and after are the same. */
void fuzz_resources_check(const struct fuzz_resources *before,
			  const struct fuzz_resources *after,
			  const char *what);

/** A finding: print it and abort. */
__rte_noreturn void fuzz_fail(const char *file, int line, const char *fmt,
			      ...) __rte_format_printf(3, 4);

#define FUZZ_CHECK(cond, fmt, ...) do { \
	if (!(cond)) \
		fuzz_fail(__FILE__, __LINE__, "'%s': " fmt, #cond, \
			  ##__VA_ARGS__); \
} while (0)

#endif /* FUZZ_ENV_H */
