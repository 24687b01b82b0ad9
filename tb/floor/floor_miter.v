// floor_miter: tb/floor/prove-floor.sh's induction miter for the packet floors. gold is
// rtl/lcan_switch and gate tb/floor/lcan_switch22_uni, or with SERVED defined (modes bcast-pinned,
// bcast-free) tb/floor/lcan_switch22_bcast (or a mutant), both elaborated with the same parameters,
// flattened and with their state registers exposed as outputs (prove-floor.sh renames and exposes
// them): the asserts are every output equal, and the invariant that makes that an induction: the
// two LFSR states, credit bits and FIFO counts equal, and with SERVED the served sets: lcan_switch's
// four bits per input (MASK = children 0, 1 and upper 2) against the floor's two (the outputs of the
// input's ALL set), the other bits 0 - an input's own child, upper 3, upper 2 on an upper input are
// never held in a served set (a grant there is a ONE request's, which consumes the candidate).
// (lcan_switch reads its offsets and sigma from the LFSR state for this shape, PLAIN_OFS: no
// registered offsets to relate to the state.)
`default_nettype none

module floor_miter (
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
    wire        g_cr0, g_cr1, g_cr2, g_cr3, g_cnt0, g_cnt1, g_cnt2, g_cnt3;
    wire [3:0]  t_cr, t_cnt;
`ifdef SERVED
    wire [3:0]  g_sv0, g_sv1, g_sv2, g_sv3;
    wire [7:0]  t_sv;
`endif

    gold u_gold (
        .clk(clk), .rst(rst), .clear(clear), .seed(seed), .label(label), .salt(salt),
        .rx_valid(rx_valid), .rx_flit(rx_flit), .rx_ret(g_rx_ret), .tx_valid(g_tx_valid),
        .tx_flit(g_tx_flit), .tx_ret(tx_ret), .cnt_up(g_cnt_up), .cnt_down(g_cnt_down),
        .cnt_drop(g_cnt_drop), .dbg(g_dbg), .port_off(port_off), .row_base(row_base),
        .cfg_we(cfg_we), .cfg_addr(cfg_addr), .cfg_row(cfg_row),
        .x_s(g_s),
        .x_cr0(g_cr0), .x_cr1(g_cr1), .x_cr2(g_cr2), .x_cr3(g_cr3),
        .x_cnt0(g_cnt0), .x_cnt1(g_cnt1), .x_cnt2(g_cnt2), .x_cnt3(g_cnt3)
`ifdef SERVED
        , .x_sv0(g_sv0), .x_sv1(g_sv1), .x_sv2(g_sv2), .x_sv3(g_sv3)
`endif
    );

    gate u_gate (
        .clk(clk), .rst(rst), .clear(clear), .seed(seed), .label(label), .salt(salt),
        .rx_valid(rx_valid), .rx_flit(rx_flit), .rx_ret(t_rx_ret), .tx_valid(t_tx_valid),
        .tx_flit(t_tx_flit), .tx_ret(tx_ret), .cnt_up(t_cnt_up), .cnt_down(t_cnt_down),
        .cnt_drop(t_cnt_drop), .dbg(t_dbg), .port_off(port_off), .row_base(row_base),
        .cfg_we(cfg_we), .cfg_addr(cfg_addr), .cfg_row(cfg_row),
        .x_s(t_s), .x_cr(t_cr), .x_cnt(t_cnt)
`ifdef SERVED
        , .x_sv(t_sv)
`endif
    );

    always @* begin
        // every output
        assert(g_rx_ret == t_rx_ret);
        assert(g_tx_valid == t_tx_valid);
        assert(g_tx_flit == t_tx_flit);
        assert(g_cnt_up == t_cnt_up);
        assert(g_cnt_down == t_cnt_down);
        assert(g_cnt_drop == t_cnt_drop);
        assert(g_dbg == t_dbg);
        // the invariant
        assert(g_s == t_s);
        assert({g_cr3, g_cr2, g_cr1, g_cr0} == t_cr);
        assert({g_cnt3, g_cnt2, g_cnt1, g_cnt0} == t_cnt);
`ifdef SERVED
        // served sets: downer 0 {child 1, upper 2}, downer 1 {child 0, upper 2}, uppers {child 0, child 1}
        assert(g_sv0 == {1'b0, t_sv[1], t_sv[0], 1'b0});
        assert(g_sv1 == {1'b0, t_sv[3], 1'b0, t_sv[2]});
        assert(g_sv2 == {2'b00, t_sv[5], t_sv[4]});
        assert(g_sv3 == {2'b00, t_sv[7], t_sv[6]});
`endif
    end
endmodule

`resetall
