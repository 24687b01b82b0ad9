// lcan_network: the whole PGFT(H; M; W; P) network of spec section 13. Generate loops build, per
// level l = 1..H, S_l lcan_switch instances and wire them per spec 2.3 from their labels: upper
// y*p_{l+1}+k of the level-l switch (a_h..a_{l+1}; b_l..b_1) meets downer a_{l+1}*p_{l+1}+k of
// the level-(l+1) switch (a_h..a_{l+2}; y, b_l..b_1). Links are numbered by their upper end: link
// lk_off(l) + x*D_l + j is downer j of level-l switch x; each link has an up channel (flit up,
// ack/credit down) and a down channel (flit down, ack/credit up). Network port q = s*U0 + y*p_1 + k
// of leaf s owns an injection register (spec 7.3 / 8.4: circuit mode loads inj every non-reset
// tick; packet mode loads it when inj_valid and inj_ready, with a credit counter inj_cr) and sees
// the level-1 downer flit register on ej. Timing: every output is a register or a sum of
// registers (cnt_*); no combinational path crosses a switch boundary (flits, acks, credits and
// inj_ready are all registered). Parameters outside spec 1.1's limits stop elaboration with a
// message "lcan_network: bad parameters: ...". The debug view is spec 9's: one byte per switch
// output, level 1 first, then switch index, then local output; in packet mode with FLOOD_Q > 0 a
// second block in the same order follows (every switch's q_o bytes, spec 8.7).
`default_nettype none

module lcan_network #(
    // number of switch levels h (1..16)
    parameter H = 2,
    // children per switch m_l, level 1 in the low 32 bits
    parameter [H*32-1:0] M = {32'd2, 32'd2},
    // parents per node w_l, level 1 in the low 32 bits
    parameter [H*32-1:0] W = {32'd2, 32'd1},
    // parallel links per parent p_l, level 1 in the low 32 bits
    parameter [H*32-1:0] P = {32'd1, 32'd1},
    // 0 circuit switching (spec 7), 1 packet switching (spec 8)
    parameter MODE = 0,
    // payload bits of a flit, 1..32 (spec 3)
    parameter PAYLOAD_W = 16,
    // packet-mode FIFO depth and credits, >= 1 (spec 8)
    parameter DEPTH = 4,
    // 1: counters and debug view (spec 9); 0: cnt_* and dbg are constant 0 and their logic is
    // left out (synthesis of a network that does not need them; simulation against the model
    // needs 1)
    parameter OBSERVE = 1,
    // width of every switch's event counters, 8..32 (spec 9: 32, what the model and the lockstep
    // harness count); narrower counters for synthesis wrap at 2^CNT_W before the level sums
    parameter CNT_W = 32,
    // which upper a header going up gets (spec 6): 1 uniform (a Fisher-Yates permutation of the
    // uppers, spec 5), 0 rotate (a random rotation, the behaviour before UP_CHOICE)
    parameter UP_CHOICE = 1,
    // 1: faults (spec 14): reach rows in every switch below the top, off ports masked, the general
    // greedy allocator; 0: the fault pins are ignored and no logic is generated for them
    parameter FAULTS = 0,
    // packet mode, 0..255: 1..255 = flood queues of FLOOD_Q flits on every output a flooding
    // broadcast uses (spec 8.7) and the debug view's second block; 0 = none. Ignored in circuit mode
    parameter FLOOD_Q = 0,
    // packet mode: 1 = switches for unicast traffic only (spec 8.8): a flit's bcast and head bits are
    // forwarded but not interpreted (no served masks, no ALL requests); needs FLOOD_Q = 0. 0 = the
    // broadcasts of spec 8.5 - 8.7. No effect in circuit mode (but FLOOD_Q = 0 is required there too).
    parameter UNICAST_ONLY = 0,
    // for synthesis where area is short (spec 13): 1 = the packet switches with broadcasts and held
    // links (DEPTH 1) of up to 4 ports take the broadcast floor's forms: fewer LUTs, a slower clock
    // (lcan_switch AREA_FORMS, docs/synthesis.md 32); the same behaviour. 0 (default): no change
    parameter AREA_FORMS = 0,
    // for synthesis (spec 13): FIXED_SEED = 1 seeds the LFSRs from the parameter SEED and ignores
    // the seed input (the seed hashes and every switch's reset value fold to constants);
    // PIN_STRAPS = 1 passes every switch its straps (label, salt, reach row base; with FIXED_SEED
    // its seed too) as parameters, so that each switch is a module specialized to its place. The
    // defaults (0) keep one switch module per level shape for simulators
    parameter FIXED_SEED = 0,
    parameter [31:0] SEED = 32'd0,
    parameter PIN_STRAPS = 0
) (
    input  wire                          clk,
    input  wire                          rst,
    input  wire                          clear,
    input  wire [31:0]                   seed,
    input  wire [f_np(H)-1:0]            inj_valid,
    input  wire [f_np(H)*f_fw(H)-1:0]    inj_flit,
    output wire [f_np(H)-1:0]            inj_ready,
    output wire [f_np(H)-1:0]            inj_ack,
    output wire [f_np(H)-1:0]            ej_valid,
    output wire [f_np(H)*f_fw(H)-1:0]    ej_flit,
    input  wire [f_np(H)-1:0]            ej_ack,
    output wire [H*32-1:0]               cnt_up,
    output wire [H*32-1:0]               cnt_down,
    output wire [H*32-1:0]               cnt_drop,
    output wire [f_dbg_off(H+1)*8*(((MODE != 0) && (FLOOD_Q > 0)) ? 2 : 1)-1:0] dbg,
    // faults (spec 14.1-14.2): link LK_OFF(l) + x*D_l + o (downer o of level-l switch x) off,
    // switch SW_OFF(l) + x off; reach-table write: row cfg_addr := cfg_row (RW = 2^ADDR_W bits with
    // FAULTS = 1; 1 bit otherwise, so that a default network never carries a 2^ADDR_W-bit port)
    input  wire [f_nl(H)-1:0]            link_off,
    input  wire [f_ns(H)-1:0]            sw_off,
    input  wire                          cfg_we,
    input  wire [31:0]                   cfg_addr,
    input  wire [((FAULTS != 0) ? f_rw(H) : 1)-1:0] cfg_row
);
    // ---------------------------------------------------------------- constant functions
    // the geometry (spec 1.1, 2.1-2.3, 13): clog2, m_of/w_of/p_of, f_n, f_wprod, f_s, f_d, f_u,
    // f_u0, f_np, f_dig_off, f_fw, f_lk_off, f_dbg_off, f_label, f_geom_err and the derived sizes
    // N, U0, NP, ADDR_W, FW, DBG_BYTES, LINKS
`include "lcan_geom.vh"

    // LFSR salt of level-l switch x (spec 5), modulo 2^32
    function [31:0] f_salt;
        input integer l;
        input integer x;
        reg [31:0] lu;
        reg [31:0] xu;
        begin
            lu = l;
            xu = x;
            f_salt = lu * 32'h9E3779B9 + xu * 32'h85EBCA6B + 32'h6A09E667;
        end
    endfunction

    // the largest m_l: the smallest FLOOD_Q > 0 a packet network takes (spec 8.7's limit: at most
    // m_l flooding candidates share an output, and fewer places than that would never accept them)
    function integer f_max_m;
        input integer h;
        integer l;
        begin
            f_max_m = 1;
            for (l = 1; l <= h; l = l + 1)
                if (m_of(l) > f_max_m) f_max_m = m_of(l);
        end
    endfunction

    // parameter check (spec 1.1): 0 = fine, else the rule broken (see f_msg): the geometry's
    // (f_geom_err, 1..7), then PAYLOAD_W, DEPTH, MODE, OBSERVE, UP_CHOICE, FAULTS, FLOOD_Q, CNT_W,
    // UNICAST_ONLY and AREA_FORMS
    function integer f_err;
        input integer h;
        begin
            f_err = f_geom_err(h);
            if (f_err == 0 && (PAYLOAD_W < 1 || PAYLOAD_W > 32)) f_err = 8;
            if (f_err == 0 && DEPTH < 1) f_err = 9;
            if (f_err == 0 && MODE != 0 && MODE != 1) f_err = 10;
            if (f_err == 0 && OBSERVE != 0 && OBSERVE != 1) f_err = 11;
            if (f_err == 0 && UP_CHOICE != 0 && UP_CHOICE != 1) f_err = 12;
            if (f_err == 0 && FAULTS != 0 && FAULTS != 1) f_err = 13;
            if (f_err == 0 && (FLOOD_Q < 0 || FLOOD_Q > 255)) f_err = 14;
            if (f_err == 0 && MODE == 1 && FLOOD_Q > 0 && FLOOD_Q < f_max_m(h)) f_err = 15;
            if (f_err == 0 && (CNT_W < 8 || CNT_W > 32)) f_err = 16;
            if (f_err == 0 && UNICAST_ONLY != 0 && UNICAST_ONLY != 1) f_err = 17;
            if (f_err == 0 && UNICAST_ONLY == 1 && FLOOD_Q > 0) f_err = 18;
            if (f_err == 0 && AREA_FORMS != 0 && AREA_FORMS != 1) f_err = 19;
        end
    endfunction

    function [8*72-1:0] f_msg;
        input integer code;
        begin
            case (code)
                1: f_msg = "H must be 1..16 (spec 1.1)";
                2: f_msg = "every m_l must be 2..64 (spec 1.1)";
                3: f_msg = "every w_l must be 1..64 (spec 1.1)";
                4: f_msg = "every p_l must be 1..64 (spec 1.1)";
                5: f_msg = "D_l + U_l = m_l*p_l + w_(l+1)*p_(l+1) must be <= 128 (spec 1.1)";
                6: f_msg = "N = m_1*..*m_h must be <= 2^20 (spec 1.1)";
                7: f_msg = "the total number of switches must be <= 2^22 (spec 1.1)";
                8: f_msg = "PAYLOAD_W must be 1..32 (spec 3)";
                9: f_msg = "DEPTH must be >= 1 (spec 8.1)";
                10: f_msg = "MODE must be 0 (circuit) or 1 (packet) (spec 13)";
                11: f_msg = "OBSERVE must be 0 or 1 (spec 13)";
                12: f_msg = "UP_CHOICE must be 0 (rotate) or 1 (uniform) (spec 6, 13)";
                13: f_msg = "FAULTS must be 0 or 1 (spec 13, 14)";
                14: f_msg = "FLOOD_Q must be 0..255 (spec 8.7, 13)";
                15: f_msg = "FLOOD_Q must be 0 or at least every m_l in packet mode (spec 8.7)";
                16: f_msg = "CNT_W must be 8..32 (spec 9, 13)";
                17: f_msg = "UNICAST_ONLY must be 0 or 1 (spec 8.8, 13)";
                18: f_msg = "UNICAST_ONLY = 1 needs FLOOD_Q = 0 (spec 8.8)";
                19: f_msg = "AREA_FORMS must be 0 or 1 (spec 13)";
                default: f_msg = "unknown";
            endcase
        end
    endfunction

    localparam ERR = f_err(H);

    // derived sizes (spec 13): U0, NP, ADDR_W, FW, LINKS of lcan_geom.vh
    localparam CIRCUIT = (MODE == 0);
    // held links (spec 8.1, lcan_switch's LINK_HOLD): packet mode with one-flit FIFOs; the
    // injection registers hold their data bits as the switches' output registers do. In circuit
    // mode every switch gets LINK_HOLD = 1 too (spec 7.1: its outputs facing a switch keep their
    // data bits when not written); the injection registers stay as spec 7.3 says
    localparam HELD_LINKS = !CIRCUIT && (DEPTH == 1);
    // flood queues (spec 8.7, packet mode): every switch's debug bytes double, the view has two blocks
    localparam FQ = !CIRCUIT && (FLOOD_Q > 0);
    localparam DBGK = FQ ? 2 : 1;
    // a switch's reach-row input: RW bits with FAULTS = 1, a constant bit otherwise
    localparam RWS = (FAULTS != 0) ? RW : 1;

    // FAULTS = 0: the fault pins are not read (spec 14.2: no rows, pins ignored)
    generate
        if (FAULTS == 0) begin : g_no_faults
            wire unused_faults = &{1'b0, link_off, sw_off, cfg_we, cfg_addr, cfg_row};
        end
    endgenerate

    // the three seed hashes every switch's reset value is built from (spec 5)
    wire [31:0] seed_h1;
    wire [31:0] seed_h2;
    wire [31:0] seed_h3;
    lcan_seed_mix u_seed_mix (
        .seed(seed),
        .h1  (seed_h1),
        .h2  (seed_h2),
        .h3  (seed_h3)
    );
    // FIXED_SEED = 1: the same hashes of the parameter SEED, as constants
`include "lcan_seed_mix.vh"
    localparam [31:0] SEED_H1 = f_mix(SEED);
    localparam [31:0] SEED_H2 = f_mix(SEED_H1);
    localparam [31:0] SEED_H3 = f_mix(SEED_H2);
    wire [63:0] seed_h1x2 = {seed_h1, seed_h1};
    wire [63:0] seed_h2x2 = {seed_h2, seed_h2};
    wire [63:0] seed_h3x2 = {seed_h3, seed_h3};
    // which bits the switches' rotations pick depends on their salts: sink the rest
    wire unused_seed_rot = &{1'b0, seed_h1x2, seed_h2x2, seed_h3x2};

    genvar l;
    genvar x;
    genvar j;
    genvar q;
    generate
        if (ERR != 0) begin : g_bad_parameters
`ifdef VERILATOR
            $fatal(1, "lcan_network: bad parameters: %0s", f_msg(ERR));
`elsif YOSYS
            // yosys: the $display shows in the log; the missing module named after the rule stops
            // `hierarchy -check` (run by synth) and names the rule even under yosys -q
            initial $display("lcan_network: bad parameters: %0s", f_msg(ERR));
            case (ERR)
                1: begin : g_h
                    lcan_network_bad_parameter_H_must_be_1_to_16 u_bad ();
                end
                2: begin : g_m
                    lcan_network_bad_parameter_m_must_be_2_to_64 u_bad ();
                end
                3: begin : g_w
                    lcan_network_bad_parameter_w_must_be_1_to_64 u_bad ();
                end
                4: begin : g_p
                    lcan_network_bad_parameter_p_must_be_1_to_64 u_bad ();
                end
                5: begin : g_ports
                    lcan_network_bad_parameter_D_plus_U_must_be_at_most_128 u_bad ();
                end
                6: begin : g_n
                    lcan_network_bad_parameter_N_must_be_at_most_2_pow_20 u_bad ();
                end
                7: begin : g_s
                    lcan_network_bad_parameter_switches_must_be_at_most_2_pow_22 u_bad ();
                end
                8: begin : g_payload
                    lcan_network_bad_parameter_PAYLOAD_W_must_be_1_to_32 u_bad ();
                end
                9: begin : g_depth
                    lcan_network_bad_parameter_DEPTH_must_be_at_least_1 u_bad ();
                end
                10: begin : g_mode
                    lcan_network_bad_parameter_MODE_must_be_0_or_1 u_bad ();
                end
                11: begin : g_observe
                    lcan_network_bad_parameter_OBSERVE_must_be_0_or_1 u_bad ();
                end
                12: begin : g_up_choice
                    lcan_network_bad_parameter_UP_CHOICE_must_be_0_or_1 u_bad ();
                end
                13: begin : g_faults
                    lcan_network_bad_parameter_FAULTS_must_be_0_or_1 u_bad ();
                end
                14: begin : g_flood_q
                    lcan_network_bad_parameter_FLOOD_Q_must_be_0_to_255 u_bad ();
                end
                15: begin : g_flood_q_min
                    lcan_network_bad_parameter_FLOOD_Q_must_be_0_or_at_least_every_m u_bad ();
                end
                16: begin : g_cnt_w
                    lcan_network_bad_parameter_CNT_W_must_be_8_to_32 u_bad ();
                end
                17: begin : g_unicast_only
                    lcan_network_bad_parameter_UNICAST_ONLY_must_be_0_or_1 u_bad ();
                end
                18: begin : g_unicast_only_fq
                    lcan_network_bad_parameter_UNICAST_ONLY_needs_FLOOD_Q_0 u_bad ();
                end
                default: begin : g_area_forms
                    lcan_network_bad_parameter_AREA_FORMS_must_be_0_or_1 u_bad ();
                end
            endcase
`else
            initial begin
                $display("lcan_network: bad parameters: %0s", f_msg(ERR));
                $finish;
            end
`endif
        end else begin : g_net
            // Links are unpacked arrays, one element per link, and the network's packed output
            // ports are filled by loops over unpacked per-port / per-switch arrays: a packed
            // vector written slice by slice from many places makes simulators (Verilator) build
            // it as one concatenation whose code grows with the square of the network size.
            // up channel of each link: flit from the child, ack/credit back from the parent
            wire          up_valid [0:LINKS-1];
            wire [FW-1:0] up_flit  [0:LINKS-1];
            wire          up_ret   [0:LINKS-1];
            // down channel: flit from the parent, ack/credit back from the child
            wire          dn_valid [0:LINKS-1];
            wire [FW-1:0] dn_flit  [0:LINKS-1];
            wire          dn_ret   [0:LINKS-1];
            // per network port: the outputs before they are packed into the port vectors
            wire          port_ready [0:NP-1];
            wire          port_ack   [0:NP-1];
            wire          port_ej_valid [0:NP-1];
            wire [FW-1:0] port_ej_flit  [0:NP-1];

            // ------------------------------------------------------------ leaf boundary
            // level-1 constants (constant functions are evaluated once per level, not per port:
            // yosys evaluates them slowly)
            localparam M1 = m_of(1);
            localparam W1 = w_of(1);
            localparam P1 = p_of(1);
            localparam D1 = M1 * P1;

            for (q = 0; q < NP; q = q + 1) begin : g_port
                // leaf s, leaf port y*p_1 + k, joined to level-1 switch (a_h..a_2; y),
                // downer a_1*p_1 + k
                localparam S = q / U0;
                localparam Y = (q % U0) / P1;
                localparam K = (q % U0) % P1;
                localparam LK = (Y + W1 * (S / M1)) * D1 + (S % M1) * P1 + K;

                reg          inj_valid_q;
                reg [FW-1:0] inj_flit_q;

                assign up_valid[LK] = inj_valid_q;
                assign up_flit[LK] = inj_flit_q;
                assign port_ej_valid[q] = dn_valid[LK];
                assign port_ej_flit[q] = dn_flit[LK];

                // The next state is computed inside the register blocks: it reads the network's
                // inputs, and a simulator like Verilator re-evaluates logic outside a register block
                // that reads them at every time step of a testbench (rtl/lcan_switch.v,
                // docs/verification.md 6).
                if (CIRCUIT) begin : g_circuit
                    // spec 7.3: load inj on every tick that is not reset
                    always @(posedge clk) begin
                        inj_valid_q <= !rst && inj_valid[q];
                        inj_flit_q <= (!rst && inj_valid[q]) ? inj_flit[q*FW +: FW] : {FW{1'b0}};
                    end
                    assign port_ready[q] = 1'b1;
                    assign port_ack[q] = up_ret[LK];
                    assign dn_ret[LK] = ej_ack[q];
                end else begin : g_packet
                    // spec 8.4: credit counter, DEPTH after reset
                    localparam CW = clog2(DEPTH + 1);
                    localparam [CW-1:0] CR_FULL = DEPTH[CW-1:0];
                    localparam [CW-1:0] CR_ONE = 1;
                    localparam [CW-1:0] CR_NONE = 0;
                    reg [CW-1:0] inj_cr_q;

                    assign port_ready[q] = (inj_cr_q != CR_NONE);

                    // a flit is loaded when one is offered and a credit is left (port_ready); the
                    // credit count goes down by a load and up by a credit returned on the link (both:
                    // unchanged). No wire for the load: it would read inj_valid outside the block.
                    always @(posedge clk) begin
                        inj_valid_q <= !rst && inj_valid[q] && port_ready[q];
                        // a held link (HELD_LINKS): the data bits stay until the next load, the
                        // level-1 switch reads its FIFO entry from them
                        if (HELD_LINKS)
                            inj_flit_q <= rst ? {FW{1'b0}} :
                                          (inj_valid[q] && port_ready[q]) ? inj_flit[q*FW +: FW] :
                                                                            inj_flit_q;
                        else
                            inj_flit_q <= (!rst && inj_valid[q] && port_ready[q]) ?
                                          inj_flit[q*FW +: FW] : {FW{1'b0}};
                        inj_cr_q <= rst ? CR_FULL :
                                    inj_cr_q - ((inj_valid[q] && port_ready[q]) ? CR_ONE : CR_NONE) +
                                    (up_ret[LK] ? CR_ONE : CR_NONE);
                    end
                    assign port_ack[q] = 1'b0;
                    assign dn_ret[LK] = 1'b0;
                    wire unused_ok = &{1'b0, ej_ack[q]};
                end
            end

            // pack the per-port outputs into the port vectors (spec 13). Verilator: one loop (one
            // copy of code for all ports). Event-driven simulators (Icarus) re-run an always @* over
            // an array whenever any element changes, so elsewhere: one assignment per port.
`ifdef VERILATOR
            reg [NP-1:0]    ready_r;
            reg [NP-1:0]    ack_r;
            reg [NP-1:0]    ej_valid_r;
            reg [NP*FW-1:0] ej_flit_r;
            integer         pi;

            always @* begin
                for (pi = 0; pi < NP; pi = pi + 1) begin
                    ready_r[pi] = port_ready[pi];
                    ack_r[pi] = port_ack[pi];
                    ej_valid_r[pi] = port_ej_valid[pi];
                    ej_flit_r[pi*FW +: FW] = port_ej_flit[pi];
                end
            end

            assign inj_ready = ready_r;
            assign inj_ack = ack_r;
            assign ej_valid = ej_valid_r;
            assign ej_flit = ej_flit_r;
`else
            for (q = 0; q < NP; q = q + 1) begin : g_pack
                assign inj_ready[q] = port_ready[q];
                assign inj_ack[q] = port_ack[q];
                assign ej_valid[q] = port_ej_valid[q];
                assign ej_flit[q*FW +: FW] = port_ej_flit[q];
            end
`endif

            // ------------------------------------------------------------ switches
            for (l = 1; l <= H; l = l + 1) begin : g_level
                localparam S = f_s(l);
                localparam ML = m_of(l);
                localparam PDN = p_of(l);
                localparam D = ML * PDN;
                localparam U = f_u(l);
                localparam PL = D + U;
                localparam LK0 = f_lk_off(l);
                localparam LK1 = f_lk_off(l + 1);
                localparam DB0 = f_dbg_off(l);
                localparam DOFF = f_dig_off(l);
                localparam DW = clog2(ML);
                // the next level up: w, p, m, D, and w_1*..*w_l, w_1*..*w_{l+1}
                localparam WN = (l < H) ? w_of(l + 1) : 0;
                localparam PN = (l < H) ? p_of(l + 1) : 1;
                localparam MN = (l < H) ? m_of(l + 1) : 1;
                localparam DN = MN * PN;
                localparam WP = f_wprod(l);
                localparam WPN = WP * WN;
                // faults (spec 14.1-14.2): this level's first switch and first reach row, the next
                // level's first switch, w_1*..*w_{l-1} (a child's b digits)
                localparam SWO = f_sw_off(l);
                localparam SWO_N = f_sw_off(l + 1);
                localparam ROWO = f_row_off(l);
                localparam WPC = f_wprod(l - 1);

                wire [31:0]     sw_cnt_up   [0:S-1];
                wire [31:0]     sw_cnt_down [0:S-1];
                wire [31:0]     sw_cnt_drop [0:S-1];
                wire [PL*8*DBGK-1:0] sw_dbg [0:S-1];

                for (x = 0; x < S; x = x + 1) begin : g_switch
                    localparam DN0 = LK0 + x * D;
                    // x = B + WP*A: B the b digits, A the a digits a_{l+1}, a_{l+2}, ..
                    localparam B = x % WP;
                    localparam A = x / WP;
                    localparam [63:0] LABEL_C = f_label(l, A, DOFF + DW);
                    localparam [31:0] SALT_C = f_salt(l, x);
                    // this switch's first reach row (spec 14.2): ROW_OFF(l) + x*U_l
                    localparam [31:0] ROW_C = ROWO + x * U;
                    // the seed this switch's LFSR loads (XORed with its salt) on reset (spec 5):
                    // the network's three hashes rotated by the salt's bits [4:0], [9:5], [14:10]
                    // (rotl(x, r) is bits 63-r..32-r of {x, x}: wiring)
                    localparam integer ROT1 = SALT_C % 32;
                    localparam integer ROT2 = (SALT_C / 32) % 32;
                    localparam integer ROT3 = (SALT_C / 1024) % 32;
                    // (FIXED_SEED = 1: the same of the constant hashes)
                    localparam [4:0] R1 = SALT_C[4:0];
                    localparam [4:0] R2 = SALT_C[9:5];
                    localparam [4:0] R3 = SALT_C[14:10];
                    localparam [31:0] SEED_C = f_rotl(SEED_H1, R1) ^ f_rotl(SEED_H2, R2)
                                               ^ f_rotl(SEED_H3, R3);
                    wire [31:0] sw_seed = (FIXED_SEED != 0) ? SEED_C
                                          : seed_h1x2[63-ROT1 -: 32] ^ seed_h2x2[63-ROT2 -: 32]
                                            ^ seed_h3x2[63-ROT3 -: 32];
                    localparam PIN_S = (PIN_STRAPS != 0) && (FIXED_SEED != 0);

                    wire [PL-1:0]    rx_valid;
                    wire [PL*FW-1:0] rx_flit;
                    wire [PL-1:0]    rx_ret;
                    wire [PL-1:0]    tx_valid;
                    wire [PL*FW-1:0] tx_flit;
                    wire [PL-1:0]    tx_ret;
                    // local port o off (spec 14.1): its link, this switch or the far-end switch
                    wire [PL-1:0]    port_off;

                    // downers: links DN0 .. DN0+D-1 of this level
                    for (j = 0; j < D; j = j + 1) begin : g_dn
                        assign rx_valid[j] = up_valid[DN0 + j];
                        assign rx_flit[j*FW +: FW] = up_flit[DN0 + j];
                        assign up_ret[DN0 + j] = rx_ret[j];
                        assign dn_valid[DN0 + j] = tx_valid[j];
                        assign dn_flit[DN0 + j] = tx_flit[j*FW +: FW];
                        assign tx_ret[j] = dn_ret[DN0 + j];
                        if (FAULTS != 0 && l > 1) begin : g_off
                            // the child: (a_h..a_{l+1}, a_l = j / p_l; b_{l-1}..b_1)
                            localparam CX = (B % WPC) + WPC * (j / PDN + ML * A);
                            assign port_off[j] = link_off[DN0 + j] | sw_off[SWO + x] |
                                                 sw_off[f_sw_off(l - 1) + CX];
                        end else if (FAULTS != 0) begin : g_off_leaf
                            // a leaf at the far end: never off
                            assign port_off[j] = link_off[DN0 + j] | sw_off[SWO + x];
                        end else begin : g_on
                            assign port_off[j] = 1'b0;
                        end
                    end

                    // uppers: upper j = y*p_{l+1} + k meets downer a_{l+1}*p_{l+1} + k of the
                    // parent (a_h..a_{l+2}; y, b_l..b_1), index B + WP*y + WPN*(A / m_{l+1})
                    for (j = 0; j < U; j = j + 1) begin : g_up
                        localparam Y = j / PN;
                        localparam K = j % PN;
                        localparam PX = B + WP * Y + WPN * (A / MN);
                        localparam LK = LK1 + PX * DN + (A % MN) * PN + K;

                        assign rx_valid[D + j] = dn_valid[LK];
                        assign rx_flit[(D + j)*FW +: FW] = dn_flit[LK];
                        assign dn_ret[LK] = rx_ret[D + j];
                        assign up_valid[LK] = tx_valid[D + j];
                        assign up_flit[LK] = tx_flit[(D + j)*FW +: FW];
                        assign tx_ret[D + j] = up_ret[LK];
                        if (FAULTS != 0) begin : g_off
                            assign port_off[D + j] = link_off[LK] | sw_off[SWO + x] |
                                                     sw_off[SWO_N + PX];
                        end else begin : g_on
                            assign port_off[D + j] = 1'b0;
                        end
                    end

                    lcan_switch #(
                        .LEVEL    (l),
                        .M_L      (ML),
                        .P_DN     (PDN),
                        .W_UP     (WN),
                        .P_UP     (PN),
                        .ADDR_W   (ADDR_W),
                        .DIG_OFF  (DOFF),
                        .DIG_W    (DW),
                        .PAYLOAD_W(PAYLOAD_W),
                        .DEPTH    (DEPTH),
                        .MODE     (MODE),
                        .OBSERVE  (OBSERVE),
                        .CNT_W    (CNT_W),
                        .UP_CHOICE(UP_CHOICE),
                        .FAULTS   (FAULTS),
                        .FLOOD_Q  (FLOOD_Q),
                        .UNICAST_ONLY(UNICAST_ONLY),
                        .LINK_HOLD   ((HELD_LINKS || CIRCUIT) ? 1 : 0),
                        .AREA_FORMS  (AREA_FORMS),
                        // unpinned: the same (0) values for every switch, one module per shape
                        .PIN_STRAPS(PIN_STRAPS),
                        .LABEL_V  ((PIN_STRAPS != 0) ? LABEL_C[31:0] : 32'd0),
                        .SALT_V   ((PIN_STRAPS != 0) ? SALT_C : 32'd0),
                        .ROW_V    ((PIN_STRAPS != 0) ? ROW_C : 32'd0),
                        .PIN_SEED (PIN_S ? 1 : 0),
                        .SEED_V   (PIN_S ? SEED_C : 32'd0)
                    ) u_switch (
                        .clk     (clk),
                        .rst     (rst),
                        .clear   (clear),
                        .seed    (sw_seed),
                        .label   (LABEL_C[ADDR_W-1:0]),
                        .salt    (SALT_C),
                        .rx_valid(rx_valid),
                        .rx_flit (rx_flit),
                        .rx_ret  (rx_ret),
                        .tx_valid(tx_valid),
                        .tx_flit (tx_flit),
                        .tx_ret  (tx_ret),
                        .cnt_up  (sw_cnt_up[x]),
                        .cnt_down(sw_cnt_down[x]),
                        .cnt_drop(sw_cnt_drop[x]),
                        .dbg     (sw_dbg[x]),
                        .port_off(port_off),
                        .row_base(ROW_C),
                        .cfg_we  (FAULTS != 0 ? cfg_we : 1'b0),
                        .cfg_addr(FAULTS != 0 ? cfg_addr : 32'd0),
                        .cfg_row (FAULTS != 0 ? cfg_row[RWS-1:0] : {RWS{1'b0}})
                    );
                end

                // per-level sums and the debug view only with OBSERVE = 1: with OBSERVE = 0 the
                // switches' outputs are constant 0, but a synthesis tool that keeps each switch a
                // module of its own cannot see it and would build the adders (spec 13)
                if (OBSERVE != 0) begin : g_obs
                    // per-level sums (spec 9), modulo 2^32, and the level's part of the debug view
                    // (Verilator: one loop; elsewhere one assignment per switch, as for the ports)
                    reg [31:0]        sum_up;
                    reg [31:0]        sum_down;
                    reg [31:0]        sum_drop;
                    integer           si;

                    always @* begin
                        sum_up = 32'd0;
                        sum_down = 32'd0;
                        sum_drop = 32'd0;
                        for (si = 0; si < S; si = si + 1) begin
                            sum_up = sum_up + sw_cnt_up[si];
                            sum_down = sum_down + sw_cnt_down[si];
                            sum_drop = sum_drop + sw_cnt_drop[si];
                        end
                    end

                    assign cnt_up[(l-1)*32 +: 32] = sum_up;
                    assign cnt_down[(l-1)*32 +: 32] = sum_down;
                    assign cnt_drop[(l-1)*32 +: 32] = sum_drop;
                    // (with flood queues the second halves go to the second block, DBG_BYTES further)
`ifdef VERILATOR
                    reg [S*PL*8*DBGK-1:0] dbg_level;
                    integer               di;

                    always @* begin
                        for (di = 0; di < S; di = di + 1) begin
                            dbg_level[di*PL*8 +: PL*8] = sw_dbg[di][PL*8-1:0];
                            if (FQ)
                                dbg_level[(S + di)*PL*8 +: PL*8] = sw_dbg[di][PL*8*DBGK-1 -: PL*8];
                        end
                    end

                    assign dbg[DB0*8 +: S*PL*8] = dbg_level[S*PL*8-1:0];
                    if (FQ) begin : g_dbg_q
                        assign dbg[(DBG_BYTES + DB0)*8 +: S*PL*8] = dbg_level[S*PL*8*DBGK-1 -: S*PL*8];
                    end
`else
                    for (x = 0; x < S; x = x + 1) begin : g_dbg
                        assign dbg[(DB0 + x*PL)*8 +: PL*8] = sw_dbg[x][PL*8-1:0];
                        if (FQ) begin : g_q
                            assign dbg[(DBG_BYTES + DB0 + x*PL)*8 +: PL*8] = sw_dbg[x][PL*8*DBGK-1 -: PL*8];
                        end
                    end
`endif
                end else begin : g_noobs
                    assign cnt_up[(l-1)*32 +: 32] = 32'd0;
                    assign cnt_down[(l-1)*32 +: 32] = 32'd0;
                    assign cnt_drop[(l-1)*32 +: 32] = 32'd0;
                    assign dbg[DB0*8 +: S*PL*8] = {S*PL*8{1'b0}};
                    if (FQ) begin : g_dbg_q
                        assign dbg[(DBG_BYTES + DB0)*8 +: S*PL*8] = {S*PL*8{1'b0}};
                    end
                    wire unused_obs = &{1'b0, sw_cnt_up[0], sw_cnt_down[0], sw_cnt_drop[0], sw_dbg[0]};
                end
            end
        end
    endgenerate
endmodule

`resetall
