/*
 * tb_core.c - simulator side of the lockstep harness: options, pin packing, the engine tick that
 * runs the RTL and the golden model side by side, comparison, mismatch reports and the
 * deterministic re-run with a waveform.
 *
 * The simulator calls tb_core_init once, then per cycle tb_core_inputs / (edge) / tb_core_outputs,
 * then tb_core_final. The traffic driver (tb_drive.c) runs in a coroutine: tb_engine_tick posts
 * the inputs, switches back to the simulator, and resumes when the RTL has been clocked.
 *
 * Options are plusargs read from /proc/self/cmdline (the same way for both simulators):
 *   +cmd=lockstep|route|collective|traffic|embed  +spec=S (reporting)  +sim=NAME  +pattern=P  +cycles=N  +seed=S
 *   +trials=T  +max_passes=M  +engine=NAME  +json  +nomodel (RTL alone)  +nowire  +wire_ports=N  +rate=R  +bcast_rate=R
 *   +flood_share=F (packet lockstep: the share of the broadcasts that flood, default half)
 *   collective: +op=OP +root=R +flits=K +trees=T +algo=hw|leaves +combine=sum|max +compact=K
 *     +broadcast=flood|tree (the kind of the hardware broadcasts, spec 8.5 / 8.6)
 *   traffic: +pattern=P +pattern_file=ABSPATH (file:P) +load=L | +sweep=A:B:STEP +warmup=C +measure=C
 *            +drain +drain_max=C +burst=B +bcast=F +depth=D +csv
 *   embed: +guest=G +map=default|file:P (printed) +map_file=ABSPATH +inject=path|any
 *   +depth=D (--depth as given) +flood_q=N (--flood-queue as given) +phased
 *   route / traffic / collective: +faults=LIST (spec 14.5, needs a FAULTS = 1 build) +fault_at=T (traffic)
 *   +flip=K (negative test)  +wavedir=DIR  +quiet  +progress (progress lines on stderr; also when
 *   stderr is a terminal)
 *   internal (the re-run): +rerun +dump_from=K +dumpfile=F +stop_at=K
 * Environment: LCAN_TB_RERUN (tb/lcan-rtl, Verilator): the command of the re-run (rerun_with_waveform).
 *
 * The harness is single-threaded; the only global is the one context pointer g_tb, because
 * neither DPI-C imports nor VPI system tasks carry a user pointer to every call.
 */
#define _GNU_SOURCE
#include "json.h"
#include "lcan_faults.h"
#include "tb_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static tb_ctx *g_tb;

#define DRV_STACK (8u << 20)

double tb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ------------------------------------------------------------------ bit vectors */

static uint64_t getbits(const uint32_t *w, size_t off, int width)
{
    size_t i = off >> 5;
    int got = 32 - (int)(off & 31u);
    uint64_t v = (uint64_t)(w[i] >> (off & 31u));
    while (got < width) { /* the words the field reaches into; got < width <= 64 */
        v |= (uint64_t)w[++i] << got;
        got += 32;
    }
    return width < 64 ? v & (((uint64_t)1 << width) - 1u) : v;
}

static void setbits(uint32_t *w, size_t off, int width, uint64_t v)
{
    for (int put = 0; put < width;) {
        size_t bit = off + (size_t)put;
        int sh = (int)(bit & 31u);
        int take = 32 - sh;
        if (take > width - put)
            take = width - put;
        uint32_t mask = (take == 32) ? 0xffffffffu : (((1u << take) - 1u) << sh);
        uint32_t part = (uint32_t)((v >> put) << sh) & mask;
        w[bit >> 5] = (w[bit >> 5] & ~mask) | part;
        put += take;
    }
}

/* ------------------------------------------------------------------ options */

/* Every "+name=value" / "+name" of the process's command line, in order. */
static char *g_cmdline;
static size_t g_cmdline_len;

static void read_cmdline(void)
{
    if (g_cmdline)
        return;
    int fd = open("/proc/self/cmdline", O_RDONLY);
    if (fd < 0)
        return;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap + 1);
    for (;;) {
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
        }
        ssize_t r = read(fd, buf + len, cap - len);
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    close(fd);
    buf[len] = 0;
    g_cmdline = buf;
    g_cmdline_len = len;
}

static const char *plusarg(const char *name) /* value after '=', "" for a bare flag, NULL if absent */
{
    size_t nl = strlen(name);
    const char *found = NULL;
    for (size_t i = 0; i < g_cmdline_len; i += strlen(g_cmdline + i) + 1) {
        const char *a = g_cmdline + i;
        if (a[0] != '+' || strncmp(a + 1, name, nl) != 0)
            continue;
        if (a[1 + nl] == '=')
            found = a + 2 + nl;
        else if (a[1 + nl] == 0)
            found = "";
    }
    return found; /* last one wins */
}

static int opt_u64(const char *name, uint64_t *v)
{
    const char *s = plusarg(name);
    if (!s)
        return 0;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || end == s || *end) {
        fprintf(stderr, "lcan: bad value '+%s=%s'\n", name, s);
        return -1;
    }
    *v = x;
    return 1;
}

static int opt_double(const char *name, double *v)
{
    const char *s = plusarg(name);
    if (!s)
        return 0;
    char *end;
    double x = strtod(s, &end);
    if (end == s || *end) {
        fprintf(stderr, "lcan: bad value '+%s=%s'\n", name, s);
        return -1;
    }
    *v = x;
    return 1;
}

static void opt_str(const char *name, char *dst, size_t len, const char *dflt)
{
    const char *s = plusarg(name);
    snprintf(dst, len, "%s", s ? s : dflt);
}

/* ------------------------------------------------------------------ labels */

void tb_switch_label(const tb_ctx *c, int level, uint32_t index, char *buf, size_t len)
{
    int dig[LCAN_MAX_LEVELS + 1];
    lcan_topo_switch_label(c->topo, level, index, dig);
    size_t n = (size_t)snprintf(buf, len, "level %d switch %u (", level, index);
    for (int j = c->h; j > level && n < len; j--)
        n += (size_t)snprintf(buf + n, len - n, "%s%d", j == c->h ? "" : ",", dig[j]);
    if (n < len)
        n += (size_t)snprintf(buf + n, len - n, ";");
    for (int j = level; j >= 1 && n < len; j--)
        n += (size_t)snprintf(buf + n, len - n, "%s%d", j == level ? "" : ",", dig[j]);
    if (n < len)
        snprintf(buf + n, len - n, ")");
}

static void leaf_label(const tb_ctx *c, uint32_t leaf, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "leaf %u (", leaf);
    uint32_t r = 1;
    int dig[LCAN_MAX_LEVELS + 1];
    for (int j = 1; j <= c->h; j++) {
        dig[j] = (int)((leaf / r) % (uint32_t)lcan_topo_m(c->topo, j));
        r *= (uint32_t)lcan_topo_m(c->topo, j);
    }
    for (int j = c->h; j >= 1 && n < len; j--)
        n += (size_t)snprintf(buf + n, len - n, "%s%d", j == c->h ? "" : ",", dig[j]);
    if (n < len)
        snprintf(buf + n, len - n, ")");
}

static void flit_text(const tb_ctx *c, uint64_t f, char *buf, size_t len)
{
    int pw = c->prm.payload_w;
    snprintf(buf, len, "0x%llx (head %d bcast %d dest 0x%llx payload 0x%llx)", (unsigned long long)f,
             (int)((f >> (pw + c->AW + 1)) & 1), (int)((f >> (pw + c->AW)) & 1),
             (unsigned long long)((f >> pw) & (((uint64_t)1 << c->AW) - 1)),
             (unsigned long long)(f & (((uint64_t)1 << pw) - 1)));
}

/* Debug byte b's value: circuit {set, src}, packet cr, or (second block) a flood queue's count. */
static void dbg_text(const tb_ctx *c, size_t b, uint8_t v, char *buf, size_t len)
{
    if (b >= c->dbg_block)
        snprintf(buf, len, "0x%02x (flood queue q %d)", v, v);
    else if (c->prm.mode == LCAN_CIRCUIT)
        snprintf(buf, len, "0x%02x (set %d src %d)", v, v >> 7, v & 0x7f);
    else
        snprintf(buf, len, "0x%02x (cr %d)", v, v);
}

/* ------------------------------------------------------------------ failures */

static void yield_forever(tb_ctx *c)
{
    c->done = 1;
    for (;;)
        swapcontext(&c->uc_drv, &c->uc_sim);
}

void tb_fail(tb_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(c->fail, sizeof c->fail, "cycle %llu: ", (unsigned long long)(c->cycle ? c->cycle - 1 : 0));
    vsnprintf(c->fail + n, sizeof c->fail - (size_t)n, fmt, ap);
    va_end(ap);
    c->fail_cycle = (int64_t)(c->cycle ? c->cycle - 1 : 0);
    c->status = 1;
    yield_forever(c);
}

/* A refused run (bad option combination, an op that does not apply): "lcan: ..." on stderr, exit 2. */
void tb_usage_error(tb_ctx *c, const char *fmt, ...)
{
    va_list ap;
    fputs("lcan: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    c->status = 2;
    yield_forever(c);
}

/* Describe network port q by the level-1 switch downer that faces it. */
static void pin_where(tb_ctx *c, uint32_t q)
{
    lcan_end from = {0, q / (uint32_t)c->U0, (int)(q % (uint32_t)c->U0)}, to;
    char sw[TB_STR / 2], lf[TB_STR / 4];
    leaf_label(c, from.node, lf, sizeof lf);
    c->mm.net_port = q;
    if (lcan_topo_neighbor(c->topo, from, &to) == LCAN_OK && to.level == 1) {
        tb_switch_label(c, 1, to.node, sw, sizeof sw);
        c->mm.level = 1;
        c->mm.index = (long)to.node;
        c->mm.port = to.port;
        snprintf(c->mm.where, sizeof c->mm.where, "network port %u = %s port %d, faces %s downer %d", q, lf,
                 from.port, sw, to.port);
    } else {
        snprintf(c->mm.where, sizeof c->mm.where, "network port %u = %s port %d", q, lf, from.port);
    }
}

static void dbg_where(tb_ctx *c, size_t b)
{
    int l = 1;
    /* the second block (flood queues, spec 8.7 / 9) repeats the first's order */
    int queue = b >= c->dbg_block;
    size_t bb = queue ? b - c->dbg_block : b;
    while (l < c->h && bb >= c->dbg_base[l + 1])
        l++;
    size_t rel = bb - c->dbg_base[l];
    uint32_t idx = (uint32_t)(rel / (size_t)c->Pl[l]);
    int port = (int)(rel % (size_t)c->Pl[l]);
    int D = lcan_topo_downers(c->topo, l);
    char sw[TB_STR / 2];
    tb_switch_label(c, l, idx, sw, sizeof sw);
    c->mm.level = l;
    c->mm.index = (long)idx;
    c->mm.port = port;
    c->mm.dbg_byte = b;
    snprintf(c->mm.where, sizeof c->mm.where, "%s local output %d (%s %d)%s, debug byte %zu", sw, port,
             port < D ? "downer" : "upper", port < D ? port : port - D, queue ? " flood queue count" : "", b);
}

/* First difference between the RTL and the model after this edge; 1 if there is one. */
static int compare(tb_ctx *c)
{
    tb_mismatch *mm = &c->mm;
    uint32_t q;
    mm->level = 0;
    mm->index = -1;
    mm->port = -1;
    mm->net_port = -1;
#define PIN(arr, name)                                                                                \
    for (q = 0; q < c->NP; q++)                                                                       \
        if (c->m_##arr[q] != c->r_##arr[q]) {                                                         \
            mm->signal = name;                                                                        \
            mm->expected = c->m_##arr[q];                                                             \
            mm->got = c->r_##arr[q];                                                                  \
            pin_where(c, q);                                                                          \
            return 1;                                                                                 \
        }
    PIN(ready, "inj_ready")
    PIN(ack, "inj_ack")
    PIN(ejv, "ej_valid")
    PIN(ejf, "ej_flit")
#undef PIN
#define CNT(arr, name)                                                                                \
    for (int l = 0; l < c->h; l++)                                                                    \
        if (c->m_##arr[l] != c->r_##arr[l]) {                                                         \
            mm->signal = name;                                                                        \
            mm->expected = c->m_##arr[l];                                                             \
            mm->got = c->r_##arr[l];                                                                  \
            mm->level = l + 1;                                                                        \
            snprintf(mm->where, sizeof mm->where, "level %d sum", l + 1);                             \
            return 1;                                                                                 \
        }
    CNT(cu, "cnt_up")
    CNT(cd, "cnt_down")
    CNT(cdrop, "cnt_drop")
#undef CNT
    if (memcmp(c->m_dbg, c->r_dbg, c->dbg_bytes) != 0) {
        for (size_t b = 0; b < c->dbg_bytes; b++)
            if (c->m_dbg[b] != c->r_dbg[b]) {
                mm->signal = "dbg";
                mm->expected = c->m_dbg[b];
                mm->got = c->r_dbg[b];
                dbg_where(c, b);
                return 1;
            }
    }
    return 0;
}

/* ------------------------------------------------------------------ the engine tick */

/* Progress on stderr only (stdout carries the result): when stderr is a terminal (one line redrawn
 * in place) or with +progress (lines), at most once a second, with the time left estimated from
 * the work done so far: lockstep cycles of the budget, route trials, traffic window cycles
 * (prog_done / prog_total, set by the drivers); a collective shows cycles only. */
static void progress(tb_ctx *c)
{
    if (!c->progress || c->rerun || (c->cycle & 1023u))
        return;
    double t = tb_now();
    if (t - c->t_last < 1.0)
        return;
    double done = (double)c->cycle, total = 0.0, el = t - c->t_start;
    const char *unit = "cycles";
    if (strcmp(c->cmd, "lockstep") == 0) {
        total = (double)c->cycles_target;
    } else if (c->prog_total > 0) {
        if (strcmp(c->cmd, "traffic") == 0) {
            uint64_t in = c->cycle - c->prog_cycle0;
            c->prog_done = c->prog_base + (double)(in < c->prog_window ? in : c->prog_window);
        }
        done = c->prog_done;
        total = c->prog_total;
        unit = strcmp(c->cmd, "route") == 0 ? "trials" : "cycles";
    }
    const char *cr = c->progress_tty ? "\r" : "", *eol = c->progress_tty ? "\033[K" : "\n";
    if (total > 0 && done > 0 && done < total)
        fprintf(stderr, "%slcan: %s: %.0f/%.0f %s (%.0f%%), %.0f cycles/s, %.0f s elapsed, about %.0f s left%s", cr,
                c->cmd, done, total, unit, 100.0 * done / total, (double)(c->cycle - c->cyc_last) / (t - c->t_last),
                el, el * (total - done) / done, eol);
    else
        fprintf(stderr, "%slcan: %s: cycle %llu, %.0f cycles/s, %.0f s elapsed%s", cr, c->cmd,
                (unsigned long long)c->cycle, (double)(c->cycle - c->cyc_last) / (t - c->t_last), el, eol);
    fflush(stderr);
    c->progress_shown = 1;
    c->t_last = t;
    c->cyc_last = c->cycle;
}

lcan_status tb_engine_tick(void *engine, const lcan_in *in, lcan_out *out)
{
    tb_ctx *c = engine;
    if (c->done)
        yield_forever(c);
    /* post the inputs for the simulator */
    c->ctl_rst = in->rst ? 1u : 0u;
    c->ctl_clear = in->clear ? 1u : 0u;
    c->ctl_seed = in->seed;
    memset(c->vi_valid, 0, c->words.np * 4);
    memset(c->vi_ack, 0, c->words.np * 4);
    memset(c->vi_flit, 0, c->words.flit * 4);
    for (uint32_t q = 0; q < c->NP; q++) {
        if (in->inj_valid && in->inj_valid[q])
            c->vi_valid[q >> 5] |= 1u << (q & 31u);
        if (in->ej_ack && in->ej_ack[q])
            c->vi_ack[q >> 5] |= 1u << (q & 31u);
        if (in->inj_flit && in->inj_flit[q])
            setbits(c->vi_flit, (size_t)q * (size_t)c->FW, c->FW, in->inj_flit[q]);
    }
    if (c->prm.faults) {
        /* the fault pins (spec 14.1-14.2), exactly as the model gets them; NULL / 0 = none */
        c->ctl_cfg_we = in->cfg_we ? 1u : 0u;
        c->ctl_cfg_addr = in->cfg_addr;
        memset(c->vi_link_off, 0, c->words.nl * 4);
        memset(c->vi_sw_off, 0, c->words.ns * 4);
        memset(c->vi_cfg_row, 0, c->words.rw * 4);
        for (uint64_t k = 0; in->link_off && k < c->NL; k++)
            if (in->link_off[k])
                c->vi_link_off[k >> 5] |= 1u << (k & 31u);
        for (uint64_t k = 0; in->sw_off && k < c->NS; k++)
            if (in->sw_off[k])
                c->vi_sw_off[k >> 5] |= 1u << (k & 31u);
        if (in->cfg_we && in->cfg_row)
            for (uint64_t k = 0; k < c->words.rw; k++)
                c->vi_cfg_row[k] = (uint32_t)(in->cfg_row[k >> 1] >> (32 * (k & 1u)));
        if (c->RW < 32) /* RW = 2^ADDR_W: only a row of 1..16 bits leaves a word partly unused */
            c->vi_cfg_row[0] &= (1u << c->RW) - 1u;
    } else if (in->cfg_we || in->link_off || in->sw_off) {
        int any = in->cfg_we != 0;
        for (uint64_t k = 0; in->link_off && k < c->NL && !any; k++)
            any = in->link_off[k] != 0;
        for (uint64_t k = 0; in->sw_off && k < c->NS && !any; k++)
            any = in->sw_off[k] != 0;
        if (any) /* the model would honour them, the RTL ignores them */
            tb_fail(c, "fault pins driven on a simulation built with FAULTS = 0 (spec 14.2)");
    }
    swapcontext(&c->uc_drv, &c->uc_sim); /* the simulator clocks the RTL once */
    if (c->done)
        yield_forever(c);

    if (c->model) {
        lcan_out mo = {c->m_ready, c->m_ack, c->m_ejv, c->m_ejf, c->m_cu, c->m_cd, c->m_cdrop};
        lcan_status st = lcan_net_tick(c->model, in, &mo);
        if (st != LCAN_OK)
            tb_fail(c, "lcan_net_tick: %s", lcan_strerror(st));
        lcan_net_debug_dump(c->model, c->m_dbg, c->dbg_bytes);
        if (c->flip_at >= 0 && (uint64_t)c->flip_at == c->cycle - 1)
            c->m_dbg[0] ^= 1u; /* negative test: the model "expects" a different debug bit */
        if (compare(c)) {
            c->mm.have = 1;
            c->mm.cycle = c->cycle - 1;
            c->fail_cycle = (int64_t)c->mm.cycle;
            c->status = 1;
            yield_forever(c);
        }
    }
    memcpy(out->inj_ready, c->r_ready, c->NP);
    memcpy(out->inj_ack, c->r_ack, c->NP);
    memcpy(out->ej_valid, c->r_ejv, c->NP);
    memcpy(out->ej_flit, c->r_ejf, c->NP * sizeof(uint64_t));
    if (out->cnt_up)
        memcpy(out->cnt_up, c->r_cu, (size_t)c->h * 4);
    if (out->cnt_down)
        memcpy(out->cnt_down, c->r_cd, (size_t)c->h * 4);
    if (out->cnt_drop)
        memcpy(out->cnt_drop, c->r_cdrop, (size_t)c->h * 4);
    progress(c);
    return LCAN_OK;
}

static void drv_entry(void)
{
    tb_ctx *c = g_tb;
    tb_drive_main(c);
    yield_forever(c);
}

/* ------------------------------------------------------------------ front-end interface */

static int cfg_error(tb_ctx *c, const char *msg)
{
    fprintf(stderr, "lcan: %s\n", msg);
    c->status = 2;
    c->done = 1;
    return 1;
}

int tb_core_init(const tb_params *prm)
{
    tb_ctx *c = calloc(1, sizeof *c);
    g_tb = c;
    c->prm = *prm;
    c->flip_at = -1;
    c->fail_cycle = -1;
    c->stop_at = -1;
    c->t_start = c->t_last = tb_now();
    read_cmdline();

    /* options */
    uint64_t v;
    int st_fq;
    opt_str("cmd", c->cmd, sizeof c->cmd, "lockstep");
    opt_str("sim", c->sim, sizeof c->sim,
#ifdef TB_SIM_NAME
            TB_SIM_NAME
#else
            "sim"
#endif
    );
    opt_str("pattern", c->pattern, sizeof c->pattern, "random");
    opt_str("engine", c->engine, sizeof c->engine, "rtl");
    opt_str("wavedir", c->wavedir, sizeof c->wavedir, ".");
    opt_str("op", c->op, sizeof c->op, "");
    opt_str("algo", c->algo, sizeof c->algo, "hw");
    opt_str("combine", c->combine, sizeof c->combine, "sum");
    opt_str("broadcast", c->broadcast, sizeof c->broadcast, "flood");
    c->flits = 1;
    c->trees = 1;
    c->cycles_target = 10000;
    c->seed = 1;
    c->trials = 10;
    c->max_passes = 10000;
    c->wire = 1;
    c->wire_ports = -1;
    c->rate = 0.9;
    c->bcast_rate = -1.0;
    c->flood_share = -1.0;
    int bad = 0;
    bad |= opt_u64("cycles", &c->cycles_target) < 0;
    bad |= opt_u64("seed", &c->seed) < 0;
    bad |= opt_u64("max_passes", &c->max_passes) < 0;
    bad |= opt_u64("root", &c->root) < 0;
    bad |= opt_u64("flits", &c->flits) < 0;
    bad |= opt_u64("trees", &c->trees) < 0;
    bad |= opt_u64("compact", &c->compact) < 0;
    bad |= opt_u64("depth", &c->depth_req) < 0;
    c->flood_q_req = -1;
    if ((st_fq = opt_u64("flood_q", &v)) > 0)
        c->flood_q_req = v > 255 ? 256 : (int64_t)v; /* out of range: refused by the collective */
    bad |= st_fq < 0;
    c->phased = plusarg("phased") != NULL;
    /* traffic */
    opt_str("sweep", c->sweep, sizeof c->sweep, "");
    opt_str("burst", c->burst, sizeof c->burst, "0");
    opt_str("pattern_file", c->pattern_file, sizeof c->pattern_file, "");
    c->load = 0.1;
    c->warmup = 10000;
    c->measure = 10000;
    bad |= opt_double("load", &c->load) < 0;
    bad |= opt_double("bcast", &c->bcast) < 0;
    bad |= opt_u64("warmup", &c->warmup) < 0;
    bad |= opt_u64("measure", &c->measure) < 0;
    bad |= opt_u64("drain_max", &c->drain_max) < 0;
    c->drain = plusarg("drain") != NULL;
    c->csv = plusarg("csv") != NULL;
    /* embed */
    opt_str("guest", c->guest, sizeof c->guest, "");
    opt_str("map", c->map, sizeof c->map, "default");
    opt_str("map_file", c->map_file, sizeof c->map_file, "");
    opt_str("inject", c->inject, sizeof c->inject, "path");
    if ((v = 0, opt_u64("trials", &v)) > 0)
        c->trials = (uint32_t)v;
    if ((v = 0, opt_u64("flip", &v)) > 0)
        c->flip_at = (int64_t)v;
    if ((v = 0, opt_u64("stop_at", &v)) > 0)
        c->stop_at = (int64_t)v;
    if ((v = 0, opt_u64("wire_ports", &v)) > 0)
        c->wire_ports = (long)v;
    bad |= opt_double("rate", &c->rate) < 0;
    bad |= opt_double("bcast_rate", &c->bcast_rate) < 0;
    bad |= opt_double("flood_share", &c->flood_share) < 0;
    c->json = plusarg("json") != NULL;
    c->nomodel = plusarg("nomodel") != NULL;
    c->wire = plusarg("nowire") == NULL;
    c->rerun = plusarg("rerun") != NULL;
    c->quiet = plusarg("quiet") != NULL || c->rerun;
    c->progress_tty = isatty(2);
    c->progress = plusarg("progress") != NULL || c->progress_tty;
    if (bad)
        return cfg_error(c, "bad plusarg");
    if (strcmp(c->cmd, "lockstep") != 0 && strcmp(c->cmd, "route") != 0 && strcmp(c->cmd, "collective") != 0 &&
        strcmp(c->cmd, "traffic") != 0 && strcmp(c->cmd, "embed") != 0)
        return cfg_error(c, "+cmd must be lockstep, route, collective, traffic or embed");

    /* the network the simulator elaborated */
    char spec[TB_STR];
    size_t n = (size_t)snprintf(spec, sizeof spec, "pgft(%d;", prm->h);
    const int *lists[3] = {prm->m, prm->w, prm->p};
    for (int k = 0; k < 3; k++)
        for (int l = 1; l <= prm->h; l++)
            n += (size_t)snprintf(spec + n, sizeof spec - n, "%d%s", lists[k][l],
                                  l < prm->h ? "," : (k < 2 ? ";" : ")"));
    char err[TB_STR], msg[TB_STR * 3];
    lcan_status st = lcan_topo_parse(spec, &c->topo, err, sizeof err);
    if (st != LCAN_OK) {
        snprintf(msg, sizeof msg, "testbench parameters: %s", err);
        return cfg_error(c, msg);
    }
    /* +spec: the network as the user named it (its canonical form is what reports print); it must
     * be the network the simulator was built for */
    const char *user = plusarg("spec");
    if (user) {
        lcan_topo *ut;
        if (lcan_topo_parse(user, &ut, err, sizeof err) != LCAN_OK) {
            snprintf(msg, sizeof msg, "+spec: %s", err);
            return cfg_error(c, msg);
        }
        if (strcmp(lcan_topo_pgft(ut), lcan_topo_pgft(c->topo)) != 0) {
            snprintf(msg, sizeof msg, "+spec=%s is %s, but this simulation was built for %s", user,
                     lcan_topo_pgft(ut), lcan_topo_pgft(c->topo));
            lcan_topo_free(ut);
            return cfg_error(c, msg);
        }
        lcan_topo_free(c->topo);
        c->topo = ut;
    }
    snprintf(c->spec, sizeof c->spec, "%s", lcan_topo_canonical(c->topo));
    lcan_cfg cfg;
    lcan_cfg_default(&cfg);
    cfg.mode = prm->mode ? LCAN_PACKET : LCAN_CIRCUIT;
    cfg.payload_w = prm->payload_w;
    cfg.depth = prm->depth;
    cfg.up_choice = prm->up_choice ? LCAN_UP_UNIFORM : LCAN_UP_ROTATE;
    if (prm->flood_q < 0 || prm->flood_q > 255)
        return cfg_error(c, "testbench parameter FLOOD_Q must be 0..255");
    cfg.flood_q = prm->flood_q; /* spec 8.7 (the model ignores it in circuit mode, as the RTL) */
    if (prm->unicast_only != 0 && prm->unicast_only != 1)
        return cfg_error(c, "testbench parameter UNICAST_ONLY must be 0 or 1");
    cfg.unicast_only = prm->unicast_only; /* spec 8.8 (likewise) */
    lcan_net *net;
    if ((st = lcan_net_new(c->topo, &cfg, &net)) != LCAN_OK) {
        snprintf(msg, sizeof msg, "lcan_net_new: %s", lcan_strerror(st));
        return cfg_error(c, msg);
    }
    c->h = prm->h;
    c->N = lcan_topo_leaves(c->topo);
    c->NP = lcan_topo_ports(c->topo);
    c->U0 = lcan_topo_leaf_ports(c->topo);
    c->AW = lcan_topo_addr_width(c->topo);
    c->FW = lcan_net_flit_width(net);
    c->dbg_bytes = lcan_net_debug_dump(net, NULL, 0);
    size_t base = 0;
    for (int l = 1; l <= c->h; l++) {
        c->Pl[l] = lcan_topo_downers(c->topo, l) + lcan_topo_uppers(c->topo, l);
        c->dbg_base[l] = base;
        base += (size_t)lcan_topo_switches(c->topo, l) * (size_t)c->Pl[l];
    }
    c->dbg_base[c->h + 1] = base;
    c->dbg_block = base;
    if (c->nomodel)
        lcan_net_free(net);
    else
        c->model = net;
    /* the view: DBG_BYTES, and a second block of flood queue counts in packet mode with FLOOD_Q > 0 */
    size_t blocks = (prm->mode && prm->flood_q > 0) ? 2 : 1;
    if ((int)c->NP != prm->np || c->FW != prm->fw || (int)c->dbg_bytes != prm->dbg_bytes ||
        blocks * base != c->dbg_bytes) {
        snprintf(msg, sizeof msg,
                 "testbench widths NP=%d FW=%d debug bytes=%d (DBG_BYTES=%zu x %zu blocks) disagree with the model's "
                 "NP=%u FW=%d debug bytes=%zu", prm->np, prm->fw, prm->dbg_bytes, base, blocks, c->NP, c->FW,
                 c->dbg_bytes);
        return cfg_error(c, msg);
    }
    c->words.np = (c->NP + 31) / 32;
    c->words.flit = ((size_t)c->NP * (size_t)c->FW + 31) / 32;
    c->words.cnt = (size_t)c->h;
    c->words.dbg = (c->dbg_bytes + 3) / 4;
    /* the fault pins (spec 13, 14): NL links, NS switches, rows of RW = 2^ADDR_W bits (cfg_row is
     * 1 bit wide when FAULTS = 0) */
    c->NL = lcan_topo_link_count(c->topo);
    c->NS = lcan_topo_switch_count(c->topo);
    c->RW = prm->faults ? lcan_topo_row_bits(c->topo) : 1;
    if (prm->faults != 0 && prm->faults != 1)
        return cfg_error(c, "testbench parameter FAULTS must be 0 or 1");
    if ((uint64_t)prm->nl != c->NL || (uint64_t)prm->ns != c->NS || (uint64_t)prm->rw != c->RW) {
        snprintf(msg, sizeof msg, "testbench fault pin widths NL=%d NS=%d RW=%d disagree with the model's %llu, %llu, %llu",
                 prm->nl, prm->ns, prm->rw, (unsigned long long)c->NL, (unsigned long long)c->NS,
                 (unsigned long long)c->RW);
        return cfg_error(c, msg);
    }
    c->words.nl = (size_t)((c->NL + 31) / 32);
    c->words.ns = (size_t)((c->NS + 31) / 32);
    c->words.rw = (size_t)((c->RW + 31) / 32);
    c->vi_link_off = calloc(c->words.nl + 1, 4);
    c->vi_sw_off = calloc(c->words.ns + 1, 4);
    c->vi_cfg_row = calloc(c->words.rw + 2, 4);
    /* --faults LIST (route, traffic, collective; spec 14.5): the fault set the drivers apply */
    const char *fl = plusarg("faults");
    if (fl) {
        if (!prm->faults)
            return cfg_error(c, "--faults needs a simulation built with FAULTS = 1");
        if (strcmp(c->cmd, "route") != 0 && strcmp(c->cmd, "traffic") != 0 && strcmp(c->cmd, "collective") != 0)
            return cfg_error(c, "--faults applies to route, traffic and collective");
        c->faults = calloc(1, sizeof *c->faults);
        if (lcan_faults_init(c->topo, c->faults) != LCAN_OK)
            return cfg_error(c, "lcan_faults_init: out of memory");
        if (lcan_faults_parse(c->topo, fl, c->seed, c->faults, err, sizeof err) != LCAN_OK) {
            snprintf(msg, sizeof msg, "%s: --faults: %s", c->cmd, err);
            return cfg_error(c, msg);
        }
    }
    if (opt_u64("fault_at", &c->fault_at) < 0)
        return cfg_error(c, "bad plusarg");
    c->vi_valid = calloc(c->words.np, 4);
    c->vi_ack = calloc(c->words.np, 4);
    c->vi_flit = calloc(c->words.flit, 4);
    c->r_ready = calloc(c->NP, 1);
    c->r_ack = calloc(c->NP, 1);
    c->r_ejv = calloc(c->NP, 1);
    c->r_ejf = calloc(c->NP, 8);
    c->r_dbg = calloc(c->dbg_bytes + 4, 1);
    c->m_ready = calloc(c->NP, 1);
    c->m_ack = calloc(c->NP, 1);
    c->m_ejv = calloc(c->NP, 1);
    c->m_ejf = calloc(c->NP, 8);
    c->m_dbg = calloc(c->dbg_bytes + 4, 1);
    c->checksum = 1469598103934665603ull;

    /* the driver coroutine */
    c->stack = malloc(DRV_STACK);
    getcontext(&c->uc_drv);
    c->uc_drv.uc_stack.ss_sp = c->stack;
    c->uc_drv.uc_stack.ss_size = DRV_STACK;
    c->uc_drv.uc_link = &c->uc_sim;
    makecontext(&c->uc_drv, drv_entry, 0);
    return 0;
}

void tb_core_words(tb_words *w)
{
    *w = g_tb->words;
}

int tb_core_inputs(tb_vin *in)
{
    tb_ctx *c = g_tb;
    if (c->stop_at >= 0 && c->cycle > (uint64_t)c->stop_at)
        c->done = 1;
    if (c->done)
        return 1;
    swapcontext(&c->uc_sim, &c->uc_drv);
    if (c->done)
        return 1;
    in->rst = c->ctl_rst;
    in->clear = c->ctl_clear;
    in->seed = c->ctl_seed;
    in->inj_valid = c->vi_valid;
    in->inj_flit = c->vi_flit;
    in->ej_ack = c->vi_ack;
    in->cfg_we = c->ctl_cfg_we;
    in->cfg_addr = c->ctl_cfg_addr;
    in->link_off = c->vi_link_off;
    in->sw_off = c->vi_sw_off;
    in->cfg_row = c->vi_cfg_row;
    return 0;
}

static void hash_words(tb_ctx *c, const uint32_t *w, size_t n)
{
    uint64_t x = c->checksum;
    for (size_t i = 0; i < n; i++) {
        x ^= w[i];
        x *= 1099511628211ull;
    }
    c->checksum = x;
}

void tb_core_outputs(const tb_vout *o)
{
    tb_ctx *c = g_tb;
    for (uint32_t q = 0; q < c->NP; q++) {
        uint32_t wq = q >> 5, b = q & 31u;
        c->r_ready[q] = (uint8_t)((o->inj_ready[wq] >> b) & 1u);
        c->r_ack[q] = (uint8_t)((o->inj_ack[wq] >> b) & 1u);
        c->r_ejv[q] = (uint8_t)((o->ej_valid[wq] >> b) & 1u);
        c->r_ejf[q] = getbits(o->ej_flit, (size_t)q * (size_t)c->FW, c->FW);
    }
    for (int l = 0; l < c->h; l++) {
        c->r_cu[l] = o->cnt_up[l];
        c->r_cd[l] = o->cnt_down[l];
        c->r_cdrop[l] = o->cnt_drop[l];
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(c->r_dbg, o->dbg, c->dbg_bytes); /* byte b is bits 8b.. of the words: their memory order */
#else
    for (size_t b = 0; b < c->dbg_bytes; b++)
        c->r_dbg[b] = (uint8_t)(o->dbg[b >> 2] >> (8 * (b & 3u)));
#endif
    hash_words(c, o->inj_ready, c->words.np);
    hash_words(c, o->inj_ack, c->words.np);
    hash_words(c, o->ej_valid, c->words.np);
    hash_words(c, o->ej_flit, c->words.flit);
    hash_words(c, o->cnt_up, c->words.cnt);
    hash_words(c, o->cnt_down, c->words.cnt);
    hash_words(c, o->cnt_drop, c->words.cnt);
    hash_words(c, o->dbg, c->words.dbg);
    if (o->xz && !c->done) {
        snprintf(c->fail, sizeof c->fail, "cycle %llu: RTL output %s carries X or Z bits",
                 (unsigned long long)c->cycle, o->xz);
        c->fail_cycle = (int64_t)c->cycle;
        c->status = 1;
        c->done = 1;
    }
    c->cycle++;
}

/* ------------------------------------------------------------------ end of run */

/* Run this very command again with the waveform on for the cycles before the mismatch. When
 * $LCAN_TB_RERUN is set (tb/lcan-rtl sets it for Verilator, whose run binary has no tracing), the
 * re-run is that shell command with the same arguments but argv[0] (`sh -c 'exec CMD "$@"'`): it
 * builds or finds the traced binary and execs it (its build messages on stderr, the simulation's
 * output to /dev/null); else it is /proc/self/exe (Icarus's vvp, or a traced binary run by hand). */
static void rerun_with_waveform(tb_ctx *c)
{
    uint64_t k = (uint64_t)c->fail_cycle;
    uint64_t from = k > 20 ? k - 20 : 0;
    char path[TB_STR * 2], a_from[64], a_file[TB_STR * 2 + 16], a_stop[64];
    snprintf(path, sizeof path, "%s/mismatch-%s-c%llu.vcd", c->wavedir, c->sim, (unsigned long long)k);
    snprintf(a_from, sizeof a_from, "+dump_from=%llu", (unsigned long long)from);
    /* the simulator writes PATH.tmp; it is renamed to PATH only when the re-run ended normally, so
     * a killed re-run or a full disk never leaves a partial waveform under the final name */
    snprintf(a_file, sizeof a_file, "+dumpfile=%s.tmp", path);
    snprintf(a_stop, sizeof a_stop, "+stop_at=%llu", (unsigned long long)k + 1);
    size_t argc = 0;
    for (size_t i = 0; i < g_cmdline_len; i += strlen(g_cmdline + i) + 1)
        argc++;
    const char *cmd = getenv("LCAN_TB_RERUN");
    char *script = NULL;
    char **argv = calloc(argc + 8, sizeof *argv);
    size_t j = 0;
    if (cmd && cmd[0]) {
        size_t n = strlen(cmd) + 16;
        script = malloc(n);
        snprintf(script, n, "exec %s \"$@\"", cmd);
        argv[j++] = "sh";
        argv[j++] = "-c";
        argv[j++] = script; /* the command's argv[0] becomes the script's $0, the rest "$@" */
    }
    for (size_t i = 0; i < g_cmdline_len; i += strlen(g_cmdline + i) + 1)
        argv[j++] = g_cmdline + i;
    argv[j++] = "+rerun";
    argv[j++] = a_from;
    argv[j++] = a_file;
    argv[j++] = a_stop;
    argv[j] = NULL;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            if (!script)
                dup2(fd, 2);
        }
        execv(script ? "/bin/sh" : "/proc/self/exe", argv);
        _exit(127);
    }
    int ws = 0;
    struct stat sb;
    char tmp[sizeof path + 8];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (pid > 0 && waitpid(pid, &ws, 0) == pid && WIFEXITED(ws) && WEXITSTATUS(ws) == 0 && stat(tmp, &sb) == 0 &&
        sb.st_size > 0 && rename(tmp, path) == 0) {
        snprintf(c->waveform, sizeof c->waveform, "%s", path);
    } else {
        unlink(tmp);
        c->waveform[0] = 0;
    }
    free(argv);
    free(script);
}

/* Every other difference on the mismatching cycle (up to a few), for the diagnosis. */
static void print_other_diffs(tb_ctx *c)
{
    int shown = 0, more = 0, first = 1;
    char e[TB_STR], g[TB_STR];
    for (uint32_t q = 0; q < c->NP; q++) {
        int d = c->m_ready[q] != c->r_ready[q] || c->m_ack[q] != c->r_ack[q] || c->m_ejv[q] != c->r_ejv[q] ||
                c->m_ejf[q] != c->r_ejf[q];
        if (!d)
            continue;
        first = 0;
        if (shown >= 8) {
            more++;
            continue;
        }
        flit_text(c, c->m_ejf[q], e, sizeof e);
        flit_text(c, c->r_ejf[q], g, sizeof g);
        fprintf(stderr, "tb:   also port %u: model ready %d ack %d ej %d %s / RTL ready %d ack %d ej %d %s\n", q,
                c->m_ready[q], c->m_ack[q], c->m_ejv[q], e, c->r_ready[q], c->r_ack[q], c->r_ejv[q], g);
        shown++;
    }
    for (size_t b = 0; b < c->dbg_bytes; b++) {
        if (c->m_dbg[b] == c->r_dbg[b])
            continue;
        if (first && strcmp(c->mm.signal, "dbg") == 0) { /* already reported */
            first = 0;
            continue;
        }
        first = 0;
        if (shown >= 8) {
            more++;
            continue;
        }
        dbg_where(c, b);
        dbg_text(c, b, c->m_dbg[b], e, sizeof e);
        dbg_text(c, b, c->r_dbg[b], g, sizeof g);
        fprintf(stderr, "tb:   also %s: model %s, RTL %s\n", c->mm.where, e, g);
        shown++;
    }
    if (more)
        fprintf(stderr, "tb:   ... and %d more differences on this cycle\n", more);
}

static void print_mismatch_text(tb_ctx *c)
{
    char e[TB_STR], g[TB_STR];
    const tb_mismatch *mm = &c->mm;
    if (strcmp(mm->signal, "ej_flit") == 0) {
        flit_text(c, mm->expected, e, sizeof e);
        flit_text(c, mm->got, g, sizeof g);
    } else if (strcmp(mm->signal, "dbg") == 0) {
        dbg_text(c, mm->dbg_byte, (uint8_t)mm->expected, e, sizeof e);
        dbg_text(c, mm->dbg_byte, (uint8_t)mm->got, g, sizeof g);
    } else {
        snprintf(e, sizeof e, "%llu", (unsigned long long)mm->expected);
        snprintf(g, sizeof g, "%llu", (unsigned long long)mm->got);
    }
    fprintf(stderr,
            "tb: MISMATCH at cycle %llu: %s\n"
            "tb:   signal %s: expected (model) %s, got (RTL) %s\n"
            "tb:   waveform: %s\n",
            (unsigned long long)mm->cycle, mm->where, mm->signal, e, g,
            c->waveform[0] ? c->waveform : "(re-run failed to reproduce; none)");
    tb_mismatch keep = c->mm;
    print_other_diffs(c);
    c->mm = keep;
}

/* Flush and check stdout (the JSON / text result): a full disk, /dev/full or a closed pipe loses
 * the result, so the run failed: one line, exit 1 (as the lcan tool's tool_finish). */
static int finish_stdout(int status)
{
    int bad = fflush(stdout) != 0 || ferror(stdout);
    if (!bad && fclose(stdout) != 0)
        bad = 1;
    if (bad) {
        fprintf(stderr, "lcan: cannot write the output: %s\n", errno ? strerror(errno) : "write error");
        status = status == 0 ? 1 : status;
    }
    fflush(stderr);
    return status;
}

void tb_core_final(void)
{
    tb_ctx *c = g_tb;
    double dt = tb_now() - c->t_start;
    if (c->fail_cycle >= 0 && !c->rerun)
        rerun_with_waveform(c);
    if (c->rerun) {
        /* return to the testbench: its $finish ends the simulation normally, which closes and
         * flushes the waveform (an exit from here would lose the simulator's trace buffer) */
        fflush(stdout);
        return;
    }
    if (c->progress_shown && c->progress_tty)
        fputs("\r\033[K", stderr);
    if (c->mm.have)
        print_mismatch_text(c);
    if (c->fail[0])
        fprintf(stderr, "tb: FAIL: %s\ntb:   waveform: %s\n", c->fail,
                c->waveform[0] ? c->waveform : "(re-run failed to reproduce; none)");
    if (c->status == 2)
        exit(finish_stdout(2));
    if (strcmp(c->cmd, "lockstep") != 0 && c->result && !c->mm.have && !c->fail[0]) {
        /* route; collective (also when its result is incorrect: printed like the model, exit 1) */
        fputs(c->result, stdout);
    } else if (strcmp(c->cmd, "lockstep") == 0 || c->status != 0) {
        const char *mode = c->prm.mode ? "packet" : "circuit";
        if (c->json) {
            printf("{\"sim\":");
            lcan_json_string(stdout, c->sim);
            printf(",\"spec\":");
            lcan_json_string(stdout, c->spec);
            printf(",\"mode\":\"%s\",\"pattern\":", mode);
            lcan_json_string(stdout, c->pattern);
            printf(",\"seed\":%llu,\"cycles\":%llu,\"packets\":%llu,\"mismatches\":%d,\"first_mismatch\":",
                   (unsigned long long)c->seed, (unsigned long long)c->cycle, (unsigned long long)c->packets,
                   c->mm.have ? 1 : 0);
            if (c->mm.have) {
                const tb_mismatch *mm = &c->mm;
                printf("{\"cycle\":%llu,\"level\":%d,\"index\":", (unsigned long long)mm->cycle, mm->level);
                if (mm->index >= 0)
                    printf("%ld", mm->index);
                else
                    printf("null");
                printf(",\"port\":");
                if (mm->port >= 0)
                    printf("%d", mm->port);
                else
                    printf("null");
                printf(",\"net_port\":");
                if (mm->net_port >= 0)
                    printf("%ld", mm->net_port);
                else
                    printf("null");
                printf(",\"signal\":\"%s\",\"expected\":%llu,\"got\":%llu,\"where\":", mm->signal,
                       (unsigned long long)mm->expected, (unsigned long long)mm->got);
                lcan_json_string(stdout, mm->where);
                printf(",\"waveform\":");
                if (c->waveform[0])
                    lcan_json_string(stdout, c->waveform);
                else
                    printf("null");
                printf("}");
            } else {
                printf("null");
            }
            printf(",\"failure\":");
            if (c->fail[0])
                lcan_json_string(stdout, c->fail);
            else
                printf("null");
            printf(",\"waveform\":");
            if (c->waveform[0])
                lcan_json_string(stdout, c->waveform);
            else
                printf("null");
            printf(",\"checksum\":\"%016llx\",\"model\":%s,\"seconds\":%.3f,\"cycles_per_s\":%.1f}\n",
                   (unsigned long long)c->checksum, c->model ? "true" : "false", dt,
                   dt > 0 ? (double)c->cycle / dt : 0.0);
        } else {
            printf("%s %s %s %s pattern %s seed %llu: %llu cycles, %llu packets, %d mismatches%s, "
                   "checksum %016llx, %.1f s (%.0f cycles/s)%s\n",
                   c->cmd, c->sim, c->spec, mode, c->pattern, (unsigned long long)c->seed, (unsigned long long)c->cycle,
                   (unsigned long long)c->packets, c->mm.have ? 1 : 0, c->fail[0] ? ", CHECK FAILED" : "",
                   (unsigned long long)c->checksum, dt, dt > 0 ? (double)c->cycle / dt : 0.0,
                   c->model ? "" : " [RTL alone, no model]");
        }
    }
    exit(finish_stdout(c->status));
}
