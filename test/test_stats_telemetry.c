/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Statistics and telemetry: counters agree with what the test saw
 * (expiries, enqueues, ticks), stats_reset zeroes them, and the telemetry
 * commands /swtim/list, /swtim/info,<id> and /swtim/stats,<id> answer
 * valid JSON with the adapter's ids, configuration and counters.
 *
 * Counters are read with the adapter stopped: stop returns only once the
 * service is out, so the numbers no longer move.
 *
 * Telemetry is read the way any client does: connect to the SEQPACKET
 * socket <runtime dir>/dpdk_telemetry.v2, read the greeting, send the
 * command, read one JSON reply. A small JSON parser below checks the
 * syntax fully and keeps the scalars for the assertions.
 */

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_service.h>

#include "swtim_test.h"

#define TICK_NS		(1000 * 1000)		/* 1 ms */
#define MAX_TMO_NS	(1000 * 1000 * 1000)	/* 1 s */
#define NB_TIMERS	1000
#define ID		3
#define ID2		7
#define APP_PORT	1

static struct swtim_adapter *
mk_adapter(uint16_t id, bool start)
{
	struct rte_event_timer_adapter_conf c =
		swt_conf(id, TICK_NS, MAX_TMO_NS, NB_TIMERS, 0);
	struct swtim_adapter *a = swt_adapter_create(&c, APP_PORT);

	if (a != NULL && start && swt_adapter_start(a) != 0)
		return NULL;
	return a;
}

/* Arm n timers of 1..10 ticks and dequeue their n events. */
static int
expire_n(struct swtim_adapter *a, unsigned int n)
{
	struct rte_event_timer *t = swt_timers(n);
	unsigned int i;

	SWT_ASSERT(t != NULL, "alloc");
	for (i = 0; i < n; i++) {
		swt_timer_init(&t[i], SWT_Q_PARALLEL, i, 1 + i % 10);
		SWT_ASSERT_BURST(swtim_arm(a, &t[i]), 1, 0);
	}
	SWT_ASSERT_EQ(swt_collect(&swt_dev, NULL, n, 2000), n);
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 20), 0);
	return SWT_PASS;
}

/* ---- stats ---- */

static int
stats_after_expiries(void)
{
	const unsigned int n = 500;
	struct rte_event_timer_adapter_stats st;
	struct swtim_adapter *a = mk_adapter(ID, true);

	SWT_ASSERT(a != NULL, "adapter: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(expire_n(a, n));
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
	SWT_ASSERT_EQ(st.evtim_exp_count, n);
	SWT_ASSERT_EQ(st.ev_enq_count, n);
	SWT_ASSERT_EQ(st.ev_inv_count, 0);
	SWT_ASSERT_EQ(st.evtim_drop_count, 0);
	SWT_ASSERT(st.adapter_tick_count > 0, "no ticks");
	return SWT_PASS;
}

static int
stats_cancelled_not_counted(void)
{
	const unsigned int n = 200;
	struct rte_event_timer_adapter_stats st;
	struct swtim_adapter *a = mk_adapter(ID, true);
	struct rte_event_timer *t = swt_timers(n);
	unsigned int i, expiring = 0;

	SWT_ASSERT(a != NULL && t != NULL, "setup: %s",
		   rte_strerror(rte_errno));
	for (i = 0; i < n; i++) {
		swt_timer_init(&t[i], SWT_Q_ATOMIC, i, 30);
		SWT_ASSERT_BURST(swtim_arm(a, &t[i]), 1, 0);
	}
	for (i = 0; i < n; i++) {
		/* Cancel two in three; on a slow machine some expire first. */
		if (i % 3 == 0 || swt_cancel_retry(a, &t[i]) != 1)
			expiring++;
	}
	SWT_ASSERT_EQ(swt_collect(&swt_dev, NULL, expiring, 2000), expiring);
	SWT_ASSERT_EQ(swt_drain(&swt_dev, 50), 0);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
	SWT_ASSERT_EQ(st.evtim_exp_count, expiring);
	SWT_ASSERT_EQ(st.ev_enq_count, expiring);
	return SWT_PASS;
}

static int
stats_reset_zeroes(void)
{
	struct rte_event_timer_adapter_stats st;
	struct swtim_adapter *a = mk_adapter(ID, true);

	SWT_ASSERT(a != NULL, "adapter: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(expire_n(a, 50));
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	SWT_ASSERT_OK(swtim_adapter_stats_reset(a));
	memset(&st, 0xff, sizeof(st));
	SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
	SWT_ASSERT_EQ(st.evtim_exp_count, 0);
	SWT_ASSERT_EQ(st.ev_enq_count, 0);
	SWT_ASSERT_EQ(st.ev_inv_count, 0);
	SWT_ASSERT_EQ(st.evtim_retry_count, 0);
	SWT_ASSERT_EQ(st.adapter_tick_count, 0);
	SWT_ASSERT_EQ(st.evtim_drop_count, 0);

	/* Counting starts again from zero. */
	SWT_ASSERT_OK(swtim_adapter_start(a));
	SWT_ASSERT_OK(expire_n(a, 10));
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
	SWT_ASSERT_EQ(st.evtim_exp_count, 10);
	SWT_ASSERT_EQ(st.ev_enq_count, 10);
	return SWT_PASS;
}

/*
 * adapter_tick_count counts adapter ticks: more than none while running,
 * never more than the ticks that elapsed.
 */
static int
stats_tick_count(void)
{
	struct rte_event_timer_adapter_stats st;
	struct rte_event_timer *t = swt_timers(5);
	struct swtim_adapter *a;
	uint64_t t0, elapsed_ticks, exp;
	unsigned int i;

	/* From create: the adapter's clock may start there. */
	t0 = swt_now();
	a = mk_adapter(ID, false);
	SWT_ASSERT(a != NULL && t != NULL, "adapter: %s",
		   rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_service_map(a, SWT_SERVICE_LCORE));
	SWT_ASSERT_OK(swtim_adapter_start(a));
	/* Some work to do while the ticks go by. */
	for (i = 0; i < 5; i++) {
		swt_timer_init(&t[i], SWT_Q_PARALLEL, i, 20 * (i + 1));
		SWT_ASSERT_BURST(swtim_arm(a, &t[i]), 1, 0);
	}
	swt_sleep_ms(100);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	elapsed_ticks = (swt_now() - t0) / swt_ns_to_cycles(TICK_NS);
	SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
	SWT_ASSERT(st.adapter_tick_count > 0, "no ticks");
	SWT_ASSERT(st.adapter_tick_count <= elapsed_ticks + 1,
		   "%" PRIu64 " ticks in %" PRIu64, st.adapter_tick_count,
		   elapsed_ticks);
	/*
	 * Stop returned, so the service is out: from then on nothing
	 * moves, although timers fall due meanwhile.
	 */
	t0 = st.adapter_tick_count;
	exp = st.evtim_exp_count;
	swt_sleep_ms(150);
	SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
	SWT_ASSERT_EQ(st.adapter_tick_count, t0);
	SWT_ASSERT_EQ(st.evtim_exp_count, exp);
	return SWT_PASS;
}

/*
 * The ticks before start and while stopped are not the service's: a
 * service that ran for a few ticks counts no more than those, however
 * long the adapter sat created or stopped before.
 */
static int
stats_tick_count_not_while_stopped(void)
{
	struct rte_event_timer_adapter_stats st;
	struct swtim_adapter *a;
	unsigned int round;
	uint64_t t0, ran;

	a = mk_adapter(ID, false);
	SWT_ASSERT(a != NULL, "adapter: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_service_map(a, SWT_SERVICE_LCORE));
	for (round = 0; round < 2; round++) {
		/* Created (first round) or stopped (second) for a while. */
		swt_sleep_ms(200);
		SWT_ASSERT_OK(swtim_adapter_stats_reset(a));
		t0 = swt_now();
		SWT_ASSERT_OK(swtim_adapter_start(a));
		swt_sleep_ms(20);
		SWT_ASSERT_OK(swtim_adapter_stop(a));
		ran = (swt_now() - t0) / swt_ns_to_cycles(TICK_NS);
		SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
		SWT_ASSERT(st.adapter_tick_count <= ran + 1,
			   "round %u: %" PRIu64 " ticks counted in %" PRIu64,
			   round, st.adapter_tick_count, ran);
	}
	return SWT_PASS;
}

/*
 * Ticks count from a reset on: a service that has not run for a while
 * (unmapped here) does not count the ticks before the reset as after it.
 */
static int
stats_tick_count_from_reset(void)
{
	struct rte_event_timer_adapter_stats st;
	struct swtim_adapter *a;
	uint64_t t0, ran;
	uint32_t sid;

	a = mk_adapter(ID, false);
	SWT_ASSERT(a != NULL, "adapter: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(swt_service_map(a, SWT_SERVICE_LCORE));
	SWT_ASSERT_OK(swtim_adapter_start(a));
	SWT_ASSERT_OK(swtim_adapter_service_id_get(a, &sid));
	SWT_ASSERT_OK(rte_service_map_lcore_set(sid, SWT_SERVICE_LCORE, 0));
	/* 200 ticks the service does not see. */
	swt_sleep_ms(200);
	SWT_ASSERT_OK(swtim_adapter_stats_reset(a));
	t0 = swt_now();
	SWT_ASSERT_OK(rte_service_map_lcore_set(sid, SWT_SERVICE_LCORE, 1));
	swt_sleep_ms(20);
	SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
	ran = (swt_now() - t0) / swt_ns_to_cycles(TICK_NS);
	SWT_ASSERT(st.adapter_tick_count <= ran + 1,
		   "%" PRIu64 " ticks counted in %" PRIu64 " since the reset",
		   st.adapter_tick_count, ran);
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	return SWT_PASS;
}

/* ---- a small JSON parser ---- */

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

/* A scalar seen while parsing, with the member name it belongs to. */
struct jscalar {
	char key[64];		/* "" for array elements */
	unsigned int depth;	/* 1: member of the top object */
	enum jtype type;
	bool is_uint;
	uint64_t u;
};

struct json {
	const char *s;
	size_t i;
	unsigned int depth;
	unsigned int nb;
	struct jscalar sc[256];
	/* Type of the value of the top object's only member. */
	enum jtype top_type;
	char top_key[64];
	unsigned int top_members;
};

static int json_value(struct json *j, const char *key);

static void
json_ws(struct json *j)
{
	while (j->s[j->i] == ' ' || j->s[j->i] == '\t' ||
	       j->s[j->i] == '\n' || j->s[j->i] == '\r')
		j->i++;
}

static void
json_add(struct json *j, const char *key, enum jtype type, bool is_uint,
	 uint64_t u)
{
	struct jscalar *sc;

	if (j->nb == RTE_DIM(j->sc))
		return;
	sc = &j->sc[j->nb++];
	snprintf(sc->key, sizeof(sc->key), "%s", key);
	sc->depth = j->depth;
	sc->type = type;
	sc->is_uint = is_uint;
	sc->u = u;
}

/* A string; its contents (unescaped enough for keys) go to out. */
static int
json_string(struct json *j, char *out, size_t len)
{
	size_t o = 0;
	char c;
	int k;

	if (j->s[j->i] != '"')
		return -1;
	j->i++;
	for (;;) {
		c = j->s[j->i++];
		if (c == '"')
			break;
		if ((unsigned char)c < 0x20)
			return -1;	/* includes the terminating NUL */
		if (c == '\\') {
			c = j->s[j->i++];
			if (c == 'u') {
				for (k = 0; k < 4; k++)
					if (!isxdigit((unsigned char)
						      j->s[j->i++]))
						return -1;
				c = '?';
			} else if (strchr("\"\\/bfnrt", c) == NULL || c == 0) {
				return -1;
			}
		}
		if (out != NULL && o + 1 < len)
			out[o++] = c;
	}
	if (out != NULL)
		out[o] = '\0';
	return 0;
}

static int
json_number(struct json *j, const char *key)
{
	size_t start = j->i;
	bool is_uint = true;

	if (j->s[j->i] == '-') {
		is_uint = false;
		j->i++;
	}
	if (!isdigit((unsigned char)j->s[j->i]))
		return -1;
	if (j->s[j->i] == '0')
		j->i++;
	else
		while (isdigit((unsigned char)j->s[j->i]))
			j->i++;
	if (j->s[j->i] == '.') {
		is_uint = false;
		j->i++;
		if (!isdigit((unsigned char)j->s[j->i]))
			return -1;
		while (isdigit((unsigned char)j->s[j->i]))
			j->i++;
	}
	if (j->s[j->i] == 'e' || j->s[j->i] == 'E') {
		is_uint = false;
		j->i++;
		if (j->s[j->i] == '+' || j->s[j->i] == '-')
			j->i++;
		if (!isdigit((unsigned char)j->s[j->i]))
			return -1;
		while (isdigit((unsigned char)j->s[j->i]))
			j->i++;
	}
	json_add(j, key, J_NUM, is_uint,
		 is_uint ? strtoull(&j->s[start], NULL, 10) : 0);
	return 0;
}

static int
json_literal(struct json *j, const char *lit)
{
	size_t n = strlen(lit);

	if (strncmp(&j->s[j->i], lit, n) != 0)
		return -1;
	j->i += n;
	return 0;
}

static int
json_container(struct json *j, bool obj, const char *key)
{
	char name[64];

	RTE_SET_USED(key);
	j->i++;
	j->depth++;
	json_ws(j);
	if (j->s[j->i] == (obj ? '}' : ']')) {
		j->i++;
		j->depth--;
		return 0;
	}
	for (;;) {
		json_ws(j);
		name[0] = '\0';
		if (obj) {
			if (json_string(j, name, sizeof(name)) != 0)
				return -1;
			json_ws(j);
			if (j->s[j->i++] != ':')
				return -1;
			json_ws(j);
			if (j->depth == 1) {
				snprintf(j->top_key, sizeof(j->top_key), "%s",
					 name);
				j->top_members++;
			}
		}
		if (json_value(j, name) != 0)
			return -1;
		json_ws(j);
		if (j->s[j->i] == ',') {
			j->i++;
			continue;
		}
		if (j->s[j->i++] != (obj ? '}' : ']'))
			return -1;
		break;
	}
	j->depth--;
	return 0;
}

static int
json_value(struct json *j, const char *key)
{
	char c = j->s[j->i];
	enum jtype type;
	int ret;

	json_ws(j);
	c = j->s[j->i];
	if (c == '{' || c == '[') {
		type = c == '{' ? J_OBJ : J_ARR;
		if (j->depth == 1)
			j->top_type = type;
		return json_container(j, c == '{', key);
	}
	if (c == '"') {
		type = J_STR;
		ret = json_string(j, NULL, 0);
		if (ret == 0)
			json_add(j, key, J_STR, false, 0);
	} else if (c == 'n') {
		type = J_NULL;
		ret = json_literal(j, "null");
		if (ret == 0)
			json_add(j, key, J_NULL, false, 0);
	} else if (c == 't' || c == 'f') {
		type = J_BOOL;
		ret = json_literal(j, c == 't' ? "true" : "false");
		if (ret == 0)
			json_add(j, key, J_BOOL, false, 0);
	} else {
		type = J_NUM;
		ret = json_number(j, key);
	}
	if (j->depth == 1)
		j->top_type = type;
	return ret;
}

/* Parse a whole document: one value and nothing after it. */
static int
json_parse(struct json *j, const char *s)
{
	memset(j, 0, sizeof(*j));
	j->s = s;
	if (json_value(j, "") != 0)
		return -1;
	json_ws(j);
	return j->s[j->i] == '\0' ? 0 : -1;
}

/* Unsigned member key at depth (1: of the top object), if any. */
static bool
json_get_at(const struct json *j, unsigned int depth, const char *key,
	    uint64_t *u)
{
	unsigned int i;

	for (i = 0; i < j->nb; i++)
		if (j->sc[i].depth == depth &&
		    strcmp(j->sc[i].key, key) == 0 &&
		    j->sc[i].is_uint) {
			*u = j->sc[i].u;
			return true;
		}
	return false;
}

/* Unsigned member key of the value of the top object's only member. */
static bool
json_get(const struct json *j, const char *key, uint64_t *u)
{
	return json_get_at(j, 2, key, u);
}

static int
json_selftest(void)
{
	static const char *const good[] = {
		"{\"a\": [1, 2, -3.5e2],"
		" \"b\": {\"c\": null, \"d\": \"x\\\"y\"}}",
		"{}", "[]", "0", "\"\\u00e9\"", "{\"t\":true,\"f\":false}",
	};
	static const char *const bad[] = {
		"", "{", "{\"a\":}", "[1,]", "{\"a\":1,}", "01", "\"abc",
		"{\"a\" 1}", "nul", "[1] x", "{a:1}", "1.", "\"\\x\"",
	};
	struct json j;
	uint64_t u;
	unsigned int i;

	for (i = 0; i < RTE_DIM(good); i++)
		SWT_ASSERT(json_parse(&j, good[i]) == 0, "rejects %s",
			   good[i]);
	for (i = 0; i < RTE_DIM(bad); i++)
		SWT_ASSERT(json_parse(&j, bad[i]) != 0, "accepts %s", bad[i]);
	SWT_ASSERT_OK(json_parse(&j, "{\"/x\": {\"id\": 12, \"n\": -1}}"));
	SWT_ASSERT(strcmp(j.top_key, "/x") == 0 && j.top_type == J_OBJ,
		   "top");
	SWT_ASSERT(json_get(&j, "id", &u) && u == 12, "id");
	SWT_ASSERT(!json_get(&j, "n", &u), "negative as unsigned");
	return SWT_PASS;
}

/* ---- telemetry client ---- */

static int
tel_connect(void)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = 5 };
	char buf[1024];
	struct json j;
	uint64_t pid;
	ssize_t n;
	int fd;

	snprintf(addr.sun_path, sizeof(addr.sun_path),
		 "%s/dpdk_telemetry.v2", rte_eal_get_runtime_dir());
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (fd < 0)
		return -1;
	/* A broken server must fail the case, not hang it. */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0) {
		fprintf(stderr, "    connect %s: %s\n", addr.sun_path,
			strerror(errno));
		close(fd);
		return -1;
	}
	/* The greeting: JSON with our own pid. */
	n = recv(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		goto fail;
	buf[n] = '\0';
	if (json_parse(&j, buf) != 0 || !json_get_at(&j, 1, "pid", &pid) ||
	    pid != (uint64_t)getpid()) {
		fprintf(stderr, "    bad greeting: %s\n", buf);
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

/* Send cmd, parse the reply into j; the top key must be the command. */
static int
tel_cmd(int fd, const char *cmd, struct json *j, char *buf, size_t len)
{
	const char *comma = strchr(cmd, ',');
	size_t cmd_len = comma != NULL ? (size_t)(comma - cmd) : strlen(cmd);
	ssize_t n;

	SWT_ASSERT(send(fd, cmd, strlen(cmd), 0) == (ssize_t)strlen(cmd),
		   "send %s: %s", cmd, strerror(errno));
	n = recv(fd, buf, len - 1, 0);
	SWT_ASSERT(n > 0, "recv %s: %s", cmd, strerror(errno));
	buf[n] = '\0';
	SWT_ASSERT(json_parse(j, buf) == 0, "%s: invalid JSON: %s", cmd, buf);
	SWT_ASSERT(j->top_members == 1 && strlen(j->top_key) == cmd_len &&
		   strncmp(j->top_key, cmd, cmd_len) == 0,
		   "%s: reply %s", cmd, buf);
	return SWT_PASS;
}

static int
telemetry_list(void)
{
	struct swtim_adapter *a = mk_adapter(ID, false);
	struct swtim_adapter *b = mk_adapter(ID2, false);
	char buf[4096];
	struct json j;
	unsigned int i, n;
	int fd;

	SWT_ASSERT(a != NULL && b != NULL, "adapters: %s",
		   rte_strerror(rte_errno));
	fd = tel_connect();
	SWT_ASSERT(fd >= 0, "no telemetry socket");
	if (tel_cmd(fd, "/swtim/list", &j, buf, sizeof(buf)) != SWT_PASS)
		goto fail;
	if (j.top_type != J_ARR || j.nb != 2 || !j.sc[0].is_uint ||
	    !j.sc[1].is_uint || j.sc[0].u + j.sc[1].u != ID + ID2 ||
	    (j.sc[0].u != ID && j.sc[0].u != ID2)) {
		swt_fail(__FILE__, __LINE__, "want [%d, %d]: %s", ID, ID2, buf);
		goto fail;
	}
	/* A freed adapter leaves the list. */
	swtim_adapter_free(b);
	if (tel_cmd(fd, "/swtim/list", &j, buf, sizeof(buf)) != SWT_PASS)
		goto fail;
	for (i = 0, n = 0; i < j.nb; i++)
		n += j.sc[i].u == ID2;
	if (j.top_type != J_ARR || j.nb != 1 || j.sc[0].u != ID || n != 0) {
		swt_fail(__FILE__, __LINE__, "want [%d]: %s", ID, buf);
		goto fail;
	}
	close(fd);
	return SWT_PASS;
fail:
	close(fd);
	return SWT_FAIL;
}

static int
check_info(int fd, uint16_t id, uint64_t nb_timers)
{
	char cmd[64], buf[4096];
	struct json j;
	uint64_t u;

	snprintf(cmd, sizeof(cmd), "/swtim/info,%u", id);
	if (tel_cmd(fd, cmd, &j, buf, sizeof(buf)) != SWT_PASS)
		return SWT_FAIL;
	SWT_ASSERT(j.top_type == J_OBJ, "%s", buf);
	SWT_ASSERT(json_get(&j, "id", &u) && u == id, "id: %s", buf);
	SWT_ASSERT(json_get(&j, "nb_timers", &u) && u == nb_timers,
		   "nb_timers: %s", buf);
	SWT_ASSERT(json_get(&j, "timer_tick_ns", &u) && u == TICK_NS,
		   "timer_tick_ns: %s", buf);
	SWT_ASSERT(json_get(&j, "min_resolution_ns", &u) && u == TICK_NS,
		   "min_resolution_ns: %s", buf);
	SWT_ASSERT(json_get(&j, "max_tmo_ns", &u) && u >= TICK_NS,
		   "max_tmo_ns: %s", buf);
	SWT_ASSERT(json_get(&j, "event_dev_port_id", &u) && u == APP_PORT,
		   "event_dev_port_id: %s", buf);
	SWT_ASSERT(json_get(&j, "nb_event_ports", &u) && u == 1,
		   "nb_event_ports: %s", buf);
	return SWT_PASS;
}

static int
telemetry_info(void)
{
	static const char *const bad[] = {
		"/swtim/info,31", "/swtim/info,99", "/swtim/info,abc",
		"/swtim/info,", "/swtim/info",
	};
	struct swtim_adapter *a = mk_adapter(ID, false);
	struct swtim_adapter *b = mk_adapter(ID2, false);
	char buf[4096];
	struct json j;
	unsigned int i;
	int fd, ret = SWT_FAIL;

	SWT_ASSERT(a != NULL && b != NULL, "adapters: %s",
		   rte_strerror(rte_errno));
	fd = tel_connect();
	SWT_ASSERT(fd >= 0, "no telemetry socket");
	if (check_info(fd, ID, NB_TIMERS) != SWT_PASS ||
	    check_info(fd, ID2, NB_TIMERS) != SWT_PASS)
		goto out;
	/* No such adapter: still valid JSON, with no object in it. */
	for (i = 0; i < RTE_DIM(bad); i++) {
		if (tel_cmd(fd, bad[i], &j, buf, sizeof(buf)) != SWT_PASS)
			goto out;
		if (j.top_type == J_OBJ) {
			swt_fail(__FILE__, __LINE__, "%s: %s", bad[i], buf);
			goto out;
		}
	}
	ret = SWT_PASS;
out:
	close(fd);
	return ret;
}

static int
telemetry_stats(void)
{
	static const char *const fields[] = {
		"evtim_exp_count", "ev_enq_count", "ev_inv_count",
		"evtim_retry_count", "adapter_tick_count", "evtim_drop_count",
	};
	struct rte_event_timer_adapter_stats st;
	struct swtim_adapter *a = mk_adapter(ID, true);
	uint64_t want[RTE_DIM(fields)], u;
	char buf[4096], cmd[64];
	struct json j;
	unsigned int i;
	int fd, ret = SWT_FAIL;

	SWT_ASSERT(a != NULL, "adapter: %s", rte_strerror(rte_errno));
	SWT_ASSERT_OK(expire_n(a, 100));
	SWT_ASSERT_OK(swtim_adapter_stop(a));
	SWT_ASSERT_OK(swtim_adapter_stats_get(a, &st));
	want[0] = st.evtim_exp_count;
	want[1] = st.ev_enq_count;
	want[2] = st.ev_inv_count;
	want[3] = st.evtim_retry_count;
	want[4] = st.adapter_tick_count;
	want[5] = st.evtim_drop_count;
	SWT_ASSERT_EQ(want[0], 100);

	fd = tel_connect();
	SWT_ASSERT(fd >= 0, "no telemetry socket");
	snprintf(cmd, sizeof(cmd), "/swtim/stats,%u", ID);
	if (tel_cmd(fd, cmd, &j, buf, sizeof(buf)) != SWT_PASS)
		goto out;
	if (j.top_type != J_OBJ) {
		swt_fail(__FILE__, __LINE__, "%s: %s", cmd, buf);
		goto out;
	}
	for (i = 0; i < RTE_DIM(fields); i++) {
		if (!json_get(&j, fields[i], &u) || u != want[i]) {
			swt_fail(__FILE__, __LINE__, "%s: want %" PRIu64
				 ": %s", fields[i], want[i], buf);
			goto out;
		}
	}
	if (tel_cmd(fd, "/swtim/stats,30", &j, buf, sizeof(buf)) !=
	    SWT_PASS)
		goto out;
	if (j.top_type == J_OBJ) {
		swt_fail(__FILE__, __LINE__, "stats of no adapter: %s", buf);
		goto out;
	}
	ret = SWT_PASS;
out:
	close(fd);
	return ret;
}

static const struct swt_case cases[] = {
	SWT_CASE(stats_after_expiries),
	SWT_CASE(stats_cancelled_not_counted),
	SWT_CASE(stats_reset_zeroes),
	SWT_CASE(stats_tick_count),
	SWT_CASE(stats_tick_count_not_while_stopped),
	SWT_CASE(stats_tick_count_from_reset),
	SWT_CASE(json_selftest),
	SWT_CASE(telemetry_list),
	SWT_CASE(telemetry_info),
	SWT_CASE(telemetry_stats),
};

int
main(int argc, char **argv)
{
	return swt_main(argc, argv, cases, RTE_DIM(cases));
}
