// lcan_switch_circuit: the circuit-mode state of one switch (spec 7): per output o the crosspoint
// set_o / src_o, per input the ack-out register. It offers every valid header (head = 1) on an
// input as the input's candidate; avail_o = ~set_o. From the allocator's grants it sets up the new
// crosspoints; a valid data flit (head = 0) on input i is copied to every output o with set_o = 1
// and src_o = i: data_sel[o*P + i] selects it in lcan_switch's one crossbar per output, which
// headers share (data_wr[o] = |data_sel[o*P +: P]). The ack
// register of input i becomes the OR of the acks arriving on the outputs connected to it. Reset and
// clear zero set, src and acks. Timing: set/src/ack are registers; rx_ret and dbg come from them;
// cand_*, avail, data_* are combinational from rx and the registers.
`default_nettype none

module lcan_switch_circuit #(
    // local ports of the switch
    parameter P = 4,
    // width of a local port index (<= 7)
    parameter SW = 2,
    // flit width without valid (spec 3)
    parameter FW = 8
) (
    input  wire            clk,
    input  wire            rst,
    input  wire            clear,
    input  wire [P-1:0]    rx_valid,
    input  wire [P*FW-1:0] rx_flit,
    output wire [P-1:0]    rx_ret,
    input  wire [P-1:0]    tx_ret,
    // grant[i*P + o]: header on input i won output o
    input  wire [P*P-1:0]  grant,
    output wire [P-1:0]    cand_valid,
    output wire [P*FW-1:0] cand_flit,
    output wire [P-1:0]    avail,
    output wire [P-1:0]    data_wr,
    output wire [P*P-1:0]  data_sel,
    output wire [P*8-1:0]  dbg
);
    localparam HEAD_BIT = FW - 1;

    reg [P-1:0]    set_q, set_d;
    reg [P*SW-1:0] src_q, src_d;
    reg [P-1:0]    ack_q, ack_d;

    wire [P-1:0] rx_head;
    genvar g;
    generate
        for (g = 0; g < P; g = g + 1) begin : g_in
            assign rx_head[g] = rx_flit[g*FW + HEAD_BIT];
            assign cand_valid[g] = rx_valid[g] & rx_head[g];
        end
    endgenerate
    assign cand_flit = rx_flit;
    assign avail = ~set_q;

    integer i, o;
    reg [P-1:0]   data_wr_r;
    reg [P*P-1:0] data_sel_r;

    // data follows the circuit: output o selects input src_o (decoded, for lcan_switch's AND-OR
    // crossbar) when a data flit arrives there
    always @* begin
        for (o = 0; o < P; o = o + 1) begin
            data_wr_r[o] = 1'b0;
            for (i = 0; i < P; i = i + 1) begin
                data_sel_r[o*P + i] = 1'b0;
                if (src_q[o*SW +: SW] == i[SW-1:0]) begin
                    data_sel_r[o*P + i] = set_q[o] & rx_valid[i] & ~rx_head[i];
                    data_wr_r[o] = data_sel_r[o*P + i];
                end
            end
        end
    end
    assign data_wr = data_wr_r;
    assign data_sel = data_sel_r;

    // new crosspoints from the grants; acks ORed back over the existing crosspoints
    always @* begin
        set_d = set_q;
        src_d = src_q;
        ack_d = {P{1'b0}};
        for (o = 0; o < P; o = o + 1)
            for (i = 0; i < P; i = i + 1) begin
                if (grant[i*P + o]) begin
                    set_d[o] = 1'b1;
                    src_d[o*SW +: SW] = i[SW-1:0];
                end
                if (set_q[o] && src_q[o*SW +: SW] == i[SW-1:0] && tx_ret[o])
                    ack_d[i] = 1'b1;
            end
    end

    // (reset and clear are applied here, not in the next-state logic: see lcan_switch's header)
    always @(posedge clk) begin
        if (rst || clear) begin
            set_q <= {P{1'b0}};
            src_q <= {(P*SW){1'b0}};
            ack_q <= {P{1'b0}};
        end else begin
            set_q <= set_d;
            src_q <= src_d;
            ack_q <= ack_d;
        end
    end

    assign rx_ret = ack_q;

    // debug byte of output o: {set_o, src_o[6:0]}
    generate
        for (g = 0; g < P; g = g + 1) begin : g_dbg
            wire [7+SW-1:0] src_ext = {{7{1'b0}}, src_q[g*SW +: SW]};
            assign dbg[g*8 +: 8] = {set_q[g], src_ext[6:0]};
            wire unused_ok = &{1'b0, src_ext};
        end
    endgenerate
endmodule

`resetall
