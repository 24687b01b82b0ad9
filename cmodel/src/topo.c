/*
 * topo.c - topology queries (spec 1-2, 4): counts, distances, packed addresses, switch labels,
 * wiring. The struct is filled by lcan_topo_parse (parse.c) and read-only afterwards.
 *
 * Out-of-range arguments never crash: integer queries return 0 (or UINT32_MAX where 0 is a valid
 * answer, as noted), lcan_topo_neighbor returns LCAN_ERR_ARG.
 */
#include <stddef.h>

#include "topo_internal.h"
#include "lcan_faults.h"

void lcan_topo_derive(struct lcan_topo *t)
{
    int l, j;
    uint32_t n = 1;

    t->leaf_radix[1] = 1;
    for (l = 1; l <= t->h; l++) {
        n *= (uint32_t)t->m[l];
        t->leaf_radix[l + 1] = n;
    }
    t->N = n;
    t->S[0] = n;
    for (l = 1; l <= t->h; l++) {
        uint32_t s = 1;
        for (j = 1; j <= l; j++)
            s *= (uint32_t)t->w[j];
        for (j = l + 1; j <= t->h; j++)
            s *= (uint32_t)t->m[j];
        t->S[l] = s;
    }
    t->L[0] = 0;
    t->D[0] = 0;
    for (l = 1; l <= t->h; l++) {
        t->L[l] = (uint64_t)t->S[l - 1] * (uint64_t)t->w[l] * (uint64_t)t->p[l];
        t->D[l] = t->m[l] * t->p[l];
        t->U[l] = l < t->h ? t->w[l + 1] * t->p[l + 1] : 0;
    }
    t->U0 = t->w[1] * t->p[1];
    t->U[0] = t->U0;
    t->NP = t->N * (uint32_t)t->U0;
    t->ADDR_W = 0;
    for (l = 1; l <= t->h; l++) {
        t->B[l] = lcan_clog2((uint32_t)t->m[l]);
        t->O[l] = t->ADDR_W;
        t->ADDR_W += t->B[l];
    }
}

static int level_ok(const lcan_topo *t, int l)
{
    return t != NULL && l >= 1 && l <= t->h;
}

const char *lcan_topo_canonical(const lcan_topo *t) { return t ? t->canonical : ""; }
const char *lcan_topo_pgft(const lcan_topo *t) { return t ? t->pgft : ""; }

/* An LCAN (seed 004) in PGFT form: all m equal d, w_1 = 1, other w equal u, all p = 1.
 * For h = 1 the PGFT form does not show u; it is then the u the user wrote (lcan), k (kary),
 * else d (a one-level k-ary tree). */
int lcan_topo_is_lcan(const lcan_topo *t, int *d, int *u)
{
    int l, uu;
    if (t == NULL || t->w[1] != 1)
        return 0;
    if (t->h >= 2)
        uu = t->w[2];
    else if (t->family == LCAN_FAM_LCAN)
        uu = t->fam_b;
    else
        uu = t->m[1];
    for (l = 1; l <= t->h; l++) {
        if (t->m[l] != t->m[1] || t->p[l] != 1 || (l >= 2 && t->w[l] != uu))
            return 0;
    }
    if (d != NULL)
        *d = t->m[1];
    if (u != NULL)
        *u = uu;
    return 1;
}

int lcan_topo_levels(const lcan_topo *t) { return t ? t->h : 0; }
int lcan_topo_m(const lcan_topo *t, int level) { return level_ok(t, level) ? t->m[level] : 0; }
int lcan_topo_w(const lcan_topo *t, int level) { return level_ok(t, level) ? t->w[level] : 0; }
int lcan_topo_p(const lcan_topo *t, int level) { return level_ok(t, level) ? t->p[level] : 0; }
uint32_t lcan_topo_leaves(const lcan_topo *t) { return t ? t->N : 0; }
int lcan_topo_leaf_ports(const lcan_topo *t) { return t ? t->U0 : 0; }
uint32_t lcan_topo_ports(const lcan_topo *t) { return t ? t->NP : 0; }

uint32_t lcan_topo_switches(const lcan_topo *t, int level)
{
    return (t != NULL && level >= 0 && level <= t->h) ? t->S[level] : 0;
}

uint64_t lcan_topo_links(const lcan_topo *t, int level)
{
    return level_ok(t, level) ? t->L[level] : 0;
}

int lcan_topo_downers(const lcan_topo *t, int level)
{
    return level_ok(t, level) ? t->D[level] : 0;
}

/* U_level; level 0 gives the leaf's U_0. */
int lcan_topo_uppers(const lcan_topo *t, int level)
{
    return (t != NULL && level >= 0 && level <= t->h) ? t->U[level] : 0;
}

int lcan_topo_diameter(const lcan_topo *t) { return t ? 2 * t->h : 0; }

/* spec 2.4: 2 * sum_k k (m_k - 1) m_1..m_{k-1} / (N - 1). */
double lcan_topo_avg_distance(const lcan_topo *t)
{
    double sum = 0.0;
    int k;
    if (t == NULL || t->N < 2)
        return 0.0;
    for (k = 1; k <= t->h; k++)
        sum += (double)k * (double)(t->m[k] - 1) * (double)t->leaf_radix[k];
    return 2.0 * sum / (double)(t->N - 1);
}

uint64_t lcan_topo_root_cut(const lcan_topo *t)
{
    return t ? t->L[t->h] / 2 : 0;
}

int lcan_topo_addr_width(const lcan_topo *t) { return t ? t->ADDR_W : 0; }
int lcan_topo_field_offset(const lcan_topo *t, int level) { return level_ok(t, level) ? t->O[level] : 0; }
int lcan_topo_field_width(const lcan_topo *t, int level) { return level_ok(t, level) ? t->B[level] : 0; }

/* Leaf number -> packed address (spec 2.1); UINT32_MAX if leaf >= N. */
uint32_t lcan_topo_pack(const lcan_topo *t, uint32_t leaf)
{
    uint32_t a = 0;
    int l;
    if (t == NULL || leaf >= t->N)
        return UINT32_MAX;
    for (l = 1; l <= t->h; l++)
        a |= (uint32_t)lcan_leaf_digit(t, leaf, l) << t->O[l];
    return a;
}

/* Packed address -> leaf number; UINT32_MAX if a field holds a digit >= m_l or bits above
 * ADDR_W are set. */
uint32_t lcan_topo_unpack(const lcan_topo *t, uint32_t addr)
{
    uint32_t s = 0;
    int l;
    if (t == NULL || (t->ADDR_W < 32 && (addr >> t->ADDR_W) != 0))
        return UINT32_MAX;
    for (l = 1; l <= t->h; l++) {
        uint32_t dgt = (addr >> t->O[l]) & (((uint32_t)1 << t->B[l]) - 1u);
        if (dgt >= (uint32_t)t->m[l])
            return UINT32_MAX;
        s += dgt * t->leaf_radix[l];
    }
    return s;
}

/* spec 4: the most significant differing digit, 1 when s == d; 0 for leaves out of range. */
int lcan_topo_lca_level(const lcan_topo *t, uint32_t s, uint32_t d)
{
    int l;
    if (t == NULL || s >= t->N || d >= t->N)
        return 0;
    for (l = t->h; l >= 2; l--)
        if (lcan_leaf_digit(t, s, l) != lcan_leaf_digit(t, d, l))
            return l;
    return 1;
}

/* spec 2.2; level 0 gives a leaf's digits a_h..a_1 (index = leaf number). Invalid arguments
 * give all-zero digits. */
void lcan_topo_switch_label(const lcan_topo *t, int level, uint32_t index, int digit[LCAN_MAX_LEVELS + 1])
{
    int j;
    if (digit == NULL)
        return;
    for (j = 0; j <= LCAN_MAX_LEVELS; j++)
        digit[j] = 0;
    if (t == NULL || level < 0 || level > t->h || index >= t->S[level])
        return;
    for (j = 1; j <= t->h; j++) {
        uint32_t r = (uint32_t)(j <= level ? t->w[j] : t->m[j]);
        digit[j] = (int)(index % r);
        index /= r;
    }
}

/* Inverse of lcan_topo_switch_label; UINT32_MAX if a digit is out of range. */
uint32_t lcan_topo_switch_index(const lcan_topo *t, int level, const int digit[LCAN_MAX_LEVELS + 1])
{
    uint32_t x = 0;
    int j;
    if (t == NULL || digit == NULL || level < 0 || level > t->h)
        return UINT32_MAX;
    for (j = t->h; j >= 1; j--) {
        int r = j <= level ? t->w[j] : t->m[j];
        if (digit[j] < 0 || digit[j] >= r)
            return UINT32_MAX;
        x = x * (uint32_t)r + (uint32_t)digit[j];
    }
    return x;
}

/* spec 2.3 wiring. */
lcan_status lcan_topo_neighbor(const lcan_topo *t, lcan_end from, lcan_end *to)
{
    int dg[LCAN_MAX_LEVELS + 1];
    int l = from.level;

    if (t == NULL || to == NULL || l < 0 || l > t->h || from.node >= t->S[l] || from.port < 0)
        return LCAN_ERR_ARG;
    lcan_topo_switch_label(t, l, from.node, dg);
    if (l == 0 || from.port >= t->D[l]) {
        /* going up: leaf port or upper j = y * p_{l+1} + k */
        int j = l == 0 ? from.port : from.port - t->D[l];
        int pp, y, k, child;
        if (l == t->h || j >= t->U[l])
            return LCAN_ERR_ARG;
        pp = t->p[l + 1];
        y = j / pp;
        k = j % pp;
        child = dg[l + 1];
        dg[l + 1] = y;
        to->level = l + 1;
        to->node = lcan_topo_switch_index(t, l + 1, dg);
        to->port = child * pp + k;
    } else {
        /* going down: downer x * p_l + k */
        int x = from.port / t->p[l], k = from.port % t->p[l], y = dg[l];
        dg[l] = x;
        to->level = l - 1;
        to->node = lcan_topo_switch_index(t, l - 1, dg);
        to->port = (l - 1 == 0 ? 0 : t->D[l - 1]) + y * t->p[l] + k;
    }
    return LCAN_OK;
}

/* ------------------------------------------------------------------ fault numbering (spec 14.1-14.2) */

uint64_t lcan_topo_link_offset(const lcan_topo *t, int level)
{
    uint64_t off = 0;
    if (t == NULL || level < 1 || level > t->h + 1)
        return 0;
    for (int l = 1; l < level; l++)
        off += (uint64_t)t->S[l] * (uint64_t)t->D[l];
    return off;
}

uint64_t lcan_topo_link_count(const lcan_topo *t)
{
    return t == NULL ? 0 : lcan_topo_link_offset(t, t->h + 1);
}

uint64_t lcan_topo_switch_offset(const lcan_topo *t, int level)
{
    uint64_t off = 0;
    if (t == NULL || level < 1 || level > t->h + 1)
        return 0;
    for (int l = 1; l < level; l++)
        off += t->S[l];
    return off;
}

uint64_t lcan_topo_switch_count(const lcan_topo *t)
{
    return t == NULL ? 0 : lcan_topo_switch_offset(t, t->h + 1);
}

uint64_t lcan_topo_row_offset(const lcan_topo *t, int level)
{
    uint64_t off = 0;
    if (t == NULL || level < 1 || level > t->h)
        return 0;
    for (int l = 1; l < level; l++)
        off += (uint64_t)t->S[l] * (uint64_t)t->U[l];
    return off;
}

uint64_t lcan_topo_reach_rows(const lcan_topo *t)
{
    return t == NULL ? 0 : lcan_topo_row_offset(t, t->h);
}

uint64_t lcan_topo_row_bits(const lcan_topo *t)
{
    return t == NULL ? 0 : (uint64_t)1 << t->ADDR_W;
}
