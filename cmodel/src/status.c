/*
 * status.c - lcan_strerror: one short English phrase per status code (lcan.h); lcan_fail, a status
 * with its message (status.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "lcan.h"
#include "status.h"

const char *lcan_strerror(lcan_status st)
{
    switch (st) {
    case LCAN_OK:          return "ok";
    case LCAN_ERR_PARSE:   return "spec string does not parse";
    case LCAN_ERR_PARAM:   return "spec violates a rule or limit";
    case LCAN_ERR_ARG:     return "bad argument";
    case LCAN_ERR_NOMEM:   return "out of memory";
    case LCAN_ERR_IO:      return "file could not be read";
    case LCAN_ERR_PATTERN: return "pattern unknown or not applicable";
    case LCAN_ERR_STALL:   return "routing did not finish within the pass limit";
    }
    return "unknown status";
}

lcan_status lcan_fail(char *err, size_t errlen, lcan_status st, const char *fmt, ...)
{
    va_list ap;
    if (err != NULL && errlen > 0) {
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return st;
}
