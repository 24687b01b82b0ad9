/*
 * lcan_faults.h - faults (spec 14): fault sets, the drivers' reach rows, usable leaf ports and cut
 * pairs (seed 002 Theorem 2, Corollary 1, Theorem 3).
 *
 * Numbering (spec 14.1-14.2):
 *   link  LK_OFF(l) + x*D_l + o   (downer o of level-l switch x; level 1 first), NL links
 *   switch SW_OFF(l) + x          (level 1 first), NS switches
 *   row   ROW_OFF(l) + x*U_l + j  (upper j of level-l switch x, l < h), NR rows of RW = 2^ADDR_W bits
 */
#ifndef LCAN_FAULTS_H
#define LCAN_FAULTS_H
#include <stddef.h>
#include <stdint.h>
#include "lcan.h"

#ifdef __cplusplus
extern "C" {
#endif

uint64_t lcan_topo_link_count(const lcan_topo *t);        /* NL */
uint64_t lcan_topo_link_offset(const lcan_topo *t, int level); /* LK_OFF(level), level 1..h+1 */
uint64_t lcan_topo_switch_count(const lcan_topo *t);      /* NS */
uint64_t lcan_topo_switch_offset(const lcan_topo *t, int level); /* SW_OFF(level), 1..h+1 */
uint64_t lcan_topo_reach_rows(const lcan_topo *t);        /* NR */
uint64_t lcan_topo_row_offset(const lcan_topo *t, int level);    /* ROW_OFF(level), 1..h */
uint64_t lcan_topo_row_bits(const lcan_topo *t);          /* RW = 2^ADDR_W */

/* A fault set: link_off[NL], sw_off[NS] (0/1), as the pins of lcan_in take them. */
typedef struct lcan_faults {
    uint64_t nl, ns;
    uint8_t *link_off;
    uint8_t *sw_off;
    uint64_t count;      /* elements that are off */
} lcan_faults;

/* Empty fault set for t (arrays allocated, all 0). */
lcan_status lcan_faults_init(const lcan_topo *t, lcan_faults *f);
void lcan_faults_free(lcan_faults *f);
/* Parse the --faults list of spec 14.5 (Ll:x, Ll:x/o, random:K; comma-separated) into f (which
 * lcan_faults_init prepared); random elements are drawn with `seed`. One-line message in err. */
lcan_status lcan_faults_parse(const lcan_topo *t, const char *text, uint64_t seed, lcan_faults *f,
                              char *err, size_t errlen);

/* Name of element k of a fault set (0..NL-1 links, NL..NL+NS-1 switches): "Ll:x/o" or "Ll:x",
 * the names lcan_faults_parse reads. 0, or -1 when k is out of range. */
int lcan_faults_name(const lcan_topo *t, const lcan_faults *f, uint64_t k, char *buf, size_t len);

/* Is local port `port` of node (level, x) off under f (spec 14.1: its link, this switch or the
 * switch at the far end is off)? level 0 names leaf x and its leaf port. */
int lcan_faults_port_off(const lcan_topo *t, const lcan_faults *f, int level, uint32_t x, int port);

/* The driver's view of a fault set (spec 14.4). f = NULL: no faults. t must outlive the view.
 * Memory: lcan_reach_bytes(t) (the NR rows of RW bits dominate); lcan_reach_new refuses a network
 * whose estimate exceeds LCAN_REACH_MAX_BYTES with LCAN_ERR_PARAM (e.g. lcan(2,2,65536): 983040
 * rows of 65536 bits, 8 GB) - a caller prints its own message from lcan_reach_bytes. */
#define LCAN_REACH_MAX_BYTES ((uint64_t)1 << 30)
typedef struct lcan_reach lcan_reach;
uint64_t lcan_reach_bytes(const lcan_topo *t);
lcan_status lcan_reach_new(const lcan_topo *t, const lcan_faults *f, lcan_reach **out);
void lcan_reach_free(lcan_reach *r);
/* Row r (0..NR-1): ceil(RW/64) words, the value the driver writes (spec 14.4). */
const uint64_t *lcan_reach_row(const lcan_reach *r, uint64_t row);
/* Is local port `port` (0..U_0-1) of leaf s usable for destination leaf b? */
int lcan_reach_port_usable(const lcan_reach *r, uint32_t s, int port, uint32_t b);
/* Number of usable ports of s for b; the k-th usable port (k < that number) in increasing order. */
int lcan_reach_usable_count(const lcan_reach *r, uint32_t s, uint32_t b);
int lcan_reach_usable_port(const lcan_reach *r, uint32_t s, uint32_t b, int k);
/* Is the pair cut (no usable port)? And how many ordered pairs (s, b), s, b = 0..N-1, are cut. */
int lcan_reach_cut(const lcan_reach *r, uint32_t s, uint32_t b);
uint64_t lcan_reach_cut_pairs(const lcan_reach *r);
/* Destinations b (0..N-1) for which (s, b) is cut. */
uint32_t lcan_reach_cut_from(const lcan_reach *r, uint32_t s);
/* Network ports that are off (spec 14.1). */
uint64_t lcan_reach_off_ports(const lcan_reach *r);
/* Is network port q (leaf q / U_0, port q % U_0) off (spec 14.1)? */
int lcan_reach_port_off(const lcan_reach *r, uint32_t q);

/* A schedule of pin values that applies fault set `to` (from `from`; NULL = the rows after reset,
 * all ones, which are also the rows of an empty fault set) at tick
 * T (spec 14.4): the driver presents to->link_off / to->sw_off from T on and writes the rows that
 * differ between the two reach views, one per tick, in increasing row order, on T, T+1, ...
 * lcan_fault_sched_rows gives that list of row numbers. */
typedef struct {
    uint64_t *rows;     /* rows to write, increasing */
    uint64_t nrows;
} lcan_fault_sched;
lcan_status lcan_fault_sched_rows(const lcan_topo *t, const lcan_reach *from, const lcan_reach *to,
                                  lcan_fault_sched *out);
void lcan_fault_sched_free(lcan_fault_sched *s);

#ifdef __cplusplus
}
#endif
#endif
