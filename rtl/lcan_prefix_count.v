// lcan_prefix_count: exclusive prefix counts with saturation. cnt[k*W +: W] = min(2^W - 1, number of
// set bits of x[0..k-1]) (cnt[0] = 0). A Kogge-Stone tree: pc_clog2(N) levels of W-bit saturating
// adders (for W = 1 the adders are ORs: a prefix OR, "some bit below k is set"). Used by
// lcan_alloc for the ranks of requesters and of free outputs. Purely combinational, depth
// pc_clog2(N) adders.
`default_nettype none

module lcan_prefix_count #(
    // number of input bits, 1..256
    parameter N = 4,
    // width of a count, 1..9; counts saturate at 2^W - 1
    parameter W = 2
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
    localparam [W-1:0] ONE = 1;

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

    genvar s, k;
    generate
        // level s: v[k] = saturated count of x[k-2^s+1 .. k] (inclusive)
        for (s = 0; s <= L; s = s + 1) begin : g_lvl
            wire [N*W-1:0] v;
            for (k = 0; k < N; k = k + 1) begin : g_k
                if (s == 0) begin : g_leaf
                    assign v[k*W +: W] = x[k] ? ONE : {W{1'b0}};
                end else if (k >= (1 << (s - 1)) && W == 1) begin : g_or
                    // a 1-bit saturating count is an OR (no carry logic)
                    assign v[k*W +: W] = g_lvl[s-1].v[k*W +: W] |
                                         g_lvl[s-1].v[(k - (1 << (s - 1)))*W +: W];
                end else if (k >= (1 << (s - 1))) begin : g_add
                    wire [W:0] sum = {1'b0, g_lvl[s-1].v[k*W +: W]} +
                                     {1'b0, g_lvl[s-1].v[(k - (1 << (s - 1)))*W +: W]};
                    assign v[k*W +: W] = sum[W] ? {W{1'b1}} : sum[W-1:0];
                end else begin : g_pass
                    assign v[k*W +: W] = g_lvl[s-1].v[k*W +: W];
                end
            end
        end
        // exclusive: the inclusive count of the bit below
        assign cnt[0 +: W] = {W{1'b0}};
        for (k = 1; k < N; k = k + 1) begin : g_out
            assign cnt[k*W +: W] = g_lvl[L].v[(k-1)*W +: W];
        end
        // the inclusive count of the last bit (the total) is not an output
        wire unused_ok = &{1'b0, g_lvl[L].v[(N-1)*W +: W]};
    endgenerate
endmodule

`resetall
