/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef EVT_SERVICE_H
#define EVT_SERVICE_H

/**
 * @file
 * Service lcores: mapping the adapters' and the event device's services
 * to them, starting them, and measuring what they cost: the cycles spent
 * in each service's callback (librte_service statistics) and the CPU
 * time of each service lcore's thread (from /proc: the scheduler's run
 * time of the thread, /proc/self/task/TID/schedstat, else utime + stime
 * from .../stat). The same CPU time measure serves for worker and
 * producer lcores.
 */

#include <stdbool.h>
#include <stdint.h>

#define EVT_MAX_SERVICES 40
/* Most service lcores one service is mapped to. */
#define EVT_MAX_SVC_LCORES 64

struct evt_service {
	char what[32];			/* "adapter 0", "eventdev" */
	uint32_t id;
	unsigned int lcore;		/* the first of lcores[] */
	unsigned int lcores[EVT_MAX_SVC_LCORES];
	unsigned int nb_lcores;
	/* At the start and at the end of the measured interval. */
	uint64_t cycles[2];
	uint64_t calls[2];
};

/* An lcore's thread and its CPU time at the two snapshots. */
struct evt_lcore_cpu {
	unsigned int lcore;
	int tid;			/* -1: thread not found */
	uint64_t cpu_ns[2];		/* thread CPU time */
	uint64_t wait_ns[2];		/* runnable, not running; or ~0 */
	uint64_t tsc[2];
};

struct evt_services {
	struct evt_service svc[EVT_MAX_SERVICES];
	unsigned int nb_svc;
	struct evt_lcore_cpu lc[EVT_MAX_SVC_LCORES];
	unsigned int nb_lc;
};

/*
 * Map a service to the nb_lcores service lcores that run the fewest
 * services (0: to every service lcore), set it running and turn its
 * statistics on. -ENOENT without service lcores, -E2BIG when nb_lcores
 * exceeds the service lcores there are.
 */
int evt_service_add(struct evt_services *s, uint32_t id, const char *what,
		    unsigned int nb_lcores);

/* Start the service lcores that got a service. */
int evt_service_lcores_start(struct evt_services *s);

/* Take the start (which = 0) or end (which = 1) snapshot. */
void evt_service_snapshot(struct evt_services *s, int which);

/* Set l up for an lcore (its thread is looked up at the first snapshot). */
void evt_lcore_cpu_init(struct evt_lcore_cpu *l, unsigned int lcore);

/* Take an lcore's start (which = 0) or end (which = 1) CPU snapshot. */
void evt_lcore_cpu_snapshot(struct evt_lcore_cpu *l, int which);

/* CPU seconds and wall seconds between the snapshots; false: no thread. */
bool evt_lcore_cpu_get(const struct evt_lcore_cpu *l, uint64_t hz,
		       double *cpu_s, double *wall_s);

/*
 * Seconds the thread waited for a CPU while runnable (schedstat); false
 * when unknown. CPU plus wait is what the thread would have run on a CPU
 * of its own: on a shared machine, a polling thread's demand.
 */
bool evt_lcore_wait_get(const struct evt_lcore_cpu *l, double *wait_s);

#endif /* EVT_SERVICE_H */
