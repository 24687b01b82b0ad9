// lcan_alloc_chain: the greedy rotated allocator of spec section 6. Requester i presents valid, kind
// (all = 1: ALL, all = 0: ONE), a want set over the P outputs and, for ONE, a scan start index;
// avail marks usable outputs. Requesters are visited in the order r_in, r_in+1, .., P-1, 0, ..,
// r_in-1; each takes from want & avail minus the outputs already taken: ALL takes every such
// output, ONE the first one at or after its start (lcan_rr_pick). Implementation: a fixed chain of
// 2P stages over the requester sequence 0..P-1, 0..P-1; stage k serves requester k mod P in the
// first half only if it is >= r_in and in the second half only if it is < r_in, which is the
// rotated order without a rotation multiplexer. Purely combinational; grant[i*P +: P] is the set
// granted to requester i (one-hot or 0 for ONE).
// This is the former rtl/lcan_alloc.v: the reference implementation that the log-depth
// rtl/lcan_alloc.v is proven equal to (scripts/prove-alloc.sh) and simulated against
// (tb/cells/tb_lcan_alloc_eq.v, through tb/cells/lcan_alloc_chain_wrap.v), and the allocator of
// lcan_switch with FAULTS = 1 (spec 14.3: class UP requests with per-request want sets, which the
// log-depth allocator's class interface cannot carry). Depth: 2P lcan_rr_pick stages.
// Extended for UP_CHOICE (spec 6): a ONE requester with req_sig set scans the last U outputs (the
// uppers, D = P - U) in the order D + sigma[0], .., D + sigma[U-1] instead of cyclically from its
// start (up_perm[q*U + u] = (sigma[q] == u)); the first free one in that order is granted.
`default_nettype none

module lcan_alloc_chain #(
    // number of requesters = number of outputs (the switch's local ports)
    parameter P = 4,
    // width of a port index (at least 1)
    parameter SW = 2,
    // uppers (the last U outputs) for the sigma scan; 0: no requester uses it
    parameter U = 0
) (
    input  wire [P-1:0]    req_valid,
    // requester i scans the uppers in sigma order (a ONE request of class UP under uniform)
    input  wire [P-1:0]    req_sig,
    input  wire [((U>0)?U*U:1)-1:0] up_perm,
    input  wire [P-1:0]    req_all,
    input  wire [P*P-1:0]  req_want,
    input  wire [P*SW-1:0] req_start,
    input  wire [SW-1:0]   r_in,
    input  wire [P-1:0]    avail,
    output wire [P*P-1:0]  grant
);
    localparam UU = (U > 0) ? U : 1;
    localparam D = P - U;

    // the first free upper in sigma order (spec 6, uniform): row q of up_perm is sigma[q]
    function [P-1:0] sig_pick;
        input [P-1:0]     fr;
        input [UU*UU-1:0] pm;
        integer q, u;
        reg found;
        begin
            sig_pick = {P{1'b0}};
            found = 1'b0;
            for (q = 0; q < U; q = q + 1)
                for (u = 0; u < U; u = u + 1)
                    if (!found && pm[q*UU + u] && fr[D + u]) begin
                        sig_pick[D + u] = 1'b1;
                        found = 1'b1;
                    end
        end
    endfunction

    // ge[i] = (i >= r_in): requester i is served in the first half of the chain
    wire [P-1:0] ones = {P{1'b1}};
    wire [P-1:0] ge = ones << r_in;

    genvar k;
    generate
        for (k = 0; k < 2 * P; k = k + 1) begin : g_stage
            localparam I = k % P;
            // taken_in: outputs granted by stages 0..k-1; taken_out adds this stage's grant
            wire [P-1:0] taken_in;
            wire [P-1:0] taken_out;
            wire         active = req_valid[I] & ((k < P) ? ge[I] : ~ge[I]);
            wire [P-1:0] free = req_want[I*P +: P] & avail & ~taken_in;
            wire [P-1:0] pick;
            wire [P-1:0] gnt;

            if (k == 0) begin : g_first
                assign taken_in = {P{1'b0}};
            end else begin : g_next
                assign taken_in = g_stage[k-1].taken_out;
            end

            lcan_rr_pick #(
                .WIDTH(P),
                .SW   (SW)
            ) u_pick (
                .req  (free),
                .start(req_start[I*SW +: SW]),
                .gnt  (pick)
            );

            wire [P-1:0] spick = sig_pick(free, up_perm);
            assign gnt = active ? (req_all[I] ? free : req_sig[I] ? spick : pick) : {P{1'b0}};
            assign taken_out = taken_in | gnt;
        end

        for (k = 0; k < P; k = k + 1) begin : g_grant
            // each requester is active in exactly one of its two stages
            assign grant[k*P +: P] = g_stage[k].gnt | g_stage[k+P].gnt;
        end
    endgenerate

    // the last stage's running set is not needed
    wire unused_ok = &{1'b0, g_stage[2*P-1].taken_out};
endmodule

`resetall
