// tb_lcan_alloc: lcan_alloc for a switch with m = 2 children, p = 2 links each (D = 4) and U = 2
// uppers (P = 6). A reference written from spec 6's pseudo-code (visit i = (r_in + k) mod P,
// free = want & avail & ~taken, ONE takes the first free output scanning from its start, ALL
// takes all) is compared on 20000 random request sets whose wants and starts follow spec 6
// (class UP: all uppers from D + r_up; DOWN(x): links x*p.. from x*p + r_dn; ALL: any set of the
// broadcast outputs, link 0 of each child and upper 0). The tasks below set both the reference's
// want/start sets and lcan_alloc's class interface (req_cls / req_spc).
// Directed cases check by hand-computed grants: ONE/ALL, rotation by r_in, and "the j-th winner
// gets the j-th free candidate in rotated order". Prints "alloc: N passed, N failed".
`default_nettype none

module tb_lcan_alloc;
    localparam P = 6;
    localparam SW = 3;
    localparam D = 4;
    localparam PL = 2;

    reg  [P-1:0]    req_valid;
    reg  [P-1:0]    req_all;
    reg  [P*P-1:0]  req_want;
    reg  [P*SW-1:0] req_start;
    reg  [SW-1:0]   r_in;
    reg  [SW-1:0]   r_up;
    reg  [SW-1:0]   r_dn;
    reg  [P-1:0]    avail;
    wire [P*P-1:0]  grant;
    // lcan_alloc's groups: child 0, child 1, uppers (G = 3)
    localparam G = 3;
    reg  [P*G-1:0]  req_cls;
    reg  [P*G-1:0]  req_spc;
    wire [P-1:0]    out_valid;
    wire [P*SW-1:0] out_src;

    lcan_alloc #(.M(2), .PDN(PL), .U(2), .SW(SW)) dut (
        .req_cls  (req_cls),
        .req_spc  (req_spc),
        .r_in     (r_in),
        .r_up     (r_up),
        .r_dn     (r_dn),
        .avail    (avail),
        .up_perm  (4'b1001),
        .grant    (grant),
        .out_valid(out_valid),
        .out_src  (out_src)
    );

    integer n_pass = 0;
    integer n_fail = 0;

    task check;
        input ok;
        input [8*48-1:0] what;
        input integer a;
        begin
            if (ok) n_pass = n_pass + 1;
            else begin
                n_fail = n_fail + 1;
                if (n_fail <= 10) $display("alloc: FAIL %0s (%0d): grant %h", what, a, grant);
            end
        end
    endtask

    // spec 6, literally
    function [P*P-1:0] ref_alloc;
        input [P-1:0] valid;
        input [P-1:0] all;
        input [P*P-1:0] want;
        input [P*SW-1:0] start;
        input integer rin;
        input [P-1:0] av;
        integer k, i, j, o;
        reg [P-1:0] taken, free, g;
        reg found;
        begin
            ref_alloc = 0;
            taken = 0;
            for (k = 0; k < P; k = k + 1) begin
                i = (rin + k) % P;
                if (valid[i]) begin
                    free = want[i*P +: P] & av & ~taken;
                    g = 0;
                    if (all[i]) g = free;
                    else begin
                        found = 1'b0;
                        for (j = 0; j < P; j = j + 1) begin
                            o = (start[i*SW +: SW] + j) % P;
                            if (!found && free[o]) begin
                                g[o] = 1'b1;
                                found = 1'b1;
                            end
                        end
                    end
                    ref_alloc[i*P +: P] = g;
                    taken = taken | g;
                end
            end
        end
    endfunction

    // request helpers
    task clear_reqs;
        begin
            req_valid = 0;
            req_all = 0;
            req_want = 0;
            req_start = 0;
            req_cls = 0;
            req_spc = 0;
            avail = {P{1'b1}};
            r_in = 0;
            r_up = 0;
            r_dn = 0;
        end
    endtask
    task req_up;  // ONE, class UP
        input integer i;
        input integer rup;
        begin
            req_valid[i] = 1'b1;
            req_all[i] = 1'b0;
            req_want[i*P +: P] = 6'b110000;
            req_start[i*SW +: SW] = D + rup;
            req_cls[i*G + 2] = 1'b1;
            r_up = rup;
        end
    endtask
    task req_down;  // ONE, class DOWN(x)
        input integer i;
        input integer x;
        input integer rdn;
        begin
            req_valid[i] = 1'b1;
            req_all[i] = 1'b0;
            req_want[i*P +: P] = 6'b000011 << (x * PL);
            req_start[i*SW +: SW] = x * PL + rdn;
            req_cls[i*G + x] = 1'b1;
            r_dn = rdn;
        end
    endtask
    task req_set;  // ALL, a set of broadcast outputs: ports 0, 2 (link 0 of each child), 4 (upper 0)
        input integer i;
        input [P-1:0] set;
        begin
            req_valid[i] = 1'b1;
            req_all[i] = 1'b1;
            req_want[i*P +: P] = set & 6'b010101;
            req_start[i*SW +: SW] = 0;
            req_spc[i*G +: G] = {set[4], set[2], set[0]};
        end
    endtask

    function [P-1:0] g_of;
        input integer i;
        begin
            g_of = grant[i*P +: P];
        end
    endfunction

    // out_valid[o] = some grant of output o; out_src[o] = its requester (0 when none)
    function out_ok;
        input dummy;
        integer o, j;
        reg ok;
        begin
            ok = 1'b1;
            for (o = 0; o < P; o = o + 1) begin
                if (out_valid[o] !== |{grant[0*P + o], grant[1*P + o], grant[2*P + o],
                                      grant[3*P + o], grant[4*P + o], grant[5*P + o]})
                    ok = 1'b0;
                for (j = 0; j < P; j = j + 1)
                    if (grant[j*P + o] && out_src[o*SW +: SW] !== j)
                        ok = 1'b0;
                if (!out_valid[o] && out_src[o*SW +: SW] !== 0)
                    ok = 1'b0;
            end
            out_ok = ok;
        end
    endfunction

    integer n, i, rup, rdn, cls, seed;

    initial begin
        // (a) six UP requests, two uppers, r_in = 2, r_up = 1: requesters 2 and 3 win; the first
        // winner gets upper 1 (port 5), the second upper 0 (port 4)
        clear_reqs;
        for (i = 0; i < P; i = i + 1) req_up(i, 1);
        r_in = 2;
        #1;
        check(g_of(2) == 6'b100000 && g_of(3) == 6'b010000, "(a) UP winners 2,3 on uppers 1,0", 0);
        check(g_of(0) == 0 && g_of(1) == 0 && g_of(4) == 0 && g_of(5) == 0, "(a) others lose", 0);

        // (b) DOWN(1) from requesters 1, 4, 5, r_in = 4, r_dn = 1: order 4, 5, .., 1; requester 4
        // gets link 1 (port 3), requester 5 link 0 (port 2), requester 1 nothing
        clear_reqs;
        req_down(1, 1, 1);
        req_down(4, 1, 1);
        req_down(5, 1, 1);
        r_in = 4;
        #1;
        check(g_of(4) == 6'b001000 && g_of(5) == 6'b000100 && g_of(1) == 0, "(b) j-th winner, j-th link", 0);

        // (b') same with port 3 busy: the only free link goes to the first winner
        avail = 6'b110111;
        #1;
        check(g_of(4) == 6'b000100 && g_of(5) == 0 && g_of(1) == 0, "(b') one free link", 0);

        // (c) ALL {0, 2} from requester 0 first, then requester 1 ONE DOWN(0) from link 0:
        // requester 0 takes ports 0 and 2, requester 1 gets port 1
        clear_reqs;
        req_set(0, 6'b000101);
        req_down(1, 0, 0);
        #1;
        check(g_of(0) == 6'b000101 && g_of(1) == 6'b000010, "(c) ALL then ONE", 0);
        // (c') rotated so requester 1 goes first: it takes port 0, the ALL gets only port 2
        r_in = 1;
        #1;
        check(g_of(1) == 6'b000001 && g_of(0) == 6'b000100, "(c') ONE then ALL", 0);

        // (d) nothing available: no grants
        avail = 0;
        #1;
        check(grant == 0, "(d) no avail, no grant", 0);

        // random sets against the reference
        seed = 7;
        for (n = 0; n < 20000; n = n + 1) begin
            clear_reqs;
            rup = $unsigned($random(seed)) % 2;
            rdn = $unsigned($random(seed)) % 2;
            for (i = 0; i < P; i = i + 1) begin
                cls = $unsigned($random(seed)) % 6;
                if (cls == 1) req_up(i, rup);
                else if (cls == 2) req_down(i, 0, rdn);
                else if (cls == 3) req_down(i, 1, rdn);
                else if (cls == 4) req_set(i, $random(seed));
                else if (cls == 5) req_valid[i] = 1'b1;  // valid, empty want (route's bad)
            end
            r_in = $unsigned($random(seed)) % P;
            avail = $random(seed);
            #1;
            check(grant == ref_alloc(req_valid, req_all, req_want, req_start, r_in, avail),
                  "random vs spec 6 reference", n);
            check(out_ok(0), "out_valid/out_src match the grants", n);
        end

        $display("alloc: %0d passed, %0d failed", n_pass, n_fail);
        $finish;
    end
endmodule

`resetall
