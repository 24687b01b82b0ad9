/*
 * lcan_main.c - the `lcan` command-line tool: dispatch to one subcommand per cmd_*.c file.
 *
 * Adding a subcommand: write cmd_NAME.c with `int cmd_NAME(int argc, char **argv)` (argv[0] =
 * "NAME", conventions in tool_util.h), then add its prototype and one line to the table below.
 */
#include <stdio.h>
#include <string.h>

#include "lcan_version.h"
#include "tool_util.h"

int cmd_info(int argc, char **argv);
int cmd_route(int argc, char **argv);
int cmd_recurrence(int argc, char **argv);
int cmd_lockstep(int argc, char **argv);
int cmd_collective(int argc, char **argv);
int cmd_traffic(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_draw(int argc, char **argv);
int cmd_embed(int argc, char **argv);
int cmd_paths(int argc, char **argv);
int cmd_faults(int argc, char **argv);

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} tool_cmd;

static const tool_cmd commands[] = {
    {"info", cmd_info, "counts, distances and forms of a network (spec 1-2)"},
    {"route", cmd_route, "route permutations pass by pass, first-pass statistics (spec 7.5, 10)"},
    {"recurrence", cmd_recurrence, "the throughput recurrence p(0..stages) (spec 10.2)"},
    {"lockstep", cmd_lockstep, "run RTL and model in lockstep (tb/lcan-rtl)"},
    {"collective", cmd_collective, "collective operations in packet mode vs the papers (docs/collectives.md)"},
    {"traffic", cmd_traffic, "open-loop traffic: latency and throughput vs load (docs/traffic.md)"},
    {"gen", cmd_gen, "generate a network to instantiate: Verilog top, FuseSoC core, JSON, SVG (docs/generator.md)"},
    {"draw", cmd_draw, "draw a network's topology with graphviz (SVG or DOT)"},
    {"paths", cmd_paths, "node-disjoint paths between two leaves, node connectivity (spec 2.5)"},
    {"faults", cmd_faults, "a fault set: elements and ports off, cut pairs, seed 002's guarantee (spec 14)"},
    {"embed", cmd_embed, "embed rings, meshes, tori, hypercubes, trees, pyramids: load, dilation, congestion (docs/embeddings.md)"},
};

#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    size_t k;
    fprintf(f, "usage: lcan COMMAND [ARGS] [--help]\n\ncommands:\n");
    for (k = 0; k < N_COMMANDS; k++)
        fprintf(f, "  %-12s %s\n", commands[k].name, commands[k].summary);
    fprintf(f, "\nSPEC is a network: cm5, lcan(d,u,n), gft(h,m,w), kary(k,n), xgft(h;m..;w..),\n"
               "bft(h;c..), pgft(h;m..;w..[;p..]) (docs/spec.md section 1.3).\n"
               "'lcan COMMAND --help' describes one command; 'lcan --version' prints the version.\nExit status: 0 ok, 1 failure, 2 bad input.\n");
}

static int dispatch(int argc, char **argv)
{
    size_t k;
    if (argc < 2) {
        tool_error("missing command (try 'lcan --help')");
        return TOOL_EXIT_USAGE;
    }
    if (tool_is_help(argv[1])) {
        usage(stdout);
        return TOOL_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("lcan %s\n", LCAN_VERSION);
        return TOOL_EXIT_OK;
    }
    if (strcmp(argv[1], "help") == 0) {
        if (argc == 2) {
            usage(stdout);
            return TOOL_EXIT_OK;
        }
        for (k = 0; k < N_COMMANDS; k++)
            if (strcmp(argv[2], commands[k].name) == 0) {
                char help[] = "--help";
                char *hargv[3];
                hargv[0] = argv[2];
                hargv[1] = help;
                hargv[2] = NULL;
                return commands[k].run(2, hargv);
            }
        tool_error("help: unknown command '%s' (try 'lcan --help')", argv[2]);
        return TOOL_EXIT_USAGE;
    }
    for (k = 0; k < N_COMMANDS; k++)
        if (strcmp(argv[1], commands[k].name) == 0)
            return commands[k].run(argc - 1, argv + 1);
    if (tool_is_option(argv[1]))
        tool_error("unknown option '%s' (try 'lcan --help')", argv[1]);
    else
        tool_error("unknown command '%s' (try 'lcan --help')", argv[1]);
    return TOOL_EXIT_USAGE;
}

/* Every write to stdout is checked at the end (tool_finish): a lost output is exit 1, one line. */
int main(int argc, char **argv)
{
    return tool_finish(dispatch(argc, argv));
}
