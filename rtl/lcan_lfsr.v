// lcan_lfsr: the per-switch 32-bit Galois LFSR of spec section 5, polynomial
// x^32 + x^22 + x^2 + x + 1, right-shifting step s' = (s >> 1) ^ (s[0] ? 32'h80200003 : 0).
// Timing: one register. On a tick with rst = 1 it loads init = seed ^ salt (or 1 if that is 0; seed
// is the switch's own seed value, built by lcan_network from the network seed's hashes); otherwise
// it loads stepped: the state stepped once when step = 1, held when step = 0. state is the register
// (the value before the tick's step, which is the value the allocator's offsets are taken from).
// init and stepped are combinational; lcan_switch registers the next tick's offsets from
// rst ? init : stepped inside its register block, so that they are ready at the start of the tick
// and no logic outside a register block reads rst (a simulator re-evaluates such logic whenever the
// testbench changes an input).
`default_nettype none

module lcan_lfsr (
    input  wire        clk,
    input  wire        rst,
    input  wire [31:0] seed,
    input  wire [31:0] salt,
    input  wire        step,
    output wire [31:0] state,
    output wire [31:0] init,
    output wire [31:0] stepped
);
    localparam [31:0] MASK = 32'h80200003;

    reg  [31:0] s_q;
    wire [31:0] seeded = seed ^ salt;

    assign init = (seeded == 32'd0) ? 32'd1 : seeded;
    assign stepped = step ? (s_q >> 1) ^ ({32{s_q[0]}} & MASK) : s_q;

    always @(posedge clk)
        s_q <= rst ? init : stepped;

    assign state = s_q;
endmodule

`resetall
