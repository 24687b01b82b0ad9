// lcan_offsets: the allocator's three rotations of spec section 5, taken from the LFSR state
// before the tick's step: r_in = red(s[7:0] & (2^clog2(P)-1), P), r_up = red(s[15:8] &
// (2^clog2(U)-1), U), r_dn = red(s[23:16] & (2^clog2(PDN)-1), PDN), where red(r, n) = r - n if
// r >= n else r. Masking is bit selection; each reduction is one compare and one conditional
// subtraction. Purely combinational. Results are SW bits wide (each is < P <= 2^SW <= 128).
// With UP_CHOICE = 1 (uniform) also the upper permutation sigma of spec 5: Fisher-Yates over the
// stream z = {s[23:16], s[7:0], s[31:24], s[15:8]} read cyclically from bit 0; stage k (n = U - k)
// reads w = clog2(n) (+2 when n is not a power of two) bits at a constant stream offset, reduces
// them mod n by three conditional subtractions (v < 2^w <= 8n) and swaps sigma[k] with
// sigma[k + (v mod n)]: a chain of U-1 index multiplexers. The result is given as a one-hot matrix,
// up_perm[q*U + u] = (sigma[q] == u) (identity when UP_CHOICE = 0 or U <= 1).
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
    function integer of_clog2;
        input integer v;
        integer t;
        begin
            of_clog2 = 0;
            t = 1;
            while (t < v) begin
                t = t * 2;
                of_clog2 = of_clog2 + 1;
            end
        end
    endfunction

    // bits read by Fisher-Yates stage k (n = U - k)
    function integer fy_w;
        input integer n;
        begin
            fy_w = ((1 << of_clog2(n)) == n) ? of_clog2(n) : of_clog2(n) + 2;
        end
    endfunction

    // stream offset of stage k: the bits read by stages 0..k-1, mod 32
    function integer fy_b;
        input integer k;
        integer t;
        begin
            fy_b = 0;
            for (t = 0; t < k; t = t + 1)
                fy_b = fy_b + fy_w(U - t);
            fy_b = fy_b % 32;
        end
    endfunction

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

    genvar k, q, t;
    generate
        if (UP_CHOICE != 0 && U > 1) begin : g_sigma
            // the stream word z of spec 5
            wire [31:0] z = {state[23:16], state[7:0], state[31:24], state[15:8]};
            // sigma after stage k-1, entry q at q*SW (stage 0: the identity)
            for (k = 0; k < U; k = k + 1) begin : g_st
                wire [U*SW-1:0] sig;
                if (k == 0) begin : g_init
                    for (q = 0; q < U; q = q + 1) begin : g_id
                        localparam [SW-1:0] QI = q;
                        assign sig[q*SW +: SW] = QI;
                    end
                end else begin : g_swap
                    localparam N = U - (k - 1);
                    localparam WB = fy_w(N);
                    localparam B = fy_b(k - 1);
                    localparam integer N1I = N;
                    localparam integer N2I = 2 * N;
                    localparam integer N4I = 4 * N;
                    localparam [11:0] N1 = N1I[11:0];
                    localparam [11:0] N2 = N2I[11:0];
                    localparam [11:0] N4 = N4I[11:0];
                    wire [U*SW-1:0] prev = g_st[k-1].sig;
                    // v: WB stream bits from offset B, cyclically; then v mod N (v < 8N)
                    wire [11:0] v;
                    for (t = 0; t < 12; t = t + 1) begin : g_v
                        if (t < WB) begin : g_bit
                            assign v[t] = z[(B + t) % 32];
                        end else begin : g_zero
                            assign v[t] = 1'b0;
                        end
                    end
                    wire [11:0] v1 = (v >= N4) ? v - N4 : v;
                    wire [11:0] v2 = (v1 >= N2) ? v1 - N2 : v1;
                    wire [11:0] rem = (v2 >= N1) ? v2 - N1 : v2;
                    // j = (k-1) + rem: swap entries k-1 and j
                    for (q = 0; q < U; q = q + 1) begin : g_e
                        localparam integer QDI = q - (k - 1);
                        localparam [11:0] QD = QDI[11:0];
                        if (q < k - 1) begin : g_keep
                            assign sig[q*SW +: SW] = prev[q*SW +: SW];
                        end else if (q == k - 1) begin : g_pick
                            // sigma[k-1] := sigma[j]: an AND-OR over the N candidates (rem < N)
                            for (t = 0; t < U; t = t + 1) begin : g_c
                                localparam integer TDI = t - (k - 1);
                                localparam [11:0] TD = TDI[11:0];
                                wire [SW-1:0] term = (t >= k - 1 && rem == TD) ? prev[t*SW +: SW] :
                                                                                {SW{1'b0}};
                                wire [SW-1:0] acc;
                                if (t == 0) begin : g_first
                                    assign acc = term;
                                end else begin : g_next
                                    assign acc = g_c[t-1].acc | term;
                                end
                            end
                            assign sig[q*SW +: SW] = g_c[U-1].acc;
                        end else begin : g_other
                            // sigma[j] := sigma[k-1] when j = q
                            assign sig[q*SW +: SW] = (rem == QD) ? prev[(k-1)*SW +: SW] :
                                                                  prev[q*SW +: SW];
                        end
                    end
                    wire unused_v = &{1'b0, rem};
                end
            end
            for (q = 0; q < U; q = q + 1) begin : g_oh
                for (t = 0; t < U; t = t + 1) begin : g_u
                    localparam [SW-1:0] TI = t;
                    assign up_perm[q*U + t] = (g_st[U-1].sig[q*SW +: SW] == TI);
                end
            end
        end else if (U > 0) begin : g_ident
            for (q = 0; q < U; q = q + 1) begin : g_oh
                for (t = 0; t < U; t = t + 1) begin : g_u
                    assign up_perm[q*U + t] = (q == t);
                end
            end
        end else begin : g_none
            assign up_perm = 1'b1;
        end
    endgenerate
endmodule

`resetall
