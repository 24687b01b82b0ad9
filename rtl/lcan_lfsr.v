// lcan_lfsr: the per-switch 32-bit Galois LFSR of spec section 5, polynomial
// x^32 + x^22 + x^2 + x + 1, right-shifting step s' = (s >> 1) ^ (s[0] ? 32'h80200003 : 0).
// Timing: one register. On a tick with rst = 1 it loads init = seed ^ salt (or 1 if that is 0; seed
// is the switch's own seed value, built by lcan_network from the network seed's hashes); otherwise
// it loads stepped: the state stepped once when step = 1, held when step = 0. state is the register
// (the value before the tick's step, which is the value the allocator's offsets are taken from).
// init and stepped are combinational; lcan_switch registers the next tick's offsets from
// rst ? init : stepped inside its register block, so that they are ready at the start of the tick
// and no logic outside a register block reads rst (a simulator re-evaluates such logic whenever the
// testbench changes an input). init_next (init stepped once) and state_next2 (the state stepped
// twice), also combinational, are the states one step ahead of what the register loads on a reset
// tick and on a stepping tick: lcan_switch draws sigma from them a tick early, so that sigma's
// logic is not in series with the requests that decide step.
`default_nettype none

module lcan_lfsr (
    input  wire        clk,
    input  wire        rst,
    input  wire [31:0] seed,
    input  wire [31:0] salt,
    input  wire        step,
    output wire [31:0] state,
    output wire [31:0] init,
    output wire [31:0] stepped,
    output wire [31:0] init_next,
    output wire [31:0] state_next2
);
    localparam [31:0] MASK = 32'h80200003;

    // one step of spec 5's LFSR, of a named 32-bit value (a macro, not a function: Verilator
    // gives a function's temporaries per-instance names, and every switch instance then gets its
    // own copy of the switch's code, docs/verification.md 6)
`define LCAN_LFSR_STEP(x) ((x >> 1) ^ ({32{x[0]}} & MASK))

    reg  [31:0] s_q;
    wire [31:0] seeded = seed ^ salt;
    wire [31:0] s_step1 = `LCAN_LFSR_STEP(s_q);

    assign init = (seeded == 32'd0) ? 32'd1 : seeded;
    assign stepped = step ? s_step1 : s_q;
    assign init_next = `LCAN_LFSR_STEP(init);
    assign state_next2 = `LCAN_LFSR_STEP(s_step1);
`undef LCAN_LFSR_STEP

    always @(posedge clk)
        s_q <= rst ? init : stepped;

    assign state = s_q;
endmodule

`resetall
