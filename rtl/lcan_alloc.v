// lcan_alloc: the greedy rotated allocator of spec section 6 in O(log P) depth, computing exactly the
// grants of the spec's sequential loop (and of tb/cells/lcan_alloc_chain.v, its former 2P-stage
// chain, to which it is proven equal by scripts/prove-alloc.sh). The outputs form G groups: group x
// < M is the PDN parallel links to child x (ports x*PDN..), rotated from r_dn; group M (when U > 0)
// is the U uppers (ports D..P-1), rotated from r_up. Requester i presents a class (req_cls, one-hot
// or 0): ONE request for any output of that group (spec 6's class DOWN(x) / UP); or a broadcast set
// (req_spc, any set, only when req_cls is 0): output 0 of each group in the set (link 0 of child x,
// upper 0) — spec 8.3's ALL request, and the climbing broadcast's ONE request for upper 0, which is
// the same thing for a single output. A requester with neither requests nothing (route's `bad`).
// Per group the sequential result is: the class requesters, in rotated order from r_in, take the
// free outputs in rotated order (the j-th gets the j-th); the first broadcast requester b takes
// output 0 iff it is free and the class requester of rank pos(output 0) does not precede b (then the
// class requesters of rank >= pos(output 0) shift to the next free output). So: saturating prefix
// counts (lcan_prefix_count) over the rotated order give each requester its rank and each free
// output its position, with and without output 0; output o goes to the requester whose rank equals
// its position. Rotations need no multiplexer: the sequence 0..P-1, 0..P-1 with requester i active
// in the first half iff i >= r_in is the rotated order (likewise for the outputs of a group).
// Results per output: out_valid/out_src (the input driving output o, for the crossbar) and the same
// as grant[i*P + o]. Purely combinational; depth O(log P).
// UP_CHOICE = 1 (uniform, spec 6): class UP scans the uppers in sigma order, D + sigma[0], ..,
// D + sigma[U-1] (up_perm[q*U + u] = (sigma[q] == u), from lcan_offsets). The upper group is then
// relabelled: virtual upper q is physical upper sigma[q] (free[q] = avail[D + sigma[q]]), scanned
// without rotation (r_up is not used); the broadcasts' output, physical upper 0, sits at the
// virtual position sigma^-1(0) (column 0 of up_perm) instead of position 0, and the per-output
// selections are mapped back (physical upper u takes virtual output q with sigma[q] = u). The
// ranking argument above holds for the broadcast output at any position of the scan.
// UP_CHOICE = 0 (rotate): up_perm is not used; the logic is the rotation-only allocator.
`default_nettype none

module lcan_alloc #(
    // children (m_l) and parallel links per child (p_l): D = M*PDN downers, ports 0..D-1
    parameter M = 2,
    parameter PDN = 1,
    // uppers (ports D..D+U-1; 0 at the top level)
    parameter U = 2,
    // width of a port index: at least ac_clog2(M*PDN+U) and at least 1
    parameter SW = 2,
    // 1: class UP scans the uppers in the order of up_perm (spec 6 uniform); 0: from r_up (rotate)
    parameter UP_CHOICE = 0,
    // P <= PICK_P: a group of one output (a child with one link, PDN = 1) takes the pick form: its
    // winner is the first class requester at or after r_in, one priority chain per value of r_in
    // (a case on r_in) giving the winner's index directly; 0 (default): never (see lcan_switch for
    // where it is used, and the measurements)
    parameter PICK_P = 0,
    // P <= FLAT_P (and P > PICK_P): a group of one output takes the flat form, class and broadcast
    // requesters alike: the winner is the first requester at or after r_in, requester i wins when
    // it requests, the output is free and no requester precedes it (per value of r_in a constant
    // set of predecessors), the winner's index one priority chain per value of r_in; the upper
    // group of UP_CHOICE = 1 takes a flat form as well (two uppers g_flat2, more g_flatu); 0
    // (default): never (see lcan_switch for where it is used, and the measurements)
    parameter FLAT_P = 0,
    // P <= PICK_U: the upper group of UP_CHOICE = 1 with two uppers takes the pick form as well:
    // the first and the second requester from r_in (only downers request an upper) as indices,
    // virtual output 0 taking the first, virtual output 1 the second when virtual output 0 is free,
    // else the first; 0 (default): never
    parameter PICK_U = 0,
    // 1: the flat form's group of one output (g_flat) as a kept unit, lcan_flat_pick: the winner's
    // index, the grants read from it (free, requested and the winner) and the written bit, the OR
    // of the grants (see lcan_switch for where it is used, and the measurements); 0 (default): the
    // grants from the requests and the constant predecessor sets, flattened
    parameter FLAT_KEEP = 0
) (
    // requester i's class: bit i*G + x DOWN(x), bit i*G + M UP (G = M + (U > 0))
    input  wire [(M*PDN+U)*(M+((U>0)?1:0))-1:0] req_cls,
    // requester i's broadcast set: bit i*G + x link 0 of child x, bit i*G + M upper 0
    input  wire [(M*PDN+U)*(M+((U>0)?1:0))-1:0] req_spc,
    // rotations of spec 5: requesters (< P), uppers (< U, or 0), parallel links (< PDN)
    input  wire [SW-1:0]                        r_in,
    input  wire [SW-1:0]                        r_up,
    input  wire [SW-1:0]                        r_dn,
    input  wire [M*PDN+U-1:0]                   avail,
    // sigma of spec 5 as a one-hot matrix, up_perm[q*U + u] = (sigma[q] == u) (UP_CHOICE = 1 only)
    input  wire [((U>0)?U*U:1)-1:0]             up_perm,
    // grant[i*P + o]: output o granted to requester i
    output wire [(M*PDN+U)*(M*PDN+U)-1:0]       grant,
    // per output: granted, and to which requester (0 when not granted)
    output wire [M*PDN+U-1:0]                   out_valid,
    output wire [(M*PDN+U)*SW-1:0]              out_src,
    // per output: the granted requester's index when out_valid (out_src), any value otherwise (the
    // crossbar's select: a pick group's winner index without the gating to 0)
    output wire [(M*PDN+U)*SW-1:0]              out_idx,
    // per requester: granted some output (the OR of its grant row)
    output wire [M*PDN+U-1:0]                   req_gnt
);
    function integer ac_clog2;
        input integer v;
        integer t;
        begin
            ac_clog2 = 0;
            t = 1;
            while (t < v) begin
                t = t * 2;
                ac_clog2 = ac_clog2 + 1;
            end
        end
    endfunction

    // the constant set of requester indices with bit b set (for the one-hot to binary encoder)
    function [M*PDN+U-1:0] idx_bit;
        input integer b;
        integer n;
        begin
            for (n = 0; n < M*PDN+U; n = n + 1)
                idx_bit[n] = ((n >> b) % 2) == 1;
        end
    endfunction

    localparam D = M * PDN;
    localparam P = D + U;
    localparam G = M + ((U > 0) ? 1 : 0);

    generate
        if (M < 1 || PDN < 1 || U < 0 || P < 2 || P > 128 || SW < 1 || SW > 7 || (1 << SW) < P)
        begin : g_bad_parameters
`ifdef VERILATOR
            $fatal(1, "lcan_alloc: bad parameters: need M >= 1, PDN >= 1, U >= 0, 2 <= P <= 128, 2^SW >= P");
`elsif YOSYS
            lcan_alloc_bad_parameter_need_2_le_P_le_128_and_2_pow_SW_ge_P u_bad ();
`else
            initial begin
                $display("lcan_alloc: bad parameters: need M >= 1, PDN >= 1, U >= 0, 2 <= P <= 128, 2^SW >= P");
                $finish;
            end
`endif
        end
    endgenerate

    // ge_in[i] = (i >= r_in): requester i comes in the first half of the rotated order
    wire [P-1:0] ones = {P{1'b1}};
    wire [P-1:0] ge_in = ones << r_in;

    // r_up is not used at the top level (U = 0) or with UP_CHOICE = 1; up_perm only with UP_CHOICE = 1
    localparam PERM = (UP_CHOICE != 0) && (U > 0);
    wire unused_r_up = &{1'b0, r_up, up_perm};

    // sel[o*P + i]: output o goes to requester i (one-hot or 0 per output); idx: per output the
    // winner's index (any value without a winner); gr: per group, the requesters it grants
    wire [P*P-1:0]  sel;
    wire [P*SW-1:0] idx;
    wire [G*P-1:0]  gr;
    // ovw: per output "granted" (the OR of sel, or in the flat forms written from the requests)
    wire [P-1:0]    ovw;


    // an integer as a port index (constant functions' results, loop indices)
    function [SW-1:0] to_idx;
        input integer n;
        integer tb;
        begin
            for (tb = 0; tb < SW; tb = tb + 1)
                to_idx[tb] = ((n >> tb) % 2) == 1;
        end
    endfunction

    // output o is in a group of the flat forms (FLAT_P: g_flat, g_flat2, g_flatu below)
    function flat_out;
        input integer o;
        integer fg, fk;
        begin
            fg = (o < D) ? o / PDN : M;
            fk = (fg < M) ? PDN : U;
            flat_out = (P > PICK_P) && (P <= FLAT_P) &&
                       ((!(PERM && fg == M) && fk == 1) || ((PERM && fg == M) && fk >= 2));
        end
    endfunction

    // the pick form's scan over requesters 0 .. n - 1: the first bit of q at or after rin (mod n),
    // one priority chain per value of rin, the last of the scan taken without a test (when q has
    // no bit below n the result is any index below n)
    function [SW-1:0] pick_first;
        input [P-1:0]  q;
        input [SW-1:0] rin;
        input integer  n;
        integer rr, j;
        begin
            pick_first = {SW{1'b0}};
            for (rr = 0; rr < P; rr = rr + 1)
                if (rr < n && rin == to_idx(rr)) begin
                    pick_first = to_idx((rr + n - 1) % n);
                    for (j = P - 2; j >= 0; j = j - 1)
                        if (j <= n - 2 && q[(rr + j) % n])
                            pick_first = to_idx((rr + j) % n);
                end
        end
    endfunction

    genvar g, k, i, b;
    generate
        for (g = 0; g < G; g = g + 1) begin : g_grp
            // group geometry: K outputs from port BASE, rotation r; counts of W bits saturate at
            // 2^W - 1 >= K, above every position of a free output
            localparam K = (g < M) ? PDN : U;
            localparam BASE = (g < M) ? g * PDN : D;
            localparam W = ac_clog2(K + 1);
            localparam [K-1:0] OUT0 = 1;
            // the upper group relabelled by sigma (UP_CHOICE = 1): virtual outputs, no rotation
            localparam VIRT = PERM && (g == M);
            wire [SW-1:0] r = (g < M) ? r_dn : (VIRT ? {SW{1'b0}} : r_up);

            // requesters of this group, in the doubled sequence (first half: i >= r_in)
            wire [P-1:0] cls;
            wire [P-1:0] spc;
            for (i = 0; i < P; i = i + 1) begin : g_in
                assign cls[i] = req_cls[i*G + g];
                assign spc[i] = req_spc[i*G + g];
            end
            // prefix counts by bit plane (lcan_prefix_count's PLANES = 1): plane b of every count in one word
            wire [W*2*P-1:0] rank_2;
            wire [2*P-1:0]   spc_2;
            lcan_prefix_count #(.N(2 * P), .W(W), .PLANES(1)) u_rank (
                .x  ({cls & ~ge_in, cls & ge_in}),
                .cnt(rank_2)
            );
            lcan_prefix_count #(.N(2 * P), .W(1), .PLANES(1)) u_spc (
                .x  ({spc & ~ge_in, spc & ge_in}),
                .cnt(spc_2)
            );
            // rank (plane b: rank_b): class requesters before i in rotated order; sb[i]: a broadcast
            // before i (the first half's count where i >= r_in, else the second half's)
            wire [W*P-1:0] rank;
            for (b = 0; b < W; b = b + 1) begin : g_rank
                assign rank[b*P +: P] = (rank_2[b*2*P +: P] & ge_in) | (rank_2[b*2*P + P +: P] & ~ge_in);
            end
            wire [P-1:0] sb = (spc_2[0 +: P] & ge_in) | (spc_2[P +: P] & ~ge_in);
            wire [P-1:0] first = spc & ~sb;

            // free outputs of the group in rotated order from r: position with and without output 0
            // (b0, the broadcasts' output: output 0, or virtual position sigma^-1(0))
            wire [K-1:0]     free;
            wire [K-1:0]     b0;
            if (VIRT) begin : g_virt
                for (k = 0; k < K; k = k + 1) begin : g_v
                    assign free[k] = |(up_perm[k*U +: U] & avail[BASE +: K]);
                    assign b0[k] = up_perm[k*U];
                end
            end else begin : g_phys
                assign free = avail[BASE +: K];
                assign b0 = OUT0;
            end
            wire [K-1:0]     ge_r = {K{1'b1}} << r;
            wire [K-1:0]     free_x = free & ~b0;
            wire [W*2*K-1:0] pos_2;
            wire [W*2*K-1:0] posx_2;
            lcan_prefix_count #(.N(2 * K), .W(W), .PLANES(1)) u_pos (
                .x  ({free & ~ge_r, free & ge_r}),
                .cnt(pos_2)
            );
            lcan_prefix_count #(.N(2 * K), .W(W), .PLANES(1)) u_posx (
                .x  ({free_x & ~ge_r, free_x & ge_r}),
                .cnt(posx_2)
            );
            // positions by plane: pos (plane b: pos_b), posx without output 0
            wire [W*K-1:0] pos;
            wire [W*K-1:0] posx;
            for (b = 0; b < W; b = b + 1) begin : g_pos
                assign pos[b*K +: K]  = (pos_2[b*2*K +: K] & ge_r) | (pos_2[b*2*K + K +: K] & ~ge_r);
                assign posx[b*K +: K] = (posx_2[b*2*K +: K] & ge_r) | (posx_2[b*2*K + K +: K] & ~ge_r);
            end

            // m[k*P + i]: requester i is the class requester whose rank is output k's position
            // (mx: the position counted without output 0); per output a compare of all P ranks,
            // plane by plane
            wire [K*P-1:0] m;
            wire [K*P-1:0] mx;
            for (k = 0; k < K; k = k + 1) begin : g_out
                wire [W*P-1:0] ne;
                wire [W*P-1:0] nex;
                for (b = 0; b < W; b = b + 1) begin : g_b
                    assign ne[b*P +: P]  = rank[b*P +: P] ^ {P{pos[b*K + k]}};
                    assign nex[b*P +: P] = rank[b*P +: P] ^ {P{posx[b*K + k]}};
                end
                wire [P-1:0] eq;
                wire [P-1:0] eqx;
                if (W == 1) begin : g_w1
                    assign eq = ~ne;
                    assign eqx = ~nex;
                end else begin : g_wn
                    // OR of the W planes: a requester whose rank differs in some bit
                    reg [P-1:0] any, anyx;
                    integer     pb;
                    always @* begin
                        any = {P{1'b0}};
                        anyx = {P{1'b0}};
                        for (pb = 0; pb < W; pb = pb + 1) begin
                            any = any | ne[pb*P +: P];
                            anyx = anyx | nex[pb*P +: P];
                        end
                    end
                    assign eq = ~any;
                    assign eqx = ~anyx;
                end
                assign m[k*P +: P]  = cls & eq;
                assign mx[k*P +: P] = cls & eqx;
            end

            if (!VIRT && K == 1 && P > PICK_P && P <= FLAT_P && FLAT_KEEP == 0) begin : g_flat
            // a single output goes to the first requester in rotated order, whatever its kind: a
            // class requester takes it when no requester precedes it, and so does the first
            // broadcast (spec 6's loop; the ranks of g_fixed reduce to this for K = 1); an r_in >= P
            // (never presented: spec 5's offsets are reduced) acts as 0, as ge_in does in the rank form
            wire [P-1:0]  req = cls | spc;
            wire [SW-1:0] r_f = ge_in[P-1] ? r_in : {SW{1'b0}};
            // the winner's index: the pick form's scan
            wire [SW-1:0] w = pick_first(req, r_f, P);
            reg  [P-1:0]  pre;
            integer       rr, j, ii;
            always @* begin
                pre = {P{1'b0}};
                for (rr = 0; rr < P; rr = rr + 1)
                    if (r_f == to_idx(rr))
                        for (ii = 0; ii < P; ii = ii + 1)
                            for (j = 0; j < P; j = j + 1)
                                if ((j + P - rr) % P < (ii + P - rr) % P)
                                    pre[ii] = pre[ii] | req[j];
            end
            assign sel[BASE*P +: P] = free[0] ? (req & ~pre) : {P{1'b0}};
            assign ovw[BASE] = free[0] & (|req);
            assign idx[BASE*SW +: SW] = w;
            assign gr[g*P +: P] = sel[BASE*P +: P];
            // (no ranks, positions or first broadcast here)
            wire unused_flat = &{1'b0, m, mx, first, b0, free_x};
            end else if (!VIRT && K == 1 && P > PICK_P && P <= FLAT_P) begin : g_flatk
            // g_flat with FLAT_KEEP: the winner's index (the same scan), its grants (free, requested
            // and the winner: w is the first requester whenever one requests) and the written bit
            // (the OR of the grants) as a kept unit, lcan_flat_pick
            wire [P-1:0]  req = cls | spc;
            wire [SW-1:0] r_f = ge_in[P-1] ? r_in : {SW{1'b0}};
            wire [SW-1:0] w;
            wire [P-1:0]  gw;
            wire          ww;
            lcan_flat_pick #(
                .N (P),
                .SW(SW)
            ) u_pick (
                .req (req),
                .rot (r_f),
                .free(free[0]),
                .w   (w),
                .g   (gw),
                .wr  (ww)
            );
            assign sel[BASE*P +: P] = gw;
            assign ovw[BASE] = ww;
            assign idx[BASE*SW +: SW] = w;
            assign gr[g*P +: P] = gw;
            wire unused_flatk = &{1'b0, m, mx, first, b0, free_x};
            end else if (!VIRT) begin : g_fixed
            // m0: the class taker of output 0 (the requester whose rank is its position); in the pick
            // form the first class requester from r_in, w its index (a one-output group)
            wire [P-1:0]  m0;
            wire          bc_won;
            if (K == 1 && P <= PICK_P) begin : g_pick
                // one priority chain per rotation value rr: r_in = rr scans rr, rr + 1, .. (mod P),
                // the last of the scan taken without a test (w is any value without a requester).
                // Measured (iCE40, sw-2-2-w8-packet-noobs-d1-pinned-uni-held): the chains in a case
                // on r_in give yosys/ABC a smaller allocator than the prefix-count ranks of a group
                // of one output compared with its position and encoded from one-hot
                wire [SW-1:0] w = pick_first(cls, r_in, P);
                assign m0 = (|cls) ? ({{(P-1){1'b0}}, 1'b1} << w) : {P{1'b0}};
                // the winner: the first broadcast (only when one takes output 0), else w
                wire [SW-1:0] first_idx;
                for (b = 0; b < SW; b = b + 1) begin : g_fenc
                    assign first_idx[b] = |(first & idx_bit(b));
                end
                assign idx[BASE*SW +: SW] = bc_won ? first_idx : w;
                // (the ranks are not compared here)
                wire unused_pick = &{1'b0, m};
            end else begin : g_rank0
                assign m0 = m[0 +: P];
                for (k = 0; k < K; k = k + 1) begin : g_ienc
                    for (b = 0; b < SW; b = b + 1) begin : g_b
                        assign idx[(BASE+k)*SW + b] = |(sel[(BASE+k)*P +: P] & idx_bit(b));
                    end
                end
            end
            // the first broadcast wins output 0 iff it is free and its class taker does not
            // come before that broadcast
            assign bc_won = free[0] & (|spc) & ~(|(m0 & ~sb));

            for (k = 0; k < K; k = k + 1) begin : g_sel
                if (k == 0) begin : g_zero
                    assign sel[BASE*P +: P] = bc_won ? first : (free[0] ? m0 : {P{1'b0}});
                end else begin : g_other
                    assign sel[(BASE+k)*P +: P] = ~free[k] ? {P{1'b0}} :
                                                  bc_won ? mx[k*P +: P] : m[k*P +: P];
                end
            end
            // (out_valid is the OR of sel for this group: ovw is not used)
            assign ovw[BASE +: K] = {K{1'b0}};
            // the requesters this group grants: the OR of its outputs' selections
            reg [P-1:0] gr_or;
            integer     ko;
            always @* begin
                gr_or = {P{1'b0}};
                for (ko = 0; ko < K; ko = ko + 1)
                    gr_or = gr_or | sel[(BASE+ko)*P +: P];
            end
            assign gr[g*P +: P] = gr_or;
            // output 0 is never matched against the count without itself
            wire unused_ok = &{1'b0, mx[0 +: P], b0};
            end else if (VIRT && K == 2 && P > PICK_P && P <= FLAT_P) begin : g_flat2
            // two uppers in sigma order (up_perm[0]: upper 0 first), broadcasts on physical upper 0:
            // spec 6's loop per r_in in physical outputs, one branch per value of up_perm[0] (one
            // branch for both: 217-224 against 210 LUT, 98-107 MHz, docs/synthesis.md 25)
            reg [P-1:0] s0, s1;
            reg         t0, t1;
            integer     rr, j;
            always @* begin
                s0 = {P{1'b0}};
                s1 = {P{1'b0}};
                t0 = 1'b0;
                t1 = 1'b0;
                for (rr = 0; rr < P; rr = rr + 1)
                    if (r_in == to_idx(rr) || (rr == 0 && !ge_in[P-1])) begin
                        t0 = ~avail[BASE];
                        t1 = ~avail[BASE + 1];
                        for (j = 0; j < P; j = j + 1) begin
                            if (cls[(rr + j) % P]) begin
                                if (up_perm[0]) begin
                                    if (!t0) begin
                                        s0[(rr + j) % P] = 1'b1;
                                        t0 = 1'b1;
                                    end else if (!t1) begin
                                        s1[(rr + j) % P] = 1'b1;
                                        t1 = 1'b1;
                                    end
                                end else begin
                                    if (!t1) begin
                                        s1[(rr + j) % P] = 1'b1;
                                        t1 = 1'b1;
                                    end else if (!t0) begin
                                        s0[(rr + j) % P] = 1'b1;
                                        t0 = 1'b1;
                                    end
                                end
                            end else if (spc[(rr + j) % P] && !t0) begin
                                s0[(rr + j) % P] = 1'b1;
                                t0 = 1'b1;
                            end
                        end
                    end
            end
            assign sel[BASE*P +: P] = s0;
            assign sel[(BASE+1)*P +: P] = s1;
            assign ovw[BASE +: 2] = {|s1, |s0};
            for (k = 0; k < K; k = k + 1) begin : g_ienc
                for (b = 0; b < SW; b = b + 1) begin : g_b
                    assign idx[(BASE+k)*SW + b] = |(sel[(BASE+k)*P +: P] & idx_bit(b));
                end
            end
            assign gr[g*P +: P] = s0 | s1;
            wire unused_flat2 = &{1'b0, m, mx, first, b0, free, free_x, up_perm};
            end else if (VIRT && K > 2 && P > PICK_P && P <= FLAT_P) begin : g_flatu
            // more than two uppers in sigma order: g_perm's selections for every up_perm
            // (permutation or not), written as tables of the registers' part (free, b0 and their
            // positions, up_perm: what a physical upper is for a class requester of rank c) and
            // the requests' part per value of r_in. Only the D downers request an upper (spec 4:
            // class UP; 8.3: a climbing broadcast; the upper inputs' requests here are 0), met from
            // r_in in the order of a scan over 0 .. D - 1 from r_in when r_in < D, else from 0.
            // Requester i of class rank c takes virtual output k iff k is free and k is the c-th
            // free output (tq), or, when the first broadcast wins, the c-th free output not
            // counting the b0 ones (tx); the first broadcast wins iff some b0 output is free and no
            // b0 output's position is below the number of class requesters before it (bm, ln).
            // Each of out_valid, the crossbar index and the grants is the OR over ranks of a table
            // entry and the requests' part, both values of "the first broadcast wins" computed and
            // that bit selecting last (the late requests then meet the tables in a flat AND-OR).
            localparam NR = D;
            // registers' part: tq[c*K + k] (tx[c*K + k]), virtual output k is free (and not a b0
            // output) and has c free (free, non-b0) outputs before it (counted flat, not by
            // lcan_prefix_count: a function of K bits each)
            reg [NR*K-1:0] tq, tx;
            reg [NR:0]     bm;
            // hq / hx: one-hot counts (bit n: n outputs so far), shifted per free output (logic,
            // not adders: yosys would map an integer sum to a carry chain, out of ABC's reach)
            reg [K:0]      hq, hx;
            integer        kk, cc;
            always @* begin
                tq = {(NR*K){1'b0}};
                tx = {(NR*K){1'b0}};
                bm = {(NR+1){1'b0}};
                hq = {{K{1'b0}}, 1'b1};
                hx = {{K{1'b0}}, 1'b1};
                for (kk = 0; kk < K; kk = kk + 1) begin
                    for (cc = 0; cc < NR; cc = cc + 1)
                        if (cc <= K) begin
                            tq[cc*K + kk] = free[kk] & hq[cc];
                            tx[cc*K + kk] = free[kk] & ~b0[kk] & hx[cc];
                        end
                    // bm[n]: some b0 output's position is below n
                    for (cc = 1; cc <= NR; cc = cc + 1)
                        bm[cc] = bm[cc] | (b0[kk] & ~(|(hq >> cc)));
                    if (free[kk])
                        hq = {hq[K-1:0], 1'b0};
                    if (free[kk] && !b0[kk])
                        hx = {hx[K-1:0], 1'b0};
                end
            end
            // physical upper u: its virtual outputs' tables (g_perm's g_back in front of the
            // requests); gq / gx: some virtual output for rank c (g_perm's gr, the OR of vsel)
            reg [NR*K-1:0] tqp, txp;
            reg [NR-1:0]   gq, gx;
            reg [K-1:0]    bp;
            integer        uu, qq, c2;
            always @* begin
                tqp = {(NR*K){1'b0}};
                txp = {(NR*K){1'b0}};
                gq = {NR{1'b0}};
                gx = {NR{1'b0}};
                bp = {K{1'b0}};
                for (uu = 0; uu < K; uu = uu + 1)
                    for (qq = 0; qq < K; qq = qq + 1) begin
                        for (c2 = 0; c2 < NR; c2 = c2 + 1) begin
                            tqp[c2*K + uu] = tqp[c2*K + uu] | (up_perm[qq*U + uu] & tq[c2*K + qq]);
                            txp[c2*K + uu] = txp[c2*K + uu] | (up_perm[qq*U + uu] & tx[c2*K + qq]);
                        end
                        bp[uu] = bp[uu] | (up_perm[qq*U + uu] & b0[qq] & free[qq]);
                    end
                for (c2 = 0; c2 < NR; c2 = c2 + 1)
                    for (qq = 0; qq < K; qq = qq + 1) begin
                        gq[c2] = gq[c2] | tq[c2*K + qq];
                        gx[c2] = gx[c2] | tx[c2*K + qq];
                    end
            end
            wire any_b0 = |(free & b0);
            // the requests' part: rk[i*NR + c], downer i is a class requester of rank c; fb[i],
            // downer i is the first broadcast; won, it wins (before any_b0). Per value of r_in the
            // requesters before i are a constant set: each term a count of those bits
            reg [NR-1:0] rsel;
            integer      rs;
            always @* begin
                for (rs = 0; rs < NR; rs = rs + 1)
                    rsel[rs] = (r_in == to_idx(rs)) || (rs == 0 && r_in >= to_idx(NR));
            end
            // (each value of r_in computed on its own and selected by an AND-OR with the decoded
            // r_in, not a chain of multiplexers.) rk[i*NR + c]: downer i is a class requester of rank
            // c; fb: the first broadcast (g_perm's first); ln[n]: a class requester with no
            // broadcast before it has at least n - 1 class requesters before it (at least n class
            // requesters come before the first broadcast): the first broadcast loses iff some ln[n]
            // meets bm[n] (g_perm's acc & ~sb, for ranks below NR)
            reg [NR*NR-1:0] rk;
            reg [NR-1:0]    fb;
            reg [NR:0]      ln;
            reg [NR*NR-1:0] rk_r;
            reg [NR-1:0]    fb_r;
            reg [NR:0]      ln_r;
            reg [NR:0]      hc;
            reg             sbf;
            integer         rr, j, c4;
            always @* begin
                rk = {(NR*NR){1'b0}};
                fb = {NR{1'b0}};
                ln = {(NR+1){1'b0}};
                for (rr = 0; rr < NR; rr = rr + 1) begin
                    // hc: the class requesters met so far (one-hot count); sbf: a broadcast met
                    rk_r = {(NR*NR){1'b0}};
                    fb_r = {NR{1'b0}};
                    ln_r = {(NR+1){1'b0}};
                    hc = {{NR{1'b0}}, 1'b1};
                    sbf = 1'b0;
                    for (j = 0; j < NR; j = j + 1) begin
                        rk_r[((rr + j) % NR)*NR +: NR] = cls[(rr + j) % NR] ? hc[NR-1:0] : {NR{1'b0}};
                        fb_r[(rr + j) % NR] = spc[(rr + j) % NR] & ~sbf;
                        for (c4 = 0; c4 < NR; c4 = c4 + 1)
                            ln_r[c4 + 1] = ln_r[c4 + 1] | (cls[(rr + j) % NR] & ~sbf & (|(hc >> c4)));
                        sbf = sbf | spc[(rr + j) % NR];
                        if (cls[(rr + j) % NR])
                            hc = {hc[NR-1:0], 1'b0};
                    end
                    if (rsel[rr]) begin
                        rk = rk | rk_r;
                        fb = fb | fb_r;
                        ln = ln | ln_r;
                    end
                end
            end
            wire won = (|spc[NR-1:0]) & ~(|(ln & bm));
            wire bcw = any_b0 & won;
            reg [K*P-1:0] ps;
            reg [P-1:0]   pg;
            integer       u2, i2, c3;
            always @* begin
                ps = {(K*P){1'b0}};
                pg = {P{1'b0}};
                for (i2 = 0; i2 < NR; i2 = i2 + 1) begin
                    for (u2 = 0; u2 < K; u2 = u2 + 1) begin
                        for (c3 = 0; c3 < NR; c3 = c3 + 1)
                            ps[u2*P + i2] = ps[u2*P + i2] |
                                (rk[i2*NR + c3] & (bcw ? txp[c3*K + u2] : tqp[c3*K + u2]));
                        ps[u2*P + i2] = ps[u2*P + i2] | (fb[i2] & bcw & bp[u2]);
                    end
                    for (c3 = 0; c3 < NR; c3 = c3 + 1)
                        pg[i2] = pg[i2] | (rk[i2*NR + c3] & (bcw ? gx[c3] : gq[c3]));
                    pg[i2] = pg[i2] | (fb[i2] & bcw);
                end
            end
            // per rank c: some class requester has it (th) and its index (nth); fidx, the first
            // broadcast's index. Output u is granted, and to which requester, from these and the
            // tables (the OR of ps[u] and its encoding, written without ps)
            reg [NR-1:0]    th;
            reg [NR:0]      hn;
            reg [NR*SW-1:0] nth;
            reg [SW-1:0]    fidx;
            reg [K-1:0]     ov;
            reg [K*SW-1:0]  oi;
            reg             ovx, ovq;
            reg [SW-1:0]    oix, oiq;
            integer         i3, c5, u3;
            always @* begin
                nth = {(NR*SW){1'b0}};
                fidx = {SW{1'b0}};
                // th[c]: more than c class requesters (hn, their one-hot count: no rotation)
                hn = {{NR{1'b0}}, 1'b1};
                for (i3 = 0; i3 < NR; i3 = i3 + 1)
                    if (cls[i3])
                        hn = {hn[NR-1:0], 1'b0};
                for (c5 = 0; c5 < NR; c5 = c5 + 1)
                    th[c5] = |(hn >> (c5 + 1));
                for (i3 = 0; i3 < NR; i3 = i3 + 1) begin
                    for (c5 = 0; c5 < NR; c5 = c5 + 1) begin
                        nth[c5*SW +: SW] = nth[c5*SW +: SW] | (rk[i3*NR + c5] ? to_idx(i3) : {SW{1'b0}});
                    end
                    fidx = fidx | (fb[i3] ? to_idx(i3) : {SW{1'b0}});
                end
                // (both values of bcw computed, bcw selecting last)
                for (u3 = 0; u3 < K; u3 = u3 + 1) begin
                    ovx = bp[u3];
                    ovq = 1'b0;
                    oix = bp[u3] ? fidx : {SW{1'b0}};
                    oiq = {SW{1'b0}};
                    for (c5 = 0; c5 < NR; c5 = c5 + 1) begin
                        ovx = ovx | (th[c5] & txp[c5*K + u3]);
                        ovq = ovq | (th[c5] & tqp[c5*K + u3]);
                        oix = oix | (txp[c5*K + u3] ? nth[c5*SW +: SW] : {SW{1'b0}});
                        oiq = oiq | (tqp[c5*K + u3] ? nth[c5*SW +: SW] : {SW{1'b0}});
                    end
                    ov[u3] = bcw ? ovx : ovq;
                    oi[u3*SW +: SW] = bcw ? oix : oiq;
                end
            end
            for (k = 0; k < K; k = k + 1) begin : g_uo
                assign sel[(BASE+k)*P +: P] = ps[k*P +: P];
                assign ovw[BASE+k] = ov[k];
                assign idx[(BASE+k)*SW +: SW] = oi[k*SW +: SW];
            end
            assign gr[g*P +: P] = pg;
            // (the upper inputs' requests: 0; the rank form's ranks, positions and first broadcast
            // are not read)
            wire unused_flatu = &{1'b0, m, mx, first, pos, posx, cls[P-1:NR], spc[P-1:NR]};
            end else begin : g_perm
                // the same with the broadcast output at virtual position b0 (one-hot): mb0, the
                // class requester whose rank is b0's position
                for (k = 0; k < K; k = k + 1) begin : g_mb0
                    wire [P-1:0] acc;
                    if (k == 0) begin : g_first
                        assign acc = b0[0] ? m[0 +: P] : {P{1'b0}};
                    end else begin : g_next
                        assign acc = g_mb0[k-1].acc | (b0[k] ? m[k*P +: P] : {P{1'b0}});
                    end
                end
                wire bc_won = (|(free & b0)) & (|spc) & ~(|(g_mb0[K-1].acc & ~sb));
                // vsel: virtual output k's requester; physical upper u takes the virtual output
                // q with sigma[q] = u
                // mq: the class takers of the virtual outputs (m; in the pick form of two uppers the
                // first requester from r_in, wa, and the second, wb: virtual output 1 takes wb when
                // virtual output 0 is free, else wa)
                wire [K*P-1:0] mq;
                wire [SW-1:0]  wa, wb;
                if (K == 2 && P <= PICK_U) begin : g_pick2
                    // only downers request an upper (spec 4: class UP; 8.3: a climbing broadcast;
                    // the requests of the upper inputs here are 0): the scan from r_in over
                    // 0 .. P - 1 meets them in the order of a scan over 0 .. D - 1 from r_in when
                    // r_in < D, else from 0
                    wire [SW-1:0] r_d = (r_in < to_idx(D)) ? r_in : {SW{1'b0}};
                    assign wa = pick_first(cls, r_d, D);
                    wire [P-1:0] oa = (|cls) ? ({{(P-1){1'b0}}, 1'b1} << wa) : {P{1'b0}};
                    wire [P-1:0] rest = cls & ~oa;
                    assign wb = pick_first(rest, r_d, D);
                    wire [P-1:0] ob = (|rest) ? ({{(P-1){1'b0}}, 1'b1} << wb) : {P{1'b0}};
                    assign mq = {free[0] ? ob : oa, oa};
                end else begin : g_rankq
                    assign mq = m;
                    assign wa = {SW{1'b0}};
                    assign wb = {SW{1'b0}};
                    // (the indices of the pick form: not read here)
                    wire unused_w = &{1'b0, wa, wb};
                end
                wire [K*P-1:0] vsel;
                for (k = 0; k < K; k = k + 1) begin : g_vsel
                    assign vsel[k*P +: P] = ~free[k] ? {P{1'b0}} :
                                            b0[k] ? (bc_won ? first : mq[k*P +: P]) :
                                            bc_won ? mx[k*P +: P] : mq[k*P +: P];
                end
                for (k = 0; k < K; k = k + 1) begin : g_back
                    for (b = 0; b < K; b = b + 1) begin : g_q
                        wire [P-1:0] term = up_perm[b*U + k] ? vsel[b*P +: P] : {P{1'b0}};
                        wire [P-1:0] acc;
                        if (b == 0) begin : g_first
                            assign acc = term;
                        end else begin : g_next
                            assign acc = g_q[b-1].acc | term;
                        end
                    end
                    assign sel[(BASE+k)*P +: P] = g_q[K-1].acc;
                    assign ovw[BASE+k] = 1'b0;
                    wire [SW-1:0] sel_idx;
                    for (b = 0; b < SW; b = b + 1) begin : g_ienc
                        assign sel_idx[b] = |(sel[(BASE+k)*P +: P] & idx_bit(b));
                    end
                    if (K == 2 && P <= PICK_U) begin : g_pidx
                        // upper k is virtual output 0 (sigma[0] = k) or 1
                        assign idx[(BASE+k)*SW +: SW] = bc_won ? sel_idx :
                                                        (up_perm[k] | ~free[0]) ? wa : wb;
                    end else begin : g_sidx
                        assign idx[(BASE+k)*SW +: SW] = sel_idx;
                    end
                end
                // the requesters this group grants: the OR of the virtual outputs' selections (the
                // same set as the physical ones', without the mapping through up_perm)
                reg [P-1:0] gr_or;
                integer     ko;
                always @* begin
                    gr_or = {P{1'b0}};
                    for (ko = 0; ko < K; ko = ko + 1)
                        gr_or = gr_or | vsel[ko*P +: P];
                end
                assign gr[g*P +: P] = gr_or;
            end
        end

        // per output: the transpose (grant) and the binary index of the winner (out_src)
        for (k = 0; k < P; k = k + 1) begin : g_o
            for (i = 0; i < P; i = i + 1) begin : g_t
                assign grant[i*P + k] = sel[k*P + i];
            end
            if (flat_out(k)) begin : g_ovf
                assign out_valid[k] = ovw[k];
            end else begin : g_ovs
                assign out_valid[k] = |sel[k*P +: P];
                wire unused_ovw = &{1'b0, ovw[k]};
            end
            for (b = 0; b < SW; b = b + 1) begin : g_enc
                assign out_src[k*SW + b] = |(sel[k*P +: P] & idx_bit(b));
            end
        end
        assign out_idx = idx;
        // per requester: granted by some group
        for (i = 0; i < P; i = i + 1) begin : g_gnt
            wire [G-1:0] by;
            for (g = 0; g < G; g = g + 1) begin : g_by
                assign by[g] = gr[g*P + i];
            end
            assign req_gnt[i] = |by;
        end
    endgenerate
endmodule

`resetall
