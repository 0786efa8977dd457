/*
 * A placing sector of k men's morris solved by one Bellman step over its successors' codes, in
 * the symmetry-reduced index (retro.h), a Placing. Its CPython glue, Placing in the module
 * morris.solver.solution._retro, is ../_retro.c.
 *
 * The placing phase is acyclic: an entry's code is the best over its placements of the codes
 * they reach (morris/solver/solution/turns.py, expected_codes, is the same step in numpy, and
 * the reference these codes are tested against). A placement on a point q puts the mover's piece
 * there; the successor, the other side to move, is (the other side, the mover's pieces with q) in
 * the quiet sector (o, m + 1), or, when the piece closes a mill and the other side has a piece on
 * the board, one successor per removable piece in the removal sector (o - 1, m + 1) (a LOSS(0)
 * for the other side when it is left with two). The successors of one entry share the mover's
 * set, so their canonical symmetry and their block of the quiet sector are found once; seen
 * through that symmetry the other side is the block's canonical set, so what a removal leaves
 * of it is found once for all the entries of a block taken one after another.
 */
#include <stdint.h>
#include <string.h>

#include "retro.h"

/* What consecutive entries of one quiet block share: the renumbering of that block and what a
 * removal leaves of its canonical other side (the block's mover set). */
typedef struct {
    int32_t rank; /* -1: none yet */
    uint8_t pos[POINTS];
    int pieces; /* the pieces a removal may take (-1: not found yet for this block) */
    Removed removed;
} Block;

/* The code of entry e from its successors' codes. */
static inline uint16_t placing_code(const Placing *P, uint64_t e, Block *last)
{
    const Board *B = P->board;
    const Index *Q = &P->quiet, *C = &P->cap;
    bb x, y;
    decode(B, &P->index, e, &x, &y);
    int s;
    int32_t r = class_rank(B, Q->canon, y, &s);
    if (r != last->rank) {
        renumber(Q->canon->reps[r], last->pos);
        last->rank = r;
        last->pieces = -1;
    }
    const uint8_t *pos = last->pos;
    uint64_t base = (uint64_t)r * Q->block;
    /* A quiet successor's mover set is x's image t0 under s with one point p added: its colex
     * rank is that of t0's points below p, then p's term, then t0's points above p, each one
     * place later (colex_at of t0 | p, without a loop over its points). */
    bb t0 = transform(B, x, s);
    uint64_t below[MAX_PIECES + 1], above[MAX_PIECES + 1];
    {
        uint8_t at[MAX_PIECES];
        int n = 0;
        below[0] = 0;
        for (bb t = t0; t; t &= t - 1, n++) {
            at[n] = pos[low_point(t)];
            below[n + 1] = below[n] + B->comb[at[n]][n + 1];
        }
        above[n] = 0;
        for (int j = n - 1; j >= 0; j--)
            above[j] = above[j + 1] + B->comb[at[j]][j + 2];
    }
    unsigned win = UINT16_MAX, longest = 0; /* fastest win (odd), slowest loss (even) */
    int draw = 0;
#define TAKE(c)                                                                              \
    do {                                                                                     \
        unsigned c_ = (c);                                                                   \
        if (c_ == 0)                                                                         \
            draw = 1;                                                                        \
        else if (c_ & 1) {                                                                   \
            if (c_ < win)                                                                    \
                win = c_;                                                                    \
        } else if (c_ > longest)                                                             \
            longest = c_;                                                                    \
    } while (0)
    for (bb empty = ~(x | y) & FULL; empty; empty &= empty - 1) {
        int q = low_point(empty);
        bb after = x | (1u << q);
        int p = low_point(B->image[s][q >> 3][1u << (q & 7)]); /* q seen from the block */
        if (!(P->removes && in_mill(B, after, q))) {
            int k = count_points(t0 & ((1u << p) - 1));
            TAKE(code_at(P->quiet_codes, P->quiet_width,
                         base + below[k] + B->comb[pos[p]][k + 1] + above[k]));
        } else if (P->wins_at_once) {
            TAKE(1); /* the other side is left with two: LOSS(0) for it */
        } else {
            /* Seen through s, the other side is the block's canonical set, so what a removal
             * leaves is found once a block, not once an entry; the position is the same up to
             * a symmetry, and so is its code. */
            if (last->pieces < 0)
                last->pieces = removed_sets(B, C, Q->canon->reps[r], &last->removed);
            bb moved = t0 | (1u << p);
            for (int k = 0; k < last->pieces; k++)
                TAKE(code_at(P->cap_codes, P->cap_width,
                             removed_entry(B, &last->removed, k, moved)));
        }
    }
#undef TAKE
    /* Placing, a point is always empty: every entry has a turn. */
    return (uint16_t)(win != UINT16_MAX ? win + 1 : draw ? 0 : longest + 1);
}

/* Entries a pass of placing_solve sorts at most: 32 MB of work arrays. */
#define PLACING_CHUNK (1u << 22)

/* Codes of entries [start, stop) into out[0 .. stop - start), 0 (a draw) without a step where
 * skip (NULL: none) is nonzero; ERR_MEMORY if out of memory.
 *
 * Memory, not arithmetic, bounds the step: an entry's dozen quiet successors lie in one block
 * of the quiet sector (the block of the other side's canonical set), spread over tens of
 * kilobytes, and consecutive entries have other sides far apart, so in entry order nearly every
 * successor was a cache miss (1.1 us an entry on 5v5). So the entries of each chunk are taken in
 * the order of their successors' block (a counting sort on it), sweeping the quiet sector once;
 * the removal successors' blocks, of the same set less a piece, come along. */
int placing_solve(const Placing *P, uint64_t start, uint64_t stop, uint16_t *out,
                  const uint8_t *skip)
{
    const Board *B = P->board;
    const Index *Q = &P->quiet;
    const size_t classes = (size_t)Q->canon->count;
    uint64_t most = stop - start < PLACING_CHUNK ? stop - start : PLACING_CHUNK;
    int32_t *rank = host_malloc((most ? most : 1) * sizeof *rank);
    uint32_t *order = host_malloc((most ? most : 1) * sizeof *order);
    uint32_t *first = host_malloc((classes + 1) * sizeof *first);
    int err = rank == NULL || order == NULL || first == NULL ? ERR_MEMORY : OK;
    for (uint64_t from = start; from < stop && !err; from += PLACING_CHUNK) {
        uint32_t n = (uint32_t)(stop - from < PLACING_CHUNK ? stop - from : PLACING_CHUNK);
        const uint8_t *known = skip ? skip + (from - start) : NULL;
        memset(first, 0, (classes + 1) * sizeof *first);
        uint32_t todo = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (known && known[i]) {
                out[from - start + i] = 0; /* a draw, known: not solved */
                rank[i] = -1;
                continue;
            }
            bb x, y;
            int s;
            decode(B, &P->index, from + i, &x, &y);
            rank[i] = class_rank(B, Q->canon, y, &s);
            first[rank[i] + 1]++;
            todo++;
        }
        for (size_t c = 0; c < classes; c++)
            first[c + 1] += first[c];
        for (uint32_t i = 0; i < n; i++)
            if (rank[i] >= 0)
                order[first[rank[i]]++] = i; /* in entry order within a block */
        /* placing_code finds each entry's rank again: reading it back here, at an entry all
         * over the chunk, measured slower (a miss) than the arithmetic. */
        Block last = {.rank = -1, .pieces = -1};
        for (uint32_t j = 0; j < todo; j++) {
            uint32_t i = order[j];
            out[from - start + i] = placing_code(P, from + i, &last);
        }
    }
    host_free(rank);
    host_free(order);
    host_free(first);
    return err;
}
