// floor_miter_ckt: tb/floor/prove-floor.sh's induction miter for the circuit-mode floor. gold is
// rtl/lcan_switch and gate tb/floor/lcan_switch22_ckt (or a mutant), both elaborated with the same
// parameters, flattened and with their state registers exposed as outputs (prove-floor.sh renames
// and exposes them). The asserts are every output equal, and the invariant that makes that an
// induction:
//   - the two LFSR states equal (lcan_switch reads its offsets and sigma from its LFSR state for
//     this shape, PLAIN_OFS: no registered offsets to relate to the state);
//   - set bits equal; where an output is set, its src equal (gate: an upper's src is one bit);
//   - gold's uppers' src below D (bit 1 is 0: class UP is asked by downers only).
// (The ack registers are the output rx_ret.) With HELD defined (prove-floor.sh ckt-held-*: both sides
// with LINK_HOLD = 1) tx_flit is compared where tx_valid = 1 only; no invariant on the flit
// registers is needed, since a valid flit was loaded on the tick before from the related state.
`default_nettype none

module floor_miter_ckt (
    input wire        clk,
    input wire        rst,
    input wire        clear,
    input wire [31:0] seed,
    input wire [2:0]  label,
    input wire [31:0] salt,
    input wire [3:0]  rx_valid,
    input wire [51:0] rx_flit,
    input wire [3:0]  tx_ret,
    input wire [3:0]  port_off,
    input wire [31:0] row_base,
    input wire        cfg_we,
    input wire [31:0] cfg_addr,
    input wire [0:0]  cfg_row
);
    wire [3:0]  g_rx_ret, t_rx_ret, g_tx_valid, t_tx_valid;
    wire [51:0] g_tx_flit, t_tx_flit;
    wire [31:0] g_cnt_up, t_cnt_up, g_cnt_down, t_cnt_down, g_cnt_drop, t_cnt_drop;
    wire [31:0] g_dbg, t_dbg;
    wire [31:0] g_s, t_s;
    wire [3:0]  g_set, t_set;
    wire [7:0]  g_src;
    wire [1:0]  t_src0, t_src1;
    wire        t_src2, t_src3;

    gold u_gold (
        .clk(clk), .rst(rst), .clear(clear), .seed(seed), .label(label), .salt(salt),
        .rx_valid(rx_valid), .rx_flit(rx_flit), .rx_ret(g_rx_ret), .tx_valid(g_tx_valid),
        .tx_flit(g_tx_flit), .tx_ret(tx_ret), .cnt_up(g_cnt_up), .cnt_down(g_cnt_down),
        .cnt_drop(g_cnt_drop), .dbg(g_dbg), .port_off(port_off), .row_base(row_base),
        .cfg_we(cfg_we), .cfg_addr(cfg_addr), .cfg_row(cfg_row),
        .x_s(g_s), .x_set(g_set), .x_src(g_src)
    );

    gate u_gate (
        .clk(clk), .rst(rst), .clear(clear), .seed(seed), .label(label), .salt(salt),
        .rx_valid(rx_valid), .rx_flit(rx_flit), .rx_ret(t_rx_ret), .tx_valid(t_tx_valid),
        .tx_flit(t_tx_flit), .tx_ret(tx_ret), .cnt_up(t_cnt_up), .cnt_down(t_cnt_down),
        .cnt_drop(t_cnt_drop), .dbg(t_dbg), .port_off(port_off), .row_base(row_base),
        .cfg_we(cfg_we), .cfg_addr(cfg_addr), .cfg_row(cfg_row),
        .x_s(t_s), .x_set(t_set), .x_src0(t_src0), .x_src1(t_src1), .x_src2(t_src2),
        .x_src3(t_src3)
    );

`ifdef HELD
    wire [51:0] held_mask = {{13{g_tx_valid[3]}}, {13{g_tx_valid[2]}}, {13{g_tx_valid[1]}}, {13{g_tx_valid[0]}}};
`endif

    always @* begin
        // every output
        assert(g_rx_ret == t_rx_ret);
        assert(g_tx_valid == t_tx_valid);
`ifdef HELD
        // LINK_HOLD = 1: every output of this level-2 switch is held (spec 7.1, 13.1), its tx_flit
        // defined only where tx_valid = 1
        assert((g_tx_flit & held_mask) == (t_tx_flit & held_mask));
`else
        assert(g_tx_flit == t_tx_flit);
`endif
        assert(g_cnt_up == t_cnt_up);
        assert(g_cnt_down == t_cnt_down);
        assert(g_cnt_drop == t_cnt_drop);
        assert(g_dbg == t_dbg);
        // the invariant
        assert(g_s == t_s);
        assert(g_set == t_set);
        assert(~g_set[0] || g_src[1:0] == t_src0);
        assert(~g_set[1] || g_src[3:2] == t_src1);
        assert(~g_set[2] || g_src[5:4] == {1'b0, t_src2});
        assert(~g_set[3] || g_src[7:6] == {1'b0, t_src3});
        assert(~g_src[5] && ~g_src[7]);
    end
endmodule

`resetall
