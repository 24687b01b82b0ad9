/*
 * tb.h - the lockstep harness shared by the Verilator (DPI-C) and Icarus (VPI) front ends.
 *
 * The simulator owns the clock: each cycle the Verilog top (tb/tb_top.v) asks the harness for the
 * inputs of the coming edge (tb_core_inputs), clocks lcan_network, and hands back everything the
 * RTL shows after the edge (tb_core_outputs). The traffic drivers (wiring check, the spec 7.5 pass
 * driver through lcan_route_perm, the packet generator) are ordinary C loops that call a tick
 * function like lcan_net_tick; they run in a coroutine (ucontext) so that each call of
 * tb_engine_tick suspends the driver until the simulator has clocked the RTL once. The engine tick
 * also ticks the golden model with the same inputs and compares every output and the debug view.
 *
 * Vectors cross the simulator boundary as arrays of 32-bit words, least significant word first -
 * the layout of both svBitVecVal (DPI) and the aval half of s_vpi_vecval (VPI).
 */
#ifndef LCAN_TB_H
#define LCAN_TB_H

#include <stddef.h>
#include <stdint.h>
#include "lcan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Build-time parameters of the Verilog top, as the simulator elaborated them. */
typedef struct {
    int h;
    int m[LCAN_MAX_LEVELS + 1], w[LCAN_MAX_LEVELS + 1], p[LCAN_MAX_LEVELS + 1]; /* 1..h */
    int mode, payload_w, depth;
    int up_choice;         /* UP_CHOICE (spec 6): 1 uniform, 0 rotate (LCAN_UP_UNIFORM / _ROTATE) */
    int np, fw, dbg_bytes; /* the top's derived widths, checked against the model's; dbg_bytes is the whole
                            * view: 2 * DBG_BYTES with flood queues (spec 9) */
    int faults;            /* FAULTS (spec 14): 1 = the fault pins are driven (tb_core_inputs' fault fields) */
    int nl, ns, rw;        /* fault pin widths NL, NS, RW (spec 13), checked against the model's */
    int flood_q;           /* FLOOD_Q (spec 8.7): flood queue flits, 0 = none (packet mode) */
    int unicast_only;      /* UNICAST_ONLY (spec 8.8): 1 = the bcast and head bits are not interpreted */
} tb_params;

/* Word counts of the pin vectors (what the front ends copy). */
typedef struct {
    size_t np;   /* inj_valid, ej_ack, inj_ready, inj_ack, ej_valid */
    size_t flit; /* inj_flit, ej_flit: NP*FW bits */
    size_t cnt;  /* cnt_up/down/drop: H*32 bits */
    size_t dbg;  /* dbg: DBG_BYTES*8 bits (twice that with flood queues) */
    size_t nl, ns, rw; /* link_off, sw_off, cfg_row (FAULTS = 1 builds) */
} tb_words;

/* Inputs of one edge, owned by the harness (front ends copy them out). */
typedef struct {
    uint32_t rst, clear, seed;
    const uint32_t *inj_valid, *inj_flit, *ej_ack;
    /* faults (spec 14.1-14.2): copied to the pins only by FAULTS = 1 builds (tb_top.v) */
    uint32_t cfg_we, cfg_addr;
    const uint32_t *link_off, *sw_off, *cfg_row;
} tb_vin;

/* Outputs after one edge, owned by the front end (the harness copies them in). */
typedef struct {
    const uint32_t *inj_ready, *inj_ack, *ej_valid, *ej_flit;
    const uint32_t *cnt_up, *cnt_down, *cnt_drop, *dbg;
    const char *xz; /* four-state simulators: name of an output with an X or Z bit, else NULL */
} tb_vout;

/* Called once at time 0. Returns 0 on success (then tb_core_words is valid); on a configuration
 * error prints "lcan: ..." and returns non-zero (the front end then calls tb_core_final). */
int tb_core_init(const tb_params *prm);
void tb_core_words(tb_words *w);
/* Inputs for the next edge. Returns 0 to clock, 1 when the run is over (do not clock). */
int tb_core_inputs(tb_vin *in);
/* Outputs after the edge just clocked. */
void tb_core_outputs(const tb_vout *out);
/* End of run: prints the result, frees, and exits the process with the harness's status
 * (0 pass, 1 mismatch or check failure, 2 usage/configuration error). Does not return. */
void tb_core_final(void);

#ifdef __cplusplus
}
#endif
#endif
