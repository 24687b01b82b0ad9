// lcan_prefix_count: exclusive prefix counts with saturation. Count k = min(2^W - 1, number of set
// bits of x[0..k-1]) (count 0 = 0), at cnt[k*W +: W], or with PLANES = 1 by bit plane, bit b of count
// k at cnt[b*N + k] (lcan_alloc reads the planes: a compare of all N counts with one value is then W
// N-bit operations). A Kogge-Stone tree: pc_clog2(N) levels of W-bit saturating adders (for W = 1
// the adders are ORs: a prefix OR, "some bit below k is set"). The adders are written bit plane by
// bit plane - plane b of every count of a level in one N-bit word, a ripple over the W planes - which
// is the same logic as one adder per count and is evaluated by simulators (Verilator) a word at a
// time instead of a count at a time. Used by lcan_alloc for the ranks of requesters and of free
// outputs and by lcan_flood_queue. Purely combinational, depth pc_clog2(N) adders.
`default_nettype none

module lcan_prefix_count #(
    // number of input bits, 1..256
    parameter N = 4,
    // width of a count, 1..9; counts saturate at 2^W - 1
    parameter W = 2,
    // layout of cnt: 0 count by count, 1 bit plane by bit plane
    parameter PLANES = 0
) (
    input  wire [N-1:0]   x,
    output wire [N*W-1:0] cnt
);
    function integer pc_clog2;
        input integer v;
        integer t;
        begin
            pc_clog2 = 0;
            t = 1;
            while (t < v) begin
                t = t * 2;
                pc_clog2 = pc_clog2 + 1;
            end
        end
    endfunction

    localparam L = pc_clog2(N);

    generate
        if (N < 1 || N > 256 || W < 1 || W > 9) begin : g_bad_parameters
`ifdef VERILATOR
            $fatal(1, "lcan_prefix_count: bad parameters: N must be 1..256, W 1..9");
`elsif YOSYS
            lcan_prefix_count_bad_parameter_N_1_to_256_W_1_to_9 u_bad ();
`else
            initial begin
                $display("lcan_prefix_count: bad parameters: N must be 1..256, W 1..9");
                $finish;
            end
`endif
        end
    endgenerate

    genvar s, b, k;
    generate
        // level s: plane b of v = bit b of the saturated counts of x[k-2^s+1 .. k] (inclusive)
        for (s = 0; s <= L; s = s + 1) begin : g_lvl
            wire [W*N-1:0] v;
            if (s == 0) begin : g_leaf
                assign v[0 +: N] = x;
                if (W > 1) begin : g_hi
                    assign v[W*N-1:N] = {((W-1)*N){1'b0}};
                end
            end else begin : g_add
                // count k plus count k - 2^(s-1) (0 below: k keeps its count), plane by plane with
                // the carry rippling up (ci into plane b, co out of it); a carry out of plane W-1
                // saturates every plane
                for (b = 0; b < W; b = b + 1) begin : g_pl
                    wire [N-1:0] x1 = g_lvl[s-1].v[b*N +: N];
                    wire [N-1:0] x2 = g_lvl[s-1].v[b*N +: N] << (1 << (s - 1));
                    wire [N-1:0] ci;
                    if (b == 0) begin : g_c0
                        assign ci = {N{1'b0}};
                    end else begin : g_cb
                        assign ci = g_pl[b-1].co;
                    end
                    wire [N-1:0] co = (x1 & x2) | (ci & (x1 ^ x2));
                    wire [N-1:0] sm = x1 ^ x2 ^ ci;
                end
                for (b = 0; b < W; b = b + 1) begin : g_sat
                    assign v[b*N +: N] = g_pl[b].sm | g_pl[W-1].co;
                end
            end
        end
        // exclusive: the inclusive count of the bit below (the total, count N, is not an output)
        for (b = 0; b < W; b = b + 1) begin : g_out
            wire [N-1:0] pl = g_lvl[L].v[b*N +: N] << 1;
            if (PLANES != 0) begin : g_planes
                assign cnt[b*N +: N] = pl;
            end else begin : g_counts
                for (k = 0; k < N; k = k + 1) begin : g_k
                    assign cnt[k*W + b] = pl[k];
                end
            end
        end
        wire unused_ok = &{1'b0, g_lvl[L].v};
    endgenerate
endmodule

`resetall
