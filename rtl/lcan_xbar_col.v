// lcan_xbar_col: one output column of a crossbar as a binary multiplexer, flit = flit_in[sel] (K inputs
// of W bits; a select >= K gives 0). Used by lcan_switch_circuit (circuit mode up to 4 ports: the write
// gate outside becomes the flit register's reset) and lcan_switch (packet mode up to 4 ports without
// held links, or with held links and broadcasts, PCOL: docs/synthesis.md 28, 29). Kept as its own
// unit in synthesis (keep_hierarchy):
// inside the flattened switch ABC maps a 4:1 column whose select comes out of the allocator with 3
// LUT4s per bit (it keeps the late select bit one LUT from the output); on its own it uses the 2 of
// docs/synthesis.md 6's bound (t = s1 ? s0 : (s0 ? b : a); s1 ? (t ? d : c) : t) and a 2:1 column 1.
// Measured on the (2,2) circuit switch, pinned, no observation (SYNTH_ECP5=0
// scripts/synth/run-one.sh sw-2-2-w8-circuit-noobs-pinned OUT): 181 LUT (data path 78, the bound),
// 116.6 MHz, against 205 LUT (data path 108), 103.0 MHz for the same multiplexers flattened into
// the switch, and 201 LUT, 114.8 MHz for the AND-OR crossbar before. Timing: combinational.
`default_nettype none

(* keep_hierarchy *)
module lcan_xbar_col #(
    // inputs of the column
    parameter K = 4,
    // select width (clog2 of the switch's ports; >= clog2(K))
    parameter SW = 2,
    // bits per input
    parameter W = 8
) (
    input  wire [SW-1:0]  sel,
    input  wire [K*W-1:0] flit_in,
    output reg  [W-1:0]   flit
);
    integer k;
    always @* begin
        flit = {W{1'b0}};
        for (k = 0; k < K; k = k + 1)
            if (sel == k[SW-1:0])
                flit = flit_in[k*W +: W];
    end
endmodule

`resetall
