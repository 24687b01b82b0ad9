// lcan_switch: one switch of level LEVEL (spec sections 4-9): M_L children with P_DN parallel links
// each (D = M_L*P_DN downers, local ports 0..D-1) and W_UP parents with P_UP parallel links each
// (U = W_UP*P_UP uppers, local ports D..P-1; W_UP = 0 at the top level). The shared path is here:
// the mode block (lcan_switch_circuit, MODE = 0, or lcan_switch_packet, MODE = 1) offers one
// candidate flit per input; lcan_route turns it into a request (broadcasts in packet mode use the
// fixed trees of spec 8.5); lcan_alloc, rotated by lcan_offsets from the lcan_lfsr state, grants
// outputs; the granted candidate is written into the output flit register (in circuit mode, else a
// data flit following an established circuit); counters and the debug view are kept here. Timing:
// every output (tx_*, rx_ret, dbg, counters) is a register or a function of registers only; a flit
// on rx at tick t is on tx as an output of tick t (one register per switch).
`default_nettype none

module lcan_switch #(
    // level of the switch, 1 = next to the leaves
    parameter LEVEL = 1,
    // children (m_l) and parallel links per child (p_l)
    parameter M_L = 2,
    parameter P_DN = 1,
    // parents (w_{l+1}, 0 at the top) and parallel links per parent (p_{l+1})
    parameter W_UP = 1,
    parameter P_UP = 1,
    // packed address width and this level's digit field (spec 2.1)
    parameter ADDR_W = 4,
    parameter DIG_OFF = 0,
    parameter DIG_W = 1,
    // payload bits of a flit (spec 3)
    parameter PAYLOAD_W = 16,
    // packet mode input FIFO depth (spec 8.1)
    parameter DEPTH = 4,
    // 0 circuit switching (spec 7), 1 packet switching (spec 8)
    parameter MODE = 0
) (
    input  wire                                                    clk,
    input  wire                                                    rst,
    input  wire                                                    clear,
    input  wire [31:0]                                             seed,
    // strap inputs, constant per instance (ports, not parameters, so that every switch of a level
    // is one module for simulators; synthesis folds them): the switch label a_h..a_{l+1} as a packed
    // address (fields 1..l are 0) and the LFSR salt (spec 5)
    input  wire [ADDR_W-1:0]                                       label,
    input  wire [31:0]                                             salt,
    // inputs: flits arriving on each local port; rx_ret: ack/credit sent back on them
    input  wire [M_L*P_DN+W_UP*P_UP-1:0]                           rx_valid,
    input  wire [(M_L*P_DN+W_UP*P_UP)*(2+ADDR_W+PAYLOAD_W)-1:0]    rx_flit,
    output wire [M_L*P_DN+W_UP*P_UP-1:0]                           rx_ret,
    // outputs: flits leaving on each local port; tx_ret: ack/credit arriving back on them
    output wire [M_L*P_DN+W_UP*P_UP-1:0]                           tx_valid,
    output wire [(M_L*P_DN+W_UP*P_UP)*(2+ADDR_W+PAYLOAD_W)-1:0]    tx_flit,
    input  wire [M_L*P_DN+W_UP*P_UP-1:0]                           tx_ret,
    // counters (spec 9)
    output wire [31:0]                                             cnt_up,
    output wire [31:0]                                             cnt_down,
    output wire [31:0]                                             cnt_drop,
    // debug view, one byte per local output (spec 9)
    output wire [(M_L*P_DN+W_UP*P_UP)*8-1:0]                       dbg
);
    function integer clog2;
        input integer x;
        integer v;
        begin
            clog2 = 0;
            v = 1;
            while (v < x) begin
                v = v * 2;
                clog2 = clog2 + 1;
            end
        end
    endfunction

    localparam D = M_L * P_DN;
    localparam U = W_UP * P_UP;
    localparam P = D + U;
    localparam FW = 2 + ADDR_W + PAYLOAD_W;
    localparam SW = clog2(P);
    localparam TOP = (U == 0);
    localparam CIRCUIT = (MODE == 0);
    localparam DEST_LSB = PAYLOAD_W;
    localparam BCAST_BIT = PAYLOAD_W + ADDR_W;
    localparam [SW-1:0] D_IDX = D[SW-1:0];

    // parallel link 0 towards every child: the broadcast down set (spec 8.3)
    function [P-1:0] child0_mask;
        input integer m;
        integer c;
        begin
            child0_mask = {P{1'b0}};
            for (c = 0; c < m; c = c + 1)
                child0_mask[c*P_DN] = 1'b1;
        end
    endfunction
    localparam [P-1:0] C0 = child0_mask(M_L);
    localparam [P-1:0] UP0 = {{(P-1){1'b0}}, 1'b1} << D;

    // ---------------------------------------------------------------- randomness (spec 5)
    wire [31:0]   lfsr_state;
    wire [SW-1:0] r_in;
    wire [SW-1:0] r_up;
    wire [SW-1:0] r_dn;
    wire          lfsr_step;

    lcan_lfsr u_lfsr (
        .clk  (clk),
        .rst  (rst),
        .seed (seed),
        .salt (salt),
        .step (lfsr_step),
        .state(lfsr_state)
    );

    lcan_offsets #(
        .P  (P),
        .U  (U),
        .PDN(P_DN),
        .SW (SW),
        .K_IN(clog2(P)),
        .K_UP(clog2(U)),
        .K_DN(clog2(P_DN))
    ) u_offsets (
        .state(lfsr_state),
        .r_in (r_in),
        .r_up (r_up),
        .r_dn (r_dn)
    );

    // ---------------------------------------------------------------- candidates and requests
    wire [P-1:0]    cand_valid;
    wire [P*FW-1:0] cand_flit;
    wire [P-1:0]    avail;
    wire [P*P-1:0]  served;
    wire [P-1:0]    req_all;
    wire [P*P-1:0]  req_want;
    wire [P*SW-1:0] req_start;
    wire [P-1:0]    req_bad;
    wire [P*P-1:0]  grant;
    wire [P-1:0]    granted;
    wire [P-1:0]    consume;

    genvar i;
    generate
        for (i = 0; i < P; i = i + 1) begin : g_req
            localparam IN_UPPER = (i >= D);
            wire [FW-1:0] flit = cand_flit[i*FW +: FW];
            wire          bcast = (CIRCUIT == 0) & flit[BCAST_BIT];
            wire          rt_up;
            wire          rt_bad;
            wire [P-1:0]  rt_want;
            wire [SW-1:0] rt_start;

            lcan_route #(
                .ADDR_W  (ADDR_W),
                .DIG_OFF (DIG_OFF),
                .DIG_W   (DIG_W),
                .M_L     (M_L),
                .P_DN    (P_DN),
                .U       (U),
                .SW      (SW),
                .IN_UPPER(IN_UPPER)
            ) u_route (
                .dest (flit[DEST_LSB +: ADDR_W]),
                .label(label),
                .r_up (r_up),
                .r_dn (r_dn),
                .up   (rt_up),
                .bad  (rt_bad),
                .want (rt_want),
                .start(rt_start)
            );

            if (IN_UPPER || TOP) begin : g_bc_all
                // broadcast descending: ALL to link 0 of every child not yet served
                assign req_all[i] = bcast;
                assign req_want[i*P +: P] = bcast ? (C0 & ~served[i*P +: P]) : rt_want;
                assign req_start[i*SW +: SW] = bcast ? {SW{1'b0}} : rt_start;
            end else begin : g_bc_one
                // broadcast climbing: ONE to upper 0 (parent choice 0, link 0)
                assign req_all[i] = 1'b0;
                assign req_want[i*P +: P] = bcast ? UP0 : rt_want;
                assign req_start[i*SW +: SW] = bcast ? D_IDX : rt_start;
            end
            assign req_bad[i] = ~bcast & rt_bad;

            assign granted[i] = |grant[i*P +: P];
            // packet mode: the candidate leaves the input (spec 8.3 step 5)
            assign consume[i] = cand_valid[i] &
                (req_bad[i] | (req_all[i] ?
                    (((served[i*P +: P] | grant[i*P +: P]) & C0) == C0) : granted[i]));

            // only route's up decision is folded into want; it is not needed on its own
            wire unused_ok = &{1'b0, rt_up};
        end
    endgenerate

    lcan_alloc #(
        .P (P),
        .SW(SW)
    ) u_alloc (
        .req_valid(cand_valid),
        .req_all  (req_all),
        .req_want (req_want),
        .req_start(req_start),
        .r_in     (r_in),
        .avail    (avail),
        .grant    (grant)
    );

    // the LFSR steps iff the allocator has a request (circuit: not on clear ticks)
    assign lfsr_step = (|cand_valid) & ~(CIRCUIT & clear);

    // ---------------------------------------------------------------- outputs
    wire [P-1:0]    data_wr;
    wire [P*FW-1:0] data_flit;
    reg  [P-1:0]    wr;
    reg  [P*FW-1:0] hdr_flit;
    reg  [P-1:0]    tx_valid_q, tx_valid_d;
    reg  [P*FW-1:0] tx_flit_q, tx_flit_d;
    integer         gi, go;

    // transpose the grants: which output is written, with which candidate
    always @* begin
        wr = {P{1'b0}};
        for (go = 0; go < P; go = go + 1) begin
            hdr_flit[go*FW +: FW] = {FW{1'b0}};
            for (gi = 0; gi < P; gi = gi + 1)
                if (grant[gi*P + go]) begin
                    wr[go] = 1'b1;
                    hdr_flit[go*FW +: FW] = hdr_flit[go*FW +: FW] | cand_flit[gi*FW +: FW];
                end
        end
    end

    always @* begin
        tx_valid_d = wr | data_wr;
        if (rst || (CIRCUIT && clear))
            tx_valid_d = {P{1'b0}};
        for (go = 0; go < P; go = go + 1) begin
            tx_flit_d[go*FW +: FW] = wr[go] ? hdr_flit[go*FW +: FW] :
                                     data_wr[go] ? data_flit[go*FW +: FW] : {FW{1'b0}};
            if (rst || (CIRCUIT && clear))
                tx_flit_d[go*FW +: FW] = {FW{1'b0}};
        end
    end

    always @(posedge clk) begin
        tx_valid_q <= tx_valid_d;
        tx_flit_q <= tx_flit_d;
    end

    assign tx_valid = tx_valid_q;
    assign tx_flit = tx_flit_q;

    // ---------------------------------------------------------------- counters (spec 9)
    reg [31:0] cnt_up_q, cnt_up_d;
    reg [31:0] cnt_down_q, cnt_down_d;
    reg [31:0] cnt_drop_q, cnt_drop_d;
    reg [31:0] n_up, n_down, n_drop;

    always @* begin
        n_up = 32'd0;
        n_down = 32'd0;
        n_drop = 32'd0;
        for (go = 0; go < P; go = go + 1) begin
            if (wr[go] && go >= D)
                n_up = n_up + 32'd1;
            if (wr[go] && go < D)
                n_down = n_down + 32'd1;
            if (CIRCUIT && cand_valid[go] && !granted[go])
                n_drop = n_drop + 32'd1;
        end
        cnt_up_d = cnt_up_q + n_up;
        cnt_down_d = cnt_down_q + n_down;
        cnt_drop_d = cnt_drop_q + n_drop;
        if (CIRCUIT && clear) begin
            cnt_up_d = cnt_up_q;
            cnt_down_d = cnt_down_q;
            cnt_drop_d = cnt_drop_q;
        end
        if (rst) begin
            cnt_up_d = 32'd0;
            cnt_down_d = 32'd0;
            cnt_drop_d = 32'd0;
        end
    end

    always @(posedge clk) begin
        cnt_up_q <= cnt_up_d;
        cnt_down_q <= cnt_down_d;
        cnt_drop_q <= cnt_drop_d;
    end

    assign cnt_up = cnt_up_q;
    assign cnt_down = cnt_down_q;
    assign cnt_drop = cnt_drop_q;

    // ---------------------------------------------------------------- mode-specific state
    generate
        if (CIRCUIT) begin : g_circuit
            lcan_switch_circuit #(
                .P   (P),
                .SW  (SW),
                .FW  (FW)
            ) u_circuit (
                .clk       (clk),
                .rst       (rst),
                .clear     (clear),
                .rx_valid  (rx_valid),
                .rx_flit   (rx_flit),
                .rx_ret    (rx_ret),
                .tx_ret    (tx_ret),
                .grant     (grant),
                .cand_valid(cand_valid),
                .cand_flit (cand_flit),
                .avail     (avail),
                .data_wr   (data_wr),
                .data_flit (data_flit),
                .dbg       (dbg)
            );
            for (i = 0; i < P; i = i + 1) begin : g_served
                assign served[i*P +: P] = {P{1'b0}};
            end
            wire unused_ok = &{1'b0, consume, req_bad};
        end else begin : g_packet
            lcan_switch_packet #(
                .P     (P),
                .D     (D),
                .FW    (FW),
                .DEPTH (DEPTH),
                .LEAF  (LEVEL == 1),
                .MASK  (C0),
                .AW    ((clog2(DEPTH) < 1) ? 1 : clog2(DEPTH)),
                .CW    (clog2(DEPTH + 1))
            ) u_packet (
                .clk       (clk),
                .rst       (rst),
                .rx_valid  (rx_valid),
                .rx_flit   (rx_flit),
                .rx_ret    (rx_ret),
                .tx_ret    (tx_ret),
                .wr        (wr),
                .grant     (grant),
                .consume   (consume),
                .cand_valid(cand_valid),
                .cand_flit (cand_flit),
                .served    (served),
                .avail     (avail),
                .dbg       (dbg)
            );
            assign data_wr = {P{1'b0}};
            for (i = 0; i < P; i = i + 1) begin : g_data
                assign data_flit[i*FW +: FW] = {FW{1'b0}};
            end
            wire unused_ok = &{1'b0, clear};
        end
    endgenerate
endmodule

`resetall
