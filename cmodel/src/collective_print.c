/*
 * collective_print.c - the result of `lcan collective` as text or JSON. One printer for every
 * engine (the model in the tool, the RTL in the lockstep harness), so that their outputs can be
 * compared byte for byte.
 */
#include "lcan_collective.h"
#include "lcan_faults.h"
#include "json.h"

#include <stdio.h>

void lcan_collective_print(FILE *f, const lcan_topo *t, lcan_coll_op op, const char *engine, const lcan_coll_opts *o,
                           const lcan_coll_result *r, int json)
{
    int h = lcan_topo_levels(t), l;
    if (json) {
        fprintf(f, "{\"op\": ");
        lcan_json_string(f, lcan_coll_op_name(op));
        fprintf(f, ", \"spec\": ");
        lcan_json_string(f, lcan_topo_canonical(t));
        fprintf(f, ", \"engine\": ");
        lcan_json_string(f, engine);
        fprintf(f, ", \"steps\": %llu, \"paper_steps\": ", (unsigned long long)r->steps);
        lcan_json_i64(f, r->paper_steps);
        fprintf(f, ", \"paper_ref\": ");
        lcan_json_string(f, r->paper_ref);
        fprintf(f, ", \"paper_is_bound\": %s, \"expect_steps\": ", r->paper_is_bound ? "true" : "false");
        lcan_json_i64(f, r->expect_steps);
        fprintf(f, ", \"expect_ref\": ");
        lcan_json_string(f, r->expect_ref);
        fprintf(f, ", \"lower_bound\": ");
        lcan_json_i64(f, r->lower_bound);
        fprintf(f, ", \"lower_bound_ref\": ");
        lcan_json_string(f, r->lower_bound_ref != NULL ? r->lower_bound_ref : "");
        fprintf(f, ", \"max_queue\": %d, \"max_queue_ub\": %d, \"max_outstanding\": %d", r->max_queue, r->max_queue_ub,
               r->max_outstanding);
        fprintf(f, ", \"queue_up\": ");
        lcan_json_ints(f, r->queue_up + 1, h);
        fprintf(f, ", \"queue_down\": ");
        lcan_json_ints(f, r->queue_down + 1, h);
        fprintf(f, ", \"queue_peak\": ");
        lcan_json_ints(f, r->queue_peak + 1, h);
        fprintf(f, ", \"queue_peak_ub\": ");
        lcan_json_ints(f, r->queue_peak_ub + 1, h);
        fprintf(f, ", \"flood_up\": ");
        lcan_json_ints(f, r->flood_up + 1, h);
        fprintf(f, ", \"flood_down\": ");
        lcan_json_ints(f, r->flood_down + 1, h);
        fprintf(f, ", \"messages\": %llu, \"deliveries\": %llu, \"errors\": %llu, \"inj_stalls\": %llu, \"rounds\": %d",
               (unsigned long long)r->messages, (unsigned long long)r->deliveries, (unsigned long long)r->errors,
               (unsigned long long)r->inj_stalls, r->rounds);
        if (o->faults != NULL)
            fprintf(f, ", \"faults\": %llu, \"fault_rows\": %llu, \"trees_used\": %d, \"cut\": %u, \"reached\": %u, "
                       "\"unreached\": %u",
                    (unsigned long long)o->faults->count, (unsigned long long)r->fault_rows, r->trees_used, r->cut,
                    r->reached, r->unreached);
        fprintf(f, ", \"root\": %u, \"depth\": %d, \"flood_q\": %d, \"payload_w\": %d, \"broadcast\": \"%s\", "
                   "\"up_choice\": \"%s\", \"correct\": %s}\n",
               o->root, o->depth, o->flood_q, o->payload_w, o->flood ? "flood" : "tree",
               o->up_choice == LCAN_UP_ROTATE ? "rotate" : "uniform", r->correct ? "true" : "false");
        return;
    }
    fprintf(f, "op               %s\n", lcan_coll_op_name(op));
    fprintf(f, "spec             %s\n", lcan_topo_canonical(t));
    fprintf(f, "engine           %s (packet mode, DEPTH %d, FLOOD_Q %d, PAYLOAD_W %d, UP_CHOICE %s)\n", engine,
            o->depth, o->flood_q, o->payload_w, o->up_choice == LCAN_UP_ROTATE ? "rotate" : "uniform");
    if (op == LCAN_COLL_MNB || (op == LCAN_COLL_BCAST && !o->sw_bcast))
        fprintf(f, "broadcast        %s\n", o->flood ? "flood (spec 8.6: every leaf but the source)"
                                                     : "tree (spec 8.5: every leaf, the source included)");
    fprintf(f, "steps            %llu\n", (unsigned long long)r->steps);
    if (r->paper_steps >= 0)
        fprintf(f, "paper_steps      %lld%s  (%s)\n", (long long)r->paper_steps, r->paper_is_bound ? " (lower bound)" : "",
               r->paper_ref);
    else
        fprintf(f, "paper_steps      none  (%s)\n", r->paper_ref);
    if (r->expect_steps >= 0)
        fprintf(f, "expect_steps     %lld  (%s)\n", (long long)r->expect_steps, r->expect_ref);
    if (r->lower_bound >= 0)
        fprintf(f, "lower_bound      %lld  (%s)\n", (long long)r->lower_bound, r->lower_bound_ref);
    else
        fprintf(f, "lower_bound      none  (%s)\n", r->lower_bound_ref != NULL ? r->lower_bound_ref : "");
    fprintf(f, "max_queue        %d  (inferred from the debug view; upper bound %d, max DEPTH-cr %d)\n", r->max_queue,
           r->max_queue_ub, r->max_outstanding);
    fprintf(f, "queue per level  up:");
    for (l = 1; l <= h; l++)
        fprintf(f, " %d", r->queue_up[l]);
    fprintf(f, "  down:");
    for (l = 1; l <= h; l++)
        fprintf(f, " %d", r->queue_down[l]);
    fprintf(f, "  (levels 1..%d, by sending switch)\n", h);
    fprintf(f, "queue_peak       ");
    for (l = 1; l <= h; l++)
        fprintf(f, " %d", r->queue_peak[l]);
    fprintf(f, "  (levels 1..%d: largest input FIFO of a level-i switch fed by a switch; upper bounds", h);
    for (l = 1; l <= h; l++)
        fprintf(f, " %d", r->queue_peak_ub[l]);
    fprintf(f, ")\n");
    if (r->flood_down[1] >= 0) {
        fprintf(f, "flood queues     up:");
        for (l = 1; l < h; l++)
            fprintf(f, " %d", r->flood_up[l]);
        fprintf(f, "  down:");
        for (l = 1; l <= h; l++)
            fprintf(f, " %d", r->flood_down[l]);
        fprintf(f, "  (spec 8.7: largest q_o after a tick, levels 1..%d by sending switch; seed 000 4.1: up "
                   "2^(i-1))\n", h);
    }
    fprintf(f, "messages         %llu (deliveries %llu, rounds %d, injection stalls %llu)\n",
           (unsigned long long)r->messages, (unsigned long long)r->deliveries, r->rounds,
           (unsigned long long)r->inj_stalls);
    if (o->faults != NULL)
        fprintf(f, "faults           %llu elements (rows written on ticks 1..%llu): sent on %d trees; %u leaves "
                   "reached, %u unreached, %u cut from the root\n",
                (unsigned long long)o->faults->count, (unsigned long long)r->fault_rows, r->trees_used, r->reached,
                r->unreached, r->cut);
    fprintf(f, "correct          %s (%llu errors)\n", r->correct ? "yes" : "NO", (unsigned long long)r->errors);
}
