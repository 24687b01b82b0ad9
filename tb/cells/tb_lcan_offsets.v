// tb_lcan_offsets: lcan_offsets for a switch with P = 6, U = 3, p = 3 (none a power of two) and
// one with P = 4, U = 0 (top), p = 1, exhaustively over the byte each offset is taken from,
// against spec 5's red(s & (2^clog2(n) - 1), n) computed here with integer arithmetic.
// Prints "offsets: N passed, N failed".
`default_nettype none

module tb_lcan_offsets;
    reg  [31:0] state;
    wire [2:0]  a_in, a_up, a_dn;
    wire [1:0]  b_in, b_up, b_dn;

    lcan_offsets #(.P(6), .U(3), .PDN(3), .SW(3), .K_IN(3), .K_UP(2), .K_DN(2)) dut_a (
        .state(state), .r_in(a_in), .r_up(a_up), .r_dn(a_dn)
    );
    lcan_offsets #(.P(4), .U(0), .PDN(1), .SW(2), .K_IN(2), .K_UP(0), .K_DN(0)) dut_b (
        .state(state), .r_in(b_in), .r_up(b_up), .r_dn(b_dn)
    );

    integer n_pass = 0;
    integer n_fail = 0;
    integer v;

    // red(r & (2^clog2(n) - 1), n), with 2^clog2(n) the smallest power of two >= n
    function integer ref_off;
        input integer r;
        input integer n;
        integer pow;
        integer m;
        begin
            pow = 1;
            while (pow < n) pow = pow * 2;
            m = r % pow;
            ref_off = (m >= n && n > 0) ? m - n : m;
            if (n <= 1) ref_off = 0;
        end
    endfunction

    task check;
        input ok;
        input [8*32-1:0] what;
        begin
            if (ok) n_pass = n_pass + 1;
            else begin
                n_fail = n_fail + 1;
                if (n_fail <= 10) $display("offsets: FAIL %0s at byte %0d", what, v);
            end
        end
    endtask

    initial begin
        for (v = 0; v < 256; v = v + 1) begin
            state = {8'h5a, v[7:0], ~v[7:0], v[7:0]};
            #1;
            check(a_in == ref_off(v, 6), "P=6 r_in");
            check(a_up == ref_off(255 - v, 3), "U=3 r_up");
            check(a_dn == ref_off(v, 3), "p=3 r_dn");
            check(b_in == ref_off(v, 4), "P=4 r_in");
            check(b_up == 0, "U=0 r_up");
            check(b_dn == 0, "p=1 r_dn");
            check(a_in < 6 && a_up < 3 && a_dn < 3, "ranges");
        end
        $display("offsets: %0d passed, %0d failed", n_pass, n_fail);
        $finish;
    end
endmodule

`resetall
