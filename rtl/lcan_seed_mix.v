// lcan_seed_mix: the network's three seed hashes of spec section 5, computed once for all switches:
// h1 = mix(seed), h2 = mix(h1), h3 = mix(h2), with mix(x): t = x + (rotl(x,7) ^ rotl(x,19));
// y = t + (rotl(t,13) ^ rotl(t,27)); mix = y ^ (y >> 16) (mod 2^32). lcan_network rotates them by
// each switch's constant amounts (salt bits) and XORs them into the value its LFSR loads on reset.
// Purely combinational; only its values on reset ticks matter.
`default_nettype none

module lcan_seed_mix (
    input  wire [31:0] seed,
    output wire [31:0] h1,
    output wire [31:0] h2,
    output wire [31:0] h3
);
    // rotate left by 0..31 (for r = 0 the right shift is by 32 and gives 0)
    function [31:0] f_rotl;
        input [31:0] x;
        input [4:0] r;
        reg [5:0] back;
        begin
            back = 6'd32 - {1'b0, r};
            f_rotl = (x << r) | (x >> back);
        end
    endfunction

    function [31:0] f_mix;
        input [31:0] x;
        reg [31:0] t;
        reg [31:0] y;
        begin
            t = x + (f_rotl(x, 5'd7) ^ f_rotl(x, 5'd19));
            y = t + (f_rotl(t, 5'd13) ^ f_rotl(t, 5'd27));
            f_mix = y ^ (y >> 16);
        end
    endfunction

    assign h1 = f_mix(seed);
    assign h2 = f_mix(h1);
    assign h3 = f_mix(h2);
endmodule

`resetall
