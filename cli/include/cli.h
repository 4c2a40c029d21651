/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli.h - command-line plumbing shared by memcal and memtune.
 *
 * A tool is a table of subcommands ({name, fn}, as in bpftool).  The
 * dispatcher parses the options every command accepts (--db, --json, -q,
 * -v, --help, --version), finds the subcommand and hands it a struct cli_ctx.
 * A subcommand parses its own options with cli_parse_options(), which merges
 * them with the common ones and generates --help from the same table.
 *
 * Output rules (docs/design.md):
 *  - machine output goes to stdout as one JSON document when --json is set,
 *    errors included, always in one envelope (output.c):
 *      {"tool", "command", "version", "ok": true, "result": {...},
 *       "warnings": [...]}
 *      {"tool", "command", "version", "ok": false,
 *       "error": {"code", "kind", "message"}, "warnings": [...]}
 *    where "warnings" holds what cli_warn() printed during the command;
 *  - human text goes to stdout, diagnostics to stderr;
 *  - progress goes to stderr only when stderr is a terminal and -q is off.
 */
#ifndef MEMCAL_CLI_H
#define MEMCAL_CLI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

/*
 * Exit codes shared by every command.  A library's status becomes one
 * through cli_exit_for(); CLI_EXIT_USAGE is the command line's own.
 */
enum cli_exit {
	CLI_EXIT_OK = 0,
	CLI_EXIT_FAILURE = 1,
	CLI_EXIT_USAGE = 2,
	CLI_EXIT_UNSUPPORTED = 77,	/* not supported on this hardware */
};

/*
 * What cli_parse_options() returns besides 0 and a CLI_EXIT_* code:
 * --help or --version was printed and the command ends with exit 0.  It
 * lies outside 0..255, so it is never taken for an exit code; cli_main()
 * turns it into CLI_EXIT_OK.
 */
enum cli_parse_result {
	CLI_HELP_SHOWN = 256,
};

/**
 * cli_exit_for() - the exit code of a command that failed with @status.
 * @status: an enum memcal_status (db/status/memcal_status.h).
 *
 * MEMCAL_OK is CLI_EXIT_OK, MEMCAL_EUNSUPPORTED is CLI_EXIT_UNSUPPORTED,
 * every other status CLI_EXIT_FAILURE: a library cannot tell whether a
 * bad value came from the command line, so CLI_EXIT_USAGE is chosen by
 * the command's own parsing only.  The table is in docs/design.md
 * ("Status codes") and the man pages' EXIT STATUS.
 *
 * Return: the CLI_EXIT_* code.
 */
int cli_exit_for(int status);

/**
 * struct cli_ctx - state every subcommand receives.
 * @tool:      tool name ("memcal", "memtune"), for messages.
 * @command:   subcommand name, for messages and JSON.
 * @db_path:   --db value, or NULL for the default path (see db/).
 * @json:      --json: machine output on stdout, errors included.
 * @verbosity: 0 normal, <0 quiet (-q), >0 verbose (-v, repeatable).
 * @out:       where results go (stdout; tests may redirect).
 * @err:       where diagnostics and progress go (stderr).
 * @def:       the tool's table, for the tool-level --help.
 * @out_sink:  the sink under @out when it is the process's stdout (it
 *             records the errno of a failed write), else NULL.
 * @warnings:  what cli_warn() said, for the JSON envelope (NULL: none).
 * @emitted:   the one JSON document has been written.
 * @out_failed: a failed write to @out has been reported.
 */
struct cli_tool;
struct cli_sink;
struct cli_ctx {
	const char *tool;
	const char *command;
	const char *db_path;
	bool json;
	int verbosity;
	FILE *out;
	FILE *err;
	const struct cli_tool *def;
	struct cli_sink *out_sink;
	json_t *warnings;
	bool emitted;
	bool out_failed;
};

/**
 * struct cli_command - one entry of a tool's subcommand table.
 * @name:    subcommand as typed.
 * @fn:      handler; argv[0] is the subcommand name, options follow.
 * @summary: one line saying what the command does.
 *
 * A command's synopsis is generated from its option table by
 * cli_parse_options() (see 'TOOL COMMAND --help'), so it is not repeated
 * here.
 */
struct cli_command {
	const char *name;
	int (*fn)(struct cli_ctx *ctx, int argc, char **argv);
	const char *summary;
};

/**
 * struct cli_tool - a whole tool: its name, blurb and command table.
 * @name:     program name.
 * @summary:  one line for --help.
 * @commands: table terminated by an entry whose @name is NULL.
 */
struct cli_tool {
	const char *name;
	const char *summary;
	const struct cli_command *commands;
};

/**
 * enum cli_store - what cli_parse_options() does with an option it finds.
 * @CLI_STORE_NONE:     hand it to the command's callback, by its @key.
 * @CLI_STORE_STRING:   store the argument in the const char * at @offset.
 * @CLI_STORE_NONEMPTY: the same, but an empty argument is a usage error,
 *                      "--NAME needs @need".
 * @CLI_STORE_FLAG:     store true in the bool at @offset.
 * @CLI_STORE_ID:       store the database row id in the int64_t at
 *                      @offset; a bad one is a usage error
 *                      (cli_option_id()).
 * @CLI_STORE_UINT:     store the whole number in the unsigned at
 *                      @offset; one outside @min..@max, or not a number,
 *                      is a usage error, "--NAME 'ARG': why (MIN..MAX)".
 *
 * The stored kinds spare a command the callback code of an option whose
 * value needs no checking; @offset is from the start of the @user
 * structure given to cli_parse_options().
 */
enum cli_store {
	CLI_STORE_NONE,
	CLI_STORE_STRING,
	CLI_STORE_NONEMPTY,
	CLI_STORE_FLAG,
	CLI_STORE_ID,
	CLI_STORE_UINT,
};

/**
 * struct cli_option - one subcommand-specific option.
 * @name:     long name without the dashes ("cores").
 * @short_name: single-letter alias or 0.
 * @arg:      argument placeholder for help ("LIST"), NULL for a flag.
 * @key:      value handed to the callback (@store CLI_STORE_NONE only);
 *            must be >= 256 or a letter.
 * @help:     one line of help.
 * @store:    where the value goes: the callback, or @offset.
 * @offset:   offsetof() the member of the @user structure that receives
 *            the value, for a stored @store.
 * @need:     CLI_STORE_NONEMPTY: what the option needs, for the message.
 * @min:      CLI_STORE_UINT: the smallest value accepted.
 * @max:      CLI_STORE_UINT: the largest value accepted.
 *
 * Tables are written with the CLI_OPT*() macros below and end with
 * CLI_OPT_END.
 */
struct cli_option {
	const char *name;
	int short_name;
	const char *arg;
	int key;
	const char *help;
	enum cli_store store;
	size_t offset;
	const char *need;
	unsigned min;
	unsigned max;
};

/*
 * CLI_MEMBER_OFFSET - offsetof(@type, @member), refused at compile time
 * unless the member has type @t, so a stored value lands in a member of
 * the right type.
 */
#define CLI_MEMBER_OFFSET(type, member, t)				\
	(offsetof(type, member) + 0 * sizeof(struct {			\
		_Static_assert(__builtin_types_compatible_p(		\
			__typeof__(((type *)0)->member), t),		\
			#type "." #member " is not " #t);		\
		int unused;						\
	}))

/* An option handed to the callback as @key. */
#define CLI_OPT(name_, short_, arg_, key_, help_)			\
	{ .name = (name_), .short_name = (short_), .arg = (arg_),	\
	  .key = (key_), .help = (help_) }

/* An option whose argument is stored in the const char * @type.@member. */
#define CLI_OPT_STRING(name_, short_, arg_, type, member, help_)	\
	{ .name = (name_), .short_name = (short_), .arg = (arg_),	\
	  .help = (help_), .store = CLI_STORE_STRING,			\
	  .offset = CLI_MEMBER_OFFSET(type, member, const char *) }

/* The same, refusing an empty argument: "--NAME needs @need_". */
#define CLI_OPT_NONEMPTY(name_, short_, arg_, type, member, need_, help_) \
	{ .name = (name_), .short_name = (short_), .arg = (arg_),	\
	  .help = (help_), .store = CLI_STORE_NONEMPTY,			\
	  .offset = CLI_MEMBER_OFFSET(type, member, const char *),	\
	  .need = (need_) }

/* A flag that sets the bool @type.@member. */
#define CLI_OPT_FLAG(name_, short_, type, member, help_)		\
	{ .name = (name_), .short_name = (short_), .help = (help_),	\
	  .store = CLI_STORE_FLAG,					\
	  .offset = CLI_MEMBER_OFFSET(type, member, bool) }

/* A row id ("ID") stored in the int64_t @type.@member. */
#define CLI_OPT_ID(name_, short_, type, member, help_)			\
	{ .name = (name_), .short_name = (short_), .arg = "ID",		\
	  .help = (help_), .store = CLI_STORE_ID,			\
	  .offset = CLI_MEMBER_OFFSET(type, member, int64_t) }

/* A whole number from @min_ to @max_ stored in the unsigned @type.@member. */
#define CLI_OPT_UINT(name_, short_, arg_, type, member, min_, max_, help_) \
	{ .name = (name_), .short_name = (short_), .arg = (arg_),	\
	  .help = (help_), .store = CLI_STORE_UINT,			\
	  .offset = CLI_MEMBER_OFFSET(type, member, unsigned),		\
	  .min = (min_), .max = (max_) }

/* The entry that ends a table. */
#define CLI_OPT_END { .name = NULL }

/*
 * Callback for a subcommand option that does not store itself; return 0
 * or a CLI_EXIT_* code.
 */
typedef int (*cli_option_fn)(struct cli_ctx *ctx, int key, const char *arg,
			     void *user);

int cli_main(const struct cli_tool *tool, int argc, char **argv);
char *cli_synopsis(const char *tool, const char *command, const char *args,
		   const struct cli_option *opts);
int cli_parse_options(struct cli_ctx *ctx, int argc, char **argv,
		      const char *synopsis, const struct cli_option *opts,
		      cli_option_fn fn, void *user, int *first_arg);

/* Output: the one JSON writer, used for results and for errors. */
int cli_emit_json(struct cli_ctx *ctx, json_t *doc);

/* Significant digits of every number in a JSON document memcal writes. */
#define CLI_JSON_PRECISION 12
bool cli_json_dumpf(const json_t *doc, FILE *f);
int cli_error(struct cli_ctx *ctx, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void cli_warn(struct cli_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void cli_info(struct cli_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void cli_debug(struct cli_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int cli_stdout_failed(struct cli_ctx *ctx, int err);
json_t *cli_envelope(const struct cli_ctx *ctx, bool ok, json_t *body);
void cli_carry(json_t *res, bool is_json, const char *text);

/**
 * struct cli_sink - state of a stream made by cli_sink_open().
 * @fd:     descriptor written.
 * @err:    errno of the first failed write, 0 if none.
 * @own_fd: the stream closes @fd.
 */
struct cli_sink {
	int fd;
	int err;
	bool own_fd;
};

FILE *cli_sink_open(struct cli_sink *s, int fd, bool own_fd);
int cli_stream_errno(const struct cli_sink *s, int fallback);

/**
 * struct cli_output - one destination of a command's output (outfile.c).
 * @f:         the stream to write, between open and commit/abort.
 * @path:      the path as given ("-" for stdout), for messages.
 * @target:    the file written: @path, or a symbolic link's target.
 * @tmp:       the temporary file renamed over @target on commit, or "".
 * @is_stdout: @f is the context's @out stream.
 * @sink:      write-error record of @f when it is not stdout.
 */
struct cli_output {
	FILE *f;
	const char *path;
	char target[4096];
	char tmp[4096];
	bool is_stdout;
	struct cli_sink sink;
};

int cli_output_open(struct cli_ctx *ctx, struct cli_output *o,
		    const char *path);
int cli_output_commit(struct cli_ctx *ctx, struct cli_output *o);
int cli_output_fail(struct cli_ctx *ctx, struct cli_output *o, int err);
void cli_output_abort(struct cli_output *o);

/**
 * struct cli_progress - a progress bar on stderr, shown only on a terminal.
 * @ctx:     owning context.
 * @label:   what is being done.
 * @total:   number of steps.
 * @done:    steps completed.
 * @enabled: false when stderr is not a terminal or -q is set.
 */
struct cli_progress {
	struct cli_ctx *ctx;
	const char *label;
	unsigned total;
	unsigned done;
	bool enabled;
};

void cli_progress_begin(struct cli_progress *p, struct cli_ctx *ctx,
			const char *label, unsigned total);
void cli_progress_step(struct cli_progress *p, const char *what);
void cli_progress_end(struct cli_progress *p);

/**
 * cli_note_add() - format a sentence into the next free slot of a table
 * of @max slots of @len bytes at @tab, *@n of them used.  A full table
 * drops it, a sentence already in the table is not added again, and one
 * longer than a slot ends in " [...]" so that the cut shows.
 * CLI_NOTE_ADD() takes the table as a two-dimensional array;
 * cli_note_vadd() and CLI_NOTE_VADD() take a va_list.
 */
void cli_note_add(char *tab, size_t len, size_t max, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void cli_note_vadd(char *tab, size_t len, size_t max, size_t *n, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));
#define CLI_NOTE_ADD(tab, n, ...) \
	cli_note_add((tab)[0], sizeof((tab)[0]), sizeof(tab) / sizeof((tab)[0]), (n), __VA_ARGS__)
#define CLI_NOTE_VADD(tab, n, fmt, ap) \
	cli_note_vadd((tab)[0], sizeof((tab)[0]), sizeof(tab) / sizeof((tab)[0]), (n), (fmt), (ap))

/*
 * Value parsers: 0 on success; MEMCAL_ESYNTAX (malformed) or MEMCAL_EINVAL
 * (out of range) with *why set to a static message.
 */
int cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out,
		  const char **why);
int cli_parse_id(const char *s, int64_t *id, const char **why);
int cli_option_id(struct cli_ctx *ctx, const char *name, const char *arg,
		  int64_t *id);
int cli_parse_size(const char *s, uint64_t *out, const char **why);
int cli_parse_u32_list(const char *s, uint32_t min, uint32_t max,
		       uint32_t *out, size_t cap, size_t *n, const char **why);

#endif /* MEMCAL_CLI_H */
