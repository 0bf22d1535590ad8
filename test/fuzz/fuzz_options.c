/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Fuzz target: swtim-test-eventdev's command line parser,
 * evt_options_parse() (app/test-eventdev/evt_options.c), as main() calls
 * it with the arguments after "--".
 *
 * Input: the arguments, separated by NUL bytes (at most ARGS_MAX of
 * them). Checked: the parser answers 0, 1 (--help) or -EINVAL; it does
 * not write into its arguments; and it is a function of them alone: a
 * second parse of a fresh copy gives the same answer and the same
 * options, to the byte.
 *
 * Needs no EAL: the parser runs before EAL starts.
 */

#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "evt_options.h"
#include "fuzz_env.h"

#define ARGS_MAX 24
#define ARGS_BYTES 2048

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_env_help(*argc, *argv,
		      "swtim-test-eventdev's option parser");
	return 0;
}

/* Build argv from the input in buf; returns argc. */
static int
args_of(const uint8_t *data, size_t size, char *buf, char **argv)
{
	size_t n = RTE_MIN(size, (size_t)ARGS_BYTES - 1), i;
	int argc = 0;

	memcpy(buf, data, n);
	buf[n] = '\0';
	argv[argc++] = (char *)(uintptr_t)"swtim-test-eventdev";
	for (i = 0; i <= n && argc < ARGS_MAX; ) {
		argv[argc++] = &buf[i];
		i += strlen(&buf[i]) + 1;
		if (i > n)
			break;
	}
	argv[argc] = NULL;
	return argc;
}

static int
parse(const uint8_t *data, size_t size, struct evt_options *opt)
{
	static char buf[ARGS_BYTES], saved[ARGS_BYTES];
	char *argv[ARGS_MAX + 1];
	int argc = args_of(data, size, buf, argv), ret;

	memcpy(saved, buf, sizeof(buf));
	memset(opt, 0, sizeof(*opt));
	evt_options_default(opt);
	ret = evt_options_parse(opt, argc, argv);
	FUZZ_CHECK(ret == 0 || ret == 1 || ret == -EINVAL,
		   "evt_options_parse returned %d", ret);
	FUZZ_CHECK(memcmp(saved, buf, sizeof(buf)) == 0,
		   "the parser wrote into its arguments");
	return ret;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct evt_options first, second;
	int r1, r2;

	r1 = parse(data, size, &first);
	r2 = parse(data, size, &second);
	FUZZ_CHECK(r1 == r2, "parsed twice: %d, then %d", r1, r2);
	FUZZ_CHECK(r1 != 0 || memcmp(&first, &second, sizeof(first)) == 0,
		   "parsed twice: the options differ");
	return 0;
}
