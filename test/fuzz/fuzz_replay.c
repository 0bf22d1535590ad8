/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * main() for a fuzz target in the normal (gcc) builds: runs the target's
 * entry point on every file it is given (folders: every file in them, in
 * name order), so that the committed corpus and every saved finding are
 * a unit test in the release and the ASan builds. A finding aborts, and
 * so fails the test; a replay that found nothing to replay fails too, as
 * it would otherwise pass for a corpus gone missing.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long replayed;

static int
replay_file(const char *path)
{
	uint8_t *buf;
	long len;
	FILE *f = fopen(path, "rb");

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		if (f != NULL)
			fclose(f);
		return -1;
	}
	/* One byte more, so that an empty file still has a buffer. */
	buf = malloc((size_t)len + 1);
	if (buf == NULL || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		fprintf(stderr, "%s: cannot read\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	/* Heap copy of the exact size: ASan sees any read past its end. */
	LLVMFuzzerTestOneInput(buf, (size_t)len);
	free(buf);
	replayed++;
	return 0;
}

static int
name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int
replay_path(const char *path)
{
	struct dirent **names;
	struct stat st;
	char file[4096];
	int n, i, ret = 0;

	if (stat(path, &st) != 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path);
	n = scandir(path, &names, NULL, name_cmp);
	if (n < 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		snprintf(file, sizeof(file), "%s/%s", path, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && stat(file, &st) == 0 &&
		    S_ISREG(st.st_mode) && replay_file(file) != 0)
			ret = -1;
		free(names[i]);
	}
	free(names);
	return ret;
}

int
main(int argc, char **argv)
{
	int i, ret = 0;

	if (argc < 2 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0) {
		printf("usage: %s FILE_OR_FOLDER...\n"
		       "Run this fuzz target once on every file given, and on"
		       " every file in each\nfolder given; exit status 0 when"
		       " every input ran without a finding\n(a finding"
		       " aborts). SWTIM_FUZZ_VERBOSE=1 keeps DPDK's log.\n",
		       argv[0]);
		return argc < 2 ? 2 : 0;
	}
	LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++)
		if (replay_path(argv[i]) != 0)
			ret = 1;
	printf("%s: %lu inputs replayed without a finding\n", argv[0],
	       replayed);
	if (replayed == 0) {
		fprintf(stderr, "no input to replay\n");
		ret = 1;
	}
	return ret;
}
