/*
 * lcan_switch.h - one switch as a unit (spec 13.1): the ports of rtl/lcan_switch.v as plain arrays.
 *
 * The network (src/net*.c) connects these units; the switch-level lockstep (tb/switch) drives one
 * alone against the RTL's lcan_switch and compares every output on every tick. The tick is the
 * one the network's full-scan tick runs (src/sw.c); the unit owns its state.
 *
 * Timing as spec 7.1 / 8.1: lcan_sw_tick takes the inputs of tick t (the values on the switch's
 * input pins before the rising edge) and fills out with the register values after the edge, i.e.
 * the switch's outputs of tick t.
 */
#ifndef LCAN_SWITCH_H
#define LCAN_SWITCH_H

#include <stdint.h>

#include "lcan.h"

/* The parameters and straps of one lcan_switch instance (spec 13.1). */
typedef struct {
    int level;          /* LEVEL = l, 1..h */
    int m, p_dn;        /* M_L = m_l children, P_DN = p_l parallel links per child */
    int w_up, p_up;     /* W_UP = w_{l+1} parents (0 at the top), P_UP = p_{l+1} */
    int addr_w;         /* ADDR_W */
    int dig_off, dig_w; /* DIG_OFF = O_l, DIG_W = B_l (spec 2.1) */
    lcan_cfg cfg;       /* MODE, PAYLOAD_W, DEPTH, UP_CHOICE, FLOOD_Q, UNICAST_ONLY (set it up with
                           lcan_cfg_default) */
    uint32_t label;     /* strap: packed address of a_h..a_{l+1} (fields 1..l are 0) */
    uint32_t salt;      /* strap: spec 5's salt of (l, x) */
    uint32_t row_base;  /* strap: ROW_OFF(l) + x * U_l (spec 14.2) */
} lcan_sw_cfg;

/* The parameters and straps of switch (level, index) of topology t built with cfg (NULL: the
 * defaults of lcan_cfg_default): what lcan_network gives that instance (P_UP = 1 at the top, as
 * lcan_network passes). Fails (LCAN_ERR_ARG) on a NULL t or out, or a level or index out of range. */
lcan_status lcan_sw_cfg_of(const lcan_topo *t, const lcan_cfg *cfg, int level, uint32_t index,
                           lcan_sw_cfg *out);

/* The seed input lcan_network gives switch (level, index) for the network seed (spec 5, 13.1):
 * rotl(H1, salt[4:0]) ^ rotl(H2, salt[9:5]) ^ rotl(H3, salt[14:10]), so that seed ^ salt (or 1 if
 * that is 0), the value the switch loads on reset, is spec 5's state. */
uint32_t lcan_sw_seed_of(uint32_t net_seed, int level, uint32_t index);

typedef struct lcan_sw lcan_sw;

/* A switch in the state a reset with seed input 0 leaves (spec 9: LFSR = salt, or 1). LCAN_ERR_ARG
 * on a NULL argument or a bad cfg: level outside 1..LCAN_MAX_LEVELS, m or p_dn or p_up < 1,
 * w_up < 0, P = D + U above 128 (spec 1.1), ADDR_W outside 0..24, DIG_OFF + DIG_W > ADDR_W,
 * m > 2^DIG_W, PAYLOAD_W outside 1..32, DEPTH outside 1..255, FLOOD_Q outside 0..255 (in either
 * mode; circuit mode ignores it), an unknown mode or UP_CHOICE, FW > 63. LCAN_ERR_PARAM (a cfg
 * otherwise legal): UNICAST_ONLY neither 0 nor 1, or 1 with FLOOD_Q > 0 (spec 8.8; in either mode).
 * LCAN_ERR_NOMEM. *out is NULL and nothing is allocated on failure. The U reach rows (2^ADDR_W
 * bits each) are allocated here, as zero pages that cost memory only once written with something
 * other than all ones. */
lcan_status lcan_sw_new(const lcan_sw_cfg *cfg, lcan_sw **out);
void lcan_sw_free(lcan_sw *s);
int lcan_sw_ports(const lcan_sw *s);      /* P = D + U */
int lcan_sw_flit_width(const lcan_sw *s); /* FW = 2 + ADDR_W + PAYLOAD_W */

/* Inputs of one tick (spec 13.1). Arrays have P entries; flits hold FW bits (no valid bit: the
 * valid flag is apart, as on the RTL's pins; bits at FW and above are ignored). rx_valid, rx_flit,
 * tx_ret and port_off may be NULL (all 0); cfg_row holds ceil(2^ADDR_W / 64) words (bit a of the
 * row = bit a % 64 of word a / 64), read only when cfg_we (NULL: the write is ignored). A write
 * takes effect only for cfg_addr in row_base .. row_base + U - 1, not on reset ticks, and is used
 * from the next tick on (spec 14.2). */
typedef struct {
    int rst, clear;
    uint32_t seed;             /* the switch's seed (lcan_sw_seed_of), sampled on reset ticks */
    const uint8_t *rx_valid;
    const uint64_t *rx_flit;
    const uint8_t *tx_ret;     /* ack (circuit) / credit (packet) arriving back on output o */
    const uint8_t *port_off;
    int cfg_we;
    uint32_t cfg_addr;
    const uint64_t *cfg_row;
} lcan_sw_in;

/* Outputs of one tick: caller-provided arrays of P entries; any pointer may be NULL (not wanted).
 * Invalid flits are written as 0. dbg holds P bytes, or 2 * P bytes when cfg.mode is packet and
 * cfg.flood_q > 0 (spec 13.1): then dbg[P + o] is q_o, the count of output o's flood queue (spec
 * 8.7; 0 for an output without one). */
typedef struct {
    uint8_t *rx_ret;           /* ack-out (circuit) / credit-out (packet) register of input i */
    uint8_t *tx_valid;
    uint64_t *tx_flit;
    uint8_t *dbg;              /* spec 9: circuit {set_o, src_o[6:0]}, packet cr_o; then q_o (above) */
    uint32_t cnt_up, cnt_down, cnt_drop;
} lcan_sw_out;

/* One tick (spec 7.2 / 8.3 / 14): does nothing when s or in is NULL. */
void lcan_sw_tick(lcan_sw *s, const lcan_sw_in *in, lcan_sw_out *out);

#endif
