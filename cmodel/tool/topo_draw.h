/*
 * topo_draw.h - a network's topology as a graphviz DOT graph and its SVG rendering (`lcan draw`,
 * `lcan gen`): leaves and switch levels as ranks (leaves at the bottom, level h at the top), nodes
 * of a level in index order, one edge per link so that parallel links (p_l > 1) are visible,
 * edges coloured by level, tooltips naming the ports of spec 2.3.
 */
#ifndef TOPO_DRAW_H
#define TOPO_DRAW_H

#include <stddef.h>
#include <stdio.h>

#include "lcan.h"

/* Largest drawing accepted (nodes = leaves + switches, links over all levels): dot's layout time
 * grows quickly beyond this. */
#define DRAW_MAX_NODES 4096
#define DRAW_MAX_LINKS 8192

/* 0 if t can be drawn, else -1 with a one-line reason in why. */
int draw_check(const lcan_topo *t, char *why, size_t len);

/* Writes the DOT source of t to f; title is the graph's caption. Returns 0, or -1 on a write
 * error (ferror(f)). */
int draw_dot(FILE *f, const lcan_topo *t, const char *title);

/* Runs `dot -Tsvg -o svg_path dot_path` (graphviz on PATH). 0 ok; -1 with a one-line reason in
 * why (dot missing, dot failed). */
int draw_run_dot(const char *dot_path, const char *svg_path, char *why, size_t len);

#endif
