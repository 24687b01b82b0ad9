// tb_lcan_route: the routing decision of spec 4 (lcan_route) for a level-2 switch of
// pgft(3;3,3,2;..) with m_2 = 3 children, p = 2 parallel links per child and U = 4 uppers, label
// a_3 = 1, exhaustively over every 5-bit destination (digit fields: bits [1:0] a_1, [3:2] a_2,
// [4] a_3), for an input from below and an input from above, and every r_up / r_dn. Expected values
// are computed here from the digits: UP iff (from below and a_3 != 1); otherwise DOWN(a_2) with want
// = the 2 links of child a_2, start = a_2*2 + r_dn; a_2 = 3 (not a child) gives an empty want and
// bad = 1; UP wants the 4 uppers (ports 6..9), start = 6 + r_up.
// Prints "route: N passed, N failed".
`default_nettype none

module tb_lcan_route;
    reg  [4:0] dest;
    reg  [4:0] label;
    reg  [3:0] r_up;
    reg  [3:0] r_dn;
    wire       up_b, bad_b, up_a, bad_a;
    wire [9:0] want_b, want_a;
    wire [3:0] start_b, start_a;

    // from below (a downer input) and from above (an upper input)
    lcan_route #(.ADDR_W(5), .DIG_OFF(2), .DIG_W(2), .M_L(3), .P_DN(2), .U(4), .SW(4), .IN_UPPER(0)) dut_b (
        .dest(dest), .label(label), .r_up(r_up), .r_dn(r_dn),
        .up(up_b), .bad(bad_b), .want(want_b), .start(start_b)
    );
    lcan_route #(.ADDR_W(5), .DIG_OFF(2), .DIG_W(2), .M_L(3), .P_DN(2), .U(4), .SW(4), .IN_UPPER(1)) dut_a (
        .dest(dest), .label(label), .r_up(r_up), .r_dn(r_dn),
        .up(up_a), .bad(bad_a), .want(want_a), .start(start_a)
    );

    integer n_pass = 0;
    integer n_fail = 0;
    integer v, ru, rd, a2, a3, from_below;
    reg       exp_up, exp_bad;
    reg [9:0] exp_want;
    reg [3:0] exp_start;

    task check;
        input ok;
        input [8*24-1:0] what;
        begin
            if (ok) n_pass = n_pass + 1;
            else begin
                n_fail = n_fail + 1;
                if (n_fail <= 10) $display("route: FAIL %0s dest %0d r_up %0d r_dn %0d", what, v, ru, rd);
            end
        end
    endtask

    initial begin
        label = 5'b10000;  // a_3 = 1; fields 1..2 are 0 (spec 2.2's packed label)
        for (v = 0; v < 32; v = v + 1)
            for (ru = 0; ru < 4; ru = ru + 1)
                for (rd = 0; rd < 2; rd = rd + 1)
                    for (from_below = 0; from_below < 2; from_below = from_below + 1) begin
                        dest = v[4:0];
                        r_up = ru[3:0];
                        r_dn = rd[3:0];
                        #1;
                        a2 = (v / 4) % 4;
                        a3 = v / 16;
                        exp_up = (from_below == 1) && (a3 != 1);
                        exp_bad = !exp_up && (a2 >= 3);
                        exp_want = exp_up ? 10'b1111000000 : (a2 < 3 ? (10'b11 << (2 * a2)) : 10'b0);
                        exp_start = exp_up ? (6 + ru) : (2 * a2 + rd);
                        if (from_below == 1) begin
                            check(up_b == exp_up, "below: up");
                            check(bad_b == exp_bad, "below: bad");
                            check(want_b == exp_want, "below: want");
                            check(exp_bad || start_b == exp_start, "below: start");
                        end else begin
                            check(up_a == exp_up, "above: up");
                            check(bad_a == exp_bad, "above: bad");
                            check(want_a == exp_want, "above: want");
                            check(exp_bad || start_a == exp_start, "above: start");
                        end
                    end
        $display("route: %0d passed, %0d failed", n_pass, n_fail);
        $finish;
    end
endmodule

`resetall
