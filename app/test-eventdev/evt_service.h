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
 * time of each service lcore's thread (from /proc).
 */

#include <stdbool.h>
#include <stdint.h>

#define EVT_MAX_SERVICES 40

struct evt_service {
	char what[32];			/* "adapter 0", "eventdev" */
	uint32_t id;
	unsigned int lcore;
	/* At the start and at the end of the measured interval. */
	uint64_t cycles[2];
	uint64_t calls[2];
};

struct evt_service_lcore {
	unsigned int lcore;
	int tid;			/* -1: thread not found */
	uint64_t cpu_ns[2];		/* thread CPU time */
	uint64_t tsc[2];
};

struct evt_services {
	struct evt_service svc[EVT_MAX_SERVICES];
	unsigned int nb_svc;
	struct evt_service_lcore lc[EVT_MAX_SERVICES];
	unsigned int nb_lc;
};

/*
 * Map a service to the service lcore that runs the fewest services, set
 * it running and turn its statistics on. -ENOENT without service lcores.
 */
int evt_service_add(struct evt_services *s, uint32_t id, const char *what);

/* Start the service lcores that got a service. */
int evt_service_lcores_start(struct evt_services *s);

/* Take the start (which = 0) or end (which = 1) snapshot. */
void evt_service_snapshot(struct evt_services *s, int which);

#endif /* EVT_SERVICE_H */
