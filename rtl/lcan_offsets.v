// lcan_offsets: the allocator's three rotations of spec section 5, taken from the LFSR state
// before the tick's step: r_in = red(s[7:0] & (2^clog2(P)-1), P), r_up = red(s[15:8] &
// (2^clog2(U)-1), U), r_dn = red(s[23:16] & (2^clog2(PDN)-1), PDN), where red(r, n) = r - n if
// r >= n else r. Masking is bit selection; each reduction is one compare and one conditional
// subtraction. Purely combinational. Results are SW bits wide (each is < P <= 2^SW <= 128).
`default_nettype none

module lcan_offsets #(
    // number of local ports of the switch (requesters), 2..128
    parameter P = 4,
    // number of uppers (0 at the top level)
    parameter U = 2,
    // parallel links per child (p_l), 1..64
    parameter PDN = 1,
    // width of a local port index (clog2(P)), 1..7
    parameter SW = 2,
    // clog2(P), clog2(U), clog2(PDN): bits of the LFSR fields used (computed by lcan_switch)
    parameter K_IN = 2,
    parameter K_UP = 1,
    parameter K_DN = 0
) (
    input  wire [31:0]   state,
    output wire [SW-1:0] r_in,
    output wire [SW-1:0] r_up,
    output wire [SW-1:0] r_dn
);

    // 2^clog2(n) - 1 as an 8-bit mask (0 when n <= 1)
    localparam [7:0] MASK_IN = (1 << K_IN) - 1;
    localparam [7:0] MASK_UP = (1 << K_UP) - 1;
    localparam [7:0] MASK_DN = (1 << K_DN) - 1;
    localparam [7:0] N_IN = P[7:0];
    localparam [7:0] N_UP = U[7:0];
    localparam [7:0] N_DN = PDN[7:0];

    wire [7:0] m_in = state[7:0] & MASK_IN;
    wire [7:0] m_up = state[15:8] & MASK_UP;
    wire [7:0] m_dn = state[23:16] & MASK_DN;
    wire [7:0] red_in = (m_in >= N_IN) ? m_in - N_IN : m_in;
    wire [7:0] red_up = (m_up >= N_UP) ? m_up - N_UP : m_up;
    wire [7:0] red_dn = (m_dn >= N_DN) ? m_dn - N_DN : m_dn;

    assign r_in = red_in[SW-1:0];
    assign r_up = red_up[SW-1:0];
    assign r_dn = red_dn[SW-1:0];

    // bits [31:24] of the state and the high bits of each reduced byte are not used
    wire unused_ok = &{1'b0, state[31:24], red_in, red_up, red_dn};
endmodule

`resetall
