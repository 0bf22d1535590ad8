/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The process table (swtim_proc.h). A slot is one 64-bit word, the
 * generation over the pid, changed by compare-and-swap only, so two
 * processes never take the same slot; and the start time of that pid
 * (field 22 of /proc/<pid>/stat), which tells a pid the kernel has given
 * to another process since from the one that took the slot.
 *
 * Taking a slot is three steps, so that nobody judges the new pid by the
 * old start time: the word becomes the new generation with pid 0 (being
 * taken: alive to everyone), then the start time and pid namespace are
 * written, then the pid. A process killed between the steps loses the slot for good; the
 * table has many.
 */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_memzone.h>

#include "swtim_log.h"
#include "swtim_proc.h"
#include "swtim_tunables.h"

#define SWTIM_PROCS_MZ_NAME "swtim_procs"

struct swtim_proc_slot {
	/** Generation << 32 | pid; 0 for a slot never taken. */
	uint64_t id;
	/** The pid's start time. */
	uint64_t start_time;
	/** Its pid namespace (the inode of /proc/<pid>/ns/pid). */
	uint64_t pid_ns;
};

uint32_t swtim_proc_tag;

static struct swtim_proc_slot *swtim_procs;

/* This process's pid namespace: only pids in it can be looked up. */
static uint64_t swtim_proc_pid_ns;

/* Per slot, until when (TSC) a live answer holds in this process. */
static uint64_t swtim_proc_alive_until[SWTIM_PROCS_MAX];

/* What /proc says of a process. */
struct swtim_proc_info {
	uint64_t start_time;	/* field 22 */
	uint32_t nb_threads;	/* field 20 */
	char state;		/* field 3 */
};

/*
 * Read /proc/<pid>/stat. 0; -ESRCH if there is no such process (no
 * entry, and kill() agrees); another negative errno if it cannot be
 * told (no file descriptor left, /proc mounted with hidepid, a short
 * read): then the caller must take the process for alive.
 */
static int
swtim_proc_stat(uint32_t pid, struct swtim_proc_info *info)
{
	unsigned long long start;
	char path[32], buf[1024];
	unsigned int threads;
	const char *p;
	ssize_t len;
	int fd, field;

	snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT && kill((pid_t)pid, 0) != 0 &&
		    errno == ESRCH)
			return -ESRCH;
		return -EAGAIN;
	}
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return -EAGAIN;
	buf[len] = '\0';
	/* The command name (field 2) may hold anything but ends at the
	 * last ')'; fields 3 on follow, one space each. */
	p = strrchr(buf, ')');
	if (p == NULL || p[1] != ' ')
		return -EAGAIN;
	p += 2;
	info->state = *p;
	for (field = 3; p != NULL && field < 22; field++) {
		if (field == 20 && sscanf(p, "%u", &threads) == 1)
			info->nb_threads = threads;
		p = strchr(p, ' ');
		if (p != NULL)
			p++;
	}
	if (p == NULL || sscanf(p, "%llu", &start) != 1)
		return -EAGAIN;
	info->start_time = start;
	return 0;
}

static uint32_t
swtim_proc_tag_of(unsigned int slot, uint32_t gen)
{
	return gen << SWTIM_PROC_SLOT_BITS | slot;
}

static bool
swtim_proc_id_dead(unsigned int slot, uint64_t id)
{
	const struct swtim_proc_slot *s = &swtim_procs[slot];
	uint64_t start, now = rte_get_timer_cycles();
	struct swtim_proc_info info = { 0 };
	int ret;

	if (now < __atomic_load_n(&swtim_proc_alive_until[slot],
				  __ATOMIC_RELAXED))
		return false;
	if ((uint32_t)id == 0)
		return false;	/* being taken: its holder is starting */
	/* A process in another container's pid namespace cannot be looked
	 * up here: never taken for dead, waited for as for a live one. */
	if (__atomic_load_n(&s->pid_ns, __ATOMIC_RELAXED) != swtim_proc_pid_ns)
		return false;
	start = __atomic_load_n(&s->start_time, __ATOMIC_ACQUIRE);
	ret = swtim_proc_stat((uint32_t)id, &info);
	/*
	 * Gone, its pid taken by another process, or a zombie whose threads
	 * have all exited (a main thread that called pthread_exit() is a
	 * zombie too, with its lcores still running).
	 */
	if (ret == -ESRCH || (ret == 0 && (info.start_time != start ||
	    ((info.state == 'Z' || info.state == 'X') &&
	     info.nb_threads <= 1))))
		return true;
	__atomic_store_n(&swtim_proc_alive_until[slot],
			 now + rte_get_timer_hz() / SWTIM_PROC_ALIVE_HOLD_DIV,
			 __ATOMIC_RELAXED);
	return false;
}

bool
swtim_proc_tag_dead(uint32_t tag)
{
	unsigned int slot = tag & ((1u << SWTIM_PROC_SLOT_BITS) - 1);
	uint32_t gen = tag >> SWTIM_PROC_SLOT_BITS & SWTIM_PROC_GEN_MASK;
	uint64_t id;

	if (swtim_proc_tag_of(slot, gen) == swtim_proc_tag)
		return false;
	if (slot >= SWTIM_PROCS_MAX || swtim_procs == NULL)
		return true;	/* no tag of ours: nobody to wait for */
	id = __atomic_load_n(&swtim_procs[slot].id, __ATOMIC_ACQUIRE);
	if (id >> 32 != gen)
		return true;	/* the slot has been taken again since */
	return swtim_proc_id_dead(slot, id);
}

/* Take a free slot, or one whose process is gone. */
static int
swtim_proc_slot_take(void)
{
	uint32_t pid = (uint32_t)getpid(), gen;
	struct swtim_proc_info self = { 0 };
	unsigned int slot;
	struct stat ns;
	uint64_t id;

	if (swtim_proc_stat(pid, &self) != 0 ||
	    stat("/proc/self/ns/pid", &ns) != 0) {
		SWTIM_LOG(ERR, "cannot read /proc/%u: without it a dead "
			  "process's locks cannot be told", pid);
		return -ENOENT;
	}
	swtim_proc_pid_ns = ns.st_ino;
	for (slot = 0; slot < SWTIM_PROCS_MAX; slot++) {
		struct swtim_proc_slot *s = &swtim_procs[slot];

		id = __atomic_load_n(&s->id, __ATOMIC_ACQUIRE);
		if (id != 0 && !swtim_proc_id_dead(slot, id))
			continue;
		gen = (uint32_t)(id >> 32) % SWTIM_PROC_GEN_MASK + 1;
		if (!__atomic_compare_exchange_n(&s->id, &id,
				(uint64_t)gen << 32, false,
				__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			continue;	/* another process took it first */
		__atomic_store_n(&s->pid_ns, swtim_proc_pid_ns,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&s->start_time, self.start_time,
				 __ATOMIC_RELEASE);
		__atomic_store_n(&s->id, (uint64_t)gen << 32 | pid,
				 __ATOMIC_RELEASE);
		__atomic_store_n(&swtim_proc_tag, swtim_proc_tag_of(slot, gen),
				 __ATOMIC_RELEASE);
		return 0;
	}
	SWTIM_LOG(ERR, "all %u process slots are held by live processes",
		  SWTIM_PROCS_MAX);
	return -ENOSPC;
}

int
swtim_proc_attach(void)
{
	const size_t size = SWTIM_PROCS_MAX * sizeof(swtim_procs[0]);
	const struct rte_memzone *mz;
	int ret;

	if (__atomic_load_n(&swtim_proc_tag, __ATOMIC_ACQUIRE) != 0)
		return 0;
	mz = rte_memzone_lookup(SWTIM_PROCS_MZ_NAME);
	if (mz == NULL && rte_eal_process_type() == RTE_PROC_SECONDARY) {
		SWTIM_LOG(ERR, "the primary process has no process table");
		rte_errno = ENOENT;
		return -1;
	}
	if (mz == NULL) {
		mz = rte_memzone_reserve_aligned(SWTIM_PROCS_MZ_NAME, size,
						 SOCKET_ID_ANY, 0,
						 RTE_CACHE_LINE_SIZE);
		if (mz == NULL) {
			SWTIM_LOG(ERR, "no memory for the process table: %s",
				  rte_strerror(rte_errno));
			rte_errno = ENOMEM;
			return -1;
		}
		memset(mz->addr, 0, size);
	}
	swtim_procs = mz->addr;
	ret = swtim_proc_slot_take();
	if (ret != 0) {
		rte_errno = -ret;
		return -1;
	}
	return 0;
}
