// held_miter: scripts/prove-switch.sh's miter for a switch shape with held outputs that the other
// side does not hold (circuit mode with LINK_HOLD = 1 against a revision where circuit mode ignored
// it; spec 7.1, 13.1). gold and gate are the two lcan_switch elaborations (the same parameters),
// renamed; every output is asserted equal, except tx_flit on a held output (HOLD), which a switch
// with LINK_HOLD = 1 defines only where tx_valid = 1: there it is compared where gold's tx_valid = 1
// (tx_valid itself is compared everywhere). prove-switch.sh sets the parameters from the shape and
// proves the asserts with sat, bounded, from a reset tick.
`default_nettype none

module held_miter #(
    // local ports, flit width without valid, address width, debug and reach-row widths
    parameter P = 4,
    parameter FW = 7,
    parameter AW = 3,
    parameter DBGW = 32,
    parameter CFGW = 1,
    // the held outputs
    parameter [P-1:0] HOLD = {P{1'b1}}
) (
    input wire            clk,
    input wire            rst,
    input wire            clear,
    input wire [31:0]     seed,
    input wire [AW-1:0]   label,
    input wire [31:0]     salt,
    input wire [P-1:0]    rx_valid,
    input wire [P*FW-1:0] rx_flit,
    input wire [P-1:0]    tx_ret,
    input wire [P-1:0]    port_off,
    input wire [31:0]     row_base,
    input wire            cfg_we,
    input wire [31:0]     cfg_addr,
    input wire [CFGW-1:0] cfg_row
);
    wire [P-1:0]    g_rx_ret, t_rx_ret, g_tx_valid, t_tx_valid;
    wire [P*FW-1:0] g_tx_flit, t_tx_flit;
    wire [31:0]     g_cnt_up, t_cnt_up, g_cnt_down, t_cnt_down, g_cnt_drop, t_cnt_drop;
    wire [DBGW-1:0] g_dbg, t_dbg;

    gold u_gold (
        .clk(clk), .rst(rst), .clear(clear), .seed(seed), .label(label), .salt(salt),
        .rx_valid(rx_valid), .rx_flit(rx_flit), .rx_ret(g_rx_ret), .tx_valid(g_tx_valid),
        .tx_flit(g_tx_flit), .tx_ret(tx_ret), .cnt_up(g_cnt_up), .cnt_down(g_cnt_down),
        .cnt_drop(g_cnt_drop), .dbg(g_dbg), .port_off(port_off), .row_base(row_base),
        .cfg_we(cfg_we), .cfg_addr(cfg_addr), .cfg_row(cfg_row)
    );

    gate u_gate (
        .clk(clk), .rst(rst), .clear(clear), .seed(seed), .label(label), .salt(salt),
        .rx_valid(rx_valid), .rx_flit(rx_flit), .rx_ret(t_rx_ret), .tx_valid(t_tx_valid),
        .tx_flit(t_tx_flit), .tx_ret(tx_ret), .cnt_up(t_cnt_up), .cnt_down(t_cnt_down),
        .cnt_drop(t_cnt_drop), .dbg(t_dbg), .port_off(port_off), .row_base(row_base),
        .cfg_we(cfg_we), .cfg_addr(cfg_addr), .cfg_row(cfg_row)
    );

    // per output: all ones where not held, else the valid bit
    wire [P*FW-1:0] mask;
    genvar o;
    generate
        for (o = 0; o < P; o = o + 1) begin : g_mask
            assign mask[o*FW +: FW] = {FW{~HOLD[o] | g_tx_valid[o]}};
        end
    endgenerate

    always @* begin
        assert(g_rx_ret == t_rx_ret);
        assert(g_tx_valid == t_tx_valid);
        assert((g_tx_flit & mask) == (t_tx_flit & mask));
        assert(g_cnt_up == t_cnt_up);
        assert(g_cnt_down == t_cnt_down);
        assert(g_cnt_drop == t_cnt_drop);
        assert(g_dbg == t_dbg);
    end
endmodule

`resetall
