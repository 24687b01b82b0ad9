/*
 * json.h - the JSON value printers every JSON output of the project uses (the lcan tool, the
 * study and collective printers of the library, the lockstep harness), so that one engine's
 * output can be compared with another's byte for byte.
 */
#ifndef LCAN_JSON_H
#define LCAN_JSON_H

#include <stdint.h>
#include <stdio.h>

/* A JSON string: '"' and '\\' escaped, control characters as \u00XX. */
void lcan_json_string(FILE *f, const char *s);
/* The shortest of %.15g..%.17g that reads back exactly; null for NaN and infinities. */
void lcan_json_double(FILE *f, double x);
/* A count, or null when negative ("none"). */
void lcan_json_i64(FILE *f, int64_t x);
/* A list of n ints: [v[0], v[1], ..]. */
void lcan_json_ints(FILE *f, const int *v, int n);

#endif
