#!/usr/bin/env python3
"""Mutation check of the lockstep suite (issue 4): `make mutants`.

Each mutant is one small edit of rtl/ (a flipped comparison, a swapped digit index, a changed
arbitration priority, an off-by-one, a stuck acknowledge, ...). For each, a scratch copy of the
repository gets the edit and the lockstep suite below runs on it under Icarus (fast to compile; the
C model checks the RTL every cycle), then the directed cell tests (tb/cells). A mutant both leave alive
faces the switch-level lockstep (tb/switch, Verilator: `tb/switch/tb-switch run --seeds 2`, which
drives single switches with inputs no network produces), and one those three leave alive faces the
floor proofs of `make test-floor` (tb/floor/prove-floor.sh: rtl/lcan_switch proven equal to the
hand-written (2,2) switches, in the configurations without debug view that the benches do not
build; yosys, seconds each). The mutant is KILLED
when any run fails (a mismatch, a data or delivery error, a failed cell check, or a compile
error), SURVIVES otherwise; the report says which stage killed it. Prints the kill rate; docs/verification.md
lists the survivors with the reason.

Every edit must match its file exactly once, so the list cannot silently go stale when rtl/ changes.

Two sets: the hand-written MUTANTS below (ids 1-99, each aimed at one piece of logic) and mutants
GENERATED from rtl/ (ids 101..): every operator, constant and condition of the files of
rtl/lcan_network.f and the include files rtl/*.vh outside constant functions, parameter lines,
parameter guards (g_bad_parameters: only illegal parameters reach them) and system tasks gets one
edit per rule of GEN_RULES (== <-> !=, & <-> |, + <-> -, < <-> <=, > <-> >=, << <-> >>, && <-> ||,
1'b0 <-> 1'b1, a dropped ~); each edit is the whole source line (with the lines above it when the
line alone is not unique), so it matches once. `--generated K` keeps every K-th (default 2, in file
and line order: 362 of 723 at stop 25; 1 = all). A mutant that does not compile is reported as
KILLED (build) and scored apart.

  scripts/mutants.py [--only N,N..] [--jobs J] [--list] [--generated K | --no-generated]
                     [--stages icarus,cells,switch,floor] [--switch-form short|tiny] [--require-killed]

--stages runs only the named stages (default all four); --switch-form tiny runs the third stage on
tb/switch's tiny form (six units: two level-1 switches and the odd pgft's level 2, built in about a
quarter of the short form's time) instead of the short form (46 units); --require-killed exits 1 when a mutant
survives or any hand-written edit (run or not) no longer matches rtl/ exactly once (the short form
in `make test`: `make test-mutants`, a few hand-written mutants against the switch-level lockstep
alone, so that a bench that lost its teeth, or a list gone stale, fails the suite).
"""
import re
import argparse
import concurrent.futures as cf
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (id, file, old, new, what)
MUTANTS = [
    (1, "lcan_lfsr.v", "MASK = 32'h80200003;", "MASK = 32'h80200001;", "LFSR polynomial: a tap dropped"),
    (2, "lcan_lfsr.v", "wire [31:0] seeded = seed ^ salt;", "wire [31:0] seeded = seed;", "LFSR seeding ignores the switch salt"),
    (3, "lcan_lfsr.v", "LCAN_LFSR_STEP(x) ((x >> 1) ^", "LCAN_LFSR_STEP(x) ((x << 1) ^", "LFSR shifts the wrong way"),
    (4, "lcan_offsets.vh", "(of_m_in >= OF_P[7:0]) ?", "(of_m_in > OF_P[7:0]) ?", "r_in reduction off by one"),
    (5, "lcan_offsets.vh", "of_m_up = of_state[15:8]", "of_m_up = of_state[7:0]", "r_up taken from r_in's bits"),
    (6, "lcan_offsets.vh", "of_m_dn = of_state[23:16]", "of_m_dn = of_state[15:8]", "r_dn taken from r_up's bits"),
    (7, "lcan_rr_pick.v", "assign gnt = (|req_hi) ? first_hi : first_all;", "assign gnt = first_all;", "arbiter: fixed priority instead of rotation"),
    (8, "lcan_rr_pick.v", "wire [WIDTH-1:0] ge_mask = ones << start;", "wire [WIDTH-1:0] ge_mask = (ones << start) << 1;", "arbiter: rotation start off by one"),
    (9, "lcan_alloc.v", ".x  ({cls & ~ge_in, cls & ge_in}),", ".x  ({cls & ge_in, cls & ~ge_in}),", "allocator: requester rotation reversed"),
    (10, "lcan_alloc.v", "assign bc_won = free[0] & (|spc) & ~(|(m0 & ~sb));", "assign bc_won = free[0] & (|spc);", "allocator: a broadcast takes output 0 from an earlier class request"),
    (11, "lcan_alloc.v", "assign sel[(BASE+k)*P +: P] = ~free[k] ? {P{1'b0}} :\n                                                  bc_won ? mx[k*P +: P] : m[k*P +: P];",
     "assign sel[(BASE+k)*P +: P] = ~free[k] ? {P{1'b0}} :\n                                                  m[k*P +: P];",
     "allocator: class ranks do not skip output 0 taken by a broadcast"),
    (12, "lcan_alloc.v", "assign pos[b*K +: K]  = (pos_2[b*2*K +: K] & ge_r) | (pos_2[b*2*K + K +: K] & ~ge_r);",
     "assign pos[b*K +: K]  = pos_2[b*2*K +: K];", "allocator: output positions ignore the group rotation"),
    (13, "lcan_route.v", "(dest[ADDR_W-1:HI] != label[ADDR_W-1:HI])", "(dest[ADDR_W-1:HI] == label[ADDR_W-1:HI])", "route: LCA test flipped"),
    (14, "lcan_route.v", "wire [DIG_W-1:0] x = dest[DIG_OFF +: DIG_W];", "wire [DIG_W-1:0] x = dest[0 +: DIG_W];", "route: digit index swapped (always digit 1)"),
    (15, "lcan_route.v", "(x_idx * P_DN_IDX + r_dn)", "(x_idx * P_DN_IDX)", "route: parallel-link rotation ignored"),
    (16, "lcan_route.v", "(D_IDX + r_up)", "(D_IDX)", "route: upper rotation ignored"),
    (17, "lcan_route.v", "assign bad = ~up & ~(|child);", "assign bad = 1'b0;", "route: invalid digit not flagged"),
    (18, "lcan_switch_circuit.v", "data_sel_r[o*P + i] = set_q[o] & rx_valid[i] & ~rx_head[i];", "data_sel_r[o*P + i] = set_q[o] & rx_valid[i];", "circuit: headers follow set circuits as data"),
    (19, "lcan_switch_circuit.v", "assign rx_ret = ack_q;", "assign rx_ret = {P{1'b0}};", "circuit: acknowledge stuck at 0"),
    (20, "lcan_switch_circuit.v", "if (rst || clear) begin\n                    set_q <= {P{1'b0}};\n                    src_q <=", "if (rst) begin\n                    set_q <= {P{1'b0}};\n                    src_q <=", "circuit: clear does not release"),
    (21, "lcan_switch_circuit.v", "assign avail = ~set_q;", "assign avail = {P{1'b1}};", "circuit: a set downer accepts another header"),
    (22, "lcan_switch.v", "if (wr_ev_q[go] && go >= D)", "if (wr_ev_q[go] && go > D)", "counters: cnt_up off by one port"),
    (23, "lcan_switch.v", "drop_ev[go] = cand_valid[go] && !granted[go];", "drop_ev[go] = cand_valid[go];", "counters: every header counted as dropped"),
    (24, "lcan_switch.v", "assign lfsr_step = (|cand_valid) & ~clear;", "assign lfsr_step = ~clear;", "LFSR steps on every tick (circuit mode)"),
    (25, "lcan_switch.v", "assign req_spc[i*G + M_L] = rq[i] & bcast & ~served[i*P + D];", "assign req_spc[i*G + M_L] = 1'b0;", "climbing broadcast never requests upper 0"),
    (26, "lcan_switch.v", "& want_all) == want_all)", "& want_all) != want_all)", "broadcast consumed before all copies left"),
    (27, "lcan_switch_packet.v", ".push (rx_valid[g] & ~(empty & consume[g]))", ".push (rx_valid[g])", "packet: a bypassed flit is also stored"),
    (28, "lcan_switch_packet.v", "assign cand_flit[g*FW +: FW] = empty ? rx_flit[g*FW +: FW] : head;", "assign cand_flit[g*FW +: FW] = head;", "packet: bypass takes the FIFO head"),
    (29, "lcan_switch_packet.v", "if (wr[g] && !tx_ret[g])", "if (wr[g])", "packet: credit returned on a send tick is lost"),
    (30, "lcan_switch_packet.v", "assign avail[g] = (cr_q != {CW{1'b0}});", "assign avail[g] = 1'b1;", "packet: credits ignored"),
    (31, "lcan_switch_packet.v", "served_d = (served_q | grant[g*P +: P]) & MASK & {P{~consume[g]}};", "served_d = grant[g*P +: P] & MASK & {P{~consume[g]}};", "packet: broadcast forgets copies already sent"),
    (32, "lcan_switch_packet.v", "ret_d = consume;", "ret_d = {P{1'b0}};", "packet: credit return stuck at 0"),
    (33, "lcan_fifo.v", "wire [AW-1:0] rd_nx = (rd_q == LAST) ? {AW{1'b0}} : rd_q + PTR_ONE;", "wire [AW-1:0] rd_nx = rd_q + PTR_ONE;", "FIFO: read pointer wraps only at 2^AW"),
    (34, "lcan_fifo.v", "assign full  = (cnt_q == CNT_FULL);", "assign full  = 1'b0;", "FIFO: never full"),
    (35, "lcan_fifo.v", "rd_d  = rd_q ^ ({AW{do_pop}} & (rd_q ^ rd_nx));", "rd_d  = rd_q ^ ({AW{do_push}} & (rd_q ^ rd_nx));", "FIFO: read pointer advances on push"),
    (36, "lcan_prefix_count.v", "assign v[b*N +: N] = g_pl[b].sm | g_pl[W-1].co;", "assign v[b*N +: N] = g_pl[b].sm;", "allocator ranks wrap instead of saturating"),
    (37, "lcan_alloc.v", "wire [P-1:0] first = spc & ~sb;", "wire [P-1:0] first = spc;", "allocator: every broadcast requester wins output 0"),
    (38, "lcan_prefix_count.v", "wire [N-1:0] x2 = g_lvl[s-1].v[b*N +: N] << (1 << (s - 1));", "wire [N-1:0] x2 = g_lvl[s-1].v[b*N +: N] << ((1 << (s - 1)) - 1);", "prefix count: tree adds the wrong span"),
    (39, "lcan_alloc.v", "assign out_src[k*SW + b] = |(sel[k*P +: P] & idx_bit(b));", "assign out_src[k*SW + b] = |sel[k*P +: P];", "allocator: winner index encoded wrong (cell tests only)"),
    (40, "lcan_switch.v", "wire          uni = cand_valid[i] & ~bcast;", "wire          uni = cand_valid[i];", "a broadcast also requests as a unicast"),
    (41, "lcan_switch.v", "up_perm_q <= sig_next_q;", "up_perm_q <= up_perm_q;", "sigma drawn ahead: never moved into use (sigma fixed after reset)"),
    (42, "lcan_switch.v", "sig_next_q <= sig_init_next;", "sig_next_q <= sig_init;", "sigma drawn ahead: after reset one step behind the LFSR"),
    (43, "lcan_lfsr.v", "assign state_next2 = `LCAN_LFSR_STEP(s_step1);", "assign state_next2 = s_step1;", "sigma drawn ahead from one step, not two"),
    (44, "lcan_switch_packet.v", ".arrive(rx_valid[g]),", ".arrive(rx_valid[g] & ~empty),", "packet: a flit arriving at an empty FIFO is not written (a bypass flit kept waiting is lost)"),
    (45, "lcan_fifo.v", "wire do_push = push & ~full;", "wire do_push = arrive & ~full;", "FIFO: every arriving flit becomes an entry (a consumed bypass flit too)"),
    (46, "lcan_switch.v", "if (!HOLD_OUT[go] || tx_valid_d[go])", "if (1)", "held links: a switch clears its flit register when it does not write it (the receiver's one-flit FIFO loses its entry)"),
    (47, "lcan_network.v", "(inj_valid[q] && port_ready[q]) ? inj_flit[q*FW +: FW] :\n                                                                            inj_flit_q;", "(inj_valid[q] && port_ready[q]) ? inj_flit[q*FW +: FW] :\n                                                                            {FW{1'b0}};", "held links: the injection register is cleared when not loaded (a waiting flit at a level-1 switch is lost)"),
    (48, "lcan_switch.v", "if (HOLD_OUT[go] || wr[go])\n                    xbar_flit[go*FW +: FW] = xtree[0];", "if (1)\n                    xbar_flit[go*FW +: FW] = xtree[0];", "binary crossbar (5-8 ports): an output not written (and not held) carries the flit of input out_src, not 0"),
    (85, "lcan_switch.v", "if (HOLD_OUT[go] || wr[go])\n                    xbar_flit[go*FW +: FW] = pcol_flit[go*FW +: FW];", "if (1)\n                    xbar_flit[go*FW +: FW] = pcol_flit[go*FW +: FW];", "packet crossbar up to 4 ports (PCOL): an output not written carries its column's flit, not 0"),
    (49, "lcan_alloc.v", "if (j <= n - 2 && q[(rr + j) % n])", "if (j <= n - 2 && q[(rr + n - j) % n])", "allocator pick form (unicast only, P <= 4): the rotation scanned downwards (the circuit switches' pick form too since stop 39: killed by the circuit lockstep; and by make prove-alloc's PICK_P shapes)"),
    (50, "lcan_alloc.v", "pick_first = to_idx((rr + n - 1) % n);", "pick_first = to_idx(rr);", "allocator pick form: the last requester of the scan (taken without a test) gets the first's index (killed as 49)"),
    (51, "lcan_fifo.v", "if (rst || do_pop || (arrive && !push && empty))", "if (rst || do_pop)", "one-entry FIFO: a flit consumed through the bypass is kept as an entry"),
    (52, "lcan_alloc.v", "assign req_gnt[i] = |by;", "assign req_gnt[i] = 1'b0;", "allocator: req_gnt never set (a granted candidate is not consumed)"),
    (53, "lcan_alloc.v", "assign mq = {free[0] ? ob : oa, oa};", "assign mq = {free[0] ? oa : ob, oa};", "allocator pick form of two uppers (PICK_U): virtual output 1 takes the first requester when virtual output 0 is free (killed by the unicast-only DEPTH 1 lockstep run, and by make prove-alloc's PICK_U shapes)"),
    (54, "lcan_alloc.v", "wire [SW-1:0] r_d = (r_in < to_idx(D)) ? r_in : {SW{1'b0}};", "wire [SW-1:0] r_d = r_in;", "allocator pick form of two uppers: a rotation r_in >= D not mapped to a scan from downer 0 (killed as 53)"),
    (55, "lcan_alloc.v", "(up_perm[k] | ~free[0]) ? wa : wb;", "up_perm[k] ? wa : wb;", "allocator pick form of two uppers: upper k's crossbar index ignores a busy virtual output 0 (killed as 53)"),
    (70, "lcan_switch_circuit.v", "((src_q[gx*SW +: SW] & {SW{set_q[gx]}}) | out_src[gx*SW +: SW])) & omask(gx);", "(out_src[gx*SW +: SW])) & omask(gx);", "circuit binary crossbar: data selected by the (idle) allocator, not the circuit's source"),
    (71, "lcan_switch_circuit.v", "? col : w ? col : {FW{1'b0}};", "? col : col;", "circuit binary crossbar: an output not written carries a flit, not 0"),
    (72, "lcan_xbar_col.v", "if (sel == k[SW-1:0])", "if (sel <= k[SW-1:0])", "crossbar column: the last input at or above the select taken"),
    (73, "lcan_alloc.v", "if ((j + P - rr) % P < (ii + P - rr) % P)", "if ((j + P - rr) % P > (ii + P - rr) % P)", "allocator flat form (broadcast switches, P <= 4): a one-output group goes to the last requester in rotated order, not the first"),
    (74, "lcan_alloc.v", "end else if (spc[(rr + j) % P] && !t0) begin", "end else if (spc[(rr + j) % P]) begin", "allocator flat form of two uppers: a broadcast takes upper 0 also when a class requester took it before"),
    (75, "lcan_alloc.v", "if (up_perm[0]) begin", "if (1'b1) begin", "allocator flat form of two uppers: class UP scans upper 0 first whatever sigma is"),
    (76, "lcan_alloc.v", "assign ovw[BASE] = free[0] & (|req);", "assign ovw[BASE] = |req;", "allocator flat form: an output without credit is written when requested"),
    (77, "lcan_fifo.v", "wire keep = ~(do_pop | (arrive & ~push & empty)) & (~empty | arrive);", "wire keep = ~do_pop & (~empty | arrive);", "one-entry FIFO, LATE_POP (held links with broadcasts): a flit consumed through the bypass is kept as an entry"),
    (78, "lcan_switch_packet.v", "served_d = (served_q | grant[g*P +: P]) & MASK & {P{~consume[g]}};", "served_d = (served_q | grant[g*P +: P]) & MASK;", "packet: served not cleared when the candidate is consumed (the next broadcast of that input skips outputs)"),
    (79, "lcan_switch_circuit.v", "UMASK = (DSW >= SW || BIN == 0) ? {SW{1'b1}} : ((1 << DSW) - 1);", "UMASK = (DSW >= SW || BIN == 0) ? {SW{1'b1}} : ((1 << DSW) - 2);", "circuit binary crossbar: an upper output's src masked below the downers (a (2,2) switch's uppers always take input 0)"),
    (80, "lcan_switch_circuit.v", "                src_q <= bsel;", "                src_q <= src_q;", "circuit without the debug view (src loaded with the select): src never loaded (the lockstep benches keep the debug view: killed by the floor stage's circuit proof, a counterexample from reset)"),
    (81, "lcan_alloc.v", "ln_r[c4 + 1] = ln_r[c4 + 1] | (cls[(rr + j) % NR] & ~sbf & (|(hc >> c4)));", "ln_r[c4 + 1] = ln_r[c4 + 1] | (cls[(rr + j) % NR] & (|(hc >> c4)));", "allocator flat form of more than two uppers (g_flatu): class requesters after the first broadcast count against its claim on upper 0 (killed by the lcan(2,3,8) lockstep run and make prove-alloc's FLAT_P shapes with U > 2)"),
    (82, "lcan_alloc.v", "ov[u3] = bcw ? ovx : ovq;", "ov[u3] = ovq;", "allocator flat form of more than two uppers: out_valid ignores a winning broadcast (upper 0 not written, or the class requesters' upper written without its flit; killed as 81)"),
    (83, "lcan_switch.v", ".sel    (out_idx[gpc*SW +: KSW]),", ".sel    (out_idx[gpc*SW +: KSW] ^ 1'b1),", "packet crossbar up to 4 ports (PCOL): each column selects the neighbouring input"),
    (84, "lcan_switch.v", "                    xbar_flit[go*FW +: FW] = pcol_flit[go*FW +: FW];", "                    xbar_flit[go*FW +: FW] = pcol_flit[0 +: FW];", "packet crossbar up to 4 ports (PCOL): every output takes output 0's column"),
    # the broadcast floor's forms in broadcast switches with held links up to 4 ports (lcan_switch
    # BFLOOR, docs/synthesis.md 29): the kept pick units, an upper's column select, the served sets'
    # synchronous clear
    (86, "lcan_flat_pick.v", "assign g = {N{free}} & req & ({{(N-1){1'b0}}, 1'b1} << w);", "assign g = req & ({{(N-1){1'b0}}, 1'b1} << w);", "kept pick unit (FLAT_KEEP): an output without credit is granted"),
    (87, "lcan_flat_pick.v", "if (req[(rr + j) % N])", "if (req[(rr + N - j) % N])", "kept pick unit (FLAT_KEEP): the rotation scanned downwards"),
    (88, "lcan_switch.v", ".sel    (grant[P + gpc]),", ".sel    (grant[gpc]),", "kept packet columns with held links (BFLOOR): an upper's column selects by input 0's grant, not input 1's"),
    (89, "lcan_switch_packet.v", "if (rst || consume[g])", "if (rst)", "packet, served sets cleared by a synchronous reset (SERVED_RST): not cleared when the candidate is consumed"),
    (90, "lcan_switch_packet.v", "served_d = (served_q | grant[g*P +: P]) & MASK;", "served_d = grant[g*P +: P] & MASK;", "packet, SERVED_RST: a broadcast forgets copies already sent"),
    (91, "lcan_fifo.v", "wire dn_only = do_pop & ~do_push;", "wire dn_only = do_pop;", "FIFO (DEPTH > 1): a pop on a push tick lowers the count (the XOR form of the next count)"),
    (92, "lcan_switch.v", "wire       src2 = both ? ~(first2 ^ f) : u[1];", "wire       src2 = both ? (first2 ^ f) : u[1];", "U22 (the (2,2) unicast-only held switch): upper 0 takes the other requester when both downers ask"),
    (93, "lcan_switch.v", "u[0] & a_any & (~u[1] | ~f | a23)", "u[0] & a_any & (~u[1] | ~f)", "U22: input 0, second in rotated order, not consumed when both uppers are free"),
    (94, "lcan_switch_packet.v", "cr_d = cr_q ^ (wr[g] ^ tx_ret[g]);", "cr_d = cr_q ^ wr[g];", "U22's one-bit credit (CR_XOR): a returned credit is lost"),
    (95, "lcan_switch.v", "                        if (tx_valid_d[i])\n", "                        if (out_valid[i])\n", "C22 (the (2,2) circuit switch with LINK_HOLD): a held output's register loads headers only, not the data flits that follow"),
    (96, "lcan_switch.v", "|{req_cls[3*G], req_cls[2*G], req_cls[G], req_cls[0]}};", "|{req_cls[2*G], req_cls[G], req_cls[0]}};", "C22's set_d (BIN 3, no debug view): an upper input's header for child 0 does not set output 0's circuit"),
    (97, "lcan_switch.v", "assign back[c] = tx_ret[c] & dbg_view[c*8 + 7] & (dbg_view[c*8 +: SW] == J_C);", "assign back[c] = tx_ret[c] & (dbg_view[c*8 +: SW] == J_C);", "C22's acks (from the debug bytes): an ack passed back over an output that is not set"),
]

# Generation rules: (regex, replacement, name). Spaces around binary operators keep reductions
# (&x, |x) and operators inside other tokens out.
GEN_RULES = [
    (r" == ", " != ", "== -> !="), (r" != ", " == ", "!= -> =="),
    (r" & ", " | ", "& -> |"), (r" \| ", " & ", "| -> &"),
    (r" && ", " || ", "&& -> ||"), (r" \|\| ", " && ", "|| -> &&"),
    (r" \+ ", " - ", "+ -> -"), (r" - ", " + ", "- -> +"),
    (r" < ", " <= ", "< -> <="), (r" <= (?![a-z_{(])", " < ", "<= -> <"),
    (r" > ", " >= ", "> -> >="), (r" >= ", " > ", ">= -> >"),
    (r" << ", " >> ", "<< -> >>"), (r" >> ", " << ", ">> -> <<"),
    (r"1'b0", "1'b1", "1'b0 -> 1'b1"), (r"1'b1", "1'b0", "1'b1 -> 1'b0"),
    (r"~(?=[A-Za-z_(])", "", "~ dropped"),
]


def rtl_sources():
    with open(os.path.join(ROOT, "rtl", "lcan_network.f")) as f:
        return [os.path.basename(l.split("#")[0].strip()) for l in f if l.split("#")[0].strip()]


def generated_mutants(every=2):
    """The generated set: (id, file, old, new, what), ids from 101, every `every`-th candidate.
    The sources of rtl/lcan_network.f, then the include files rtl/*.vh (lcan_offsets.vh is logic)."""
    cands = []
    includes = sorted(f for f in os.listdir(os.path.join(ROOT, "rtl")) if f.endswith(".vh"))
    for fname in rtl_sources() + includes:
        lines = open(os.path.join(ROOT, "rtl", fname)).read().split("\n")
        text = "\n".join(lines)
        in_func = False
        for i, line in enumerate(lines):
            code = line.split("//")[0]
            if re.search(r"\bendfunction\b", code):
                in_func = False
                continue
            if re.search(r"\bfunction\b", code):
                in_func = True
            # parameter guards (generate-if g_bad_parameters) only see illegal parameters: left out
            guard = "g_bad_parameters" in code or (i + 1 < len(lines) and "g_bad_parameters" in lines[i + 1])
            if in_func or guard or not code.strip() or re.search(r"\b(localparam|parameter)\b|\$(display|fatal)|^\s*`", code):
                continue
            for pat, repl, name in GEN_RULES:
                for m in re.finditer(pat, code):
                    new_line = line[:m.start()] + repl + line[m.end():]
                    # the smallest block of lines ending here that occurs once in the file
                    k = i
                    while text.count("\n".join(lines[k:i + 1])) > 1 and k > 0:
                        k -= 1
                    old = "\n".join(lines[k:i + 1])
                    new = "\n".join(lines[k:i] + [new_line])
                    cands.append((fname, old, new, "line %d: %s" % (i + 1, name)))
    return [(101 + j, f, o, n, w) for j, (f, o, n, w) in enumerate(cands[::every])]


# The lockstep suite each mutant faces: small networks covering d = u, d > u, non-power-of-two
# radix, w1 > 1 (two broadcast trees), parallel links; both modes; permutation and random traffic.
SUITE = [
    ["lcan(2,2,8)", "--mode", "circuit", "--pattern", "random", "--cycles", "1500"],
    ["lcan(2,2,8)", "--mode", "packet", "--pattern", "random", "--cycles", "600"],
    ["lcan(3,2,9)", "--mode", "circuit", "--pattern", "worst", "--cycles", "1200"],
    ["xgft(2;2,2;2,2)", "--mode", "packet", "--pattern", "random", "--cycles", "500"],
    ["bft(2;1,2)", "--mode", "circuit", "--pattern", "random", "--cycles", "1000"],
    ["bft(2;1,2)", "--mode", "packet", "--pattern", "random", "--cycles", "500"],
    # one-flit FIFOs: held links (spec 8.1, LINK_HOLD), broadcasts waiting over several ticks
    ["lcan(2,2,8)", "--mode", "packet", "--pattern", "random", "--cycles", "600", "--depth", "1",
     "--bcast-rate", "0.3"],
    # the same unicast-only (spec 8.8): the allocator's pick forms of unicast-only switches with held
    # links (lcan_alloc PICK_P, PICK_U), which no network with broadcasts builds
    ["lcan(2,2,8)", "--mode", "packet", "--pattern", "random", "--cycles", "600", "--depth", "1",
     "--unicast-only"],
    # three uppers per switch (5 ports): the allocator's flat form of more than two uppers in sigma
    # order (lcan_alloc g_flatu, packet switches with broadcasts up to 8 ports)
    ["lcan(2,3,8)", "--mode", "packet", "--pattern", "random", "--cycles", "600", "--depth", "1",
     "--bcast-rate", "0.3"],
    # and with four downers and four uppers (8 ports, the (4,4) switch's g_flatu): ranks of up to
    # four class requesters, which two downers never reach
    ["kary(4,2)", "--mode", "packet", "--pattern", "random", "--cycles", "600", "--depth", "1",
     "--bcast-rate", "0.3"],
]


# seconds one lockstep run or the cell tests may take before the mutant counts as hanging (killed)
SUITE_TIMEOUT = 300


def make_copy(dst):
    """A scratch copy of the repository with the prebuilt model, tool and VPI module."""
    for d in ("rtl", "tb", "cmodel", "scripts"):
        shutil.copytree(os.path.join(ROOT, d), os.path.join(dst, d))
    shutil.copy(os.path.join(ROOT, "Makefile"), dst)
    os.makedirs(os.path.join(dst, "build", "tb"))
    for f in ("lcan", "liblcan.a", os.path.join("tb", "lcan_tb.vpi")):
        if not os.path.exists(os.path.join(ROOT, "build", f)):
            continue  # not needed by the stages run (checked in main)
        shutil.copy2(os.path.join(ROOT, "build", f), os.path.join(dst, "build", f))
    lib = os.path.join(ROOT, "build", "tb-switch", "libtbsw_vl.a")
    if os.path.exists(lib):
        os.makedirs(os.path.join(dst, "build", "tb-switch"))
        shutil.copy2(lib, os.path.join(dst, "build", "tb-switch", "libtbsw_vl.a"))


def run(cmd, **kw):
    """subprocess.run, retried when exec fails with ETXTBSY: with --jobs > 1 a child forked by
    another worker can hold a copied binary open for writing for a moment (Python closes the
    inherited descriptors only just before its own exec)."""
    for attempt in range(20):
        try:
            return subprocess.run(cmd, **kw)
        except OSError as e:
            if e.errno != 26 or attempt == 19:  # ETXTBSY
                raise
            time.sleep(0.2)


STAGES = ("icarus", "cells", "switch", "floor")
RUN_STAGES = set(STAGES)
SWITCH_FORM = ["short"]  # the tb/switch form of the third stage (--switch-form)


def run_suite(tree):
    env = dict(os.environ, LCAN_RTL_NOMAKE="1")
    for args in (SUITE if "icarus" in RUN_STAGES else []):
        cmd = [os.path.join(tree, "build", "lcan"), "lockstep"] + args + ["--sim", "icarus", "--json", "--quiet"]
        try:
            r = run(cmd, capture_output=True, text=True, env=env, timeout=SUITE_TIMEOUT)
        except subprocess.TimeoutExpired:  # a mutant that makes the simulation hang is found out
            return False, "%s %s: no result within %d s (hangs)" % (args[0], args[2], SUITE_TIMEOUT)
        if r.returncode != 0:
            last = (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1]
            if "build failed" in r.stderr:
                return False, "build: %s %s: %s" % (args[0], args[2], last[:140])
            return False, "%s %s: %s" % (args[0], args[2], last[:160])
    # second stage: the directed cell tests (tb/cells) see what the network never exercises
    if "cells" in RUN_STAGES:
        try:
            r = run(["make", "-C", tree, "--no-print-directory", "test-rtl-cells"],
                               capture_output=True, text=True, env=env, timeout=SUITE_TIMEOUT)
        except subprocess.TimeoutExpired:
            return False, "cell tests: no result within %d s (hang)" % SUITE_TIMEOUT
        if r.returncode != 0:
            lines = [l for l in r.stdout.splitlines() if "failed" in l and not l.endswith(" 0 failed")]
            return False, "cell tests: " + ((lines or ["exit %d" % r.returncode])[0][:140])
    # third stage (issue 16): the switch-level lockstep (tb/switch, Verilator: one build of every unit
    # of its short form, about a minute) drives one switch with inputs no network produces; run only
    # for the mutants the first two stages leave alive
    note = ""
    if "switch" in RUN_STAGES:
        ok, note = run_switch_stage(tree, env)
        if not ok:
            return ok, note
    # fourth stage: the floor proofs of make test-floor (tb/floor/prove-floor.sh, yosys k-induction,
    # seconds each): rtl/lcan_switch equal to the hand-written (2,2) switches in the configurations the
    # benches above do not build (no debug view, pinned straps and seed); run only for survivors
    if "floor" in RUN_STAGES and shutil.which("yosys") is not None:
        for form in ("pinned", "free", "ckt-pinned", "ckt-free", "ckt-held-free", "bcast-free", "bcast-area-free"):
            try:
                r = run(["bash", os.path.join(tree, "tb", "floor", "prove-floor.sh"), form],
                        capture_output=True, text=True, timeout=SUITE_TIMEOUT,
                        env=dict(env, LOG=os.path.join(tree, "build", "prove-floor", form + ".log")))
            except subprocess.TimeoutExpired:
                return False, "floor proof %s: no result within %d s" % (form, SUITE_TIMEOUT)
            if r.returncode != 0:
                last = ((r.stdout + r.stderr).strip().splitlines() or ["exit %d" % r.returncode])[-1]
                return False, "floor proof %s: %s" % (form, last[:140])
    return True, note


def run_switch_stage(tree, env):
    """The third stage: (ok, why) of tb/switch's lockstep on the tree."""
    if not os.path.exists(os.path.join(tree, "build", "tb-switch", "libtbsw_vl.a")) or shutil.which("verilator") is None:
        return True, "(switch-level lockstep not run: no verilator or build/tb-switch/libtbsw_vl.a)"
    try:
        r = run(["python3", os.path.join(tree, "tb", "switch", "tb-switch"), "run", "--form", SWITCH_FORM[0],
                 "--seeds", "2", "--cycles", "20000"], capture_output=True, text=True, timeout=SUITE_TIMEOUT * 2,
                           env=dict(env, CCACHE_DIR=os.path.join(ROOT, "build", "ccache")))
    except subprocess.TimeoutExpired:
        return False, "switch lockstep: no result within %d s (hang)" % (SUITE_TIMEOUT * 2)
    if r.returncode != 0:
        if "build failed" in r.stderr:
            return False, "build: switch lockstep: " + ((r.stderr.strip().splitlines() or ["?"])[-1][:120])
        sig = [l.strip() for l in r.stderr.splitlines() if l.startswith("tb-switch:   ") and " rtl " in l]
        return False, "switch lockstep: " + ((sig or ["exit %d" % r.returncode])[0][:140])
    return True, ""


def matches(tree, m):
    """How often mutant m's edit matches its file in tree/rtl/ (a usable edit matches once)."""
    return open(os.path.join(tree, "rtl", m[1])).read().count(m[2])


def run_mutant(m):
    mid, fname, old, new, what = m
    with tempfile.TemporaryDirectory(prefix="lcan-mut%02d-" % mid) as tree:
        make_copy(tree)
        n = matches(tree, m)
        if n != 1:
            return mid, "STALE", "the edit matches %d times in rtl/%s" % (n, fname)
        path = os.path.join(tree, "rtl", fname)
        text = open(path).read()
        open(path, "w").write(text.replace(old, new))
        ok, why = run_suite(tree)
        return mid, ("SURVIVED" if ok else "KILLED"), why


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", help="comma-separated mutant ids")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--generated", type=int, default=2, metavar="K")
    ap.add_argument("--no-generated", action="store_true")
    ap.add_argument("--stages", default=",".join(STAGES))
    ap.add_argument("--require-killed", action="store_true")
    ap.add_argument("--switch-form", choices=("short", "tiny"), default="short")
    a = ap.parse_args()
    SWITCH_FORM[0] = a.switch_form
    stages = set(x for x in a.stages.split(",") if x)
    if not stages or not stages <= set(STAGES):
        print("mutants: --stages takes a comma-separated subset of %s" % ",".join(STAGES), file=sys.stderr)
        return 2
    RUN_STAGES.clear()
    RUN_STAGES.update(stages)
    if a.generated < 1:
        print("mutants: --generated must be >= 1", file=sys.stderr)
        return 2
    if a.require_killed:
        # the short form in make test also checks that every hand-written edit still matches rtl/
        # exactly once, so the list cannot go stale while only a few of its mutants run
        stale_all = [m for m in MUTANTS if matches(ROOT, m) != 1]
        for m in stale_all:
            print("mutants: hand-written #%d (%s, %s) no longer matches rtl/%s exactly once: update it"
                  % (m[0], m[4], m[2].split("\n")[0][:60], m[1]), file=sys.stderr)
        if stale_all:
            return 1
    todo = MUTANTS + ([] if a.no_generated else generated_mutants(a.generated))
    if a.only:
        ids = {int(x) for x in a.only.split(",")}
        todo = [m for m in todo if m[0] in ids]
    if a.list:
        for m in todo:
            print("%3d %-22s %s" % (m[0], m[1], m[4]))
        return 0
    need = ["lcan", "liblcan.a"] + (["tb/lcan_tb.vpi"] if stages & {"icarus", "cells"} else []) + \
        (["tb-switch/libtbsw_vl.a"] if "switch" in stages else [])
    for f in need:
        if not os.path.exists(os.path.join(ROOT, "build", f)):
            print("mutants: build/%s missing: run make build/lcan build/tb/lcan_tb.vpi "
                  "build/tb-switch/libtbsw_vl.a" % f, file=sys.stderr)
            return 2
    t0 = time.time()
    print("mutants: baseline (unmutated rtl/) ...", flush=True)
    with tempfile.TemporaryDirectory(prefix="lcan-mut-base-") as tree:
        make_copy(tree)
        ok, why = run_suite(tree)
    if not ok:
        print("mutants: the unmutated suite fails: %s" % why, file=sys.stderr)
        return 1
    results, whys = {}, {}
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for mid, verdict, why in ex.map(run_mutant, todo):
            m = next(x for x in todo if x[0] == mid)
            results[mid] = verdict
            whys[mid] = why
            print("%3d %-8s %-22s %-50s %s" % (mid, verdict, m[1], m[4], why), flush=True)
    stale = [k for k, v in results.items() if v == "STALE"]
    scored = [k for k, v in results.items() if v != "STALE"]
    killed = [k for k in scored if results[k] == "KILLED"]
    print("mutants: %d killed of %d (%.1f%%), %d survived%s, %.0f s" % (
        len(killed), len(scored), 100.0 * len(killed) / max(1, len(scored)),
        len(scored) - len(killed), (", %d stale edits" % len(stale)) if stale else "", time.time() - t0))
    for name, ids in (("hand-written", [k for k in scored if k < 100]), ("generated", [k for k in scored if k > 100])):
        built = [k for k in ids if not whys.get(k, "").startswith("build:")]
        kb = [k for k in built if results[k] == "KILLED"]
        if ids:
            print("mutants: %s: %d of %d killed; of the %d that compile, %d killed (%.1f%%)" % (
                name, len([k for k in ids if results[k] == "KILLED"]), len(ids), len(built), len(kb),
                100.0 * len(kb) / max(1, len(built))))
    if a.require_killed and len(killed) < len(scored):
        print("mutants: %d mutant(s) survived; every one must be killed here" % (len(scored) - len(killed)),
              file=sys.stderr)
        return 1
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
