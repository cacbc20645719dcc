/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the ipu-* tools: exit codes, argument parsing, a small
 * JSON writer, and the printers of cards (so that host tests can check
 * their output without a card).
 */
#ifndef IPU_TOOLS_COMMON_H
#define IPU_TOOLS_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ipudev.h"

/* Exit codes of every ipu-* tool */
#define EXIT_OK		0	/* success */
#define EXIT_RUNTIME	1	/* something failed at run time */
#define EXIT_USAGE	2	/* bad command line */
#define EXIT_NODEV	3	/* no card / no driver / no such card */
#define EXIT_BUSY	4	/* the card is held by another process */

/* The chip model that ipu-run and ipu-mkgraph use when none is named. */
#define TOOL_DEFAULT_MODEL "gc200"

/*
 * The names of the chip models, "gc2, gc200, test", from the one table of
 * include/ipu/ipu_models.h, for --help texts: static storage.
 */
const char *tool_model_names(void);

/* Hint printed with EXIT_NODEV when the driver is not loaded. */
#define TOOL_HINT_NO_DRIVER "no IPU found: is the ipu module loaded? (modprobe ipu)"

/*
 * tool_parse_uint() - parse a decimal unsigned number (no sign, no spaces,
 * no trailing characters) not above @max. Returns 0 or -EINVAL/-ERANGE.
 */
int tool_parse_uint(const char *s, unsigned max, unsigned *out);

/*
 * tool_usage_error() - print "PROG: MESSAGE" and the --help hint on stderr;
 * returns EXIT_USAGE.
 */
int tool_usage_error(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * tool_bad_option() - report what getopt_long() refused (@c is what it
 * returned: ':' for a missing argument, else an unknown option), as
 * tool_usage_error() does; returns EXIT_USAGE.
 */
int tool_bad_option(const char *prog, int c, char **argv);

/*
 * What a tool's parse_args() returns when the tool is to go on; any other
 * value is the exit code to leave with (--help, --version, a usage error).
 */
#define TOOL_CONTINUE	(-1)

/*
 * Entries of the tools' getopt_long() tables, named once: -d/--device N and
 * -j/--json, -h/--help, and -V/--version with the end of the table (-h and
 * -V as tool_other_option() serves them).
 */
#define TOOL_OPT_DEVICE		{ "device", required_argument, NULL, 'd' }
#define TOOL_OPT_JSON		{ "json", no_argument, NULL, 'j' }
#define TOOL_OPT_HELP		{ "help", no_argument, NULL, 'h' }
#define TOOL_OPTS_VERSION_END	{ "version", no_argument, NULL, 'V' }, \
				{ NULL, 0, NULL, 0 }

/*
 * tool_parse_card_id() - parse the N of "-d N" (0 to 0xffffff) into @id.
 * Returns TOOL_CONTINUE, or EXIT_USAGE after "PROG: invalid card id 'ARG'"
 * on stderr.
 */
int tool_parse_card_id(const char *prog, const char *arg, unsigned *id);

/*
 * tool_open_device_id() - open device id @id as "-d ID" names it: card
 * ipu@id (ipu_device_open() with @flags) when there is one, else the
 * multi-IPU device @id that `ipu-info -l` lists (ipu_group_device_open()
 * with @flags | IPU_OPEN_ATTACH: all members attached at once). *@d is the
 * caller's to close; *@ipus its IPUs (1 for a card). Returns 0, or a
 * negative errno with @err filled: -ENODEV when @id is neither (the
 * message says which ids there are, or that the group is not linked).
 */
int tool_open_device_id(unsigned id, unsigned flags, struct ipu_device **d,
			unsigned *ipus, struct ipu_error *err);

/* tool_print_version() - "PROG (libipudev) VERSION" on stdout. */
void tool_print_version(const char *prog);

/*
 * tool_other_option() - what a tool with -h and -V does with getopt_long()'s
 * @opt that is none of its own: -h writes @usage to stdout and -V the
 * version (EXIT_OK); anything else is reported as tool_bad_option() does
 * (EXIT_USAGE). Returns the exit code.
 */
int tool_other_option(const char *prog, int opt, char **argv,
		      void (*usage)(FILE *f));

/*
 * tool_no_operands() - after the options: TOOL_CONTINUE when none are
 * left, else EXIT_USAGE after "unexpected argument 'ARG'".
 */
int tool_no_operands(const char *prog, int argc, char **argv);

/*
 * tool_find_card() - the card with id @id among @cards (@n of them), or
 * NULL. The card stays owned by @cards.
 */
const struct ipu_card *tool_find_card(const struct ipu_card *cards, size_t n,
				      unsigned id);

/*
 * tool_no_such_card() - "PROG: no IPU with id ID (found: 0 1 ...)" on
 * stderr, naming the ids of @cards; returns EXIT_NODEV.
 */
int tool_no_such_card(const char *prog, unsigned id,
		      const struct ipu_card *cards, size_t n);

/*
 * tool_finish_stdout() - flush stdout; returns @ret, or EXIT_RUNTIME after
 * "PROG: write error: ..." on stderr when stdout could not be written.
 */
int tool_finish_stdout(const char *prog, int ret);

/*
 * tool_no_cards() - report a failed ipu_enumerate() on stderr with the hint
 * that fits, and return the exit code for it (EXIT_NODEV for -ENODEV,
 * EXIT_RUNTIME otherwise).
 */
int tool_no_cards(const char *prog, const struct ipu_error *e);

/*
 * tool_error() - fill @err (may be NULL) with @code and the formatted
 * message, as the library does; returns @code (a negative errno).
 */
int tool_error(struct ipu_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "897 MiB", "624 KiB", "1.5 GiB": @bytes in binary units. */
void tool_format_bytes(uint64_t bytes, char *buf, size_t size);

/* ------------------------------------------------------------------------ */
/* JSON writer: pretty-printed, 2 spaces, correct commas and escaping.       */

#define JW_MAX_DEPTH	16

struct jw {
	FILE *f;
	int depth;
	bool first[JW_MAX_DEPTH];
};

void jw_init(struct jw *w, FILE *f);
/* Containers: @key is the member name inside an object, NULL otherwise. */
void jw_obj_begin(struct jw *w, const char *key);
void jw_obj_end(struct jw *w);
void jw_arr_begin(struct jw *w, const char *key);
void jw_arr_end(struct jw *w);
/* Values; a NULL string is written as null. */
void jw_str(struct jw *w, const char *key, const char *v);
void jw_u64(struct jw *w, const char *key, uint64_t v);
void jw_i64(struct jw *w, const char *key, int64_t v);
void jw_double(struct jw *w, const char *key, double v);
void jw_bool(struct jw *w, const char *key, bool v);
void jw_null(struct jw *w, const char *key);
/* Finish the document (newline). */
void jw_end(struct jw *w);

/* Write @s as a JSON string literal (quotes, escapes, \u00XX controls;
 * bytes >= 0x80 that are not valid UTF-8 become \ufffd). */
void json_write_string(FILE *f, const char *s);

/* ------------------------------------------------------------------------ */
/* Card printers (ipu-info)                                                 */

/* The table of ipu-info's default output. */
void print_cards_table(FILE *f, const struct ipu_card *cards, size_t n);

/* JSON object members of one card (inside an object already begun). */
void print_card_json_members(struct jw *w, const struct ipu_card *c);

/*
 * Detail of one card: `key: value` lines, or JSON members when @w is
 * non-NULL. @info may be NULL when GET_INFO was not possible; its fields
 * are then "n/a" (null in JSON).
 */
void print_card_detail(FILE *f, struct jw *w, const struct ipu_card *c,
		       const struct ipu_device_info *info);

#endif /* IPU_TOOLS_COMMON_H */
