/*
 * parse.c - spec strings (spec 1.3) -> struct lcan_topo, limit checks (spec 1.1), canonical and
 * PGFT forms, error messages (spec 1.4).
 *
 * The string is first reduced to its "core": blanks (space, tab) removed, letters lower-cased,
 * each core character remembering its 1-based position in the string as typed. A recursive-descent
 * parser then walks the core. Errors are one line:
 *   bad spec 'S' at character N: expected X [(context)]     LCAN_ERR_PARSE
 *   bad spec 'S': <parameter>=<value> <rule>                  LCAN_ERR_PARAM
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_internal.h"

#define INT_MAX31 2147483647L        /* spec 1.3: int value <= 2^31-1 */
#define MAX_LEAVES (1UL << 20)       /* spec 1.1 */
#define MAX_SWITCHES (1UL << 22)
#define SAT_LIMIT ((uint64_t)1 << 40) /* saturation point for counts while checking limits */
#define QUOTE_MAX 80                 /* longest spec echoed in a message */

typedef struct {
    const char *typed;  /* the spec as typed */
    char *core;         /* blanks removed, lower case */
    size_t *pos;        /* pos[i]: 1-based position in typed of core[i]; pos[len] = strlen+1 */
    size_t len;
    size_t i;           /* cursor into core */
    char *err;
    size_t errlen;
} parser;

/* Write "bad spec 'S'" + the formatted rest into the caller's buffer. The quoted spec is cut to
 * QUOTE_MAX characters and control characters are shown as '?', so the message stays one line. */
static void report(const parser *ps, const char *fmt, ...)
{
    char q[QUOTE_MAX + 4];
    size_t k, n = 0;
    int used;
    va_list ap;

    if (ps->err == NULL || ps->errlen == 0)
        return;
    for (k = 0; ps->typed[k] != '\0' && n < QUOTE_MAX; k++, n++) {
        unsigned char c = (unsigned char)ps->typed[k];
        q[n] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    }
    if (ps->typed[k] != '\0') {
        memcpy(q + n, "...", 3);
        n += 3;
    }
    q[n] = '\0';
    used = snprintf(ps->err, ps->errlen, "bad spec '%s'", q);
    if (used < 0 || (size_t)used >= ps->errlen)
        return;
    va_start(ap, fmt);
    vsnprintf(ps->err + used, ps->errlen - (size_t)used, fmt, ap);
    va_end(ap);
}

/* A syntax error at the cursor: "at character N: expected WHAT". */
static lcan_status expected(const parser *ps, const char *what, const char *context)
{
    size_t at = ps->pos[ps->i];
    int at_end = ps->i >= ps->len;
    report(ps, " at character %lu%s: expected %s%s%s%s", (unsigned long)at, at_end ? " (end)" : "",
           what, context ? " (" : "", context ? context : "", context ? ")" : "");
    return LCAN_ERR_PARSE;
}

static lcan_status expect_char(parser *ps, char c, const char *context)
{
    char what[4] = {'\'', c, '\'', '\0'};
    if (ps->i < ps->len && ps->core[ps->i] == c) {
        ps->i++;
        return LCAN_OK;
    }
    return expected(ps, what, context);
}

/* int := decimal digits, value <= 2^31-1, no sign. */
static lcan_status parse_int(parser *ps, long *out, const char *context)
{
    size_t start = ps->i;
    long v = 0;
    if (ps->i >= ps->len || ps->core[ps->i] < '0' || ps->core[ps->i] > '9')
        return expected(ps, "a number", context);
    while (ps->i < ps->len && ps->core[ps->i] >= '0' && ps->core[ps->i] <= '9') {
        v = v * 10 + (ps->core[ps->i] - '0');
        if (v > INT_MAX31) {
            ps->i = start;
            return expected(ps, "a number <= 2147483647", context);
        }
        ps->i++;
    }
    *out = v;
    return LCAN_OK;
}

/* list := int { "," int } with exactly h entries, followed by one of `after` (not consumed). */
static lcan_status parse_list(parser *ps, int h, const char *name, const char *after, long *v)
{
    char ctx[64];
    int k;
    lcan_status st;
    snprintf(ctx, sizeof ctx, "%s list needs h=%d entr%s", name, h, h == 1 ? "y" : "ies");
    for (k = 0; k < h; k++) {
        if (k > 0 && (st = expect_char(ps, ',', ctx)) != LCAN_OK)
            return st;
        if ((st = parse_int(ps, &v[k + 1], ctx)) != LCAN_OK)
            return st;
    }
    if (ps->i < ps->len && ps->core[ps->i] == ',')
        return expected(ps, after, ctx);
    return LCAN_OK;
}

static lcan_status check_h(const parser *ps, long h)
{
    if (h < 1 || h > LCAN_MAX_LEVELS) {
        report(ps, ": h=%ld must be in 1..%d", h, LCAN_MAX_LEVELS);
        return LCAN_ERR_PARAM;
    }
    return LCAN_OK;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    if (a == 0 || b == 0)
        return 0;
    return (a > SAT_LIMIT / b) ? SAT_LIMIT : a * b;
}

/* Spec 1.1 limits on the PGFT form; names follow the family the user wrote. */
static lcan_status check_limits(const parser *ps, const struct lcan_topo *t)
{
    const char *pname = t->family == LCAN_FAM_BFT ? "c" : "p";
    uint64_t n = 1, total = 0;
    int l, j;

    for (l = 1; l <= t->h; l++) {
        if (t->m[l] < 2 || t->m[l] > 64) {
            report(ps, ": m%d=%d must be in 2..64", l, t->m[l]);
            return LCAN_ERR_PARAM;
        }
        if (t->w[l] < 1 || t->w[l] > 64) {
            report(ps, ": w%d=%d must be in 1..64", l, t->w[l]);
            return LCAN_ERR_PARAM;
        }
        if (t->p[l] < 1 || t->p[l] > 64) {
            report(ps, ": %s%d=%d must be in 1..64", pname, l, t->p[l]);
            return LCAN_ERR_PARAM;
        }
    }
    for (l = 1; l <= t->h; l++) {
        int dl = t->m[l] * t->p[l];
        int ul = l < t->h ? t->w[l + 1] * t->p[l + 1] : 0;
        if (dl + ul > 128) {
            report(ps, ": level %d has D+U=%d+%d=%d ports, more than 128", l, dl, ul, dl + ul);
            return LCAN_ERR_PARAM;
        }
    }
    for (l = 1; l <= t->h; l++)
        n = sat_mul(n, (uint64_t)t->m[l]);
    if (n > MAX_LEAVES) {
        if (n >= SAT_LIMIT)
            report(ps, ": N=m1*..*mh is more than 2^20=1048576 leaves");
        else
            report(ps, ": N=%llu leaves, more than 2^20=1048576", (unsigned long long)n);
        return LCAN_ERR_PARAM;
    }
    for (l = 1; l <= t->h; l++) {
        uint64_t s = 1;
        for (j = 1; j <= l; j++)
            s = sat_mul(s, (uint64_t)t->w[j]);
        for (j = l + 1; j <= t->h; j++)
            s = sat_mul(s, (uint64_t)t->m[j]);
        total += s;
        if (total > MAX_SWITCHES) {
            report(ps, ": more than 2^22=4194304 switches in total");
            return LCAN_ERR_PARAM;
        }
    }
    return LCAN_OK;
}

static void append(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strlen(buf);
    va_list ap;
    if (used + 1 >= len)
        return;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

static void append_list(char *buf, size_t len, const int *v, int h)
{
    int l;
    for (l = 1; l <= h; l++)
        append(buf, len, "%s%d", l > 1 ? "," : "", v[l]);
}

static void make_strings(struct lcan_topo *t)
{
    char *c = t->canonical, *g = t->pgft;
    size_t cl = sizeof t->canonical, gl = sizeof t->pgft;
    c[0] = g[0] = '\0';

    append(g, gl, "pgft(%d;", t->h);
    append_list(g, gl, t->m, t->h);
    append(g, gl, ";");
    append_list(g, gl, t->w, t->h);
    append(g, gl, ";");
    append_list(g, gl, t->p, t->h);
    append(g, gl, ")");

    switch (t->family) {
    case LCAN_FAM_CM5:
        append(c, cl, "cm5");
        break;
    case LCAN_FAM_LCAN:
        append(c, cl, "lcan(%d,%d,%d)", t->fam_a, t->fam_b, t->fam_c);
        break;
    case LCAN_FAM_GFT:
        append(c, cl, "gft(%d,%d,%d)", t->fam_a, t->fam_b, t->fam_c);
        break;
    case LCAN_FAM_KARY:
        append(c, cl, "kary(%d,%d)", t->fam_a, t->fam_b);
        break;
    case LCAN_FAM_XGFT:
        append(c, cl, "xgft(%d;", t->h);
        append_list(c, cl, t->m, t->h);
        append(c, cl, ";");
        append_list(c, cl, t->w, t->h);
        append(c, cl, ")");
        break;
    case LCAN_FAM_BFT:
        append(c, cl, "bft(%d;", t->h);
        append_list(c, cl, t->p, t->h);
        append(c, cl, ")");
        break;
    case LCAN_FAM_PGFT:
        append(c, cl, "%s", g);
        break;
    }
}

/* lcan(d,u,n): d >= 2, u >= 1, n a power of d, n >= d (spec 1.2). */
static lcan_status build_lcan(const parser *ps, struct lcan_topo *t, long d, long u, long n)
{
    long x;
    int h = 0, l;
    if (d < 2 || d > 64) {
        report(ps, ": d=%ld must be in 2..64", d);
        return LCAN_ERR_PARAM;
    }
    if (u < 1 || u > 64) {
        report(ps, ": u=%ld must be in 1..64", u);
        return LCAN_ERR_PARAM;
    }
    if (n < d) {
        report(ps, ": n=%ld must be a power of d=%ld with n >= d", n, d);
        return LCAN_ERR_PARAM;
    }
    for (x = n; x % d == 0; x /= d)
        h++;
    if (x != 1) {
        report(ps, ": n=%ld is not a power of d=%ld", n, d);
        return LCAN_ERR_PARAM;
    }
    if (h > LCAN_MAX_LEVELS) {
        report(ps, ": h=log_d(n)=%d must be in 1..%d", h, LCAN_MAX_LEVELS);
        return LCAN_ERR_PARAM;
    }
    t->h = h;
    for (l = 1; l <= h; l++) {
        t->m[l] = (int)d;
        t->w[l] = l == 1 ? 1 : (int)u;
        t->p[l] = 1;
    }
    t->fam_a = (int)d;
    t->fam_b = (int)u;
    t->fam_c = (int)n;
    return LCAN_OK;
}

static lcan_status parse_body(parser *ps, struct lcan_topo *t)
{
    static const struct { const char *name; lcan_family fam; } fams[] = {
        {"cm5", LCAN_FAM_CM5},   {"lcan", LCAN_FAM_LCAN}, {"gft", LCAN_FAM_GFT},
        {"kary", LCAN_FAM_KARY}, {"xgft", LCAN_FAM_XGFT}, {"bft", LCAN_FAM_BFT},
        {"pgft", LCAN_FAM_PGFT},
    };
    const char *fam_hint = "a family: cm5, lcan(, gft(, kary(, xgft(, bft( or pgft(";
    size_t start = ps->i, wl;
    long a = 0, b = 0, c = 0, v[3][LCAN_MAX_LEVELS + 1];
    int k, l, found = -1;
    lcan_status st;

    while (ps->i < ps->len && ((ps->core[ps->i] >= 'a' && ps->core[ps->i] <= 'z') ||
                               (ps->core[ps->i] >= '0' && ps->core[ps->i] <= '9')))
        ps->i++;
    wl = ps->i - start;
    for (k = 0; k < (int)(sizeof fams / sizeof fams[0]); k++)
        if (strlen(fams[k].name) == wl && memcmp(fams[k].name, ps->core + start, wl) == 0)
            found = k;
    if (found < 0) {
        ps->i = start;
        return expected(ps, fam_hint, NULL);
    }
    t->family = fams[found].fam;

    if (t->family == LCAN_FAM_CM5) {
        static const int cm[5] = {0, 4, 4, 4, 4}, cw[5] = {0, 2, 2, 2, 4};
        t->h = 4;
        for (l = 1; l <= 4; l++) {
            t->m[l] = cm[l];
            t->w[l] = cw[l];
            t->p[l] = 1;
        }
    } else {
        if ((st = expect_char(ps, '(', NULL)) != LCAN_OK)
            return st;
        switch (t->family) {
        case LCAN_FAM_LCAN:
        case LCAN_FAM_GFT:
            if ((st = parse_int(ps, &a, NULL)) != LCAN_OK || (st = expect_char(ps, ',', NULL)) != LCAN_OK ||
                (st = parse_int(ps, &b, NULL)) != LCAN_OK || (st = expect_char(ps, ',', NULL)) != LCAN_OK ||
                (st = parse_int(ps, &c, NULL)) != LCAN_OK || (st = expect_char(ps, ')', NULL)) != LCAN_OK)
                return st;
            break;
        case LCAN_FAM_KARY:
            if ((st = parse_int(ps, &a, NULL)) != LCAN_OK || (st = expect_char(ps, ',', NULL)) != LCAN_OK ||
                (st = parse_int(ps, &b, NULL)) != LCAN_OK || (st = expect_char(ps, ')', NULL)) != LCAN_OK)
                return st;
            break;
        case LCAN_FAM_XGFT:
        case LCAN_FAM_BFT:
        case LCAN_FAM_PGFT: {
            int lists = t->family == LCAN_FAM_BFT ? 1 : t->family == LCAN_FAM_XGFT ? 2 : 3;
            const char *names[3] = {"m", "w", "p"};
            if (t->family == LCAN_FAM_BFT)
                names[0] = "c";
            if ((st = parse_int(ps, &a, NULL)) != LCAN_OK)
                return st;
            if ((st = check_h(ps, a)) != LCAN_OK)
                return st;
            for (l = 1; l <= a; l++)
                v[2][l] = 1; /* pgft without a p list: all p_i = 1 */
            for (k = 0; k < lists; k++) {
                const char *after = k + 1 < lists ? "';'" : "')'";
                if (t->family == LCAN_FAM_PGFT && k == 1)
                    after = "';' or ')'";
                if (t->family == LCAN_FAM_PGFT && k == 2) {
                    if (ps->i < ps->len && ps->core[ps->i] == ')')
                        break; /* the optional p list is absent */
                    if (ps->i >= ps->len || ps->core[ps->i] != ';')
                        return expected(ps, "';' or ')'", NULL);
                }
                if ((st = expect_char(ps, ';', NULL)) != LCAN_OK)
                    return st;
                if ((st = parse_list(ps, (int)a, names[k], after, v[k])) != LCAN_OK)
                    return st;
            }
            if ((st = expect_char(ps, ')', NULL)) != LCAN_OK)
                return st;
            break;
        }
        default:
            break;
        }
    }
    if (ps->i < ps->len)
        return expected(ps, "end of spec", NULL);

    /* Family rules, then the PGFT form. */
    switch (t->family) {
    case LCAN_FAM_CM5:
        break;
    case LCAN_FAM_LCAN:
        if ((st = build_lcan(ps, t, a, b, c)) != LCAN_OK)
            return st;
        break;
    case LCAN_FAM_GFT:
        if ((st = check_h(ps, a)) != LCAN_OK)
            return st;
        if (b < 2 || b > 64) {
            report(ps, ": m=%ld must be in 2..64", b);
            return LCAN_ERR_PARAM;
        }
        if (c < 1 || c > 64) {
            report(ps, ": w=%ld must be in 1..64", c);
            return LCAN_ERR_PARAM;
        }
        t->h = (int)a;
        for (l = 1; l <= t->h; l++) {
            t->m[l] = (int)b;
            t->w[l] = (int)c;
            t->p[l] = 1;
        }
        t->fam_a = (int)a;
        t->fam_b = (int)b;
        t->fam_c = (int)c;
        break;
    case LCAN_FAM_KARY:
        if (a < 2 || a > 64) {
            report(ps, ": k=%ld must be in 2..64", a);
            return LCAN_ERR_PARAM;
        }
        if (b < 1 || b > LCAN_MAX_LEVELS) {
            report(ps, ": n=%ld must be in 1..%d", b, LCAN_MAX_LEVELS);
            return LCAN_ERR_PARAM;
        }
        t->h = (int)b;
        for (l = 1; l <= t->h; l++) {
            t->m[l] = (int)a;
            t->w[l] = l == 1 ? 1 : (int)a;
            t->p[l] = 1;
        }
        t->fam_a = (int)a;
        t->fam_b = (int)b;
        break;
    case LCAN_FAM_XGFT:
    case LCAN_FAM_BFT:
    case LCAN_FAM_PGFT:
        t->h = (int)a;
        for (l = 1; l <= t->h; l++) {
            /* values above 64 are caught by check_limits; clamp so the int copy is exact */
            long mv = t->family == LCAN_FAM_BFT ? 2 : v[0][l];
            long wv = t->family == LCAN_FAM_BFT ? 1 : v[1][l];
            long pv = t->family == LCAN_FAM_BFT ? v[0][l] : t->family == LCAN_FAM_XGFT ? 1 : v[2][l];
            t->m[l] = (int)(mv > 1000 ? 1000 : mv);
            t->w[l] = (int)(wv > 1000 ? 1000 : wv);
            t->p[l] = (int)(pv > 1000 ? 1000 : pv);
        }
        break;
    }
    return check_limits(ps, t);
}

lcan_status lcan_topo_parse(const char *spec, lcan_topo **out, char *err, size_t errlen)
{
    parser ps;
    struct lcan_topo *t;
    size_t k, n;
    lcan_status st;

    if (out != NULL)
        *out = NULL;
    if (err != NULL && errlen > 0)
        err[0] = '\0';
    if (spec == NULL || out == NULL) {
        if (err != NULL && errlen > 0)
            snprintf(err, errlen, "bad spec: no spec string given");
        return LCAN_ERR_ARG;
    }
    n = strlen(spec);
    memset(&ps, 0, sizeof ps);
    ps.typed = spec;
    ps.err = err;
    ps.errlen = errlen;
    ps.core = malloc(n + 1);
    ps.pos = malloc((n + 1) * sizeof *ps.pos);
    t = calloc(1, sizeof *t);
    if (ps.core == NULL || ps.pos == NULL || t == NULL) {
        free(ps.core);
        free(ps.pos);
        free(t);
        return LCAN_ERR_NOMEM;
    }
    for (k = 0; k < n; k++) {
        char c = spec[k];
        if (c == ' ' || c == '\t')
            continue;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        ps.core[ps.len] = c;
        ps.pos[ps.len] = k + 1;
        ps.len++;
    }
    ps.core[ps.len] = '\0';
    ps.pos[ps.len] = n + 1;

    st = parse_body(&ps, t);
    free(ps.core);
    free(ps.pos);
    if (st != LCAN_OK) {
        free(t);
        return st;
    }
    lcan_topo_derive(t);
    make_strings(t);
    *out = t;
    return LCAN_OK;
}

void lcan_topo_free(lcan_topo *t)
{
    free(t);
}
