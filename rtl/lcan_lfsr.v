// lcan_lfsr: the per-switch 32-bit Galois LFSR of spec section 5, polynomial
// x^32 + x^22 + x^2 + x + 1, right-shifting step s' = (s >> 1) ^ (s[0] ? 32'h80200003 : 0).
// Timing: one register. On a tick with rst = 1 it loads seed ^ salt (or 1 if that is 0; seed is the
// switch's own seed value, built by lcan_network from the network seed's hashes); otherwise
// it steps once when step = 1 and holds when step = 0. state is the register (the value before the
// tick's step, which is the value the allocator's offsets are taken from); next is the value the
// register loads at the end of the tick (combinational), from which lcan_switch registers the
// next tick's offsets so that they are ready at the start of the tick.
`default_nettype none

module lcan_lfsr (
    input  wire        clk,
    input  wire        rst,
    input  wire [31:0] seed,
    input  wire [31:0] salt,
    input  wire        step,
    output wire [31:0] state,
    output wire [31:0] next
);
    localparam [31:0] MASK = 32'h80200003;

    reg  [31:0] s_q;
    reg  [31:0] s_d;
    wire [31:0] seeded = seed ^ salt;

    always @* begin
        if (rst)
            s_d = (seeded == 32'd0) ? 32'd1 : seeded;
        else if (step)
            s_d = (s_q >> 1) ^ ({32{s_q[0]}} & MASK);
        else
            s_d = s_q;
    end

    always @(posedge clk)
        s_q <= s_d;

    assign state = s_q;
    assign next = s_d;
endmodule

`resetall
