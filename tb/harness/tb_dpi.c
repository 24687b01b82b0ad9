/*
 * tb_dpi.c - Verilator front end of the lockstep harness: the DPI-C imports of tb/tb_top.v.
 * Packed vectors arrive as svBitVecVal arrays (32-bit words, least significant first), which is
 * the harness's own layout, so they are handed over without copying.
 */
#include "svdpi.h"
#include "tb.h"

int lcan_tb_init(int h, const svBitVecVal *m, const svBitVecVal *w, const svBitVecVal *p, int mode, int payload_w,
                 int depth, int up_choice, int np, int fw, int dbg_bytes, int faults, int nl, int ns, int rw,
                 int flood_q, int unicast_only);
void lcan_tb_fault_inputs(svBitVecVal *link_off, svBitVecVal *sw_off, int *cfg_we, int *cfg_addr,
                          svBitVecVal *cfg_row);
int lcan_tb_inputs(int *rst, int *clear, int *seed, svBitVecVal *inj_valid, svBitVecVal *inj_flit,
                   svBitVecVal *ej_ack);
void lcan_tb_outputs(const svBitVecVal *inj_ready, const svBitVecVal *inj_ack, const svBitVecVal *ej_valid,
                     const svBitVecVal *ej_flit, const svBitVecVal *cnt_up, const svBitVecVal *cnt_down,
                     const svBitVecVal *cnt_drop, const svBitVecVal *dbg);
void lcan_tb_final(void);

static tb_words g_words;
static tb_vin g_in; /* the inputs of the coming edge (the fault pins are fetched after the others) */

int lcan_tb_init(int h, const svBitVecVal *m, const svBitVecVal *w, const svBitVecVal *p, int mode, int payload_w,
                 int depth, int up_choice, int np, int fw, int dbg_bytes, int faults, int nl, int ns, int rw,
                 int flood_q, int unicast_only)
{
    tb_params prm;
    int l;
    prm.h = h;
    for (l = 1; l <= h && l <= LCAN_MAX_LEVELS; l++) {
        prm.m[l] = (int)m[l - 1];
        prm.w[l] = (int)w[l - 1];
        prm.p[l] = (int)p[l - 1];
    }
    prm.mode = mode;
    prm.payload_w = payload_w;
    prm.depth = depth;
    prm.up_choice = up_choice;
    prm.np = np;
    prm.fw = fw;
    prm.dbg_bytes = dbg_bytes;
    prm.faults = faults;
    prm.nl = nl;
    prm.ns = ns;
    prm.rw = rw;
    prm.flood_q = flood_q;
    prm.unicast_only = unicast_only;
    if (h < 1 || h > LCAN_MAX_LEVELS)
        return 2;
    int st = tb_core_init(&prm);
    if (st == 0)
        tb_core_words(&g_words);
    return st;
}

static void copy(svBitVecVal *dst, const uint32_t *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = src[i];
}

int lcan_tb_inputs(int *rst, int *clear, int *seed, svBitVecVal *inj_valid, svBitVecVal *inj_flit,
                   svBitVecVal *ej_ack)
{
    tb_vin in;
    if (tb_core_inputs(&in))
        return 1;
    g_in = in;
    *rst = (int)in.rst;
    *clear = (int)in.clear;
    *seed = (int)in.seed;
    copy(inj_valid, in.inj_valid, g_words.np);
    copy(inj_flit, in.inj_flit, g_words.flit);
    copy(ej_ack, in.ej_ack, g_words.np);
    return 0;
}

void lcan_tb_outputs(const svBitVecVal *inj_ready, const svBitVecVal *inj_ack, const svBitVecVal *ej_valid,
                     const svBitVecVal *ej_flit, const svBitVecVal *cnt_up, const svBitVecVal *cnt_down,
                     const svBitVecVal *cnt_drop, const svBitVecVal *dbg)
{
    tb_vout o = {inj_ready, inj_ack, ej_valid, ej_flit, cnt_up, cnt_down, cnt_drop, dbg, NULL};
    tb_core_outputs(&o);
}

/* FAULTS = 1 builds: the fault pins of the edge whose other inputs lcan_tb_inputs just gave. */
void lcan_tb_fault_inputs(svBitVecVal *link_off, svBitVecVal *sw_off, int *cfg_we, int *cfg_addr,
                          svBitVecVal *cfg_row)
{
    *cfg_we = (int)g_in.cfg_we;
    *cfg_addr = (int)g_in.cfg_addr;
    copy(link_off, g_in.link_off, g_words.nl);
    copy(sw_off, g_in.sw_off, g_words.ns);
    copy(cfg_row, g_in.cfg_row, g_words.rw);
}

void lcan_tb_final(void)
{
    tb_core_final();
}
