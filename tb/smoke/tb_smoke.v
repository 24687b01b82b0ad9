// tb_smoke: network smoke test of lcan_network (spec 7.4, 8.4, 8.5, 9). For every ordered
// source/destination pair (s, t) alone in an idle network:
//   circuit mode: a header injected at tick T0 on port s*U0 + (s+t) mod U0 must appear on exactly
//   one ej port of leaf t, as an output of tick T0 + 2L - 1, and nowhere else at any other tick;
//   an ack presented on that port at the next tick must reach inj_ack of the source port as an
//   output of exactly 2L - 2 ticks later; then one clear tick must zero the debug view.
//   packet mode: a unicast flit injected at tick T0 must appear as in circuit mode at T0 + 2L - 1;
//   after the network drains every credit counter (debug view) and inj_ready is back to full.
//   Packet mode also sends, from every source and on every tree t < w_1, one broadcast that must
//   reach port t*p_1 of every leaf (including the source) at T0 + 2h - 1 (spec 8.5).
// L, the LCA level, is computed from the leaf digits (f_lca of rtl/lcan_geom.vh: most significant
// differing digit, 1 for s = t), not taken from the RTL's route decision (lcan_route). At the end
// the per-level counters must equal the sums of these independently computed path lengths:
// cnt_down[l] = #deliveries that went through level l.
// Prints "smoke NAME: N passed, N failed". Non-synthesizable testbench code.
`default_nettype none

module tb_smoke;
    parameter H = 2;
    parameter [H*32-1:0] M = {32'd2, 32'd2};
    parameter [H*32-1:0] W = {32'd2, 32'd1};
    parameter [H*32-1:0] P = {32'd1, 32'd1};
    parameter MODE = 0;
    parameter PAYLOAD_W = 16;
    parameter DEPTH = 4;
    // test only pairs (s, t) with (s*N + t) mod PAIR_STRIDE == 0
    parameter PAIR_STRIDE = 1;
    parameter [31:0] SEED = 32'h1234_5678;
    parameter NAME = "net";
    // fault support (spec 14) built in; no fault is applied, so every check holds as with 0
    parameter FAULTS = 0;

    // ------------------------------------------------------------------ sizes (spec 1.1, 2.1, 13)
    // the geometry: rtl/lcan_geom.vh (N, U0, NP, ADDR_W, FW, DBG_BYTES; m_of, w_of, p_of, f_s,
    // f_d, f_u, f_leaf_addr, f_lca, ..)
`include "lcan_geom.vh"

    function [FW-1:0] make_flit;
        input head;
        input bcast;
        input [63:0] dest;
        input [31:0] payload;
        reg [FW+63:0] f;
        begin
            f = 0;
            f[FW-1] = head;
            f[FW-2] = bcast;
            f = f | (dest[ADDR_W-1:0] << PAYLOAD_W);
            f = f | (payload & ((64'd1 << PAYLOAD_W) - 1));
            make_flit = f[FW-1:0];
        end
    endfunction

    // ------------------------------------------------------------------ DUT
    reg                    clk = 1'b0;
    reg                    rst = 1'b1;
    reg                    clear = 1'b0;
    reg  [31:0]            seed = SEED;
    reg  [NP-1:0]          inj_valid = 0;
    reg  [NP*FW-1:0]       inj_flit = 0;
    wire [NP-1:0]          inj_ready;
    wire [NP-1:0]          inj_ack;
    wire [NP-1:0]          ej_valid;
    wire [NP*FW-1:0]       ej_flit;
    reg  [NP-1:0]          ej_ack = 0;
    wire [H*32-1:0]        cnt_up;
    wire [H*32-1:0]        cnt_down;
    wire [H*32-1:0]        cnt_drop;
    wire [DBG_BYTES*8-1:0] dbg;

    lcan_network #(
        .H        (H),
        .M        (M),
        .W        (W),
        .P        (P),
        .MODE     (MODE),
        .PAYLOAD_W(PAYLOAD_W),
        .DEPTH    (DEPTH),
        .FAULTS   (FAULTS)
    ) dut (
        .clk      (clk),
        .rst      (rst),
        .clear    (clear),
        .seed     (seed),
        .inj_valid(inj_valid),
        .inj_flit (inj_flit),
        .inj_ready(inj_ready),
        .inj_ack  (inj_ack),
        .ej_valid (ej_valid),
        .ej_flit  (ej_flit),
        .ej_ack   (ej_ack),
        .cnt_up   (cnt_up),
        .cnt_down (cnt_down),
        .cnt_drop (cnt_drop),
        .dbg      (dbg),
        // no faults (with FAULTS = 0 the pins are ignored)
        .link_off ({NL{1'b0}}),
        .sw_off   ({NS{1'b0}}),
        .cfg_we   (1'b0),
        .cfg_addr (32'd0),
        .cfg_row  ({((FAULTS != 0) ? RW : 1){1'b0}})
    );

    always #5 clk = ~clk;

    // ------------------------------------------------------------------ checking
    integer cyc = -1;
    integer n_pass = 0;
    integer n_fail = 0;
    integer exp_up [1:16];
    integer exp_down [1:16];

    task check;
        input ok;
        input [8*64-1:0] what;
        input integer a;
        input integer b;
        begin
            if (ok) n_pass = n_pass + 1;
            else begin
                n_fail = n_fail + 1;
                if (n_fail <= 10)
                    $display("smoke %0s: FAIL tick %0d: %0s (%0d, %0d)", NAME, cyc, what, a, b);
            end
        end
    endtask

    // one clock: inputs set before the call are sampled at this edge; afterwards the outputs of
    // tick cyc are visible
    task tick;
        begin
            @(posedge clk);
            #1;
            cyc = cyc + 1;
        end
    endtask

    // the ej ports with a valid flit, and the one hit (or -1)
    integer hits;
    integer hit_port;
    task scan_ej;
        integer q;
        begin
            hits = 0;
            hit_port = -1;
            for (q = 0; q < NP; q = q + 1)
                if (ej_valid[q]) begin
                    hits = hits + 1;
                    hit_port = q;
                end
        end
    endtask

    integer s, t, L, k, q, sp, t0, got_at, ack_at, tr, l, b, x, o, ok_all;
    reg [FW-1:0] flit;

    initial begin
        for (l = 1; l <= 16; l = l + 1) begin
            exp_up[l] = 0;
            exp_down[l] = 0;
        end
        // reset for two ticks
        rst = 1'b1;
        tick;
        tick;
        rst = 1'b0;
        tick;

        for (s = 0; s < N; s = s + 1)
            for (t = 0; t < N; t = t + 1)
                if ((s * N + t) % PAIR_STRIDE == 0) begin
                    L = f_lca(s, t);
                    sp = s * U0 + (s + t) % U0;
                    flit = make_flit(MODE == 0, 1'b0, f_leaf_addr(t), s);
                    check(inj_ready[sp] === 1'b1, "inj_ready before injection", s, t);
                    inj_valid[sp] = 1'b1;
                    inj_flit[sp*FW +: FW] = flit;
                    tick;
                    t0 = cyc;
                    inj_valid = 0;
                    inj_flit = 0;
                    got_at = -1;
                    ack_at = -1;
                    // the flit travels 2L links; watch 2L + 2 ticks
                    for (k = 0; k < 2 * L + 2; k = k + 1) begin
                        tick;
                        scan_ej;
                        if (hits != 0) begin
                            check(hits == 1 && got_at == -1, "exactly one ej flit", hits, got_at);
                            check(cyc == t0 + 2 * L - 1, "arrival tick t0+2L-1 (got, L)", cyc - t0, L);
                            check(hit_port / U0 == t, "arrival at the destination leaf", hit_port, t);
                            check(ej_flit[hit_port*FW +: FW] === flit, "flit unchanged", s, t);
                            got_at = cyc;
                            q = hit_port;
                            if (MODE == 0) ej_ack[q] = 1'b1;
                        end else begin
                            ej_ack = 0;
                        end
                        if (MODE == 0 && (|inj_ack)) ack_at = cyc;
                    end
                    check(got_at != -1, "flit delivered", s, t);
                    if (MODE == 0) begin
                        // ack presented at got_at + 1, back at the source 2L - 2 ticks later
                        for (k = 0; k < 2 * L + 2; k = k + 1) begin
                            if (|inj_ack) begin
                                check(ack_at == -1 || ack_at == cyc, "one ack tick", ack_at, cyc);
                                check(inj_ack == ({{(NP-1){1'b0}}, 1'b1} << sp), "ack at source port only", sp, 0);
                                check(cyc == got_at + 1 + 2 * L - 2, "ack tick (got - sent, L)", cyc - got_at - 1, L);
                                ack_at = cyc;
                            end
                            ej_ack = 0;
                            tick;
                        end
                        check(ack_at != -1, "ack returned", s, t);
                        check(ack_at == got_at + 2 * L - 1, "ack timing", ack_at - got_at, L);
                        clear = 1'b1;
                        tick;
                        clear = 1'b0;
                        check(dbg == 0, "clear releases every crosspoint", s, t);
                    end else begin
                        for (k = 0; k < 4; k = k + 1) tick;
                        check(inj_ready == {NP{1'b1}}, "credits back at the leaves", s, t);
                    end
                    for (l = 1; l <= H; l = l + 1) begin
                        if (l <= L) exp_down[l] = exp_down[l] + 1;
                        if (l < L) exp_up[l] = exp_up[l] + 1;
                    end
                end

        if (MODE == 1) begin
            // broadcasts on every tree from every source (spec 8.5)
            for (s = 0; s < N; s = s + 1)
                for (tr = 0; tr < w_of(1); tr = tr + 1) begin
                    sp = s * U0 + tr * p_of(1);
                    flit = make_flit(1'b0, 1'b1, tr, s);
                    inj_valid[sp] = 1'b1;
                    inj_flit[sp*FW +: FW] = flit;
                    tick;
                    t0 = cyc;
                    inj_valid = 0;
                    inj_flit = 0;
                    got_at = -1;
                    for (k = 0; k < 2 * H + 4; k = k + 1) begin
                        tick;
                        scan_ej;
                        if (hits != 0) begin
                            check(got_at == -1, "broadcast arrives on one tick", got_at, cyc);
                            check(cyc == t0 + 2 * H - 1, "broadcast tick t0+2h-1 (got, h)", cyc - t0, H);
                            ok_all = (hits == N);
                            for (t = 0; t < N; t = t + 1) begin
                                q = t * U0 + tr * p_of(1);
                                if (!(ej_valid[q] === 1'b1 && ej_flit[q*FW +: FW] === flit)) ok_all = 0;
                            end
                            check(ok_all, "broadcast reaches port t*p1 of every leaf (source, tree)", s, tr);
                            got_at = cyc;
                        end
                    end
                    check(got_at != -1, "broadcast delivered", s, tr);
                    for (k = 0; k < 4; k = k + 1) tick;
                    check(inj_ready == {NP{1'b1}}, "credits back at the leaves", s, tr);
                    for (l = 1; l <= H; l = l + 1) begin
                        // level l writes link 0 towards each child of each tree switch
                        x = 1;
                        for (b = l; b <= H; b = b + 1) x = x * m_of(b);
                        exp_down[l] = exp_down[l] + x;
                        if (l < H) exp_up[l] = exp_up[l] + 1;
                    end
                end

            // idle network: every credit counter full again (level-1 downers show 0)
            b = 0;
            ok_all = 1;
            for (l = 1; l <= H; l = l + 1)
                for (x = 0; x < f_s(l); x = x + 1)
                    for (o = 0; o < f_d(l) + f_u(l); o = o + 1) begin
                        if (dbg[b*8 +: 8] !== ((l == 1 && o < f_d(l)) ? 8'd0 : DEPTH[7:0])) ok_all = 0;
                        b = b + 1;
                    end
            check(ok_all, "idle debug view: every cr_o = DEPTH", b, DBG_BYTES);
        end

        for (l = 1; l <= H; l = l + 1) begin
            check(cnt_down[(l-1)*32 +: 32] == exp_down[l], "cnt_down (level, expected)", l, exp_down[l]);
            check(cnt_up[(l-1)*32 +: 32] == exp_up[l], "cnt_up (level, expected)", l, exp_up[l]);
            check(cnt_drop[(l-1)*32 +: 32] == 0, "cnt_drop (level)", l, 0);
        end

        $display("smoke %0s: %0d passed, %0d failed", NAME, n_pass, n_fail);
        $finish;
    end
endmodule

`resetall
