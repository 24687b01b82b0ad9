// lcan_switch_packet: the packet-mode state of one switch (spec 8): per input a DEPTH-flit FIFO
// (lcan_fifo), the broadcast served mask and the credit-out register; per output the credit
// counter cr_o. The candidate of input i is the FIFO head, or, when the FIFO is empty, the flit
// arriving this tick (bypass). When lcan_switch reports the candidate consumed, the head is popped
// (a bypass flit is not stored), served is cleared and one credit goes back; otherwise served
// collects the tick's grants and a bypass flit is stored. A flit arriving behind a non-empty FIFO
// is pushed. cr_o counts down per flit written to o and up per credit arriving on o; level-1
// downers (LEAF) face ideal sinks: always available, cr shown as 0.
// FLOOD_Q > 0 (spec 8.7): every output of MASK owns a flood queue (lcan_flood_queue). The flooding
// candidates (fl_cand, with their flood sets fl_set from lcan_switch) are accepted when every output
// of the set has room for the copies all flooding candidates want to append this tick (q_o + n_o <=
// FLOOD_Q); accepted ones append a copy to each queue of their set (ascending input order) and
// lcan_switch consumes them. An output whose queue holds a flit after the appends (fl_busy) and that
// is available and not off sends the queue's head (fl_send, fl_flit); an off output's queue is
// emptied. dbg then has a second half: q_o at byte P + o (0 for outputs without a queue).
// HOLD: inputs whose sender holds its flit register until the credit comes back (DEPTH = 1 links
// between two switches, lcan_switch's LINK_HOLD): their one-entry FIFO keeps no copy (lcan_fifo
// HELD), the entry is the flit on rx.
// Timing: FIFOs, served, cr, credit-out and the flood queues are registers; avail, dbg, rx_ret come
// from registers; cand_* also from rx (bypass); fl_* from cand_* and registers.
`default_nettype none

module lcan_switch_packet #(
    // local ports of the switch and how many of them are downers
    parameter P = 4,
    parameter D = 2,
    // flit width without valid (spec 3)
    parameter FW = 8,
    // FIFO depth, >= 1
    parameter DEPTH = 4,
    // 1 at level 1: downers need no credits
    parameter LEAF = 0,
    // link 0 of every child and upper 0: the only outputs a broadcast can be served on (ALL
    // requests: tree broadcasts descending, flooding broadcasts from any input, spec 8.3)
    parameter [P-1:0] MASK = {P{1'b1}},
    // FIFO pointer and count widths: max(1, clog2(DEPTH)) and clog2(DEPTH + 1) (from lcan_switch)
    parameter AW = 2,
    parameter CW = 3,
    // flood queue entries (spec 8.7): 0 = no flood queues (fl_* unused, fl_accept/fl_send/fl_busy 0)
    parameter FLOOD_Q = 0,
    // flood queue pointer and count widths: max(1, clog2(FLOOD_Q)) and clog2(FLOOD_Q + 1)
    parameter QAW = 1,
    parameter QCW = 1,
    // inputs whose FIFO entry is held by the sender (DEPTH = 1 only; see above)
    parameter [P-1:0] HOLD = {P{1'b0}},
    // 1: the one-entry FIFOs' counts cleared through their data input (lcan_fifo LATE_POP); 2: not
    // so, and the one-bit credits in their XOR form (CR_XOR below; lcan_switch's U22 only)
    parameter LATE_POP = 0,
    // 1: the served sets cleared by consume | rst as their flip-flops' synchronous reset (below)
    parameter SERVED_RST = 0
) (
    input  wire            clk,
    input  wire            rst,
    input  wire [P-1:0]    rx_valid,
    input  wire [P*FW-1:0] rx_flit,
    output wire [P-1:0]    rx_ret,
    input  wire [P-1:0]    tx_ret,
    // outputs written this tick and grant[i*P + o]
    input  wire [P-1:0]    wr,
    input  wire [P*P-1:0]  grant,
    // candidate of input i leaves the input this tick
    input  wire [P-1:0]    consume,
    output wire [P-1:0]    cand_valid,
    output wire [P*FW-1:0] cand_flit,
    output wire [P*P-1:0]  served,
    output wire [P-1:0]    avail,
    // flood queues (FLOOD_Q > 0, spec 8.7): input i's candidate is a flooding broadcast, its flood
    // set fl_set[i*P +: P] (off ports removed); local port o off (queue emptied, nothing sent);
    // candidate accepted (consumed); output o sends its queue's head fl_flit[o*FW +: FW]; output o's
    // queue holds a flit after the appends (the allocator must not use o)
    input  wire [P-1:0]    fl_cand,
    input  wire [P*P-1:0]  fl_set,
    input  wire [P-1:0]    off,
    output wire [P-1:0]    fl_accept,
    output wire [P-1:0]    fl_send,
    output wire [P-1:0]    fl_busy,
    output wire [P*FW-1:0] fl_flit,
    // debug view: cr_o at byte o; with FLOOD_Q > 0 q_o at byte P + o
    output wire [P*8*((FLOOD_Q > 0) ? 2 : 1)-1:0] dbg
);

    localparam [CW-1:0] CR_FULL = DEPTH[CW-1:0];
    localparam [CW-1:0] CR_ONE = 1;
    // CR_XOR (LATE_POP = 2, with CW = 1, DEPTH 1: a one-bit credit): the credit's next value written
    // cr ^ wr ^ tx_ret, one LUT before the flip-flop's data input (the default form's decrement /
    // increment becomes a clock enable wr ^ tx_ret and an inverter: 8 LUT for 4 credits in
    // sw-2-2-w8-packet-noobs-d1-pinned-uni-held; docs/synthesis.md 30: the XOR form of the credit
    // counters was larger elsewhere). Passed in LATE_POP's value rather than as a parameter of its
    // own: a new parameter renamed the cells of every switch, circuit mode's too (docs/synthesis.md 31)
    localparam CR_XOR = (LATE_POP == 2) && (CW == 1);

    reg [P-1:0] ret_q, ret_d;

    genvar g;
    generate
        for (g = 0; g < P; g = g + 1) begin : g_in
            wire          empty;
            wire [FW-1:0] head;
            wire          full;
            wire [CW-1:0] count;
            reg  [P-1:0]  served_q, served_d;

            lcan_fifo #(
                .WIDTH(FW),
                .DEPTH(DEPTH),
                .AW   (AW),
                .CW   (CW),
                .HELD (HOLD[g] ? 1 : 0),
                .LATE_POP((LATE_POP == 1) ? 1 : 0)
            ) u_fifo (
                .clk  (clk),
                .rst  (rst),
                .arrive(rx_valid[g]),
                .push (rx_valid[g] & ~(empty & consume[g])),
                .din  (rx_flit[g*FW +: FW]),
                .pop  (consume[g] & ~empty),
                .head (head),
                .empty(empty),
                .full (full),
                .count(count)
            );

            assign cand_valid[g] = ~empty | rx_valid[g];
            // (a held entry is the flit on rx: head = rx_flit, no multiplexer)
            if (HOLD[g]) begin : g_held
                assign cand_flit[g*FW +: FW] = rx_flit[g*FW +: FW];
                wire unused_head = &{1'b0, head};
            end else begin : g_stored
                assign cand_flit[g*FW +: FW] = empty ? rx_flit[g*FW +: FW] : head;
            end

            // SERVED_RST = 0: an AND with ~consume, not a multiplexer to 0 (yosys would fold that into
            // the flip-flops' synchronous reset, rst | consume, and the late consume would then reach
            // the set/reset pin, whose net is slower than a LUT input's on the iCE40)
            if (SERVED_RST != 0) begin : g_srst
                // (the floor's form, lcan_switch's BFLOOR: consume on the flip-flops' synchronous
                // reset, read in the register block as rst is; fewer LUTs there, docs/synthesis.md 29)
                always @*
                    served_d = (served_q | grant[g*P +: P]) & MASK;
                always @(posedge clk)
                    if (rst || consume[g])
                        served_q <= {P{1'b0}};
                    else
                        served_q <= served_d;
            end else begin : g_sand
                always @*
                    served_d = (served_q | grant[g*P +: P]) & MASK & {P{~consume[g]}};

                // (reset is applied in the register blocks, not in the next-state logic: see
                // lcan_switch's header)
                always @(posedge clk)
                    served_q <= rst ? {P{1'b0}} : served_d;
            end

            assign served[g*P +: P] = served_q;

            // full and count are for tests and waveforms
            wire unused_ok = &{1'b0, full, count};
        end
    endgenerate

    always @*
        ret_d = consume;

    always @(posedge clk)
        ret_q <= rst ? {P{1'b0}} : ret_d;

    assign rx_ret = ret_q;

    generate
        for (g = 0; g < P; g = g + 1) begin : g_out
            if (LEAF && g < D) begin : g_sink
                // level-1 downer: leaves are ideal sinks
                assign avail[g] = 1'b1;
                assign dbg[g*8 +: 8] = 8'd0;
                wire unused_ok = &{1'b0, tx_ret[g], wr[g]};
            end else begin : g_credit
                reg [CW-1:0] cr_q, cr_d;

                if (CR_XOR) begin : g_crx
                    // (the one-bit credit's next value as an XOR, see CR_XOR)
                    always @*
                        cr_d = cr_q ^ (wr[g] ^ tx_ret[g]);
                end else begin : g_crc
                    always @* begin
                        cr_d = cr_q;
                        if (wr[g] && !tx_ret[g])
                            cr_d = cr_q - CR_ONE;
                        else if (tx_ret[g] && !wr[g])
                            cr_d = cr_q + CR_ONE;
                    end
                end

                always @(posedge clk)
                    cr_q <= rst ? CR_FULL : cr_d;

                assign avail[g] = (cr_q != {CW{1'b0}});
                wire [CW+7:0] cr_ext = {8'd0, cr_q};
                assign dbg[g*8 +: 8] = cr_ext[7:0];
                wire unused_ok = &{1'b0, cr_ext};
            end
        end
    endgenerate

    // ---------------------------------------------------------------- flood queues (spec 8.7)
    generate
        if (FLOOD_Q > 0) begin : g_flood
            // n_o + q_o <= FLOOD_Q <= 255 with n_o <= P <= 128: 9 bits hold every sum
            localparam [8:0] FQ_MAX = FLOOD_Q[8:0];
            wire [P-1:0] room;

            for (g = 0; g < P; g = g + 1) begin : g_q
                if (MASK[g]) begin : g_queue
                    // the inputs whose flooding candidate has g in its flood set, and the accepted ones
                    reg  [P-1:0]   want;
                    reg  [8:0]     n_want;
                    wire [P-1:0]   app = want & fl_accept;
                    wire [QCW-1:0] q;
                    wire [QCW+8:0] q_ext = {9'd0, q};
                    integer        k;

                    always @* begin
                        n_want = 9'd0;
                        for (k = 0; k < P; k = k + 1) begin
                            want[k] = fl_set[k*P + g];
                            n_want = n_want + {8'd0, want[k]};
                        end
                    end

                    lcan_flood_queue #(
                        .N    (P),
                        .WIDTH(FW),
                        .DEPTH(FLOOD_Q),
                        .AW   (QAW),
                        .CW   (QCW)
                    ) u_queue (
                        .clk  (clk),
                        .rst  (rst),
                        .clr  (off[g]),
                        .app  (app),
                        .din  (cand_flit),
                        .pop  (fl_send[g]),
                        .head (fl_flit[g*FW +: FW]),
                        .busy (fl_busy[g]),
                        .count(q)
                    );

                    // spec 8.7 step 2: q_o (before the tick) + n_o <= FLOOD_Q
                    assign room[g] = (q_ext[8:0] + n_want) <= FQ_MAX;
                    // step 3: the head leaves when the output is available and not off
                    assign fl_send[g] = fl_busy[g] & avail[g] & ~off[g];
                    assign dbg[(P + g)*8 +: 8] = q_ext[7:0];
                    wire unused_q = &{1'b0, q_ext};
                end else begin : g_none
                    // no flooding broadcast is ever sent here (not in any flood set)
                    assign room[g] = 1'b1;
                    assign fl_send[g] = 1'b0;
                    assign fl_busy[g] = 1'b0;
                    assign fl_flit[g*FW +: FW] = {FW{1'b0}};
                    assign dbg[(P + g)*8 +: 8] = 8'd0;
                end
                // step 2: accepted when every output of the flood set has room (an empty set: always)
                assign fl_accept[g] = fl_cand[g] & ((fl_set[g*P +: P] & ~room) == {P{1'b0}});
            end
            // outputs without a queue are never in a flood set: their off bit is not needed
            wire unused_off = &{1'b0, off};
        end else begin : g_no_flood
            assign fl_accept = {P{1'b0}};
            assign fl_send = {P{1'b0}};
            assign fl_busy = {P{1'b0}};
            assign fl_flit = {(P*FW){1'b0}};
            wire unused_fl = &{1'b0, fl_cand, fl_set, off};
        end
    endgenerate
endmodule

`resetall
