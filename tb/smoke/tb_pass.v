// tb_pass: one circuit-mode pass of spec 7.5 with every source active at once (a full
// permutation pi(s) = (A*s + B) mod N, A odd/coprime chosen by the caller), on lcan_network.
// Checks what holds whatever the LFSR draws: every header that reaches a port reaches a port of
// pi(s) at tick 1 + 2L - 1 with the right payload; each ack returns to exactly the source port;
// every satisfied source's DATA_LEN data flits arrive, in order, at the port that got its header;
// deliveries = level-1 cnt_down, and deliveries + sum of cnt_drop = N (each header is either
// delivered or dropped once). Prints "pass NAME: N passed, N failed".
`default_nettype none

module tb_pass;
    parameter H = 2;
    parameter [H*32-1:0] M = {32'd2, 32'd2};
    parameter [H*32-1:0] W = {32'd2, 32'd1};
    parameter [H*32-1:0] P = {32'd1, 32'd1};
    parameter A = 5;
    parameter B = 3;
    parameter [31:0] SEED = 32'h0BADCAFE;
    parameter NAME = "net";
    localparam PAYLOAD_W = 16;
    localparam DATA_LEN = 4;
    // data payload (spec 7.5): (s*DATA_LEN + j) * K mod 2^PAYLOAD_W; KINV undoes it
    localparam [31:0] K = 32'h9E3779B1;
    localparam [31:0] KINV = 32'h0E8B2F51;

    // ------------------------------------------------------------------ sizes (spec 1.1, 2.1, 13)
    // the geometry: rtl/lcan_geom.vh (N, U0, NP, ADDR_W, FW, DBG_BYTES; m_of, w_of, p_of, f_s,
    // f_d, f_u, f_leaf_addr, f_lca, ..)
`include "lcan_geom.vh"

    function [FW-1:0] make_flit;
        input head;
        input [63:0] dest;
        input [31:0] payload;
        reg [FW+63:0] f;
        begin
            f = 0;
            f[FW-1] = head;
            f = f | (dest[ADDR_W-1:0] << PAYLOAD_W);
            f = f | (payload & ((64'd1 << PAYLOAD_W) - 1));
            make_flit = f[FW-1:0];
        end
    endfunction

    reg                    clk = 1'b0;
    reg                    rst = 1'b1;
    reg                    clear = 1'b0;
    reg  [NP-1:0]          inj_valid = 0;
    reg  [NP*FW-1:0]       inj_flit = 0;
    wire [NP-1:0]          inj_ready, inj_ack, ej_valid;
    wire [NP*FW-1:0]       ej_flit;
    reg  [NP-1:0]          ej_ack = 0;
    wire [H*32-1:0]        cnt_up, cnt_down, cnt_drop;
    wire [DBG_BYTES*8-1:0] dbg;

    lcan_network #(.H(H), .M(M), .W(W), .P(P), .MODE(0), .PAYLOAD_W(PAYLOAD_W)) dut (
        .clk(clk), .rst(rst), .clear(clear), .seed(SEED),
        .inj_valid(inj_valid), .inj_flit(inj_flit), .inj_ready(inj_ready), .inj_ack(inj_ack),
        .ej_valid(ej_valid), .ej_flit(ej_flit), .ej_ack(ej_ack),
        .cnt_up(cnt_up), .cnt_down(cnt_down), .cnt_drop(cnt_drop), .dbg(dbg),
        .link_off({NL{1'b0}}), .sw_off({NS{1'b0}}), .cfg_we(1'b0), .cfg_addr(32'd0), .cfg_row(1'b0)
    );

    always #5 clk = ~clk;

    integer n_pass = 0;
    integer n_fail = 0;
    task check;
        input ok;
        input [8*56-1:0] what;
        input integer a;
        input integer b;
        begin
            if (ok) n_pass = n_pass + 1;
            else begin
                n_fail = n_fail + 1;
                if (n_fail <= 10) $display("pass %0s: FAIL %0s (%0d, %0d)", NAME, what, a, b);
            end
        end
    endtask

    integer tk;         // tick within the pass (0 = clear)
    integer s, q, t, k, drops, deliveries;
    integer rx_port [0:4095];    // port of pi(s) that got s's header, -1 if none
    integer rx_count [0:4095];   // data flits received so far for source s
    integer src_port [0:4095];
    reg     satisfied [0:4095];
    reg [FW-1:0] f;
    reg [31:0] v;              // a data flit's payload times KINV: s*DATA_LEN + j

    initial begin
        for (s = 0; s < N; s = s + 1) begin
            rx_port[s] = -1;
            rx_count[s] = 0;
            satisfied[s] = 1'b0;
            src_port[s] = s * U0 + (s % U0);
        end
        @(posedge clk); #1;
        rst = 1'b0;
        deliveries = 0;
        for (tk = 0; tk < 6 * H + DATA_LEN + 1; tk = tk + 1) begin
            // inputs of tick tk
            clear = (tk == 0);
            inj_valid = 0;
            inj_flit = 0;
            for (s = 0; s < N; s = s + 1) begin
                q = src_port[s];
                t = (A * s + B) % N;
                if (tk == 1) begin
                    inj_valid[q] = 1'b1;
                    inj_flit[q*FW +: FW] = make_flit(1'b1, f_leaf_addr(t), s);
                end
                if (tk >= 4 * H + 1 && tk < 4 * H + 1 + DATA_LEN && satisfied[s]) begin
                    inj_valid[q] = 1'b1;
                    inj_flit[q*FW +: FW] = make_flit(1'b0, f_leaf_addr(t), (s * DATA_LEN + tk - (4 * H + 1)) * K);
                end
            end
            @(posedge clk); #1;
            // outputs of tick tk
            ej_ack = 0;
            for (q = 0; q < NP; q = q + 1) begin
                if (ej_valid[q]) begin
                    f = ej_flit[q*FW +: FW];
                    s = f[PAYLOAD_W-1:0];
                    if (f[FW-1]) begin
                        s = f[PAYLOAD_W-1:0];
                        t = (A * s + B) % N;
                        check(q / U0 == t, "header at a port of pi(s) (port, pi)", q, t);
                        check(tk == 1 + 2 * f_lca(s, t) - 1, "header tick 2L (tick, L)", tk, f_lca(s, t));
                        check(rx_port[s] == -1, "one header per source", s, rx_port[s]);
                        rx_port[s] = q;
                        deliveries = deliveries + 1;
                        ej_ack[q] = 1'b1;
                    end else begin
                        v = (f[PAYLOAD_W-1:0] * KINV) & ((32'd1 << PAYLOAD_W) - 1);
                        s = v / DATA_LEN;
                        check(s < N && rx_port[s] == q, "data at the header's port (src, port)", s, q);
                        check(v == s * DATA_LEN + rx_count[s], "data in order", s, rx_count[s]);
                        rx_count[s] = rx_count[s] + 1;
                    end
                end
                if (inj_ack[q]) begin
                    s = q / U0;
                    check(q == src_port[s], "ack at the source's port", q, s);
                    satisfied[s] = 1'b1;
                end
            end
        end
        drops = 0;
        for (k = 0; k < H; k = k + 1) drops = drops + cnt_drop[k*32 +: 32];
        check(cnt_down[31:0] == deliveries, "deliveries = level-1 cnt_down", deliveries, cnt_down[31:0]);
        check(deliveries + drops == N, "deliveries + drops = N", deliveries, drops);
        for (s = 0; s < N; s = s + 1) begin
            check(satisfied[s] == (rx_port[s] != -1), "satisfied iff delivered", s, rx_port[s]);
            if (satisfied[s]) check(rx_count[s] == DATA_LEN, "all data delivered", s, rx_count[s]);
        end
        $display("pass %0s: %0d passed, %0d failed (%0d of %0d delivered)", NAME, n_pass, n_fail, deliveries, N);
        $finish;
    end
endmodule

`resetall
