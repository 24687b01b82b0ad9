/*
 * tool_util.c - option parsing, strict numbers, JSON output, and the hand-over to the RTL
 * engine script, shared by the `lcan` subcommands. See tool_util.h for the conventions.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tool_util.h"

#define ERR_LEN 512

void tool_error(const char *fmt, ...)
{
    char msg[ERR_LEN];
    size_t k;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (k = 0; msg[k] != '\0'; k++) /* keep it one line whatever the user typed */
        if ((unsigned char)msg[k] < 0x20)
            msg[k] = '?';
    fprintf(stderr, "lcan: %s\n", msg);
}

int tool_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

int tool_is_option(const char *arg)
{
    if (arg[0] != '-' || arg[1] == '\0')
        return 0;
    return !((arg[1] >= '0' && arg[1] <= '9') || arg[1] == '.');
}

int tool_opt_value(const char *cmd, int argc, char **argv, int *i, const char *name, const char **val)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return 0;
    if (a[n] == '=') {
        *val = a + n + 1;
        return 1;
    }
    if (a[n] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        tool_error("%s: option %s needs a value", cmd, name);
        return -1;
    }
    *i += 1;
    *val = argv[*i];
    return 1;
}

int tool_opt_flag(const char *cmd, const char *arg, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return 0;
    if (arg[n] == '\0')
        return 1;
    if (arg[n] == '=') {
        tool_error("%s: option %s takes no value", cmd, name);
        return -1;
    }
    return 0;
}

/* Shared by the integer parsers: digits only, value <= max (no overflow). */
static int parse_digits(const char *cmd, const char *what, const char *text, uint64_t max, uint64_t *out)
{
    const char *s = text;
    uint64_t v = 0;
    if (*s == '\0') {
        tool_error("%s: %s is empty, expected a whole number", cmd, what);
        return -1;
    }
    if (*s == '-' && s[1] >= '0' && s[1] <= '9') {
        tool_error("%s: %s '%s' is negative", cmd, what, text);
        return -1;
    }
    if (*s < '0' || *s > '9') {
        tool_error("%s: %s '%s' is not a whole number", cmd, what, text);
        return -1;
    }
    for (; *s >= '0' && *s <= '9'; s++) {
        unsigned dgt = (unsigned)(*s - '0');
        if (dgt > max || v > (max - dgt) / 10) { /* max - dgt would wrap for dgt > max */
            tool_error("%s: %s '%s' is too large (max %llu)", cmd, what, text, (unsigned long long)max);
            return -1;
        }
        v = v * 10 + dgt;
    }
    if (*s != '\0') {
        tool_error("%s: %s '%s' has trailing characters after the number", cmd, what, text);
        return -1;
    }
    *out = v;
    return 0;
}

int tool_parse_long(const char *cmd, const char *what, const char *text, long min, long max, long *out)
{
    uint64_t v;
    if (parse_digits(cmd, what, text, (uint64_t)max, &v) != 0)
        return -1;
    if ((long)v < min) {
        tool_error("%s: %s '%s' must be at least %ld", cmd, what, text, min);
        return -1;
    }
    *out = (long)v;
    return 0;
}

int tool_parse_u64(const char *cmd, const char *what, const char *text, uint64_t *out)
{
    return parse_digits(cmd, what, text, UINT64_MAX, out);
}

int tool_parse_double(const char *cmd, const char *what, const char *text, double min, double max,
                      double *out)
{
    char *end;
    double v;
    if (*text == '\0' || *text == ' ' || *text == '\t' || *text == '+') {
        tool_error("%s: %s '%s' is not a number", cmd, what, text);
        return -1;
    }
    if (strpbrk(text, "xXpP \t\n\r\f\v") != NULL) { /* no hex floats, no blanks (strtod takes both) */
        tool_error("%s: %s '%s' is not a number", cmd, what, text);
        return -1;
    }
    errno = 0;
    v = strtod(text, &end);
    if (end == text || *end != '\0') {
        tool_error("%s: %s '%s' is not a number", cmd, what, text);
        return -1;
    }
    if (errno == ERANGE || !isfinite(v) || v < min || v > max) {
        tool_error("%s: %s '%s' must be in %g..%g", cmd, what, text, min, max);
        return -1;
    }
    *out = v;
    return 0;
}

lcan_topo *tool_topo(const char *spec)
{
    char err[ERR_LEN];
    lcan_topo *t = NULL;
    lcan_status st = lcan_topo_parse(spec, &t, err, sizeof err);
    if (st != LCAN_OK) {
        if (err[0] != '\0')
            tool_error("%s", err);
        else
            tool_error("bad spec '%s': %s", spec, lcan_strerror(st));
        return NULL;
    }
    return t;
}

char *tool_rtl_script(void)
{
    static const char script[] = "/tb/lcan-rtl";
    char *dir = NULL, *path = NULL;
    size_t cap = 256;
    ssize_t got;
    int up;

    /* The kernel's link is the binary's resolved absolute path (its realpath). */
    for (;;) {
        char *grown = realloc(dir, cap);
        if (grown == NULL) {
            free(dir);
            return NULL;
        }
        dir = grown;
        got = readlink("/proc/self/exe", dir, cap);
        if (got < 0) {
            free(dir);
            return NULL;
        }
        if ((size_t)got < cap)
            break;
        cap *= 2;
    }
    dir[got] = '\0';
    /* up = 1: <repo>/build/lcan; up = 2: <repo>/build/san/lcan */
    for (up = 0; up <= 2 && path == NULL; up++) {
        char *slash = strrchr(dir, '/');
        if (slash == NULL)
            break;
        *slash = '\0'; /* up = 0: the binary's directory, then its parent, grandparent */
        if (up == 0)
            continue;
        path = malloc(strlen(dir) + sizeof script);
        if (path == NULL)
            break;
        strcpy(path, dir);
        strcat(path, script);
        if (access(path, F_OK) != 0) {
            free(path);
            path = NULL;
        }
    }
    free(dir);
    return path;
}

int tool_exec_rtl(int argc, char **argv)
{
    char *path, **nargv;
    int i;

#ifdef LCAN_FUZZ
    (void)argc;
    (void)argv;
    return TOOL_EXIT_OK; /* the fuzzer (cmodel/fuzz/) checks the arguments only, it never runs the RTL */
#endif
    path = tool_rtl_script();
    if (path == NULL) {
        tool_error("RTL engine not available: tb/lcan-rtl missing (run make)");
        return TOOL_EXIT_USAGE;
    }
    nargv = malloc(((size_t)argc + 2) * sizeof *nargv);
    if (nargv == NULL) {
        free(path);
        tool_error("out of memory");
        return TOOL_EXIT_FAIL;
    }
    nargv[0] = path;
    for (i = 0; i < argc; i++)
        nargv[i + 1] = argv[i];
    nargv[argc + 1] = NULL;
    fflush(NULL);
    execv(path, nargv);
    tool_error("RTL engine not available: cannot run %s (%s)", path, strerror(errno));
    free(nargv);
    free(path);
    return TOOL_EXIT_USAGE;
}

int tool_finish(int status)
{
    /* a full disk, /dev/full or a closed pipe: the output is incomplete, so the run failed */
    int bad = fflush(stdout) != 0 || ferror(stdout);
#ifndef LCAN_FUZZ
    if (!bad && fclose(stdout) != 0)
        bad = 1;
#else
    clearerr(stdout);
#endif
    if (bad) {
        tool_error("cannot write the output: %s", errno ? strerror(errno) : "write error");
        return status == TOOL_EXIT_OK ? TOOL_EXIT_FAIL : status;
    }
    return status;
}

/* MemAvailable of /proc/meminfo in bytes, else free physical pages, else 0 (unknown). */
static double mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    double kb = -1.0;
    if (f != NULL) {
        while (fgets(line, sizeof line, f) != NULL)
            if (strncmp(line, "MemAvailable:", 13) == 0) {
                kb = strtod(line + 13, NULL);
                break;
            }
        fclose(f);
    }
    if (kb > 0)
        return kb * 1024.0;
#ifdef _SC_AVPHYS_PAGES
    {
        long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
        if (pages > 0 && size > 0)
            return (double)pages * (double)size;
    }
#endif
    return 0.0;
}

int tool_mem_check(const char *cmd, const char *what, double bytes, const char *limit_gb)
{
    double limit, gb = 1024.0 * 1024.0 * 1024.0;
    const char *from = "available (MemAvailable)";
    if (limit_gb != NULL) {
        if (tool_parse_double(cmd, "--mem-limit", limit_gb, 0.001, 1e6, &limit) != 0)
            return -1;
        limit *= gb;
        from = "allowed by --mem-limit";
    } else {
        limit = mem_available();
        if (limit <= 0.0)
            return 0; /* unknown: do not guess */
    }
    if (bytes > limit) {
        tool_error("%s: %s needs about %.3g GB of memory, more than the %.3g GB %s (--mem-limit GB "
                   "raises the limit)",
                   cmd, what, bytes / gb, limit / gb, from);
        return -1;
    }
    return 0;
}

int tool_end_of_options(int argc, char **argv)
{
    int i;
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0)
            return i;
    return argc;
}

int tool_parse_args(const char *cmd, int argc, char **argv, const char *usage, const tool_opt *opts,
                    size_t n, const char **spec)
{
    const char *v;
    int i, r, on = 1;
    size_t k;
    for (i = 1; i < tool_end_of_options(argc, argv); i++)
        if (tool_is_help(argv[i])) {
            fputs(usage, stdout);
            return 1;
        }
    for (i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (on && strcmp(arg, "--") == 0) {
            on = 0;
            continue;
        }
        if (!on || !tool_is_option(arg)) {
            if (*spec != NULL) {
                tool_error("%s: unexpected argument '%s' (one SPEC only)", cmd, arg);
                return -1;
            }
            *spec = arg;
            continue;
        }
        for (k = 0, r = 0; k < n && r == 0; k++) {
            const tool_opt *o = &opts[k];
            if (o->flag != NULL) {
                if ((r = tool_opt_flag(cmd, arg, o->name)) > 0)
                    *o->flag = 1;
            } else if ((r = tool_opt_value(cmd, argc, argv, &i, o->name, &v)) > 0) {
                *o->value = v;
            }
        }
        if (r < 0)
            return -1;
        if (r == 0) {
            tool_error("%s: unknown option '%s' (try 'lcan %s --help')", cmd, arg, cmd);
            return -1;
        }
    }
    return 0;
}

static double progress_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void progress_secs(char *buf, size_t len, double s)
{
    if (s < 90)
        snprintf(buf, len, "%.0f s", s);
    else if (s < 5400)
        snprintf(buf, len, "%.0f min", s / 60);
    else
        snprintf(buf, len, "%.1f h", s / 3600);
}

void tool_progress_init(tool_progress *p, const char *what, int forced)
{
    p->tty = isatty(2);
    p->on = forced || p->tty;
    p->shown = 0;
    p->what = what;
    p->t0 = p->last = progress_now();
}

void tool_progress_show(tool_progress *p, double done, double total, const char *unit)
{
    double now, el;
    char e[32], l[32], pct[32];
    if (!p->on)
        return;
    now = progress_now();
    if (now - p->last < 1.0)
        return;
    p->last = now;
    el = now - p->t0;
    progress_secs(e, sizeof e, el);
    if (total > 0 && done > 0 && done < total) {
        progress_secs(l, sizeof l, el * (total - done) / done);
        snprintf(pct, sizeof pct, "%.0f%%", 100.0 * done / total);
        fprintf(stderr, "%slcan: %s: %.0f/%.0f %s (%s), %s elapsed, about %s left%s", p->tty ? "\r" : "", p->what,
                done, total, unit, pct, e, l, p->tty ? "\033[K" : "\n");
    } else {
        fprintf(stderr, "%slcan: %s: %.0f %s, %s elapsed%s", p->tty ? "\r" : "", p->what, done, unit, e,
                p->tty ? "\033[K" : "\n");
    }
    fflush(stderr);
    p->shown = 1;
}

void tool_progress_end(tool_progress *p)
{
    char e[32];
    if (!p->on)
        return;
    if (p->tty) {
        if (p->shown)
            fputs("\r\033[K", stderr);
    } else {
        progress_secs(e, sizeof e, progress_now() - p->t0);
        fprintf(stderr, "lcan: %s: done in %s\n", p->what, e);
    }
    fflush(stderr);
}

int tool_parse_up_choice(const char *cmd, const char *text, lcan_up_choice *out)
{
    if (strcmp(text, "uniform") == 0)
        *out = LCAN_UP_UNIFORM;
    else if (strcmp(text, "rotate") == 0)
        *out = LCAN_UP_ROTATE;
    else {
        tool_error("%s: --up-choice '%s' is not one of uniform, rotate", cmd, text);
        return -1;
    }
    return 0;
}

const char *tool_up_choice_name(lcan_up_choice uc)
{
    return uc == LCAN_UP_ROTATE ? "rotate" : "uniform";
}
