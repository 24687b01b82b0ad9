// lcan_switch_packet: the packet-mode state of one switch (spec 8): per input a DEPTH-flit FIFO
// (lcan_fifo), the broadcast served mask and the credit-out register; per output the credit
// counter cr_o. The candidate of input i is the FIFO head, or, when the FIFO is empty, the flit
// arriving this tick (bypass). When lcan_switch reports the candidate consumed, the head is popped
// (a bypass flit is not stored), served is cleared and one credit goes back; otherwise served
// collects the tick's grants and a bypass flit is stored. A flit arriving behind a non-empty FIFO
// is pushed. cr_o counts down per flit written to o and up per credit arriving on o; level-1
// downers (LEAF) face ideal sinks: always available, cr shown as 0. Timing: FIFOs, served, cr and
// credit-out are registers; avail, dbg, rx_ret come from registers; cand_* also from rx (bypass).
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
    parameter CW = 3
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
    output wire [P*8-1:0]  dbg
);

    localparam [CW-1:0] CR_FULL = DEPTH[CW-1:0];
    localparam [CW-1:0] CR_ONE = 1;

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
                .CW   (CW)
            ) u_fifo (
                .clk  (clk),
                .rst  (rst),
                .push (rx_valid[g] & ~(empty & consume[g])),
                .din  (rx_flit[g*FW +: FW]),
                .pop  (consume[g] & ~empty),
                .head (head),
                .empty(empty),
                .full (full),
                .count(count)
            );

            assign cand_valid[g] = ~empty | rx_valid[g];
            assign cand_flit[g*FW +: FW] = empty ? rx_flit[g*FW +: FW] : head;

            always @* begin
                if (rst || consume[g])
                    served_d = {P{1'b0}};
                else
                    served_d = (served_q | grant[g*P +: P]) & MASK;
            end

            always @(posedge clk)
                served_q <= served_d;

            assign served[g*P +: P] = served_q;

            // full and count are for tests and waveforms
            wire unused_ok = &{1'b0, full, count};
        end
    endgenerate

    always @* begin
        ret_d = consume;
        if (rst)
            ret_d = {P{1'b0}};
    end

    always @(posedge clk)
        ret_q <= ret_d;

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

                always @* begin
                    cr_d = cr_q;
                    if (wr[g] && !tx_ret[g])
                        cr_d = cr_q - CR_ONE;
                    else if (tx_ret[g] && !wr[g])
                        cr_d = cr_q + CR_ONE;
                    if (rst)
                        cr_d = CR_FULL;
                end

                always @(posedge clk)
                    cr_q <= cr_d;

                assign avail[g] = (cr_q != {CW{1'b0}});
                wire [CW+7:0] cr_ext = {8'd0, cr_q};
                assign dbg[g*8 +: 8] = cr_ext[7:0];
                wire unused_ok = &{1'b0, cr_ext};
            end
        end
    endgenerate
endmodule

`resetall
