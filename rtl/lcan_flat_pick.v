// lcan_flat_pick: one output of lcan_alloc's flat form (g_flat, a group of one output): its winner w,
// the first requester of req at or after rot in the order rot, rot + 1, .., N - 1, 0, .., rot - 1
// (one priority chain per value of rot, the last of the scan taken without a test: w is any index
// below N when req is 0), the grants g[i] = free & req[i] & (w == i), and wr, the output written:
// the OR of the grants. rot must be below N. Kept as its own unit in synthesis (keep_hierarchy):
// ABC maps it alone and the switch reads w (the crossbar column's select), g and wr as nets; the
// form of tb/floor/lcan_switch22_bcast.v's pick unit (tb/floor/README.md, docs/synthesis.md 29).
// Timing: combinational.
`default_nettype none

(* keep_hierarchy *)
module lcan_flat_pick #(
    // requesters
    parameter N = 4,
    // index width (at least 1, 2^SW >= N)
    parameter SW = 2
) (
    input  wire [N-1:0]  req,
    input  wire [SW-1:0] rot,
    input  wire          free,
    output wire [SW-1:0] w,
    output wire [N-1:0]  g,
    output wire          wr
);
    // an integer as an index
    function [SW-1:0] fp_idx;
        input integer n;
        integer tb;
        begin
            for (tb = 0; tb < SW; tb = tb + 1)
                fp_idx[tb] = ((n >> tb) % 2) == 1;
        end
    endfunction

    reg [SW-1:0] pick;
    integer      rr, j;
    always @* begin
        pick = {SW{1'b0}};
        for (rr = 0; rr < N; rr = rr + 1)
            if (rot == fp_idx(rr)) begin
                pick = fp_idx((rr + N - 1) % N);
                for (j = N - 2; j >= 0; j = j - 1)
                    if (req[(rr + j) % N])
                        pick = fp_idx((rr + j) % N);
            end
    end

    assign w = pick;
    assign g = {N{free}} & req & ({{(N-1){1'b0}}, 1'b1} << w);
    assign wr = |g;
endmodule

`resetall
