/*
 * check.h - the tiny check harness shared by the model's test programs: each failed check prints
 * one line; check_done() prints "NAME: N passed, N failed" and gives the exit status.
 */
#ifndef LCAN_TEST_CHECK_H
#define LCAN_TEST_CHECK_H

#include <stdarg.h>
#include <stdio.h>

typedef struct { const char *name; long pass, fail; } check_ctx;

static inline void check(check_ctx *c, int ok, const char *fmt, ...)
{
    va_list ap;
    if (ok) {
        c->pass++;
        return;
    }
    c->fail++;
    if (c->fail > 200)
        return; /* keep the output readable */
    printf("%s: FAIL: ", c->name);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

static inline int check_done(const check_ctx *c)
{
    printf("%s: %ld passed, %ld failed\n", c->name, c->pass, c->fail);
    return c->fail == 0 ? 0 : 1;
}

/* splitmix64, written here so tests do not depend on the library's generator */
static inline unsigned long long test_rng(unsigned long long *s)
{
    unsigned long long z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#endif
