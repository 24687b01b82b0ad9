/*
 * cmd_embed.c - `lcan embed HOST --guest G [--map M] [--json]`: embed a guest graph into the
 * network HOST (seed 002 section 6), report load, dilation, congestion and expansion beside the
 * paper's bound, and run the guest's nearest-neighbour exchange on the packet-mode network
 * (lcan_embed.h, docs/embeddings.md). The map file is read here; the library parses its text.
 * Engines rtl and icarus run tb/lcan-rtl with the same arguments (after they are checked), which
 * runs the same exchange driver (lcan_embed_exchange_run) on the RTL in lockstep with the model and
 * prints the result with the same printer (lcan_embed_print).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcan_embed.h"
#include "tool_util.h"

/* The RTL engines run hosts of at most this many leaves: the largest size whose RTL simulation is
 * measured (make bench-scale, 16..1,024 leaves; docs/verification.md). */
#define EMBED_RTL_MAX_LEAVES 1024
#define EMBED_STR_(x) #x
#define EMBED_STR(x) EMBED_STR_(x)

static const char usage[] =
    "usage: lcan embed HOST --guest G [--map M] [--inject path|any] [--seed S] [--engine E] [--no-exchange]\n"
    "                  [--check] [--json]\n"
    "Embeds the guest graph G into the leaves of the network HOST (seed 002 section 6), routes every\n"
    "guest edge up to an LCA switch and down (docs/embeddings.md: the least-congested path, lower LCA\n"
    "levels first) and reports load, dilation, congestion (most guest edges over one host link, = per\n"
    "link direction when each edge carries a packet each way), expansion, the paper's bound for the\n"
    "same guest and host, and Theorem 10's lower bound 2b / (links into the top level). Then runs the\n"
    "nearest-neighbour exchange (one packet each way over every guest edge) on the packet-mode network\n"
    "and reports its steps.\n"
    "  --guest G      ring:N, mesh:AxB[xC..], torus:AxB[..], hypercube:K, cbt:H (complete binary tree\n"
    "                 of height H), pyramid:H[:COPIES] (COPIES pyramids PR(H), default 1; Thm 9: 3)\n"
    "  --map M        default (the paper's construction, docs/embeddings.md) or file:PATH, a text\n"
    "                 file of lines 'GUEST_NODE LEAF' ('#' comments), every guest node once\n"
    "  --inject I     exchange: path (default) injects each packet on the leaf port of its embedded\n"
    "                 path's first hop; any on the leaf's lowest-numbered ready port\n"
    "  --seed S       network seed of the exchange, 0..2^32-1 (default 1)\n"
    "  --engine E     the exchange on: model (default), rtl (Verilator) or icarus: the RTL in lockstep\n"
    "                 with the model, every output compared every cycle (tb/lcan-rtl; hosts of at most\n"
    "                 " EMBED_STR(EMBED_RTL_MAX_LEAVES) " leaves); the output is the model engine's but for the engine name\n"
    "  --no-exchange  skip the exchange (model engine only)\n"
    "  --check        check the arguments (host, guest, map, options, memory) and exit: 0 or 2\n"
    "  --json         one JSON object: host, guest, map, map_ref, nodes, edges, leaves, load, dilation,\n"
    "                 avg_dilation, congestion, congestion_per_level, expansion, paper_bound, paper_ref,\n"
    "                 meets_paper_bound, bisection, lower_bound, lower_bound_ref, exchange\n";

#define MAP_FILE_MAX (64u << 20)

/* The whole file as a NUL-terminated string, or NULL after one error line. */
static char *read_map_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    size_t n = 0, cap = 1 << 16, r;
    if (f == NULL) {
        tool_error("embed: --map file:%s: cannot open the file", path);
        return NULL;
    }
    if ((buf = malloc(cap + 1)) == NULL) {
        fclose(f);
        tool_error("embed: out of memory reading the map");
        return NULL;
    }
    while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            char *nb;
            if (cap >= MAP_FILE_MAX) {
                tool_error("embed: --map file:%s: larger than %u MB", path, MAP_FILE_MAX >> 20);
                free(buf);
                fclose(f);
                return NULL;
            }
            cap *= 2;
            if ((nb = realloc(buf, cap + 1)) == NULL) {
                tool_error("embed: out of memory reading the map");
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
    }
    if (ferror(f) || memchr(buf, '\0', n) != NULL) {
        tool_error("embed: --map file:%s: not a readable text file", path);
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    buf[n] = '\0';
    return buf;
}

/* Memory: the link loads (4 bytes a link), the guest (8 bytes an edge, 4 a node for the map) and,
 * for the exchange, the network (as cmd_collective.c: 48 bytes a link) and 21 bytes a packet. */
static double embed_bytes(const lcan_topo *t, const lcan_guest *g, int no_exchange)
{
    double links = 0.0, e = (double)lcan_guest_edges(g);
    int l;
    for (l = 1; l <= lcan_topo_levels(t); l++)
        links += (double)lcan_topo_links(t, l);
    return 4.0 * links + 8.0 * e + 8.0 * (double)lcan_guest_nodes(g) + 4.0 * (double)lcan_topo_leaves(t) + 8e6 +
           (no_exchange ? 0.0 : 48.0 * links + 42.0 * e + 256.0 * (double)lcan_topo_leaves(t));
}

int cmd_embed(int argc, char **argv)
{
    const char *spec = NULL, *guest_s = NULL, *map_s = "default", *seed_s = NULL, *map_ref = "", *inject = "path",
               *engine = "model";
    int json = 0, no_exchange = 0, check = 0, r, rc = TOOL_EXIT_USAGE, model;
    long seed = 1;
    lcan_topo *t = NULL;
    lcan_guest *g = NULL;
    uint32_t *map = NULL;
    uint16_t *port = NULL;
    char err[256], *text = NULL;
    lcan_embed_result res;
    lcan_embed_exchange_result xr;
    lcan_status st;
    const tool_opt opts[] = {
        {"--json", &json, NULL},      {"--no-exchange", &no_exchange, NULL}, {"--guest", NULL, &guest_s},
        {"--map", NULL, &map_s},      {"--seed", NULL, &seed_s},             {"--inject", NULL, &inject},
        {"--engine", NULL, &engine},  {"--check", &check, NULL},
    };

    r = tool_parse_args("embed", argc, argv, usage, opts, sizeof opts / sizeof opts[0], &spec);
    if (r != 0)
        return r > 0 ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;
    if (spec == NULL) {
        tool_error("embed: missing HOST (usage: lcan embed HOST --guest G [--map M] [--json])");
        return TOOL_EXIT_USAGE;
    }
    if (guest_s == NULL) {
        tool_error("embed: missing --guest G (ring:N, mesh:AxB, torus:AxB, hypercube:K, cbt:H, pyramid:H)");
        return TOOL_EXIT_USAGE;
    }
    if (seed_s != NULL && tool_parse_long("embed", "--seed", seed_s, 0, 4294967295L, &seed) != 0)
        return TOOL_EXIT_USAGE;
    if (strcmp(inject, "path") != 0 && strcmp(inject, "any") != 0) {
        tool_error("embed: --inject '%s': expected path or any", inject);
        return TOOL_EXIT_USAGE;
    }
    if (strcmp(engine, "model") != 0 && strcmp(engine, "rtl") != 0 && strcmp(engine, "icarus") != 0) {
        tool_error("embed: --engine '%s' is not one of model, rtl, icarus", engine);
        return TOOL_EXIT_USAGE;
    }
    model = strcmp(engine, "model") == 0;
    if (!model && no_exchange) {
        tool_error("embed: --no-exchange with --engine %s: the RTL engines run only the exchange (drop one of them)",
                   engine);
        return TOOL_EXIT_USAGE;
    }
    if (strcmp(map_s, "default") != 0 && strncmp(map_s, "file:", 5) != 0) {
        tool_error("embed: --map '%s': expected default or file:PATH", map_s);
        return TOOL_EXIT_USAGE;
    }
    if (strcmp(map_s, "file:") == 0) {
        tool_error("embed: --map file: needs a PATH (file:PATH)");
        return TOOL_EXIT_USAGE;
    }
    if ((t = tool_topo(spec)) == NULL)
        return TOOL_EXIT_USAGE;
    if (!model && lcan_topo_leaves(t) > EMBED_RTL_MAX_LEAVES) {
        tool_error("embed: --engine %s: the host %s has %lu leaves; the RTL engines run hosts of at most %d "
                   "(use --engine model)",
                   engine, lcan_topo_canonical(t), (unsigned long)lcan_topo_leaves(t), EMBED_RTL_MAX_LEAVES);
        goto out;
    }
    st = lcan_guest_parse(guest_s, &g, err, sizeof err);
    if (st != LCAN_OK) {
        if (st == LCAN_ERR_NOMEM)
            tool_error("embed: out of memory building the guest");
        else
            tool_error("embed: --guest %s", err);
        rc = st == LCAN_ERR_NOMEM ? TOOL_EXIT_FAIL : TOOL_EXIT_USAGE;
        goto out;
    }
    if (lcan_guest_nodes(g) > lcan_topo_leaves(t)) {
        tool_error("embed: guest %s has %lu nodes but the host %s only %lu leaves (pick a larger host or guest "
                   "with at most that many nodes)",
                   lcan_guest_name(g), (unsigned long)lcan_guest_nodes(g), lcan_topo_canonical(t),
                   (unsigned long)lcan_topo_leaves(t));
        goto out;
    }
    if (tool_mem_check("embed", "this embedding", embed_bytes(t, g, no_exchange), NULL) != 0)
        goto out;
    if ((map = malloc((size_t)lcan_guest_nodes(g) * sizeof *map)) == NULL ||
        (port = malloc(2 * (size_t)(lcan_guest_edges(g) + 1) * sizeof *port)) == NULL) {
        tool_error("embed: out of memory");
        rc = TOOL_EXIT_FAIL;
        goto out;
    }
    if (strcmp(map_s, "default") == 0) {
        if (lcan_embed_default_map(t, g, map, &map_ref, err, sizeof err) != LCAN_OK) {
            tool_error("embed: %s", err);
            goto out;
        }
    } else {
        if ((text = read_map_file(map_s + 5)) == NULL)
            goto out;
        st = lcan_embed_parse_map(text, t, g, map, err, sizeof err);
        if (st != LCAN_OK) {
            if (st == LCAN_ERR_NOMEM)
                tool_error("embed: out of memory reading the map");
            else
                tool_error("embed: --map %s: %s", map_s, err);
            rc = st == LCAN_ERR_NOMEM ? TOOL_EXIT_FAIL : TOOL_EXIT_USAGE;
            goto out;
        }
        map_ref = "the user's map";
    }
    if (check || !model) {
        /* checked; the RTL engines: tb/lcan-rtl checks with --check and runs the exchange */
        rc = check ? TOOL_EXIT_OK : -1;
        goto out;
    }
    st = lcan_embed_route(t, g, map, &res, port, err, sizeof err);
    if (st != LCAN_OK) {
        tool_error("embed: %s", st == LCAN_ERR_NOMEM ? "out of memory routing the guest edges" : err);
        rc = st == LCAN_ERR_NOMEM ? TOOL_EXIT_FAIL : TOOL_EXIT_USAGE;
        goto out;
    }
    if (!no_exchange) {
        st = lcan_embed_exchange(t, g, map, strcmp(inject, "path") == 0 ? port : NULL, (uint32_t)seed, 0, &xr);
        if (st != LCAN_OK) {
            tool_error("embed: the exchange on the model failed: %s", lcan_strerror(st));
            rc = TOOL_EXIT_FAIL;
            goto out;
        }
    }
    lcan_embed_print(stdout, t, g, map_s, map_ref, &res, no_exchange ? NULL : &xr, inject, engine, json);
    rc = !no_exchange && xr.errors ? TOOL_EXIT_FAIL : TOOL_EXIT_OK;
out:
    free(text);
    free(map);
    free(port);
    lcan_guest_free(g);
    lcan_topo_free(t);
    return rc == -1 ? tool_exec_rtl(argc, argv) : rc;
}
