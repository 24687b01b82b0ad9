/*
 * cmd_recurrence.c - `lcan recurrence D U STAGES [--load P0] [--json]`: p(0..STAGES) of the
 * recurrence p(i+1) = 1 - (1 - p(i)/d)^u (spec 10.2, seed 004 section 5).
 */
#include <stdio.h>
#include <stdlib.h>

#include "tool_util.h"

#define MAX_DU 1000000L
#define MAX_STAGES 100000L

static const char usage[] =
    "usage: lcan recurrence D U STAGES [--load P0] [--json]\n"
    "Prints p(0..STAGES) of p(i+1) = 1 - (1 - p(i)/D)^U (docs/spec.md 10.2).\n"
    "  D, U       downers and uppers per switch, 1..1000000\n"
    "  STAGES     0..100000 (log_D n for an LCAN)\n"
    "  --load P0  p(0), 0..1; default: 1 if D >= U, else (D/U)^STAGES (seed 004)\n"
    "  --json     {\"d\", \"u\", \"stages\", \"load\", \"p\": [p(0), .., p(STAGES)]}\n";

int cmd_recurrence(int argc, char **argv)
{
    const char *pos[3];
    const char *load_txt = NULL;
    long d, u, stages;
    double load = -1.0, *p;
    int json = 0, npos = 0, i, r, opts = 1;

    for (i = 1; i < tool_end_of_options(argc, argv); i++)
        if (tool_is_help(argv[i])) {
            fputs(usage, stdout);
            return TOOL_EXIT_OK;
        }
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (opts && a[0] == '-' && a[1] == '-' && a[2] == '\0') {
            opts = 0;
        } else if (opts && tool_is_option(a)) {
            if ((r = tool_opt_flag("recurrence", a, "--json")) < 0)
                return TOOL_EXIT_USAGE;
            if (r == 1) {
                json = 1;
                continue;
            }
            if ((r = tool_opt_value("recurrence", argc, argv, &i, "--load", &load_txt)) < 0)
                return TOOL_EXIT_USAGE;
            if (r == 0) {
                tool_error("recurrence: unknown option '%s' (try 'lcan recurrence --help')", a);
                return TOOL_EXIT_USAGE;
            }
        } else if (npos < 3) {
            pos[npos++] = a;
        } else {
            tool_error("recurrence: unexpected argument '%s' (expected D U STAGES)", a);
            return TOOL_EXIT_USAGE;
        }
    }
    if (npos < 3) {
        tool_error("recurrence: missing %s (usage: lcan recurrence D U STAGES [--load P0] [--json])",
                   npos == 0 ? "D" : npos == 1 ? "U" : "STAGES");
        return TOOL_EXIT_USAGE;
    }
    if (tool_parse_long("recurrence", "D", pos[0], 1, MAX_DU, &d) != 0 ||
        tool_parse_long("recurrence", "U", pos[1], 1, MAX_DU, &u) != 0 ||
        tool_parse_long("recurrence", "STAGES", pos[2], 0, MAX_STAGES, &stages) != 0)
        return TOOL_EXIT_USAGE;
    if (load_txt != NULL && tool_parse_double("recurrence", "--load", load_txt, 0.0, 1.0, &load) != 0)
        return TOOL_EXIT_USAGE;

    p = malloc(((size_t)stages + 1) * sizeof *p);
    if (p == NULL) {
        tool_error("recurrence: out of memory");
        return TOOL_EXIT_FAIL;
    }
    lcan_recurrence((int)d, (int)u, (int)stages, load, p);
    if (json) {
        printf("{\"d\": %ld, \"u\": %ld, \"stages\": %ld, \"load\": ", d, u, stages);
        lcan_json_double(stdout, p[0]);
        printf(", \"p\": [");
        for (i = 0; i <= stages; i++) {
            if (i > 0)
                printf(", ");
            lcan_json_double(stdout, p[i]);
        }
        printf("]}\n");
    } else {
        printf("# lcan recurrence %ld %ld %ld: p(i+1) = 1 - (1 - p(i)/%ld)^%ld\n", d, u, stages, d, u);
        printf("# i  p(i)\n");
        for (i = 0; i <= stages; i++)
            printf("%d  %.6f\n", i, p[i]);
    }
    free(p);
    return TOOL_EXIT_OK;
}
