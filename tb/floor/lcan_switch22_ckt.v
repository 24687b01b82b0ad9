// lcan_switch22_ckt: a hand-specialized lcan_switch in circuit mode for ONE configuration, written to
// find out how few iCE40 LUTs its cycle behaviour needs (issue 10's <= 2x the crossbar bound;
// docs/synthesis.md 6). Not part of the generator: tb/floor/ is a measurement. The configuration is
// scripts/synth/configs.tsv's sw-2-2-w8-circuit-noobs-pinned: LEVEL 2, M_L 2, P_DN 1, W_UP 2, P_UP 1
// (D = 2 downers, U = 2 uppers, P = 4), ADDR_W 3, DIG_OFF 1, DIG_W 1, PAYLOAD_W 8 (FW = 13), MODE 0
// (circuit), OBSERVE 0, UP_CHOICE 1, FAULTS 0 (DEPTH, UNICAST_ONLY, FLOOD_Q and CNT_W are ignored in
// circuit mode, as by lcan_switch), and LINK_HOLD 0 or 1 (1: sw-2-2-w8-circuit-noobs-pinned-held, as
// inside a network; spec 7.1: every output of this level-2 switch faces a switch, so each flit
// register loads when written and keeps its data bits otherwise, without reset). The port list is
// lcan_switch's for these parameters, so the module drops into the synthesis flow and into a miter in its place; it also
// honours PIN_STRAPS / PIN_SEED = 0 (label, salt, seed as inputs: the proof uses that to start from
// every LFSR state) and any LABEL_V, SALT_V, SEED_V. Other parameter values stop elaboration.
//
// What the configuration does on a tick (spec 4-7; rtl/lcan_switch.v, rtl/lcan_switch_circuit.v):
//   candidates  input i's header: rx_valid[i] & head (flit[12]); a data flit: rx_valid[i] & ~head;
//   classes     a downer input (0, 1) goes UP iff dest[2] != label[2], else DOWN(dest[1]); an upper
//               input (2, 3) goes DOWN(dest[1]) (dest = flit[10:8]); a digit is never impossible;
//   allocator   r = s[1:0] (r_in; P = 4), sigma = [s[8], 1 - s[8]]: output x (x = 0, 1) goes to the
//               first DOWN(x) header in the order r, r+1, .. (mod 4) when set[x] = 0; the UP headers
//               (at most inputs 0 and 1; input 1 comes first iff r = 1) take the free uppers in the
//               order 2 + s[8], 3 - s[8], the j-th the j-th;
//   state       per output set[o] and src[o] (an upper's src is a downer: one bit); a granted
//               output: set := 1, src := the winner; output o is written with the header it is
//               granted, or (set[o]) with a data flit on input src[o]; tx_valid := written,
//               tx_flit := the flit written, else 0 (LINK_HOLD 1: else kept); ack[i] := OR of
//               tx_ret[o] over the outputs with set[o] and src[o] = i; the LFSR steps iff any header arrives (not on clear);
//               reset and clear: set, ack, tx_valid, tx_flit 0 (LINK_HOLD 1: tx_flit kept; the
//               LFSR: reset loads its init).
//   src[o] is read only where set[o] = 1 (the data path and the acks; no debug view): it is loaded
//   with the output's select on every tick (set: itself; not set: the allocator's winner) and has
//   no reset.
// Timing: every output is a register, as in lcan_switch.
`default_nettype none

module lcan_switch22_ckt #(
    parameter LEVEL = 2,
    parameter M_L = 2,
    parameter P_DN = 1,
    parameter W_UP = 2,
    parameter P_UP = 1,
    parameter ADDR_W = 3,
    parameter DIG_OFF = 1,
    parameter DIG_W = 1,
    parameter PAYLOAD_W = 8,
    parameter DEPTH = 4,
    parameter MODE = 0,
    parameter OBSERVE = 0,
    parameter CNT_W = 32,
    parameter UP_CHOICE = 1,
    parameter FAULTS = 0,
    parameter FLOOD_Q = 0,
    parameter UNICAST_ONLY = 0,
    parameter LINK_HOLD = 0,
    parameter PIN_STRAPS = 1,
    parameter [31:0] LABEL_V = 32'd4,
    parameter [31:0] SALT_V = 32'd2792937945,
    parameter [31:0] ROW_V = 32'd0,
    parameter PIN_SEED = 1,
    parameter [31:0] SEED_V = 32'd305419896,
    parameter PLAIN_OFFSETS = 1
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
    localparam HB = FW - 1;

    generate
        if (LEVEL < 2 || M_L != 2 || P_DN != 1 || W_UP != 2 || P_UP != 1 || ADDR_W != 3 ||
            DIG_OFF != 1 || DIG_W != 1 || PAYLOAD_W < 1 || MODE != 0 || OBSERVE != 0 ||
            UP_CHOICE != 1 || FAULTS != 0)
        begin : g_bad_parameters
            lcan_switch22_ckt_supports_one_configuration_only u_bad ();
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
    reg  [3:0]      set_q, ack_q, tx_valid_q;
    reg  [1:0]      src0_q, src1_q;
    reg             src2_q, src3_q;
    reg  [P*FW-1:0] tx_flit_q;

    // ---------------------------------------------------------------- requests
    wire [3:0] h = {rx_flit[3*FW + HB], rx_flit[2*FW + HB], rx_flit[FW + HB], rx_flit[HB]};
    wire [3:0] hv = rx_valid & h;
    wire [3:0] dv = rx_valid & ~h;
    wire [3:0] b9 = {rx_flit[3*FW + 9], rx_flit[2*FW + 9], rx_flit[FW + 9], rx_flit[9]};
    wire [1:0] up = {rx_flit[FW + 10] ^ lab, rx_flit[10] ^ lab};
    // q0 / q1: DOWN(0) / DOWN(1) headers; u: UP headers (downer inputs only)
    wire [3:0] q1 = hv & b9 & {2'b11, ~up};
    wire [3:0] q0 = hv & ~b9 & {2'b11, ~up};
    wire [1:0] u = hv[1:0] & up;

    assign step = (|hv) & ~clear;

    // ---------------------------------------------------------------- downer outputs
    // rotated priority pick: the first requester at or after r (mod 4), one chain per rotation
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

    wire [1:0] w0 = pick(q0, r);
    wire [1:0] w1 = pick(q1, r);
    wire       hw0 = ~set_q[0] & (|q0);
    wire       hw1 = ~set_q[1] & (|q1);

    // ---------------------------------------------------------------- upper outputs
    // f: input 1 precedes input 0 in the rotated order (r = 1)
    wire f = ~r[1] & r[0];
    wire both = u[0] & u[1];
    wire any = u[0] | u[1];
    // upper 2 (3) is the first free upper in sigma order, given that it is free
    wire first2 = ~s8 | set_q[3];
    wire first3 = s8 | set_q[2];
    wire hw2 = ~set_q[2] & any & (both | first2);
    wire hw3 = ~set_q[3] & any & (both | first3);
    // the header an upper gets (0 or 1; a don't-care when not written)
    wire w2 = both ? ~(first2 ^ f) : u[1];
    wire w3 = both ? ~(first3 ^ f) : u[1];

    // ---------------------------------------------------------------- selects and writes
    wire [1:0] sel0 = set_q[0] ? src0_q : w0;
    wire [1:0] sel1 = set_q[1] ? src1_q : w1;
    wire       sel2 = set_q[2] ? src2_q : w2;
    wire       sel3 = set_q[3] ? src3_q : w3;
    wire [3:0] dw = {set_q[3] & (src3_q ? dv[1] : dv[0]), set_q[2] & (src2_q ? dv[1] : dv[0]), set_q[1] & dv[src1_q],
                     set_q[0] & dv[src0_q]};
    wire [3:0] wr = {hw3, hw2, hw1, hw0} | dw;

    // ---------------------------------------------------------------- crossbar
    wire [FW-1:0] in0 = rx_flit[0 +: FW];
    wire [FW-1:0] in1 = rx_flit[FW +: FW];
    wire [FW-1:0] in2 = rx_flit[2*FW +: FW];
    wire [FW-1:0] in3 = rx_flit[3*FW +: FW];
    wire [FW-1:0] x0 = sel0[1] ? (sel0[0] ? in3 : in2) : (sel0[0] ? in1 : in0);
    wire [FW-1:0] x1 = sel1[1] ? (sel1[0] ? in3 : in2) : (sel1[0] ? in1 : in0);
    wire [FW-1:0] x2 = sel2 ? in1 : in0;
    wire [FW-1:0] x3 = sel3 ? in1 : in0;
    wire [P*FW-1:0] xbar = {x3, x2, x1, x0};

    // ---------------------------------------------------------------- acks
    wire [3:0] rt = tx_ret & set_q;
    wire [3:0] ack_d;
    assign ack_d[0] = (rt[0] & (src0_q == 2'd0)) | (rt[1] & (src1_q == 2'd0)) | (rt[2] & ~src2_q) |
                      (rt[3] & ~src3_q);
    assign ack_d[1] = (rt[0] & (src0_q == 2'd1)) | (rt[1] & (src1_q == 2'd1)) | (rt[2] & src2_q) |
                      (rt[3] & src3_q);
    assign ack_d[2] = (rt[0] & (src0_q == 2'd2)) | (rt[1] & (src1_q == 2'd2));
    assign ack_d[3] = (rt[0] & (src0_q == 2'd3)) | (rt[1] & (src1_q == 2'd3));

    // ---------------------------------------------------------------- register blocks
    wire rc = rst | clear;
    always @(posedge clk) begin
        if (rc) begin
            set_q <= 4'd0;
            ack_q <= 4'd0;
            tx_valid_q <= 4'd0;
        end else begin
            set_q <= set_q | {any & (both | first3), any & (both | first2), |q1, |q0};
            ack_q <= ack_d;
            tx_valid_q <= wr;
        end
    end

    // src: the select, on every tick (held while set), no reset
    always @(posedge clk) begin
        src0_q <= sel0;
        src1_q <= sel1;
        src2_q <= sel2;
        src3_q <= sel3;
    end

    // LINK_HOLD = 1 (inside a network, spec 7.1; every output of a level-2 switch faces a switch):
    // an output's flit register loads when written and keeps its data bits otherwise, no reset;
    // LINK_HOLD = 0: cleared by reset, clear or a tick it is not written
    genvar o;
    generate
        for (o = 0; o < P; o = o + 1) begin : g_out
            if (LINK_HOLD != 0) begin : g_held
                always @(posedge clk)
                    if (wr[o])
                        tx_flit_q[o*FW +: FW] <= xbar[o*FW +: FW];
            end else begin : g_zero
                always @(posedge clk)
                    if (rc | ~wr[o])
                        tx_flit_q[o*FW +: FW] <= {FW{1'b0}};
                    else
                        tx_flit_q[o*FW +: FW] <= xbar[o*FW +: FW];
            end
        end
    endgenerate

    assign rx_ret = ack_q;
    assign tx_valid = tx_valid_q;
    assign tx_flit = tx_flit_q;
    assign cnt_up = 32'd0;
    assign cnt_down = 32'd0;
    assign cnt_drop = 32'd0;
    assign dbg = {(P*8){1'b0}};

    // (parameters lcan_switch ignores in circuit mode)
    wire [31:0] unused_prm = DEPTH + CNT_W + UNICAST_ONLY + PLAIN_OFFSETS;
    wire unused_ok = &{1'b0, label, salt, seed, port_off, row_base, cfg_we, cfg_addr, cfg_row, unused_prm,
                       s, unused_lfsr_a, unused_lfsr_b, unused_lfsr_c, unused_lfsr_d, row_s};
endmodule

`resetall
