// prove_alloc_top: the proof harness of scripts/prove-alloc.sh. Turns unconstrained inputs into
// legal lcan_alloc requests (requester i: a class index code < G, or a broadcast set when is_spc,
// or nothing; rotations reduced into range, as spec 5's offsets are) and drives lcan_alloc and the
// reference chain (lcan_alloc_chain_wrap) with them (an upper requester never requests an upper,
// spec 4 / 8.3); ok = 1 iff grants, out_valid and out_src agree,
// out_idx is the reference's out_src where out_valid and req_gnt the OR of its grant rows.
// yosys `sat -prove ok 1` over all inputs proves the two equal for one (M, PDN, U, UP_CHOICE).
// UP_CHOICE = 1: sigma is any permutation: up_perm is an unconstrained input and ok is required
// only where it is a permutation matrix (one bit per row and per column). Every permutation of
// U <= 9 uppers is drawn by lcan_offsets from some LFSR state (each Fisher-Yates stage reads all
// residues), so this covers what the switch presents; sigma itself is checked against the spec by
// tb/cells/tb_lcan_sigma.v.
`default_nettype none

module prove_alloc_top #(
    parameter M = 2,
    parameter PDN = 1,
    parameter U = 2,
    parameter SW = 2,
    parameter UP_CHOICE = 0,
    parameter PICK_P = 0,
    parameter FLAT_P = 0,
    parameter PICK_U = 0,
    parameter FLAT_KEEP = 0
) (
    input  wire [M*PDN+U-1:0]                   valid,
    input  wire [(M*PDN+U)*8-1:0]               code,
    input  wire [M*PDN+U-1:0]                   is_spc,
    input  wire [(M*PDN+U)*(M+((U>0)?1:0))-1:0] spc_raw,
    input  wire [SW-1:0]                        rin_raw,
    input  wire [SW-1:0]                        rup_raw,
    input  wire [SW-1:0]                        rdn_raw,
    input  wire [M*PDN+U-1:0]                   avail,
    input  wire [((U>0)?U*U:1)-1:0]             up_perm,
    output wire                                 ok
);
    localparam P = M * PDN + U;
    localparam G = M + ((U > 0) ? 1 : 0);

    reg [P*G-1:0] cls;
    reg [P*G-1:0] spc;
    integer i, g;
    always @* begin
        cls = {(P*G){1'b0}};
        spc = {(P*G){1'b0}};
        for (i = 0; i < P; i = i + 1)
            if (is_spc[i])
                spc[i*G +: G] = spc_raw[i*G +: G];
            else
                for (g = 0; g < G; g = g + 1)
                    if (code[i*8 +: 8] == g)
                        cls[i*G + g] = 1'b1;
        // only a downer requests an upper (spec 4: class UP; 8.3: a climbing broadcast)
        if (U > 0)
            for (i = M * PDN; i < P; i = i + 1) begin
                cls[i*G + M] = 1'b0;
                spc[i*G + M] = 1'b0;
            end
    end
    wire [SW-1:0] r_in = (rin_raw < P) ? rin_raw : {SW{1'b0}};
    wire [SW-1:0] r_up = (rup_raw < U) ? rup_raw : {SW{1'b0}};
    wire [SW-1:0] r_dn = (rdn_raw < PDN) ? rdn_raw : {SW{1'b0}};

    // up_perm is a permutation matrix (always true when UP_CHOICE = 0: the allocator ignores it)
    reg perm_ok;
    integer q, u, nr, nc;
    always @* begin
        perm_ok = 1'b1;
        if (UP_CHOICE != 0 && U > 0)
            for (q = 0; q < U; q = q + 1) begin
                nr = 0;
                nc = 0;
                for (u = 0; u < U; u = u + 1) begin
                    nr = nr + up_perm[q*U + u];
                    nc = nc + up_perm[u*U + q];
                end
                if (nr != 1 || nc != 1)
                    perm_ok = 1'b0;
            end
    end

    wire [P*P-1:0]  grant_a, grant_b;
    wire [P-1:0]    ov_a, ov_b;
    wire [P*SW-1:0] os_a, os_b;
    wire [P*SW-1:0] oi_a;
    wire [P-1:0]    rg_a;

    lcan_alloc #(.M(M), .PDN(PDN), .U(U), .SW(SW), .UP_CHOICE(UP_CHOICE), .PICK_P(PICK_P),
        .FLAT_P(FLAT_P), .PICK_U(PICK_U), .FLAT_KEEP(FLAT_KEEP)) u_new (
        .req_cls(cls), .req_spc(spc), .r_in(r_in), .r_up(r_up), .r_dn(r_dn), .avail(avail),
        .up_perm(up_perm),
        .grant(grant_a), .out_valid(ov_a), .out_src(os_a), .out_idx(oi_a), .req_gnt(rg_a)
    );
    lcan_alloc_chain_wrap #(.M(M), .PDN(PDN), .U(U), .SW(SW), .UP_CHOICE(UP_CHOICE)) u_ref (
        .req_valid(valid), .req_cls(cls), .req_spc(spc), .r_in(r_in), .r_up(r_up), .r_dn(r_dn),
        .avail(avail), .up_perm(up_perm), .grant(grant_b), .out_valid(ov_b), .out_src(os_b)
    );

    // out_idx is the winner's index where out_valid (any value elsewhere); req_gnt the OR of each
    // requester's grant row
    reg idx_ok, gnt_ok;
    integer o, r;
    always @* begin
        idx_ok = 1'b1;
        gnt_ok = 1'b1;
        for (o = 0; o < P; o = o + 1)
            if (ov_b[o] && oi_a[o*SW +: SW] != os_b[o*SW +: SW])
                idx_ok = 1'b0;
        for (r = 0; r < P; r = r + 1)
            if (rg_a[r] != (|grant_b[r*P +: P]))
                gnt_ok = 1'b0;
    end

    assign ok = !perm_ok || ((grant_a == grant_b) && (ov_a == ov_b) && (os_a == os_b) && idx_ok &&
                             gnt_ok);
endmodule

`resetall
