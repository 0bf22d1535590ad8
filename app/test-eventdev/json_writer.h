/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef JSON_WRITER_H
#define JSON_WRITER_H

/**
 * @file
 * A minimal streaming JSON writer: objects, arrays, numbers, strings and
 * booleans, indented, with the commas placed for the caller. A NULL key
 * is for values inside arrays.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json_writer {
	FILE *f;
	int depth;
	bool first[JSON_MAX_DEPTH];
};

void json_init(struct json_writer *w, FILE *f);
void json_object_begin(struct json_writer *w, const char *key);
void json_object_end(struct json_writer *w);
void json_array_begin(struct json_writer *w, const char *key);
void json_array_end(struct json_writer *w);
void json_u64(struct json_writer *w, const char *key, uint64_t v);
void json_i64(struct json_writer *w, const char *key, int64_t v);
/* Non-finite values are written as null. */
void json_double(struct json_writer *w, const char *key, double v);
void json_str(struct json_writer *w, const char *key, const char *v);
void json_bool(struct json_writer *w, const char *key, bool v);
void json_null(struct json_writer *w, const char *key);
/* Ends the document with a newline. */
void json_finish(struct json_writer *w);

#endif /* JSON_WRITER_H */
