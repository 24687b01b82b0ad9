// tb_lcan_fifo: lcan_fifo with DEPTH 3 (not a power of two) and DEPTH 1, against a queue model
// kept in the testbench: fill to full (full, count), ordering, push dropped when full (also with a
// pop on the same tick: spec 8.3 step 5), pop ignored when empty, simultaneous push and pop when
// empty and partially full (the count holds and order is kept), a flit that arrives without a push
// (consumed through the bypass) leaves the entries alone, then 2000 random arrive/push/pop ticks.
// Prints "fifo: N passed, N failed".
`default_nettype none

module tb_lcan_fifo;
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
                if (n_fail <= 10) $display("fifo: FAIL %0s (%0d, %0d)", what, a, b);
            end
        end
    endtask

    // ---------------------------------------------------------------- DEPTH 3
    reg        arrive3 = 1'b0;
    reg        push3 = 1'b0;
    reg        pop3 = 1'b0;
    reg  [7:0] din3 = 8'd0;
    wire [7:0] head3;
    wire       empty3, full3;
    wire [1:0] count3;

    lcan_fifo #(.WIDTH(8), .DEPTH(3), .AW(2), .CW(2)) dut3 (
        .clk(clk), .rst(rst), .arrive(arrive3), .push(push3), .din(din3), .pop(pop3),
        .head(head3), .empty(empty3), .full(full3), .count(count3)
    );

    // ---------------------------------------------------------------- DEPTH 1
    reg        push1 = 1'b0;
    reg        pop1 = 1'b0;
    reg  [7:0] din1 = 8'd0;
    wire [7:0] head1;
    wire       empty1, full1;
    wire [0:0] count1;

    lcan_fifo #(.WIDTH(8), .DEPTH(1), .AW(1), .CW(1)) dut1 (
        .clk(clk), .rst(rst), .arrive(push1), .push(push1), .din(din1), .pop(pop1),
        .head(head1), .empty(empty1), .full(full1), .count(count1)
    );

    // queue model for dut3
    reg [7:0] q [0:15];
    integer   qn = 0;
    integer   k, n, seed;
    reg       do_push, do_pop;

    // one tick on dut3 with the model updated the same way (spec 8.3 step 5: a push into a FIFO
    // that is full before the tick is dropped, whether or not the head is popped); a: a flit
    // arrives (din valid), p: it is pushed (only with a)
    task op3a;
        input a;
        input p;
        input o;
        input [7:0] d;
        begin
            arrive3 = a | p;
            push3 = p;
            pop3 = o;
            din3 = d;
            do_pop = o && qn > 0;
            do_push = p && qn < 3;
            @(posedge clk);
            #1;
            if (do_pop) begin
                for (k = 0; k < qn - 1; k = k + 1) q[k] = q[k+1];
                qn = qn - 1;
            end
            if (do_push) begin
                q[qn] = d;
                qn = qn + 1;
            end
            arrive3 = 1'b0;
            push3 = 1'b0;
            pop3 = 1'b0;
            check(count3 == qn && empty3 == (qn == 0) && full3 == (qn == 3), "count/empty/full", count3, qn);
            if (qn > 0) check(head3 == q[0], "head order", head3, q[0]);
        end
    endtask

    task op3;
        input p;
        input o;
        input [7:0] d;
        op3a(p, p, o, d);
    endtask

    initial begin
        @(posedge clk);
        #1;
        @(posedge clk);
        #1;
        rst = 1'b0;
        check(empty3 && !full3 && count3 == 0, "empty after reset", count3, 0);
        op3(1, 0, 8'h11);
        op3(1, 0, 8'h22);
        op3(1, 0, 8'h33);
        check(full3, "full at 3", count3, 3);
        op3(1, 0, 8'h44);                          // ignored when full
        check(head3 == 8'h11, "push into full ignored", head3, 8'h11);
        op3(1, 1, 8'h55);                          // full: the pop happens, the push is dropped
        check(head3 == 8'h22 && count3 == 2, "push+pop when full: push dropped", head3, 8'h22);
        op3(1, 1, 8'h66);                          // partially full: push+pop
        check(count3 == 2 && head3 == 8'h33, "push+pop when partial", count3, head3);
        op3a(1, 0, 0, 8'h99);                      // a flit arrives, not pushed (bypass)
        check(count3 == 2 && head3 == 8'h33, "arrival without push", count3, head3);
        op3(1, 0, 8'h77);
        op3(0, 1, 8'h00);
        check(count3 == 2 && head3 == 8'h66, "order after an arrival without push", count3, head3);
        op3(0, 1, 8'h00);
        op3(0, 1, 8'h00);
        check(empty3, "drained", count3, 0);
        op3(0, 1, 8'h00);                          // pop of empty ignored
        check(empty3 && count3 == 0, "pop of empty ignored", count3, 0);
        op3(1, 1, 8'h77);                          // empty: the pop is ignored, the push lands
        check(count3 == 1 && head3 == 8'h77, "push+pop when empty", count3, head3);

        seed = 3;
        for (n = 0; n < 2000; n = n + 1)
            op3a($random(seed), $random(seed), $random(seed), $random(seed));

        // DEPTH 1
        push1 = 1'b1;
        din1 = 8'hA5;
        @(posedge clk);
        #1;
        check(full1 && !empty1 && head1 == 8'hA5 && count1 == 1, "depth 1 full", count1, head1);
        din1 = 8'h5A;
        @(posedge clk);
        #1;
        check(head1 == 8'hA5, "depth 1 push into full ignored", head1, 8'hA5);
        pop1 = 1'b1;
        @(posedge clk);
        #1;
        check(empty1 && count1 == 0, "depth 1 push+pop when full: push dropped", count1, head1);
        @(posedge clk);
        #1;
        check(full1 && head1 == 8'h5A, "depth 1 push+pop when empty: the push lands", head1, 8'h5A);
        push1 = 1'b0;
        @(posedge clk);
        #1;
        check(empty1 && count1 == 0, "depth 1 empty", count1, 0);
        pop1 = 1'b0;

        $display("fifo: %0d passed, %0d failed", n_pass, n_fail);
        $finish;
    end
endmodule

`resetall
