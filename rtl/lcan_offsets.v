// lcan_offsets: the allocator's three rotations of spec section 5 and, with UP_CHOICE = 1 (uniform),
// the upper permutation sigma, taken from an LFSR state. Purely combinational: rtl/lcan_offsets.vh
// (the one description of them, which lcan_switch includes in its register block) on the input
// state. Results are SW bits wide (each is < P <= 2^SW <= 128); sigma is
// given as a one-hot matrix, up_perm[q*U + u] = (sigma[q] == u) (identity when UP_CHOICE = 0 or
// U <= 1). The cell tests (tb/cells/tb_lcan_offsets.v, tb_lcan_sigma.v) and the allocator's
// proofs use this cell.
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
    parameter K_DN = 0,
    // 1: also compute sigma (spec 5, UP_CHOICE uniform); 0: up_perm is the identity
    parameter UP_CHOICE = 0
) (
    input  wire [31:0]   state,
    output wire [SW-1:0] r_in,
    output wire [SW-1:0] r_up,
    output wire [SW-1:0] r_dn,
    // sigma as a one-hot matrix: up_perm[q*U + u] = (sigma[q] == u); 1 bit (1) when U = 0
    output wire [((U>0)?U*U:1)-1:0] up_perm
);

    localparam OF_P = P;
    localparam OF_U = U;
    localparam OF_PDN = PDN;
    localparam OF_SW = SW;
    localparam OF_K_IN = K_IN;
    localparam OF_K_UP = K_UP;
    localparam OF_K_DN = K_DN;
    localparam OF_SIGMA = (UP_CHOICE != 0 && U > 1) ? 1 : 0;
    localparam OF_UX = (U > 0) ? U : 1;
    localparam OF_PERM_W = (U > 0) ? U * U : 1;

    wire [31:0]          of_state = state;
    reg  [SW-1:0]        r_in_c, r_up_c, r_dn_c;
    reg  [OF_PERM_W-1:0] perm_c;

    always @* begin : b_offsets
`include "lcan_offsets.vh"
        r_in_c = of_r_in;
        r_up_c = of_r_up;
        r_dn_c = of_r_dn;
        perm_c = of_perm;
    end

    assign r_in = r_in_c;
    assign r_up = r_up_c;
    assign r_dn = r_dn_c;
    assign up_perm = perm_c;
endmodule

`resetall
