/*
 * cmd_lockstep.c - `lcan lockstep ...`: hands over to tb/lcan-rtl, which runs the RTL and the
 * model tick by tick and compares every output (spec 13). Only --help is answered here, and only
 * when the script is missing. Every argument, --up-choice uniform|rotate included, is passed to
 * tb/lcan-rtl unchanged.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tool_util.h"

int cmd_lockstep(int argc, char **argv)
{
    char *script = tool_rtl_script();
    int i;
    if (script == NULL) {
        for (i = 1; i < argc; i++)
            if (tool_is_help(argv[i])) {
                printf("usage: lcan lockstep ARGS... [--up-choice uniform|rotate]\n"
                       "Runs the RTL and the C model in lockstep through tb/lcan-rtl, which is not\n"
                       "built yet (run make); its own --help describes ARGS. --up-choice (spec 6,\n"
                       "UP_CHOICE; default uniform) is passed through unchanged, like every argument.\n");
                return TOOL_EXIT_OK;
            }
    }
    free(script);
    return tool_exec_rtl(argc, argv); /* returns only if tb/lcan-rtl cannot be run */
}
