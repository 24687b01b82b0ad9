// tb_top - the one testbench top for Verilator and Icarus: instantiates lcan_network with the
// parameters given at build time (verilator -G / iverilog -P) and, once per clock cycle, hands the
// C harness (tb/harness/) everything the RTL shows and takes from it the inputs of the next edge.
// The harness ticks the C golden model with the same inputs and compares every output and the
// debug view (docs/spec.md 13, 9).
//
// Timing: inputs are applied while clk is low; the rising edge is at 5 time units into each
// 10-unit cycle; outputs are read 5 units after it, at the falling edge, once every register has
// settled, and the next inputs are applied in the same time step (two time steps per cycle: each
// one makes Verilator re-evaluate the logic that reads testbench signals).
// Cycle k (k = 0, 1, ..) of the harness is the k-th rising edge.
//
// The only simulator difference - DPI-C under Verilator, VPI system tasks under Icarus (the same C,
// tb/harness/tb_dpi.c and tb_vpi.c) - is confined to the `ifdef VERILATOR block below.
//
// Waveforms: compiled in, off by default. +dump_from=K +dumpfile=F dumps a VCD from cycle K on
// (the harness re-runs itself that way around a mismatch).
`default_nettype none
`timescale 1ns / 1ns

module tb_top;

    // Levels h.
    parameter integer H = 2;
    // Per-level m_l, w_l, p_l: 32-bit fields, level 1 in the low bits (docs/spec.md 13).
    parameter [H*32-1:0] M = {32'd2, 32'd2};
    parameter [H*32-1:0] W = {32'd2, 32'd1};
    parameter [H*32-1:0] P = {32'd1, 32'd1};
    // 0 circuit, 1 packet.
    parameter integer MODE = 0;
    // Payload bits of a flit.
    parameter integer PAYLOAD_W = 16;
    // Packet-mode FIFO depth.
    parameter integer DEPTH = 4;
    // Which upper a header going up gets (spec 6): 1 uniform (default), 0 rotate.
    parameter integer UP_CHOICE = 1;
    // Fault support (spec 14): 1 builds the reach rows and masks and drives the fault pins from the
    // harness every cycle; 0 ties them to 0 (the network ignores them).
    parameter integer FAULTS = 0;
    // Flood queues (spec 8.7, packet mode): FLOOD_Q flits per queue, 0 = none. The debug view then
    // has two blocks (spec 9): cr, then q.
    parameter integer FLOOD_Q = 0;
    // Unicast-only switches (spec 8.8, packet mode): 1 = the bcast and head bits are not interpreted.
    parameter integer UNICAST_ONLY = 0;

    // the geometry: NP, FW, DBG_BYTES (rtl/lcan_geom.vh, the functions lcan_network sizes its
    // ports with)
`include "lcan_geom.vh"

    reg clk = 1'b0;
    reg rst = 1'b0;
    reg clear = 1'b0;
    reg [31:0] seed = 32'd0;
    reg [NP-1:0] inj_valid = {NP{1'b0}};
    reg [NP*FW-1:0] inj_flit = {NP*FW{1'b0}};
    reg [NP-1:0] ej_ack = {NP{1'b0}};
    wire [NP-1:0] inj_ready;
    wire [NP-1:0] inj_ack;
    wire [NP-1:0] ej_valid;
    wire [NP*FW-1:0] ej_flit;
    wire [H*32-1:0] cnt_up;
    wire [H*32-1:0] cnt_down;
    wire [H*32-1:0] cnt_drop;
    // the whole debug view: DBG_BYTES, twice with flood queues (spec 9, 13)
    localparam integer DBG_ALL = DBG_BYTES * ((MODE != 0 && FLOOD_Q > 0) ? 2 : 1);
    wire [DBG_ALL*8-1:0] dbg;
    // the fault pins (spec 13, 14.1-14.2): NL, NS, RW of rtl/lcan_geom.vh
    reg [NL-1:0] link_off = {NL{1'b0}};
    reg [NS-1:0] sw_off = {NS{1'b0}};
    reg cfg_we = 1'b0;
    reg [31:0] cfg_addr = 32'd0;
    // cfg_row is RW bits wide only with FAULTS = 1 (spec 13)
    localparam RWP = (FAULTS != 0) ? RW : 1;
    reg [RWP-1:0] cfg_row = {RWP{1'b0}};

    lcan_network #(
        .H(H),
        .M(M),
        .W(W),
        .P(P),
        .MODE(MODE),
        .PAYLOAD_W(PAYLOAD_W),
        .DEPTH(DEPTH),
        .UP_CHOICE(UP_CHOICE),
        .FAULTS(FAULTS),
        .FLOOD_Q(FLOOD_Q),
        .UNICAST_ONLY(UNICAST_ONLY)
    ) dut (
        .clk(clk),
        .rst(rst),
        .clear(clear),
        .seed(seed),
        .inj_valid(inj_valid),
        .inj_flit(inj_flit),
        .inj_ready(inj_ready),
        .inj_ack(inj_ack),
        .ej_valid(ej_valid),
        .ej_flit(ej_flit),
        .ej_ack(ej_ack),
        .cnt_up(cnt_up),
        .cnt_down(cnt_down),
        .cnt_drop(cnt_drop),
        .dbg(dbg),
        .link_off(link_off),
        .sw_off(sw_off),
        .cfg_we(cfg_we),
        .cfg_addr(cfg_addr),
        .cfg_row(cfg_row)
    );

    integer tb_status;
    integer tb_done;
    integer tb_rst;
    integer tb_clear;
    integer tb_seed;
    integer tb_cfg_we;
    integer tb_cfg_addr;

`ifdef VERILATOR
    import "DPI-C" function int lcan_tb_init(input int h, input bit [H*32-1:0] m, input bit [H*32-1:0] w,
        input bit [H*32-1:0] p, input int mode, input int payload_w, input int depth, input int up_choice,
        input int np, input int fw, input int dbg_bytes, input int faults, input int nl, input int ns,
        input int rw, input int flood_q, input int unicast_only);
    import "DPI-C" function int lcan_tb_inputs(output int rst_o, output int clear_o, output int seed_o,
        output bit [NP-1:0] inj_valid_o, output bit [NP*FW-1:0] inj_flit_o, output bit [NP-1:0] ej_ack_o);
    import "DPI-C" function void lcan_tb_outputs(input bit [NP-1:0] inj_ready_i, input bit [NP-1:0] inj_ack_i,
        input bit [NP-1:0] ej_valid_i, input bit [NP*FW-1:0] ej_flit_i, input bit [H*32-1:0] cnt_up_i,
        input bit [H*32-1:0] cnt_down_i, input bit [H*32-1:0] cnt_drop_i, input bit [DBG_ALL*8-1:0] dbg_i);
    import "DPI-C" function void lcan_tb_final();
    import "DPI-C" function void lcan_tb_fault_inputs(output bit [NL-1:0] link_off_o, output bit [NS-1:0] sw_off_o,
        output int cfg_we_o, output int cfg_addr_o, output bit [RWP-1:0] cfg_row_o);

    task harness_init;
        tb_status = lcan_tb_init(H, M, W, P, MODE, PAYLOAD_W, DEPTH, UP_CHOICE, NP, FW, DBG_ALL, FAULTS, NL, NS,
                                 RWP, FLOOD_Q, UNICAST_ONLY);
    endtask
    task harness_inputs;
        tb_done = lcan_tb_inputs(tb_rst, tb_clear, tb_seed, inj_valid, inj_flit, ej_ack);
    endtask
    task harness_outputs;
        lcan_tb_outputs(inj_ready, inj_ack, ej_valid, ej_flit, cnt_up, cnt_down, cnt_drop, dbg);
    endtask
    task harness_fault_inputs;
        lcan_tb_fault_inputs(link_off, sw_off, tb_cfg_we, tb_cfg_addr, cfg_row);
    endtask
    task harness_final;
        lcan_tb_final();
    endtask
`else
    task harness_init;
        $lcan_tb_init(H, M, W, P, MODE, PAYLOAD_W, DEPTH, UP_CHOICE, NP, FW, DBG_ALL, FAULTS, NL, NS, RWP,
                      FLOOD_Q, UNICAST_ONLY, tb_status);
    endtask
    task harness_inputs;
        $lcan_tb_inputs(tb_done, tb_rst, tb_clear, tb_seed, inj_valid, inj_flit, ej_ack);
    endtask
    task harness_outputs;
        $lcan_tb_outputs(inj_ready, inj_ack, ej_valid, ej_flit, cnt_up, cnt_down, cnt_drop, dbg);
    endtask
    task harness_fault_inputs;
        $lcan_tb_fault_inputs(link_off, sw_off, tb_cfg_we, tb_cfg_addr, cfg_row);
    endtask
    task harness_final;
        $lcan_tb_final;
    endtask
`endif

`ifdef LCAN_COVERAGE
`systemc_imp_header
#include <cstdlib>
#include "verilated_cov.h"
`verilog
`endif

    integer cyc;
    integer dump_from;
    reg [8*1024-1:0] dumpfile;
    reg dumping;

    initial begin
        cyc = 0;
        dumping = 1'b0;
        tb_done = 0;
        tb_status = 0;
        if (!$value$plusargs("dump_from=%d", dump_from))
            dump_from = -1;
        if (!$value$plusargs("dumpfile=%s", dumpfile))
            dumpfile = "tb_top.vcd";
        harness_init;
        if (tb_status == 0) begin
            harness_inputs;
            while (tb_done == 0) begin
                rst = tb_rst[0];
                clear = tb_clear[0];
                seed = tb_seed;
                if (FAULTS != 0) begin
                    // the fault pins of this edge (after harness_inputs, which produced them)
                    harness_fault_inputs;
                    cfg_we = tb_cfg_we[0];
                    cfg_addr = tb_cfg_addr;
                end
                if (cyc == dump_from) begin
                    $dumpfile(dumpfile);
                    $dumpvars(0, tb_top);
                    dumping = 1'b1;
                end
                #5 clk = 1'b1;
                #5 harness_outputs;
                cyc = cyc + 1;
                clk = 1'b0;
                harness_inputs;
            end
        end
        if (dumping) begin
            #5 $dumpflush;
        end
`ifdef LCAN_COVERAGE
        // coverage builds (tb/lcan-rtl with LCAN_RTL_COVERAGE=1): write the counts before the
        // harness ends the process; the file is $LCAN_COV_FILE (tb/lcan-rtl always sets it)
        $c("{ const char* f = std::getenv(\"LCAN_COV_FILE\"); ",
           "Verilated::threadContextp()->coveragep()->write(f ? f : \"coverage.dat\"); }");
`endif
        harness_final;
        $finish;
    end

endmodule

`resetall
