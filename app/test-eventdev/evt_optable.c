/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The option table's engine: one generic loop over getopt_long() that
 * converts each value by its entry's kind, the --help lines and the
 * report's options, all read from the table evt_options.c declares.
 */

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "evt_optable.h"

#define APP "swtim-test-eventdev"

/*
 * getopt_long() returns the val of the option it found: entry i's is
 * VAL0 + i, clear of the '?' and ':' it returns for errors.
 */
#define VAL0 256

/* Column where the help texts start in --help. */
#define USAGE_HELP_COL 28

static void *
field_of(struct evt_options *opt, const struct evt_opt *o)
{
	return (char *)opt + o->field;
}

static const void *
cfield_of(const struct evt_options *opt, const struct evt_opt *o)
{
	return (const char *)opt + o->field;
}

static bool
size_is_unsigned(size_t size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/* Largest value an unsigned field of size bytes (1, 2, 4 or 8) holds. */
static uint64_t
size_max(size_t size)
{
	return size >= 8 ? UINT64_MAX : (UINT64_C(1) << (size * 8)) - 1;
}

static void
store_unsigned(void *p, size_t size, uint64_t v)
{
	switch (size) {
	case 1:
		*(uint8_t *)p = (uint8_t)v;
		break;
	case 2:
		*(uint16_t *)p = (uint16_t)v;
		break;
	case 4:
		*(uint32_t *)p = (uint32_t)v;
		break;
	default:
		*(uint64_t *)p = v;
		break;
	}
}

static uint64_t
load_unsigned(const void *p, size_t size)
{
	switch (size) {
	case 1:
		return *(const uint8_t *)p;
	case 2:
		return *(const uint16_t *)p;
	case 4:
		return *(const uint32_t *)p;
	default:
		return *(const uint64_t *)p;
	}
}

/* Decimal with an optional K/M/G/T (binary) suffix, as upstream takes. */
static int
parse_u64(const char *s, uint64_t *val)
{
	static const char suffixes[] = "kmgt";
	unsigned long long v;
	const char *unit;
	char *end;
	int shift;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0)
		return -EINVAL;
	unit = *end != '\0' ? strchr(suffixes, tolower((unsigned char)*end)) :
		NULL;
	if (unit != NULL) {
		for (shift = (int)(unit - suffixes) + 1; shift > 0; shift--) {
			if (v > UINT64_MAX >> 10)
				return -EINVAL;
			v <<= 10;
		}
		end++;
	}
	while (isspace((unsigned char)*end))
		end++;
	if (*end != '\0')
		return -EINVAL;
	*val = v;
	return 0;
}

/* A number in the entry's range, or its word. */
static int
parse_number(const struct evt_opt *o, const char *arg, uint64_t *v)
{
	if (o->word != NULL && strcmp(arg, o->word) == 0) {
		*v = o->word_value;
		return 0;
	}
	if (parse_u64(arg, v) == 0 && *v >= o->min && *v <= o->max)
		return 0;
	if (o->word != NULL)
		fprintf(stderr, APP ": --%s: want '%s' or a number in %" PRIu64
			"..%" PRIu64 ", got '%s'\n", o->name, o->word, o->min,
			o->max, arg);
	else
		fprintf(stderr, APP ": --%s: want a number in %" PRIu64 "..%"
			PRIu64 ", got '%s'\n", o->name, o->min, o->max, arg);
	return -EINVAL;
}

/* "1,3,5-7": set each lcore; a repeated lcore is an error. */
static int
parse_lcores(const struct evt_opt *o, const char *arg, bool *set)
{
	const char *p = arg;
	unsigned long a, b, i;
	char *end;

	memset(set, 0, sizeof(bool) * RTE_MAX_LCORE);
	if (*p == '\0')
		goto bad;
	while (*p != '\0') {
		if (!isdigit((unsigned char)*p))
			goto bad;
		a = strtoul(p, &end, 10);
		p = end;
		b = a;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				goto bad;
			b = strtoul(p, &end, 10);
			p = end;
		}
		if (*p == ',')
			p++;
		else if (*p != '\0')
			goto bad;
		if (a > b || b >= RTE_MAX_LCORE)
			goto bad;
		for (i = a; i <= b; i++) {
			if (set[i]) {
				fprintf(stderr, APP ": --%s: lcore %lu appears"
					" twice in '%s'\n", o->name, i, arg);
				return -EINVAL;
			}
			set[i] = true;
		}
	}
	return 0;
bad:
	fprintf(stderr, APP ": --%s: want a list of lcore ids below %d such"
		" as 1,3-4, got '%s'\n", o->name, RTE_MAX_LCORE, arg);
	return -EINVAL;
}

/* The choices as a sentence: "a, b or c". */
static void
print_choices(FILE *f, const struct evt_opt_choice *c)
{
	for (; c->name != NULL; c++)
		fprintf(f, "%s%s", c->name, c[1].name == NULL ? "" :
			c[2].name == NULL ? " or " : ", ");
}

static int
parse_choice(struct evt_options *opt, const struct evt_opt *o,
	     const char *arg)
{
	const struct evt_opt_choice *c;

	for (c = o->choices; c->name != NULL; c++) {
		if (strcmp(arg, c->name) == 0) {
			store_unsigned(field_of(opt, o), o->size, c->value);
			return 0;
		}
	}
	fprintf(stderr, APP ": --%s: want ", o->name);
	print_choices(stderr, o->choices);
	fprintf(stderr, ", got '%s'\n", arg);
	return -EINVAL;
}

static int
parse_string(struct evt_options *opt, const struct evt_opt *o,
	     const char *arg)
{
	size_t len = strlen(arg);

	if (len >= o->size) {
		fprintf(stderr, APP ": --%s: value longer than %zu"
			" characters\n", o->name, o->size - 1);
		return -EINVAL;
	}
	if (len < o->min) {
		fprintf(stderr, APP ": --%s: empty value, want %s\n", o->name,
			o->arg);
		return -EINVAL;
	}
	memcpy(field_of(opt, o), arg, len + 1);
	return 0;
}

/* Convert one option's value (NULL for those that take none) into opt. */
static int
parse_one(struct evt_options *opt, const struct evt_opt *o, const char *arg)
{
	uint64_t v;
	int ret = 0;

	switch (o->kind) {
	case EVT_OPT_HELP:
		return EVT_OPTABLE_HELP;
	case EVT_OPT_FLAG:
		*(bool *)field_of(opt, o) = true;
		break;
	case EVT_OPT_UINT:
		ret = parse_number(o, arg, &v);
		if (ret == 0)
			store_unsigned(field_of(opt, o), o->size, v);
		break;
	case EVT_OPT_INT:
		ret = parse_number(o, arg, &v);
		if (ret == 0)
			*(int *)field_of(opt, o) = (int)v;
		break;
	case EVT_OPT_CHOICE:
		ret = parse_choice(opt, o, arg);
		break;
	case EVT_OPT_STRING:
		ret = parse_string(opt, o, arg);
		break;
	case EVT_OPT_LCORES:
		ret = parse_lcores(o, arg, field_of(opt, o));
		break;
	case EVT_OPT_CUSTOM:
		ret = o->parse(opt, o, arg);
		break;
	}
	if (ret == 0 && o->given != 0)
		*(bool *)((char *)opt + o->given - 1) = true;
	return ret;
}

static bool
takes_value(const struct evt_opt *o)
{
	return o->kind != EVT_OPT_HELP && o->kind != EVT_OPT_FLAG;
}

int
evt_optable_parse(const struct evt_opt *tab, unsigned int n,
		  struct evt_options *opt, int argc, char **argv)
{
	struct option *longopts;
	unsigned int i;
	int c, ret = 0;

	longopts = calloc(n + 1, sizeof(*longopts));
	if (longopts == NULL) {
		fprintf(stderr, APP ": out of memory\n");
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		longopts[i].name = tab[i].name;
		longopts[i].has_arg = takes_value(&tab[i]) ? required_argument :
			no_argument;
		longopts[i].val = VAL0 + (int)i;
	}

	optind = 0;	/* full reinitialisation of getopt */
	opterr = 0;	/* its messages are ours, below */
	while (ret == 0 &&
	       (c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		ret = -EINVAL;
		if (c == ':') {
			fprintf(stderr, APP ": option '%s' needs a value\n",
				argv[optind - 1]);
		} else if (c != '?') {
			ret = parse_one(opt, &tab[c - VAL0], optarg);
		} else if (optopt >= VAL0 && optopt < VAL0 + (int)n) {
			/* A value given to an option that takes none. */
			fprintf(stderr, APP ": option '--%s' takes no value\n",
				tab[optopt - VAL0].name);
		} else if (optopt != 0) {
			fprintf(stderr, APP ": unknown option '-%c'\n", optopt);
		} else {
			fprintf(stderr, APP ": unknown or ambiguous option"
				" '%s'\n", argv[optind - 1]);
		}
	}
	if (ret == 0 && optind < argc) {
		fprintf(stderr, APP ": unexpected argument '%s'\n",
			argv[optind]);
		ret = -EINVAL;
	}
	optind = 0;
	free(longopts);
	return ret;
}

/* Whether o's help may name its default (EVT_OPT_HELP_DEFAULT). */
static bool
has_printable_default(const struct evt_opt *o)
{
	return o->kind == EVT_OPT_UINT || o->kind == EVT_OPT_INT ||
		o->kind == EVT_OPT_CHOICE || o->kind == EVT_OPT_STRING;
}

/* o's value in defaults, as --help states it. */
static void
print_default(FILE *f, const struct evt_opt *o,
	      const struct evt_options *defaults)
{
	const void *p = cfield_of(defaults, o);
	uint64_t v;
	int i;

	switch (o->kind) {
	case EVT_OPT_UINT:
		v = load_unsigned(p, o->size);
		if (o->word != NULL && v == o->word_value)
			fprintf(f, "%s", o->word);
		else
			fprintf(f, "%" PRIu64, v);
		break;
	case EVT_OPT_INT:
		i = *(const int *)p;
		if (o->below_min != NULL && (int64_t)i < (int64_t)o->min)
			fprintf(f, "%s", o->below_min);
		else
			fprintf(f, "%d", i);
		break;
	case EVT_OPT_CHOICE:
		fprintf(f, "%s", evt_optable_choice_name(o->choices,
			load_unsigned(p, o->size)));
		break;
	case EVT_OPT_STRING:
		fprintf(f, "%s", (const char *)p);
		break;
	default:
		/* evt_optable_check() refuses the placeholder here. */
		break;
	}
}

void
evt_optable_usage(const struct evt_opt *tab, unsigned int n,
		  const struct evt_options *defaults, FILE *f)
{
	const size_t mark_len = strlen(EVT_OPT_HELP_DEFAULT);
	const struct evt_opt_choice *c;
	const char *h;
	unsigned int i;
	int len;

	for (i = 0; i < n; i++) {
		const struct evt_opt *o = &tab[i];

		if (o->section != NULL)
			fprintf(f, "\n%s\n", o->section);
		len = fprintf(f, "  --%s", o->name);
		if (o->kind == EVT_OPT_CHOICE && o->arg == NULL) {
			for (c = o->choices; c->name != NULL; c++)
				len += fprintf(f, "%c%s",
					       c == o->choices ? '=' : '|',
					       c->name);
		} else if (takes_value(o)) {
			len += fprintf(f, "=%s", o->arg);
		}
		/* A long option pushes its help along, two spaces after. */
		fprintf(f, "%*s", RTE_MAX(USAGE_HELP_COL - len, 2), "");
		for (h = o->help; *h != '\0'; h++) {
			if (strncmp(h, EVT_OPT_HELP_DEFAULT, mark_len) == 0) {
				print_default(f, o, defaults);
				h += mark_len - 1;
			} else if (*h == '\n') {
				fprintf(f, "\n%*s", USAGE_HELP_COL, "");
			} else {
				fputc(*h, f);
			}
		}
		fputc('\n', f);
	}
}

void
evt_optable_report(const struct evt_opt *tab, unsigned int n,
		   const struct evt_options *opt, struct json_writer *j)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct evt_opt *o = &tab[i];
		bool in_force = o->in_force == NULL || o->in_force(opt);
		const void *p = cfield_of(opt, o);

		if (o->json == NULL)
			continue;
		if (o->report != NULL) {
			if (in_force)
				o->report(j, opt, o);
			continue;
		}
		switch (o->kind) {
		case EVT_OPT_FLAG:
			json_bool(j, o->json, in_force && *(const bool *)p);
			break;
		case EVT_OPT_UINT:
			json_u64(j, o->json, in_force ?
				 load_unsigned(p, o->size) : 0);
			break;
		case EVT_OPT_INT:
			json_i64(j, o->json, in_force ? *(const int *)p : 0);
			break;
		case EVT_OPT_CHOICE:
			if (in_force)
				json_str(j, o->json, evt_optable_choice_name(
					o->choices, load_unsigned(p, o->size)));
			break;
		case EVT_OPT_STRING:
			if (in_force)
				json_str(j, o->json, p);
			break;
		default:
			/* evt_optable_check() wants a report function. */
			break;
		}
	}
}

const char *
evt_optable_choice_name(const struct evt_opt_choice *choices,
			unsigned int value)
{
	const struct evt_opt_choice *c;

	for (c = choices; c->name != NULL; c++)
		if (c->value == value)
			return c->name;
	return "?";
}

/* What is wrong with one entry, or NULL. */
static const char *
entry_problem(const struct evt_opt *o)
{
	const struct evt_opt_choice *c;

	if (o->name == NULL || o->help == NULL)
		return "no name or no help";
	if (o->arg != NULL && !takes_value(o))
		return "names a value it does not take";
	/* A choice's value can go unnamed: --help lists the choices. */
	if (o->arg == NULL && takes_value(o) && o->kind != EVT_OPT_CHOICE)
		return "takes a value the help does not name";
	if (o->given != 0 &&
	    o->given - 1 + sizeof(bool) > sizeof(struct evt_options))
		return "given flag outside struct evt_options";
	if (o->kind != EVT_OPT_HELP && o->kind != EVT_OPT_CUSTOM &&
	    o->field + o->size > sizeof(struct evt_options))
		return "field outside struct evt_options";
	if (strstr(o->help, EVT_OPT_HELP_DEFAULT) != NULL &&
	    !has_printable_default(o))
		return "help names a default its kind cannot print";
	if (o->below_min != NULL && o->kind != EVT_OPT_INT)
		return "below_min on an option that is not an int";
	switch (o->kind) {
	case EVT_OPT_HELP:
		break;
	case EVT_OPT_FLAG:
		if (o->size != sizeof(bool))
			return "flag field is not a bool";
		break;
	case EVT_OPT_UINT:
		if (!size_is_unsigned(o->size) || o->min > o->max ||
		    o->max > size_max(o->size) ||
		    (o->word != NULL && o->word_value > size_max(o->size)))
			return "range does not fit the field";
		break;
	case EVT_OPT_INT:
		if (o->size != sizeof(int) || o->min > o->max ||
		    o->max > INT_MAX || o->word != NULL)
			return "range does not fit an int field";
		break;
	case EVT_OPT_CHOICE:
		if (!size_is_unsigned(o->size) || o->choices == NULL ||
		    o->choices[0].name == NULL)
			return "no choices, or not an unsigned field";
		for (c = o->choices; c->name != NULL; c++)
			if (c->value > size_max(o->size))
				return "choice value does not fit the field";
		break;
	case EVT_OPT_STRING:
		if (o->size < 1 || o->min > 1)
			return "string least length is not 0 or 1";
		break;
	case EVT_OPT_LCORES:
		if (o->size != sizeof(bool) * RTE_MAX_LCORE)
			return "lcore list field is not bool[RTE_MAX_LCORE]";
		break;
	case EVT_OPT_CUSTOM:
		if (o->parse == NULL)
			return "custom option without a parse function";
		break;
	default:
		return "unknown kind";
	}
	if (o->json != NULL && o->report == NULL &&
	    (o->kind == EVT_OPT_HELP || o->kind == EVT_OPT_LCORES ||
	     o->kind == EVT_OPT_CUSTOM))
		return "reported without a report function";
	return NULL;
}

bool
evt_optable_check(const struct evt_opt *tab, unsigned int n)
{
	const char *problem;
	unsigned int i, k;

	for (i = 0; i < n; i++) {
		problem = entry_problem(&tab[i]);
		for (k = 0; problem == NULL && k < i; k++) {
			if (strcmp(tab[k].name, tab[i].name) == 0)
				problem = "name given twice";
			else if (tab[i].json != NULL && tab[k].json != NULL &&
				 strcmp(tab[k].json, tab[i].json) == 0)
				problem = "report key given twice";
		}
		if (problem != NULL) {
			fprintf(stderr, APP ": option table entry %u (--%s):"
				" %s\n", i, tab[i].name != NULL ?
				tab[i].name : "?", problem);
			return false;
		}
	}
	return true;
}
