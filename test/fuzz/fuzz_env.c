/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eventdev.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_memzone.h>
#include <rte_service.h>

#include "swt_cpus.h"
#include "swtim.h"
#include "fuzz_env.h"

struct fuzz_env fuzz_env;

const char *const fuzz_drivers[FUZZ_NB_DRIVERS] = { "wheel", "skiplist" };

static char fuzz_runtime_dir[PATH_MAX];

/*
 * Where findings are reported: stderr as it was at start, which
 * libFuzzer's -close_fd_mask=2 (for targets that print a lot) closes
 * later; libFuzzer keeps its own copy for its reports the same way.
 */
static FILE *fuzz_report;

void
fuzz_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	FILE *f = fuzz_report != NULL ? fuzz_report : stderr;

	fprintf(f, "FUZZ FINDING %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fflush(f);
	abort();
}

static void
fuzz_die(const char *what)
{
	fprintf(stderr, "fuzz environment: %s: %s\n", what,
		rte_strerror(rte_errno));
	exit(1);
}

/*
 * The process's runtime directory holds nothing another process needs
 * (--no-shconf, a prefix with our pid): remove it at exit so that
 * millions of runs leave no litter. Files only; EAL made no subfolders.
 */
static void
fuzz_runtime_dir_remove(void)
{
	struct dirent *de;
	DIR *d;

	if (fuzz_runtime_dir[0] == '\0' ||
	    strstr(fuzz_runtime_dir, "swtim_fuzz_") == NULL)
		return;
	d = opendir(fuzz_runtime_dir);
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
	rmdir(fuzz_runtime_dir);
}

int
fuzz_port_cb(uint16_t id, uint8_t event_dev_id, uint8_t *event_port_id,
	     void *conf_arg)
{
	intptr_t v = (intptr_t)conf_arg;

	RTE_SET_USED(id);
	RTE_SET_USED(event_dev_id);
	if (v < 0)
		return (int)v;
	*event_port_id = (uint8_t)v;
	return 0;
}

void
fuzz_env_help(int argc, char **argv, const char *what)
{
	int i;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0)
			break;
	if (i == argc)
		return;
	printf("%s: libFuzzer target: %s.\n\n"
	       "usage: %s [LIBFUZZER_FLAG...] [CORPUS_DIR...]\n"
	       "  e.g. %s -max_total_time=60 -print_final_stats=1 NEW_DIR"
	       " test/fuzz/corpus/<target>\n"
	       "  -help=1 lists libFuzzer's flags. A finding (crash, leak,"
	       " timeout, model\n  mismatch) exits non-zero and leaves the"
	       " input as crash-*; save it under\n  test/fuzz/corpus/<target>/"
	       " to make it a unit test. SWTIM_FUZZ_VERBOSE=1 keeps\n"
	       "  DPDK's log.\n", argv[0], what, argv[0], argv[0]);
	exit(0);
}

uint8_t
fuzz_env_evdev_setup(const char *vdev)
{
	struct rte_event_dev_config dconf;
	struct rte_event_dev_info info;
	struct rte_event_queue_conf qconf;
	struct rte_event_port_conf pconf;
	uint32_t service_id;
	int dev_id;
	uint8_t q, p;

	dev_id = rte_event_dev_get_dev_id(vdev);
	if (dev_id < 0 || rte_event_dev_info_get(dev_id, &info) != 0)
		fuzz_die(vdev);
	memset(&dconf, 0, sizeof(dconf));
	dconf.nb_event_queues = FUZZ_NB_QUEUES;
	dconf.nb_event_ports = 1 + FUZZ_NB_APP_PORTS;
	dconf.nb_events_limit = info.max_num_events;
	dconf.nb_event_queue_flows = info.max_event_queue_flows;
	dconf.nb_event_port_dequeue_depth = info.max_event_port_dequeue_depth;
	dconf.nb_event_port_enqueue_depth = info.max_event_port_enqueue_depth;
	if (rte_event_dev_configure(dev_id, &dconf) != 0)
		fuzz_die("configure");
	for (q = 0; q < FUZZ_NB_QUEUES; q++) {
		if (rte_event_queue_default_conf_get(dev_id, q, &qconf) != 0)
			fuzz_die("queue conf");
		/* One schedule type per queue: arming checks against it. */
		qconf.event_queue_cfg = 0;
		qconf.schedule_type = fuzz_queue_sched_type(q);
		if (rte_event_queue_setup(dev_id, q, &qconf) != 0)
			fuzz_die("queue setup");
	}
	for (p = 0; p < dconf.nb_event_ports; p++) {
		if (rte_event_port_default_conf_get(dev_id, p, &pconf) != 0)
			fuzz_die("port conf");
		if (p == FUZZ_WORKER_PORT)
			pconf.new_event_threshold = dconf.nb_events_limit;
		if (rte_event_port_setup(dev_id, p, &pconf) != 0)
			fuzz_die("port setup");
	}
	if (rte_event_port_link(dev_id, FUZZ_WORKER_PORT, NULL, NULL, 0) !=
	    FUZZ_NB_QUEUES)
		fuzz_die("link");
	/* event_sw schedules from a service: the harness runs it too. */
	if (rte_event_dev_service_id_get(dev_id, &service_id) == 0 &&
	    (rte_service_map_lcore_set(service_id, fuzz_env.service_lcore,
				       1) != 0 ||
	     rte_service_runstate_set(service_id, 1) != 0))
		fuzz_die("event device service");
	if (rte_event_dev_start(dev_id) != 0)
		fuzz_die("start");
	return dev_id;
}

void
fuzz_env_init(const char *name, const char *const *vdevs)
{
	static char prefix[96], lcores[48], vdev_args[4][48];
	char *argv[24];
	int argc = 0, i;
	const char *verbose = getenv("SWTIM_FUZZ_VERBOSE");
	struct rte_event_timer_adapter_conf conf;
	struct swtim_adapter *warm[FUZZ_ADAPTERS_AT_ONCE];
	int cpu;

	i = dup(STDERR_FILENO);
	fuzz_report = i >= 0 ? fdopen(i, "w") : NULL;
	snprintf(prefix, sizeof(prefix), "--file-prefix=swtim_fuzz_%s_%d",
		 name, (int)getpid());
	/*
	 * Both lcores on the first CPU we may run on: lcore 1 only ever is
	 * a mapped, stopped service lcore, so it may share the main lcore's
	 * CPU.
	 */
	swt_cpus_pick(&cpu, 1);
	snprintf(lcores, sizeof(lcores), "--lcores=0@%d,1@%d", cpu, cpu);
	argv[argc++] = (char *)(uintptr_t)name;
	argv[argc++] = (char *)(uintptr_t)"--no-huge";
	argv[argc++] = (char *)(uintptr_t)"-m";
	argv[argc++] = (char *)(uintptr_t)"512";
	argv[argc++] = (char *)(uintptr_t)"--no-shconf";
	argv[argc++] = (char *)(uintptr_t)"--no-pci";
	argv[argc++] = prefix;
	argv[argc++] = lcores;
	argv[argc++] = (char *)(uintptr_t)"--log-level=lib.eal:error";
	argv[argc++] = (char *)(uintptr_t)"--vdev=event_dsw0";
	for (i = 0; vdevs != NULL && vdevs[i] != NULL &&
	     i < (int)RTE_DIM(vdev_args); i++) {
		snprintf(vdev_args[i], sizeof(vdev_args[i]), "--vdev=%s",
			 vdevs[i]);
		argv[argc++] = vdev_args[i];
	}
	argv[argc] = NULL;
	if (rte_eal_init(argc, argv) < 0)
		fuzz_die("rte_eal_init");
	snprintf(fuzz_runtime_dir, sizeof(fuzz_runtime_dir), "%s",
		 rte_eal_get_runtime_dir());
	atexit(fuzz_runtime_dir_remove);
	/*
	 * Refused creates are the point, and each logs a line: millions of
	 * them would cost more than the calls. SWTIM_FUZZ_VERBOSE=1 (say,
	 * to replay one finding) keeps the log.
	 */
	if (verbose == NULL || verbose[0] == '\0' || verbose[0] == '0')
		rte_log_set_global_level(RTE_LOG_CRIT);

	fuzz_env.service_lcore = 1;
	if (rte_service_lcore_add(fuzz_env.service_lcore) != 0)
		fuzz_die("service lcore");
	fuzz_env.app_port = FUZZ_WORKER_PORT + 1;
	fuzz_env.dev_id = fuzz_env_evdev_setup("event_dsw0");

	/*
	 * Some things are done once for good: a create without a callback
	 * adds a port to the device when no port it added before is free
	 * (the device's rings for it stay), the skiplist driver's first
	 * create starts librte_timer (a memzone). Done now, for as many
	 * adapters at once as an input makes, so that every input finds
	 * the process as every other did and what an input leaves behind
	 * is its own.
	 */
	memset(&conf, 0, sizeof(conf));
	conf.event_dev_id = fuzz_env.dev_id;
	conf.socket_id = SOCKET_ID_ANY;
	conf.timer_tick_ns = 1000 * 1000;
	conf.max_tmo_ns = 1000 * 1000 * 1000;
	conf.nb_timers = 1;
	for (i = 0; i < FUZZ_ADAPTERS_AT_ONCE; i++) {
		conf.timer_adapter_id = i;
		warm[i] = swtim_adapter_create_with_driver(&conf, NULL, NULL,
				fuzz_drivers[i % FUZZ_NB_DRIVERS], NULL);
		if (warm[i] == NULL)
			fuzz_die("first adapters");
	}
	for (i = 0; i < FUZZ_ADAPTERS_AT_ONCE; i++)
		if (swtim_adapter_free(warm[i]) != 0)
			fuzz_die("first adapters' free");
	if (rte_event_dev_attr_get(fuzz_env.dev_id,
				   RTE_EVENT_DEV_ATTR_PORT_COUNT,
				   &fuzz_env.nb_ports) != 0)
		fuzz_die("port count");
}

static void
fuzz_memzone_count(const struct rte_memzone *mz, void *arg)
{
	RTE_SET_USED(mz);
	(*(unsigned int *)arg)++;
}

void
fuzz_resources_get(struct fuzz_resources *r)
{
	struct rte_malloc_socket_stats st;
	unsigned int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < rte_socket_count(); i++) {
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i),
						&st) != 0)
			continue;
		r->heap_allocs += st.alloc_count;
		r->heap_bytes += st.heap_allocsz_bytes;
	}
	rte_memzone_walk(fuzz_memzone_count, &r->memzones);
	r->services = rte_service_get_count();
	rte_event_dev_attr_get(fuzz_env.dev_id, RTE_EVENT_DEV_ATTR_PORT_COUNT,
			       &r->ports);
}

void
fuzz_resources_check(const struct fuzz_resources *before,
		     const struct fuzz_resources *after, const char *what)
{
	FUZZ_CHECK(after->heap_allocs == before->heap_allocs &&
		   after->heap_bytes == before->heap_bytes,
		   "%s: rte_malloc heap %" PRIu64 " allocations, %" PRIu64
		   " bytes; before %" PRIu64 ", %" PRIu64, what,
		   after->heap_allocs, after->heap_bytes, before->heap_allocs,
		   before->heap_bytes);
	FUZZ_CHECK(after->memzones == before->memzones,
		   "%s: %u memzones, before %u", what, after->memzones,
		   before->memzones);
	FUZZ_CHECK(after->services == before->services,
		   "%s: %u services registered, before %u", what,
		   after->services, before->services);
	FUZZ_CHECK(after->ports == before->ports,
		   "%s: event device has %u ports, before %u", what,
		   after->ports, before->ports);
}
