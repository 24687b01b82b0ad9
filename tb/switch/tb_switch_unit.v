// tb_switch_unit - one lcan_switch of the switch-level lockstep (tb/switch, spec 13.1), with the
// parameters and straps lcan_network gives switch (LEVEL, INDEX) of the network PGFT(H; M; W; P):
// derived here with the geometry functions of rtl/lcan_geom.vh, as lcan_network derives them, and
// handed to the C harness on prm so that it checks them against the model's lcan_sw_cfg_of.
// The ports are the switch's, padded to the widths every unit of tb_switch_top shares (MAXP ports,
// one 64-bit slot per flit, MAXRW bits of reach row), so that one set of DPI-C imports serves every
// parameterization. No logic of its own: wiring only (the switch's outputs are its registers).
`default_nettype none
`timescale 1ns / 1ns
// no coverage points for the testbench itself (coverage builds: the NI-wide vectors of the top
// would cost toggle checks on every bit every evaluation; scripts/coverage.py reads rtl/ only)
// verilator coverage_off

module tb_switch_unit #(
    // the network: levels, per-level m, w, p (32-bit fields, level 1 in the low bits, spec 13)
    parameter integer H = 2,
    parameter [H*32-1:0] M = {32'd2, 32'd2},
    parameter [H*32-1:0] W = {32'd2, 32'd1},
    parameter [H*32-1:0] P = {32'd1, 32'd1},
    // the switch: level 1..H and index within the level (spec 2.2)
    parameter integer LEVEL = 1,
    parameter integer INDEX = 0,
    // lcan_switch's MODE, PAYLOAD_W, DEPTH, UP_CHOICE, FAULTS, FLOOD_Q (spec 13)
    parameter integer MODE = 0,
    parameter integer PAYLOAD_W = 16,
    parameter integer DEPTH = 4,
    parameter integer UP_CHOICE = 1,
    parameter integer FAULTS = 0,
    parameter integer FLOOD_Q = 0,
    // the shared padded widths: ports, reach-row bits; levels of the prm vector
    parameter integer MAXP = 16,
    parameter integer MAXRW = 64,
    parameter integer MAXH = 16
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire                  clear,
    input  wire [31:0]           seed,
    input  wire [MAXP-1:0]       rx_valid,
    input  wire [MAXP*64-1:0]    rx_flit,
    output wire [MAXP-1:0]       rx_ret,
    output wire [MAXP-1:0]       tx_valid,
    output wire [MAXP*64-1:0]    tx_flit,
    input  wire [MAXP-1:0]       tx_ret,
    output wire [95:0]           cnt,
    // debug bytes: output o at byte o, its flood queue count (FLOOD_Q > 0, packet) at byte MAXP + o
    output wire [MAXP*16-1:0]    dbg,
    input  wire [MAXP-1:0]       port_off,
    input  wire                  cfg_we,
    input  wire [31:0]           cfg_addr,
    input  wire [MAXRW-1:0]      cfg_row,
    // the configuration for the harness: 32-bit fields (tb/switch/tb_switch.c, PRM_*)
    output wire [(21+3*MAXH)*32-1:0] prm
);
`include "lcan_geom.vh"

    // lcan_network's derivation for switch (LEVEL, INDEX) (rtl/lcan_network.v, g_level/g_switch)
    localparam integer ML = m_of(LEVEL);
    localparam integer PDN = p_of(LEVEL);
    localparam integer WN = (LEVEL < H) ? w_of(LEVEL + 1) : 0;
    localparam integer PN = (LEVEL < H) ? p_of(LEVEL + 1) : 1;
    localparam integer DL = ML * PDN;
    localparam integer UL = f_u(LEVEL);
    localparam integer PL = DL + UL;
    localparam integer DOFF = f_dig_off(LEVEL);
    localparam integer DW = clog2(ML);
    localparam integer WPL = f_wprod(LEVEL);
    localparam [63:0] LABEL_C = f_label(LEVEL, INDEX / WPL, DOFF + DW);
    // spec 5's salt of (l, x)
    localparam [31:0] LV_C = LEVEL;
    localparam [31:0] IX_C = INDEX;
    localparam [31:0] SALT_C = LV_C * 32'h9E3779B9 + IX_C * 32'h85EBCA6B + 32'h6A09E667;
    // spec 14.2: ROW_OFF(l) + x * U_l
    localparam [31:0] ROW_C = f_row_off(LEVEL) + INDEX * UL;
    localparam integer RWS = (FAULTS != 0) ? (1 << ADDR_W) : 1;
    // the switch's debug view: P bytes, 2P with flood queues (spec 13.1)
    localparam integer FQ = (MODE != 0 && FLOOD_Q > 0) ? 1 : 0;

    wire [PL-1:0]    s_rx_valid = rx_valid[PL-1:0];
    wire [PL*FW-1:0] s_rx_flit;
    wire [PL-1:0]    s_rx_ret;
    wire [PL-1:0]    s_tx_valid;
    wire [PL*FW-1:0] s_tx_flit;
    wire [PL*8*(FQ+1)-1:0] s_dbg;

    genvar i;
    generate
        for (i = 0; i < MAXP; i = i + 1) begin : g_port
            if (i < PL) begin : g_on
                assign s_rx_flit[i*FW +: FW] = rx_flit[i*64 +: FW];
                assign tx_flit[i*64 +: 64] = {{(64-FW){1'b0}}, s_tx_flit[i*FW +: FW]};
                assign rx_ret[i] = s_rx_ret[i];
                assign tx_valid[i] = s_tx_valid[i];
                assign dbg[i*8 +: 8] = s_dbg[i*8 +: 8];
                if (FQ != 0) begin : g_q
                    assign dbg[(MAXP + i)*8 +: 8] = s_dbg[(PL + i)*8 +: 8];
                end else begin : g_no_q
                    assign dbg[(MAXP + i)*8 +: 8] = 8'd0;
                end
            end else begin : g_pad
                assign tx_flit[i*64 +: 64] = 64'd0;
                assign rx_ret[i] = 1'b0;
                assign tx_valid[i] = 1'b0;
                assign dbg[i*8 +: 8] = 8'd0;
                assign dbg[(MAXP + i)*8 +: 8] = 8'd0;
            end
        end
    endgenerate

    lcan_switch #(
        .LEVEL    (LEVEL),
        .M_L      (ML),
        .P_DN     (PDN),
        .W_UP     (WN),
        .P_UP     (PN),
        .ADDR_W   (ADDR_W),
        .DIG_OFF  (DOFF),
        .DIG_W    (DW),
        .PAYLOAD_W(PAYLOAD_W),
        .DEPTH    (DEPTH),
        .MODE     (MODE),
        .OBSERVE  (1),
        .UP_CHOICE(UP_CHOICE),
        .FAULTS   (FAULTS),
        .FLOOD_Q  (FLOOD_Q)
    ) u_switch (
        .clk     (clk),
        .rst     (rst),
        .clear   (clear),
        .seed    (seed),
        .label   (LABEL_C[ADDR_W-1:0]),
        .salt    (SALT_C),
        .rx_valid(s_rx_valid),
        .rx_flit (s_rx_flit),
        .rx_ret  (s_rx_ret),
        .tx_valid(s_tx_valid),
        .tx_flit (s_tx_flit),
        .tx_ret  (tx_ret[PL-1:0]),
        .cnt_up  (cnt[31:0]),
        .cnt_down(cnt[63:32]),
        .cnt_drop(cnt[95:64]),
        .dbg     (s_dbg),
        .port_off(port_off[PL-1:0]),
        .row_base(ROW_C),
        .cfg_we  (cfg_we),
        .cfg_addr(cfg_addr),
        .cfg_row (cfg_row[RWS-1:0])
    );

    // the harness's view of the configuration (PRM_* of tb_switch.c)
    function [(21+3*MAXH)*32-1:0] f_prm;
        // verilator lint_off UNUSEDSIGNAL
        input integer dummy;
        // verilator lint_on UNUSEDSIGNAL
        integer j;
        reg [31:0] v;
        begin
            f_prm = {((21+3*MAXH)*32){dummy[0]}};
            v = H;         f_prm[0*32 +: 32] = v;
            v = LEVEL;     f_prm[1*32 +: 32] = v;
            v = INDEX;     f_prm[2*32 +: 32] = v;
            v = MODE;      f_prm[3*32 +: 32] = v;
            v = PAYLOAD_W; f_prm[4*32 +: 32] = v;
            v = DEPTH;     f_prm[5*32 +: 32] = v;
            v = UP_CHOICE; f_prm[6*32 +: 32] = v;
            v = FAULTS;    f_prm[7*32 +: 32] = v;
            v = ML;        f_prm[8*32 +: 32] = v;
            v = PDN;       f_prm[9*32 +: 32] = v;
            v = WN;        f_prm[10*32 +: 32] = v;
            v = PN;        f_prm[11*32 +: 32] = v;
            v = ADDR_W;    f_prm[12*32 +: 32] = v;
            v = DOFF;      f_prm[13*32 +: 32] = v;
            v = DW;        f_prm[14*32 +: 32] = v;
            f_prm[15*32 +: 32] = LABEL_C[31:0];
            f_prm[16*32 +: 32] = SALT_C;
            f_prm[17*32 +: 32] = ROW_C;
            v = PL;        f_prm[18*32 +: 32] = v;
            v = FW;        f_prm[19*32 +: 32] = v;
            v = FLOOD_Q;   f_prm[20*32 +: 32] = v;
            for (j = 1; j <= H; j = j + 1) begin
                v = m_of(j); f_prm[(21 + j - 1)*32 +: 32] = v;
                v = w_of(j); f_prm[(21 + MAXH + j - 1)*32 +: 32] = v;
                v = p_of(j); f_prm[(21 + 2*MAXH + j - 1)*32 +: 32] = v;
            end
        end
    endfunction
    localparam [(21+3*MAXH)*32-1:0] PRM_C = f_prm(0); // (the argument: all fields start at 0)
    assign prm = PRM_C;

    // clk reaches the switch; the padding bits of the inputs are unused
    wire unused = &{1'b0, rx_valid, rx_flit, tx_ret, port_off, cfg_row};

    // the unit holds its widths: a configuration the padding cannot hold stops elaboration
    generate
        if (PL > MAXP || FW > 63 || RWS > MAXRW || H > MAXH) begin : g_bad
            initial begin
                $display("tb_switch_unit: LEVEL %0d: P = %0d, FW = %0d, RW = %0d, H = %0d exceed MAXP = %0d / 64 / MAXRW = %0d / MAXH = %0d",
                         LEVEL, PL, FW, RWS, H, MAXP, MAXRW, MAXH);
                $finish;
            end
        end
    endgenerate
endmodule

`resetall
