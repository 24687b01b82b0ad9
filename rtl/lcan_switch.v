// lcan_switch: one switch of level LEVEL (spec sections 4-9): M_L children with P_DN parallel links
// each (D = M_L*P_DN downers, local ports 0..D-1) and W_UP parents with P_UP parallel links each
// (U = W_UP*P_UP uppers, local ports D..P-1; W_UP = 0 at the top level). The shared path is here:
// the mode block (lcan_switch_circuit, MODE = 0, or lcan_switch_packet, MODE = 1) offers one
// candidate flit per input; lcan_route turns it into a request (broadcasts in packet mode use the
// fixed trees of spec 8.5, or flood, spec 8.6, when head = 1); lcan_alloc, rotated by
// the offsets of the lcan_lfsr state (rtl/lcan_offsets.vh; with UP_CHOICE = 1 scanning the uppers
// in the order of the permutation sigma, spec 5-6), grants
// outputs; the granted candidate is written into the output flit register (in circuit mode, else a
// data flit following an established circuit); counters and the debug view are kept here. With
// FLOOD_Q > 0 in packet mode (spec 8.7) flooding candidates bypass the allocator: lcan_switch_packet's
// flood queues accept them (they are consumed) and send their copies ahead of the allocator's grants
// (the allocator sees a busy queue's output as unavailable). Timing: every output (tx_*, rx_ret,
// dbg, counters) is a register or a function of registers only; a flit on rx at tick t is on tx as
// an output of tick t (one register per switch). Reset (and circuit mode's clear) acts in the register
// blocks, not in the next-state logic, here and in the cells below: the next-state logic then reads
// no signal a testbench drives, and Verilator (which re-evaluates the logic reading testbench
// signals at every time step) evaluates it once per cycle, not twice (docs/verification.md 6). The
// offsets and sigma are computed inside the register block from the value the LFSR loads.
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
    parameter MODE = 0,
    // 1: counters and debug view (spec 9); 0: both outputs are constant 0 and their logic is left
    // out (synthesis of a network that does not need them)
    parameter OBSERVE = 1,
    // width of the event counters (spec 9: 32; 8..32 for synthesis), zero-extended on cnt_*
    parameter CNT_W = 32,
    // which upper a class UP request gets (spec 6): 1 uniform (sigma order), 0 rotate (from r_up)
    parameter UP_CHOICE = 1,
    // 1: faults (spec 14): reach rows, off ports masked, unroutable candidates dropped, the general
    // greedy allocator lcan_alloc_chain (class UP requests carry per-request want sets); 0: the
    // fault inputs are ignored and the log-depth lcan_alloc is used
    parameter FAULTS = 0,
    // packet mode: 1..255 = a flood queue of FLOOD_Q flits on link 0 of every child and on upper 0
    // (spec 8.7), and a second debug byte per output (its count q_o); 0 = none (spec 8.3 / 8.6's
    // flooding through the allocator). Ignored in circuit mode.
    parameter FLOOD_Q = 0,
    // packet mode: 1 = unicast traffic only (spec 8.8): the bcast and head bits of a flit are
    // forwarded but not interpreted, so the served masks, ALL requests and the broadcast's
    // consumption rule are not built; lcan_network requires FLOOD_Q = 0 with it. Ignored in
    // circuit mode.
    parameter UNICAST_ONLY = 0,
    // packet mode with DEPTH = 1, or circuit mode, inside a network (lcan_network sets it): 1 = held
    // links. Packet: every input's sender (a switch, or the network's injection register) keeps the
    // data bits of its flit register when it does not write it (the valid bit goes to 0), so the flit
    // it last sent stays on rx until its credit comes back (spec 8.2: one credit); the one-entry FIFO
    // is then that flit, no copy is stored. Both modes: this switch keeps the data bits of its
    // outputs that face a switch (the uppers, and the downers above level 1; a level-1 downer's
    // register is the network's ej, which stays as spec 7.3 / 8.3 say; spec 7.1, 8.1). Same behaviour
    // at every leaf port: the data bits of an invalid internal link are not observable.
    parameter LINK_HOLD = 0,
    // for synthesis where area is short (spec 13): 1 = a packet switch with broadcasts and held links
    // (LINK_HOLD, DEPTH 1), up to 4 ports, without flood queues or faults, takes the forms of the
    // hand-written broadcast floor (tb/floor/lcan_switch22_bcast.v; BFLOOR below): fewer LUTs, a
    // slower clock (docs/synthesis.md 29, 32). The behaviour is the same; 0 (default), or any other
    // configuration: the forms that keep the clock
    parameter AREA_FORMS = 0,
    // a switch specialized to its place (spec 13.1), for synthesis: PIN_STRAPS = 1 takes label, salt
    // and row_base from LABEL_V, SALT_V, ROW_V and ignores those inputs (the route compares and the
    // LFSR's reset value then fold to constants); PIN_SEED = 1 likewise takes the seed from SEED_V.
    // 0 (default): the inputs, so that every switch of a level is one module for simulators
    parameter PIN_STRAPS = 0,
    parameter [31:0] LABEL_V = 32'd0,
    parameter [31:0] SALT_V = 32'd0,
    parameter [31:0] ROW_V = 32'd0,
    parameter PIN_SEED = 0,
    parameter [31:0] SEED_V = 32'd0,
    // 1 (default): in packet mode the offsets and sigma are read from the LFSR state where they are
    // bit fields of it (PLAIN_OFS below); 0: registered everywhere. The behaviour is the same
    // (scripts/prove-plain-offsets.sh); make prove-switch proves the switch with 0 against a revision
    parameter PLAIN_OFFSETS = 1
) (
    input  wire                                                    clk,
    input  wire                                                    rst,
    input  wire                                                    clear,
    // the switch's seed (spec 5: lcan_network's seed hashes rotated by this switch's salt bits);
    // the LFSR loads seed ^ salt on reset
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
    // debug view, one byte per local output (spec 9); packet mode with FLOOD_Q > 0: a second byte
    // per output, q_o at byte P + o (spec 8.7, 13.1)
    output wire [(M_L*P_DN+W_UP*P_UP)*8*(((MODE != 0) && (FLOOD_Q > 0)) ? 2 : 1)-1:0] dbg,
    // faults (spec 14.1-14.3; read only with FAULTS = 1): local port o off; the switch's first
    // reach row (a strap, ROW_OFF(l) + x*U_l); the reach-table write port (row cfg_addr :=
    // cfg_row, RW = 2^ADDR_W bits; with FAULTS = 0 one bit)
    input  wire [M_L*P_DN+W_UP*P_UP-1:0]                           port_off,
    input  wire [31:0]                                             row_base,
    input  wire                                                    cfg_we,
    input  wire [31:0]                                             cfg_addr,
    input  wire [((FAULTS != 0) ? (1 << ADDR_W) : 1)-1:0]          cfg_row
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
    localparam HEAD_BIT = PAYLOAD_W + ADDR_W + 1;
    localparam UPERM_W = (U > 0) ? U * U : 1;
    // faults (spec 14): reach rows of RWS = 2^ADDR_W bits (one constant bit when FAULTS = 0)
    localparam FLT = (FAULTS != 0);
    localparam RWS = FLT ? (1 << ADDR_W) : 1;
    localparam UR = (U > 0) ? U : 1;
    // flood queues (spec 8.7): packet mode only; the debug view doubles
    localparam FQ = !CIRCUIT && (FLOOD_Q > 0);
    localparam DBGW = P * 8 * (FQ ? 2 : 1);

    // straps (spec 13.1): the inputs, or with PIN_STRAPS / PIN_SEED this switch's constants; the
    // inputs a pinned switch does not read are sunk
    wire [ADDR_W-1:0] label_s = (PIN_STRAPS != 0) ? LABEL_V[ADDR_W-1:0] : label;
    wire [31:0]       salt_s = (PIN_STRAPS != 0) ? SALT_V : salt;
    wire [31:0]       row_s = (PIN_STRAPS != 0) ? ROW_V : row_base;
    wire [31:0]       seed_s = (PIN_SEED != 0) ? SEED_V : seed;
    wire unused_pinned = &{1'b0, (PIN_STRAPS != 0) ? {label, salt, row_base} : {(ADDR_W + 64){1'b0}},
                           (PIN_SEED != 0) ? seed : 32'd0};

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
    // upper 0 (below the top): the flooding broadcast's way up (spec 8.6)
    localparam [P-1:0] UP0 = TOP ? {P{1'b0}} : ({{(P-1){1'b0}}, 1'b1} << D);
    // held links (LINK_HOLD; packet mode: every input): the outputs facing a switch (all of them
    // above level 1, else the uppers), in packet mode with DEPTH 1 and in circuit mode (spec 7.1)
    localparam HOLD_ON = (MODE != 0 && DEPTH == 1 && LINK_HOLD != 0);
    localparam [P-1:0] HOLD_IN = HOLD_ON ? {P{1'b1}} : {P{1'b0}};
    localparam [P-1:0] HOLD_OUT = !(HOLD_ON || (MODE == 0 && LINK_HOLD != 0)) ? {P{1'b0}} :
                                  (LEVEL > 1) ? {P{1'b1}} : ~({P{1'b1}} >> (P - D));
    // the broadcast floor's forms (tb/floor/lcan_switch22_bcast.v, docs/synthesis.md 29), with
    // AREA_FORMS = 1: packet switches with broadcasts and held links, up to 4 ports, no flood
    // queues or faults - the kept crossbar columns (PCOL) with an upper's select taken as input 1's
    // grant, lcan_alloc's one-output groups as kept pick units (FLAT_KEEP), the served sets cleared
    // by consume | rst as a synchronous reset (lcan_switch_packet SERVED_RST, and the FIFO counts'
    // reset form: no LATE_POP)
    localparam BFLOOR = AREA_FORMS != 0 && HOLD_ON && UNICAST_ONLY == 0 && (FLOOD_Q == 0) && (FAULTS == 0) && (P <= 4);

    // ---------------------------------------------------------------- randomness (spec 5)
    // The offsets are registered: r_*_q after a tick = offsets(LFSR state after the tick), computed
    // (rtl/lcan_offsets.vh) inside the register block from the value the LFSR loads, rst ? init :
    // stepped, so on every tick they equal spec 5's offsets of the state before the tick's step
    // without an offset computation at the start of the allocator's path (rst is read inside the
    // register blocks only).
    // sigma (UP_CHOICE = 1, U > 1) is drawn one step ahead: up_perm_q = sigma(state) and
    // sig_next_q = sigma(state stepped once). A stepping tick moves sig_next_q into up_perm_q and draws
    // the new sig_next_q from the state stepped twice (lcan_lfsr.state_next2), which does not depend
    // on this tick's requests; a reset tick loads sigma(init) and sigma(init stepped once); other
    // ticks hold both. So up_perm_q is sigma of the LFSR state on every tick, as before, but the
    // requests that decide the step only select between registers (docs/synthesis.md 15).
    localparam OF_P = P;
    localparam OF_U = U;
    localparam OF_PDN = P_DN;
    localparam OF_SW = SW;
    localparam OF_K_IN = clog2(P);
    localparam OF_K_UP = clog2(U);
    localparam OF_K_DN = clog2(P_DN);
    localparam SIGMA = (UP_CHOICE != 0 && U > 1) ? 1 : 0;
    localparam OF_UX = (U > 0) ? U : 1;
    localparam OF_PERM_W = UPERM_W;

    // sigma = the identity (UP_CHOICE = 0 or U <= 1): a constant the allocator does not use
    function [UPERM_W-1:0] identity_perm;
        input integer u;
        integer q;
        begin
            identity_perm = {UPERM_W{1'b1}};
            for (q = 0; q < u * u; q = q + 1)
                identity_perm[q] = (q / u == q % u);
        end
    endfunction
    localparam [UPERM_W-1:0] IDENTITY_PERM = identity_perm(U);

    wire [31:0]        lfsr_state;
    wire [31:0]        lfsr_init;
    wire [31:0]        lfsr_stepped;
    wire [31:0]        lfsr_init_next;
    wire [31:0]        lfsr_state_next2;
    reg  [SW-1:0]      r_in_q;
    reg  [SW-1:0]      r_up_q;
    reg  [SW-1:0]      r_dn_q;
    wire [UPERM_W-1:0] up_perm;
    wire [UPERM_W-1:0] up_perm_r;
    wire [SW-1:0]      r_in_p, r_up_p, r_dn_p;
    wire [UPERM_W-1:0] up_perm_p;
    wire               lfsr_step;

    // Plain offsets (PLAIN_OFS): when P, P_DN and U are powers of two (or 1; or U = 0) every
    // rotation is a bit field of the state (spec 5's reduction never subtracts), and sigma, when
    // drawn, is of U = 2 uppers (a function of one state bit, s[8]). The allocator then reads the
    // offsets and sigma combinationally from the LFSR register (g_plain: lcan_offsets on its state):
    // no logic lies between that register and the allocator, so registering them only adds flip-flops
    // and next-state multiplexers. The registers below are still written (the same values, a tick
    // early) but not read, and synthesis removes them. Measured on the iCE40, (2,2) unicast-only held
    // switch (sw-2-2-w8-packet-noobs-d1-pinned-uni-held, with the allocator and FIFO forms of this
    // revision): 158 LUT / 100 FF plain, 167 LUT / 102 FF registered.
    // In circuit mode with the rank allocator the plain form saved 2 LUT but lengthened the path
    // from the LFSR through the allocator into the crossbar's select (sw-2-2-w8-circuit-noobs-pinned,
    // HX8K, seeds 1 / 2 / 3: 97.5 / 109.8 / 106.0 MHz plain, 112.5 / 108.4 / 116.6 registered); with
    // the pick form there (lcan_alloc PICK_P, up to 4 ports) and lcan_switch_circuit's select-loaded
    // src it is the smaller and not the slower (docs/synthesis.md 23, tb/floor/README.md).
    function pow2;
        input integer x;
        begin
            pow2 = (x >= 1) && ((x & (x - 1)) == 0);
        end
    endfunction
    localparam PLAIN_OFS = (PLAIN_OFFSETS != 0) && pow2(P) && pow2(P_DN) && (U == 0 || pow2(U)) &&
                           (SIGMA == 0 || U == 2);
    wire [SW-1:0]      r_in = PLAIN_OFS ? r_in_p : r_in_q;
    wire [SW-1:0]      r_up = PLAIN_OFS ? r_up_p : r_up_q;
    wire [SW-1:0]      r_dn = PLAIN_OFS ? r_dn_p : r_dn_q;
    assign up_perm = PLAIN_OFS ? up_perm_p : up_perm_r;

    lcan_lfsr u_lfsr (
        .clk        (clk),
        .rst        (rst),
        .seed       (seed_s),
        .salt       (salt_s),
        .step       (lfsr_step),
        .state      (lfsr_state),
        .init       (lfsr_init),
        .stepped    (lfsr_stepped),
        .init_next  (lfsr_init_next),
        .state_next2(lfsr_state_next2)
    );

    // each block below gives the include its own of_state (what it draws from) and OF_SIGMA
    generate
        if (PLAIN_OFS) begin : g_plain
            lcan_offsets #(
                .P        (P),
                .U        (U),
                .PDN      (P_DN),
                .SW       (SW),
                .K_IN     (OF_K_IN),
                .K_UP     (OF_K_UP),
                .K_DN     (OF_K_DN),
                .UP_CHOICE(UP_CHOICE)
            ) u_offsets (
                .state  (lfsr_state),
                .r_in   (r_in_p),
                .r_up   (r_up_p),
                .r_dn   (r_dn_p),
                .up_perm(up_perm_p)
            );
            // (the registered offsets and sigma are not read)
            wire unused_reg = &{1'b0, r_in_q, r_up_q, r_dn_q, up_perm_r};
        end else begin : g_regd
            assign r_in_p = {SW{1'b0}};
            assign r_up_p = {SW{1'b0}};
            assign r_dn_p = {SW{1'b0}};
            assign up_perm_p = {UPERM_W{1'b0}};
        end
        if (1) begin : g_offsets
            localparam OF_SIGMA = 0;
            always @(posedge clk) begin : b_offsets
                reg [31:0] of_state;
                of_state = rst ? lfsr_init : lfsr_stepped;
                begin : b_draw
`include "lcan_offsets.vh"
                    r_in_q <= of_r_in;
                    r_up_q <= of_r_up;
                    r_dn_q <= of_r_dn;
                end
            end
        end
        if (SIGMA != 0) begin : g_sigma
            localparam OF_SIGMA = 1;
            reg [UPERM_W-1:0] up_perm_q;
            reg [UPERM_W-1:0] sig_next_q;
            // three draws on every tick, none under a condition (yosys would keep the temporaries
            // of a conditional draw in flip-flops and put the condition at its input): sigma of
            // init and of init stepped once (what a reset tick loads; constants with a pinned
            // seed) and of the state stepped twice (what a stepping tick loads into sig_next_q)
            always @(posedge clk) begin : b_sigma
                reg [UPERM_W-1:0] sig_init, sig_init_next, sig_ahead;
                begin : b_init
                    reg [31:0] of_state;
                    of_state = lfsr_init;
                    begin : b_draw
`include "lcan_offsets.vh"
                        sig_init = of_perm;
                    end
                end
                begin : b_init_next
                    reg [31:0] of_state;
                    of_state = lfsr_init_next;
                    begin : b_draw
`include "lcan_offsets.vh"
                        sig_init_next = of_perm;
                    end
                end
                begin : b_ahead
                    reg [31:0] of_state;
                    of_state = lfsr_state_next2;
                    begin : b_draw
`include "lcan_offsets.vh"
                        sig_ahead = of_perm;
                    end
                end
                if (rst) begin
                    up_perm_q <= sig_init;
                    sig_next_q <= sig_init_next;
                end else if (lfsr_step) begin
                    up_perm_q <= sig_next_q;
                    sig_next_q <= sig_ahead;
                end
            end
            assign up_perm_r = up_perm_q;
        end else begin : g_identity
            assign up_perm_r = IDENTITY_PERM;
        end
    endgenerate

    // the state itself is read only through the offsets; the states ahead only by sigma
    wire unused_lfsr = &{1'b0, lfsr_state, (SIGMA != 0) ? 64'd0 : {lfsr_init_next, lfsr_state_next2}};

    // ---------------------------------------------------------------- reach rows (spec 14.2)
    // FAULTS = 1 below the top: row j (upper j) holds RW bits, bit a = a header for packed address a
    // may go up through upper j. All ones on reset; on another tick with cfg_we, row row_base + j :=
    // cfg_row, read from the next tick on. Otherwise no rows (reach reads as all ones, unused).
    wire [UR*RWS-1:0] reach;
    genvar rj;
    generate
        if (FLT && U > 0) begin : g_reach
            for (rj = 0; rj < U; rj = rj + 1) begin : g_row
                localparam [31:0] J_C = rj;
                wire          we = cfg_we & (cfg_addr == row_s + J_C);
                reg [RWS-1:0] row_q, row_d;

                always @*
                    row_d = we ? cfg_row : row_q;

                always @(posedge clk)
                    row_q <= rst ? {RWS{1'b1}} : row_d;

                assign reach[rj*RWS +: RWS] = row_q;
            end
        end else begin : g_no_reach
            assign reach = {(UR*RWS){1'b1}};
            wire unused_cfg = &{1'b0, cfg_we, cfg_addr, cfg_row, row_s, reach};
        end
        if (!FLT) begin : g_no_off
            wire unused_off = &{1'b0, port_off};
        end
    endgenerate

    // ---------------------------------------------------------------- candidates and requests
    // lcan_alloc's output groups: child x (x < M_L, links x*P_DN..) and, below the top, the uppers
    localparam G = M_L + (TOP ? 0 : 1);
    // U22: the (2,2) switch (two children of one link, two uppers in sigma order), no faults or flood
    // queues, in packet mode unicast only with held links (HOLD_ON: DEPTH 1, LINK_HOLD), or in
    // circuit mode with LINK_HOLD (C22). Its allocator is written out below (g_u22) in the forms of
    // the hand-written floors tb/floor/lcan_switch22_uni.v / _ckt.v; other configurations build
    // lcan_alloc as before. Measured on the iCE40 (docs/synthesis.md 31, 33): -uni-held 157 -> 147
    // LUT (floor 141), 123.8-126.9 MHz at seeds 1-3; sw-2-2-w8-circuit-noobs-pinned-held: section 33
    localparam U22 = (CIRCUIT ? (LINK_HOLD != 0) : (UNICAST_ONLY != 0) && HOLD_ON) && !FLT && !FQ &&
                     (M_L == 2) && (P_DN == 1) && (U == 2) && (SIGMA != 0);
    // U22's pick: the first bit of q at or after rr (mod 4), one priority chain per rotation value
    function [1:0] pick22;
        input [3:0] q;
        input [1:0] rr;
        begin
            case (rr)
                2'd0: pick22 = q[0] ? 2'd0 : q[1] ? 2'd1 : q[2] ? 2'd2 : 2'd3;
                2'd1: pick22 = q[1] ? 2'd1 : q[2] ? 2'd2 : q[3] ? 2'd3 : 2'd0;
                2'd2: pick22 = q[2] ? 2'd2 : q[3] ? 2'd3 : q[0] ? 2'd0 : 2'd1;
                default: pick22 = q[3] ? 2'd3 : q[0] ? 2'd0 : q[1] ? 2'd1 : 2'd2;
            endcase
        end
    endfunction

    wire [P-1:0]    cand_valid;
    wire [P*FW-1:0] cand_flit;
    wire [P-1:0]    avail;
    wire [P*P-1:0]  served;
    wire [P*G-1:0]  req_cls;
    wire [P*G-1:0]  req_spc;
    wire [P-1:0]    req_all;
    wire [P-1:0]    req_bad;
    wire [P*P-1:0]  grant;
    wire [P-1:0]    granted;
    wire [P-1:0]    consume;
    wire [P-1:0]    out_valid, set_d, ack_q;
    wire [P*SW-1:0] out_src;
    // per output the winner's index when out_valid, any value otherwise (the binary crossbar's
    // select); per input some grant (the OR of its grant row, from the allocator)
    wire [P*SW-1:0] out_idx;
    wire [P-1:0]    gnt_any;
    // FAULTS = 1 (spec 14.3): the general allocator's requests - valid (a request is presented),
    // kind ALL, sigma scan, want set masked by the off ports and the reach rows, scan start - and
    // per candidate: unroutable (a ONE request whose masked want is empty: dropped and counted) and,
    // for ALL, served | grant covering the masked want. All 0 with FAULTS = 0.
    wire [P-1:0]    f_valid;
    wire [P-1:0]    f_all;
    wire [P-1:0]    f_sig;
    wire [P*P-1:0]  f_want;
    wire [P*SW-1:0] f_start;
    wire [P-1:0]    f_drop;
    wire [P-1:0]    f_cover;
    localparam [SW-1:0] D_IDX = D[SW-1:0];
    // FLOOD_Q > 0 (spec 8.7): per input, a flooding candidate (it takes no part in the allocator:
    // rq, the candidates that may request, leaves it out) and its flood set; from lcan_switch_packet,
    // accepted (consumed), and per output: sends its flood queue's head (fl_flit), queue busy. All 0
    // (rq = cand_valid) without flood queues.
    wire [P-1:0]    rq;
    wire [P-1:0]    fl_cand;
    wire [P*P-1:0]  fl_set;
    wire [P-1:0]    fl_accept;
    wire [P-1:0]    fl_send;
    wire [P-1:0]    fl_busy;
    wire [P*FW-1:0] fl_flit;
    // the allocator's consume (spec 8.3 step 5), before the flood queues' acceptance
    wire [P-1:0]    consume_a;
    // the allocator's avail: a busy flood queue's output is not (spec 8.7 step 4)
    wire [P-1:0]    avail_a;
    // an off output is never granted (spec 14.1)
    wire [P-1:0]    avail_m = FLT ? (avail_a & ~port_off) : avail_a;

    generate
        if (FQ) begin : g_avail_fq
            assign avail_a = avail & ~fl_busy;
        end else begin : g_avail
            assign avail_a = avail;
            // without flood queues nothing is accepted (consume is the allocator's)
            wire unused_fq = &{1'b0, fl_busy, fl_accept};
        end
    endgenerate

    genvar i, c;
    generate
        for (i = 0; i < P; i = i + 1) begin : g_req
            localparam IN_UPPER = (i >= D);
            wire [FW-1:0] flit = cand_flit[i*FW +: FW];
            wire          bcast = (CIRCUIT == 0) & (UNICAST_ONLY == 0) & flit[BCAST_BIT];
            wire          uni = cand_valid[i] & ~bcast;
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
                .label(label_s),
                .r_up (r_up),
                .r_dn (r_dn),
                .up   (rt_up),
                .bad  (rt_bad),
                .want (rt_want),
                .start(rt_start)
            );

            // unicast: the class of spec 4, DOWN(x) read off route's want (link 0 of child x), UP
            for (c = 0; c < M_L; c = c + 1) begin : g_cls
                assign req_cls[i*G + c] = uni & rt_want[c*P_DN];
            end
            // flooding broadcast (spec 8.6): head = 1 on a broadcast; arriving on a downer of child
            // CI it goes to every other child and, below the top, up through upper 0
            localparam CI = i / P_DN;
            localparam [P-1:0] OWN = IN_UPPER ? {P{1'b0}} : ({{(P-1){1'b0}}, 1'b1} << (CI * P_DN));
            localparam [P-1:0] WANT_FLOOD = IN_UPPER ? C0 : ((C0 & ~OWN) | UP0);
            wire          flood = bcast & flit[HEAD_BIT];
            if (FQ) begin : g_fq
                // spec 8.7 step 2: the flood set is 8.3's flooding want set minus the off ports
                // (FAULTS = 1), without served_i; the candidate makes no request
                wire [P-1:0] on_f = FLT ? ~port_off : {P{1'b1}};
                assign fl_cand[i] = cand_valid[i] & flood;
                assign fl_set[i*P +: P] = fl_cand[i] ? (WANT_FLOOD & on_f) : {P{1'b0}};
                assign rq[i] = cand_valid[i] & ~flood;
            end else begin : g_nfq
                assign fl_cand[i] = 1'b0;
                assign fl_set[i*P +: P] = {P{1'b0}};
                assign rq[i] = cand_valid[i];
            end
            if (IN_UPPER || TOP) begin : g_bc_all
                // broadcast descending: ALL to link 0 of every child not yet served (flooding from
                // a child at the top: every other child)
                assign req_all[i] = bcast;
                for (c = 0; c < M_L; c = c + 1) begin : g_spc
                    assign req_spc[i*G + c] = rq[i] & bcast & ~served[i*P + c*P_DN] &
                                              ~(flood & OWN[c*P_DN]);
                end
                if (!TOP) begin : g_up
                    assign req_cls[i*G + M_L] = uni & rt_up;
                    assign req_spc[i*G + M_L] = 1'b0;
                end
            end else begin : g_bc_one
                // broadcast climbing: tree, ONE to upper 0 (parent choice 0, link 0); flooding, ALL
                // to upper 0 and link 0 of every other child not yet served
                assign req_all[i] = flood;
                for (c = 0; c < M_L; c = c + 1) begin : g_spc
                    assign req_spc[i*G + c] = rq[i] & flood & ~OWN[c*P_DN] &
                                              ~served[i*P + c*P_DN];
                end
                assign req_cls[i*G + M_L] = uni & rt_up;
                assign req_spc[i*G + M_L] = rq[i] & bcast & ~served[i*P + D];
            end
            assign req_bad[i] = ~bcast & rt_bad;
            // an ALL request's want set: link 0 of every child, or the flooding set
            wire [P-1:0] want_all = flood ? WANT_FLOOD : C0;

            if (FLT) begin : g_f
                wire [P-1:0] on = ~port_off;
                // class UP: the uppers whose reach row has the destination's bit set
                wire [P-1:0] reach_mask;
                if (!IN_UPPER && !TOP) begin : g_rm
                    for (c = 0; c < U; c = c + 1) begin : g_up
                        wire [RWS-1:0] row = reach[c*RWS +: RWS];
                        assign reach_mask[D + c] = row[flit[DEST_LSB +: ADDR_W]];
                    end
                    assign reach_mask[D-1:0] = {D{1'b1}};
                end else begin : g_rm1
                    // never class UP: arriving from a parent, or at the top
                    assign reach_mask = {P{1'b1}};
                end
                wire [P-1:0] fw = req_all[i] ? (want_all & ~served[i*P +: P] & on) :
                                  bcast ? (UP0 & on) : (rt_want & reach_mask & on);
                wire         empty = ~(|fw);
                assign f_want[i*P +: P] = fw;
                assign f_all[i] = req_all[i];
                assign f_sig[i] = (UP_CHOICE != 0 && U > 1) & uni & rt_up;
                assign f_start[i*SW +: SW] = bcast ? D_IDX : rt_start;
                assign f_drop[i] = cand_valid[i] & ~req_all[i] & empty;
                // circuit: every header is a request (spec 7.2); packet: an unroutable ONE or an
                // ALL with nothing left to copy makes no request (spec 14.3)
                assign f_valid[i] = rq[i] & (CIRCUIT ? 1'b1 : ~empty);
                assign f_cover[i] = (((served[i*P +: P] | grant[i*P +: P]) & want_all & on) ==
                                     (want_all & on));
            end else begin : g_nf
                assign f_want[i*P +: P] = {P{1'b0}};
                assign f_all[i] = 1'b0;
                assign f_sig[i] = 1'b0;
                assign f_start[i*SW +: SW] = {SW{1'b0}};
                assign f_drop[i] = 1'b0;
                assign f_valid[i] = 1'b0;
                assign f_cover[i] = 1'b0;
            end

            assign granted[i] = gnt_any[i];
            // packet mode: the candidate leaves the input (spec 8.3 step 5)
            // (ALL: served and this tick's grants cover the want set, C0 or the flooding set)
            // (FAULTS = 1: an unroutable ONE is consumed, an ALL when the masked want is covered)
            if (FLT || U22) begin : g_cons_o
                // (one branch with the faults form, as g_own below)
                if (FLT) begin : g_cons_f
                    assign consume_a[i] = cand_valid[i] & (f_drop[i] | (req_all[i] ? f_cover[i] : granted[i]));
                end else begin : g_cons_u22
                    // (a grant is a request's, which a valid candidate makes: consume without the
                    // valid bit, the floor's form)
                    assign consume_a[i] = (cand_valid[i] & req_bad[i]) | granted[i];
                    wire unused_all = &{1'b0, req_all[i], want_all};
                end
            end else begin : g_cons
                assign consume_a[i] = cand_valid[i] &
                    (req_bad[i] | (req_all[i] ?
                        (((served[i*P +: P] | grant[i*P +: P]) & want_all) == want_all) : granted[i]));
            end
            // spec 8.7 step 2: a flooding candidate is consumed when its flood queues accept it
            if (FQ) begin : g_cons_fq
                assign consume[i] = fl_cand[i] ? fl_accept[i] : consume_a[i];
            end else begin : g_cons_a
                assign consume[i] = consume_a[i];
            end

            // route's want is read at link 0 of each child only; its start is lcan_alloc's job
            wire unused_ok = &{1'b0, rt_up, rt_want, rt_start};
        end
    endgenerate

    generate
        if (FLT || U22) begin : g_own
            // the allocators written here rather than in lcan_alloc: the general chain with faults,
            // and U22's forms (one branch of this generate with the chain's, so that every other
            // configuration's g_log elaborates exactly as before: an `else if` before it renamed
            // cells and moved ABC's results, docs/synthesis.md 31)
            if (FLT) begin : g_chain
                // class UP requests carry per-request want sets (the reach rows): the general greedy
                // chain of spec 6, with the sigma scan for class UP under UP_CHOICE = 1
                lcan_alloc_chain #(
                    .P (P),
                    .SW(SW),
                    .U (U)
                ) u_alloc (
                    .req_valid(f_valid),
                    .req_sig  (f_sig),
                    .up_perm  (up_perm),
                    .req_all  (f_all),
                    .req_want (f_want),
                    .req_start(f_start),
                    .r_in     (r_in),
                    .avail    (avail_m),
                    .grant    (grant)
                );
                // per output: any grant, and the granted input's index (for the binary crossbar)
                reg [P-1:0]    ov;
                reg [P*SW-1:0] os;
                integer        ci, co;
                always @* begin
                    for (co = 0; co < P; co = co + 1) begin
                        ov[co] = 1'b0;
                        os[co*SW +: SW] = {SW{1'b0}};
                        for (ci = 0; ci < P; ci = ci + 1) begin
                            ov[co] = ov[co] | grant[ci*P + co];
                            if (grant[ci*P + co])
                                os[co*SW +: SW] = os[co*SW +: SW] | ci[SW-1:0];
                        end
                    end
                end
                assign out_valid = ov;
                assign out_src = os;
                assign out_idx = os;
                for (i = 0; i < P; i = i + 1) begin : g_gnt
                    assign gnt_any[i] = |grant[i*P +: P];
                end
                // the class / broadcast-set requests are the log-depth allocator's
                wire unused_cls = &{1'b0, req_cls, req_spc, r_up, r_dn};
            end else begin : g_u22
                // the (2,2) unicast-only switch with held links (U22, above): the allocator written as
                // tb/floor/lcan_switch22_uni.v writes it, in place of lcan_alloc (whose PICK_P / PICK_U
                // forms compute the same grants and indices, docs/synthesis.md 22-23; proven equal by
                // scripts/prove-switch.sh's packet-d1-uni-held shapes). Only the downers request an
                // upper (spec 4); q0 / q1 the DOWN(0) / DOWN(1) requesters, u the UP ones
                wire [P-1:0] q0, q1;
                wire [1:0]   u;
                for (i = 0; i < P; i = i + 1) begin : g_q
                    assign q0[i] = req_cls[i*G];
                    assign q1[i] = req_cls[i*G + 1];
                end
                assign u = {req_cls[G + 2], req_cls[2]};
                // each child output: the first requester at or after r_in (mod 4), one priority chain
                // per rotation value (w any value without a requester: the output is not written)
                wire [1:0] w0 = pick22(q0, r_in);
                wire [1:0] w1 = pick22(q1, r_in);
                wire       wr0 = avail_a[0] & (|q0);
                wire       wr1 = avail_a[1] & (|q1);
                // the uppers in sigma order: upper 0 (port 2) first iff up_perm[0] (virtual output 0
                // is physical upper 0); f: input 1 precedes input 0 in the rotated order (r_in = 1).
                // An upper is written when it is free, an UP requester exists, and it is the first
                // free upper or both downers request; it takes the first requester in rotated order
                // when it is the first free upper, the second when both request and it is not
                wire       f = ~r_in[1] & r_in[0];
                wire       both = u[0] & u[1];
                wire       any = u[0] | u[1];
                wire       first2 = up_perm[0] | ~avail_a[3];
                wire       first3 = ~up_perm[0] | ~avail_a[2];
                wire       wr2 = avail_a[2] & any & (both | first2);
                wire       wr3 = avail_a[3] & any & (both | first3);
                wire       src2 = both ? ~(first2 ^ f) : u[1];
                wire       src3 = both ? ~(first3 ^ f) : u[1];
                // the UP requesters' grants from the allocation rule: a requester gets an upper when
                // one is free and it comes first, or both are free
                wire       a23 = avail_a[2] & avail_a[3];
                wire       a_any = avail_a[2] | avail_a[3];
                wire [1:0] gu = {u[1] & a_any & (~u[0] | f | a23), u[0] & a_any & (~u[1] | ~f | a23)};
                // en: written or reset, the floor's form: every reader of out_valid (tx_valid, the flit
                // registers' enable, the credits, the write events) and of gnt_any (consume: rx_ret,
                // the FIFO counts, the served sets) is a register reset on a reset tick, whatever it
                // reads then; the flit registers' enable is rst | wr in any case
                wire [P-1:0] en = {wr3, wr2, wr1, wr0} | {P{CIRCUIT ? 1'b0 : rst}};
                wire [P-1:0] g0 = {P{en[0]}} & ({{(P-1){1'b0}}, 1'b1} << w0);
                wire [P-1:0] g1 = {P{en[1]}} & ({{(P-1){1'b0}}, 1'b1} << w1);
                wire [P-1:0] g2 = wr2 ? (src2 ? 4'b0010 : 4'b0001) : {P{1'b0}};
                wire [P-1:0] g3 = wr3 ? (src3 ? 4'b0010 : 4'b0001) : {P{1'b0}};
                for (i = 0; i < P; i = i + 1) begin : g_t
                    assign grant[i*P +: P] = {g3[i], g2[i], g1[i], g0[i]};
                end
                assign out_valid = en;
                assign out_idx = {1'b0, src3, 1'b0, src2, w1, w0};
                assign out_src = {1'b0, wr3 & src3, 1'b0, wr2 & src2, w1 & {2{wr1}}, w0 & {2{wr0}}};
                assign gnt_any = g0 | g1 | {2'b00, gu} | {P{rst}};
                wire unused_f = &{1'b0, f_valid, f_all, f_sig, f_want, f_start, f_drop, f_cover, avail_m,
                                  req_spc, r_up, r_dn, up_perm, req_cls};
            end
        end else begin : g_log
            // the pick form of the one-output groups (lcan_alloc PICK_P): unicast-only packet
            // switches of up to 4 ports. Measured on the iCE40 (LUT, with out_idx / req_gnt, before
            // the one-entry FIFO form): sw-2-2-w8-packet-noobs-d1-pinned-uni-held 164 with it, 166
            // without; with broadcasts it is larger (-held 257 against 253, -pinned 340 against 305:
            // the broadcast's claim on output 0 still needs the ranks), and so is the (4,4) unicast
            // switch (P = 8: 968 against 891). Circuit mode has no broadcasts: the pick form up to 4
            // ports there too (sw-2-2-w8-circuit-noobs-pinned, docs/synthesis.md 23; 0 above 4 ports,
            // where it has no effect, so that those switches' cells stay the same modules)
            localparam PICK_P = ((CIRCUIT && P <= 4) || (!CIRCUIT && UNICAST_ONLY != 0)) ? 4 : 0;
            // the flat forms (lcan_alloc FLAT_P) in packet switches with broadcasts: up to 4 ports
            // (one-output groups and two uppers, docs/synthesis.md 23.1), and up to 8 ports for the
            // one-output groups and more than two uppers (g_flatu). Measured on the iCE40 (SYNTH_ECP5=0
            // SYNTH_SEED=S scripts/synth/run-one.sh NAME OUT, seeds 1 / 2 / 3):
            // sw-4-4-w8-packet-noobs-d1-pinned-held 1,284 LUT, 50.0 / 49.7 / 49.2 MHz with 4, 1,480 LUT,
            // 63.6 / 64.0 / 66.3 MHz with 8; -pinned (not held) 1,536 LUT, 46.9 / 51.2 / 46.4 MHz ->
            // 1,690 LUT, 58.5 / 59.6 / 58.5 MHz; sw-2-4-w8-packet 1,223 -> 1,217 LUT, 52.2 -> 69.2 MHz
            // (seed 1). Not with two uppers above 4 ports (the (4,2) switch): there g_flat2 would
            // read a registered sigma (PLAIN_OFS needs P a power of two), which it equals the rank
            // form for only when sigma is a permutation (prove-switch's induction would start from
            // any up_perm_q); sw-4-2-w8-packet measured 1,525 -> 1,483 LUT, 42.3 -> 54.0 MHz with 8
            localparam FLAT_P = (!CIRCUIT && UNICAST_ONLY == 0) ? ((P <= 4 || U == 2) ? 4 : 8) : 0;
            // and the two uppers' pick form (lcan_alloc PICK_U) where the inputs are held links
            // (LINK_HOLD, packet mode). Measured on the iCE40 (LUT): sw-2-2-w8-packet-noobs-d1-pinned-uni-held
            // 158 -> 156, lcan-2-2-16-w8-packet-noobs-d1-pinned-uni-ce8 4,851 -> 4,749; without
            // held inputs larger (sw-2-2-w8-packet-noobs-d1-pinned-uni 240 -> 249)
            localparam PICK_U = HOLD_ON ? PICK_P : 0;
            // BFLOOR switches: the flat form's one-output groups as kept pick units (lcan_alloc
            // FLAT_KEEP, lcan_flat_pick), docs/synthesis.md 29
            lcan_alloc #(
                .M  (M_L),
                .PDN(P_DN),
                .U  (U),
                .SW (SW),
                .UP_CHOICE(UP_CHOICE),
                .PICK_P   (PICK_P),
                .FLAT_P   (FLAT_P),
                .PICK_U   (PICK_U),
                .FLAT_KEEP(BFLOOR ? 1 : 0)
            ) u_alloc (
                .req_cls  (req_cls),
                .req_spc  (req_spc),
                .r_in     (r_in),
                .r_up     (r_up),
                .r_dn     (r_dn),
                .avail    (avail_a),
                .up_perm  (up_perm),
                .grant    (grant),
                .out_valid(out_valid),
                .out_src  (out_src),
                .out_idx  (out_idx),
                .req_gnt  (gnt_any)
            );
            wire unused_f = &{1'b0, f_valid, f_all, f_sig, f_want, f_start, f_drop, f_cover, avail_m};
        end
    endgenerate

    // the LFSR steps iff the allocator has a request (circuit: not on clear ticks)
    // (packet mode: a candidate that makes no request - section 4's impossible digit, 14.3's
    // unroutable ONE or empty ALL - does not step it, spec 5 / 8.3)
    generate
        if (CIRCUIT) begin : g_step_c
            assign lfsr_step = (|cand_valid) & ~clear;
        end else if (FLT) begin : g_step_f
            assign lfsr_step = |f_valid;
        end else begin : g_step_p
            // (FLOOD_Q > 0: flooding candidates are not requests, spec 8.7 step 5)
            assign lfsr_step = |(rq & ~req_bad);
        end
    endgenerate

    // ---------------------------------------------------------------- outputs: one crossbar
    // xsel, output o's column: the allocator's grant (a header, or a packet-mode flit) or, in circuit
    // mode, data_sel (the data flit following output o's circuit), or, with flood queues, the
    // queue's head; never two on one output (spec 7.2: a header needs set_o = 0, data needs set_o =
    // 1; spec 8.7: the allocator does not see an output whose queue is busy). One multiplexer per
    // output.
    wire [P-1:0]    wr = out_valid | fl_send;
    wire [P*P-1:0]  data_sel;
    wire [P-1:0]    data_wr;
    // Circuit mode up to CBIN_MAX ports: lcan_switch_circuit builds the crossbar instead (c_xbar),
    // one binary column per output (lcan_xbar_col) selected by src_o or the allocator's winner,
    // zeroed through the flit register's reset when o is not written. Measured on the iCE40
    // (SYNTH_ECP5=0 scripts/synth/run-one.sh NAME OUT): the (2,2) switch pinned without
    // observation 201 -> 181 LUT, 114.8 -> 116.6 MHz; above 4 ports the AND-OR form below stays
    // (docs/synthesis.md 16: binary columns made the (4,4) switch 80.6 -> 64.8 MHz and the (8,8)
    // larger).
    localparam CBIN_MAX = 4;
    localparam CBIN = CIRCUIT && (P <= CBIN_MAX);
    wire [P*FW-1:0] c_xbar, flit;
    reg  [P*FW-1:0] xbar_flit;
    reg  [P-1:0]    tx_valid_q, tx_valid_d;
    reg  [P*FW-1:0] tx_flit_q, tx_flit_d;
    integer         gi, go;

    // Packet mode without flood queues, up to 8 ports: the allocator's grant is the only source, so
    // output o's column is a binary multiplexer indexed by the winner's index out_idx (k inputs:
    // ceil(log2 k) select bits instead of k grant bits per flit bit), 0 when o is not written
    // unless o is a held link (LINK_HOLD: its register then keeps its data bits). Measured on the
    // iCE40 (docs/synthesis.md 19): 2-6 % fewer LUTs up to 8 ports; with 16 ports (the (8,8)
    // switch) 4 % more LUTs and 17 % less clock than AND-OR, which it keeps.
    // (a tree of 2:1 multiplexers, select bit b at stage b, built from constant indices: yosys maps
    // a variable part-select cand_flit[out_idx*FW +: FW] to a shifter, up to 3x the LUTs)
    localparam BIN_XBAR = !CIRCUIT && !FQ && (P <= 8);
    localparam XT = 1 << SW;
    reg [FW-1:0] xtree [0:XT-1];
    integer      xb, xk;
    // Up to 4 ports without held links (PCOL) each column is an lcan_xbar_col unit of its own, as in
    // circuit mode (lcan_switch_circuit): flattened into the switch, ABC maps a 4:1 column whose
    // select comes out of the allocator with 3 LUTs per bit; kept, with the 2 of the bound
    // (docs/synthesis.md 6, 28). An upper output's column has the D downers only (K = D when D is a
    // power of two: a flit from an upper always goes down, spec 4, so a written upper's winner is a
    // downer). With held links the flattened form stays in unicast-only switches: there ABC merges
    // the selects into the columns, and the kept columns cost more control than they save
    // (docs/synthesis.md 28); with broadcasts (BFLOOR) the columns are kept together with the
    // floor's other forms, an upper's 2:1 column selected by input 1's grant (a written upper's
    // winner is downer 0 or 1), and a held output takes its column whether written or not (its
    // register keeps its data bits when not written: HOLD_OUT below). Measured in docs/synthesis.md
    // 29: sw-2-2-w8-packet-noobs-d1-pinned-held 210 -> 188 LUT (data 92 -> 78).
    localparam PCOL = BIN_XBAR && (P <= 4) && (!HOLD_ON || BFLOOR);
    wire [P*FW-1:0] pcol_flit;
    genvar gpc;
    generate
        if (PCOL) begin : g_pcol
            for (gpc = 0; gpc < P; gpc = gpc + 1) begin : g_col
                localparam K = (gpc >= D && D > 1 && (D & (D - 1)) == 0) ? D : P;
                localparam KSW = (K == P) ? SW : clog2(K);
                if (BFLOOR && gpc >= D && D == 2) begin : g_sel1
                    // two downers (BFLOOR): an upper's select is input 1's grant of it
                    lcan_xbar_col #(
                        .K (K),
                        .SW(KSW),
                        .W (FW)
                    ) u_col (
                        .sel    (grant[P + gpc]),
                        .flit_in(cand_flit[0 +: K*FW]),
                        .flit   (pcol_flit[gpc*FW +: FW])
                    );
                end else begin : g_seli
                    lcan_xbar_col #(
                        .K (K),
                        .SW(KSW),
                        .W (FW)
                    ) u_col (
                        .sel    (out_idx[gpc*SW +: KSW]),
                        .flit_in(cand_flit[0 +: K*FW]),
                        .flit   (pcol_flit[gpc*FW +: FW])
                    );
                end
            end
        end else begin : g_npcol
            assign pcol_flit = {(P*FW){1'b0}};
        end
    endgenerate

    always @* begin
        for (go = 0; go < P; go = go + 1) begin
            xbar_flit[go*FW +: FW] = {FW{1'b0}};
            if (PCOL) begin
                if (HOLD_OUT[go] || wr[go])
                    xbar_flit[go*FW +: FW] = pcol_flit[go*FW +: FW];
            end else if (BIN_XBAR) begin
                for (xk = 0; xk < XT; xk = xk + 1)
                    xtree[xk] = (xk < P) ? cand_flit[xk*FW +: FW] : {FW{1'b0}};
                for (xb = 0; xb < SW; xb = xb + 1)
                    for (xk = 0; xk < (XT >> (xb + 1)); xk = xk + 1)
                        xtree[xk] = out_idx[go*SW + xb] ? xtree[2*xk + 1] : xtree[2*xk];
                if (HOLD_OUT[go] || wr[go])
                    xbar_flit[go*FW +: FW] = xtree[0];
            end else begin
                for (gi = 0; gi < P; gi = gi + 1)
                    if (grant[gi*P + go] | data_sel[go*P + gi])
                        xbar_flit[go*FW +: FW] = xbar_flit[go*FW +: FW] | cand_flit[gi*FW +: FW];
                if (fl_send[go])
                    xbar_flit[go*FW +: FW] = xbar_flit[go*FW +: FW] | fl_flit[go*FW +: FW];
            end
        end
    end

    always @* begin
        tx_valid_d = wr | data_wr;
        tx_flit_d = CBIN ? c_xbar : xbar_flit;
    end

    always @(posedge clk) begin
        if (rst || (CIRCUIT && clear)) begin
            tx_valid_q <= {P{1'b0}};
            tx_flit_q <= {(P*FW){1'b0}};
        end else begin
            tx_valid_q <= tx_valid_d;
            for (go = 0; go < P; go = go + 1)
                if (!HOLD_OUT[go] || tx_valid_d[go])
                    tx_flit_q[go*FW +: FW] <= tx_flit_d[go*FW +: FW];
        end
    end

    assign tx_valid = tx_valid_q;
    assign tx_flit = (U22 && CIRCUIT) ? flit : tx_flit_q;

    // (circuit mode above CBIN_MAX ports, flood queues, more than 8 ports: the AND-OR multiplexer;
    // out_idx is the packet binary crossbar's select; out_src, the index gated to 0 without a
    // winner, is the circuit binary crossbar's (up to CBIN_MAX ports) and the allocator proofs')
    wire unused_out_src = &{1'b0, out_src, out_idx};

    // ---------------------------------------------------------------- counters (spec 9)
    // A counter is an accumulator acc_*_q plus the count of the tick before, which is taken from
    // registered event bits (the tick's writes, wr_ev_q, and drops, drop_ev_q): the allocator's
    // path ends in a flip-flop per port, the popcount and the add run from registers. The output
    // acc + count equals spec 9's counter after every tick. CNT_W bits, zero-extended to 32
    // (CNT_W = 32: spec 9's counters).
    localparam PC_W = clog2(P + 1);
    localparam [PC_W-1:0] PC_ONE = 1;
    reg [P-1:0]     drop_ev;
    reg [P-1:0]     wr_ev_q, drop_ev_q;
    reg [PC_W-1:0]  n_up, n_down, n_drop;
    reg [CNT_W-1:0] acc_up_q, acc_down_q, acc_drop_q;
    reg [CNT_W-1:0] n_up_w, n_down_w, n_drop_w;
    reg [31:0]      cnt_up_v, cnt_down_v, cnt_drop_v;

    // circuit: headers not granted (spec 7.2); packet: candidates consumed without a request
    // because their want set was empty (section 4's digit, 14.3; spec 9)
    always @* begin
        for (go = 0; go < P; go = go + 1)
            if (CIRCUIT)
                drop_ev[go] = cand_valid[go] && !granted[go];
            else
                drop_ev[go] = FLT ? f_drop[go] : (cand_valid[go] && req_bad[go]);
    end

    // the counts of the tick before, zero-extended (CNT_W >= PC_W), and the counters
    always @* begin
        n_up = {PC_W{1'b0}};
        n_down = {PC_W{1'b0}};
        n_drop = {PC_W{1'b0}};
        for (go = 0; go < P; go = go + 1) begin
            if (wr_ev_q[go] && go >= D)
                n_up = n_up + PC_ONE;
            if (wr_ev_q[go] && go < D)
                n_down = n_down + PC_ONE;
            if (drop_ev_q[go])
                n_drop = n_drop + PC_ONE;
        end
        n_up_w = {CNT_W{1'b0}};
        n_down_w = {CNT_W{1'b0}};
        n_drop_w = {CNT_W{1'b0}};
        n_up_w[PC_W-1:0] = n_up;
        n_down_w[PC_W-1:0] = n_down;
        n_drop_w[PC_W-1:0] = n_drop;
        cnt_up_v = 32'd0;
        cnt_down_v = 32'd0;
        cnt_drop_v = 32'd0;
        cnt_up_v[CNT_W-1:0] = acc_up_q + n_up_w;
        cnt_down_v[CNT_W-1:0] = acc_down_q + n_down_w;
        cnt_drop_v[CNT_W-1:0] = acc_drop_q + n_drop_w;
    end

    // nothing is counted on circuit-mode clear ticks
    always @(posedge clk) begin
        if (rst) begin
            wr_ev_q <= {P{1'b0}};
            drop_ev_q <= {P{1'b0}};
            acc_up_q <= {CNT_W{1'b0}};
            acc_down_q <= {CNT_W{1'b0}};
            acc_drop_q <= {CNT_W{1'b0}};
        end else begin
            wr_ev_q <= (CIRCUIT && clear) ? {P{1'b0}} : wr;
            drop_ev_q <= (CIRCUIT && clear) ? {P{1'b0}} : drop_ev;
            acc_up_q <= acc_up_q + n_up_w;
            acc_down_q <= acc_down_q + n_down_w;
            acc_drop_q <= acc_drop_q + n_drop_w;
        end
    end

    wire [DBGW-1:0] dbg_view;

    assign cnt_up = (OBSERVE != 0) ? cnt_up_v : 32'd0;
    assign cnt_down = (OBSERVE != 0) ? cnt_down_v : 32'd0;
    assign cnt_drop = (OBSERVE != 0) ? cnt_drop_v : 32'd0;
    assign dbg = (OBSERVE != 0) ? dbg_view : {DBGW{1'b0}};

    // ---------------------------------------------------------------- mode-specific state
    generate
        if (CIRCUIT) begin : g_circuit
            lcan_switch_circuit #(
                .P   (P),
                .SW  (SW),
                .FW  (FW),
                .BIN (!CBIN ? 0 : (OBSERVE == 0) ? (U22 ? 3 : 2) : 1),
                .D   (D)
            ) u_circuit (
                .clk       (clk),
                .rst       (rst),
                .clear     (clear),
                .rx_valid  (rx_valid),
                .rx_flit   (rx_flit),
                .rx_ret    (ack_q),
                .tx_ret    (tx_ret),
                .grant     (grant),
                .cand_valid(cand_valid),
                .cand_flit (cand_flit),
                .avail     (avail),
                .data_wr   (data_wr),
                .data_sel  (data_sel),
                .out_valid ((U22 && OBSERVE == 0) ? set_d : out_valid),
                .out_src   ((U22 && OBSERVE == 0) ? out_idx : out_src),
                .xbar      (c_xbar),
                .dbg       (dbg_view)
            );
            for (i = 0; i < P; i = i + 1) begin : g_served
                assign served[i*P +: P] = {P{1'b0}};
            end
            // no flood queues in circuit mode (FQ = 0: the fl_* wires are constant 0)
            assign fl_accept = {P{1'b0}};
            assign fl_send = {P{1'b0}};
            assign fl_busy = {P{1'b0}};
            assign fl_flit = {(P*FW){1'b0}};
            wire unused_ok = &{1'b0, consume, req_bad, fl_cand, fl_set, rq};
        end else begin : g_packet
            lcan_switch_packet #(
                .P     (P),
                .D     (D),
                .FW    (FW),
                .DEPTH (DEPTH),
                .LEAF  (LEVEL == 1),
                .MASK  (C0 | UP0),
                .AW    ((clog2(DEPTH) < 1) ? 1 : clog2(DEPTH)),
                .CW    (clog2(DEPTH + 1)),
                .FLOOD_Q(FQ ? FLOOD_Q : 0),
                .QAW   ((clog2(FLOOD_Q) < 1) ? 1 : clog2(FLOOD_Q)),
                .QCW   ((clog2(FLOOD_Q + 1) < 1) ? 1 : clog2(FLOOD_Q + 1)),
                .HOLD  (HOLD_IN),
                // (held links with broadcasts: lcan_fifo's LATE_POP, measured there; without held
                // links, sw-2-2-w8-packet-noobs-d1-pinned, it cost 12 LUT for 90.8 / 95.4 / 95.9 ->
                // 95.1 / 101.9 / 90.9 MHz, not kept. BFLOOR switches clear the FIFO counts and the
                // served sets by consume | rst as a synchronous reset, the floor's form: fewer LUTs
                // beside the kept pick units, docs/synthesis.md 29)
                // (U22: 2, the one-bit credits' XOR form, see lcan_switch_packet)
                .LATE_POP(U22 ? 2 : (UNICAST_ONLY == 0 && HOLD_ON && !BFLOOR) ? 1 : 0),
                .SERVED_RST(BFLOOR ? 1 : 0)
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
                .fl_cand   (fl_cand),
                .fl_set    (fl_set),
                .off       (FLT ? port_off : {P{1'b0}}),
                .fl_accept (fl_accept),
                .fl_send   (fl_send),
                .fl_busy   (fl_busy),
                .fl_flit   (fl_flit),
                .dbg       (dbg_view)
            );
            assign data_wr = {P{1'b0}};
            assign data_sel = {(P*P){1'b0}};
            assign c_xbar = {(P*FW){1'b0}};
            wire unused_ok = &{1'b0, clear};
        end
    endgenerate

    // C22 (U22 in circuit mode, LINK_HOLD) in the circuit floor's forms (tb/floor/lcan_switch22_ckt.v):
    // - the output flit registers, read by tx_flit (as flit) in place of tx_flit_q: a held output's
    //   (HOLD_OUT) loads the column when o is written and has no reset (spec 7.1: its data bits are
    //   read only where tx_valid = 1); another output's is cleared by a synchronous reset, rst | clear
    //   | not written, and otherwise loaded;
    // - the acks (the floor's ack_d): per input i the OR over the outputs o of tx_ret_o & set_o &
    //   (src_o == i), read from lcan_switch_circuit's debug bytes ({set_o, src_o}; an upper's src is
    //   below D) and registered here, cleared by reset and clear, in place of the circuit's ack
    //   registers (ack_q, then not read);
    // - set_d, lcan_switch_circuit's out_valid with BIN 3 (no debug view): per output a requester,
    //   for the floor's `set | (a requester)` (the same value as set | grant: an output that is not set
    //   is granted iff it has one, g_u22's rule; an upper: a downer asks for UP and it is the first
    //   free upper in sigma order, or both ask).
    // Here, after every other cell of the switch, and named only with identifiers the RTL already
    // uses elsewhere: code before this point, or new identifiers, renamed more of yosys's cells (and
    // moved ABC's results) in other configurations; some are renamed all the same (docs/synthesis.md
    // 33 lists them and their figures).
    generate
        if (U22 && CIRCUIT) begin : g_held
            for (i = 0; i < P; i = i + 1) begin : g_o
                reg [FW-1:0] q;
                if (HOLD_OUT[i]) begin : g_stored
                    always @(posedge clk)
                        if (tx_valid_d[i])
                            q <= tx_flit_d[i*FW +: FW];
                end else begin : g_zero
                    always @(posedge clk)
                        if (rst || clear || !tx_valid_d[i])
                            q <= {FW{1'b0}};
                        else
                            q <= tx_flit_d[i*FW +: FW];
                end
                assign flit[i*FW +: FW] = q;
            end
            for (i = 0; i < P; i = i + 1) begin : g_back
                localparam [SW-1:0] J_C = i;
                wire [P-1:0] back;
                reg          q;
                for (c = 0; c < P; c = c + 1) begin : g_o
                    assign back[c] = tx_ret[c] & dbg_view[c*8 + 7] & (dbg_view[c*8 +: SW] == J_C);
                end
                always @(posedge clk)
                    if (rst || clear)
                        q <= 1'b0;
                    else
                        q <= |back;
                assign rx_ret[i] = q;
            end
            wire [1:0] u = {req_cls[G + 2], req_cls[2]};
            wire       any = u[0] | u[1];
            wire       both = u[0] & u[1];
            assign set_d = {any & (both | ~up_perm[0] | ~avail_a[2]), any & (both | up_perm[0] | ~avail_a[3]),
                            |{req_cls[3*G + 1], req_cls[2*G + 1], req_cls[G + 1], req_cls[1]},
                            |{req_cls[3*G], req_cls[2*G], req_cls[G], req_cls[0]}};
            wire unused_held = &{1'b0, tx_flit_q, ack_q};
        end else begin : g_none
            assign flit = {(P*FW){1'b0}};
            assign set_d = {P{1'b0}};
            // (packet mode: lcan_switch_packet drives rx_ret)
            if (CIRCUIT) begin : g_circuit
                assign rx_ret = ack_q;
            end else begin : g_packet
                assign ack_q = {P{1'b0}};
                wire unused_held = &{1'b0, ack_q, set_d};
            end
        end
    endgenerate
endmodule

`resetall
