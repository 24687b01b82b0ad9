/*
 * cmd_gen.c - `lcan gen SPEC ... -o DIR`: a network ready to drop into a design (docs/generator.md):
 *   DIR/N.v     a named top module with one valid/flit/ready group per leaf around lcan_network;
 *   DIR/N.core  a FuseSoC CAPI2 core (targets lint, sim, synth) whose rtl fileset is DIR/rtl/,
 *               a copy of the project's rtl/ files (those of rtl/lcan_network.f and the include
 *               files rtl/NAME.vh: the geometry functions, rtl/lcan_geom.vh), so DIR stands alone;
 *   DIR/N.json  the geometry and address map (spec 1-2), from the model's topology code;
 *   DIR/N.svg   the topology drawn by graphviz dot (topo_draw.c).
 * and `lcan draw SPEC -o FILE.svg|FILE.dot`, the drawing alone.
 * Every file is written to a temporary name beside its final one and renamed into place only
 * when all of them were written; on any error the temporaries (and directories this run created)
 * are removed, so a failed run leaves nothing behind.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "lcan_faults.h"
#include "lcan_version.h"
#include "tool_util.h"
#include "topo_draw.h"

#define MAX_OUT 64
#define MAX_NAME 64
#define GEN_MAX_PORTS 4096

static const char gen_usage[] =
    "usage: lcan gen SPEC [--mode circuit|packet] [--payload-w B] [--depth D] [--name N] [--no-debug]\n"
    "                [--unicast-only] [--seed S] -o DIR\n"
    "Writes a network ready to instantiate (docs/generator.md):\n"
    "  DIR/N.v     module N: clk, rst, seed and per leaf s one group leaf<s>_inj_valid/_inj_flit/\n"
    "              _inj_ready, leaf<s>_ej_valid/_ej_flit (+ clear, _inj_ack, _ej_ack in circuit\n"
    "              mode), around lcan_network with its packed parameters (docs/spec.md 13)\n"
    "  DIR/N.core  FuseSoC CAPI2 core, targets lint (verilator), sim (icarus), synth (yosys, ice40)\n"
    "  DIR/rtl/    a copy of the project's rtl/ sources (the core's fileset)\n"
    "  DIR/N.json  geometry and address map (spec 1-2)\n"
    "  DIR/N.svg   the topology (graphviz dot; lcan draw)\n"
    "  --mode       packet (default) or circuit switching (spec 7, 8)\n"
    "  --payload-w  payload bits per flit, 1..32 (default 16)\n"
    "  --depth      packet-mode FIFO depth, 1..255 (default 4)\n"
    "  --name       the module and file name, a Verilog identifier (default lcan_net)\n"
    "  --no-debug   no counters and debug view: lcan_network's OBSERVE = 0 (no cnt_*/dbg ports)\n"
    "  --unicast-only  packet-mode switches for unicast traffic only: UNICAST_ONLY = 1, the bcast\n"
    "               and head bits are not interpreted (smaller and faster; docs/spec.md 8.8)\n"
    "  --seed       the LFSR seed fixed at S, 0..4294967295 (no seed port): lcan_network's\n"
    "               FIXED_SEED = 1, SEED = S, PIN_STRAPS = 1, each switch specialized to its place\n"
    "               (smaller and faster in synthesis; the same behaviour as seed input S)\n"
    "DIR is created if missing (its parent must exist). Networks of up to 4096 ports.\n";

static const char draw_usage[] =
    "usage: lcan draw SPEC -o FILE\n"
    "Draws the topology with graphviz dot: levels as ranks (leaves at the bottom), one edge per link\n"
    "(parallel links visible), edges coloured by level. FILE ending in .dot gets the DOT source,\n"
    "anything else SVG.\n";

/* ------------------------------------------------------------------ all-or-nothing output */

typedef struct {
    char *tmp[MAX_OUT], *final[MAX_OUT];
    int n;
    char *made_dir[2];
    int n_dirs;
} out_set;

static char *str_cat3(const char *a, const char *b, const char *c)
{
    size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
    char *s = malloc(la + lb + lc + 1);
    if (s != NULL) {
        memcpy(s, a, la);
        memcpy(s + la, b, lb);
        memcpy(s + la + lb, c, lc + 1);
    }
    return s;
}

/* Creates dir unless it exists; 0, or -1 after one line. */
static int make_dir(const char *cmd, out_set *o, const char *dir)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return 0;
        tool_error("%s: '%s' is not a directory", cmd, dir);
        return -1;
    }
    if (mkdir(dir, 0777) != 0) {
        tool_error("%s: cannot create directory '%s': %s", cmd, dir, strerror(errno));
        return -1;
    }
    o->made_dir[o->n_dirs++] = str_cat3(dir, "", "");
    return 0;
}

/* Opens a temporary file for final path `path` (dir/.base.PID.tmp). NULL after one line. The
 * temporary is registered at once so that an abort removes it. */
static FILE *open_out(const char *cmd, out_set *o, const char *path)
{
    const char *slash = strrchr(path, '/');
    char pid[32], *tmp;
    size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
    int fd;
    FILE *f;

    if (o->n >= MAX_OUT) {
        tool_error("%s: too many output files", cmd);
        return NULL;
    }
    snprintf(pid, sizeof pid, ".%ld.tmp", (long)getpid());
    tmp = malloc(strlen(path) + strlen(pid) + 2);
    if (tmp == NULL) {
        tool_error("%s: out of memory", cmd);
        return NULL;
    }
    memcpy(tmp, path, dl);
    tmp[dl] = '.';
    strcpy(tmp + dl + 1, path + dl);
    strcat(tmp, pid);
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) {
        tool_error("%s: cannot write '%s': %s", cmd, path, strerror(errno));
        free(tmp);
        return NULL;
    }
    o->tmp[o->n] = tmp;
    o->final[o->n] = str_cat3(path, "", "");
    o->n++;
    if (o->final[o->n - 1] == NULL) {
        close(fd);
        tool_error("%s: out of memory", cmd);
        return NULL;
    }
    f = fdopen(fd, "w");
    if (f == NULL) {
        close(fd);
        tool_error("%s: cannot write '%s': %s", cmd, path, strerror(errno));
    }
    return f;
}

/* fclose with a check: 0, or -1 after one line. */
static int close_out(const char *cmd, FILE *f, const char *path)
{
    int bad = ferror(f);
    if (fclose(f) != 0)
        bad = 1;
    if (bad) {
        tool_error("%s: cannot write '%s': %s", cmd, path, errno ? strerror(errno) : "write error");
        return -1;
    }
    return 0;
}

static void out_free(out_set *o)
{
    int k;
    for (k = 0; k < o->n; k++) {
        free(o->tmp[k]);
        free(o->final[k]);
    }
    for (k = 0; k < o->n_dirs; k++)
        free(o->made_dir[k]);
    o->n = o->n_dirs = 0;
}

static void out_abort(out_set *o)
{
    int k;
    for (k = 0; k < o->n; k++)
        if (o->tmp[k] != NULL) /* NULL: a scratch file already removed */
            unlink(o->tmp[k]);
    for (k = o->n_dirs - 1; k >= 0; k--)
        if (o->made_dir[k] != NULL)
            rmdir(o->made_dir[k]);
    out_free(o);
}

/* Renames every temporary into place: 0, or -1 after one line (what was renamed stays). */
static int out_commit(const char *cmd, out_set *o)
{
    int k;
    for (k = 0; k < o->n; k++)
        if (o->tmp[k] != NULL && rename(o->tmp[k], o->final[k]) != 0) {
            tool_error("%s: cannot rename into '%s': %s", cmd, o->final[k], strerror(errno));
            for (; k < o->n; k++)
                if (o->tmp[k] != NULL)
                    unlink(o->tmp[k]);
            out_free(o);
            return -1;
        }
    out_free(o);
    return 0;
}

/* Marks the temporary of `path` as scratch (removed, not renamed), e.g. the DOT source. */
static void out_scratch(out_set *o, const char *path)
{
    int k;
    for (k = 0; k < o->n; k++)
        if (strcmp(o->final[k], path) == 0 && o->tmp[k] != NULL) {
            unlink(o->tmp[k]);
            free(o->tmp[k]);
            o->tmp[k] = NULL;
        }
}

static const char *tmp_of(const out_set *o, const char *path)
{
    int k;
    for (k = 0; k < o->n; k++)
        if (strcmp(o->final[k], path) == 0)
            return o->tmp[k];
    return NULL;
}

/* ------------------------------------------------------------------ the drawing */

/* Writes the SVG of t to `path` through a scratch DOT file: 0, 1 (run-time failure: dot) or 2. */
static int write_svg(const char *cmd, out_set *o, const lcan_topo *t, const char *path, const char *title)
{
    char *dot_path = str_cat3(path, ".dot", ""), why[300];
    FILE *f;
    int rc = 0;
    if (dot_path == NULL) {
        tool_error("%s: out of memory", cmd);
        return 1;
    }
    if ((f = open_out(cmd, o, dot_path)) == NULL) {
        free(dot_path);
        return 2;
    }
    draw_dot(f, t, title);
    if (close_out(cmd, f, dot_path) != 0) {
        free(dot_path);
        return 1;
    }
    if ((f = open_out(cmd, o, path)) == NULL) {
        free(dot_path);
        return 2;
    }
    fclose(f);
    if (draw_run_dot(tmp_of(o, dot_path), tmp_of(o, path), why, sizeof why) != 0) {
        tool_error("%s: %s", cmd, why);
        rc = 1;
    }
    out_scratch(o, dot_path);
    free(dot_path);
    return rc;
}

/* ------------------------------------------------------------------ arguments */

/* The command line as one shell-quoted string (control characters shown as '?'). */
static void command_line(int argc, char **argv, char *buf, size_t len)
{
    size_t n = 0;
    int i;
    n += (size_t)snprintf(buf, len, "lcan");
    for (i = 0; i < argc && n + 8 < len; i++) {
        const char *a = argv[i], *c;
        int plain = a[0] != '\0';
        for (c = a; *c; c++)
            if (!(*c == '_' || *c == '-' || *c == '.' || *c == '/' || *c == '=' || *c == ',' ||
                  (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
                plain = 0;
        buf[n++] = ' ';
        if (!plain)
            buf[n++] = '\'';
        for (c = a; *c && n + 6 < len; c++) {
            if (*c == '\'') {
                memcpy(buf + n, "'\\''", 4);
                n += 4;
            } else {
                buf[n++] = (unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c;
            }
        }
        if (!plain)
            buf[n++] = '\'';
        buf[n] = '\0';
    }
}

static const char *const keywords[] = {
    /* Verilog-2005 */
    "always",
    "and",
    "assign",
    "automatic",
    "begin",
    "buf",
    "bufif0",
    "bufif1",
    "case",
    "casex",
    "casez",
    "cell",
    "cmos",
    "config",
    "deassign",
    "default",
    "defparam",
    "design",
    "disable",
    "edge",
    "else",
    "end",
    "endcase",
    "endconfig",
    "endfunction",
    "endgenerate",
    "endmodule",
    "endprimitive",
    "endspecify",
    "endtable",
    "endtask",
    "event",
    "for",
    "force",
    "forever",
    "fork",
    "function",
    "generate",
    "genvar",
    "highz0",
    "highz1",
    "if",
    "ifnone",
    "incdir",
    "include",
    "initial",
    "inout",
    "input",
    "instance",
    "integer",
    "join",
    "large",
    "liblist",
    "library",
    "localparam",
    "macromodule",
    "medium",
    "module",
    "nand",
    "negedge",
    "nmos",
    "nor",
    "noshowcancelled",
    "not",
    "notif0",
    "notif1",
    "or",
    "output",
    "parameter",
    "pmos",
    "posedge",
    "primitive",
    "pull0",
    "pull1",
    "pulldown",
    "pullup",
    "pulsestyle_onevent",
    "pulsestyle_ondetect",
    "rcmos",
    "real",
    "realtime",
    "reg",
    "release",
    "repeat",
    "rnmos",
    "rpmos",
    "rtran",
    "rtranif0",
    "rtranif1",
    "scalared",
    "showcancelled",
    "signed",
    "small",
    "specify",
    "specparam",
    "strong0",
    "strong1",
    "supply0",
    "supply1",
    "table",
    "task",
    "time",
    "tran",
    "tranif0",
    "tranif1",
    "tri",
    "tri0",
    "tri1",
    "triand",
    "trior",
    "trireg",
    "unsigned",
    "use",
    "uwire",
    "vectored",
    "wait",
    "wand",
    "weak0",
    "weak1",
    "while",
    "wire",
    "wor",
    "xnor",
    "xor",
    /* SystemVerilog (Verilator reads .v files as SystemVerilog by default) */
    "alias",
    "always_comb",
    "always_ff",
    "always_latch",
    "assert",
    "assume",
    "before",
    "bind",
    "bins",
    "binsof",
    "bit",
    "break",
    "byte",
    "chandle",
    "checker",
    "class",
    "clocking",
    "const",
    "constraint",
    "context",
    "continue",
    "cover",
    "covergroup",
    "coverpoint",
    "cross",
    "dist",
    "do",
    "endchecker",
    "endclass",
    "endclocking",
    "endgroup",
    "endinterface",
    "endpackage",
    "endprogram",
    "endproperty",
    "endsequence",
    "enum",
    "expect",
    "export",
    "extends",
    "extern",
    "final",
    "first_match",
    "foreach",
    "forkjoin",
    "global",
    "iff",
    "ignore_bins",
    "illegal_bins",
    "implements",
    "implies",
    "import",
    "inside",
    "int",
    "interconnect",
    "interface",
    "intersect",
    "join_any",
    "join_none",
    "let",
    "local",
    "logic",
    "longint",
    "matches",
    "modport",
    "nettype",
    "new",
    "null",
    "package",
    "packed",
    "priority",
    "program",
    "property",
    "protected",
    "pure",
    "rand",
    "randc",
    "randcase",
    "randsequence",
    "ref",
    "restrict",
    "return",
    "sequence",
    "shortint",
    "shortreal",
    "solve",
    "static",
    "string",
    "struct",
    "super",
    "tagged",
    "this",
    "throughout",
    "timeprecision",
    "timeunit",
    "type",
    "typedef",
    "union",
    "unique",
    "unique0",
    "var",
    "virtual",
    "void",
    "wait_order",
    "wildcard",
    "with",
    "within",
    "soft",
    "accept_on",
    "reject_on",
    "sync_accept_on",
    "sync_reject_on",
    "eventually",
    "nexttime",
    "s_always",
    "s_eventually",
    "s_nexttime",
    "s_until",
    "s_until_with",
    "strong",
    "until",
    "until_with",
    "untyped",
    "weak",
};

/* 0 if name is a plain Verilog identifier usable as a module and file name; else -1 after one
 * line. */
static int check_name(const char *name)
{
    size_t k, n = strlen(name);
    if (n == 0 || n > MAX_NAME) {
        tool_error("gen: bad --name '%s': a Verilog identifier of 1..%d characters is needed", name, MAX_NAME);
        return -1;
    }
    for (k = 0; k < n; k++) {
        char c = name[k];
        int alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!(alpha || (k > 0 && c >= '0' && c <= '9'))) {
            tool_error("gen: bad --name '%s': not a Verilog identifier (letters, digits, '_', not "
                       "starting with a digit)",
                       name);
            return -1;
        }
    }
    for (k = 0; k < sizeof keywords / sizeof keywords[0]; k++)
        if (strcmp(name, keywords[k]) == 0) {
            tool_error("gen: bad --name '%s': a Verilog keyword", name);
            return -1;
        }
    return 0;
}

/* ------------------------------------------------------------------ the project's rtl/ */

/* The repository root: the parent (build/lcan) or grandparent (build/san/lcan) of the binary's
 * directory that holds rtl/lcan_network.f. malloc'd, or NULL. */
static char *repo_root(void)
{
    char exe[4096], *slash;
    ssize_t got = readlink("/proc/self/exe", exe, sizeof exe - 1);
    int up;
    if (got <= 0)
        return NULL;
    exe[got] = '\0';
    for (up = 0; up <= 2; up++) {
        char *f;
        if ((slash = strrchr(exe, '/')) == NULL)
            return NULL;
        *slash = '\0';
        if (up == 0)
            continue;
        f = str_cat3(exe, "/rtl/lcan_network.f", "");
        if (f != NULL && access(f, R_OK) == 0) {
            free(f);
            return str_cat3(exe, "", "");
        }
        free(f);
    }
    return NULL;
}

typedef struct {
    char path[64][256]; /* as listed, relative to the repository root; then rtl/NAME.vh */
    int inc[64];        /* 1: an include file (rtl/NAME.vh), not a compilation unit */
    int n;
} rtl_list;

/* Adds the include files rtl/NAME.vh (not listed in rtl/lcan_network.f: they are `included by the
 * modules), sorted by name. 0, or -1 if rtl/ cannot be read. */
static int read_rtl_includes(const char *root, rtl_list *r)
{
    char *dpath = str_cat3(root, "/rtl", "");
    DIR *d = dpath ? opendir(dpath) : NULL;
    struct dirent *e;
    int first = r->n, k;
    free(dpath);
    if (d == NULL)
        return -1;
    while ((e = readdir(d)) != NULL && r->n < 64) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".vh") != 0 || len + 4 >= sizeof r->path[0])
            continue;
        for (k = r->n; k > first && strcmp(r->path[k - 1] + 4, e->d_name) > 0; k--) {
            strcpy(r->path[k], r->path[k - 1]);
            r->inc[k] = 1;
        }
        snprintf(r->path[k], sizeof r->path[k], "rtl/%s", e->d_name);
        r->inc[k] = 1;
        r->n++;
    }
    closedir(d);
    return 0;
}

static int read_rtl_list(const char *root, rtl_list *r)
{
    char *fpath = str_cat3(root, "/rtl/lcan_network.f", ""), line[512];
    FILE *f = fpath ? fopen(fpath, "r") : NULL;
    free(fpath);
    r->n = 0;
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f) != NULL && r->n < 64) {
        char *s = line, *e;
        while (*s == ' ' || *s == '\t')
            s++;
        e = s + strcspn(s, " \t\r\n");
        *e = '\0';
        if (*s == '\0' || *s == '#' || (s[0] == '/' && s[1] == '/') || *s == '+' || *s == '-')
            continue;
        if (strlen(s) >= sizeof r->path[0])
            continue;
        r->inc[r->n] = 0;
        strcpy(r->path[r->n++], s);
    }
    fclose(f);
    return r->n > 0 ? read_rtl_includes(root, r) : -1;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Copies root/rel to dst through the out set: 0, 1 (read error) or 2 (write error). */
static int copy_file(out_set *o, const char *root, const char *rel, const char *dst)
{
    char *src = str_cat3(root, "/", rel), buf[8192];
    FILE *in = src ? fopen(src, "rb") : NULL, *out;
    size_t got;
    if (in == NULL) {
        tool_error("gen: cannot read '%s': %s", src ? src : rel, strerror(errno));
        free(src);
        return 1;
    }
    if ((out = open_out("gen", o, dst)) == NULL) {
        fclose(in);
        free(src);
        return 2;
    }
    while ((got = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, got, out);
    if (ferror(in)) {
        tool_error("gen: cannot read '%s'", src);
        fclose(in);
        fclose(out);
        free(src);
        return 1;
    }
    fclose(in);
    free(src);
    return close_out("gen", out, dst) == 0 ? 0 : 1;
}

/* ------------------------------------------------------------------ generated files */

typedef struct {
    const lcan_topo *t;
    const char *name, *cmdline;
    int packet, payload_w, depth, debug;
    int fixed_seed; /* 1: --seed: FIXED_SEED = 1, SEED = seed, PIN_STRAPS = 1, no seed port */
    int unicast_only; /* 1: --unicast-only: UNICAST_ONLY = 1 (packet mode, spec 8.8) */
    uint32_t seed;
    int h, u0, addr_w, fw;
    uint32_t n, np;
    uint64_t dbg_bytes, switches;
} gen_cfg;

static void packed_vec(FILE *f, const gen_cfg *g, int (*get)(const lcan_topo *, int))
{
    int l;
    fputc('{', f);
    for (l = g->h; l >= 1; l--)
        fprintf(f, "%s32'd%d", l < g->h ? ", " : "", get(g->t, l));
    fputc('}', f);
}

static void write_verilog(FILE *f, const gen_cfg *g)
{
    const char *nm = g->name;
    int pw = g->payload_w, aw = g->addr_w, u0 = g->u0, l;
    uint32_t s;
    char wv[32], wf[32], hv[32], hf[32]; /* declaration widths; the same for the header comment */

    if (u0 == 1)
        wv[0] = '\0';
    else
        snprintf(wv, sizeof wv, "[%d:0] ", u0 - 1);
    snprintf(wf, sizeof wf, "[%d:0] ", u0 * g->fw - 1);
    if (u0 == 1)
        snprintf(hv, sizeof hv, "(1 bit)");
    else
        snprintf(hv, sizeof hv, "[%d:0]", u0 - 1);
    snprintf(hf, sizeof hf, "[%d:0]", u0 * g->fw - 1);

    fprintf(f, "// %s: a fat-tree network generated by lcan gen (lcan %s). Do not edit: regenerate.\n", nm,
            LCAN_VERSION);
    fprintf(f, "//   %s\n", g->cmdline);
    fprintf(f, "// Network %s = %s, %s mode, PAYLOAD_W %d", lcan_topo_canonical(g->t), lcan_topo_pgft(g->t),
            g->packet ? "packet" : "circuit", pw);
    if (g->packet)
        fprintf(f, ", DEPTH %d", g->depth);
    fprintf(f, ":\n// %lu leaves, %d port%s per leaf, %lu network ports, %d switch levels, %llu switches.\n",
            (unsigned long)g->n, u0, u0 > 1 ? "s" : "", (unsigned long)g->np, g->h,
            (unsigned long long)g->switches);
    fprintf(f, "// It is lcan_network (docs/spec.md section 13) with its packed parameters filled in and one\n"
               "// port group per leaf s:\n");
    fprintf(f, "//   leaf<s>_inj_valid %s, leaf<s>_inj_flit %s, leaf<s>_inj_ready %s (in, in, out)\n", hv, hf, hv);
    fprintf(f, "//   leaf<s>_ej_valid %s, leaf<s>_ej_flit %s (out)\n", hv, hf);
    if (!g->packet)
        fprintf(f, "//   leaf<s>_inj_ack %s (out), leaf<s>_ej_ack %s (in): circuit acks (spec 7.3)\n", hv, hv);
    if (u0 > 1)
        fprintf(f, "// Bit k of a leaf's group (flit bits [k*%d +: %d]) is its leaf port k = y*%d + j: towards\n"
                   "// level-1 parent y over parallel link j; network port s*%d + k (spec 2.3).\n",
                g->fw, g->fw, lcan_topo_p(g->t, 1), u0);
    fprintf(f, "// Flit (%d bits, spec 3): [%d:0] payload, [%d:%d] dest (packed address), [%d] bcast, [%d] head.\n",
            g->fw, pw - 1, pw + aw - 1, pw, pw + aw, pw + aw + 1);
    fprintf(f, "// Packed address of leaf s = a_1 + m_1*(a_2 + ...) (spec 2.1): digit a_l in bits\n//  ");
    for (l = 1; l <= g->h; l++) {
        int o = lcan_topo_field_offset(g->t, l), b = lcan_topo_field_width(g->t, l);
        fprintf(f, "%s [%d:%d]", l > 1 ? "," : "", o + b - 1, o);
    }
    fprintf(f, " (level 1..%d)%s.\n", g->h,
            lcan_topo_pack(g->t, g->n - 1) == g->n - 1 ? "; here it equals the leaf number" : "");
    if (g->fixed_seed)
        fprintf(f, "// clk: rising edge. rst: synchronous, active high; the switches' LFSRs load their values\n"
                   "// of seed %lu while rst is 1 (spec 5).\n", (unsigned long)g->seed);
    else
        fprintf(f, "// clk: rising edge. rst: synchronous, active high; seed is the switches' LFSR seed, sampled\n"
                   "// while rst is 1 (spec 5).\n");
    if (g->packet)
        fprintf(f, "// Packet mode (spec 8): a flit enters on a tick with inj_valid && inj_ready (credit-based;\n"
                   "// hold it while ready is 0). head is ignored; bcast = 1 sends a broadcast on tree\n"
                   "// dest (inject on leaf port dest*p_1, spec 8.5). ej has no ready: the leaf takes every\n"
                   "// flit. A unicast injected at tick t into an idle network with LCA level L (spec 4) is on\n"
                   "// ej as an output of tick t + 2L - 1.\n");
    else
        fprintf(f, "// Circuit mode (spec 7): inj_ready is 1; a header (head = 1) sets up a circuit or is\n"
                   "// dropped, data flits (head = 0) follow it, clear releases every circuit; the\n"
                   "// destination's ej_ack comes back on inj_ack. A header injected at tick t with LCA\n"
                   "// level L is on ej as an output of tick t + 2L - 1.\n");
    if (g->debug)
        fprintf(f, "// cnt_up, cnt_down, cnt_drop: per-level event counters, level l at [(l-1)*32 +: 32];\n"
                   "// dbg: the debug view, %llu bytes (spec 9).\n",
                (unsigned long long)g->dbg_bytes);
    else
        fprintf(f, "// Generated with --no-debug: lcan_network's OBSERVE = 0, no counters and no debug view.\n");
    if (g->unicast_only)
        fprintf(f, "// Generated with --unicast-only: UNICAST_ONLY = 1, the switches do not interpret the bcast\n"
                   "// and head bits (every packet is a unicast to its dest, docs/spec.md 8.8).\n");
    if (g->fixed_seed)
        fprintf(f, "// Generated with --seed %lu: the LFSR seed is fixed (FIXED_SEED = 1, no seed port) and every\n"
                   "// switch is specialized to its place (PIN_STRAPS = 1), for synthesis (docs/spec.md 13).\n",
                (unsigned long)g->seed);
    fprintf(f, "`default_nettype none\n\nmodule %s (\n", nm);
    fprintf(f, "    input  wire clk,\n    input  wire rst");
    if (!g->fixed_seed)
        fprintf(f, ",\n    input  wire [31:0] seed");
    if (!g->packet)
        fprintf(f, ",\n    input  wire clear");
    for (s = 0; s < g->n; s++) {
        fprintf(f, ",\n    // leaf %lu: network port%s %lu", (unsigned long)s, u0 > 1 ? "s" : "",
                (unsigned long)s * u0);
        if (u0 > 1)
            fprintf(f, "..%lu", (unsigned long)s * u0 + u0 - 1);
        fprintf(f, ", address 0x%lx\n", (unsigned long)lcan_topo_pack(g->t, s));
        fprintf(f, "    input  wire %sleaf%lu_inj_valid,\n", wv, (unsigned long)s);
        fprintf(f, "    input  wire %sleaf%lu_inj_flit,\n", wf, (unsigned long)s);
        fprintf(f, "    output wire %sleaf%lu_inj_ready,\n", wv, (unsigned long)s);
        if (!g->packet)
            fprintf(f, "    output wire %sleaf%lu_inj_ack,\n", wv, (unsigned long)s);
        fprintf(f, "    output wire %sleaf%lu_ej_valid,\n", wv, (unsigned long)s);
        fprintf(f, "    output wire %sleaf%lu_ej_flit", wf, (unsigned long)s);
        if (!g->packet)
            fprintf(f, ",\n    input  wire %sleaf%lu_ej_ack", wv, (unsigned long)s);
    }
    if (g->debug)
        fprintf(f, ",\n    // observation (spec 9)\n    output wire [%d:0] cnt_up,\n    output wire [%d:0] cnt_down,\n"
                   "    output wire [%d:0] cnt_drop,\n    output wire [%llu:0] dbg",
                g->h * 32 - 1, g->h * 32 - 1, g->h * 32 - 1, (unsigned long long)g->dbg_bytes * 8 - 1);
    fprintf(f, "\n);\n");
    fprintf(f, "    // network ports NP = N*U0, flit width FW = 2 + ADDR_W + PAYLOAD_W\n");
    fprintf(f, "    localparam NP = %lu;\n    localparam FW = %d;\n\n", (unsigned long)g->np, g->fw);
    fprintf(f, "    wire [NP-1:0]    inj_valid;\n    wire [NP*FW-1:0] inj_flit;\n    wire [NP-1:0]    inj_ready;\n"
               "    wire [NP-1:0]    ej_valid;\n    wire [NP*FW-1:0] ej_flit;\n");
    if (!g->packet)
        fprintf(f, "    wire [NP-1:0]    inj_ack;\n    wire [NP-1:0]    ej_ack;\n");
    else
        fprintf(f, "    // packet mode: no acks (spec 8.4); inj_ack is constant 0\n"
                   "    wire [NP-1:0]    unused_inj_ack;\n");
    if (!g->debug)
        fprintf(f, "    // --no-debug: counters and debug view not brought out\n"
                   "    wire [%d:0] unused_cnt_up;\n    wire [%d:0] unused_cnt_down;\n    wire [%d:0] unused_cnt_drop;\n"
                   "    wire [%llu:0] unused_dbg;\n",
                g->h * 32 - 1, g->h * 32 - 1, g->h * 32 - 1, (unsigned long long)g->dbg_bytes * 8 - 1);
    fprintf(f, "\n");
    for (s = 0; s < g->n; s++) {
        unsigned long q = (unsigned long)s * u0;
        fprintf(f, "    assign inj_valid[%lu +: %d] = leaf%lu_inj_valid;\n", q, u0, (unsigned long)s);
        fprintf(f, "    assign inj_flit[%lu*FW +: %d*FW] = leaf%lu_inj_flit;\n", q, u0, (unsigned long)s);
        fprintf(f, "    assign leaf%lu_inj_ready = inj_ready[%lu +: %d];\n", (unsigned long)s, q, u0);
        fprintf(f, "    assign leaf%lu_ej_valid = ej_valid[%lu +: %d];\n", (unsigned long)s, q, u0);
        fprintf(f, "    assign leaf%lu_ej_flit = ej_flit[%lu*FW +: %d*FW];\n", (unsigned long)s, q, u0);
        if (!g->packet) {
            fprintf(f, "    assign leaf%lu_inj_ack = inj_ack[%lu +: %d];\n", (unsigned long)s, q, u0);
            fprintf(f, "    assign ej_ack[%lu +: %d] = leaf%lu_ej_ack;\n", q, u0, (unsigned long)s);
        }
    }
    fprintf(f, "\n    lcan_network #(\n        .H(%d),\n        .M(", g->h);
    packed_vec(f, g, lcan_topo_m);
    fprintf(f, "),\n        .W(");
    packed_vec(f, g, lcan_topo_w);
    fprintf(f, "),\n        .P(");
    packed_vec(f, g, lcan_topo_p);
    fprintf(f, "),\n        .MODE(%d),\n        .PAYLOAD_W(%d),\n        .DEPTH(%d),\n        .OBSERVE(%d)",
            g->packet, pw, g->depth, g->debug);
    if (g->unicast_only)
        fprintf(f, ",\n        .UNICAST_ONLY(1)");
    if (g->fixed_seed)
        fprintf(f, ",\n        .FIXED_SEED(1),\n        .SEED(32'd%lu),\n        .PIN_STRAPS(1)", (unsigned long)g->seed);
    fprintf(f, "\n    ) u_network (\n");
    fprintf(f, "        .clk(clk),\n        .rst(rst),\n        .clear(%s),\n        .seed(%s),\n",
            g->packet ? "1'b0" : "clear", g->fixed_seed ? "32'd0" : "seed");
    fprintf(f, "        .inj_valid(inj_valid),\n        .inj_flit(inj_flit),\n        .inj_ready(inj_ready),\n");
    fprintf(f, "        .inj_ack(%s),\n", g->packet ? "unused_inj_ack" : "inj_ack");
    fprintf(f, "        .ej_valid(ej_valid),\n        .ej_flit(ej_flit),\n");
    fprintf(f, "        .ej_ack(%s),\n", g->packet ? "{NP{1'b0}}" : "ej_ack");
    /* no fault support in a generated network (FAULTS = 0, spec 14): the fault pins are ignored */
    fprintf(f, "        .link_off({%llu{1'b0}}),\n        .sw_off({%llu{1'b0}}),\n        .cfg_we(1'b0),\n"
               "        .cfg_addr(32'd0),\n        .cfg_row(1'b0),\n",
            (unsigned long long)lcan_topo_link_count(g->t), (unsigned long long)lcan_topo_switch_count(g->t));
    if (g->debug)
        fprintf(f, "        .cnt_up(cnt_up),\n        .cnt_down(cnt_down),\n        .cnt_drop(cnt_drop),\n"
                   "        .dbg(dbg)\n");
    else
        fprintf(f, "        .cnt_up(unused_cnt_up),\n        .cnt_down(unused_cnt_down),\n"
                   "        .cnt_drop(unused_cnt_drop),\n        .dbg(unused_dbg)\n");
    fprintf(f, "    );\nendmodule\n\n`resetall\n");
}

static void write_core(FILE *f, const gen_cfg *g, const rtl_list *r)
{
    int k;
    fprintf(f, "CAPI=2:\n");
    fprintf(f, "# %s: FuseSoC core of a network generated by lcan gen (lcan %s). Do not edit: regenerate.\n",
            g->name, LCAN_VERSION);
    fprintf(f, "#   %s\n", g->cmdline);
    fprintf(f, "# rtl/ is a copy of the lcan rtl/ sources (rtl/lcan_network.f, rtl/*.vh), so this directory\n"
               "# stands alone.\n");
    fprintf(f, "# fusesoc --cores-root DIR run --target lint|sim|synth lcan:generated:%s\n", g->name);
    fprintf(f, "name: lcan:generated:%s:%s\n", g->name, LCAN_VERSION);
    fprintf(f, "description: \"%s = %s, %s mode, %lu leaves (lcan gen)\"\n\n", lcan_topo_canonical(g->t),
            lcan_topo_pgft(g->t), g->packet ? "packet" : "circuit", (unsigned long)g->n);
    fprintf(f, "filesets:\n  rtl:\n    files:\n");
    for (k = 0; k < r->n; k++)
        fprintf(f, "      - rtl/%s%s\n", base_name(r->path[k]), r->inc[k] ? ": {is_include_file: true}" : "");
    fprintf(f, "      - %s.v\n    file_type: verilogSource\n\n", g->name);
    fprintf(f, "targets:\n  default: &default\n    filesets: [rtl]\n    toplevel: %s\n\n", g->name);
    fprintf(f, "  lint:\n    <<: *default\n    default_tool: verilator\n    tools:\n      verilator:\n"
               "        mode: lint-only\n        verilator_options: [-Wall]\n\n");
    fprintf(f, "  sim:\n    <<: *default\n    default_tool: icarus\n    tools:\n      icarus:\n"
               "        iverilog_options: [-g2005, -Wall]\n\n");
    fprintf(f, "  synth:\n    <<: *default\n    default_tool: yosys\n    tools:\n      yosys:\n"
               "        arch: ice40\n        output_format: json\n");
}

static void write_json(FILE *f, const gen_cfg *g)
{
    int l, k, h = g->h, pw = g->payload_w, aw = g->addr_w;
    uint32_t s;
    fprintf(f, "{\n  \"generator\": \"lcan gen\",\n  \"version\": \"%s\",\n  \"command\": ", LCAN_VERSION);
    lcan_json_string(f, g->cmdline);
    fprintf(f, ",\n  \"module\": \"%s\",\n  \"spec\": ", g->name);
    lcan_json_string(f, lcan_topo_canonical(g->t));
    fprintf(f, ",\n  \"pgft\": ");
    lcan_json_string(f, lcan_topo_pgft(g->t));
    fprintf(f, ",\n  \"mode\": \"%s\",\n  \"payload_w\": %d,\n  \"depth\": %d,\n  \"debug\": %s,\n",
            g->packet ? "packet" : "circuit", pw, g->depth, g->debug ? "true" : "false");
    if (g->fixed_seed)
        fprintf(f, "  \"seed\": %lu,\n", (unsigned long)g->seed);
    else
        fprintf(f, "  \"seed\": null,\n");
    fprintf(f, "  \"leaves\": %lu,\n  \"levels\": %d,\n  \"leaf_ports\": %d,\n  \"ports\": %lu,\n",
            (unsigned long)g->n, h, g->u0, (unsigned long)g->np);
    fprintf(f, "  \"addr_w\": %d,\n  \"flit_w\": %d,\n  \"dbg_bytes\": %llu,\n", aw, g->fw,
            (unsigned long long)g->dbg_bytes);
    fprintf(f, "  \"flit\": {\"payload\": {\"lsb\": 0, \"width\": %d}, \"dest\": {\"lsb\": %d, \"width\": %d}, "
               "\"bcast\": {\"lsb\": %d, \"width\": 1}, \"head\": {\"lsb\": %d, \"width\": 1}},\n",
            pw, pw, aw, pw + aw, pw + aw + 1);
    fprintf(f, "  \"switches_per_level\": [");
    for (l = 1; l <= h; l++)
        fprintf(f, "%s%lu", l > 1 ? ", " : "", (unsigned long)lcan_topo_switches(g->t, l));
    fprintf(f, "],\n  \"level\": [\n");
    for (l = 1; l <= h; l++)
        fprintf(f, "    {\"level\": %d, \"m\": %d, \"w\": %d, \"p\": %d, \"switches\": %lu, \"downers\": %d, "
                   "\"uppers\": %d, \"links_below\": %llu, \"addr_field\": {\"lsb\": %d, \"width\": %d}}%s\n",
                l, lcan_topo_m(g->t, l), lcan_topo_w(g->t, l), lcan_topo_p(g->t, l),
                (unsigned long)lcan_topo_switches(g->t, l), lcan_topo_downers(g->t, l),
                lcan_topo_uppers(g->t, l), (unsigned long long)lcan_topo_links(g->t, l),
                lcan_topo_field_offset(g->t, l), lcan_topo_field_width(g->t, l), l < h ? "," : "");
    fprintf(f, "  ],\n");
    fprintf(f, "  \"lca_rule\": \"the LCA level L of leaves s and d is the most significant level l whose "
               "address digit a_l differs (1 when s = d); a unicast climbs L links and descends L links, "
               "arriving at tick t + 2L - 1 when injected at t into an idle network (docs/spec.md 4, 7.4, 8.4)\",\n");
    fprintf(f, "  \"port_numbering\": \"network port q = s*leaf_ports + y*p_1 + k for leaf s, level-1 parent y, "
               "parallel link k; switch-local ports: downer x*p_l + k towards child digit x, then uppers "
               "D_l + y*p_(l+1) + k (docs/spec.md 2.3)\",\n");
    fprintf(f, "  \"address_map\": [\n");
    for (s = 0; s < g->n; s++) {
        uint32_t a = lcan_topo_pack(g->t, s), r = s;
        fprintf(f, "    {\"leaf\": %lu, \"address\": %lu, \"digits\": [", (unsigned long)s, (unsigned long)a);
        for (l = 1; l <= h; l++) {
            int m = lcan_topo_m(g->t, l);
            fprintf(f, "%s%lu", l > 1 ? ", " : "", (unsigned long)(r % (uint32_t)m));
            r /= (uint32_t)m;
        }
        fprintf(f, "], \"ports\": [");
        for (k = 0; k < g->u0; k++)
            fprintf(f, "%s%lu", k ? ", " : "", (unsigned long)s * g->u0 + k);
        fprintf(f, "]}%s\n", s + 1 < g->n ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
}

/* ------------------------------------------------------------------ commands */

int cmd_gen(int argc, char **argv)
{
    const char *spec = NULL, *dir = NULL, *name = "lcan_net", *mode = "packet", *v;
    long payload_w = 16, depth = 4, seed = -1;
    int debug = 1, unicast_only = 0, i, r, opts = 1, rc, l, k;
    char cmdline[1024], *root = NULL, *path = NULL;
    lcan_topo *t;
    gen_cfg g;
    rtl_list rl;
    out_set o;
    FILE *f;

    for (i = 1; i < tool_end_of_options(argc, argv); i++)
        if (tool_is_help(argv[i])) {
            fputs(gen_usage, stdout);
            return TOOL_EXIT_OK;
        }
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (opts && strcmp(a, "--") == 0) {
            opts = 0;
        } else if (opts && tool_is_option(a)) {
            if ((r = tool_opt_value("gen", argc, argv, &i, "--mode", &v)) != 0) {
                if (r < 0)
                    return TOOL_EXIT_USAGE;
                if (strcmp(v, "circuit") != 0 && strcmp(v, "packet") != 0) {
                    tool_error("gen: bad --mode '%s' (circuit or packet)", v);
                    return TOOL_EXIT_USAGE;
                }
                mode = v;
            } else if ((r = tool_opt_value("gen", argc, argv, &i, "--payload-w", &v)) != 0) {
                if (r < 0 || tool_parse_long("gen", "--payload-w", v, 1, 32, &payload_w) != 0)
                    return TOOL_EXIT_USAGE;
            } else if ((r = tool_opt_value("gen", argc, argv, &i, "--depth", &v)) != 0) {
                if (r < 0 || tool_parse_long("gen", "--depth", v, 1, 255, &depth) != 0)
                    return TOOL_EXIT_USAGE;
            } else if ((r = tool_opt_value("gen", argc, argv, &i, "--name", &v)) != 0) {
                if (r < 0)
                    return TOOL_EXIT_USAGE;
                name = v;
            } else if ((r = tool_opt_value("gen", argc, argv, &i, "-o", &v)) != 0 ||
                       (r = tool_opt_value("gen", argc, argv, &i, "--output", &v)) != 0) {
                if (r < 0)
                    return TOOL_EXIT_USAGE;
                dir = v;
            } else if ((r = tool_opt_value("gen", argc, argv, &i, "--seed", &v)) != 0) {
                if (r < 0 || tool_parse_long("gen", "--seed", v, 0, 4294967295L, &seed) != 0)
                    return TOOL_EXIT_USAGE;
            } else if ((r = tool_opt_flag("gen", a, "--no-debug")) != 0) {
                if (r < 0)
                    return TOOL_EXIT_USAGE;
                debug = 0;
            } else if ((r = tool_opt_flag("gen", a, "--unicast-only")) != 0) {
                if (r < 0)
                    return TOOL_EXIT_USAGE;
                unicast_only = 1;
            } else {
                tool_error("gen: unknown option '%s' (try 'lcan gen --help')", a);
                return TOOL_EXIT_USAGE;
            }
        } else if (spec == NULL) {
            spec = a;
        } else {
            tool_error("gen: unexpected argument '%s' (one SPEC only)", a);
            return TOOL_EXIT_USAGE;
        }
    }
    if (spec == NULL) {
        tool_error("gen: missing SPEC (usage: lcan gen SPEC [options] -o DIR)");
        return TOOL_EXIT_USAGE;
    }
    if (dir == NULL || dir[0] == '\0') {
        tool_error("gen: missing output directory -o DIR");
        return TOOL_EXIT_USAGE;
    }
    if (check_name(name) != 0)
        return TOOL_EXIT_USAGE;
    if (unicast_only && strcmp(mode, "packet") != 0) {
        tool_error("gen: --unicast-only needs packet mode (circuit mode has no broadcasts, docs/spec.md 8.8)");
        return TOOL_EXIT_USAGE;
    }
    if ((t = tool_topo(spec)) == NULL)
        return TOOL_EXIT_USAGE;

    memset(&g, 0, sizeof g);
    g.t = t;
    g.name = name;
    g.packet = strcmp(mode, "packet") == 0;
    g.payload_w = (int)payload_w;
    g.depth = (int)depth;
    g.debug = debug;
    g.unicast_only = unicast_only;
    g.fixed_seed = seed >= 0;
    g.seed = g.fixed_seed ? (uint32_t)seed : 0;
    g.h = lcan_topo_levels(t);
    g.u0 = lcan_topo_leaf_ports(t);
    g.n = lcan_topo_leaves(t);
    g.np = lcan_topo_ports(t);
    g.addr_w = lcan_topo_addr_width(t);
    g.fw = 2 + g.addr_w + g.payload_w;
    for (l = 1; l <= g.h; l++) {
        g.switches += lcan_topo_switches(t, l);
        g.dbg_bytes += (uint64_t)lcan_topo_switches(t, l) *
                       (uint64_t)(lcan_topo_downers(t, l) + lcan_topo_uppers(t, l));
    }
    command_line(argc, argv, cmdline, sizeof cmdline);
    g.cmdline = cmdline;
    rc = TOOL_EXIT_USAGE;
    if (g.np > GEN_MAX_PORTS) {
        tool_error("gen: %s has %lu network ports; lcan gen writes one port group per leaf for at most %d",
                   lcan_topo_canonical(t), (unsigned long)g.np, GEN_MAX_PORTS);
        goto done;
    }
    {
        char why[300];
        if (draw_check(t, why, sizeof why) != 0) {
            tool_error("gen: %s", why);
            goto done;
        }
    }
    if ((root = repo_root()) == NULL || read_rtl_list(root, &rl) != 0) {
        tool_error("gen: the lcan rtl/ sources were not found beside this binary (rtl/lcan_network.f)");
        rc = TOOL_EXIT_FAIL;
        goto done;
    }
    for (k = 0; k < rl.n; k++) {
        char mod[256];
        snprintf(mod, sizeof mod, "%s", base_name(rl.path[k]));
        mod[strcspn(mod, ".")] = '\0';
        if (strcmp(mod, name) == 0) {
            tool_error("gen: bad --name '%s': the name of an lcan module", name);
            goto done;
        }
    }

    memset(&o, 0, sizeof o);
    if (make_dir("gen", &o, dir) != 0)
        goto fail;
    path = malloc(strlen(dir) + MAX_NAME + 300);
    if (path == NULL) {
        tool_error("gen: out of memory");
        rc = TOOL_EXIT_FAIL;
        goto fail;
    }
    sprintf(path, "%s/rtl", dir);
    if (make_dir("gen", &o, path) != 0)
        goto fail;
    for (k = 0; k < rl.n; k++) {
        sprintf(path, "%s/rtl/%.200s", dir, base_name(rl.path[k]));
        if ((r = copy_file(&o, root, rl.path[k], path)) != 0) {
            rc = r;
            goto fail;
        }
    }
    sprintf(path, "%s/%s.v", dir, name);
    if ((f = open_out("gen", &o, path)) == NULL)
        goto fail;
    write_verilog(f, &g);
    if (close_out("gen", f, path) != 0) {
        rc = TOOL_EXIT_FAIL;
        goto fail;
    }
    sprintf(path, "%s/%s.core", dir, name);
    if ((f = open_out("gen", &o, path)) == NULL)
        goto fail;
    write_core(f, &g, &rl);
    if (close_out("gen", f, path) != 0) {
        rc = TOOL_EXIT_FAIL;
        goto fail;
    }
    sprintf(path, "%s/%s.json", dir, name);
    if ((f = open_out("gen", &o, path)) == NULL)
        goto fail;
    write_json(f, &g);
    if (close_out("gen", f, path) != 0) {
        rc = TOOL_EXIT_FAIL;
        goto fail;
    }
    sprintf(path, "%s/%s.svg", dir, name);
    {
        char title[400];
        snprintf(title, sizeof title, "%s: %s = %s", name, lcan_topo_canonical(t), lcan_topo_pgft(t));
        if ((r = write_svg("gen", &o, t, path, title)) != 0) {
            rc = r;
            goto fail;
        }
    }
    if (out_commit("gen", &o) != 0) {
        rc = TOOL_EXIT_FAIL;
        goto done;
    }
    printf("wrote %s/%s.v %s/%s.core %s/%s.json %s/%s.svg %s/rtl/ (%d files)\n", dir, name, dir, name, dir,
           name, dir, name, dir, rl.n);
    rc = TOOL_EXIT_OK;
    goto done;
fail:
    out_abort(&o);
done:
    free(path);
    free(root);
    lcan_topo_free(t);
    return rc;
}

int cmd_draw(int argc, char **argv)
{
    const char *spec = NULL, *file = NULL;
    int rc;
    size_t len;
    lcan_topo *t;
    out_set o;
    char why[300], title[300];
    const tool_opt opts[] = {{"-o", NULL, &file}, {"--output", NULL, &file}};

    rc = tool_parse_args("draw", argc, argv, draw_usage, opts, sizeof opts / sizeof opts[0], &spec);
    if (rc != 0)
        return rc > 0 ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (spec == NULL) {
        tool_error("draw: missing SPEC (usage: lcan draw SPEC -o FILE.svg)");
        return TOOL_EXIT_USAGE;
    }
    if (file == NULL || file[0] == '\0') {
        tool_error("draw: missing output file -o FILE");
        return TOOL_EXIT_USAGE;
    }
    if ((t = tool_topo(spec)) == NULL)
        return TOOL_EXIT_USAGE;
    if (draw_check(t, why, sizeof why) != 0) {
        tool_error("draw: %s", why);
        lcan_topo_free(t);
        return TOOL_EXIT_USAGE;
    }
    snprintf(title, sizeof title, "%s = %s", lcan_topo_canonical(t), lcan_topo_pgft(t));
    memset(&o, 0, sizeof o);
    len = strlen(file);
    if (len > 4 && strcmp(file + len - 4, ".dot") == 0) {
        FILE *f = open_out("draw", &o, file);
        rc = TOOL_EXIT_USAGE;
        if (f != NULL) {
            draw_dot(f, t, title);
            rc = close_out("draw", f, file) == 0 ? TOOL_EXIT_OK : TOOL_EXIT_FAIL;
        }
    } else {
        rc = write_svg("draw", &o, t, file, title);
    }
    if (rc == TOOL_EXIT_OK)
        rc = out_commit("draw", &o) == 0 ? TOOL_EXIT_OK : TOOL_EXIT_FAIL;
    else
        out_abort(&o);
    lcan_topo_free(t);
    return rc;
}
