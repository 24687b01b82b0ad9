// plain_offsets_miter: scripts/prove-plain-offsets.sh's induction harness. dut is rtl/lcan_switch
// elaborated for a shape where PLAIN_OFS = 1 (the allocator reads the offsets and sigma from the LFSR
// state, lcan_offsets on it, r_*_p / up_perm_p), flattened, with the registered offsets and sigma
// (r_*_q, g_sigma's up_perm_q and sig_next_q: still written as before, not read) and the LFSR state
// exposed as outputs. The asserts say the registered values are what the plain ones are: r_*_q =
// r_*_p, the registered sigma = up_perm_p, and (U = 2 with sigma: the only sigma PLAIN_OFS allows)
// sig_next_q = sigma of the state stepped once, which for U = 2 is drawn from bit 9 of the state
// (sigma = [b, 1 - b] from b = s[8]; the step moves bit 9 to bit 8: no tap there), as the one-hot
// matrix {~b, b, b, ~b}. sat -tempinduct from a reset tick: the asserts hold on every tick after
// reset, so the plain switch reads the values the registered switch reads.
`default_nettype none

module plain_offsets_miter #(
    parameter P = 4,
    parameter FW = 9,
    parameter ADDR_W = 3,
    parameter SW = 2,
    parameter UPERM_W = 4,
    // 1: sigma of U = 2 is drawn (the switch has g_sigma)
    parameter SIG = 1
) (
    input wire              clk,
    input wire              rst,
    input wire              clear,
    input wire [31:0]       seed,
    input wire [ADDR_W-1:0] label,
    input wire [31:0]       salt,
    input wire [P-1:0]      rx_valid,
    input wire [P*FW-1:0]   rx_flit,
    input wire [P-1:0]      tx_ret,
    input wire [P-1:0]      port_off,
    input wire [31:0]       row_base,
    input wire              cfg_we,
    input wire [31:0]       cfg_addr,
    input wire [0:0]        cfg_row
);
    wire [31:0]        s;
    wire [SW-1:0]      rq_in, rq_up, rq_dn, rp_in, rp_up, rp_dn;
    wire [UPERM_W-1:0] perm_r, perm_p;

    generate
        if (SIG != 0) begin : g_sig
            wire [UPERM_W-1:0] sig_next;
            dut u_dut (
                .clk(clk), .rst(rst), .clear(clear), .seed(seed), .label(label), .salt(salt),
                .rx_valid(rx_valid), .rx_flit(rx_flit), .tx_ret(tx_ret), .port_off(port_off),
                .row_base(row_base), .cfg_we(cfg_we), .cfg_addr(cfg_addr), .cfg_row(cfg_row),
                .x_s(s), .x_rq_in(rq_in), .x_rq_up(rq_up), .x_rq_dn(rq_dn), .x_rp_in(rp_in),
                .x_rp_up(rp_up), .x_rp_dn(rp_dn), .x_perm_r(perm_r), .x_perm_p(perm_p),
                .x_sig_next(sig_next)
            );
            always @*
                assert(sig_next == {~s[9], s[9], s[9], ~s[9]});
        end else begin : g_nosig
            dut u_dut (
                .clk(clk), .rst(rst), .clear(clear), .seed(seed), .label(label), .salt(salt),
                .rx_valid(rx_valid), .rx_flit(rx_flit), .tx_ret(tx_ret), .port_off(port_off),
                .row_base(row_base), .cfg_we(cfg_we), .cfg_addr(cfg_addr), .cfg_row(cfg_row),
                .x_s(s), .x_rq_in(rq_in), .x_rq_up(rq_up), .x_rq_dn(rq_dn), .x_rp_in(rp_in),
                .x_rp_up(rp_up), .x_rp_dn(rp_dn), .x_perm_r(perm_r), .x_perm_p(perm_p)
            );
        end
    endgenerate

    always @* begin
        assert(rq_in == rp_in);
        assert(rq_up == rp_up);
        assert(rq_dn == rp_dn);
        assert(perm_r == perm_p);
    end
endmodule

`resetall
