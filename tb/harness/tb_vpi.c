/*
 * tb_vpi.c - Icarus front end of the lockstep harness: the same calls as tb_dpi.c, registered as
 * VPI system tasks (Icarus has no DPI). tb/tb_top.v calls
 *   $lcan_tb_init(H, M, W, P, MODE, PAYLOAD_W, DEPTH, UP_CHOICE, NP, FW, DBG_ALL, FAULTS, NL, NS, RW,
 *                 FLOOD_Q, UNICAST_ONLY, status_reg)
 *   $lcan_tb_inputs(done_reg, rst, clear, seed, inj_valid, inj_flit, ej_ack)
 *   $lcan_tb_fault_inputs(link_off, sw_off, cfg_we, cfg_addr, cfg_row)   (FAULTS = 1 builds)
 *   $lcan_tb_outputs(inj_ready, inj_ack, ej_valid, ej_flit, cnt_up, cnt_down, cnt_drop, dbg)
 *   $lcan_tb_final
 * Vectors cross as s_vpi_vecval arrays; an X or Z bit on any RTL output is reported as a failure
 * (Verilator is two-state and would hide it).
 */
#include <stdlib.h>
#include <string.h>
#include <vpi_user.h>

#include "tb.h"

#define MAXARGS 18

static tb_words g_words;
static tb_vin g_in; /* the inputs of the coming edge (the fault pins are fetched after the others) */
static s_vpi_vecval *g_vec;
static size_t g_vec_len;
static uint32_t *g_out[8];

static int get_args(vpiHandle *h, int want)
{
    vpiHandle sys = vpi_handle(vpiSysTfCall, NULL);
    vpiHandle it = vpi_iterate(vpiArgument, sys);
    int n = 0;
    vpiHandle a;
    while (it != NULL && (a = vpi_scan(it)) != NULL) {
        if (n < MAXARGS)
            h[n] = a;
        n++;
    }
    if (n != want) {
        vpi_printf("lcan: tb VPI task called with %d arguments, expected %d\n", n, want);
        return -1;
    }
    return 0;
}

static int get_int(vpiHandle h)
{
    s_vpi_value v;
    v.format = vpiIntVal;
    vpi_get_value(h, &v);
    return (int)v.value.integer;
}

static void put_int(vpiHandle h, int x)
{
    s_vpi_value v;
    v.format = vpiIntVal;
    v.value.integer = x;
    vpi_put_value(h, &v, NULL, vpiNoDelay);
}

/* Read a vector into words; returns 1 if any bit is X or Z. */
static int get_vec(vpiHandle h, uint32_t *dst, size_t words)
{
    s_vpi_value v;
    int xz = 0;
    v.format = vpiVectorVal;
    vpi_get_value(h, &v);
    int size = vpi_get(vpiSize, h);
    size_t n = ((size_t)size + 31) / 32;
    for (size_t i = 0; i < words; i++) {
        if (i < n) {
            dst[i] = (uint32_t)v.value.vector[i].aval;
            if (v.value.vector[i].bval)
                xz = 1;
        } else {
            dst[i] = 0;
        }
    }
    return xz;
}

static void put_vec(vpiHandle h, const uint32_t *src, size_t words)
{
    s_vpi_value v;
    if (g_vec_len < words) {
        free(g_vec);
        g_vec = malloc(words * sizeof *g_vec);
        g_vec_len = words;
    }
    for (size_t i = 0; i < words; i++) {
        g_vec[i].aval = (PLI_INT32)src[i];
        g_vec[i].bval = 0;
    }
    v.format = vpiVectorVal;
    v.value.vector = g_vec;
    vpi_put_value(h, &v, NULL, vpiNoDelay);
}

static PLI_INT32 init_calltf(PLI_BYTE8 *ud)
{
    vpiHandle a[MAXARGS];
    tb_params prm;
    uint32_t lv[3][LCAN_MAX_LEVELS];
    (void)ud;
    if (get_args(a, 18) != 0) {
        vpi_control(vpiFinish, 1);
        return 0;
    }
    memset(&prm, 0, sizeof prm);
    prm.h = get_int(a[0]);
    if (prm.h < 1 || prm.h > LCAN_MAX_LEVELS) {
        put_int(a[17], 2);
        return 0;
    }
    for (int k = 0; k < 3; k++)
        get_vec(a[1 + k], lv[k], (size_t)prm.h);
    for (int l = 1; l <= prm.h; l++) {
        prm.m[l] = (int)lv[0][l - 1];
        prm.w[l] = (int)lv[1][l - 1];
        prm.p[l] = (int)lv[2][l - 1];
    }
    prm.mode = get_int(a[4]);
    prm.payload_w = get_int(a[5]);
    prm.depth = get_int(a[6]);
    prm.up_choice = get_int(a[7]);
    prm.np = get_int(a[8]);
    prm.fw = get_int(a[9]);
    prm.dbg_bytes = get_int(a[10]);
    prm.faults = get_int(a[11]);
    prm.nl = get_int(a[12]);
    prm.ns = get_int(a[13]);
    prm.rw = get_int(a[14]);
    prm.flood_q = get_int(a[15]);
    prm.unicast_only = get_int(a[16]);
    int st = tb_core_init(&prm);
    if (st == 0) {
        tb_core_words(&g_words);
        size_t sz[8] = {g_words.np, g_words.np, g_words.np, g_words.flit, g_words.cnt, g_words.cnt, g_words.cnt,
                        g_words.dbg};
        for (int i = 0; i < 8; i++)
            g_out[i] = calloc(sz[i] + 1, 4);
    }
    put_int(a[17], st);
    return 0;
}

static PLI_INT32 inputs_calltf(PLI_BYTE8 *ud)
{
    vpiHandle a[MAXARGS];
    tb_vin in;
    (void)ud;
    if (get_args(a, 7) != 0) {
        vpi_control(vpiFinish, 1);
        return 0;
    }
    if (tb_core_inputs(&in)) {
        put_int(a[0], 1);
        return 0;
    }
    g_in = in;
    put_int(a[1], (int)in.rst);
    put_int(a[2], (int)in.clear);
    put_int(a[3], (int)in.seed);
    put_vec(a[4], in.inj_valid, g_words.np);
    put_vec(a[5], in.inj_flit, g_words.flit);
    put_vec(a[6], in.ej_ack, g_words.np);
    put_int(a[0], 0);
    return 0;
}

static PLI_INT32 outputs_calltf(PLI_BYTE8 *ud)
{
    static const char *names[8] = {"inj_ready", "inj_ack", "ej_valid", "ej_flit",
                                   "cnt_up", "cnt_down", "cnt_drop", "dbg"};
    vpiHandle a[MAXARGS];
    tb_vout o;
    (void)ud;
    if (get_args(a, 8) != 0) {
        vpi_control(vpiFinish, 1);
        return 0;
    }
    size_t sz[8] = {g_words.np, g_words.np, g_words.np, g_words.flit, g_words.cnt, g_words.cnt, g_words.cnt,
                    g_words.dbg};
    o.xz = NULL;
    for (int i = 0; i < 8; i++)
        if (get_vec(a[i], g_out[i], sz[i]) && o.xz == NULL)
            o.xz = names[i];
    o.inj_ready = g_out[0];
    o.inj_ack = g_out[1];
    o.ej_valid = g_out[2];
    o.ej_flit = g_out[3];
    o.cnt_up = g_out[4];
    o.cnt_down = g_out[5];
    o.cnt_drop = g_out[6];
    o.dbg = g_out[7];
    tb_core_outputs(&o);
    return 0;
}

static PLI_INT32 fault_inputs_calltf(PLI_BYTE8 *ud)
{
    vpiHandle a[MAXARGS];
    (void)ud;
    if (get_args(a, 5) != 0) {
        vpi_control(vpiFinish, 1);
        return 0;
    }
    put_vec(a[0], g_in.link_off, g_words.nl);
    put_vec(a[1], g_in.sw_off, g_words.ns);
    put_int(a[2], (int)g_in.cfg_we);
    put_int(a[3], (int)g_in.cfg_addr);
    put_vec(a[4], g_in.cfg_row, g_words.rw);
    return 0;
}

static PLI_INT32 final_calltf(PLI_BYTE8 *ud)
{
    (void)ud;
    tb_core_final();
    return 0;
}

static void reg_task(const char *name, PLI_INT32 (*fn)(PLI_BYTE8 *))
{
    s_vpi_systf_data d;
    memset(&d, 0, sizeof d);
    d.type = vpiSysTask;
    d.tfname = (PLI_BYTE8 *)(uintptr_t)name;
    d.calltf = fn;
    vpi_register_systf(&d);
}

static void lcan_tb_register(void)
{
    reg_task("$lcan_tb_init", init_calltf);
    reg_task("$lcan_tb_inputs", inputs_calltf);
    reg_task("$lcan_tb_outputs", outputs_calltf);
    reg_task("$lcan_tb_fault_inputs", fault_inputs_calltf);
    reg_task("$lcan_tb_final", final_calltf);
}

void (*vlog_startup_routines[])(void) = {lcan_tb_register, NULL};
