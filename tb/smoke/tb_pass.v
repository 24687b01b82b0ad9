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

    function integer m_of; input integer l; begin m_of = M[(l-1)*32 +: 32]; end endfunction
    function integer w_of; input integer l; begin w_of = W[(l-1)*32 +: 32]; end endfunction
    function integer p_of; input integer l; begin p_of = P[(l-1)*32 +: 32]; end endfunction
    function integer bits;
        input integer x;
        begin
            bits = 0;
            while ((1 << bits) < x) bits = bits + 1;
        end
    endfunction
    function integer n_leaves;
        input integer h;
        integer j;
        begin
            n_leaves = 1;
            for (j = 1; j <= h; j = j + 1) n_leaves = n_leaves * m_of(j);
        end
    endfunction
    function integer s_of;
        input integer l;
        integer j;
        begin
            s_of = 1;
            for (j = 1; j <= l; j = j + 1) s_of = s_of * w_of(j);
            for (j = l + 1; j <= H; j = j + 1) s_of = s_of * m_of(j);
        end
    endfunction
    function integer addr_bits;
        input integer h;
        integer j;
        begin
            addr_bits = 0;
            for (j = 1; j <= h; j = j + 1) addr_bits = addr_bits + bits(m_of(j));
        end
    endfunction
    function integer dbg_bytes;
        input integer h;
        integer j;
        begin
            dbg_bytes = 0;
            for (j = 1; j <= h; j = j + 1)
                dbg_bytes = dbg_bytes + s_of(j) * (m_of(j) * p_of(j) + ((j < H) ? w_of(j + 1) * p_of(j + 1) : 0));
        end
    endfunction
    function integer digit;
        input integer s;
        input integer i;
        integer j;
        integer v;
        begin
            v = s;
            for (j = 1; j < i; j = j + 1) v = v / m_of(j);
            digit = v % m_of(i);
        end
    endfunction
    function [63:0] packed_addr;
        input integer s;
        integer i;
        integer off;
        reg [63:0] d;
        begin
            packed_addr = 0;
            off = 0;
            for (i = 1; i <= H; i = i + 1) begin
                d = digit(s, i);
                packed_addr = packed_addr | (d << off);
                off = off + bits(m_of(i));
            end
        end
    endfunction
    function integer lca;
        input integer s;
        input integer t;
        integer i;
        begin
            lca = 1;
            for (i = 1; i <= H; i = i + 1)
                if (digit(s, i) != digit(t, i)) lca = i;
        end
    endfunction

    localparam N = n_leaves(H);
    localparam U0 = w_of(1) * p_of(1);
    localparam NP = N * U0;
    localparam ADDR_W = addr_bits(H);
    localparam FW = 2 + ADDR_W + PAYLOAD_W;
    localparam DBG_BYTES = dbg_bytes(H);

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
        .cnt_up(cnt_up), .cnt_down(cnt_down), .cnt_drop(cnt_drop), .dbg(dbg)
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
                    inj_flit[q*FW +: FW] = make_flit(1'b1, packed_addr(t), s);
                end
                if (tk >= 4 * H + 1 && tk < 4 * H + 1 + DATA_LEN && satisfied[s]) begin
                    inj_valid[q] = 1'b1;
                    inj_flit[q*FW +: FW] = make_flit(1'b0, packed_addr(t), s * DATA_LEN + tk - (4 * H + 1));
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
                        check(tk == 1 + 2 * lca(s, t) - 1, "header tick 2L (tick, L)", tk, lca(s, t));
                        check(rx_port[s] == -1, "one header per source", s, rx_port[s]);
                        rx_port[s] = q;
                        deliveries = deliveries + 1;
                        ej_ack[q] = 1'b1;
                    end else begin
                        s = f[PAYLOAD_W-1:0] / DATA_LEN;
                        check(s < N && rx_port[s] == q, "data at the header's port (src, port)", s, q);
                        check(f[PAYLOAD_W-1:0] == s * DATA_LEN + rx_count[s], "data in order", s, rx_count[s]);
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
