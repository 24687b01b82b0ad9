// tb_lcan_alloc_eq: lcan_alloc (log depth) against the reference chain (lcan_alloc_chain through
// lcan_alloc_chain_wrap, want/start sets built as lcan_switch built them) on random requests at
// many switch shapes (M, PDN, U), P = 2..32: grants, out_valid and out_src must be equal. Three
// request forms rotate: generic (any requester any class or broadcast set), circuit-like (classes
// only) and packet-like (downers: UP / DOWN / climbing broadcast; uppers and the top: DOWN / ALL);
// avail is dense or sparse, rotations uniform. Under Icarus (make test-rtl-cells) P <= 16, fewer
// cases at large P (Icarus elaborates the large shapes slowly); with ALLOC_EQ_BIG defined three
// P = 32 shapes, 20000 cases each (make test-alloc-big, Verilator). `make prove-alloc` proves
// P <= 8 for all inputs. Shapes with UP_CHOICE = 1 (uniform, spec 6) draw sigma from lcan_offsets
// on a random LFSR state; the chain then scans class UP in sigma order.
// Prints "alloc_eq: N passed, N failed".
`default_nettype none

module tb_lcan_alloc_eq_shape #(
    parameter M = 2,
    parameter PDN = 1,
    parameter U = 2,
    parameter SW = 2,
    parameter N = 1000,
    parameter SEED = 1,
    parameter UP_CHOICE = 0
) ();
    localparam D = M * PDN;
    localparam P = D + U;
    localparam G = M + ((U > 0) ? 1 : 0);

    reg  [P-1:0]    req_valid;
    reg  [P*G-1:0]  req_cls;
    reg  [P*G-1:0]  req_spc;
    reg  [SW-1:0]   r_in, r_up, r_dn;
    reg  [P-1:0]    avail;
    wire [P*P-1:0]  grant_a, grant_b;
    wire [P-1:0]    ov_a, ov_b;
    wire [P*SW-1:0] os_a, os_b;
    reg  [31:0]     state;
    wire [((U>0)?U*U:1)-1:0] up_perm;
    wire [SW-1:0]   o_in, o_up, o_dn;

    function integer eq_clog2;
        input integer v;
        integer t;
        begin
            eq_clog2 = 0;
            t = 1;
            while (t < v) begin
                t = t * 2;
                eq_clog2 = eq_clog2 + 1;
            end
        end
    endfunction

    lcan_offsets #(.P(P), .U(U), .PDN(PDN), .SW(SW), .K_IN(eq_clog2(P)), .K_UP(eq_clog2(U)),
                   .K_DN(eq_clog2(PDN)), .UP_CHOICE(UP_CHOICE)) u_sigma (
        .state(state), .r_in(o_in), .r_up(o_up), .r_dn(o_dn), .up_perm(up_perm)
    );
    lcan_alloc #(.M(M), .PDN(PDN), .U(U), .SW(SW), .UP_CHOICE(UP_CHOICE)) dut (
        .req_cls(req_cls), .req_spc(req_spc), .r_in(r_in), .r_up(r_up), .r_dn(r_dn),
        .avail(avail), .up_perm(up_perm), .grant(grant_a), .out_valid(ov_a), .out_src(os_a)
    );
    lcan_alloc_chain_wrap #(.M(M), .PDN(PDN), .U(U), .SW(SW), .UP_CHOICE(UP_CHOICE)) ref0 (
        .req_valid(req_valid), .req_cls(req_cls), .req_spc(req_spc), .r_in(r_in), .r_up(r_up),
        .r_dn(r_dn), .avail(avail), .up_perm(up_perm), .grant(grant_b), .out_valid(ov_b),
        .out_src(os_b)
    );

    integer n_pass = 0;
    integer n_fail = 0;
    integer done = 0;
    integer n, i, g, kind, form, seed, dense;

    initial begin
        seed = SEED;
        for (n = 0; n < N; n = n + 1) begin
            form = n % 3;
            dense = $unsigned($random(seed)) % 4;
            req_valid = $random(seed);
            req_cls = 0;
            req_spc = 0;
            for (i = 0; i < P; i = i + 1) begin
                kind = $unsigned($random(seed)) % 8;
                g = $unsigned($random(seed)) % G;
                if (form == 0) begin
                    if (kind >= 2 && kind <= 5) req_cls[i*G + g] = 1'b1;
                    else if (kind == 6) req_spc[i*G +: G] = $random(seed);
                    else if (kind == 7) req_spc[i*G + g] = 1'b1;
                end else if (form == 1) begin
                    if (kind >= 2) req_cls[i*G + g] = 1'b1;
                end else begin
                    if (i < D && U > 0) begin
                        if (kind >= 6) req_spc[i*G + M] = 1'b1;
                        else if (kind >= 1) req_cls[i*G + g] = 1'b1;
                    end else begin
                        if (kind >= 6) req_spc[i*G +: G] = $random(seed) & ((1 << M) - 1);
                        else if (kind >= 1) req_cls[i*G + (g % M)] = 1'b1;
                    end
                end
            end
            state = $random(seed);
            r_in = $unsigned($random(seed)) % P;
            r_up = (U > 0) ? $unsigned($random(seed)) % U : 0;
            r_dn = $unsigned($random(seed)) % PDN;
            avail = $random(seed);
            if (dense == 0) avail = avail & $random(seed);
            else if (dense >= 2) avail = avail | $random(seed);
            if (dense == 3) avail = {P{1'b1}};
            #1;
            if (grant_a === grant_b && ov_a === ov_b && os_a === os_b)
                n_pass = n_pass + 1;
            else begin
                n_fail = n_fail + 1;
                if (n_fail <= 3)
                    $display("alloc_eq: FAIL M=%0d PDN=%0d U=%0d UC=%0d case %0d: cls %h spc %h r_in %0d r_up %0d r_dn %0d avail %b perm %b: grant %h, chain %h",
                             M, PDN, U, UP_CHOICE, n, req_cls, req_spc, r_in, r_up, r_dn, avail, up_perm, grant_a, grant_b);
            end
        end
        done = 1;
    end
endmodule

module tb_lcan_alloc_eq;
    // (M, PDN, U, SW): P = M*PDN + U from 2 to 32
    tb_lcan_alloc_eq_shape #(.M(2),  .PDN(1), .U(0),  .SW(1), .N(3000),  .SEED(11)) s0 ();
    tb_lcan_alloc_eq_shape #(.M(2),  .PDN(1), .U(2),  .SW(2), .N(3000), .SEED(12)) s1 ();
    tb_lcan_alloc_eq_shape #(.M(4),  .PDN(1), .U(2),  .SW(3), .N(3000), .SEED(13)) s2 ();
    tb_lcan_alloc_eq_shape #(.M(2),  .PDN(1), .U(4),  .SW(3), .N(3000), .SEED(14)) s3 ();
    tb_lcan_alloc_eq_shape #(.M(4),  .PDN(1), .U(4),  .SW(3), .N(1000), .SEED(15)) s4 ();
    tb_lcan_alloc_eq_shape #(.M(3),  .PDN(2), .U(5),  .SW(4), .N(400) , .SEED(16)) s5 ();
    tb_lcan_alloc_eq_shape #(.M(8),  .PDN(1), .U(8),  .SW(4), .N(150) , .SEED(17)) s6 ();
`ifdef ALLOC_EQ_BIG
    tb_lcan_alloc_eq_shape #(.M(16), .PDN(1), .U(16), .SW(5), .N(20000), .SEED(18)) s7 ();
`else
    tb_lcan_alloc_eq_shape #(.M(8),  .PDN(1), .U(0),  .SW(3), .N(1000), .SEED(18)) s7 ();
`endif
    tb_lcan_alloc_eq_shape #(.M(2),  .PDN(2), .U(2),  .SW(3), .N(3000), .SEED(19)) s8 ();
    tb_lcan_alloc_eq_shape #(.M(4),  .PDN(2), .U(0),  .SW(3), .N(1000), .SEED(20)) s9 ();
    tb_lcan_alloc_eq_shape #(.M(2),  .PDN(4), .U(4),  .SW(4), .N(400) , .SEED(21)) s10 ();
    tb_lcan_alloc_eq_shape #(.M(4),  .PDN(1), .U(0),  .SW(2), .N(3000), .SEED(22)) s11 ();
    tb_lcan_alloc_eq_shape #(.M(2),  .PDN(3), .U(3),  .SW(4), .N(400) , .SEED(23)) s12 ();
`ifdef ALLOC_EQ_BIG
    tb_lcan_alloc_eq_shape #(.M(32), .PDN(1), .U(0),  .SW(5), .N(20000), .SEED(24)) s13 ();
    tb_lcan_alloc_eq_shape #(.M(4),  .PDN(4), .U(16), .SW(5), .N(20000), .SEED(25)) s14 ();
`else
    tb_lcan_alloc_eq_shape #(.M(4),  .PDN(3), .U(4),  .SW(4), .N(150),  .SEED(24)) s13 ();
    tb_lcan_alloc_eq_shape #(.M(2),  .PDN(1), .U(1),  .SW(2), .N(3000), .SEED(25)) s14 ();
`endif

    // UP_CHOICE = 1 (uniform): class UP in sigma order
    tb_lcan_alloc_eq_shape #(.M(2),  .PDN(1), .U(3),  .SW(3), .N(3000), .SEED(41), .UP_CHOICE(1)) u0 ();
    tb_lcan_alloc_eq_shape #(.M(2),  .PDN(1), .U(4),  .SW(3), .N(3000), .SEED(42), .UP_CHOICE(1)) u1 ();
    tb_lcan_alloc_eq_shape #(.M(4),  .PDN(1), .U(4),  .SW(3), .N(1000), .SEED(43), .UP_CHOICE(1)) u2 ();
    tb_lcan_alloc_eq_shape #(.M(3),  .PDN(2), .U(5),  .SW(4), .N(400),  .SEED(44), .UP_CHOICE(1)) u3 ();
    tb_lcan_alloc_eq_shape #(.M(8),  .PDN(1), .U(8),  .SW(4), .N(150),  .SEED(45), .UP_CHOICE(1)) u4 ();
    tb_lcan_alloc_eq_shape #(.M(2),  .PDN(4), .U(4),  .SW(4), .N(400),  .SEED(46), .UP_CHOICE(1)) u5 ();
    tb_lcan_alloc_eq_shape #(.M(2),  .PDN(1), .U(2),  .SW(2), .N(3000), .SEED(47), .UP_CHOICE(1)) u6 ();
    tb_lcan_alloc_eq_shape #(.M(2),  .PDN(1), .U(1),  .SW(2), .N(1000), .SEED(48), .UP_CHOICE(1)) u7 ();
    tb_lcan_alloc_eq_shape #(.M(4),  .PDN(1), .U(9),  .SW(4), .N(300),  .SEED(49), .UP_CHOICE(1)) u8 ();

    initial begin
        wait (s0.done && s1.done && s2.done && s3.done && s4.done && s5.done && s6.done &&
              s7.done && s8.done && s9.done && s10.done && s11.done && s12.done && s13.done &&
              s14.done && u0.done && u1.done && u2.done && u3.done && u4.done && u5.done &&
              u6.done && u7.done && u8.done);
        $display("alloc_eq: %0d passed, %0d failed",
                 s0.n_pass + s1.n_pass + s2.n_pass + s3.n_pass + s4.n_pass + s5.n_pass +
                 s6.n_pass + s7.n_pass + s8.n_pass + s9.n_pass + s10.n_pass + s11.n_pass +
                 s12.n_pass + s13.n_pass + s14.n_pass + u0.n_pass + u1.n_pass + u2.n_pass +
                 u3.n_pass + u4.n_pass + u5.n_pass + u6.n_pass + u7.n_pass + u8.n_pass,
                 s0.n_fail + s1.n_fail + s2.n_fail + s3.n_fail + s4.n_fail + s5.n_fail +
                 s6.n_fail + s7.n_fail + s8.n_fail + s9.n_fail + s10.n_fail + s11.n_fail +
                 s12.n_fail + s13.n_fail + s14.n_fail + u0.n_fail + u1.n_fail + u2.n_fail +
                 u3.n_fail + u4.n_fail + u5.n_fail + u6.n_fail + u7.n_fail + u8.n_fail);
        $finish;
    end
endmodule

`resetall
