/*
 * topo_draw.c - DOT output of a topology and the call of graphviz `dot` (see topo_draw.h).
 * Geometry comes from the model's topology code only (lcan_topo_neighbor, spec 2.3).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "topo_draw.h"

static const char *const level_color[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                          "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
#define N_COLORS (sizeof level_color / sizeof level_color[0])

int draw_check(const lcan_topo *t, char *why, size_t len)
{
    int h = lcan_topo_levels(t), l;
    uint64_t nodes = lcan_topo_leaves(t), links = 0;
    for (l = 1; l <= h; l++) {
        nodes += lcan_topo_switches(t, l);
        links += lcan_topo_links(t, l);
    }
    if (nodes > DRAW_MAX_NODES || links > DRAW_MAX_LINKS) {
        snprintf(why, len, "%s has %llu nodes and %llu links, more than a drawing takes (%d, %d)",
                 lcan_topo_canonical(t), (unsigned long long)nodes, (unsigned long long)links,
                 DRAW_MAX_NODES, DRAW_MAX_LINKS);
        return -1;
    }
    return 0;
}

/* The label (a_h..a_{l+1}; b_l..b_1) of spec 2.2. */
static void switch_label(const lcan_topo *t, int l, uint32_t x, char *buf, size_t len)
{
    int digit[LCAN_MAX_LEVELS + 1], h = lcan_topo_levels(t), j;
    size_t n = 0;
    lcan_topo_switch_label(t, l, x, digit);
    buf[0] = '\0';
    for (j = h; j >= 1 && n < len; j--) {
        const char *sep = j == l ? ";" : (j == h ? "" : ",");
        n += (size_t)snprintf(buf + n, len - n, "%s%d", sep, digit[j]);
    }
}

int draw_dot(FILE *f, const lcan_topo *t, const char *title)
{
    int h = lcan_topo_levels(t), l, j;
    uint32_t n = lcan_topo_leaves(t), x, s;
    char lab[160];

    fprintf(f, "graph lcan {\n");
    fprintf(f, "  graph [rankdir=BT, newrank=true, nodesep=0.08, ranksep=1.2, fontname=\"Helvetica\",\n"
               "         labelloc=t, fontsize=18, label=\"");
    for (; *title; title++) /* a caption with quotes or backslashes escaped */
        fprintf(f, "%s%c", (*title == '"' || *title == '\\') ? "\\" : "", *title);
    fprintf(f, "\"];\n");
    fprintf(f, "  node [fontname=\"Helvetica\", fontsize=9, margin=\"0.02,0.01\", height=0.25];\n");
    fprintf(f, "  edge [penwidth=0.8];\n");
    /* level 0: leaves, in leaf-number order (invisible flat edges fix the order) */
    {
        /* circles wide enough for the largest leaf number */
        int digits = 1;
        uint32_t v;
        for (v = n - 1; v >= 10; v /= 10)
            digits++;
        fprintf(f, "  subgraph level0 {\n    rank=same;\n    node [shape=circle, fixedsize=true, width=%.2f];\n",
                digits <= 2 ? 0.25 : 0.1 + 0.08 * digits);
    }
    for (s = 0; s < n; s++)
        fprintf(f, "    n0_%lu [label=\"%lu\", "
                   "tooltip=\"leaf %lu, packed address 0x%lx\"];\n",
                (unsigned long)s, (unsigned long)s, (unsigned long)s,
                (unsigned long)lcan_topo_pack(t, s));
    for (s = 0; s + 1 < n; s++)
        fprintf(f, "    n0_%lu -- n0_%lu [style=invis];\n", (unsigned long)s, (unsigned long)s + 1);
    fprintf(f, "  }\n");
    for (l = 1; l <= h; l++) {
        uint32_t S = lcan_topo_switches(t, l);
        fprintf(f, "  subgraph level%d {\n    rank=same;\n", l);
        for (x = 0; x < S; x++) {
            switch_label(t, l, x, lab, sizeof lab);
            fprintf(f, "    n%d_%lu [shape=box, style=filled, fillcolor=\"#eeeeee\", label=\"%lu\", "
                       "tooltip=\"level %d switch %lu, label (%s), %d downers, %d uppers\"];\n",
                    l, (unsigned long)x, (unsigned long)x, l, (unsigned long)x, lab,
                    lcan_topo_downers(t, l), lcan_topo_uppers(t, l));
        }
        for (x = 0; x + 1 < S; x++)
            fprintf(f, "    n%d_%lu -- n%d_%lu [style=invis];\n", l, (unsigned long)x, l,
                    (unsigned long)x + 1);
        fprintf(f, "  }\n");
    }
    /* one edge per link, child end first, from each switch's downers (spec 2.3) */
    for (l = 1; l <= h; l++) {
        uint32_t S = lcan_topo_switches(t, l);
        int D = lcan_topo_downers(t, l);
        for (x = 0; x < S; x++)
            for (j = 0; j < D; j++) {
                lcan_end from, to;
                from.level = l;
                from.node = x;
                from.port = j;
                if (lcan_topo_neighbor(t, from, &to) != LCAN_OK)
                    continue;
                fprintf(f, "  n%d_%lu -- n%d_%lu [color=\"%s\", tooltip=\"level-%d switch %lu downer %d "
                           "<-> %s %lu %s %d\"];\n",
                        to.level, (unsigned long)to.node, l, (unsigned long)x,
                        level_color[(l - 1) % N_COLORS], l, (unsigned long)x, j,
                        to.level == 0 ? "leaf" : "switch", (unsigned long)to.node,
                        to.level == 0 ? "port" : "local port", to.port);
            }
    }
    fprintf(f, "}\n");
    return ferror(f) ? -1 : 0;
}

int draw_run_dot(const char *dot_path, const char *svg_path, char *why, size_t len)
{
    int status, fds[2];
    pid_t pid;
    char msg[200];
    ssize_t got = 0;

    if (pipe(fds) != 0) {
        snprintf(why, len, "cannot run graphviz dot: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        snprintf(why, len, "cannot run graphviz dot: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 1);
        }
        dup2(fds[1], 2);
        close(fds[0]);
        execlp("dot", "dot", "-Tsvg", "-o", svg_path, dot_path, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    for (;;) { /* dot's first complaint, for the message */
        ssize_t r = read(fds[0], msg + got, sizeof msg - 1 - (size_t)got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += r;
        if ((size_t)got >= sizeof msg - 1) {
            char sink[256];
            while (read(fds[0], sink, sizeof sink) > 0)
                ;
            break;
        }
    }
    msg[got] = '\0';
    close(fds[0]);
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            snprintf(why, len, "graphviz dot: %s", strerror(errno));
            return -1;
        }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        snprintf(why, len, "graphviz 'dot' not found on PATH (make deps installs it)");
        return -1;
    }
    msg[strcspn(msg, "\n")] = '\0';
    snprintf(why, len, "graphviz dot failed%s%s", msg[0] ? ": " : "", msg);
    return -1;
}
