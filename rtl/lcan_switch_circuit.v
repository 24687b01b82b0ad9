// lcan_switch_circuit: the circuit-mode state of one switch (spec 7): per output o the crosspoint
// set_o / src_o, per input the ack-out register. It offers every valid header (head = 1) on an
// input as the input's candidate; avail_o = ~set_o. From the allocator's grants it sets up the new
// crosspoints; a valid data flit (head = 0) on input i is copied to every output o with set_o = 1
// and src_o = i: data_sel[o*P + i] selects it in lcan_switch's one crossbar per output, which
// headers share (data_wr[o] = |data_sel[o*P +: P]); with BIN = 1 (lcan_switch: up to 4 ports) the
// crossbar is built here instead, one binary lcan_xbar_col per output selected by src_o or the
// allocator's winner out_src_o (xbar). The ack
// register of input i becomes the OR of the acks arriving on the outputs connected to it. Reset and
// clear zero set, src and acks. Timing: set/src/ack are registers; rx_ret and dbg come from them;
// cand_*, avail, data_*, xbar are combinational from rx, the allocator's result and the registers.
`default_nettype none

module lcan_switch_circuit #(
    // local ports of the switch
    parameter P = 4,
    // width of a local port index (<= 7)
    parameter SW = 2,
    // flit width without valid (spec 3)
    parameter FW = 8,
    // 1: the crossbar is built here, binary (xbar; data_sel unused); 2: the same, src_o loaded with
    // o's column select every tick, no reset (read only where set_o = 1; OBSERVE = 0); 3 (lcan_switch
    // C22): as 2, xbar not zeroed where o is not written, out_valid_o = o has a requester (set_o |=
    // it), out_src_o the winner ungated (select set_o ? src_o : it); 0: AND-OR crossbar reads data_sel
    parameter BIN = 0,
    // downers (ports 0..D-1)
    parameter D = P
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
    // the allocator's result per output (a header from input out_src_o), for the binary crossbar
    input  wire [P-1:0]    out_valid,
    input  wire [P*SW-1:0] out_src,
    // BIN = 1: the next value of every output flit register (0 when o is not written)
    output wire [P*FW-1:0] xbar,
    output wire [P*8-1:0]  dbg
);
    localparam HEAD_BIT = FW - 1;

    function integer sc_clog2;
        input integer x;
        integer v;
        begin
            sc_clog2 = 0;
            v = 1;
            while (v < x) begin
                v = v * 2;
                sc_clog2 = sc_clog2 + 1;
            end
        end
    endfunction

    // An upper output's src is a downer (class UP is asked by downers only), so from reset its bits
    // from clog2(D) up are 0: with BIN = 1 omask(o) keeps the others, and the compares, the select
    // and src_d of an upper output read and write those only (their registers are constant 0).
    // Equal from reset, not from every state (scripts/prove-switch.sh proves the circuit shapes
    // with BOUND). Not with BIN = 0 (the AND-OR crossbar, above 4 ports): measured there, the (4,4)
    // switch pinned without observation grows, 1249 -> 1322 LUT.
    localparam DSW = (sc_clog2(D) < 1) ? 1 : sc_clog2(D);
    localparam [SW-1:0] UMASK = (DSW >= SW || BIN == 0) ? {SW{1'b1}} : ((1 << DSW) - 1);
    function [SW-1:0] omask;
        input integer oo;
        begin
            omask = (oo < D) ? {SW{1'b1}} : UMASK;
        end
    endfunction

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
                if ((src_q[o*SW +: SW] & omask(o)) == i[SW-1:0]) begin
                    data_sel_r[o*P + i] = set_q[o] & rx_valid[i] & ~rx_head[i];
                    data_wr_r[o] = data_sel_r[o*P + i];
                end
            end
        end
    end
    assign data_wr = data_wr_r;
    assign data_sel = data_sel_r;

    // BIN = 1: output o's column as a binary multiplexer (lcan_xbar_col), select src_o when set_o
    // (data) else the allocator's winner out_src_o (a header; out_src_o is 0 when o is set, since
    // avail_o = 0 then), 0 when o is not written. A downer output selects among all P inputs, an
    // upper output among the D downers only: a header reaches an upper only from a downer (class
    // UP is asked by downers), so from reset src_o < D on every upper output. (The AND-OR crossbar
    // of BIN = 0 would still copy an upper input's data to an upper output in a state with
    // src_o >= D, which reset never reaches: the two are equal from reset, not from every state,
    // so scripts/prove-switch.sh proves the circuit shapes with BOUND.) Measured: docs/synthesis.md
    // 1's (2,2) circuit switch, pinned, no observation, 201 -> 181 LUT.
    genvar gx;
    // BIN = 1: the columns' selects (SRC_SEL: src_q's next value)
    wire [P*SW-1:0] bsel;
    generate
        if (BIN != 0) begin : g_bin
            for (gx = 0; gx < P; gx = gx + 1) begin : g_col
                localparam K = (gx < D) ? P : D;
                wire [SW-1:0] s = ((BIN == 3) ? (set_q[gx] ? src_q[gx*SW +: SW] : out_src[gx*SW +: SW]) :
                                  ((src_q[gx*SW +: SW] & {SW{set_q[gx]}}) | out_src[gx*SW +: SW])) & omask(gx);
                assign bsel[gx*SW +: SW] = s;
                wire          w = out_valid[gx] | data_wr_r[gx];
                wire [FW-1:0] col;
                lcan_xbar_col #(
                    .K (K),
                    .SW(SW),
                    .W (FW)
                ) u_col (
                    .sel    (s),
                    .flit_in(rx_flit[0 +: K*FW]),
                    .flit   (col)
                );
                assign xbar[gx*FW +: FW] = (BIN == 3) ? col : w ? col : {FW{1'b0}};
            end
        end else begin : g_nbin
            assign xbar = {(P*FW){1'b0}};
            assign bsel = {(P*SW){1'b0}};
            wire unused_bin = &{1'b0, out_valid, out_src};
        end
    endgenerate

    // new crosspoints from the grants; acks ORed back over the existing crosspoints
    always @* begin
        set_d = set_q;
        src_d = src_q;
        ack_d = {P{1'b0}};
        for (o = 0; o < P; o = o + 1)
            for (i = 0; i < P; i = i + 1) begin
                if (grant[i*P + o]) begin
                    set_d[o] = 1'b1;
                    src_d[o*SW +: SW] = i[SW-1:0] & omask(o);
                end
                if (set_q[o] && (src_q[o*SW +: SW] & omask(o)) == i[SW-1:0] && tx_ret[o])
                    ack_d[i] = 1'b1;
            end
    end

    // (reset and clear are applied here, not in the next-state logic: see lcan_switch's header)
    // src: with SRC_FREE, the column select on every tick, no reset: it is src_d wherever set_d = 1
    // (set: src; granted: the winner) and is read only where set = 1, so the outputs are as with
    // src_d. The select is then a register input, which keeps it one net in front of the binary
    // columns (measured: docs/synthesis.md 23). Otherwise reset and clear zero it (the debug view
    // shows it).
    localparam SRC_FREE = (BIN >= 2);
    generate
        if (SRC_FREE) begin : g_src_sel
            always @(posedge clk) begin
                if (rst || clear) begin
                    set_q <= {P{1'b0}};
                    ack_q <= {P{1'b0}};
                end else begin
                    set_q <= (BIN == 3) ? (set_q | out_valid) : set_d;
                    ack_q <= ack_d;
                end
                src_q <= bsel;
            end
            wire unused_src_d = &{1'b0, src_d};
        end else begin : g_src_d
            wire unused_bsel = &{1'b0, bsel};
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
        end
    endgenerate

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
