// lcan_geom.vh: the network geometry of docs/spec.md 1.1, 2.1-2.3 and 13 as Verilog constant
// functions, the one place the Verilog derives it. `include it inside a module body that declares
// the parameters H, M, W, P (spec 13: per-level 32-bit fields, level 1 in the low bits) and
// PAYLOAD_W; the functions read them. Used by rtl/lcan_network.v, tb/tb_top.v and tb/smoke/*.v
// (the include directory is rtl/: verilator -Irtl, iverilog -Irtl; yosys finds it beside the
// including file). Not a compilation unit of its own: rtl/lcan_network.f does not list it.
// Products saturate at SAT (far above every limit), so that rejected parameters cannot overflow
// before f_geom_err names the rule they break.

localparam SAT = 32'h4000_0000;

// ceil(log2(x)), 0 for x <= 1: B_l = clog2(m_l) (spec 2.1)
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

function integer sat_mul;
    input integer a;
    input integer b;
    begin
        if (a <= 0 || b <= 0)
            sat_mul = 0;
        else if (a >= SAT / b)
            sat_mul = SAT;
        else
            sat_mul = a * b;
    end
endfunction

// m_l, w_l, p_l of level l (1..H)
function integer m_of;
    input integer l;
    begin
        m_of = M[(l-1)*32 +: 32];
    end
endfunction

function integer w_of;
    input integer l;
    begin
        w_of = W[(l-1)*32 +: 32];
    end
endfunction

function integer p_of;
    input integer l;
    begin
        p_of = P[(l-1)*32 +: 32];
    end
endfunction

// N = m_1*..*m_h
function integer f_n;
    input integer h;
    integer j;
    begin
        f_n = 1;
        for (j = 1; j <= h; j = j + 1)
            f_n = sat_mul(f_n, m_of(j));
    end
endfunction

// w_1*..*w_l (1 for l = 0)
function integer f_wprod;
    input integer l;
    integer j;
    begin
        f_wprod = 1;
        for (j = 1; j <= l; j = j + 1)
            f_wprod = sat_mul(f_wprod, w_of(j));
    end
endfunction

// S_l = w_1*..*w_l * m_{l+1}*..*m_h
function integer f_s;
    input integer l;
    integer j;
    begin
        f_s = f_wprod(l);
        for (j = l + 1; j <= H; j = j + 1)
            f_s = sat_mul(f_s, m_of(j));
    end
endfunction

// D_l = m_l*p_l downers, U_l = w_{l+1}*p_{l+1} uppers (0 at the top); P_l = D_l + U_l
function integer f_d;
    input integer l;
    begin
        f_d = sat_mul(m_of(l), p_of(l));
    end
endfunction

function integer f_u;
    input integer l;
    begin
        f_u = (l < H) ? sat_mul(w_of(l + 1), p_of(l + 1)) : 0;
    end
endfunction

// the geometry rules of spec 1.1: 0 = fine, else the rule broken (1..7; lcan_network's f_err adds
// the rules of its other parameters and the messages)
function integer f_geom_err;
    input integer h;
    integer j;
    integer tot;
    begin
        f_geom_err = 0;
        tot = 0;
        if (h < 1 || h > 16)
            f_geom_err = 1;
        else begin
            for (j = h; j >= 1; j = j - 1) begin
                if (m_of(j) < 2 || m_of(j) > 64) f_geom_err = 2;
                else if (w_of(j) < 1 || w_of(j) > 64) f_geom_err = 3;
                else if (p_of(j) < 1 || p_of(j) > 64) f_geom_err = 4;
            end
            if (f_geom_err == 0) begin
                for (j = 1; j <= h; j = j + 1) begin
                    if (f_d(j) + f_u(j) > 128) f_geom_err = 5;
                    tot = tot + f_s(j);
                    if (tot > SAT) tot = SAT;
                end
                if (f_geom_err == 0 && f_n(h) > (1 << 20)) f_geom_err = 6;
                if (f_geom_err == 0 && tot > (1 << 22)) f_geom_err = 7;
            end
        end
    end
endfunction

// U0 = w_1*p_1 leaf ports, NP = N*U0 network ports (1 for rejected geometry, so that port lists
// stay small until the message)
function integer f_u0;
    input integer h;
    begin
        f_u0 = (h >= 1) ? sat_mul(w_of(1), p_of(1)) : 0;
    end
endfunction

function integer f_np;
    input integer h;
    begin
        f_np = (f_geom_err(h) != 0) ? 1 : sat_mul(f_n(h), f_u0(h));
    end
endfunction

// O_l: bit offset of digit field l in a packed address (spec 2.1); O_{h+1} = ADDR_W
function integer f_dig_off;
    input integer l;
    integer j;
    begin
        f_dig_off = 0;
        for (j = 1; j < l; j = j + 1)
            f_dig_off = f_dig_off + clog2(m_of(j));
    end
endfunction

// FW = 2 + ADDR_W + PAYLOAD_W (spec 3)
function integer f_fw;
    input integer h;
    begin
        f_fw = 2 + f_dig_off(h + 1) + PAYLOAD_W;
    end
endfunction

// first link of level l (links numbered by switch index, then downer); f_lk_off(H+1) = links
function integer f_lk_off;
    input integer l;
    integer j;
    begin
        f_lk_off = 0;
        for (j = 1; j < l; j = j + 1)
            f_lk_off = f_lk_off + sat_mul(f_s(j), f_d(j));
    end
endfunction

// first switch of level l in the fault numbering (spec 14.1): SW_OFF(l) = S_1 + .. + S_{l-1};
// f_sw_off(H+1) = NS
function integer f_sw_off;
    input integer l;
    integer j;
    begin
        f_sw_off = 0;
        for (j = 1; j < l; j = j + 1)
            f_sw_off = f_sw_off + f_s(j);
    end
endfunction

// first reach row of level l (spec 14.2): ROW_OFF(l) = sum of S_j*U_j, j < l; f_row_off(H) = NR
function integer f_row_off;
    input integer l;
    integer j;
    begin
        f_row_off = 0;
        for (j = 1; j < l; j = j + 1)
            f_row_off = f_row_off + sat_mul(f_s(j), f_u(j));
    end
endfunction

// the fault pins' widths (spec 13, 14.1-14.2), at least 1 each (a rejected geometry gives 1):
// NL links, NS switches, RW = 2^ADDR_W bits of a reach row
function integer f_nl;
    input integer h;
    begin
        f_nl = (f_geom_err(h) != 0) ? 1 : f_lk_off(h + 1);
    end
endfunction

function integer f_ns;
    input integer h;
    begin
        f_ns = (f_geom_err(h) != 0) ? 1 : f_sw_off(h + 1);
    end
endfunction

function integer f_rw;
    input integer h;
    begin
        f_rw = (f_geom_err(h) != 0) ? 1 : (1 << f_dig_off(h + 1));
    end
endfunction

// first debug byte of level l (spec 9); f_dbg_off(H+1) = DBG_BYTES (1 for rejected geometry)
function integer f_dbg_off;
    input integer l;
    integer j;
    begin
        f_dbg_off = (f_geom_err(H) != 0) ? 1 : 0;
        for (j = 1; j < l && f_geom_err(H) == 0; j = j + 1)
            f_dbg_off = f_dbg_off + sat_mul(f_s(j), f_d(j) + f_u(j));
    end
endfunction

// digits a_{l+1}..a_h of a_part = a_{l+1} + m_{l+1}*(a_{l+2} + ..) as a packed address whose
// field l+1 starts at bit off (fields 1..l zero): the label of a level-l switch (spec 2.2) with
// off = O_{l+1}, and with l = 0, off = 0 the packed address of leaf a_part (spec 2.1)
function [63:0] f_label;
    input integer l;
    input integer a_part;
    input integer off;
    integer a;
    integer j;
    integer o;
    integer digit;
    begin
        f_label = 64'd0;
        a = a_part;
        o = off;
        for (j = l + 1; j <= H; j = j + 1) begin
            digit = a % m_of(j);
            f_label = f_label | ({32'd0, digit[31:0]} << o);
            a = a / m_of(j);
            o = o + clog2(m_of(j));
        end
    end
endfunction

// the packed address of leaf number s (spec 2.1)
function [63:0] f_leaf_addr;
    input integer s;
    begin
        f_leaf_addr = f_label(0, s, 0);
    end
endfunction

// digit a_i (1..h) of leaf number s = a_1 + m_1*(a_2 + m_2*(..)) (spec 2.1)
function integer f_digit;
    input integer s;
    input integer i;
    integer j;
    integer v;
    begin
        v = s;
        for (j = 1; j < i; j = j + 1)
            v = v / m_of(j);
        f_digit = v % m_of(i);
    end
endfunction

// LCA level of leaves s and t: their most significant differing digit, 1 when s = t (spec 4)
function integer f_lca;
    input integer s;
    input integer t;
    integer i;
    begin
        f_lca = 1;
        for (i = 1; i <= H; i = i + 1)
            if (f_digit(s, i) != f_digit(t, i)) f_lca = i;
    end
endfunction

// the derived sizes of spec 13. An includer need not use every one of them (N and DBG_BYTES are
// the testbenches', LINKS lcan_network's): UNUSEDPARAM is off for these lines only, here rather
// than in rtl/lint.vlt so that the waiver travels with the include into generated cores.
// verilator lint_off UNUSEDPARAM
localparam N = f_n(H);
localparam U0 = f_u0(H);
localparam NP = f_np(H);
localparam ADDR_W = f_dig_off(H + 1);
localparam FW = f_fw(H);
localparam DBG_BYTES = f_dbg_off(H + 1);
localparam LINKS = f_lk_off(H + 1);
// the fault pins' widths (spec 13, 14): NL links (= LINKS), NS switches, NR reach rows (at least
// 1), RW = 2^ADDR_W bits per row
localparam NL = f_nl(H);
localparam NS = f_ns(H);
localparam NR = (f_geom_err(H) != 0 || f_row_off(H) < 1) ? 1 : f_row_off(H);
localparam RW = f_rw(H);
// verilator lint_on UNUSEDPARAM
