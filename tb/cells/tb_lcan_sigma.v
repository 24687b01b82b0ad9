// tb_lcan_sigma: the upper permutation sigma of spec 5 (lcan_offsets with UP_CHOICE = 1, output
// up_perm) for U = 1..9 uppers (and U = 12, 17, where the 32-bit stream wraps), against sigma computed here from the spec's rule with integer
// arithmetic (stream z = {s[23:16], s[7:0], s[31:24], s[15:8]} read cyclically from bit 0;
// stage k: n = U - k, w = clog2(n), + 2 when n is not a power of two, j = k + (v mod n), swap).
// States: a few fixed ones (0, all ones, single bits) and random ones. Also checks that up_perm is
// a permutation matrix and, for U = 2, that sigma = [r_up, 1 - r_up]; and that UP_CHOICE = 0
// gives the identity. Prints "sigma: N passed, N failed".
`default_nettype none

module tb_lcan_sigma_shape #(
    parameter U = 3,
    parameter N = 4000,
    parameter SEED = 1
) ();
    localparam P = U + 2;
    localparam SW = (P <= 2) ? 1 : (P <= 4) ? 2 : (P <= 8) ? 3 : (P <= 16) ? 4 : 5;
    localparam KUP = (U <= 1) ? 0 : (U <= 2) ? 1 : (U <= 4) ? 2 : (U <= 8) ? 3 : (U <= 16) ? 4 : 5;
    localparam KIN = SW;

    reg  [31:0]    state;
    wire [SW-1:0]  r_in, r_up, r_dn;
    wire [U*U-1:0] perm;
    wire [SW-1:0]  r_in0, r_up0, r_dn0;
    wire [U*U-1:0] perm0;

    lcan_offsets #(.P(P), .U(U), .PDN(2), .SW(SW), .K_IN(KIN), .K_UP(KUP), .K_DN(1),
                   .UP_CHOICE(1)) dut (
        .state(state), .r_in(r_in), .r_up(r_up), .r_dn(r_dn), .up_perm(perm)
    );
    lcan_offsets #(.P(P), .U(U), .PDN(2), .SW(SW), .K_IN(KIN), .K_UP(KUP), .K_DN(1),
                   .UP_CHOICE(0)) dut0 (
        .state(state), .r_in(r_in0), .r_up(r_up0), .r_dn(r_dn0), .up_perm(perm0)
    );

    integer n_pass = 0;
    integer n_fail = 0;
    integer done = 0;
    integer sig [0:31];
    integer n, k, nn, w, b, v, t, j, tmp, q, u, ok, seed, cnt;
    reg [31:0] z;

    function integer clog2i;
        input integer x;
        integer p2;
        begin
            clog2i = 0;
            p2 = 1;
            while (p2 < x) begin
                p2 = p2 * 2;
                clog2i = clog2i + 1;
            end
        end
    endfunction

    task reference;
        begin
            z = {state[23:16], state[7:0], state[31:24], state[15:8]};
            for (q = 0; q < U; q = q + 1) sig[q] = q;
            b = 0;
            for (k = 0; k < U - 1; k = k + 1) begin
                nn = U - k;
                w = ((1 << clog2i(nn)) == nn) ? clog2i(nn) : clog2i(nn) + 2;
                v = 0;
                for (t = 0; t < w; t = t + 1)
                    if (z[(b + t) % 32]) v = v + (1 << t);
                b = b + w;
                j = k + (v % nn);
                tmp = sig[k];
                sig[k] = sig[j];
                sig[j] = tmp;
            end
        end
    endtask

    initial begin
        seed = SEED;
        for (n = 0; n < N; n = n + 1) begin
            if (n == 0) state = 32'd0;
            else if (n == 1) state = 32'hffffffff;
            else if (n < 34) state = 32'd1 << (n - 2);
            else state = $random(seed);
            #1;
            reference;
            ok = 1;
            for (q = 0; q < U; q = q + 1)
                for (u = 0; u < U; u = u + 1) begin
                    if (perm[q*U + u] !== (sig[q] == u)) ok = 0;
                    if (perm0[q*U + u] !== (q == u)) ok = 0;
                end
            // a permutation matrix: one bit per row and per column
            for (q = 0; q < U; q = q + 1) begin
                cnt = 0;
                for (u = 0; u < U; u = u + 1) cnt = cnt + perm[u*U + q];
                if (cnt != 1) ok = 0;
            end
            if (U == 2 && !(perm[0 + r_up] === 1'b1 && perm[2 + 1 - r_up] === 1'b1)) ok = 0;
            if (r_in !== r_in0 || r_up !== r_up0 || r_dn !== r_dn0) ok = 0;
            if (ok) n_pass = n_pass + 1;
            else begin
                n_fail = n_fail + 1;
                if (n_fail <= 5)
                    $display("sigma: FAIL U=%0d state %h: perm %b, sigma[0..2] = %0d %0d %0d",
                             U, state, perm, sig[0], sig[1], sig[2]);
            end
        end
        done = 1;
    end
endmodule

module tb_lcan_sigma;
    tb_lcan_sigma_shape #(.U(1), .N(200),  .SEED(31)) s1 ();
    tb_lcan_sigma_shape #(.U(2), .N(2000), .SEED(32)) s2 ();
    tb_lcan_sigma_shape #(.U(3), .N(4000), .SEED(33)) s3 ();
    tb_lcan_sigma_shape #(.U(4), .N(4000), .SEED(34)) s4 ();
    tb_lcan_sigma_shape #(.U(5), .N(4000), .SEED(35)) s5 ();
    tb_lcan_sigma_shape #(.U(6), .N(4000), .SEED(36)) s6 ();
    tb_lcan_sigma_shape #(.U(7), .N(4000), .SEED(37)) s7 ();
    tb_lcan_sigma_shape #(.U(8), .N(4000), .SEED(38)) s8 ();
    tb_lcan_sigma_shape #(.U(9), .N(4000), .SEED(39)) s9 ();
    // the stream wraps (more than 32 bits): U = 12 reads 44 bits, U = 17 about 70
    tb_lcan_sigma_shape #(.U(12), .N(1000), .SEED(40)) s12 ();
    tb_lcan_sigma_shape #(.U(17), .N(500),  .SEED(41)) s17 ();

    initial begin
        wait (s1.done && s2.done && s3.done && s4.done && s5.done && s6.done && s7.done &&
              s8.done && s9.done && s12.done && s17.done);
        $display("sigma: %0d passed, %0d failed",
                 s1.n_pass + s2.n_pass + s3.n_pass + s4.n_pass + s5.n_pass + s6.n_pass +
                 s7.n_pass + s8.n_pass + s9.n_pass + s12.n_pass + s17.n_pass,
                 s1.n_fail + s2.n_fail + s3.n_fail + s4.n_fail + s5.n_fail + s6.n_fail +
                 s7.n_fail + s8.n_fail + s9.n_fail + s12.n_fail + s17.n_fail);
        $finish;
    end
endmodule

`resetall
