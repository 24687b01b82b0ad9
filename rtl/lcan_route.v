// lcan_route: the routing decision of spec section 4 for one switch input, as wire selection.
// A flit arriving on a downer (IN_UPPER = 0) of a switch below the top goes UP when its destination
// differs from the switch's label in any digit above the switch's level (one equality compare of
// the packed fields above DIG_OFF + DIG_W); otherwise it goes DOWN(x) with x = dest[DIG_OFF +:
// DIG_W]. Outputs the ONE request of spec 6: want = all uppers with start = D + r_up, or the P_DN
// links to child x with start = x*P_DN + r_dn. A digit x >= M_L (not a valid address) gives an
// empty want and bad = 1. Purely combinational.
`default_nettype none

module lcan_route #(
    // packed address width (spec 2.1)
    parameter ADDR_W = 4,
    // offset O_l and width B_l of this level's digit field
    parameter DIG_OFF = 0,
    parameter DIG_W = 1,
    // children (m_l) and parallel links per child (p_l)
    parameter M_L = 2,
    parameter P_DN = 1,
    // number of uppers (0 at the top level)
    parameter U = 1,
    // width of a local port index
    parameter SW = 2,
    // 1 when this input is an upper (flits arriving from a parent)
    parameter IN_UPPER = 0
) (
    input  wire [ADDR_W-1:0]  dest,
    // the switch label a_h..a_{l+1} as a packed address (fields 1..l ignored); a constant
    input  wire [ADDR_W-1:0]  label,
    input  wire [SW-1:0]      r_up,
    input  wire [SW-1:0]      r_dn,
    output wire               up,
    output wire               bad,
    output wire [M_L*P_DN+U-1:0] want,
    output wire [SW-1:0]      start
);
    localparam D = M_L * P_DN;
    localparam HI = DIG_OFF + DIG_W;
    localparam [SW-1:0] D_IDX = D[SW-1:0];
    localparam [SW-1:0] P_DN_IDX = P_DN[SW-1:0];

    wire [DIG_W-1:0] x = dest[DIG_OFF +: DIG_W];

    generate
        if (U > 0 && IN_UPPER == 0) begin : g_climb
            // going up unless every digit above this level already matches the label
            assign up = (dest[ADDR_W-1:HI] != label[ADDR_W-1:HI]);
        end else begin : g_turn
            assign up = 1'b0;
        end
    endgenerate

    // one-hot child select, decoded from the digit field
    wire [M_L-1:0] child;
    genvar c;
    generate
        for (c = 0; c < M_L; c = c + 1) begin : g_child
            localparam [DIG_W-1:0] C_IDX = c;
            assign child[c] = (x == C_IDX);
            assign want[c*P_DN +: P_DN] = {P_DN{child[c] & ~up}};
        end
        if (U > 0) begin : g_uppers
            assign want[D +: U] = {U{up}};
        end
    endgenerate

    assign bad = ~up & ~(|child);

    wire [SW+DIG_W-1:0] x_ext = {{SW{1'b0}}, x};
    wire [SW-1:0] x_idx = x_ext[SW-1:0];
    assign start = up ? (D_IDX + r_up) : (x_idx * P_DN_IDX + r_dn);

    // only the digit fields at and above this level are read
    wire unused_ok = &{1'b0, dest, label, x_ext};
endmodule

`resetall
