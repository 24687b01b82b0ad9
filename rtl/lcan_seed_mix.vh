// lcan_seed_mix.vh: spec section 5's seed mix as Verilog functions, the one place the Verilog
// defines it: mix(x): t = x + (rotl(x,7) ^ rotl(x,19)); y = t + (rotl(t,13) ^ rotl(t,27));
// mix = y ^ (y >> 16) (mod 2^32). `include it inside a module body: lcan_seed_mix builds the hashes
// of the seed input from it, lcan_network (FIXED_SEED = 1) the constant hashes of its SEED
// parameter. Not a compilation unit of its own: rtl/lcan_network.f does not list it.

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
