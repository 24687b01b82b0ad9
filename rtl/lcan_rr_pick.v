// lcan_rr_pick: cyclic priority select. gnt is one-hot: the first set bit of req at or after index
// start, wrapping around to index 0 (spec 6, "scanning start, start+1, .., P-1, 0, .., start-1");
// gnt is 0 when req is 0. Purely combinational: a thermometer mask from start and two
// lowest-set-bit isolations (x & -x).
`default_nettype none

module lcan_rr_pick #(
    // number of requesters
    parameter WIDTH = 4,
    // width of the start index (at least 1)
    parameter SW = 2
) (
    input  wire [WIDTH-1:0] req,
    input  wire [SW-1:0]    start,
    output wire [WIDTH-1:0] gnt
);
    // ge_mask[b] = (b >= start)
    localparam [WIDTH-1:0] ONE = 1;
    wire [WIDTH-1:0] ones = {WIDTH{1'b1}};
    wire [WIDTH-1:0] ge_mask = ones << start;
    wire [WIDTH-1:0] req_hi = req & ge_mask;
    wire [WIDTH-1:0] first_hi = req_hi & (~req_hi + ONE);
    wire [WIDTH-1:0] first_all = req & (~req + ONE);

    assign gnt = (|req_hi) ? first_hi : first_all;
endmodule

`resetall
