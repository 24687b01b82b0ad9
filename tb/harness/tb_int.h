/*
 * tb_int.h - state of the lockstep harness, shared by tb_core.c (simulator side, comparison,
 * reports) and tb_drive.c (traffic drivers). Not seen by the front ends.
 */
#ifndef LCAN_TB_INT_H
#define LCAN_TB_INT_H

#include <stdint.h>
#include <stdio.h>
#include <ucontext.h>
#include "lcan.h"
#include "tb.h"

#define TB_STR 512

typedef struct {
    int have;
    uint64_t cycle;
    const char *signal; /* inj_ready inj_ack ej_valid ej_flit cnt_up cnt_down cnt_drop dbg */
    int level;          /* switch level (1 for the leaf-facing pins), 0 if not a switch */
    long index;         /* switch index, -1 if none (counters) */
    int port;           /* local port of that switch, -1 if none */
    size_t dbg_byte;    /* dbg: the byte of the view (the second block: flood queue counts, spec 8.7) */
    long net_port;      /* network port for pin signals, -1 otherwise */
    uint64_t expected, got;
    char where[TB_STR]; /* human-readable: switch label and digits */
} tb_mismatch;

typedef struct tb_ctx {
    tb_params prm;
    lcan_topo *topo;
    lcan_net *model; /* NULL with +nomodel (RTL alone, for the cost figure) */
    int h, U0, FW, AW;
    uint32_t N, NP;
    size_t dbg_bytes;                     /* the whole debug view (both blocks with flood queues) */
    size_t dbg_block;                     /* spec 9's DBG_BYTES: one byte per switch output (cr / set,src) */
    size_t dbg_base[LCAN_MAX_LEVELS + 2]; /* first debug byte of level l */
    int Pl[LCAN_MAX_LEVELS + 1];          /* local ports of a level-l switch */
    tb_words words;

    /* options (plusargs) */
    char cmd[32];       /* lockstep | route | collective | traffic | embed */
    char spec[TB_STR];  /* spec as the user wrote it (reporting only) */
    char sim[32];       /* verilator | icarus */
    char pattern[TB_STR];
    uint64_t cycles_target;
    uint64_t seed;
    uint32_t trials;
    uint64_t max_passes;
    char engine[32];    /* route / collective: the --engine name printed (rtl | icarus) */
    /* collective: the options of `lcan collective` (cmodel/tool/cmd_collective.c) */
    char op[32], algo[32], combine[32], broadcast[32]; /* broadcast: flood | tree (the head bit) */
    uint64_t root, flits, trees, compact, depth_req; /* depth_req: --depth as given, 0 if none */
    int64_t flood_q_req; /* --flood-queue as given (+flood_q), -1 if none */
    int phased;
    /* traffic: the options of `lcan traffic` (cmodel/tool/cmd_traffic.c) */
    char sweep[64], burst[64], pattern_file[TB_STR];
    double load, bcast;
    uint64_t warmup, measure, drain_max;
    int drain, csv;
    /* embed: the options of `lcan embed` (cmodel/tool/cmd_embed.c); map_file: file:PATH made absolute */
    char guest[TB_STR], map[TB_STR], map_file[TB_STR], inject[32];
    int json, nomodel, wire, quiet, rerun;
    int progress, progress_tty, progress_shown; /* +progress or stderr a terminal (tb_core.c progress) */
    double prog_done, prog_total; /* route / traffic: work done and to do, set by the drivers */
    double prog_base;             /* traffic: window cycles of the load points before this one */
    uint64_t prog_window, prog_cycle0; /* traffic: warm-up + measure, first cycle of this point */
    long wire_ports;    /* probes in the wiring check (-1: every port) */
    double rate;        /* packet mode: injection probability per port per tick */
    double bcast_rate;  /* packet mode: broadcasts per leaf per tick */
    double flood_share; /* packet mode: the share of them flooding (head = 1), -1: half (one random bit) */
    int64_t flip_at;    /* negative test: corrupt the model's view at this cycle */
    int64_t stop_at;    /* rerun: stop after this cycle */
    char wavedir[TB_STR];
    struct lcan_faults *faults; /* +faults=LIST (route, traffic, collective), NULL if none */
    uint64_t fault_at;          /* +fault_at=T (traffic) */

    /* inputs of the pending edge, as words */
    uint32_t ctl_rst, ctl_clear, ctl_seed;
    uint32_t *vi_valid, *vi_flit, *vi_ack;
    uint32_t ctl_cfg_we, ctl_cfg_addr;
    uint32_t *vi_link_off, *vi_sw_off, *vi_cfg_row; /* FAULTS = 1 builds */
    uint64_t NL, NS, RW;                             /* fault pin widths (spec 13) */
    /* RTL outputs after the last edge, unpacked */
    uint8_t *r_ready, *r_ack, *r_ejv, *r_dbg;
    uint64_t *r_ejf;
    uint32_t r_cu[LCAN_MAX_LEVELS], r_cd[LCAN_MAX_LEVELS], r_cdrop[LCAN_MAX_LEVELS];
    /* model outputs */
    uint8_t *m_ready, *m_ack, *m_ejv, *m_dbg;
    uint64_t *m_ejf;
    uint32_t m_cu[LCAN_MAX_LEVELS], m_cd[LCAN_MAX_LEVELS], m_cdrop[LCAN_MAX_LEVELS];

    /* run state */
    uint64_t cycle;   /* edges clocked so far (the edge being computed has this number) */
    uint64_t packets; /* lockstep: packets (circuit: sources connected) */
    uint64_t checksum;/* FNV-1a over every RTL output word of every cycle */
    int status;       /* 0 pass, 1 mismatch / check failure, 2 configuration error */
    int done, started;
    tb_mismatch mm;
    char fail[TB_STR];/* a check failure that is not a model mismatch */
    int64_t fail_cycle; /* cycle of the mismatch / failure, -1 if none */
    char waveform[TB_STR * 2];
    char *result;     /* route: the JSON / text to print at the end (malloc'd) */
    double t_start, t_last;
    uint64_t cyc_last;

    ucontext_t uc_sim, uc_drv;
    void *stack;
} tb_ctx;

/* tb_core.c */
lcan_status tb_engine_tick(void *engine, const lcan_in *in, lcan_out *out);
void tb_fail(tb_ctx *c, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void tb_usage_error(tb_ctx *c, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void tb_switch_label(const tb_ctx *c, int level, uint32_t index, char *buf, size_t len);
double tb_now(void);

/* tb_drive.c */
void tb_drive_main(tb_ctx *c);

#endif
