// lcan_flood_queue: one flood queue Q_o of spec 8.7 - a FIFO of DEPTH flits with N append ports and
// one pop. On a tick every port i with app[i] appends its flit din[i], in ascending port order (port
// i's copy takes the slot after the copies of every appending port below it: the ranks come from
// lcan_prefix_count); pop removes the head. head is the oldest flit after the tick's appends: the
// stored head when the queue held one before the tick, else the copy of the lowest appending port
// (a copy appended to an empty queue can leave on the tick it arrives, spec 8.7 step 3); busy: the
// queue holds a flit after the appends (spec 8.7 steps 3-4). clr empties the queue (an off output,
// spec 8.7 step 6). The caller keeps the rules of spec 8.7: at most DEPTH - count appends per tick
// (its acceptance rule), a pop only when busy, no append or pop with clr. count is q_o (the
// register: the flits that stayed after the tick's sends). Timing: storage, pointers and count are
// registers; head and busy are combinational from app, din and the registers (depth: one prefix
// count of N bits and a compare).
`default_nettype none

module lcan_flood_queue #(
    // append ports (a switch's inputs), 1..256
    parameter N = 4,
    // bits per flit
    parameter WIDTH = 8,
    // entries (spec 8.7's FLOOD_Q), 1..255
    parameter DEPTH = 2,
    // width of the entry pointers (max(1, clog2(DEPTH))) and of the count (clog2(DEPTH + 1))
    parameter AW = 1,
    parameter CW = 2
) (
    input  wire               clk,
    input  wire               rst,
    input  wire               clr,
    input  wire [N-1:0]       app,
    input  wire [N*WIDTH-1:0] din,
    input  wire               pop,
    output wire [WIDTH-1:0]   head,
    output wire               busy,
    output wire [CW-1:0]      count
);
    function integer fq_clog2;
        input integer v;
        integer t;
        begin
            fq_clog2 = 0;
            t = 1;
            while (t < v) begin
                t = t * 2;
                fq_clog2 = fq_clog2 + 1;
            end
        end
    endfunction

    generate
        if (N < 1 || N > 256 || DEPTH < 1 || DEPTH > 255 || WIDTH < 1 || AW < 1 || (1 << AW) < DEPTH ||
            (1 << CW) <= DEPTH) begin : g_bad_parameters
`ifdef VERILATOR
            $fatal(1, "lcan_flood_queue: bad parameters: need 1 <= N <= 256, 1 <= DEPTH <= 255, ",
                   "2^AW >= DEPTH, 2^CW > DEPTH");
`elsif YOSYS
            lcan_flood_queue_bad_parameters u_bad ();
`else
            initial begin
                $display("lcan_flood_queue: bad parameters: need 1 <= N <= 256, 1 <= DEPTH <= 255, ",
                         "2^AW >= DEPTH, 2^CW > DEPTH");
                $finish;
            end
`endif
        end
    endgenerate

    // rank of an appending port: the appending ports below it (at most N - 1, never saturated)
    localparam RKW = fq_clog2(N + 1);
    // one width for the slot, pointer and count arithmetic (slot < 2 * DEPTH, count + appends <= 2 * DEPTH)
    localparam XW = ((AW > CW) ? ((AW > RKW) ? AW : RKW) : ((CW > RKW) ? CW : RKW)) + 1;
    localparam [XW-1:0] DEPTH_X = DEPTH[XW-1:0];
    localparam [XW-1:0] ONE_X = 1;

    reg [WIDTH-1:0] mem_q [0:DEPTH-1];
    reg [AW-1:0]    rd_q, rd_d;
    reg [AW-1:0]    wr_q, wr_d;
    reg [CW-1:0]    cnt_q, cnt_d;

    wire [N*RKW-1:0] rank;

    lcan_prefix_count #(
        .N(N),
        .W(RKW)
    ) u_rank (
        .x  (app),
        .cnt(rank)
    );

    // slot of port i's copy: wr + rank (mod DEPTH; < 2 * DEPTH for every appending port)
    wire [XW-1:0] wr_x = {{(XW-AW){1'b0}}, wr_q};
    wire [XW-1:0] rd_x = {{(XW-AW){1'b0}}, rd_q};
    wire [XW-1:0] cnt_x = {{(XW-CW){1'b0}}, cnt_q};
    reg  [N*XW-1:0]  slot;
    reg  [WIDTH-1:0] first;
    reg  [XW-1:0]    total;
    integer          i;

    always @* begin
        first = {WIDTH{1'b0}};
        for (i = 0; i < N; i = i + 1) begin
            slot[i*XW +: XW] = wr_x + {{(XW-RKW){1'b0}}, rank[i*RKW +: RKW]};
            if (slot[i*XW +: XW] >= DEPTH_X)
                slot[i*XW +: XW] = slot[i*XW +: XW] - DEPTH_X;
            // the lowest appending port's copy (rank 0)
            if (app[i] && rank[i*RKW +: RKW] == {RKW{1'b0}})
                first = first | din[i*WIDTH +: WIDTH];
        end
        // appends of the tick: the rank of the last port plus its own
        total = {{(XW-RKW){1'b0}}, rank[(N-1)*RKW +: RKW]} + (app[N-1] ? ONE_X : {XW{1'b0}});
    end

    assign count = cnt_q;
    assign busy = (cnt_q != {CW{1'b0}}) | (|app);
    assign head = (cnt_q != {CW{1'b0}}) ? mem_q[rd_q] : first;

    // per entry: written by the appending port whose slot it is (at most one)
    genvar ge;
    generate
        for (ge = 0; ge < DEPTH; ge = ge + 1) begin : g_entry
            localparam [XW-1:0] E_X = ge;
            reg             we;
            reg [WIDTH-1:0] wd;
            integer         k;

            always @* begin
                we = 1'b0;
                wd = {WIDTH{1'b0}};
                for (k = 0; k < N; k = k + 1)
                    if (app[k] && slot[k*XW +: XW] == E_X) begin
                        we = 1'b1;
                        wd = wd | din[k*WIDTH +: WIDTH];
                    end
            end

            always @(posedge clk)
                if (we && !rst && !clr)
                    mem_q[ge] <= wd;
        end
    endgenerate

    reg [XW-1:0] wr_n, rd_n, cnt_n;
    always @* begin
        wr_n = wr_x + total;
        if (wr_n >= DEPTH_X)
            wr_n = wr_n - DEPTH_X;
        rd_n = rd_x + (pop ? ONE_X : {XW{1'b0}});
        if (rd_n >= DEPTH_X)
            rd_n = rd_n - DEPTH_X;
        cnt_n = cnt_x + total - (pop ? ONE_X : {XW{1'b0}});
        wr_d = wr_n[AW-1:0];
        rd_d = rd_n[AW-1:0];
        cnt_d = cnt_n[CW-1:0];
        if (clr) begin
            wr_d = {AW{1'b0}};
            rd_d = {AW{1'b0}};
            cnt_d = {CW{1'b0}};
        end
    end

    // (reset is applied here, not in the next-state logic: see lcan_switch's header)
    always @(posedge clk) begin
        if (rst) begin
            rd_q <= {AW{1'b0}};
            wr_q <= {AW{1'b0}};
            cnt_q <= {CW{1'b0}};
        end else begin
            rd_q <= rd_d;
            wr_q <= wr_d;
            cnt_q <= cnt_d;
        end
    end

    // the upper bits of the XW-bit arithmetic are 0 by the caller's rules
    wire unused_ok = &{1'b0, wr_n, rd_n, cnt_n};
endmodule

`resetall
