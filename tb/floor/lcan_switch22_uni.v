// lcan_switch22_uni: a hand-specialized lcan_switch for ONE configuration, written to find out how
// few iCE40 LUTs its cycle behaviour needs (issue 10's <= 2x the crossbar bound; docs/synthesis.md
// 6 and 20). Not part of the generator: tb/floor/ is a measurement. The configuration is
// scripts/synth/configs.tsv's sw-2-2-w8-packet-noobs-d1-pinned-uni-held: LEVEL 2, M_L 2, P_DN 1,
// W_UP 2, P_UP 1 (D = 2 downers, U = 2 uppers, P = 4), ADDR_W 3, DIG_OFF 1, DIG_W 1, PAYLOAD_W 8
// (FW = 13), DEPTH 1, MODE 1 (packet), OBSERVE 0, UNICAST_ONLY 1, LINK_HOLD 1 (level 2: every input
// and every output is a held link), UP_CHOICE 1, FAULTS 0, FLOOD_Q 0. The port list is lcan_switch's
// for these parameters, so the module drops into the synthesis flow and into a miter in its place;
// it also honours PIN_STRAPS / PIN_SEED = 0 (label, salt, seed as inputs: the proof uses that to
// start from every LFSR state) and any LABEL_V, SALT_V, SEED_V. Other parameter values stop
// elaboration.
//
// What the configuration does on a tick (spec 4-6, 8.1-8.3, 8.8; rtl/lcan_switch.v):
//   candidates  input i's candidate is valid iff its one-entry FIFO holds a flit (cnt_q[i]) or a flit
//               arrives (rx_valid[i]); its data is rx_flit[i] (held link: the sender keeps it);
//   classes     a downer input (0, 1) goes UP iff dest[2] != label[2], else DOWN(dest[1]); an upper
//               input (2, 3) goes DOWN(dest[1]) (dest = flit[10:8]); a digit is never impossible;
//   allocator   r = s[1:0] (r_in; P = 4), sigma = [s[8], 1 - s[8]]: output x (x = 0, 1) goes to the
//               first DOWN(x) requester in the order r, r+1, .. (mod 4) when cr[x] = 1; the UP
//               requesters (at most inputs 0 and 1; input 1 comes first iff r = 1) take the free
//               uppers in the order 2 + s[8], 3 - s[8], the j-th the j-th;
//   state       cr[o] is one bit (DEPTH 1): cr ^= wr ^ tx_ret (as lcan_switch_packet's counter, wrap
//               included); cnt[i] := valid & ~consume (consume = granted); rx_ret := consume;
//               tx_valid := wr; tx_flit[o] := the winner's flit when written, else kept (held); the
//               LFSR steps iff any candidate is valid; reset: cr 1, the rest 0, LFSR init.
// Timing: every output is a register, as in lcan_switch.
`default_nettype none

module lcan_switch22_uni #(
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
    parameter UNICAST_ONLY = 1,
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

    generate
        if (LEVEL < 2 || M_L != 2 || P_DN != 1 || W_UP != 2 || P_UP != 1 || ADDR_W != 3 ||
            DIG_OFF != 1 || DIG_W != 1 || PAYLOAD_W < 1 || CNT_W < 1 || DEPTH != 1 || MODE != 1 || OBSERVE != 0 ||
            UP_CHOICE != 1 || FAULTS != 0 || FLOOD_Q != 0 || UNICAST_ONLY != 1 || LINK_HOLD != 1)
        begin : g_bad_parameters
            lcan_switch22_uni_supports_one_configuration_only u_bad ();
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

    // ---------------------------------------------------------------- requests
    wire [3:0] v = cnt_q | rx_valid;
    wire [3:0] b9 = {rx_flit[3*FW + 9], rx_flit[2*FW + 9], rx_flit[FW + 9], rx_flit[9]};
    wire [1:0] up = {rx_flit[FW + 10] ^ lab, rx_flit[10] ^ lab};
    // q0 / q1: DOWN(0) / DOWN(1) requesters; u: UP requesters (downer inputs only)
    wire [3:0] q1 = v & b9 & {2'b11, ~up};
    wire [3:0] q0 = v & ~b9 & {2'b11, ~up};
    wire [1:0] u = v[1:0] & up;

    assign step = |v;

    // ---------------------------------------------------------------- downer outputs
    // rotated priority pick: the first requester at or after r (mod 4), w its index; one priority
    // chain per rotation, selected by r (measured: the smallest of the forms tried, see
    // tb/floor/README.md)
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
    wire       wr0 = cr_q[0] & (|q0);
    wire       wr1 = cr_q[1] & (|q1);

    // ---------------------------------------------------------------- upper outputs
    // f: input 1 precedes input 0 in the rotated order (r = 1)
    wire f = ~r[1] & r[0];
    wire both = u[0] & u[1];
    wire any = u[0] | u[1];
    // upper 2 (3) is the first free upper in sigma order, given that it is free
    wire first2 = ~s8 | ~cr_q[3];
    wire first3 = s8 | ~cr_q[2];
    wire wr2 = cr_q[2] & any & (both | first2);
    wire wr3 = cr_q[3] & any & (both | first3);
    // the requester an upper goes to (0 or 1; a don't-care when not written)
    wire src2 = both ? ~(first2 ^ f) : u[1];
    wire src3 = both ? ~(first3 ^ f) : u[1];

    wire [3:0] wr = {wr3, wr2, wr1, wr0};
    // en: written or reset - the flit registers' enable (their reset acts only when enabled) and,
    // with the reset of its own register, tx_valid's next value; consume and the credits read it
    // for wr as well: on a reset tick their registers are reset whatever they read
    wire [3:0] en = wr | {4{rst}};

    // ---------------------------------------------------------------- consume
    // consume_r = consume | rst (the winner w of a written downer output is a requester; an UP
    // requester gets an upper when one is free and it comes first, or both are free; rst: every
    // consume_r is 1, which resets cnt_q and, under ret_q's own reset, leaves rx_ret 0)
    wire [3:0] g0 = {4{en[0]}} & (4'b0001 << w0);
    wire [3:0] g1 = {4{en[1]}} & (4'b0001 << w1);
    wire       a23 = cr_q[2] & cr_q[3];
    wire       a_any = cr_q[2] | cr_q[3];
    wire [1:0] gu = {u[1] & a_any & (~u[0] | f | a23), u[0] & a_any & (~u[1] | ~f | a23)};
    wire [3:0] consume_r = g0 | g1 | {2'b00, gu} | {4{rst}};

    // ---------------------------------------------------------------- crossbar
    wire [FW-1:0] in0 = rx_flit[0 +: FW];
    wire [FW-1:0] in1 = rx_flit[FW +: FW];
    wire [FW-1:0] in2 = rx_flit[2*FW +: FW];
    wire [FW-1:0] in3 = rx_flit[3*FW +: FW];
    wire [FW-1:0] m0a = w0[0] ? in1 : in0;
    wire [FW-1:0] m0b = w0[0] ? in3 : in2;
    wire [FW-1:0] x0 = w0[1] ? m0b : m0a;
    wire [FW-1:0] m1a = w1[0] ? in1 : in0;
    wire [FW-1:0] m1b = w1[0] ? in3 : in2;
    wire [FW-1:0] x1 = w1[1] ? m1b : m1a;
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
    genvar o;
    generate
        for (o = 0; o < P; o = o + 1) begin : g_cnt
            always @(posedge clk)
                if (consume_r[o])
                    cnt_q[o] <= 1'b0;
                else
                    cnt_q[o] <= v[o];
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

`resetall
