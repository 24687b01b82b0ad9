// lcan_alloc_chain_wrap: the reference allocator (lcan_alloc_chain, the former 2P-stage chain) behind
// lcan_alloc's class interface. Requests are turned into want/start sets exactly as lcan_switch built
// them before the log-depth allocator: class UP -> ONE, want = the uppers, start = D + r_up; class
// DOWN(x) -> ONE, want = links x*PDN.., start = x*PDN + r_dn; broadcast set {upper 0} alone -> ONE,
// want = {D}, start = D (the climbing broadcast); any other broadcast set -> ALL, want = link 0 of
// each child in the set (plus D if upper 0 is in it). req_valid marks requesters that are valid
// without a request (route's `bad`; empty want); a requester with a class or a set is valid.
// out_valid/out_src are derived from the grants. Test and proof use only; combinational.
// UP_CHOICE = 1: class UP scans the uppers in sigma order (up_perm[q*U + u] = (sigma[q] == u),
// the chain's req_sig) instead of from D + r_up; everything else as above.
`default_nettype none

module lcan_alloc_chain_wrap #(
    parameter M = 2,
    parameter PDN = 1,
    parameter U = 2,
    parameter SW = 2,
    parameter UP_CHOICE = 0
) (
    input  wire [M*PDN+U-1:0]                   req_valid,
    input  wire [(M*PDN+U)*(M+((U>0)?1:0))-1:0] req_cls,
    input  wire [(M*PDN+U)*(M+((U>0)?1:0))-1:0] req_spc,
    input  wire [SW-1:0]                        r_in,
    input  wire [SW-1:0]                        r_up,
    input  wire [SW-1:0]                        r_dn,
    input  wire [M*PDN+U-1:0]                   avail,
    input  wire [((U>0)?U*U:1)-1:0]             up_perm,
    output wire [(M*PDN+U)*(M*PDN+U)-1:0]       grant,
    output reg  [M*PDN+U-1:0]                   out_valid,
    output reg  [(M*PDN+U)*SW-1:0]              out_src
);
    localparam D = M * PDN;
    localparam P = D + U;
    localparam G = M + ((U > 0) ? 1 : 0);
    localparam [SW-1:0] D_IDX = D;
    localparam [SW-1:0] PDN_IDX = PDN;

    reg [P-1:0]    valid;
    reg [P-1:0]    all;
    reg [P-1:0]    sig;
    reg [P*P-1:0]  want;
    reg [P*SW-1:0] start;
    reg [SW-1:0]   x_idx;
    integer i, g, k, o;

    always @* begin
        valid = req_valid;
        all = {P{1'b0}};
        sig = {P{1'b0}};
        want = {(P*P){1'b0}};
        start = {(P*SW){1'b0}};
        for (i = 0; i < P; i = i + 1) begin
            if (|req_spc[i*G +: G]) begin
                valid[i] = 1'b1;
                if (U > 0 && req_spc[i*G +: G] == ({{(G-1){1'b0}}, 1'b1} << M)) begin
                    want[i*P + D] = 1'b1;
                    start[i*SW +: SW] = D_IDX;
                end else begin
                    all[i] = 1'b1;
                    for (g = 0; g < G; g = g + 1)
                        if (req_spc[i*G + g])
                            want[i*P + ((g < M) ? g * PDN : D)] = 1'b1;
                end
            end else begin
                for (g = 0; g < G; g = g + 1)
                    if (req_cls[i*G + g]) begin
                        valid[i] = 1'b1;
                        if (g == M) begin
                            for (k = 0; k < U; k = k + 1)
                                want[i*P + D + k] = 1'b1;
                            start[i*SW +: SW] = D_IDX + r_up;
                            sig[i] = (UP_CHOICE != 0);
                        end else begin
                            for (k = 0; k < PDN; k = k + 1)
                                want[i*P + g*PDN + k] = 1'b1;
                            x_idx = g;
                            start[i*SW +: SW] = x_idx * PDN_IDX + r_dn;
                        end
                    end
            end
        end
    end

    lcan_alloc_chain #(
        .P (P),
        .SW(SW),
        .U (U)
    ) u_chain (
        .req_valid(valid),
        .req_sig  (sig),
        .up_perm  (up_perm),
        .req_all  (all),
        .req_want (want),
        .req_start(start),
        .r_in     (r_in),
        .avail    (avail),
        .grant    (grant)
    );

    always @* begin
        out_valid = {P{1'b0}};
        out_src = {(P*SW){1'b0}};
        for (o = 0; o < P; o = o + 1)
            for (i = 0; i < P; i = i + 1)
                if (grant[i*P + o]) begin
                    out_valid[o] = 1'b1;
                    out_src[o*SW +: SW] = out_src[o*SW +: SW] | i[SW-1:0];
                end
    end
endmodule

`resetall
