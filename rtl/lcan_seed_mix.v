// lcan_seed_mix: the network's three seed hashes of spec section 5, computed once for all switches:
// h1 = mix(seed), h2 = mix(h1), h3 = mix(h2), with mix of rtl/lcan_seed_mix.vh. lcan_network rotates
// them by each switch's constant amounts (salt bits) and XORs them into the value its LFSR loads on
// reset.
// Purely combinational; only its values on reset ticks matter.
`default_nettype none

module lcan_seed_mix (
    input  wire [31:0] seed,
    output wire [31:0] h1,
    output wire [31:0] h2,
    output wire [31:0] h3
);
`include "lcan_seed_mix.vh"

    assign h1 = f_mix(seed);
    assign h2 = f_mix(h1);
    assign h3 = f_mix(h2);
endmodule

`resetall
