/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Fuzz target: the driver name and option string of
 * swtim_adapter_create_with_driver().
 *
 * Input: one byte of choices, then the option string (up to the end, or
 * to a NUL). The choices pick the driver (NULL, "wheel", "skiplist", or a
 * name taken from the input up to its first '\n'), whether the options
 * are NULL, and whether the adapter gets a port from a callback or has
 * the library add one.
 *
 * Checked, from the contract: an unknown driver, or an option no driver
 * has, is refused with rte_errno EINVAL; no options, or max_sleep_us=N
 * alone within its range, are accepted; whatever the answer, a refusal
 * is NULL with EINVAL (or ENOMEM) and leaves nothing behind, and an
 * adapter that was made answers get_info and service_id_get, and once
 * freed leaves nothing behind either.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>

#include "swtim.h"
#include "swtim_idle.h"
#include "fuzz_env.h"
#include "fuzz_input.h"

/* Longest option string tried: rte_kvargs copies it whole. */
#define DEVARGS_MAX 512

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_env_help(*argc, *argv, "the driver name and options of "
		      "swtim_adapter_create_with_driver()");
	fuzz_env_init("devargs", NULL);
	return 0;
}

/* What the contract says of these options: a verdict or none. */
enum verdict { MAY_EITHER, MUST_ACCEPT, MUST_REFUSE };

/* Whether s is a decimal number within max_sleep_us's range. */
static bool
sleep_value_valid(const char *s)
{
	unsigned long long v = 0;

	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (unsigned int)(*s - '0');
		if (v > SWTIM_IDLE_MAX_SLEEP_US)
			return false;
	}
	return true;
}

/*
 * The verdict on a known driver's option string, from nothing but the
 * contract, without rte_kvargs's finer points: a string that uses its
 * brackets (lists) gets no verdict. Otherwise the pieces between commas
 * are key[=value]; a key other than max_sleep_us is an unknown option.
 */
static enum verdict
devargs_verdict(const char *devargs)
{
	char copy[DEVARGS_MAX + 1];
	char *piece, *save, *eq;
	unsigned int nb_sleep = 0;
	bool sleep_ok = true;

	if (devargs == NULL || devargs[0] == '\0')
		return MUST_ACCEPT;
	if (strpbrk(devargs, "[]") != NULL)
		return MAY_EITHER;
	snprintf(copy, sizeof(copy), "%s", devargs);
	for (piece = strtok_r(copy, ",", &save); piece != NULL;
	     piece = strtok_r(NULL, ",", &save)) {
		eq = strchr(piece, '=');
		if (eq != NULL)
			*eq = '\0';
		if (strcmp(piece, SWTIM_IDLE_ARG) != 0)
			return piece[0] == '\0' ? MAY_EITHER : MUST_REFUSE;
		nb_sleep++;
		if (eq == NULL || !sleep_value_valid(eq + 1))
			sleep_ok = false;
	}
	if (nb_sleep == 1)
		return sleep_ok ? MUST_ACCEPT : MUST_REFUSE;
	/* No piece at all (only commas), or max_sleep_us twice. */
	return MAY_EITHER;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const drivers[] = { NULL, "wheel", "skiplist" };
	struct fuzz_input in = fuzz_input_of(data, size);
	struct rte_event_timer_adapter_conf conf;
	struct rte_event_timer_adapter_info info;
	struct fuzz_resources before, after;
	char name[64], devargs[DEVARGS_MAX + 1];
	const char *driver, *opts;
	struct swtim_adapter *a;
	enum verdict v;
	uint8_t choices = fuzz_u8(&in);
	bool with_cb = choices & 0x10, known_driver = true;
	size_t n;
	uint32_t sid;
	int err;

	if ((choices & 3) < 3) {
		driver = drivers[choices & 3];
	} else {
		for (n = 0; n < sizeof(name) - 1 && !fuzz_input_done(&in);
		     n++)
			if ((name[n] = (char)fuzz_u8(&in)) == '\n')
				break;
		name[n] = '\0';
		driver = name;
		known_driver = strcmp(name, "wheel") == 0 ||
			strcmp(name, "skiplist") == 0;
	}
	n = RTE_MIN(in.size - RTE_MIN(in.pos, in.size), (size_t)DEVARGS_MAX);
	memcpy(devargs, in.data + RTE_MIN(in.pos, in.size), n);
	devargs[n] = '\0';
	opts = choices & 0x08 ? NULL : devargs;

	memset(&conf, 0, sizeof(conf));
	conf.event_dev_id = fuzz_env.dev_id;
	conf.timer_adapter_id = (choices >> 5) & 7;
	conf.socket_id = SOCKET_ID_ANY;
	conf.timer_tick_ns = 100 * 1000;
	conf.max_tmo_ns = 1000 * 1000 * 1000;
	conf.nb_timers = 16;

	v = known_driver ? devargs_verdict(opts) : MUST_REFUSE;
	fuzz_resources_get(&before);
	rte_errno = 0;
	a = swtim_adapter_create_with_driver(&conf,
			with_cb ? fuzz_port_cb : NULL,
			(void *)(uintptr_t)fuzz_env.app_port, driver, opts);
	err = rte_errno;
	if (a == NULL) {
		FUZZ_CHECK(v != MUST_ACCEPT, "driver \"%s\" options \"%s\" "
			   "refused: %s", driver, opts, rte_strerror(err));
		FUZZ_CHECK(err == EINVAL || err == ENOMEM, "driver \"%s\" "
			   "options \"%s\": rte_errno %d", driver, opts, err);
		FUZZ_CHECK(swtim_adapter_lookup(conf.timer_adapter_id) ==
			   NULL && rte_errno == ENOENT,
			   "refused adapter %u found", conf.timer_adapter_id);
		fuzz_resources_get(&after);
		fuzz_resources_check(&before, &after, "refused create");
		return 0;
	}
	FUZZ_CHECK(v != MUST_REFUSE, "driver \"%s\" options \"%s\" accepted",
		   driver, opts);
	FUZZ_CHECK(swtim_adapter_lookup(conf.timer_adapter_id) == a,
		   "lookup of %u", conf.timer_adapter_id);
	FUZZ_CHECK(swtim_adapter_get_info(a, &info) == 0 &&
		   info.min_resolution_ns == conf.timer_tick_ns,
		   "get_info");
	FUZZ_CHECK(!with_cb || info.event_dev_port_id == fuzz_env.app_port,
		   "port %u, the callback gave %u", info.event_dev_port_id,
		   fuzz_env.app_port);
	FUZZ_CHECK(swtim_adapter_service_id_get(a, &sid) == 0,
		   "service_id_get");
	FUZZ_CHECK(swtim_adapter_free(a) == 0, "free");
	FUZZ_CHECK(swtim_adapter_lookup(conf.timer_adapter_id) == NULL &&
		   rte_errno == ENOENT, "lookup after free");
	fuzz_resources_get(&after);
	fuzz_resources_check(&before, &after, "create and free");
	return 0;
}
