// tb_lcan_flood_queue: lcan_flood_queue (spec 8.7's flood queue) with N = 4 append ports, DEPTH 3
// (not a power of two) and DEPTH 1, against a queue model kept in the testbench: several appends on
// one tick land in ascending port order, head before the edge is the stored head or (empty queue)
// the lowest appending port's flit, busy = a flit after the appends, pop removes the head (also a
// copy appended on the same tick), clr empties, count after the edge; directed cases, then 3000
// random ticks per depth that keep the caller's rules (at most DEPTH - count appends, pop only when
// busy, nothing else with clr). Prints "flood_queue: N passed, N failed".
`default_nettype none

module tb_lcan_flood_queue;
    reg clk = 1'b0;
    reg rst = 1'b1;
    always #5 clk = ~clk;

    integer n_pass = 0;
    integer n_fail = 0;

    task check;
        input ok;
        input [8*48-1:0] what;
        input integer a;
        input integer b;
        begin
            if (ok) n_pass = n_pass + 1;
            else begin
                n_fail = n_fail + 1;
                if (n_fail <= 10) $display("flood_queue: FAIL %0s (%0d, %0d)", what, a, b);
            end
        end
    endtask

    // ---------------------------------------------------------------- the two queues
    reg  [3:0]  app3 = 4'd0;
    reg  [3:0]  app1 = 4'd0;
    reg  [31:0] din = 32'd0;
    reg         pop3 = 1'b0;
    reg         pop1 = 1'b0;
    reg         clr3 = 1'b0;
    reg         clr1 = 1'b0;
    wire [7:0]  head3, head1;
    wire        busy3, busy1;
    wire [1:0]  count3;
    wire [0:0]  count1;

    lcan_flood_queue #(.N(4), .WIDTH(8), .DEPTH(3), .AW(2), .CW(2)) dut3 (
        .clk(clk), .rst(rst), .clr(clr3), .app(app3), .din(din), .pop(pop3),
        .head(head3), .busy(busy3), .count(count3)
    );

    lcan_flood_queue #(.N(4), .WIDTH(8), .DEPTH(1), .AW(1), .CW(1)) dut1 (
        .clk(clk), .rst(rst), .clr(clr1), .app(app1), .din(din), .pop(pop1),
        .head(head1), .busy(busy1), .count(count1)
    );

    // queue model (one at a time: sel 3 or 1)
    reg [7:0] q [0:15];
    integer   qn;
    integer   k, n, seed, cap, room;
    reg [3:0] a;
    reg       p, c;
    reg [7:0] want_head;

    // one tick of the queue of depth cap: appends a, pop p, clr c (din already set)
    task op;
        input integer d;
        input [3:0] ap;
        input po;
        input cl;
        begin
            if (d == 3) begin
                app3 = ap; pop3 = po; clr3 = cl;
            end else begin
                app1 = ap; pop1 = po; clr1 = cl;
            end
            #1;
            // the model: appends in ascending port order, then the head leaves
            for (k = 0; k < 4; k = k + 1)
                if (ap[k]) begin
                    q[qn] = din[k*8 +: 8];
                    qn = qn + 1;
                end
            want_head = q[0];
            if (d == 3) begin
                check(busy3 == (qn > 0), "busy", busy3, qn);
                if (qn > 0) check(head3 == want_head, "head before the edge", head3, want_head);
            end else begin
                check(busy1 == (qn > 0), "busy (depth 1)", busy1, qn);
                if (qn > 0) check(head1 == want_head, "head before the edge (depth 1)", head1, want_head);
            end
            if (po && qn > 0) begin
                for (k = 0; k < qn - 1; k = k + 1) q[k] = q[k+1];
                qn = qn - 1;
            end
            if (cl) qn = 0;
            @(posedge clk);
            #1;
            app3 = 4'd0; pop3 = 1'b0; clr3 = 1'b0;
            app1 = 4'd0; pop1 = 1'b0; clr1 = 1'b0;
            if (d == 3)
                check(count3 == qn, "count after the edge", count3, qn);
            else
                check(count1 == qn, "count after the edge (depth 1)", count1, qn);
        end
    endtask

    // a random legal tick on the queue of depth d
    task rand_op;
        input integer d;
        begin
            din = $random(seed);
            c = ($random(seed) & 15) == 0;
            room = d - qn;
            a = 4'd0;
            if (!c)
                for (k = 0; k < 4; k = k + 1)
                    if (room > 0 && ($random(seed) & 1)) begin
                        a[k] = 1'b1;
                        room = room - 1;
                    end
            // pop only when busy (the caller's rule), not with clr
            p = !c && (qn > 0 || a != 4'd0) && ($random(seed) % 3 != 0);
            op(d, a, p, c);
        end
    endtask

    initial begin
        seed = 11;
        qn = 0;
        @(posedge clk);
        #1;
        @(posedge clk);
        #1;
        rst = 1'b0;
        check(count3 == 0 && !busy3 && count1 == 0 && !busy1, "empty after reset", count3, count1);

        // depth 3: three appends on one tick land in port order; the first leaves at once
        din = {8'h44, 8'h33, 8'h22, 8'h11};
        op(3, 4'b1101, 1'b1, 1'b0);                 // 0x11 bypasses, 0x33 and 0x44 stay
        check(head3 == 8'h33, "ascending order after a bypass", head3, 8'h33);
        din = {8'h88, 8'h77, 8'h66, 8'h55};
        op(3, 4'b0010, 1'b0, 1'b0);                 // 0x66 appended behind: full
        check(count3 == 3, "full", count3, 3);
        op(3, 4'b0000, 1'b1, 1'b0);
        op(3, 4'b1000, 1'b1, 1'b0);                 // wrap-around: 0x88 into the freed slot
        op(3, 4'b0000, 1'b1, 1'b0);
        op(3, 4'b0000, 1'b1, 1'b0);
        check(count3 == 0 && !busy3, "drained", count3, 0);
        din = {8'hDD, 8'hCC, 8'hBB, 8'hAA};
        op(3, 4'b0110, 1'b0, 1'b0);                 // two appended, none sent
        op(3, 4'b0000, 1'b0, 1'b1);                 // clr: emptied
        check(count3 == 0 && !busy3, "cleared", count3, 0);
        for (n = 0; n < 3000; n = n + 1)
            rand_op(3);
        // empty it for the next queue's model
        while (qn > 0)
            op(3, 4'b0000, 1'b1, 1'b0);

        // depth 1: an append to the empty queue leaves at once, or stays when not popped
        din = {8'h04, 8'h03, 8'h02, 8'h01};
        op(1, 4'b0100, 1'b1, 1'b0);
        check(count1 == 0, "depth 1 bypass", count1, 0);
        op(1, 4'b1000, 1'b0, 1'b0);
        check(count1 == 1 && head1 == 8'h04, "depth 1 held", count1, head1);
        for (n = 0; n < 3000; n = n + 1)
            rand_op(1);

        $display("flood_queue: %0d passed, %0d failed", n_pass, n_fail);
        $finish;
    end
endmodule

`resetall
