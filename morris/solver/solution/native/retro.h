/*
 * The retrograde analysis of the solved game in plain C, apart from the CPython glue
 * (../_retro.c, the module morris.solver.solution._retro): what both solvers share.
 *
 * - moving.c: the retrograde analysis of one moving-phase unit of k men's morris (a sector
 *   (m, o) with its partner (o, m), or (m, m) alone), a System;
 * - placing.c: a placing sector's Bellman step over its successors' codes, a Placing;
 * - here: the board (symmetries, links, mills), the canonical sets and the index of a sector,
 *   the codes, and the two solvers' structs and functions, which the glue's objects wrap.
 *
 * Both work directly in the symmetry-reduced index of morris/engine/solution/symmetry.py:
 *
 *     entry = rank(canonical M) * C(24 - m, o) + colex rank(compress(s(O)))
 *
 * with s the first of the 16 symmetries that makes the mover's set M canonical (its least image)
 * and compress renumbering O's points over the points the canonical M leaves free.
 *
 * The semantics are those of the endgame tables' solver (morris/solver/tables/solve.py), whose
 * codes this reproduces value and distance, position by position: codes are distance + 1, 0 a
 * draw; WIN distances odd, LOSS even; a blocked position is LOSS(0); removal successors are read
 * from the already-solved sectors with a piece fewer (a side left with two has lost).
 *
 * Nothing here touches a Python object: the glue checks the inputs and fills these structs from
 * the caller's buffers, then calls the solvers without the interpreter lock. The host (the glue)
 * provides memory (host_malloc, host_free: Python's raw allocator, so tracemalloc sees it).
 */
#ifndef MORRIS_SOLVER_RETRO_H
#define MORRIS_SOLVER_RETRO_H

#include <stddef.h>
#include <stdint.h>

#include "symindex.h"

#define POINTS 24
#define FULL 0xFFFFFFu
#define SYMS 16
#define MILLS 16
#define MIN_PIECES 3
#define MAX_PIECES 12
/* Most turns (or un-moves) of one position: three pieces flying to 21 points. */
#define MAX_TURNS 64

/* The uint16 work word of an entry. */
#define UNDECIDED 0x8000u /* flag; the low 15 bits say what the removals decide (below) */
#define NONCANON 0xFFFFu  /* a duplicate of a smaller entry of its block: copied at the end */
#define INFO_MASK 0x7FFFu
#define NO_LOSS 0x7FFEu /* info: a removal reaches a draw or a win: never a LOSS */
/* Info otherwise: odd w, a removal wins in w turns; even f, the removals lose in f at the
 * slowest (0: no removal). Levels and codes stay below this. */
#define MAX_LEVEL 0x7FF0

typedef uint32_t bb;

/* ---------------------------------------------------------------------------------------- */
/* The board: symmetries, links, mills.                                                      */

typedef struct {
    SymImages image; /* image[s][b][v]: byte b (points 8b..8b+7) = v moved by symmetry s */
    bb neighbours[POINTS];
    bb mill_of[POINTS][2]; /* the two mills through each point */
    bb mills[MILLS];
    SymComb comb;
} Board;

static inline int low_point(bb x) { return __builtin_ctz(x); }

/* The index of the sectors is the engine's (morris/engine/native/symindex.h): the search reads
 * the sectors this solver writes with the same code. */
static inline int count_points(bb x) { return sym_count(x); }

static inline bb transform(const Board *B, bb x, int s)
{
    return sym_transform(&B->image[0][0][0], x, s);
}

/* The least image of x and the first symmetry giving it (symmetry.canonical). */
static inline bb canonical(const Board *B, bb x, int *sym)
{
    return sym_canonical(&B->image[0][0][0], x, sym);
}

/* Colex rank of x among the sets of its size, its points renumbered over those not in skip. */
static inline uint64_t colex(const Board *B, bb x, bb skip)
{
    return sym_colex(&B->comb[0][0], x, skip);
}

/* The number each point gets when the points of `skip` are left out (what colex counts). */
static inline void renumber(bb skip, uint8_t pos[POINTS])
{
    int left = 0;
    for (int p = 0; p < POINTS; p++) {
        pos[p] = (uint8_t)(p - left);
        left += (skip >> p) & 1;
    }
}

/* colex(B, x, skip) with the numbers renumber(skip) gave: no counting a point (the quiet
 * successors of one entry share their skip). */
static inline uint64_t colex_at(const Board *B, bb x, const uint8_t pos[POINTS])
{
    uint64_t r = 0;
    for (int j = 1; x; j++, x &= x - 1)
        r += B->comb[pos[low_point(x)]][j];
    return r;
}

/* The set of `size` points of 0..n-1 whose colex rank is r. */
static inline bb unrank(const Board *B, uint64_t r, int n, int size)
{
    bb out = 0;
    int p = n - 1;
    for (int j = size; j >= 1; j--, p--) {
        while (B->comb[p][j] > r)
            p--;
        r -= B->comb[p][j];
        out |= 1u << p;
    }
    return out;
}

/* The low bits of `bits` spread over the points of `mask`, in order (x86 PDEP). */
static inline bb deposit(bb bits, bb mask)
{
    bb out = 0;
    for (; mask && bits; mask &= mask - 1, bits >>= 1)
        if (bits & 1)
            out |= mask & -mask;
    return out;
}

/* Whether the piece of `x` on point p is in a mill of x. */
static inline int in_mill(const Board *B, bb x, int p)
{
    bb a = B->mill_of[p][0], b = B->mill_of[p][1];
    return (x & a) == a || (x & b) == b;
}

/* The pieces of `x` a removal may take: those outside mills, or any when all are in mills. */
static inline bb removable(const Board *B, bb x)
{
    bb held = 0;
    for (int i = 0; i < MILLS; i++)
        if ((x & B->mills[i]) == B->mills[i])
            held |= B->mills[i];
    return (x & ~held) ? (x & ~held) : x;
}

/* ---------------------------------------------------------------------------------------- */
/* Canonical sets of one size and the index of a sector.                                    */

typedef struct {
    int size;
    const bb *reps;   /* the canonical sets, sorted (symmetry.representatives) */
    size_t count;
    /* Per set of `size` points, by its colex rank over all 24 points: the rank of its canonical
     * form and the first symmetry giving that (what canonical() finds, without its 16 images:
     * 5 bytes a set, 6.5 MB for 9 points). */
    int32_t *rank;
    uint8_t *sym;
    uint16_t *stab;   /* per rank: the symmetries other than the identity fixing it (bit s) */
} Canon;

/* The rank of x's canonical form among the canonical sets of its size, and (*sym) the first
 * symmetry that gives it. */
static inline int32_t class_rank(const Board *B, const Canon *C, bb x, int *sym)
{
    uint64_t k = colex(B, x, 0);
    *sym = C->sym[k];
    return C->rank[k];
}

typedef struct {
    int m, o;           /* pieces of the side to move, of the other side */
    const Canon *canon; /* canonical sets of m points */
    uint64_t block;     /* C(24 - m, o) */
    uint64_t size;
} Index;

/* The entry of (mover x, other y) exactly as SymmetricIndex.index gives it. */
static inline uint64_t index_of(const Board *B, const Index *I, bb x, bb y)
{
    int s;
    uint64_t r = (uint64_t)class_rank(B, I->canon, x, &s);
    return r * I->block + colex(B, transform(B, y, s), I->canon->reps[r]);
}

/* Bitboards (canonical mover set, other side) of an entry. */
static inline void decode(const Board *B, const Index *I, uint64_t e, bb *x, bb *y)
{
    bb cx = I->canon->reps[e / I->block];
    *x = cx;
    *y = deposit(unrank(B, e % I->block, POINTS - I->m, I->o), ~cx & FULL);
}

/* What removing a piece of y leaves, for each piece a removal may take: the sets y less one
 * piece are the movers of the sector I a removal leads to, so each entry there is
 * base[k] + colex_at(transform(other side, sym[k]), pos[k]) (what index_of gives). The same for
 * every mill an entry's turns close: found once. Returns the pieces. */
typedef struct {
    int sym[MAX_PIECES];
    uint64_t base[MAX_PIECES];
    uint8_t pos[MAX_PIECES][POINTS];
} Removed;

static inline int removed_sets(const Board *B, const Index *I, bb y, Removed *R)
{
    int pieces = 0;
    for (bb rm = removable(B, y); rm; rm &= rm - 1, pieces++) {
        int32_t r = class_rank(B, I->canon, y ^ (rm & -rm), &R->sym[pieces]);
        renumber(I->canon->reps[r], R->pos[pieces]);
        R->base[pieces] = (uint64_t)r * I->block;
    }
    return pieces;
}

static inline uint64_t removed_entry(const Board *B, const Removed *R, int k, bb other)
{
    return R->base[k] + colex_at(B, transform(B, other, R->sym[k]), R->pos[k]);
}

/* Code e of a sector's codes of `width` bytes each (1 or 2). */
static inline unsigned code_at(const void *codes, int width, uint64_t e)
{
    return width == 1 ? ((const uint8_t *)codes)[e] : ((const uint16_t *)codes)[e];
}

/* What the solvers' functions return. */
enum { OK = 0, ERR_CODE = 1, ERR_COUNT = 2, ERR_MEMORY = 3 };

/* ---------------------------------------------------------------------------------------- */
/* The moving phase (moving.c).                                                               */

/* One sector of a moving-phase unit. */
typedef struct {
    Index index;         /* the sector (m, o) */
    uint16_t *word;      /* work word per entry (then the codes) */
    uint8_t *count;      /* distinct quiet successors not yet known won for the opponent */
    const uint8_t *cap;  /* codes of the sector a removal leads to, (o - 1, m); NULL: a win */
    int cap_width;       /* bytes a code there */
    Index cap_index;
    int partner;         /* which part holds the quiet successors (o, m) */
    int flies;           /* the side to move has three pieces */
} Part;

/* A moving-phase unit being solved: sector (m, o) with its partner (o, m), or (m, m) alone.
 * Work memory is 3 bytes an entry, in arrays the caller owns: a uint16 word (the distance once
 * decided, else UNDECIDED | what the removals decide) and a uint8 counter of the distinct
 * successor entries not yet known to be won for the opponent.
 *
 * system_set_up runs the setup pass on a range of entries of a part, system_level decides the
 * next distance and propagates it, system_finish turns the work words into codes. Each runs on
 * `threads` POSIX threads, each taking chunks of the entries: the codes are the same bits for
 * every number of threads (why: spread_range in moving.c). */
typedef struct {
    const Board *board;
    Part part[2];
    int parts;      /* 1 when m == o */
    int threads;    /* threads of each pass (setup, level, finish) */
    unsigned level; /* the next distance system_level decides: they go in order */
} System;

/* The setup pass over entries [start, stop) of part `which`: each entry's distinct quiet
 * successors counted, what its removals give settled. OK, or ERR_CODE (a removal's code of
 * MAX_LEVEL or more). */
int system_set_up(const System *S, int which, uint64_t start, uint64_t stop);

/* Decides distance S->level and propagates it (then S->level is the next one): *found the
 * entries decided at it, *later whether any is due after it. OK, or ERR_COUNT (the work arrays
 * changed between calls). */
int system_level(System *S, uint64_t *found, int *later);

/* The work words into codes (distance + 1, 0 a draw); longest[i] the longest distance of part
 * i (-1: none). */
void system_finish(const System *S, long longest[2]);

/* ---------------------------------------------------------------------------------------- */
/* The placing phase (placing.c).                                                             */

/* A placing sector (m, o on the board), solved by one Bellman step over the codes of the
 * sectors its turns lead to. */
typedef struct {
    const Board *board;
    Index index; /* the sector solved: (m, o) on the board */
    Index quiet; /* (o, m + 1) */
    Index cap;   /* (o - 1, m + 1), when a removal leads to a sector */
    const void *quiet_codes, *cap_codes; /* cap_codes NULL: no sector a removal leads to */
    int quiet_width, cap_width;
    int removes;      /* the other side has a piece on the board: a mill removes one */
    int wins_at_once; /* a removal leaves the other side two pieces */
} Placing;

/* Codes of entries [start, stop) into out[0 .. stop - start), 0 (a draw) without a step where
 * skip (NULL: none) is nonzero. OK, or ERR_MEMORY. */
int placing_solve(const Placing *P, uint64_t start, uint64_t stop, uint16_t *out,
                  const uint8_t *skip);

/* ---------------------------------------------------------------------------------------- */
/* The host (the glue).                                                                       */

/* Memory callable without the interpreter lock. */
void *host_malloc(size_t size);
void host_free(void *p);

#endif
