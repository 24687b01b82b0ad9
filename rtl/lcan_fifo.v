// lcan_fifo: a synchronous FIFO of DEPTH entries of WIDTH bits (the packet-mode input buffer of
// spec 8.1). head is the oldest entry (valid when empty = 0), read straight from the storage
// register. arrive says din carries a flit this tick: it is written into the slot behind the last
// entry whenever the FIFO is not full, and push (given only with arrive) makes it an entry; pop
// removes head; push and pop on one tick are allowed. A push into a FIFO that is full before the
// tick is dropped, also when the head is popped on that tick (spec 8.3 step 5; the credit protocol
// never does it); a pop of an empty FIFO is ignored. So the memory's write enable (arrive & ~full)
// does not wait for push, which the switch decides late in the tick (a flit consumed through the
// bypass is written into a free slot and not counted). Timing: everything is registered; count,
// empty and full reflect the ticks before.
// HELD = 1 (DEPTH = 1 only): the sender holds din unchanged from the tick it arrives until the tick
// after the entry leaves (a credit link of one credit whose sender keeps its flit register when it
// does not write it, rtl/lcan_switch.v): the entry is din itself, so no storage is built; count,
// empty and full are kept as above.
`default_nettype none

module lcan_fifo #(
    // bits per entry
    parameter WIDTH = 8,
    // number of entries, >= 1
    parameter DEPTH = 4,
    // width of the entry pointers (clog2(DEPTH), at least 1)
    parameter AW = 2,
    // width of the occupancy count (clog2(DEPTH + 1))
    parameter CW = 3,
    // 1: the entry is read from din, which the sender holds (DEPTH = 1; see above)
    parameter HELD = 0,
    // DEPTH = 1: 1 = the count is cleared through its data input, not its synchronous reset (below)
    parameter LATE_POP = 0
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             arrive,
    input  wire             push,
    input  wire [WIDTH-1:0] din,
    input  wire             pop,
    output wire [WIDTH-1:0] head,
    output wire             empty,
    output wire             full,
    output wire [CW-1:0]    count
);
    localparam LAST_I = DEPTH - 1;
    localparam [AW-1:0] LAST = LAST_I[AW-1:0];
    localparam [AW-1:0] PTR_ONE = 1;
    localparam [CW-1:0] CNT_ONE = 1;
    localparam [CW-1:0] CNT_FULL = DEPTH[CW-1:0];

    reg [WIDTH-1:0] mem_q [0:DEPTH-1];
    reg [AW-1:0]    rd_q, rd_d;
    reg [AW-1:0]    wr_q, wr_d;
    reg [CW-1:0]    cnt_q, cnt_d;

    assign empty = (cnt_q == {CW{1'b0}});
    assign full  = (cnt_q == CNT_FULL);
    assign count = cnt_q;

    wire do_pop  = pop & ~empty;
    wire do_push = push & ~full;

    // Next pointers and count as XORs of the register with an early-computed change, gated by the
    // late pop and push bits (the switch's consume arrives last in the tick): not multiplexers back
    // to the register, which yosys turns into clock enables (the late bit then reaches the
    // flip-flops' enable pin through two more LUTs), nor an adder (a carry chain after the late
    // bit). Measured in docs/synthesis.md 30.
    wire [AW-1:0] rd_nx = (rd_q == LAST) ? {AW{1'b0}} : rd_q + PTR_ONE;
    wire [AW-1:0] wr_nx = (wr_q == LAST) ? {AW{1'b0}} : wr_q + PTR_ONE;
    wire [CW-1:0] cnt_inc = cnt_q + CNT_ONE;
    wire [CW-1:0] cnt_dec = cnt_q - CNT_ONE;
    wire up_only = do_push & ~do_pop;
    wire dn_only = do_pop & ~do_push;

    always @* begin
        rd_d  = rd_q ^ ({AW{do_pop}} & (rd_q ^ rd_nx));
        wr_d  = wr_q ^ ({AW{do_push}} & (wr_q ^ wr_nx));
        cnt_d = cnt_q ^ (({CW{up_only}} & (cnt_q ^ cnt_inc)) | ({CW{dn_only}} & (cnt_q ^ cnt_dec)));
    end

    // (reset is applied here, not in the next-state logic above: see lcan_switch's header)
    always @(posedge clk) begin
        if (rst) begin
            rd_q  <= {AW{1'b0}};
            wr_q  <= {AW{1'b0}};
        end else begin
            rd_q  <= rd_d;
            wr_q  <= wr_d;
        end
    end

    generate
        if (DEPTH == 1) begin : g_cnt1
            // one entry: the count is the entry's valid bit, cleared (a synchronous reset) by a
            // reset, a pop, or a flit that arrives at an empty FIFO without a push (it leaves through
            // the switch's bypass), else loaded with "holds or receives a flit" - in lcan_switch
            // that clear is consume | rst and that data the candidate's valid bit, with no
            // valid & ~consume gate in between. Measured on the iCE40 against the counter form
            // (DEPTH-1 (2,2) rows of scripts/synth/configs.tsv, LUT / MHz): -pinned-uni-held 158 /
            // 128.8 against 163 / 117.0, -pinned 301 / 74.9 against 314 / 68.9, -pinned-held 260 /
            // 84.1 against 253 / 76.5
            // LATE_POP = 1 (lcan_switch's packet switches with broadcasts, where pop and push come
            // last, behind the served sets): the same next value as the AND of "holds or receives a
            // flit" and "not popped, not consumed through the bypass", only rst on the flip-flops'
            // reset; yosys would otherwise fold the pop into that synchronous reset, and the late
            // pop would reach the set/reset pin, whose net is slower than a LUT input's on the iCE40.
            // Measured (SYNTH_ECP5=0 scripts/synth/run-one.sh NAME OUT, seeds 1 / 2 / 3):
            // sw-2-2-w8-packet-noobs-d1-pinned-held 210 LUT, 100.4 / 103.3 / 105.0 MHz with the
            // reset form, 210 LUT, 106.8 / 116.1 / 115.6 MHz with this one; tried for every switch,
            // it cost the unicast-only -uni-held row 3 LUT (161 against 158), so lcan_switch sets it
            // for held links with broadcasts only
            if (LATE_POP != 0) begin : g_late
                wire keep = ~(do_pop | (arrive & ~push & empty)) & (~empty | arrive);
                always @(posedge clk)
                    cnt_q <= rst ? {CW{1'b0}} : (keep ? CNT_ONE : {CW{1'b0}});
            end else begin : g_rst
                always @(posedge clk)
                    if (rst || do_pop || (arrive && !push && empty))
                        cnt_q <= {CW{1'b0}};
                    else
                        cnt_q <= (empty && !arrive) ? {CW{1'b0}} : CNT_ONE;
            end
            wire unused_cnt_d = &{1'b0, cnt_d};
        end else begin : g_cnt
            always @(posedge clk)
                cnt_q <= rst ? {CW{1'b0}} : cnt_d;
        end
    endgenerate

    always @(posedge clk)
        if (arrive & ~full & ~rst)
            mem_q[wr_q] <= din;

    generate
        if (HELD != 0) begin : g_held
            // (the memory is then never read, and synthesis removes it)
            assign head = din;
            wire unused_held = &{1'b0, rd_q, mem_q[0]};
        end else begin : g_mem
            assign head = mem_q[rd_q];
        end
    endgenerate
endmodule

`resetall
