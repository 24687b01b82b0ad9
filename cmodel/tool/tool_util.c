/*
 * tool_util.c - option parsing, strict numbers, JSON output, and the hand-over to the RTL
 * engine script, shared by the `lcan` subcommands. See tool_util.h for the conventions.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
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
        if (v > (max - dgt) / 10) {
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
    char *path = tool_rtl_script(), **nargv;
    int i;

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
