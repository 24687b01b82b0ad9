// tb_lcan_seeding: spec 5's per-switch seeding inside lcan_network, for lcan(2,2,16) (H = 4,
// m = 2, w = 1,2,2,2, 8 switches per level). After a reset tick with seed 0xDEADBEEF the LFSR of
// switch (level l, index x) must hold rotl(H1, salt[4:0]) ^ rotl(H2, salt[9:5]) ^ rotl(H3,
// salt[14:10]) ^ salt, salt = l*0x9E3779B9 + x*0x85EBCA6B + 0x6A09E667 mod 2^32, H1 = mix(seed),
// H2 = mix(H1), H3 = mix(H2). Expected values computed with python3 from the spec's formulas:
//   H1 0xe47b6f08  H2 0x35f16958  H3 0x6b441010
//   salt (1,0) 0x08416020 -> 0x97b39988   (2,5) 0x4413cdf0 -> 0x1f346953
//        (3,3) 0xd673b2d3 -> 0xb938ebe6   (4,7) 0x8c5a5638 -> 0x54032e37
// and the network must keep the states while idle (no requests, so no LFSR steps).
// Prints "seeding: N passed, N failed".
`default_nettype none

module tb_lcan_seeding;
    localparam H = 4;
    localparam [H*32-1:0] M = {32'd2, 32'd2, 32'd2, 32'd2};
    localparam [H*32-1:0] W = {32'd2, 32'd2, 32'd2, 32'd1};
    localparam [H*32-1:0] P = {32'd1, 32'd1, 32'd1, 32'd1};
    localparam NP = 16;
    localparam FW = 2 + 4 + 16;

    reg clk = 1'b0;
    reg rst = 1'b1;
    always #5 clk = ~clk;

    wire [NP-1:0]    inj_ready, inj_ack, ej_valid;
    wire [NP*FW-1:0] ej_flit;
    wire [H*32-1:0]  cnt_up, cnt_down, cnt_drop;
    wire [112*8-1:0] dbg_unused;

    lcan_network #(.H(H), .M(M), .W(W), .P(P), .MODE(0)) dut (
        .clk(clk), .rst(rst), .clear(1'b0), .seed(32'hDEADBEEF),
        .inj_valid({NP{1'b0}}), .inj_flit({(NP*FW){1'b0}}), .inj_ready(inj_ready),
        .inj_ack(inj_ack), .ej_valid(ej_valid), .ej_flit(ej_flit), .ej_ack({NP{1'b0}}),
        .cnt_up(cnt_up), .cnt_down(cnt_down), .cnt_drop(cnt_drop), .dbg(dbg_unused),
        // no faults: NL = 64 links, NS = 32 switches, cfg_row 1 bit (FAULTS = 0; spec 13, 14.1)
        .link_off({64{1'b0}}), .sw_off({32{1'b0}}), .cfg_we(1'b0), .cfg_addr(32'd0), .cfg_row(1'b0)
    );

    integer n_pass = 0;
    integer n_fail = 0;
    integer k;

    task check;
        input [31:0] got;
        input [31:0] want;
        input [8*16-1:0] what;
        begin
            if (got === want) n_pass = n_pass + 1;
            else begin
                n_fail = n_fail + 1;
                $display("seeding: FAIL switch %0s: %08x, expected %08x", what, got, want);
            end
        end
    endtask

    initial begin
        for (k = 0; k < 4; k = k + 1) begin
            @(posedge clk);
            #1;
            if (k == 0) rst = 1'b0;
            check(dut.g_net.g_level[1].g_switch[0].u_switch.u_lfsr.s_q, 32'h97b39988, "(1,0)");
            check(dut.g_net.g_level[2].g_switch[5].u_switch.u_lfsr.s_q, 32'h1f346953, "(2,5)");
            check(dut.g_net.g_level[3].g_switch[3].u_switch.u_lfsr.s_q, 32'hb938ebe6, "(3,3)");
            check(dut.g_net.g_level[4].g_switch[7].u_switch.u_lfsr.s_q, 32'h54032e37, "(4,7)");
        end
        $display("seeding: %0d passed, %0d failed", n_pass, n_fail);
        $finish;
    end
endmodule

`resetall
