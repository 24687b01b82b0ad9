// fifo_ring_miter: scripts/prove-fifo.sh. lcan_fifo_ring (lcan_fifo of a revision with the ring of read
// and write pointers, renamed) against the working tree's lcan_fifo, same inputs: count, empty and
// full always equal, head equal whenever the FIFO is not empty (the switch reads head only then).
module fifo_ring_miter #(parameter W = 2, parameter D = 3, parameter AW = 2, parameter CW = 2) (
    input wire clk, input wire rst, input wire arrive, input wire push, input wire pop, input wire [W-1:0] din);
    wire [W-1:0] h0, h1; wire e0, e1, f0, f1; wire [CW-1:0] c0, c1;
    lcan_fifo_ring #(.WIDTH(W), .DEPTH(D), .AW(AW), .CW(CW)) u0 (.clk(clk), .rst(rst), .arrive(arrive), .push(push & arrive),
        .din(din), .pop(pop), .head(h0), .empty(e0), .full(f0), .count(c0));
    lcan_fifo #(.WIDTH(W), .DEPTH(D), .CW(CW)) u1 (.clk(clk), .rst(rst), .arrive(arrive), .push(push & arrive),
        .din(din), .pop(pop), .head(h1), .empty(e1), .full(f1), .count(c1));
    always @* if (!rst) begin
        assert (c0 == c1);
        assert (e0 == e1);
        assert (f0 == f1);
        assert (e0 || h0 == h1);
    end
endmodule
