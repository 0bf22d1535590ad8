/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef EVT_OPTABLE_H
#define EVT_OPTABLE_H

/**
 * @file
 * Command line options described by a table, one entry an option, from
 * which the getopt_long() array, the parser, the --help lines and the
 * options part of the JSON report are all made. What one option means
 * is then written in one place; checks that relate two options stay
 * explicit code, run after the parse.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_common.h>

#include "evt_options.h"
#include "json_writer.h"

/** How an option's value is converted and where it goes. */
enum evt_opt_kind {
	/** No value: --help, parsing stops and the usage is printed. */
	EVT_OPT_HELP,
	/** No value: sets a bool field to true. */
	EVT_OPT_FLAG,
	/**
	 * A decimal number with an optional K, M, G or T (binary) suffix,
	 * in [min, max], stored in an unsigned field of 1, 2, 4 or 8 bytes.
	 * With a word set, that word stands for word_value.
	 */
	EVT_OPT_UINT,
	/** As EVT_OPT_UINT, stored in an int field. */
	EVT_OPT_INT,
	/**
	 * One name of choices, whose value is stored in an unsigned field
	 * (an enum or a bool).
	 */
	EVT_OPT_CHOICE,
	/** A string of at least min characters, copied into a char array. */
	EVT_OPT_STRING,
	/** A list of lcores ("1,3-4") into an array of RTE_MAX_LCORE bools. */
	EVT_OPT_LCORES,
	/** Converted by the entry's parse function. */
	EVT_OPT_CUSTOM,
};

/** One accepted name of an EVT_OPT_CHOICE option. */
struct evt_opt_choice {
	const char *name;	/**< NULL ends the list */
	unsigned int value;	/**< stored in the option's field */
};

struct evt_opt;

/**
 * Convert arg for an EVT_OPT_CUSTOM option into opt.
 * @return 0, or -EINVAL after printing a message that names the option.
 */
typedef int (*evt_opt_parse_t)(struct evt_options *opt,
			       const struct evt_opt *o, const char *arg);

/** Whether an option has a part in the run opt describes. */
typedef bool (*evt_opt_in_force_t)(const struct evt_options *opt);

/** Write an option's value to the report under o->json. */
typedef void (*evt_opt_report_t)(struct json_writer *j,
				 const struct evt_options *opt,
				 const struct evt_opt *o);

/**
 * One command line option. Only name, kind and help are needed by every
 * kind; the field is where the value goes (EVT_OPT_FIELD()), unused by
 * EVT_OPT_HELP and EVT_OPT_CUSTOM.
 */
struct evt_opt {
	/** Long option name, without the leading "--". */
	const char *name;
	enum evt_opt_kind kind;
	/**
	 * What the value is called in --help ("N", "LIST"). NULL for the
	 * kinds that take none, and for EVT_OPT_CHOICE, whose choices are
	 * listed instead ("swtim|dpdk").
	 */
	const char *arg;
	/** Offset of the field in struct evt_options. */
	size_t field;
	/** Size of that field. */
	size_t size;
	/**
	 * A bool set to true whenever the option is given, for the checks
	 * that must tell a value given from a default: EVT_OPT_GIVEN(), or
	 * 0 for none.
	 */
	size_t given;
	/** Numbers: the range allowed; strings: the least length (min). */
	uint64_t min, max;
	/** EVT_OPT_UINT: a word accepted in place of a number ("all"). */
	const char *word;
	/** The value word stands for. */
	uint64_t word_value;
	/**
	 * EVT_OPT_INT: what --help calls a default below min, a value no
	 * command line gives (socket_id's SOCKET_ID_ANY: "any").
	 */
	const char *below_min;
	/** EVT_OPT_CHOICE: the names accepted. */
	const struct evt_opt_choice *choices;
	/** EVT_OPT_CUSTOM: the conversion. */
	evt_opt_parse_t parse;
	/** Key in the report's "config" object; NULL: not reported. */
	const char *json;
	/**
	 * NULL, or whether the option applies to this run: when it does
	 * not, the report gives 0 for a number and leaves a string out.
	 */
	evt_opt_in_force_t in_force;
	/** NULL, or what writes the value instead of the kind's writer. */
	evt_opt_report_t report;
	/**
	 * Help text: lines separated by '\n', printed in a column next to
	 * the option. EVT_OPT_HELP_DEFAULT in it stands for the option's
	 * default, printed from the defaults evt_optable_usage() is given,
	 * so that the text cannot state another.
	 */
	const char *help;
	/** When set, a heading printed before this option in --help. */
	const char *section;
};

/**
 * In a help text, the option's default value: a number (or the entry's
 * word, or below_min), a choice's name or a string. For the kinds that
 * have a field of one of those: UINT, INT, CHOICE and STRING.
 */
#define EVT_OPT_HELP_DEFAULT "%D"

/** Where a field of struct evt_options is, and its size. */
#define EVT_OPT_FIELD(f) \
	.field = offsetof(struct evt_options, f), \
	.size = RTE_SIZEOF_FIELD(struct evt_options, f)

/*
 * A given field is stored one above its offset so that 0, what an entry
 * that names none gets by default, is never a field.
 */
#define EVT_OPT_GIVEN(f) .given = offsetof(struct evt_options, f) + 1

/** Exit status of evt_optable_parse() when it met --help. */
#define EVT_OPTABLE_HELP 1

/**
 * Check that a table is consistent: names and report keys unique, each
 * field of the size its kind stores, each range within its field, and
 * EVT_OPT_HELP_DEFAULT only in the help of a kind that has a default to
 * print.
 *
 * @return
 *   true when it is; false after printing what is wrong.
 */
bool evt_optable_check(const struct evt_opt *tab, unsigned int n);

/**
 * Parse argv[1..argc-1] into opt: getopt_long(), long options only, each
 * converted and range checked by its kind.
 *
 * @return
 *   0 on success; EVT_OPTABLE_HELP when --help was met (nothing printed);
 *   -EINVAL after a one-line message naming what is wrong.
 */
int evt_optable_parse(const struct evt_opt *tab, unsigned int n,
		      struct evt_options *opt, int argc, char **argv);

/**
 * Print each option's line(s) and the section headings to f, each
 * EVT_OPT_HELP_DEFAULT in a help text replaced by that option's value in
 * defaults.
 */
void evt_optable_usage(const struct evt_opt *tab, unsigned int n,
		       const struct evt_options *defaults, FILE *f);

/** Write the reported options into the JSON object open in j. */
void evt_optable_report(const struct evt_opt *tab, unsigned int n,
			const struct evt_options *opt, struct json_writer *j);

/** The name of value in choices, "?" when it has none. */
const char *evt_optable_choice_name(const struct evt_opt_choice *choices,
				    unsigned int value);

#endif /* EVT_OPTABLE_H */
