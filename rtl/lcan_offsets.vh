// lcan_offsets.vh: spec 5's allocator offsets and the upper permutation sigma of one LFSR state,
// the one description of them: the body (declarations, then statements) of a named block.
// lcan_offsets includes it in an always @* block (the combinational cell of the cell tests);
// lcan_switch in its register block, on the value the LFSR loads at the end of the tick, so that a
// simulator evaluates it once per clock edge. Plain statements, no function or task: Verilator
// would inline a function's temporaries into every switch instance's own code.
//
// The includer defines, before the block:
//   OF_P, OF_U, OF_PDN   local ports, uppers (0 at the top), parallel links per child
//   OF_SW                width of a local port index (clog2(OF_P))
//   OF_K_IN, OF_K_UP, OF_K_DN   clog2(OF_P), clog2(OF_U), clog2(OF_PDN): LFSR field bits used
//   OF_SIGMA             1: draw sigma (UP_CHOICE = 1 and OF_U > 1); 0: sigma is the identity
//   OF_UX                (OF_U > 0) ? OF_U : 1
//   OF_PERM_W            (OF_U > 0) ? OF_U * OF_U : 1
//   of_state             [31:0], the LFSR state
// and reads, after the include, the block's of_r_in, of_r_up, of_r_dn ([OF_SW-1:0]) and of_perm
// ([OF_PERM_W-1:0]).
//
// r_in = red(s[7:0] & (2^K_IN-1), P), r_up = red(s[15:8] & (2^K_UP-1), U), r_dn = red(s[23:16] &
// (2^K_DN-1), PDN), red(r, n) = r - n if r >= n else r (masking is bit selection; each reduction
// one compare and one conditional subtraction). sigma: Fisher-Yates over the stream
// z = {s[23:16], s[7:0], s[31:24], s[15:8]} read cyclically from bit 0; stage k (n = U - k) reads
// w = clog2(n) (+2 when n is not a power of two) bits, reduces them mod n by three conditional
// subtractions (v < 2^w <= 8n) and swaps sigma[k] with sigma[k + (v mod n)]. of_perm is sigma as a
// one-hot matrix, of_perm[q*U + u] = (sigma[q] == u): the identity when OF_SIGMA = 0, one bit (1)
// when U = 0.
//
// The rotations read 24 of the state's 32 bits and keep SW of the 8 bits of each spec field; at the
// top level (U = 0) red(r, 0) compares with 0: UNUSEDSIGNAL and UNSIGNED are off for the block,
// here rather than in rtl/lint.vlt so that the waiver travels with the include.
// verilator lint_off UNUSEDSIGNAL
// verilator lint_off UNSIGNED
            reg [7:0]              of_m_in, of_m_up, of_m_dn;
            reg [7:0]              of_red_in, of_red_up, of_red_dn;
            reg [OF_SW-1:0]        of_r_in, of_r_up, of_r_dn;
            reg [31:0]             of_z;
            reg [OF_UX*OF_SW-1:0]  of_sig;
            reg [OF_SW-1:0]        of_held;
            reg [OF_PERM_W-1:0]    of_perm;
            reg [11:0]             of_v, of_n1, of_wm;
            integer                of_k, of_q, of_t, of_n, of_w, of_b;

            of_m_in = of_state[7:0] & ((8'd1 << OF_K_IN) - 8'd1);
            of_m_up = of_state[15:8] & ((8'd1 << OF_K_UP) - 8'd1);
            of_m_dn = of_state[23:16] & ((8'd1 << OF_K_DN) - 8'd1);
            of_red_in = (of_m_in >= OF_P[7:0]) ? of_m_in - OF_P[7:0] : of_m_in;
            of_red_up = (of_m_up >= OF_U[7:0]) ? of_m_up - OF_U[7:0] : of_m_up;
            of_red_dn = (of_m_dn >= OF_PDN[7:0]) ? of_m_dn - OF_PDN[7:0] : of_m_dn;
            of_r_in = of_red_in[OF_SW-1:0];
            of_r_up = of_red_up[OF_SW-1:0];
            of_r_dn = of_red_dn[OF_SW-1:0];

            of_z = {of_state[23:16], of_state[7:0], of_state[31:24], of_state[15:8]};
            for (of_q = 0; of_q < OF_UX; of_q = of_q + 1)
                of_sig[of_q*OF_SW +: OF_SW] = of_q[OF_SW-1:0];
            of_b = 0;
            for (of_k = 0; of_k + 1 < OF_UX; of_k = of_k + 1) begin
                if (OF_SIGMA != 0) begin
                    of_n = OF_UX - of_k;
                    of_n1 = of_n[11:0];
                    // w = clog2(n), + 2 when n is not a power of two
                    of_w = 0;
                    for (of_t = 0; of_t < 9; of_t = of_t + 1)
                        if ((1 << of_t) < of_n)
                            of_w = of_t + 1;
                    if ((1 << of_w) != of_n)
                        of_w = of_w + 2;
                    of_v = 12'd0;
                    for (of_t = 0; of_t < 12; of_t = of_t + 1)
                        if (of_t < of_w)
                            of_v[of_t] = of_z[(of_b + of_t) % 32];
                    // each difference masked to w bits (a no-op: v < 2^w and v >= the
                    // subtrahend), so that synthesis sees w-bit compares and subtractions, not
                    // 12-bit carry chains (docs/synthesis.md 15)
                    of_wm = (12'd1 << of_w) - 12'd1;
                    if (of_v >= 12'd4 * of_n1)
                        of_v = (of_v - 12'd4 * of_n1) & of_wm;
                    if (of_v >= 12'd2 * of_n1)
                        of_v = (of_v - 12'd2 * of_n1) & of_wm;
                    if (of_v >= of_n1)
                        of_v = (of_v - of_n1) & of_wm;
                    // swap sigma[k] and sigma[k + v] (v = 0: no change)
                    of_held = of_sig[of_k*OF_SW +: OF_SW];
                    for (of_q = of_k + 1; of_q < OF_UX; of_q = of_q + 1)
                        if (of_v == of_q[11:0] - of_k[11:0]) begin
                            of_sig[of_k*OF_SW +: OF_SW] = of_sig[of_q*OF_SW +: OF_SW];
                            of_sig[of_q*OF_SW +: OF_SW] = of_held;
                        end
                    of_b = (of_b + of_w) % 32;
                end
            end
            of_perm = {OF_PERM_W{1'b1}};
            if (OF_U > 0)
                for (of_q = 0; of_q < OF_UX; of_q = of_q + 1)
                    for (of_t = 0; of_t < OF_UX; of_t = of_t + 1)
                        of_perm[(of_q*OF_UX + of_t) % OF_PERM_W] = (of_sig[of_q*OF_SW +: OF_SW] == of_t[OF_SW-1:0]);
// verilator lint_on UNSIGNED
// verilator lint_on UNUSEDSIGNAL
