/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * swtim-differential: each API call sequence given (fuzz_seq's input
 * format, seq_exec.h) run on swtim and then on DPDK's own adapter
 * (librte_eventdev's rte_event_timer_adapter_*, on a second event_dsw
 * device of the same process), and every difference printed: return
 * value, rte_errno, a timer's state after a step, the timers whose
 * events a service step delivered, the events' event_type and op, a
 * statistics count, and calls not made on DPDK because it would crash
 * on them (seq_api_dpdk.c).
 *
 * Each difference has a kind, a line without the sequence's particulars
 * ("arm_burst rte_errno EINVAL/0"). With --known FILE, the kinds listed
 * there (doc/differential.md says what each one is and why it is not a
 * swtim bug) are counted as known; any other makes the exit status 1.
 */

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <rte_errno.h>

#include "fuzz_env.h"
#include "seq_exec.h"

/* Steps of one run: the sequence's own and the harness's last ones. */
#define STEPS_MAX (SEQ_STEPS_MAX + 4 * SEQ_NB_SLOTS)
#define KINDS_MAX 256
#define KIND_LEN 128
#define INPUT_MAX 4096

extern struct seq_api seq_dpdk_api;
extern struct rte_event_timer *seq_dpdk_timers;

struct run {
	unsigned int nb;
	struct seq_step steps[STEPS_MAX];
};

struct kind {
	char name[KIND_LEN];
	unsigned long count;
	bool known;
};

static struct run runs[2];
static struct kind kinds[KINDS_MAX];
static unsigned int nb_kinds;
static unsigned long nb_unknown;
static unsigned int nb_diverged;
static bool quiet;
/* The sequence being compared had a timing difference (differ()). */
static bool timing_seen;

static void
record(const struct seq_step *s, void *arg)
{
	struct run *r = arg;

	if (r->nb < STEPS_MAX)
		r->steps[r->nb++] = *s;
}

static const char *
errno_name(int e)
{
	static char buf[16];

	switch (e) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case EALREADY: return "EALREADY";
	case ENOSPC: return "ENOSPC";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case EBUSY: return "EBUSY";
	case ESRCH: return "ESRCH";
	case EAGAIN: return "EAGAIN";
	case ENOTSUP: return "ENOTSUP";
	case ERANGE: return "ERANGE";
	case ENOMEM: return "ENOMEM";
	default:
		snprintf(buf, sizeof(buf), "%d", e);
		return buf;
	}
}

static const char *
state_name(int32_t st)
{
	static char buf[16];

	switch (st) {
	case RTE_EVENT_TIMER_NOT_ARMED: return "NOT_ARMED";
	case RTE_EVENT_TIMER_ARMED: return "ARMED";
	case RTE_EVENT_TIMER_CANCELED: return "CANCELED";
	case RTE_EVENT_TIMER_ERROR: return "ERROR";
	case RTE_EVENT_TIMER_ERROR_TOOEARLY: return "ERROR_TOOEARLY";
	case RTE_EVENT_TIMER_ERROR_TOOLATE: return "ERROR_TOOLATE";
	default:
		snprintf(buf, sizeof(buf), "%d", st);
		return buf;
	}
}

/* An int return: 0, or -errno by name. */
static const char *
ret_name(int64_t ret, char *buf, size_t len)
{
	if (ret < 0)
		snprintf(buf, len, "-%s", errno_name((int)-ret));
	else
		snprintf(buf, len, "%" PRId64, ret);
	return buf;
}

static struct kind *
kind_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < nb_kinds; i++)
		if (strcmp(kinds[i].name, name) == 0)
			return &kinds[i];
	if (nb_kinds == KINDS_MAX)
		return NULL;
	snprintf(kinds[nb_kinds].name, KIND_LEN, "%.*s", KIND_LEN - 1, name);
	return &kinds[nb_kinds++];
}

/*
 * Timeouts a service step that waited has certainly seen pass: up to
 * half of the wait, which leaves room for a tick of lateness. The
 * sequences' short timeouts (1 to 4 ticks) are well inside it.
 */
#define WAIT_COVERS_TICKS (SEQ_WAIT_US * 1000ULL / SEQ_TICK_NS / 2)

static bool
is_arming(enum seq_op op)
{
	return op == SEQ_ARM || op == SEQ_ARM_TMO;
}

/* The timeout, in ticks, of entry k of an arming step. */
static uint64_t
entry_timeout(const struct seq_step *s, unsigned int k)
{
	return s->op == SEQ_ARM_TMO ? s->tmo[0] : s->tmo[k];
}

/*
 * Whether a timeout may or may not have passed when a service step that
 * waited ran: longer than the wait covers, shorter than SEQ_LONG_TICKS
 * (ten seconds, never due within a run). Only the bytes of a short input
 * give such timeouts (an arbitrary 64-bit value read from its last
 * bytes). Whether it passed depends on how long the steps since the arm
 * took, which on a loaded machine is anything: one run preempted for
 * milliseconds between the arm and the service sees it due, the other
 * does not.
 */
static bool
timeout_races_wait(uint64_t ticks)
{
	return ticks > WAIT_COVERS_TICKS && ticks < SEQ_LONG_TICKS;
}

/* The timeout of the arming whose events carry tag (seq_exec.c). */
static uint64_t
tag_timeout(const struct run *r, uint64_t tag)
{
	unsigned int step = tag >> 12, k = (tag >> 8) & 0xf;

	if (step == 0 || step > r->nb || !is_arming(r->steps[step - 1].op) ||
	    k >= r->steps[step - 1].nb)
		return 0;
	return entry_timeout(&r->steps[step - 1], k);
}

/* The timeout of timer's last arming before step n (1-based), or 0. */
static uint64_t
timer_timeout(const struct run *r, unsigned int n, unsigned int timer)
{
	const struct seq_step *s;
	unsigned int k;

	while (--n > 0) {
		s = &r->steps[n - 1];
		if (!is_arming(s->op) || s->ret <= 0)
			continue;
		/* The entries armed are the burst's first ret. */
		for (k = 0; k < s->ret && k < s->nb; k++)
			if (s->idx[k] == (int)timer)
				return entry_timeout(s, k);
	}
	return 0;
}

/*
 * Record a difference at step (1-based) of the sequence in input. Where
 * timing decides what a service step sees, the kind says so: a step that
 * did not wait races the deadlines of the timers armed just before it (a
 * few ticks of 10 us); one that waited races the timeouts
 * timeout_races_wait() names (races_wait).
 */
static void __rte_format_printf(5, 6)
differ_timed(const char *input, unsigned int step, const struct seq_step *s,
	     bool races_wait, const char *fmt, ...)
{
	char name[KIND_LEN];
	struct kind *k;
	va_list ap;
	int len = 0;

	if (s->op == SEQ_SERVICE && !s->waited)
		len = snprintf(name, sizeof(name), "timing, no wait: ");
	else if (s->op == SEQ_SERVICE && races_wait)
		len = snprintf(name, sizeof(name),
			       "timing, a timeout longer than the wait: ");
	timing_seen |= len != 0;
	va_start(ap, fmt);
	vsnprintf(name + len, sizeof(name) - len, fmt, ap);
	va_end(ap);
	k = kind_find(name);
	if (k == NULL) {
		fprintf(stderr, "too many kinds of difference\n");
		exit(1);
	}
	k->count++;
	if (!k->known)
		nb_unknown++;
	if (!quiet || !k->known)
		printf("%s step %u %s slot %u: %s%s\n", input, step,
		       seq_op_name(s->op), s->slot, name,
		       k->known ? "" : "  [NOT KNOWN]");
}

/* A difference that no timeout decides. */
#define differ(input, step, s, ...) \
	differ_timed(input, step, s, false, __VA_ARGS__)

/* Whether the call failed, so that its rte_errno means something. */
static bool
step_failed(const struct seq_step *s)
{
	switch (s->op) {
	case SEQ_CREATE:
	case SEQ_LOOKUP:
		return s->ret == 0;
	case SEQ_ARM:
	case SEQ_ARM_TMO:
	case SEQ_CANCEL:
		return s->ret < s->nb;
	default:
		return false;	/* these answer -errno themselves */
	}
}

static bool
is_burst(enum seq_op op)
{
	return op == SEQ_ARM || op == SEQ_ARM_TMO || op == SEQ_CANCEL;
}

/* The first event of a step carrying tag, or NULL. */
static const struct rte_event *
event_of(const struct seq_step *s, uint64_t tag)
{
	unsigned int e;

	for (e = 0; e < s->nb_evs; e++)
		if (s->evs[e].u64 == tag)
			return &s->evs[e];
	return NULL;
}

/* Whether the arming whose events carry tag was on a periodic adapter. */
static bool
tag_periodic(const struct run *r, uint64_t tag)
{
	unsigned int n = tag >> 12, slot;

	if (n == 0 || n > r->nb)
		return false;
	slot = r->steps[n - 1].slot;
	while (--n > 0)
		if (r->steps[n - 1].op == SEQ_CREATE &&
		    r->steps[n - 1].slot == slot && r->steps[n - 1].ret == 1)
			return r->steps[n - 1].periodic;
	return false;
}

/* How many of a service step's events are periods of periodic timers. */
static unsigned int
periodic_events(const struct seq_step *s)
{
	unsigned int e, n = 0;

	for (e = 0; e < s->nb_evs; e++)
		n += tag_periodic(&runs[0], s->evs[e].u64);
	return n;
}

static bool
tag_races_wait(uint64_t tag)
{
	return timeout_races_wait(tag_timeout(&runs[0], tag));
}

static void
events_compare(const char *input, unsigned int n, const struct seq_step *a,
	       const struct seq_step *b)
{
	const struct rte_event *ea, *eb;
	unsigned int e;

	/*
	 * A periodic timer's events all carry its arming's tag: how many of
	 * its periods a step delivers shows only in the number of events,
	 * and depends on where the period boundaries fall between the runs
	 * of the service, that is, on timing, even in a step that waited
	 * (seen under load: DPDK two periods in a step of two service
	 * iterations, swtim one). The statistics after it differ by that.
	 */
	if (periodic_events(a) != periodic_events(b))
		timing_seen = true;
	for (e = 0; e < a->nb_evs; e++) {
		ea = &a->evs[e];
		if (event_of(a, ea->u64) != ea)
			continue;	/* periodic: a later period */
		eb = event_of(b, ea->u64);
		if (eb == NULL) {
			differ_timed(input, n, a, tag_races_wait(ea->u64),
				     "service event delivered by swtim only");
			continue;
		}
		if (ea->event_type != eb->event_type || ea->op != eb->op)
			differ(input, n, a, "service event_type/op %u/%u, "
			       "DPDK %u/%u", ea->event_type, ea->op,
			       eb->event_type, eb->op);
	}
	for (e = 0; e < b->nb_evs; e++)
		if (event_of(b, b->evs[e].u64) == &b->evs[e] &&
		    event_of(a, b->evs[e].u64) == NULL)
			differ_timed(input, n, a, tag_races_wait(b->evs[e].u64),
				     "service event delivered by DPDK only");
}

/*
 * Compare step n of both runs; true if the runs diverged there: an
 * adapter made, started, stopped or freed in one run only, or a timer
 * left in another state. The steps after such a one start from
 * different places, and their differences would only repeat it.
 */
static bool
steps_compare(const char *input, unsigned int n, const struct seq_step *a,
	      const struct seq_step *b)
{
	char ra[24], rb[24];
	bool diverged = false;
	unsigned int i;

	if (b->not_called != NULL) {
		differ(input, n, a, "%s not called on DPDK: %s",
		       seq_op_name(a->op), b->not_called);
		return false;
	}
	if (a->ret != b->ret && (a->op == SEQ_CREATE || a->op == SEQ_START ||
				 a->op == SEQ_STOP || a->op == SEQ_FREE))
		diverged = true;
	if (a->ret != b->ret) {
		if (is_burst(a->op))
			differ(input, n, a, "%s count: swtim %s DPDK (DPDK "
			       "rte_errno %s)", seq_op_name(a->op),
			       a->ret < b->ret ? "below" : "above",
			       b->ret < b->nb ? errno_name(b->err) : "-");
		else if (a->op == SEQ_SERVICE)
			;	/* the service's own return: not the API's */
		else if (a->op == SEQ_CREATE || a->op == SEQ_LOOKUP)
			differ(input, n, a, "%s %s, DPDK %s",
			       seq_op_name(a->op),
			       a->ret ? "made" : errno_name(a->err),
			       b->ret ? "made" : errno_name(b->err));
		else
			differ(input, n, a, "%s returns %s, DPDK %s",
			       seq_op_name(a->op),
			       ret_name(a->ret, ra, sizeof(ra)),
			       ret_name(b->ret, rb, sizeof(rb)));
	}
	if (a->ret == b->ret && step_failed(a) && a->err != b->err) {
		snprintf(ra, sizeof(ra), "%s", errno_name(a->err));
		differ(input, n, a, "%s rte_errno %s, DPDK %s",
		       seq_op_name(a->op), ra, errno_name(b->err));
	}
	for (i = 0; i < SEQ_NB_TIMERS; i++)
		if (a->state_after[i] != b->state_after[i] &&
		    a->state_before[i] == b->state_before[i]) {
			snprintf(ra, sizeof(ra), "%s",
				 state_name(a->state_after[i]));
			differ_timed(input, n, a, timeout_races_wait(
					timer_timeout(&runs[0], n, i)),
				     "%s leaves %s %s, DPDK %s",
				     seq_op_name(a->op),
				     state_name(a->state_before[i]), ra,
				     state_name(b->state_after[i]));
			diverged = true;
		}
	if (a->op == SEQ_SERVICE)
		events_compare(input, n, a, b);
	/* After a service step's timing difference the counts differ by
	 * the events one side delivered early in it. */
	if (a->op == SEQ_STATS && !a->reset && a->ret == 0 && b->ret == 0 &&
	    a->stats.ev_enq_count != b->stats.ev_enq_count)
		differ(input, n, a, "%sstats ev_enq_count differs",
		       timing_seen ? "timing, after a timing difference: " :
		       "");
	return diverged;
}

static void
known_load(const char *path)
{
	char line[KIND_LEN + 2];
	FILE *f = fopen(path, "r");
	struct kind *k;
	size_t len;

	if (f == NULL) {
		perror(path);
		exit(1);
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		len = strcspn(line, "\n");
		line[len] = '\0';
		if (len == 0 || line[0] == '#')
			continue;
		k = kind_find(line);
		if (k == NULL)
			exit(1);
		k->known = true;
	}
	fclose(f);
}

static int
input_run(struct seq_world *sw, struct seq_world *dw, const char *path)
{
	static uint8_t data[INPUT_MAX];
	struct fuzz_input in;
	unsigned int i;
	size_t len;
	FILE *f = fopen(path, "rb");

	if (f == NULL) {
		perror(path);
		return -1;
	}
	len = fread(data, 1, sizeof(data), f);
	fclose(f);
	/*
	 * DPDK's create adds a port for good each time; a device set up
	 * afresh for each sequence keeps one sequence's port use from
	 * refusing the next one's creates.
	 */
	rte_event_dev_stop(dw->dev_id);
	if (rte_event_dev_close(dw->dev_id) != 0) {
		fprintf(stderr, "cannot close event_dsw1\n");
		return -1;
	}
	fuzz_env_evdev_setup("event_dsw1");
	for (i = 0; i < 2; i++) {
		struct seq_world *w = i == 0 ? sw : dw;

		runs[i].nb = 0;
		in = fuzz_input_of(data, len);
		seq_swtim_driver = fuzz_drivers[fuzz_u8(&in) %
						FUZZ_NB_DRIVERS];
		seq_run(w, &in, record, &runs[i]);
	}
	timing_seen = false;
	for (i = 0; i < RTE_MIN(runs[0].nb, runs[1].nb); i++)
		if (steps_compare(path, i + 1, &runs[0].steps[i],
				  &runs[1].steps[i])) {
			if (!quiet)
				printf("%s: the runs diverged at step %u; the "
				       "rest is not compared\n", path, i + 1);
			nb_diverged++;
			break;
		}
	return 0;
}

static int
name_cmp(const struct dirent **x, const struct dirent **y)
{
	return strcmp((*x)->d_name, (*y)->d_name);
}

/* A sequence, or every sequence in a folder, in name order. */
static int
path_run(struct seq_world *sw, struct seq_world *dw, const char *path,
	 unsigned int *inputs)
{
	struct dirent **names;
	char file[4096];
	struct stat st;
	int n, i, ret = 0;

	if (stat(path, &st) != 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*inputs)++;
		return input_run(sw, dw, path);
	}
	n = scandir(path, &names, NULL, name_cmp);
	if (n < 0) {
		perror(path);
		return -1;
	}
	for (i = 0; i < n; i++) {
		snprintf(file, sizeof(file), "%s/%s", path, names[i]->d_name);
		if (ret == 0 && names[i]->d_name[0] != '.' &&
		    stat(file, &st) == 0 && S_ISREG(st.st_mode)) {
			(*inputs)++;
			ret = input_run(sw, dw, file);
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

static void
usage(const char *prog)
{
	printf("usage: %s [--known FILE] [--quiet] INPUT_OR_FOLDER...\n"
	       "Run each API call sequence (fuzz_seq's input format) on "
	       "swtim and on DPDK's\nadapter, and print every difference "
	       "with its kind. --known FILE: the\nkinds listed there (one a"
	       " line, '#' comments) are known (doc/differential.md);\n"
	       "any other makes the exit status 1. --quiet: print only "
	       "differences not\nknown, and the summary.\n", prog);
}

int
main(int argc, char **argv)
{
	static struct rte_event_timer sw_timers[SEQ_NB_TIMERS];
	static struct rte_event_timer dpdk_timers[SEQ_NB_TIMERS];
	static const char *const vdevs[] = { "event_dsw1", NULL };
	struct seq_world sw, dw;
	unsigned int i, inputs = 0;
	int a;

	for (a = 1; a < argc && argv[a][0] == '-'; a++) {
		if (strcmp(argv[a], "--help") == 0) {
			usage(argv[0]);
			return 0;
		} else if (strcmp(argv[a], "--quiet") == 0) {
			quiet = true;
		} else if (strcmp(argv[a], "--known") == 0 && a + 1 < argc) {
			known_load(argv[++a]);
		} else {
			usage(argv[0]);
			return 2;
		}
	}
	if (a == argc) {
		usage(argv[0]);
		return 2;
	}
	fuzz_env_init("differential", vdevs);
	memset(&sw, 0, sizeof(sw));
	sw.api = &seq_swtim_api;
	sw.dev_id = fuzz_env.dev_id;
	sw.app_port = fuzz_env.app_port;
	sw.timers = sw_timers;
	dw = sw;
	dw.api = &seq_dpdk_api;
	dw.dev_id = fuzz_env_evdev_setup("event_dsw1");
	dw.timers = dpdk_timers;
	seq_dpdk_timers = dpdk_timers;

	for (; a < argc; a++)
		if (path_run(&sw, &dw, argv[a], &inputs) != 0)
			return 1;
	printf("\n%u sequences; differences by kind:\n", inputs);
	for (i = 0; i < nb_kinds; i++)
		if (kinds[i].count != 0)
			printf("%8lu  %s%s\n", kinds[i].count, kinds[i].name,
			       kinds[i].known ? "" : "  [NOT KNOWN]");
	printf("%u sequences compared up to the step where the runs "
	       "diverged\n%lu differences of kinds not known\n", nb_diverged,
	       nb_unknown);
	return nb_unknown == 0 ? 0 : 1;
}
