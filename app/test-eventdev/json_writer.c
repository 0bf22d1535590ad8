/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#include <inttypes.h>
#include <math.h>

#include "json_writer.h"

void
json_init(struct json_writer *w, FILE *f)
{
	w->f = f;
	w->depth = 0;
	w->first[0] = true;
}

static void
put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* Comma, newline, indent and key before the next value. */
static void
prefix(struct json_writer *w, const char *key)
{
	int i;

	if (w->depth > 0) {
		if (!w->first[w->depth])
			fputc(',', w->f);
		fputc('\n', w->f);
		for (i = 0; i < w->depth; i++)
			fputs("  ", w->f);
	}
	w->first[w->depth] = false;
	if (key != NULL) {
		put_string(w->f, key);
		fputs(": ", w->f);
	}
}

static void
open_(struct json_writer *w, const char *key, char c)
{
	prefix(w, key);
	fputc(c, w->f);
	if (w->depth + 1 < JSON_MAX_DEPTH)
		w->depth++;
	w->first[w->depth] = true;
}

static void
close_(struct json_writer *w, char c)
{
	bool empty = w->first[w->depth];
	int i;

	if (w->depth > 0)
		w->depth--;
	if (!empty) {
		fputc('\n', w->f);
		for (i = 0; i < w->depth; i++)
			fputs("  ", w->f);
	}
	fputc(c, w->f);
}

void
json_object_begin(struct json_writer *w, const char *key)
{
	open_(w, key, '{');
}

void
json_object_end(struct json_writer *w)
{
	close_(w, '}');
}

void
json_array_begin(struct json_writer *w, const char *key)
{
	open_(w, key, '[');
}

void
json_array_end(struct json_writer *w)
{
	close_(w, ']');
}

void
json_u64(struct json_writer *w, const char *key, uint64_t v)
{
	prefix(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

void
json_i64(struct json_writer *w, const char *key, int64_t v)
{
	prefix(w, key);
	fprintf(w->f, "%" PRId64, v);
}

void
json_double(struct json_writer *w, const char *key, double v)
{
	prefix(w, key);
	if (isfinite(v))
		fprintf(w->f, "%.9g", v);
	else
		fputs("null", w->f);
}

void
json_str(struct json_writer *w, const char *key, const char *v)
{
	prefix(w, key);
	put_string(w->f, v != NULL ? v : "");
}

void
json_bool(struct json_writer *w, const char *key, bool v)
{
	prefix(w, key);
	fputs(v ? "true" : "false", w->f);
}

void
json_null(struct json_writer *w, const char *key)
{
	prefix(w, key);
	fputs("null", w->f);
}

void
json_finish(struct json_writer *w)
{
	fputc('\n', w->f);
	fflush(w->f);
}
