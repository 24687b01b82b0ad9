/*
 * switch.c - one switch as a unit (include/lcan_switch.h, spec 13.1): the ports of rtl/lcan_switch.v
 * as plain arrays around the tick of sw.c, which the network's full-scan tick runs as well.
 *
 * The unit owns its state (lcan_sw_state points into it), its output registers and its U reach
 * rows. The rows are stored inverted (sw.h), allocated with calloc when the unit is made, so that
 * rows never written (all ones) are zero pages and cost no memory; row_dirty says which rows are
 * not all ones, so a reset clears only those.
 */
#include <stdlib.h>
#include <string.h>

#include "geom.h"
#include "lcan_faults.h"
#include "lcan_switch.h"
#include "lfsr.h"
#include "sw.h"

#define SW_MAX_ADDR_W 24 /* spec 1.1's limits give ADDR_W <= 24 (13: RW = 2^ADDR_W bits) */

struct lcan_sw {
    lcan_sw_cfg cfg;
    lcan_sw_k k;
    lcan_sw_state st;
    uint32_t lfsr, cnt_up, cnt_down, cnt_drop;
    uint8_t set[LCAN_MAX_PORTS], src[LCAN_MAX_PORTS];
    uint16_t cr[LCAN_MAX_PORTS], fhead[LCAN_MAX_PORTS], fcount[LCAN_MAX_PORTS];
    lcan_pset served[LCAN_MAX_PORTS];
    uint64_t *fifo;                       /* packet mode: P * DEPTH */
    uint64_t *fq;                         /* packet mode, FLOOD_Q > 0: the flood queues (sw.h) */
    uint8_t fq_head[LCAN_MAX_PORTS], fq_count[LCAN_MAX_PORTS];
    uint64_t tx[LCAN_MAX_PORTS];          /* output flit registers (LCAN_SW_VALID when valid) */
    uint8_t ret[LCAN_MAX_PORTS];          /* ack-out / credit-out registers */
    uint64_t *rows;                       /* U rows of rww words, inverted (NULL when U = 0) */
    uint8_t row_dirty[LCAN_MAX_PORTS];
    uint32_t n_dirty, rww;
};

uint32_t lcan_sw_seed_of(uint32_t net_seed, int level, uint32_t index)
{
    uint32_t h[3];
    lcan_lfsr_seed_hashes(net_seed, h);
    return lcan_lfsr_seed_input(h, lcan_lfsr_salt(level, index));
}

lcan_status lcan_sw_cfg_of(const lcan_topo *t, const lcan_cfg *cfg, int level, uint32_t index,
                           lcan_sw_cfg *out)
{
    int h, j, digit[LCAN_MAX_LEVELS + 1];
    uint64_t row;
    if (t == NULL || out == NULL)
        return LCAN_ERR_ARG;
    h = lcan_topo_levels(t);
    if (level < 1 || level > h || index >= lcan_topo_switches(t, level))
        return LCAN_ERR_ARG;
    memset(out, 0, sizeof *out);
    out->level = level;
    out->m = lcan_topo_m(t, level);
    out->p_dn = lcan_topo_p(t, level);
    out->w_up = level < h ? lcan_topo_w(t, level + 1) : 0;
    out->p_up = level < h ? lcan_topo_p(t, level + 1) : 1; /* as lcan_network's P_UP at the top */
    out->addr_w = lcan_topo_addr_width(t);
    out->dig_off = lcan_topo_field_offset(t, level);
    out->dig_w = lcan_topo_field_width(t, level);
    if (cfg != NULL)
        out->cfg = *cfg;
    else
        lcan_cfg_default(&out->cfg);
    lcan_topo_switch_label(t, level, index, digit);
    for (j = level + 1; j <= h; j++)
        out->label |= (uint32_t)digit[j] << lcan_topo_field_offset(t, j);
    out->salt = lcan_lfsr_salt(level, index);
    row = lcan_topo_row_offset(t, level) + (uint64_t)index * (uint64_t)(out->w_up * out->p_up);
    out->row_base = (uint32_t)row;
    return LCAN_OK;
}

static int cfg_ok(const lcan_sw_cfg *c)
{
    const lcan_cfg *m = &c->cfg;
    if (c->level < 1 || c->level > LCAN_MAX_LEVELS || c->m < 1 || c->p_dn < 1 || c->w_up < 0 || c->p_up < 1 ||
        c->m > LCAN_MAX_PORTS || c->p_dn > LCAN_MAX_PORTS || c->w_up > LCAN_MAX_PORTS || c->p_up > LCAN_MAX_PORTS ||
        c->m * c->p_dn + c->w_up * c->p_up > LCAN_MAX_PORTS)
        return 0;
    if (c->addr_w < 0 || c->addr_w > SW_MAX_ADDR_W || c->dig_off < 0 || c->dig_w < 0 ||
        c->dig_off + c->dig_w > c->addr_w || c->m > (1 << c->dig_w))
        return 0;
    if ((m->mode != LCAN_CIRCUIT && m->mode != LCAN_PACKET) || m->payload_w < 1 || m->payload_w > 32 ||
        m->depth < 1 || m->depth > 255 || m->flood_q < 0 || m->flood_q > 255 ||
        (m->up_choice != LCAN_UP_ROTATE && m->up_choice != LCAN_UP_UNIFORM) || 2 + c->addr_w + m->payload_w > 63)
        return 0;
    return 1;
}

static void reset_rows(lcan_sw *s)
{
    int j;
    for (j = 0; s->n_dirty > 0 && j < s->k.U; j++)
        if (s->row_dirty[j]) {
            memset(s->rows + (size_t)j * s->rww, 0, (size_t)s->rww * sizeof *s->rows);
            s->row_dirty[j] = 0;
            s->n_dirty--;
        }
}

static void sw_reset(lcan_sw *s, uint32_t seed)
{
    lcan_sw_reset(&s->k, &s->st, lcan_lfsr_load(seed, s->cfg.salt), s->tx, s->ret);
    reset_rows(s);
}

lcan_status lcan_sw_new(const lcan_sw_cfg *cfg, lcan_sw **out)
{
    lcan_sw *s;
    if (out == NULL)
        return LCAN_ERR_ARG;
    *out = NULL;
    if (cfg == NULL || !cfg_ok(cfg))
        return LCAN_ERR_ARG;
    if (!lcan_sw_unicast_only_ok(&cfg->cfg)) /* spec 8.8 */
        return LCAN_ERR_PARAM;
    s = calloc(1, sizeof *s);
    if (s == NULL)
        return LCAN_ERR_NOMEM;
    s->cfg = *cfg;
    lcan_sw_k_init(&s->k, cfg->level, cfg->m, cfg->p_dn, cfg->w_up * cfg->p_up, cfg->addr_w, cfg->dig_off,
                   cfg->dig_w, &cfg->cfg);
    s->rww = (uint32_t)((((uint64_t)1 << cfg->addr_w) + 63u) / 64u);
    if (cfg->cfg.mode == LCAN_PACKET)
        s->fifo = calloc((size_t)s->k.P * (size_t)cfg->cfg.depth, sizeof *s->fifo);
    if (s->k.flood_q > 0)
        s->fq = calloc((size_t)lcan_sw_fq_queues(&s->k) * (size_t)s->k.flood_q, sizeof *s->fq);
    if (s->k.U > 0)
        s->rows = calloc((size_t)s->k.U * s->rww, sizeof *s->rows);
    if ((cfg->cfg.mode == LCAN_PACKET && s->fifo == NULL) || (s->k.flood_q > 0 && s->fq == NULL) ||
        (s->k.U > 0 && s->rows == NULL)) {
        lcan_sw_free(s);
        return LCAN_ERR_NOMEM;
    }
    s->st.lfsr = &s->lfsr;
    s->st.set = s->set;
    s->st.src = s->src;
    s->st.cr = s->cr;
    s->st.fifo = s->fifo;
    s->st.fhead = s->fhead;
    s->st.fcount = s->fcount;
    s->st.served = s->served;
    if (s->k.flood_q > 0) {
        s->st.fq = s->fq;
        s->st.fq_head = s->fq_head;
        s->st.fq_count = s->fq_count;
    }
    s->st.cnt_up = &s->cnt_up;
    s->st.cnt_down = &s->cnt_down;
    s->st.cnt_drop = &s->cnt_drop;
    sw_reset(s, 0); /* spec 9: the state a reset with seed 0 leaves */
    *out = s;
    return LCAN_OK;
}

void lcan_sw_free(lcan_sw *s)
{
    if (s == NULL)
        return;
    free(s->fifo);
    free(s->fq);
    free(s->rows);
    free(s);
}

int lcan_sw_ports(const lcan_sw *s) { return s != NULL ? s->k.P : 0; }
int lcan_sw_flit_width(const lcan_sw *s) { return s != NULL ? 2 + s->cfg.addr_w + s->cfg.cfg.payload_w : 0; }

/* Row j := row (cfg_row's layout: bit a of word a / 64), stored inverted; bits at RW and above of
 * row are not part of it. */
static void write_row(lcan_sw *s, int j, const uint64_t *row)
{
    uint64_t *dst = s->rows + (size_t)j * s->rww, any = 0, lim = ~(uint64_t)0;
    uint32_t w;
    if (s->cfg.addr_w < 6)
        lim = ((uint64_t)1 << (1u << s->cfg.addr_w)) - 1u;
    for (w = 0; w < s->rww; w++) {
        dst[w] = ~row[w] & lim;
        any |= dst[w];
    }
    s->n_dirty = s->n_dirty - s->row_dirty[j] + (any != 0);
    s->row_dirty[j] = (uint8_t)(any != 0);
}

void lcan_sw_tick(lcan_sw *s, const lcan_sw_in *in, lcan_sw_out *out)
{
    const lcan_sw_k *k;
    int P, i;
    if (s == NULL || in == NULL)
        return;
    k = &s->k;
    P = k->P;
    if (in->rst) {
        sw_reset(s, in->seed);
    } else if (in->clear && k->mode == LCAN_CIRCUIT) {
        lcan_sw_clear(k, &s->st, s->tx, s->ret);
    } else {
        uint64_t rx[LCAN_MAX_PORTS];
        uint8_t ret_in[LCAN_MAX_PORTS];
        lcan_sw_faults f;
        const lcan_sw_faults *flt = NULL;
        for (i = 0; i < P; i++) {
            rx[i] = (in->rx_valid != NULL && in->rx_valid[i] && in->rx_flit != NULL)
                        ? LCAN_SW_VALID | (in->rx_flit[i] & k->fmask) : 0;
            ret_in[i] = (uint8_t)(in->tx_ret != NULL && in->tx_ret[i]);
        }
        if (in->port_off != NULL || s->n_dirty > 0) { /* faults (spec 14.3) */
            lcan_pset_clear(&f.off);
            for (i = 0; in->port_off != NULL && i < P; i++)
                if (in->port_off[i])
                    lcan_pset_add(&f.off, i);
            f.rows = s->n_dirty > 0 ? s->rows : NULL;
            f.rww = s->rww;
            flt = &f;
        }
        if (k->mode == LCAN_CIRCUIT)
            lcan_sw_circuit_tick(k, s->cfg.label, &s->st, rx, ret_in, flt, s->tx, s->ret);
        else
            lcan_sw_packet_tick(k, s->cfg.label, &s->st, rx, ret_in, flt, s->tx, s->ret);
    }
    /* the reach-table write port (spec 14.2): not on reset ticks; used from the next tick on */
    if (!in->rst && in->cfg_we && in->cfg_row != NULL &&
        (uint64_t)in->cfg_addr >= s->cfg.row_base && (uint64_t)in->cfg_addr < (uint64_t)s->cfg.row_base + (uint64_t)k->U)
        write_row(s, (int)(in->cfg_addr - s->cfg.row_base), in->cfg_row);
    if (out == NULL)
        return;
    for (i = 0; i < P; i++) {
        if (out->rx_ret)
            out->rx_ret[i] = s->ret[i];
        if (out->tx_valid)
            out->tx_valid[i] = (uint8_t)((s->tx[i] & LCAN_SW_VALID) != 0);
        if (out->tx_flit)
            out->tx_flit[i] = s->tx[i] & k->fmask;
        if (out->dbg)
            out->dbg[i] = lcan_sw_dbg(k, &s->st, i);
        if (out->dbg && k->flood_q > 0) /* spec 13.1: the second half, q_o */
            out->dbg[P + i] = lcan_sw_dbg_q(k, &s->st, i);
    }
    out->cnt_up = s->cnt_up;
    out->cnt_down = s->cnt_down;
    out->cnt_drop = s->cnt_drop;
}
