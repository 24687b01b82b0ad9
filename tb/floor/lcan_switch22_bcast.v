// lcan_switch22_bcast: a hand-specialized lcan_switch for ONE configuration, written to find out how
// few iCE40 LUTs its cycle behaviour needs (issue 10's <= 2x the crossbar bound; docs/synthesis.md
// 6 and 26). Not part of the generator: tb/floor/ is a measurement. The configuration is
// scripts/synth/configs.tsv's sw-2-2-w8-packet-noobs-d1-pinned-held: LEVEL 2, M_L 2, P_DN 1,
// W_UP 2, P_UP 1 (D = 2 downers, U = 2 uppers, P = 4), ADDR_W 3, DIG_OFF 1, DIG_W 1, PAYLOAD_W 8
// (FW = 13), DEPTH 1, MODE 1 (packet), OBSERVE 0, UNICAST_ONLY 0 (broadcasts: tree and flooding,
// through the allocator, FLOOD_Q 0), LINK_HOLD 1 (level 2: every input and every output is a held
// link), UP_CHOICE 1, FAULTS 0. The port list is lcan_switch's for these parameters, so the module
// drops into the synthesis flow and into a miter in its place; it also honours PIN_STRAPS /
// PIN_SEED = 0 (label, salt, seed as inputs: the proof uses that to start from every LFSR state) and
// any LABEL_V, SALT_V, SEED_V. Other parameter values stop elaboration.
//
// What the configuration does on a tick (spec 3-6, 8.1-8.3, 8.5, 8.6; rtl/lcan_switch.v):
//   candidates  input i's candidate is valid iff its one-entry FIFO holds a flit (cnt_q[i]) or a flit
//               arrives (rx_valid[i]); its data is rx_flit[i] (held link: the sender keeps it);
//               bc = flit[11] (broadcast), hd = flit[12] (flooding, on a broadcast), dest = flit[10:8];
//   requests    unicast: a downer input (0, 1) goes UP iff dest[2] != label[2], else DOWN(dest[1]);
//               an upper input (2, 3) goes DOWN(dest[1]) (ONE requests; a digit is never impossible);
//               broadcast on a downer i: upper 2 (upper 0 of the spec) unless upper 2 is in its
//               served set - the tree's climb (a ONE request; spec 8.3 does not read served
//               there, lcan_switch does, and this file follows lcan_switch: tb/floor/README.md)
//               and, when flooding, also the other child 1 - i unless served (an ALL request);
//               broadcast on an upper (tree or flooding): ALL of children 0 and 1 not yet served;
//   allocator   r = s[1:0] (r_in; P = 4), sigma = [s[8], 1 - s[8]]: output x (x = 0, 1) goes to the
//               first requester of x in the order r, r+1, .. (mod 4) when cr[x] = 1 (an ALL request
//               takes every free output of its set, so each downer output is its own pick); the
//               uppers go to the downer inputs in the order (1, 0) when r = 1, else (0, 1): an UP
//               unicast takes the first free upper in the order 2 + s[8], 3 - s[8], a broadcast
//               takes upper 2 if it is free (not yet taken, cr[2] = 1);
//   consume     a unicast or a climbing tree broadcast: granted; an ALL request: served | grants
//               covers its set ({1 - i, 2} flooding from downer i, {0, 1} from an upper);
//   state       served[i] := (served[i] | grants of i) & ~consume[i] (two bits per input: the
//               outputs its set can hold; cleared by consume | rst, the flip-flops' synchronous
//               reset, as the FIFO count); cr[o] is one bit (DEPTH 1): cr ^= wr ^ tx_ret;
//               cnt[i] := valid & ~consume; rx_ret := consume; tx_valid := wr; tx_flit[o] := the
//               winner's flit when written, else kept (held); the LFSR steps iff any candidate is
//               valid; reset: cr 1, the rest 0, LFSR init.
// Timing: every output is a register, as in lcan_switch.
`default_nettype none

module lcan_switch22_bcast #(
    parameter LEVEL = 2,
    parameter M_L = 2,
    parameter P_DN = 1,
    parameter W_UP = 2,
    parameter P_UP = 1,
    parameter ADDR_W = 3,
    parameter DIG_OFF = 1,
    parameter DIG_W = 1,
    parameter PAYLOAD_W = 8,
    parameter DEPTH = 1,
    parameter MODE = 1,
    parameter OBSERVE = 0,
    parameter CNT_W = 32,
    parameter UP_CHOICE = 1,
    parameter FAULTS = 0,
    parameter FLOOD_Q = 0,
    parameter UNICAST_ONLY = 0,
    parameter LINK_HOLD = 1,
    parameter PIN_STRAPS = 1,
    parameter [31:0] LABEL_V = 32'd4,
    parameter [31:0] SALT_V = 32'd2792937945,
    parameter [31:0] ROW_V = 32'd0,
    parameter PIN_SEED = 1,
    parameter [31:0] SEED_V = 32'd305419896
) (
    input  wire                                                    clk,
    input  wire                                                    rst,
    input  wire                                                    clear,
    input  wire [31:0]                                             seed,
    input  wire [ADDR_W-1:0]                                       label,
    input  wire [31:0]                                             salt,
    input  wire [M_L*P_DN+W_UP*P_UP-1:0]                           rx_valid,
    input  wire [(M_L*P_DN+W_UP*P_UP)*(2+ADDR_W+PAYLOAD_W)-1:0]    rx_flit,
    output wire [M_L*P_DN+W_UP*P_UP-1:0]                           rx_ret,
    output wire [M_L*P_DN+W_UP*P_UP-1:0]                           tx_valid,
    output wire [(M_L*P_DN+W_UP*P_UP)*(2+ADDR_W+PAYLOAD_W)-1:0]    tx_flit,
    input  wire [M_L*P_DN+W_UP*P_UP-1:0]                           tx_ret,
    output wire [31:0]                                             cnt_up,
    output wire [31:0]                                             cnt_down,
    output wire [31:0]                                             cnt_drop,
    output wire [(M_L*P_DN+W_UP*P_UP)*8*(((MODE != 0) && (FLOOD_Q > 0)) ? 2 : 1)-1:0] dbg,
    input  wire [M_L*P_DN+W_UP*P_UP-1:0]                           port_off,
    input  wire [31:0]                                             row_base,
    input  wire                                                    cfg_we,
    input  wire [31:0]                                             cfg_addr,
    input  wire [((FAULTS != 0) ? (1 << ADDR_W) : 1)-1:0]          cfg_row
);
    localparam FW = 2 + ADDR_W + PAYLOAD_W;
    localparam P = M_L * P_DN + W_UP * P_UP;
    // flit fields (spec 3): dest[1] (the level-2 digit), dest[2] (the level-3 digit), bcast, head
    localparam B1 = PAYLOAD_W + 1;
    localparam B2 = PAYLOAD_W + 2;
    localparam BC = PAYLOAD_W + 3;
    localparam HD = PAYLOAD_W + 4;

    generate
        if (LEVEL < 2 || M_L != 2 || P_DN != 1 || W_UP != 2 || P_UP != 1 || ADDR_W != 3 ||
            DIG_OFF != 1 || DIG_W != 1 || PAYLOAD_W < 1 || CNT_W < 1 || DEPTH != 1 || MODE != 1 || OBSERVE != 0 ||
            UP_CHOICE != 1 || FAULTS != 0 || FLOOD_Q != 0 || UNICAST_ONLY != 0 || LINK_HOLD != 1)
        begin : g_bad_parameters
            lcan_switch22_bcast_supports_one_configuration_only u_bad ();
        end
    endgenerate

    // ---------------------------------------------------------------- straps and the LFSR
    wire [31:0] salt_s = (PIN_STRAPS != 0) ? SALT_V : salt;
    wire        lab = (PIN_STRAPS != 0) ? LABEL_V[2] : label[2];
    wire [31:0] seed_s = (PIN_SEED != 0) ? SEED_V : seed;
    wire [31:0] row_s = (PIN_STRAPS != 0) ? ROW_V : row_base;

    wire [31:0] s;
    wire        step;
    wire [31:0] unused_lfsr_a, unused_lfsr_b, unused_lfsr_c, unused_lfsr_d;

    lcan_lfsr u_lfsr (
        .clk        (clk),
        .rst        (rst),
        .seed       (seed_s),
        .salt       (salt_s),
        .step       (step),
        .state      (s),
        .init       (unused_lfsr_a),
        .stepped    (unused_lfsr_b),
        .init_next  (unused_lfsr_c),
        .state_next2(unused_lfsr_d)
    );

    wire [1:0] r = s[1:0];
    wire       s8 = s[8];

    // ---------------------------------------------------------------- registers
    reg  [3:0]  cnt_q, ret_q, cr_q, tx_valid_q;
    reg  [P*FW-1:0] tx_flit_q;
    // served sets: sv_q[2*i +: 2] = input i's served outputs, in the order of its ALL set: downer
    // i: {child 1 - i (bit 0), upper 2 (bit 1)}; upper j: {child 0 (bit 0), child 1 (bit 1)}
    reg  [7:0]  sv_q;

    // ---------------------------------------------------------------- requests
    wire [FW-1:0] in0 = rx_flit[0 +: FW];
    wire [FW-1:0] in1 = rx_flit[FW +: FW];
    wire [FW-1:0] in2 = rx_flit[2*FW +: FW];
    wire [FW-1:0] in3 = rx_flit[3*FW +: FW];
    wire [3:0] v = cnt_q | rx_valid;
    wire [3:0] bc = {in3[BC], in2[BC], in1[BC], in0[BC]};
    // (an upper input's broadcast asks for both children whether flooding or not: hd of 0, 1 only)
    wire [1:0] hd = {in1[HD], in0[HD]};
    wire [3:0] d1 = {in3[B1], in2[B1], in1[B1], in0[B1]};
    wire [1:0] up = {in1[B2] ^ lab, in0[B2] ^ lab};
    // unicasts: DOWN(0) / DOWN(1) and UP requesters
    wire [3:0] ud0 = v & ~bc & ~d1 & {2'b11, ~up};
    wire [3:0] ud1 = v & ~bc & d1 & {2'b11, ~up};
    wire [1:0] a = v[1:0] & ~bc[1:0] & up;
    // broadcasts: flooding from a downer asks for the other child; from an upper both children;
    // from a downer (tree or flooding) upper 2 - each unless served
    wire [3:0] q0 = ud0 | (v & bc & {~sv_q[6], ~sv_q[4], hd[1] & ~sv_q[2], 1'b0});
    wire [3:0] q1 = ud1 | (v & bc & {~sv_q[7], ~sv_q[5], 1'b0, hd[0] & ~sv_q[0]});
    wire [1:0] b = v[1:0] & bc[1:0] & {~sv_q[3], ~sv_q[1]};

    assign step = |v;

    // ---------------------------------------------------------------- downer outputs
    // per output x a pick unit (lcan_switch22_bcast_pick below, kept as its own unit: measured 176
    // against 181 LUT flattened, tb/floor/README.md): w, the first requester at or after r (mod 4),
    // the grants gx[i] = cr[x] & qx[i] & (w == i), written = any grant
    wire [1:0] w0, w1;
    wire [3:0] g0, g1;
    wire       wr0, wr1;
    lcan_switch22_bcast_pick #(.N(4)) u_pick0 (.req(q0), .rot(r), .cr(cr_q[0]), .w(w0), .g(g0), .wr(wr0));
    lcan_switch22_bcast_pick #(.N(4)) u_pick1 (.req(q1), .rot(r), .cr(cr_q[1]), .w(w1), .g(g1), .wr(wr1));

    // ---------------------------------------------------------------- upper outputs
    // f: input 1 precedes input 0 in the rotated order (r = 1); F the first downer input, S the other
    wire f = ~r[1] & r[0];
    wire aF = f ? a[1] : a[0];
    wire bF = f ? b[1] : b[0];
    wire aS = f ? a[0] : a[1];
    wire bS = f ? b[0] : b[1];
    // F takes upper 2: as a broadcast, or as an UP unicast when 2 is first in sigma order or 3 is
    // not free; upper 3 as an UP unicast when 3 is first or 2 is not free. Then S, with what is left
    wire gF2 = cr_q[2] & (bF | aF & (~s8 | ~cr_q[3]));
    wire gF3 = cr_q[3] & aF & (s8 | ~cr_q[2]);
    wire c2 = cr_q[2] & ~gF2;
    wire c3 = cr_q[3] & ~gF3;
    wire gS2 = c2 & (bS | aS & (~s8 | ~c3));
    wire gS3 = c3 & aS & (s8 | ~c2);
    wire wr2 = gF2 | gS2;
    wire wr3 = gF3 | gS3;
    // the downer input an upper goes to (a don't-care when not written): input 1's grant
    wire src2 = f ? gF2 : gS2;
    wire src3 = f ? gF3 : gS3;

    wire [3:0] wr = {wr3, wr2, wr1, wr0};
    // en: written or reset - the flit registers' enable (their reset acts only when enabled) and,
    // with the reset of its own register, tx_valid's next value
    wire [3:0] en = wr | {4{rst}};

    // ---------------------------------------------------------------- grants and consume
    // grants of the uppers to the downer inputs: [0] to input 0, [1] to input 1
    wire [1:0] gu2 = f ? {gF2, gS2} : {gS2, gF2};
    wire [1:0] gu3 = f ? {gF3, gS3} : {gS3, gF3};
    // an input's served set with this tick's grants (the ALL set's two outputs, as sv_q)
    wire [7:0] cov = sv_q | {g1[3], g0[3], g1[2], g0[2], gu2[1], g0[1], gu2[0], g1[0]};
    // ALL requests: flooding on a downer, any broadcast on an upper
    wire [3:0] all = v & bc & {2'b11, hd};
    wire [3:0] any = g0 | g1 | {2'b00, gu2 | gu3};
    wire [3:0] covered = {&cov[7:6], &cov[5:4], &cov[3:2], &cov[1:0]};
    wire [3:0] cons;
    genvar o;
    generate
        for (o = 0; o < 4; o = o + 1) begin : g_cons
            assign cons[o] = all[o] ? covered[o] : any[o];
        end
    endgenerate
    wire [3:0] consume_r = cons | {4{rst}};

    // ---------------------------------------------------------------- crossbar
    // the downer outputs' 4:1 columns as their own units (lcan_xbar_col, keep_hierarchy): flattened
    // into the switch ABC maps them with 3 LUTs per bit here (see tb/floor/README.md)
    wire [FW-1:0] x0, x1;
    lcan_xbar_col #(.K(4), .SW(2), .W(FW)) u_col0 (.sel(w0), .flit_in(rx_flit), .flit(x0));
    lcan_xbar_col #(.K(4), .SW(2), .W(FW)) u_col1 (.sel(w1), .flit_in(rx_flit), .flit(x1));
    wire [FW-1:0] x2 = src2 ? in1 : in0;
    wire [FW-1:0] x3 = src3 ? in1 : in0;
    wire [P*FW-1:0] xbar = {x3, x2, x1, x0};

    // ---------------------------------------------------------------- register blocks
    always @(posedge clk) begin
        if (rst) begin
            ret_q <= 4'd0;
            cr_q <= 4'hf;
            tx_valid_q <= 4'd0;
        end else begin
            ret_q <= consume_r;
            cr_q <= cr_q ^ en ^ tx_ret;
            tx_valid_q <= en;
        end
    end

    // the FIFO count: v & ~consume, reset 0 (consume_r is 1 on a reset tick)
    generate
        for (o = 0; o < P; o = o + 1) begin : g_cnt
            always @(posedge clk)
                if (consume_r[o])
                    cnt_q[o] <= 1'b0;
                else
                    cnt_q[o] <= v[o];
            // the served set: cleared by consume | rst (a synchronous reset), else with the grants
            always @(posedge clk)
                if (consume_r[o])
                    sv_q[2*o +: 2] <= 2'b00;
                else
                    sv_q[2*o +: 2] <= cov[2*o +: 2];
        end
    endgenerate

    generate
        for (o = 0; o < P; o = o + 1) begin : g_out
            always @(posedge clk)
                if (rst)
                    tx_flit_q[o*FW +: FW] <= {FW{1'b0}};
                else if (en[o])
                    tx_flit_q[o*FW +: FW] <= xbar[o*FW +: FW];
        end
    endgenerate

    assign rx_ret = ret_q;
    assign tx_valid = tx_valid_q;
    assign tx_flit = tx_flit_q;
    assign cnt_up = 32'd0;
    assign cnt_down = 32'd0;
    assign cnt_drop = 32'd0;
    assign dbg = {(P*8){1'b0}};

    wire unused_ok = &{1'b0, clear, label, salt, seed, port_off, row_base, cfg_we, cfg_addr, cfg_row,
                       s, unused_lfsr_a, unused_lfsr_b, unused_lfsr_c, unused_lfsr_d, row_s};
endmodule


/* verilator lint_off DECLFILENAME */
// lcan_switch22_bcast_pick: one downer output's rotated pick (one priority chain per rotation,
// selected by r: lcan_switch22_uni's form), its grants and its written bit, as a unit of its own
// (keep_hierarchy: ABC maps it alone, and the switch reads w, g, wr as nets). In this file because
// run-one.sh reads tb/floor/TOP.v only.
(* keep_hierarchy *)
module lcan_switch22_bcast_pick #(
    // requesters (4 only; a parameter, as lcan_xbar_col has: collect.py once counted a kept
    // submodule's cells only under yosys's $paramod... name, fixed at stop 42)
    parameter N = 4
) (
    input  wire [3:0] req,
    input  wire [1:0] rot,
    input  wire       cr,
    output wire [1:0] w,
    output wire [3:0] g,
    output wire       wr
);
    generate
        if (N != 4) begin : g_bad_n
            lcan_switch22_bcast_pick_supports_four_requesters_only u_bad ();
        end
    endgenerate
    function [1:0] pick;
        input [3:0] q;
        input [1:0] rr;
        begin
            case (rr)
                2'd0: pick = q[0] ? 2'd0 : q[1] ? 2'd1 : q[2] ? 2'd2 : 2'd3;
                2'd1: pick = q[1] ? 2'd1 : q[2] ? 2'd2 : q[3] ? 2'd3 : 2'd0;
                2'd2: pick = q[2] ? 2'd2 : q[3] ? 2'd3 : q[0] ? 2'd0 : 2'd1;
                default: pick = q[3] ? 2'd3 : q[0] ? 2'd0 : q[1] ? 2'd1 : 2'd2;
            endcase
        end
    endfunction
    assign w = pick(req, rot);
    assign g = {4{cr}} & req & (4'b0001 << w);
    assign wr = |g;
endmodule
/* verilator lint_on DECLFILENAME */

`resetall
