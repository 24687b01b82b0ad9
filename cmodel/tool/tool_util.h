/*
 * tool_util.h - helpers shared by the `lcan` subcommands (cmodel/tool/cmd_*.c).
 *
 * Conventions every subcommand follows:
 *   - a subcommand is `int cmd_NAME(int argc, char **argv)` with argv[0] = "NAME"; it returns the
 *     process exit status: 0 ok, 1 run-time failure, 2 bad input (TOOL_EXIT_USAGE);
 *   - bad input prints exactly one line "lcan: ..." on stderr and nothing on stdout;
 *   - `-h` / `--help` anywhere prints the usage on stdout and returns 0;
 *   - options may come before or after positionals, as `--opt VALUE` or `--opt=VALUE`;
 *     `--` ends the options.
 */
#ifndef TOOL_UTIL_H
#define TOOL_UTIL_H

#include <stdint.h>
#include <stdio.h>

#include "lcan.h"
#include "json.h" /* lcan_json_string, lcan_json_double, lcan_json_i64 */

#define TOOL_EXIT_OK 0
#define TOOL_EXIT_FAIL 1
#define TOOL_EXIT_USAGE 2

/* One line "lcan: <message>\n" on stderr. */
void tool_error(const char *fmt, ...);

/* 1 for "-h" and "--help". */
int tool_is_help(const char *arg);

/* 1 if arg looks like an option ("-x", "--xyz"); "-", "-5" and "-.5" are positionals (so that
 * negative numbers get a number error, not an unknown-option error). */
int tool_is_option(const char *arg);

/* Option with a value, at argv[*i]: "--name VALUE" or "--name=VALUE".
 * Returns 1 and sets *val (advancing *i past a separate value), 0 if argv[*i] is not this option,
 * -1 after printing an error if the value is missing. */
int tool_opt_value(const char *cmd, int argc, char **argv, int *i, const char *name, const char **val);

/* Flag without a value at argv[*i]: 1 if it is "--name", 0 if not, -1 (error printed) for
 * "--name=...". */
int tool_opt_flag(const char *cmd, const char *arg, const char *name);

/* Strict numbers: decimal digits only (no sign, blanks or trailing characters), within
 * [min, max]. Return 0, or -1 after printing "lcan: CMD: WHAT 'TEXT': reason". */
int tool_parse_long(const char *cmd, const char *what, const char *text, long min, long max, long *out);
int tool_parse_u64(const char *cmd, const char *what, const char *text, uint64_t *out);
/* A finite decimal number in [min, max]. */
int tool_parse_double(const char *cmd, const char *what, const char *text, double min, double max,
                      double *out);

/* --up-choice VALUE (spec 6, UP_CHOICE): "uniform" (LCAN_UP_UNIFORM) or "rotate" (LCAN_UP_ROTATE).
 * Returns 0, or -1 after printing "lcan: CMD: --up-choice 'TEXT' is not one of uniform, rotate". */
int tool_parse_up_choice(const char *cmd, const char *text, lcan_up_choice *out);
/* "uniform" / "rotate" (the JSON value of key up_choice). */
const char *tool_up_choice_name(lcan_up_choice uc);

/* Parse a spec; on failure prints the parser's one-line message and returns NULL. */
lcan_topo *tool_topo(const char *spec);

/* JSON output: a string with escapes; a double in the shortest form that reads back exactly
 * (null for NaN / infinity). */

/* Replace this process by <repo>/tb/lcan-rtl with argv (argv[0] = subcommand name) as its
 * arguments. <repo> is the parent of the directory holding this binary (/proc/self/exe); for
 * build/san/lcan the grandparent is tried as well. Returns only on failure, with status 2 after
 * printing one line. */
int tool_exec_rtl(int argc, char **argv);
/* The path of that script (malloc'd, caller frees), or NULL if it does not exist. */
char *tool_rtl_script(void);

/* The end of a subcommand: flush stdout and check it (and its close) for a write error, e.g. a
 * full disk or /dev/full. Returns status, or TOOL_EXIT_FAIL after one line if the output is lost. */
int tool_finish(int status);

/* Refuse work whose memory estimate (bytes) exceeds MemAvailable, or limit_gb (the text of
 * --mem-limit GB) when it is not NULL: 0 ok, -1 after printing one line
 * "lcan: CMD: WHAT needs about X GB of memory, ...". */
int tool_mem_check(const char *cmd, const char *what, double bytes, const char *limit_gb);

/* --faults LIST (spec 14.5) for CMD on network t: refuses a network whose reach tables exceed the
 * model's limit (lcan_reach_bytes), then lcan_faults_init + lcan_faults_parse with `seed` (random:K).
 * 0, or -1 after printing one line "lcan: CMD: bad fault ..." (f is then freed). cmd_faults.c. */
struct lcan_faults;
int tool_faults(const char *cmd, const lcan_topo *t, const char *list, uint64_t seed, struct lcan_faults *f);

/* Index of the first "--" in argv[1..argc-1], or argc: -h / --help count only before it. */
int tool_end_of_options(int argc, char **argv);

/* One option of a subcommand for tool_parse_args: a flag (flag != NULL: set to 1) or an option
 * with a value (value != NULL: its text, checked by the caller). */
typedef struct {
    const char *name;
    int *flag;
    const char **value;
} tool_opt;

/* The argument loop of a subcommand CMD (argv[0] = CMD) that takes one SPEC: -h / --help before
 * "--" print usage on stdout and return 1; options (before "--") are looked up in opts[0..n-1] in
 * that order; any other argument is the SPEC (*spec, left as it is when there is none). Returns
 * 0, 1 for help, or -1 after printing one line for an unknown option, a missing or unwanted value,
 * or a second SPEC. */
int tool_parse_args(const char *cmd, int argc, char **argv, const char *usage, const tool_opt *opts,
                    size_t n, const char **spec);

/* Progress of a long run on stderr, never on stdout: shown when stderr is a terminal (one line
 * redrawn in place, erased at the end) or when forced (--progress: one line per report, and a
 * final line), at most once a second, with an estimate of the time left from the rate so far.
 *   lcan: route: 12/100 trials (12%), 3 s elapsed, about 22 s left */
typedef struct {
    int on, tty, shown;
    const char *what;
    double t0, last;
} tool_progress;

void tool_progress_init(tool_progress *p, const char *what, int forced);
/* done of total UNIT; total <= 0: unknown (no estimate). Cheap when nothing is due. */
void tool_progress_show(tool_progress *p, double done, double total, const char *unit);
/* The end: erase the terminal line, or with --progress print "WHAT: done in X s". */
void tool_progress_end(tool_progress *p);

#endif
