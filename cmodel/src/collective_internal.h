/*
 * collective_internal.h - the driver's message table and the round programs (reduce, prefix, leaf
 * broadcast) shared by collective.c and collective_round.c (internal).
 */
#ifndef LCAN_COLLECTIVE_INTERNAL_H
#define LCAN_COLLECTIVE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "lcan_collective.h"

#define COLL_NOT_RELEASED UINT32_MAX
#define COLL_NONE UINT32_MAX

/* One packet of the schedule. Per source leaf, packets are injected in order of (release, index). */
typedef struct {
    uint32_t src, dst;   /* leaf numbers; dst unused for a broadcast */
    uint32_t payload;    /* message number, or (round programs) the value, set at release */
    uint32_t release;    /* earliest tick it may be injected; COLL_NOT_RELEASED until known */
    int32_t round;       /* round programs: its round; -1 otherwise */
    int16_t port;        /* leaf port it must use, -1 = any */
    uint8_t bcast;       /* 1: hardware tree broadcast on tree `tree` (spec 8.5, head = 0), 2: flooding
                            broadcast on it (spec 8.6, head = 1: every leaf but the source) */
    uint16_t tree;
    uint32_t got;        /* deliveries seen (unicast) */
} coll_msg;

typedef struct {
    coll_msg *m;
    size_t n, cap;
} coll_msgs;

/* Append one packet (release COLL_NOT_RELEASED for round programs); NULL when out of memory. */
coll_msg *coll_add(coll_msgs *ms, uint32_t src, uint32_t dst, uint32_t release, int port);

/* A round program: rounds of messages, each round released when the previous one has been
 * delivered completely (seed 001's round model); leaves combine the values they receive. */
typedef struct coll_round coll_round;

/* Build the rounds of op (REDUCE, PREFIX, or BCAST with sw_bcast) and append their messages to ms
 * in round order. Checks seed 001's capacity rule for every round first: on a violation returns
 * LCAN_ERR_PATTERN with err explaining it. *model_steps = sum over rounds of 2 * round height. */
lcan_status coll_round_build(const lcan_topo *t, lcan_coll_op op, const lcan_coll_opts *o, int payload_w,
                             coll_msgs *ms, coll_round **out, int64_t *model_steps, char *err, size_t errlen);
int coll_round_count(const coll_round *r);
/* Message index range [*first, *end) of round k. */
void coll_round_range(const coll_round *r, int k, size_t *first, size_t *end);
/* The value message i carries, taken from its source's state when its round is released. */
uint32_t coll_round_payload(const coll_round *r, const coll_msg *m);
/* Message m arrived with value v. */
void coll_round_deliver(coll_round *r, const coll_msg *m, uint32_t v);
/* Compare every leaf's final result with a direct computation; returns the number of wrong ones. */
uint64_t coll_round_verify(const coll_round *r);
void coll_round_free(coll_round *r);

/* Seed 001's round-model lower bound (Thm 3, relation 8) for a binary tree whose channel above a
 * subtree of 2^j leaves has capacity cap(j); -1 when the network is not binary or log N < 2. */
int64_t coll_seed001_bound(const lcan_topo *t);
/* Capacity of the channel between a level-l subtree (l = 0: a leaf) and level l+1, in links:
 * w_1 * .. * w_(l+1) * p_(l+1) (seed 001's w(n) for that subtree). */
uint64_t coll_capacity(const lcan_topo *t, int l);

/* The papers' lower bound for op on t (-1: none) and its reference (collective_bounds.c). */
void coll_lower_bound(const lcan_topo *t, lcan_coll_op op, const lcan_coll_opts *o, int64_t *lb, const char **ref);

#endif
