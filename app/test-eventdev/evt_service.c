/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#include <dirent.h>
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

static struct evt_service_lcore *
lcore_entry(struct evt_services *s, unsigned int lcore)
{
	unsigned int i;

	for (i = 0; i < s->nb_lc; i++)
		if (s->lc[i].lcore == lcore)
			return &s->lc[i];
	if (s->nb_lc == RTE_DIM(s->lc))
		return NULL;
	s->lc[s->nb_lc].lcore = lcore;
	s->lc[s->nb_lc].tid = -1;
	return &s->lc[s->nb_lc++];
}

int
evt_service_add(struct evt_services *s, uint32_t id, const char *what)
{
	uint32_t lcores[RTE_MAX_LCORE];
	int32_t nb, i, best = -1, best_cnt = INT32_MAX, cnt, ret;
	struct evt_service *e;

	if (s->nb_svc == RTE_DIM(s->svc))
		return -ENOSPC;
	nb = rte_service_lcore_list(lcores, RTE_DIM(lcores));
	if (nb <= 0)
		return -ENOENT;
	for (i = 0; i < nb; i++) {
		/* Only this application's mapping counts. */
		rte_service_map_lcore_set(id, lcores[i], 0);
		cnt = rte_service_lcore_count_services(lcores[i]);
		if (cnt >= 0 && cnt < best_cnt) {
			best = i;
			best_cnt = cnt;
		}
	}
	if (best < 0)
		return -ENOENT;
	ret = rte_service_map_lcore_set(id, lcores[best], 1);
	if (ret < 0)
		return ret;
	ret = rte_service_runstate_set(id, 1);
	if (ret < 0)
		return ret;
	rte_service_set_stats_enable(id, 1);
	e = &s->svc[s->nb_svc++];
	memset(e, 0, sizeof(*e));
	snprintf(e->what, sizeof(e->what), "%s", what);
	e->id = id;
	e->lcore = lcores[best];
	if (lcore_entry(s, e->lcore) == NULL)
		return -ENOSPC;
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

/* CPU time of a thread in ns: schedstat, else utime + stime from stat. */
static uint64_t
thread_cpu_ns(int tid)
{
	char path[64], buf[1024], *p;
	unsigned long long run_ns, ut, st;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", tid);
	f = fopen(path, "r");
	if (f != NULL) {
		if (fscanf(f, "%llu", &run_ns) == 1) {
			fclose(f);
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
	for (i = 0; i < s->nb_lc; i++) {
		struct evt_service_lcore *l = &s->lc[i];

		if (l->tid < 0)
			l->tid = find_lcore_tid(l->lcore);
		l->cpu_ns[which] = l->tid >= 0 ? thread_cpu_ns(l->tid) : 0;
		l->tsc[which] = rte_get_timer_cycles();
	}
}
