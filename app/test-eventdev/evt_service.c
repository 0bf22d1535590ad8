/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_service.h>

#include "evt_service.h"

static struct evt_lcore_cpu *
lcore_entry(struct evt_services *s, unsigned int lcore)
{
	unsigned int i;

	for (i = 0; i < s->nb_lc; i++)
		if (s->lc[i].lcore == lcore)
			return &s->lc[i];
	if (s->nb_lc == RTE_DIM(s->lc))
		return NULL;
	evt_lcore_cpu_init(&s->lc[s->nb_lc], lcore);
	return &s->lc[s->nb_lc++];
}

void
evt_lcore_cpu_init(struct evt_lcore_cpu *l, unsigned int lcore)
{
	memset(l, 0, sizeof(*l));
	l->lcore = lcore;
	l->tid = -1;
}

int
evt_service_add(struct evt_services *s, uint32_t id, const char *what,
		unsigned int nb_lcores)
{
	uint32_t lcores[RTE_MAX_LCORE];
	int32_t cnt[RTE_MAX_LCORE];
	bool chosen[RTE_MAX_LCORE];
	int32_t nb, i, best;
	struct evt_service *e;
	unsigned int k;
	int ret;

	if (s->nb_svc == RTE_DIM(s->svc))
		return -ENOSPC;
	nb = rte_service_lcore_list(lcores, RTE_DIM(lcores));
	if (nb <= 0)
		return -ENOENT;
	if (nb_lcores == 0)
		nb_lcores = (unsigned int)nb;
	if (nb_lcores > (unsigned int)nb)
		return -E2BIG;
	if (nb_lcores > EVT_MAX_SVC_LCORES)
		return -ENOSPC;
	for (i = 0; i < nb; i++) {
		/* Only this application's mapping counts. */
		rte_service_map_lcore_set(id, lcores[i], 0);
		cnt[i] = rte_service_lcore_count_services(lcores[i]);
		chosen[i] = false;
	}
	e = &s->svc[s->nb_svc];
	memset(e, 0, sizeof(*e));
	snprintf(e->what, sizeof(e->what), "%s", what);
	e->id = id;
	/* The least loaded lcores, in order: the first one wins ties. */
	for (k = 0; k < nb_lcores; k++) {
		best = -1;
		for (i = 0; i < nb; i++)
			if (!chosen[i] && cnt[i] >= 0 &&
			    (best < 0 || cnt[i] < cnt[best]))
				best = i;
		if (best < 0)
			return -ENOENT;
		chosen[best] = true;
		ret = rte_service_map_lcore_set(id, lcores[best], 1);
		if (ret < 0)
			return ret;
		e->lcores[e->nb_lcores++] = lcores[best];
		if (lcore_entry(s, lcores[best]) == NULL)
			return -ENOSPC;
	}
	e->lcore = e->lcores[0];
	ret = rte_service_runstate_set(id, 1);
	if (ret < 0)
		return ret;
	rte_service_set_stats_enable(id, 1);
	s->nb_svc++;
	return 0;
}

int
evt_service_lcores_start(struct evt_services *s)
{
	unsigned int i;
	int ret;

	for (i = 0; i < s->nb_lc; i++) {
		ret = rte_service_lcore_start(s->lc[i].lcore);
		if (ret < 0 && ret != -EALREADY)
			return ret;
	}
	return 0;
}

/*
 * EAL names its lcore threads rte-worker-N (DPDK 22.11) or lcore-worker-N
 * (older): find the thread of an lcore by that name.
 */
static int
find_lcore_tid(unsigned int lcore)
{
	char want1[32], want2[32], path[300], comm[64];
	struct dirent *de;
	DIR *d;
	FILE *f;
	int tid = -1;

	snprintf(want1, sizeof(want1), "rte-worker-%u", lcore);
	snprintf(want2, sizeof(want2), "lcore-worker-%u", lcore);
	d = opendir("/proc/self/task");
	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL && tid < 0) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm",
			 de->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		if (fgets(comm, sizeof(comm), f) != NULL) {
			comm[strcspn(comm, "\n")] = '\0';
			if (strcmp(comm, want1) == 0 ||
			    strcmp(comm, want2) == 0)
				tid = atoi(de->d_name);
		}
		fclose(f);
	}
	closedir(d);
	return tid;
}

/*
 * CPU time of a thread in ns: schedstat, else utime + stime from stat.
 * *wait_ns: from schedstat too, the time the thread waited on a run
 * queue, runnable but not running (UINT64_MAX when unknown).
 */
static uint64_t
thread_cpu_ns(int tid, uint64_t *wait_ns)
{
	char path[64], buf[1024], *p;
	unsigned long long run_ns, wait, ut, st;
	FILE *f;
	int i;

	*wait_ns = UINT64_MAX;
	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", tid);
	f = fopen(path, "r");
	if (f != NULL) {
		if (fscanf(f, "%llu %llu", &run_ns, &wait) == 2) {
			fclose(f);
			*wait_ns = wait;
			return run_ns;
		}
		fclose(f);
	}
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	if (p == NULL)
		return 0;
	/* Fields after the ")" that ends the name: utime is the 12th. */
	p = strrchr(buf, ')');
	if (p == NULL)
		return 0;
	p++;
	for (i = 0; i < 11 && p != NULL; i++)
		p = strchr(p + 1, ' ');
	if (p == NULL || sscanf(p, "%llu %llu", &ut, &st) != 2)
		return 0;
	return (ut + st) * (1000000000ULL / (unsigned long long)sysconf(_SC_CLK_TCK));
}

void
evt_service_snapshot(struct evt_services *s, int which)
{
	unsigned int i;

	for (i = 0; i < s->nb_svc; i++) {
		struct evt_service *e = &s->svc[i];

		rte_service_attr_get(e->id, RTE_SERVICE_ATTR_CYCLES,
				     &e->cycles[which]);
		rte_service_attr_get(e->id, RTE_SERVICE_ATTR_CALL_COUNT,
				     &e->calls[which]);
	}
	for (i = 0; i < s->nb_lc; i++)
		evt_lcore_cpu_snapshot(&s->lc[i], which);
}

void
evt_lcore_cpu_snapshot(struct evt_lcore_cpu *l, int which)
{
	if (l->tid < 0)
		l->tid = find_lcore_tid(l->lcore);
	l->cpu_ns[which] = 0;
	l->wait_ns[which] = UINT64_MAX;
	if (l->tid >= 0)
		l->cpu_ns[which] = thread_cpu_ns(l->tid, &l->wait_ns[which]);
	l->tsc[which] = rte_get_timer_cycles();
}

bool
evt_lcore_cpu_get(const struct evt_lcore_cpu *l, uint64_t hz, double *cpu_s,
		  double *wall_s)
{
	*wall_s = (double)(l->tsc[1] - l->tsc[0]) / (double)hz;
	*cpu_s = (double)(l->cpu_ns[1] - l->cpu_ns[0]) / 1e9;
	return l->tid >= 0;
}

bool
evt_lcore_wait_get(const struct evt_lcore_cpu *l, double *wait_s)
{
	if (l->tid < 0 || l->wait_ns[0] == UINT64_MAX ||
	    l->wait_ns[1] == UINT64_MAX)
		return false;
	*wait_s = (double)(l->wait_ns[1] - l->wait_ns[0]) / 1e9;
	return true;
}
