/*
 * morris.solver.solution._retro: retrograde analysis of one moving-phase unit of k men's morris
 * (a sector (m, o) with its partner (o, m), or (m, m) alone), worked directly in the
 * symmetry-reduced index of morris/engine/solution/symmetry.py:
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
 * Work memory is 3 bytes an entry, in arrays the caller owns: a uint16 word (the distance once
 * decided, else UNDECIDED | what the removals decide) and a uint8 counter of the distinct
 * successor entries not yet known to be won for the opponent.
 *
 * Symmetry. Several turns can reach the same entry, so the counter counts DISTINCT successor
 * entries, and a solved entry's predecessors (un-moves) are deduplicated per entry, so each
 * (predecessor, successor) pair is counted once on both sides. When M has a non-trivial
 * stabiliser, the entries (M, h(O)) for h in it are one position stored more than once: only the
 * class representative (the least h(O), which is also the least entry) takes part; the others
 * are marked NONCANON and copied from it at the end.
 *
 * The Python side (morris/solver/solution/solve.py) drives it: System(...) checks and keeps the
 * inputs, setup() runs the set-up pass on a range of entries, level(L) decides distance L and
 * propagates it, finish() turns the work words into codes. Each releases the interpreter lock
 * while it computes (a Dask worker keeps its heartbeat), and runs on System(..., threads=N)
 * POSIX threads, each taking chunks of the entries: the codes are the same bits for every N
 * (why: spread_range).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

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
    bb image[SYMS][3][256]; /* image[s][b][v]: byte b (points 8b..8b+7) = v moved by symmetry s */
    bb neighbours[POINTS];
    bb mill_of[POINTS][2]; /* the two mills through each point */
    bb mills[MILLS];
    uint64_t comb[POINTS + 1][POINTS + 1];
} Board;

static inline int low_point(bb x) { return __builtin_ctz(x); }

/* Points in x. Without a popcount instruction (x86-64's baseline, built without -mpopcnt) GCC
 * calls libgcc for __builtin_popcount, which took 12 % of a flying unit's time: bit tricks. */
static inline int count_points(bb x)
{
#if defined(__POPCNT__) || defined(__aarch64__) || defined(__ARM_NEON)
    return __builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
#endif
}

static inline bb transform(const Board *B, bb x, int s)
{
    return B->image[s][0][x & 255] | B->image[s][1][(x >> 8) & 255] | B->image[s][2][x >> 16];
}

/* The least image of x and the first symmetry giving it (symmetry.canonical). */
static inline bb canonical(const Board *B, bb x, int *sym)
{
    bb best = x;
    int best_sym = 0;
    for (int s = 1; s < SYMS; s++) {
        bb y = transform(B, x, s);
        if (y < best) {
            best = y;
            best_sym = s;
        }
    }
    *sym = best_sym;
    return best;
}

/* Colex rank of x among the sets of its size, its points renumbered over those not in skip. */
static inline uint64_t colex(const Board *B, bb x, bb skip)
{
    uint64_t r = 0;
    for (int j = 1; x; j++, x &= x - 1) {
        int p = low_point(x);
        r += B->comb[p - count_points(skip & ((1u << p) - 1))][j];
    }
    return r;
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

/* Drops the repeats among a few entries (at most MAX_TURNS), keeping the first of each in
 * order; returns how many are left. An open-addressing set of twice as many slots, emptied
 * again through the slots it filled: linear in n, where the insertion sort it replaces was
 * quadratic (27 % of a flying unit's time, with up to 63 entries). The order the kept entries
 * come in does not matter to the callers (a count; predecessors updated in any order, see
 * spread_range). */
#define SET_SLOTS (2 * MAX_TURNS)
#define SET_EMPTY UINT64_MAX /* no entry: sectors have fewer than 2^64 */
typedef struct {
    uint64_t slot[SET_SLOTS];
} Set;

static void set_init(Set *S)
{
    for (int i = 0; i < SET_SLOTS; i++)
        S->slot[i] = SET_EMPTY;
}

static inline int distinct(Set *S, uint64_t *v, int n)
{
    uint8_t used[MAX_TURNS];
    int k = 0;
    for (int i = 0; i < n; i++) {
        uint64_t x = v[i];
        unsigned h = (unsigned)((x * 0x9E3779B97F4A7C15ull) >> 57); /* 7 bits: SET_SLOTS */
        while (S->slot[h] != SET_EMPTY && S->slot[h] != x)
            h = (h + 1) & (SET_SLOTS - 1);
        if (S->slot[h] == SET_EMPTY) {
            S->slot[h] = x;
            used[k] = (uint8_t)h;
            v[k++] = x;
        }
    }
    for (int i = 0; i < k; i++)
        S->slot[used[i]] = SET_EMPTY;
    return k;
}

/* ---------------------------------------------------------------------------------------- */
/* Canonical sets of one size and the index of a sector.                                    */

typedef struct {
    int size;
    const bb *reps;   /* the canonical sets, sorted (symmetry.representatives) */
    Py_ssize_t count;
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

/* The representative of the entries standing for (mover x, other y): the least over the
 * stabiliser of the canonical mover set (the entry index_of gives when it is trivial). */
static inline uint64_t class_of(const Board *B, const Index *I, bb x, bb y)
{
    int s;
    int32_t r = class_rank(B, I->canon, x, &s);
    bb cx = I->canon->reps[r];
    bb moved = transform(B, y, s), best = moved;
    for (unsigned st = I->canon->stab[r]; st; st &= st - 1) {
        bb t = transform(B, moved, low_point(st));
        if (t < best)
            best = t;
    }
    return (uint64_t)r * I->block + colex(B, best, cx);
}

/* Bitboards (canonical mover set, other side) of an entry. */
static inline void decode(const Board *B, const Index *I, uint64_t e, bb *x, bb *y)
{
    bb cx = I->canon->reps[e / I->block];
    *x = cx;
    *y = deposit(unrank(B, e % I->block, POINTS - I->m, I->o), ~cx & FULL);
}

/* Whether (canonical x, y) is the representative of its entries (no image of y under x's
 * stabiliser is smaller). */
static inline int is_representative(const Board *B, unsigned stab, bb y)
{
    for (; stab; stab &= stab - 1)
        if (transform(B, y, low_point(stab)) < y)
            return 0;
    return 1;
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

/* ---------------------------------------------------------------------------------------- */
/* The system being solved.                                                                   */

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

enum { OK = 0, ERR_CODE = 1, ERR_COUNT = 2 };

/* Code e of a sector's codes of `width` bytes each (1 or 2). */
static inline unsigned code_at(const void *codes, int width, uint64_t e)
{
    return width == 1 ? ((const uint8_t *)codes)[e] : ((const uint16_t *)codes)[e];
}

static inline unsigned cap_code(const Part *P, uint64_t e)
{
    return code_at(P->cap, P->cap_width, e);
}

/* The set-up pass over entries [start, stop) of part P: count each entry's distinct quiet
 * successors and settle what its removals give. */
static int setup_range(const Board *B, const Part *parts, int which, uint64_t start, uint64_t stop)
{
    const Part *P = &parts[which];
    const Part *Q = &parts[P->partner];
    const Index *I = &P->index;
    const int m = I->m, o = I->o, n = POINTS - m;
    uint64_t succ[MAX_TURNS];
    Set seen;
    if (start >= stop)
        return OK;
    set_init(&seen);
    uint64_t r = start / I->block;
    bb c = unrank(B, start % I->block, n, o); /* the compressed other side, in colex order */
    for (uint64_t e = start; e < stop; e++) {
        if (e != start) {
            if (e % I->block == 0) {
                r++;
                c = (1u << o) - 1;
            } else { /* the next set of o points in colex (= numeric) order: Gosper's hack */
                bb t = c | (c - 1);
                c = (t + 1) | (((~t & -~t) - 1) >> (low_point(c) + 1));
            }
        }
        bb x = I->canon->reps[r];
        bb y = deposit(c, ~x & FULL);
        if (!is_representative(B, I->canon->stab[r], y)) {
            P->word[e] = NONCANON;
            P->count[e] = 0;
            continue;
        }
        bb empty = ~(x | y) & FULL;
        /* Quiet successors are (y to move, x) in the partner: y's symmetry is fixed here. */
        int sy;
        int32_t ry = class_rank(B, Q->index.canon, y, &sy);
        bb cy = Q->index.canon->reps[ry];
        unsigned stab_y = Q->index.canon->stab[ry];
        uint64_t base = (uint64_t)ry * Q->index.block;
        uint8_t pos[POINTS];
        renumber(cy, pos);
        Removed removed; /* what the removals leave, found at the first mill */
        int pieces = -1; /* the pieces a removal may take (-1: no mill yet) */
        unsigned win = 0xFFFFu, longest = 0;
        int no_loss = 0, quiet = 0;
        for (bb from = x; from; from &= from - 1) {
            int p = low_point(from);
            bb targets = P->flies ? empty : (B->neighbours[p] & empty);
            for (; targets; targets &= targets - 1) {
                int t = low_point(targets);
                bb after = (x ^ (1u << p)) | (1u << t);
                if (!in_mill(B, after, t)) {
                    bb a = transform(B, after, sy), best = a;
                    for (unsigned st = stab_y; st; st &= st - 1) {
                        bb h = transform(B, a, low_point(st));
                        if (h < best)
                            best = h;
                    }
                    succ[quiet++] = base + colex_at(B, best, pos);
                    continue;
                }
                if (pieces < 0)
                    pieces = P->cap ? removed_sets(B, &P->cap_index, y, &removed)
                                    : count_points(removable(B, y));
                for (int k = 0; k < pieces; k++) {
                    unsigned code = 1; /* the other side left with two: LOSS(0) for them */
                    if (P->cap)
                        code = cap_code(P, removed_entry(B, &removed, k, after));
                    if (code >= MAX_LEVEL)
                        return ERR_CODE;
                    if (code & 1) { /* the opponent loses: a win in `code` turns */
                        if (code < win)
                            win = code;
                        no_loss = 1;
                    } else if (code == 0) {
                        no_loss = 1;
                    } else if (code > longest) {
                        longest = code;
                    }
                }
            }
        }
        unsigned info = win != 0xFFFFu ? win : (no_loss ? NO_LOSS : longest);
        P->word[e] = (uint16_t)(UNDECIDED | info);
        P->count[e] = (uint8_t)distinct(&seen, succ, quiet);
    }
    return OK;
}

/* Relaxed atomic access to the work arrays the threads of one pass share (see spread_range):
 * only the atomicity of each access matters, never the order between them. */
#define LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)

/* Decides undecided entry e at `level` if its removals say so (and sets *later if they decide it
 * then or after): a removal's win at its distance; a loss once every quiet line is lost too, no
 * sooner than the slowest removal. */
static inline void due(const Part *P, uint64_t e, unsigned w, unsigned level, int *later)
{
    unsigned info = w & INFO_MASK;
    if (w == NONCANON || info == NO_LOSS || !((info & 1) || LOAD(&P->count[e]) == 0))
        return;
    if (info == level)
        STORE(&P->word[e], (uint16_t)level);
    if (info >= level)
        *later = 1; /* decided at `level` or after: the caller's loop goes on */
}

/* Entries [start, stop) decided at distance 0 by their removals (blocked: LOSS(0)). */
static void due_first_range(const Part *P, uint64_t start, uint64_t stop, int *later)
{
    for (uint64_t e = start; e < stop; e++) {
        unsigned w = P->word[e];
        if (w & UNDECIDED)
            due(P, e, w, 0, later);
    }
}

/* Entries a level's scan tests at once before looking at any of them. */
#define SCAN 32

/* Whether any of the SCAN words from w on is spread at `level` or due after it: the test of
 * spread_range on each, or'd, in a loop the compiler turns into vector instructions (most
 * chunks have none: a level's scan was a quarter of a large unit's time). The words are read
 * without atomics: those equal to `level` are not written during the scan, and a word another
 * thread decides meanwhile is only ever skipped where spread_range, reading it again, would
 * skip it too (see there), so the filter changes nothing it decides. */
static inline int any_due(const uint16_t *w, unsigned level)
{
    unsigned acc = 0;
    for (int i = 0; i < SCAN; i++) {
        unsigned word = w[i], info = word & INFO_MASK;
        acc |= (word == level) | (((word & UNDECIDED) != 0) & (word != NONCANON) &
                                  (info > level) & (info != NO_LOSS));
    }
    return acc != 0;
}

/* Propagates the entries [start, stop) of part `which` decided at `level` to their predecessors
 * in its partner, adding their number to *found; in the same scan, the entries its removals
 * decide at level + 1 get it.
 *
 * Threads. One level of a part is scanned by several threads at once, each over its own ranges
 * of entries, with the parts one after another (level() waits for every thread of part 0
 * before part 1 starts), as one thread does them. The result is the same bits whatever the
 * split and the interleaving, because within the scan of `level`:
 * - Every word written is written the value level + 1, and only over an undecided word (the
 *   due() of the entry itself, a predecessor of a LOSS, or a predecessor whose last counted
 *   successor this is). The words equal to `level` (what is spread, and *found) were all set
 *   before the scan and none is written during it, so every thread spreads the same entries;
 *   a word read undecided and written meanwhile only ever gets the same value again.
 * - A counter only decreases, by one per (distinct predecessor, successor decided at an odd
 *   level) pair: atomic decrements make its final value the same in any order, and exactly one
 *   thread sees it reach 0 (the fetched old value 1) and applies the rule for that moment.
 * - The due() check of an undecided entry p for level + 1 can read p's counter before or after
 *   decrements made in this scan, but decides the same: with f = p's info (even, a LOSS due no
 *   sooner than f), if it reads 0 and f == level + 1 it writes level + 1; if it reads more than 0
 *   and the counter reaches 0 in this scan, the thread whose decrement gets there writes
 *   level + 1 because f <= level + 1 (and leaves p due at f > level + 1 to the scan of level
 *   f - 1, when its counter is 0 whatever the order). An odd f (a removal wins) does not read
 *   the counter. So p's word after the scan depends only on the words and counters before it.
 * - *later may differ with the order (an entry decided by a predecessor's write before its own
 *   due() sees it), but only in a scan that spreads entries (*found > 0): the caller goes on to
 *   the next level then anyway, and stops only after a scan with *found == 0, in which nothing
 *   writes another entry's word or counter and *later is exact.
 * The same order-independence makes the one-thread result that of the old whole-part scan. */
static int spread_range(const Board *B, const Part *parts, int which, unsigned level,
                        uint64_t start, uint64_t stop, uint64_t *found, int *later)
{
    const Part *P = &parts[which];
    const Part *Q = &parts[P->partner];
    uint64_t pred[MAX_TURNS];
    Set seen;
    set_init(&seen);
    for (uint64_t e = start; e < stop; e++) {
        if (e % SCAN == 0 && stop - e >= SCAN && !any_due(&P->word[e], level)) {
            e += SCAN - 1; /* none of them: the loop's e++ goes on after them */
            continue;
        }
        unsigned word = LOAD(&P->word[e]);
        /* Most entries are decided at another level, or undecided with nothing their removals
         * decide from level + 1 on (due() does nothing for them): one test on the word, without
         * branching on each condition nor reading the counter (the scans of the levels were most
         * of a large unit's time, 2.4 ns an entry a level over 5v6 + 6v5). */
        unsigned info = word & INFO_MASK;
        unsigned due_later = ((word & UNDECIDED) != 0) & (word != NONCANON) & (info > level) &
                             (info != NO_LOSS);
        if (!((word == level) | due_later))
            continue;
        if (word != level) {
            due(P, e, word, level + 1, later);
            continue;
        }
        ++*found;
        bb x, y;
        decode(B, &P->index, e, &x, &y);
        /* The last turn was y's, from the partner: a piece now on t came from an empty s (a
         * neighbour, any point when y flies) and closed no mill at t. */
        bb empty = ~(x | y) & FULL;
        int n = 0;
        for (bb to = y; to; to &= to - 1) {
            int t = low_point(to);
            if (in_mill(B, y, t))
                continue;
            bb sources = Q->flies ? empty : (B->neighbours[t] & empty);
            for (; sources; sources &= sources - 1)
                pred[n++] = class_of(B, &Q->index, (y ^ (1u << t)) | (sources & -sources), x);
        }
        n = distinct(&seen, pred, n);
        for (int i = 0; i < n; i++) {
            uint64_t p = pred[i];
            unsigned w = LOAD(&Q->word[p]);
            if (level % 2 == 0) { /* a LOSS here: a WIN one turn longer there */
                if (w & UNDECIDED)
                    STORE(&Q->word[p], (uint16_t)(level + 1));
                continue;
            }
            uint8_t left = __atomic_fetch_sub(&Q->count[p], 1, __ATOMIC_RELAXED);
            if (left == 0) { /* more won successors than it has: a broken input */
                __atomic_fetch_add(&Q->count[p], 1, __ATOMIC_RELAXED);
                return ERR_COUNT;
            }
            if (left != 1 || !(w & UNDECIDED))
                continue;
            /* Every quiet line is lost: a LOSS, no sooner than its slowest removal. */
            unsigned info = w & INFO_MASK;
            if ((info & 1) || info == NO_LOSS)
                continue; /* a removal wins or draws */
            if (info <= level + 1)
                STORE(&Q->word[p], (uint16_t)(level + 1));
            /* else due at `info` (its counter is 0 now) */
        }
    }
    return OK;
}

/* The work words of entries [start, stop) into codes (distance + 1, 0 a draw), duplicates
 * copied from their representative (a smaller entry of the same block, done before: the range
 * is whole blocks). Raises *longest to the longest distance found. */
static void finish_range(const Board *B, const Part *P, uint64_t start, uint64_t stop,
                         long *longest)
{
    for (uint64_t e = start; e < stop; e++) {
        unsigned w = P->word[e];
        if (w == NONCANON) {
            bb x, y;
            decode(B, &P->index, e, &x, &y);
            P->word[e] = P->word[class_of(B, &P->index, x, y)];
        } else if (w & UNDECIDED) {
            P->word[e] = 0;
        } else {
            P->word[e] = (uint16_t)(w + 1);
            if ((long)w > *longest)
                *longest = (long)w;
        }
    }
}

/* ---------------------------------------------------------------------------------------- */
/* Passes over ranges of entries on several threads.                                          */

#define MAX_THREADS 256
enum { JOB_SETUP, JOB_DUE_FIRST, JOB_SPREAD, JOB_FINISH };

/* One pass over entries [next, stop) of one part, taken in chunks by whichever thread is free
 * (the cost of an entry varies too much for a fixed split). */
typedef struct {
    const Board *B;
    const Part *parts;
    int which, kind;
    unsigned level;
    uint64_t next, stop, chunk; /* next: the first entry no thread has taken (atomic) */
    int failed;                 /* a thread met an error: the others stop (atomic) */
} Job;

/* What one thread of a job found. */
typedef struct {
    Job *job;
    uint64_t found;
    long longest;
    int later, err;
} Worker;

static void *work(void *arg)
{
    Worker *W = arg;
    Job *J = W->job;
    const Part *P = &J->parts[J->which];
    while (!__atomic_load_n(&J->failed, __ATOMIC_RELAXED)) {
        uint64_t start = __atomic_fetch_add(&J->next, J->chunk, __ATOMIC_RELAXED);
        if (start >= J->stop)
            break;
        uint64_t stop = J->stop - start < J->chunk ? J->stop : start + J->chunk;
        int err = OK;
        switch (J->kind) {
        case JOB_SETUP:
            err = setup_range(J->B, J->parts, J->which, start, stop);
            break;
        case JOB_DUE_FIRST:
            due_first_range(P, start, stop, &W->later);
            break;
        case JOB_SPREAD:
            err = spread_range(J->B, J->parts, J->which, J->level, start, stop, &W->found,
                               &W->later);
            break;
        default:
            finish_range(J->B, P, start, stop, &W->longest);
        }
        if (err) {
            W->err = err;
            __atomic_store_n(&J->failed, 1, __ATOMIC_RELAXED);
        }
    }
    return NULL;
}

/* Runs `kind` over entries [start, stop) of part `which` on up to `threads` threads (the
 * calling one among them; fewer if the system refuses more). Sums what they found into *found,
 * *later and *longest; returns the first error. Every write of the pass is visible when it
 * returns (the threads are joined). */
static int run_pass(const Board *B, const Part *parts, int which, int kind, unsigned level,
                    uint64_t start, uint64_t stop, int threads, uint64_t *found, int *later,
                    long *longest)
{
    const Part *P = &parts[which];
    uint64_t chunk;
    switch (kind) {
    case JOB_SETUP:
        chunk = 1u << 12; /* about a millisecond */
        break;
    case JOB_FINISH: /* whole blocks: a duplicate's representative comes first in its block */
        chunk = P->index.block * (1 + ((1u << 16) - 1) / P->index.block);
        break;
    default:
        chunk = 1u << 16;
    }
    Job J = {B, parts, which, kind, level, start, stop, chunk, 0};
    uint64_t chunks = (stop - start + chunk - 1) / chunk;
    if (threads > MAX_THREADS) /* a machine with more cores: those threads are enough */
        threads = MAX_THREADS;
    if ((uint64_t)threads > chunks)
        threads = chunks ? (int)chunks : 1;
    Worker W[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    int started = 1;
    for (int i = 0; i < threads; i++)
        W[i] = (Worker){&J, 0, -1, 0, OK};
    for (; started < threads; started++)
        if (pthread_create(&tid[started], NULL, work, &W[started]) != 0)
            break; /* fewer threads: the chunks are shared by those there are */
    work(&W[0]);
    for (int i = 1; i < started; i++)
        pthread_join(tid[i], NULL);
    int err = OK;
    for (int i = 0; i < started; i++) {
        if (found)
            *found += W[i].found;
        if (later)
            *later |= W[i].later;
        if (longest && W[i].longest > *longest)
            *longest = W[i].longest;
        if (!err)
            err = W[i].err;
    }
    return err;
}

/* ---------------------------------------------------------------------------------------- */
/* The Python type.                                                                           */

#define MAX_VIEWS 16 /* board 3, representatives 4, work and counts 4, captures 2 */

/* What both Python types hold: the board, the canonical sets of the sizes they read, and the
 * buffers they keep (released at the end). */
typedef struct {
    Board board;
    Canon canon[POINTS + 1]; /* only the sizes read are filled */
    Py_buffer views[MAX_VIEWS];
    int views_held;
} Shared;

static void shared_release(Shared *self)
{
    for (int i = 0; i < self->views_held; i++)
        PyBuffer_Release(&self->views[i]);
    self->views_held = 0;
    for (int s = 0; s <= POINTS; s++) {
        PyMem_RawFree(self->canon[s].rank);
        PyMem_RawFree(self->canon[s].sym);
        PyMem_RawFree(self->canon[s].stab);
        self->canon[s].rank = NULL;
        self->canon[s].sym = NULL;
        self->canon[s].stab = NULL;
    }
}

typedef struct {
    PyObject_HEAD
    Shared sh;
    Part part[2];
    int parts;
    int busy;
    int finished;
    int threads; /* threads of each pass (setup, level, finish) */
    unsigned level; /* the next distance level() decides: they go in order */
} System;

static void System_dealloc(System *self)
{
    shared_release(&self->sh);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A contiguous buffer of `count` items of `width` bytes (or of any count when count < 0). */
static int get_buffer(Shared *self, PyObject *obj, int writable, Py_ssize_t width,
                      Py_ssize_t count, const char *what, Py_buffer **out)
{
    if (self->views_held == MAX_VIEWS) {
        PyErr_SetString(PyExc_RuntimeError, "too many buffers");
        return -1;
    }
    Py_buffer *view = &self->views[self->views_held];
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) {
        PyErr_Format(PyExc_ValueError, "%s: not a contiguous%s buffer", what,
                     writable ? " writable" : "");
        return -1;
    }
    self->views_held++;
    if (view->itemsize != width) {
        PyErr_Format(PyExc_ValueError, "%s: items of %zd bytes, not %zd", what, view->itemsize,
                     width);
        return -1;
    }
    if (count >= 0 && view->len != count * width) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items, not %zd", what, view->len / width, count);
        return -1;
    }
    *out = view;
    return 0;
}

static int set_board(Shared *self, PyObject *images, PyObject *neighbours, PyObject *mills)
{
    Board *B = &self->board;
    Py_buffer *v;
    if (get_buffer(self, images, 0, 4, SYMS * 3 * 256, "images", &v) < 0)
        return -1;
    memcpy(B->image, v->buf, sizeof B->image);
    for (int s = 0; s < SYMS; s++)
        for (int b = 0; b < 3; b++)
            for (int i = 0; i < 8; i++) {
                bb img = B->image[s][b][1u << i];
                if (img == 0 || (img & (img - 1)) || (img & ~FULL)) {
                    PyErr_Format(PyExc_ValueError,
                                 "images: symmetry %d moves point %d to no single point", s,
                                 8 * b + i);
                    return -1;
                }
                if (s == 0 && img != 1u << (8 * b + i)) {
                    PyErr_SetString(PyExc_ValueError, "images: symmetry 0 is not the identity");
                    return -1;
                }
            }
    if (get_buffer(self, neighbours, 0, 4, POINTS, "neighbours", &v) < 0)
        return -1;
    memcpy(B->neighbours, v->buf, sizeof B->neighbours);
    for (int p = 0; p < POINTS; p++)
        for (int q = 0; q < POINTS; q++) {
            int pq = B->neighbours[p] >> q & 1, qp = B->neighbours[q] >> p & 1;
            if ((B->neighbours[p] & ~FULL) || pq != qp || (p == q && pq)) {
                PyErr_Format(PyExc_ValueError, "neighbours: point %d's links are not symmetric",
                             p);
                return -1;
            }
        }
    if (get_buffer(self, mills, 0, 4, MILLS, "mill_masks", &v) < 0)
        return -1;
    memcpy(B->mills, v->buf, sizeof B->mills);
    int through[POINTS] = {0};
    for (int i = 0; i < MILLS; i++) {
        bb mill = B->mills[i];
        if ((mill & ~FULL) || count_points(mill) != 3) {
            PyErr_Format(PyExc_ValueError, "mill_masks: mill %d is not three points", i);
            return -1;
        }
        for (bb x = mill; x; x &= x - 1) {
            int p = low_point(x);
            if (through[p] == 2) {
                PyErr_Format(PyExc_ValueError, "mill_masks: point %d in more than two mills", p);
                return -1;
            }
            B->mill_of[p][through[p]++] = mill;
        }
    }
    for (int p = 0; p < POINTS; p++)
        if (through[p] != 2) {
            PyErr_Format(PyExc_ValueError, "mill_masks: point %d not in two mills", p);
            return -1;
        }
    for (int n = 0; n <= POINTS; n++)
        for (int k = 0; k <= POINTS; k++)
            B->comb[n][k] = k == 0 ? 1 : (n == 0 ? 0 : B->comb[n - 1][k - 1] + B->comb[n - 1][k]);
    return 0;
}

/* The canonical sets of `size` points from representatives[size], checked: sorted, each the
 * least of its orbit, and every set of that size has its canonical form among them. */
static int set_canon(Shared *self, PyObject *reps_by_size, int size)
{
    Canon *C = &self->canon[size];
    if (C->rank != NULL)
        return 0;
    const Board *B = &self->board;
    char what[64];
    snprintf(what, sizeof what, "representatives[%d]", size);
    PyObject *obj = PySequence_GetItem(reps_by_size, size);
    if (obj == NULL) {
        PyErr_Format(PyExc_ValueError, "%s is missing", what);
        return -1;
    }
    Py_buffer *v;
    int got = get_buffer(self, obj, 0, 4, -1, what, &v);
    Py_DECREF(obj);
    if (got < 0)
        return -1;
    C->size = size;
    C->reps = v->buf;
    C->count = v->len / 4;
    uint64_t all = B->comb[POINTS][size];
    C->rank = PyMem_RawMalloc(all * sizeof *C->rank);
    C->sym = PyMem_RawMalloc(all * sizeof *C->sym);
    C->stab = PyMem_RawCalloc(C->count ? (size_t)C->count : 1, sizeof *C->stab);
    if (C->rank == NULL || C->sym == NULL || C->stab == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memset(C->rank, 0xFF, all * sizeof *C->rank);
    for (Py_ssize_t i = 0; i < C->count; i++) {
        bb x = C->reps[i];
        int s;
        if ((x & ~FULL) || count_points(x) != size || (i > 0 && x <= C->reps[i - 1]) ||
            canonical(B, x, &s) != x) {
            PyErr_Format(PyExc_ValueError, "%s: item %zd (0x%x) is not a canonical set of %d "
                         "points in order", what, i, (unsigned)x, size);
            return -1;
        }
        C->rank[colex(B, x, 0)] = (int32_t)i;
        for (int h = 1; h < SYMS; h++)
            if (transform(B, x, h) == x)
                C->stab[i] |= (uint16_t)(1u << h);
    }
    bb x = (1u << size) - 1; /* every set of `size` points, in colex order */
    for (uint64_t k = 0; k < all; k++) {
        int s;
        /* A canonical set's own entry is already its rank: set, it stays what later sets read. */
        int32_t r = C->rank[colex(B, canonical(B, x, &s), 0)];
        if (r < 0) {
            PyErr_Format(PyExc_ValueError, "%s: the orbit of 0x%x is missing", what, (unsigned)x);
            return -1;
        }
        C->rank[k] = r;
        C->sym[k] = (uint8_t)s;
        if (size > 0 && k + 1 < all) {
            bb t = x | (x - 1);
            x = (t + 1) | (((~t & -~t) - 1) >> (low_point(x) + 1));
        }
    }
    return 0;
}

static int set_index(Shared *self, PyObject *reps, Index *I, int m, int o)
{
    if (set_canon(self, reps, m) < 0)
        return -1;
    I->m = m;
    I->o = o;
    I->canon = &self->canon[m];
    I->block = self->board.comb[POINTS - m][o];
    I->size = (uint64_t)I->canon->count * I->block;
    return 0;
}

/* A read-only buffer of codes (1 or 2 bytes each) for the `I->size` entries of a sector. */
static int get_codes(Shared *sh, PyObject *obj, const Index *I, const char *what,
                     const void **codes, int *width)
{
    Py_buffer probe;
    if (PyObject_GetBuffer(obj, &probe, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Format(PyExc_ValueError, "%s: not a contiguous buffer", what);
        return -1;
    }
    Py_ssize_t w = probe.itemsize;
    PyBuffer_Release(&probe);
    if (w != 1 && w != 2) {
        PyErr_Format(PyExc_ValueError, "%s: codes of 1 or 2 bytes, not %zd", what, w);
        return -1;
    }
    Py_buffer *v;
    if (get_buffer(sh, obj, 0, w, (Py_ssize_t)I->size, what, &v) < 0)
        return -1;
    *codes = v->buf;
    *width = (int)w;
    return 0;
}

static int System_init(System *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"mover", "other", "images", "neighbours", "mill_masks",
                             "representatives", "work", "counts", "captures", "threads", NULL};
    int m, o, threads = 1;
    PyObject *images, *neighbours, *mills, *reps, *work, *counts, *captures;
    if (self->sh.views_held) {
        PyErr_SetString(PyExc_RuntimeError, "System is initialised once");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOOOOOOO|$i", kwlist, &m, &o, &images,
                                     &neighbours, &mills, &reps, &work, &counts, &captures,
                                     &threads))
        return -1;
    if (threads < 1) {
        PyErr_Format(PyExc_ValueError, "threads must be at least 1, not %d", threads);
        return -1;
    }
    self->threads = threads;
    if (m < MIN_PIECES || o < MIN_PIECES || m > MAX_PIECES || o > MAX_PIECES) {
        PyErr_Format(PyExc_ValueError, "pieces must be %d..%d a side, not %dv%d", MIN_PIECES,
                     MAX_PIECES, m, o);
        return -1;
    }
    if (set_board(&self->sh, images, neighbours, mills) < 0)
        return -1;
    self->parts = m == o ? 1 : 2;
    for (const char *name = "work"; name; name = name[0] == 'w' ? "counts" : NULL) {
        PyObject *seq = name[0] == 'w' ? work : counts;
        if (!PySequence_Check(seq) || PySequence_Size(seq) != self->parts) {
            PyErr_Format(PyExc_ValueError, "%s: one array per sector, %d for %dv%d", name,
                         self->parts, m, o);
            return -1;
        }
    }
    if (!PySequence_Check(captures) || PySequence_Size(captures) != self->parts) {
        PyErr_Format(PyExc_ValueError, "captures: one array (or None) per sector, %d for %dv%d",
                     self->parts, m, o);
        return -1;
    }
    for (int i = 0; i < self->parts; i++) {
        Part *P = &self->part[i];
        int pm = i == 0 ? m : o, po = i == 0 ? o : m;
        char what[64];
        if (set_index(&self->sh, reps, &P->index, pm, po) < 0)
            return -1;
        P->partner = self->parts == 1 ? 0 : 1 - i;
        P->flies = pm == MIN_PIECES;
        PyObject *w = PySequence_GetItem(work, i), *c = PySequence_GetItem(counts, i),
                 *cap = PySequence_GetItem(captures, i);
        Py_buffer *v;
        int bad = w == NULL || c == NULL || cap == NULL;
        snprintf(what, sizeof what, "work[%d] (%dv%d)", i, pm, po);
        bad = bad || get_buffer(&self->sh, w, 1, 2, (Py_ssize_t)P->index.size, what, &v) < 0;
        if (!bad)
            P->word = v->buf;
        snprintf(what, sizeof what, "counts[%d] (%dv%d)", i, pm, po);
        bad = bad || get_buffer(&self->sh, c, 1, 1, (Py_ssize_t)P->index.size, what, &v) < 0;
        if (!bad)
            P->count = v->buf;
        /* A removal leads to (po - 1, pm), or wins at once when it leaves two. */
        int wins = po - 1 < MIN_PIECES;
        if (!bad && wins != (cap == Py_None)) {
            PyErr_Format(PyExc_ValueError, "captures[%d]: %s for %dv%d", i,
                         wins ? "must be None (a removal leaves two)" : "the codes of the "
                         "sector a removal leads to are needed", pm, po);
            bad = 1;
        }
        if (!bad && !wins) {
            bad = set_index(&self->sh, reps, &P->cap_index, po - 1, pm) < 0;
            snprintf(what, sizeof what, "captures[%d] (%dv%d)", i, po - 1, pm);
            const void *codes = NULL;
            bad = bad || get_codes(&self->sh, cap, &P->cap_index, what, &codes, &P->cap_width) < 0;
            if (!bad)
                P->cap = codes;
        }
        Py_XDECREF(w);
        Py_XDECREF(c);
        Py_XDECREF(cap);
        if (bad)
            return -1;
    }
    if (set_canon(&self->sh, reps, o) < 0) /* the partner's mover sets (m == o: done) */
        return -1;
    return 0;
}

static int enter(System *self)
{
    if (!self->sh.views_held) {
        PyErr_SetString(PyExc_RuntimeError, "System is not initialised");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "System is busy in another thread");
        return -1;
    }
    if (self->finished) {
        PyErr_SetString(PyExc_RuntimeError, "System is finished: its arrays hold codes");
        return -1;
    }
    self->busy = 1;
    return 0;
}

static PyObject *fail(int err)
{
    if (err == ERR_CODE)
        PyErr_Format(PyExc_ValueError, "captures: a code of %d or more", MAX_LEVEL);
    else
        PyErr_SetString(PyExc_ValueError, "counts: an entry has more won successors than it "
                        "has successors (work arrays changed between calls?)");
    return NULL;
}

static PyObject *System_setup(System *self, PyObject *args)
{
    int which;
    unsigned long long start, stop;
    if (!PyArg_ParseTuple(args, "iKK", &which, &start, &stop))
        return NULL;
    if (which < 0 || which >= self->parts) {
        PyErr_Format(PyExc_ValueError, "part must be 0..%d, not %d", self->parts - 1, which);
        return NULL;
    }
    if (enter(self) < 0)
        return NULL;
    if (start > stop || stop > self->part[which].index.size) {
        self->busy = 0;
        PyErr_Format(PyExc_ValueError, "entries %llu..%llu outside 0..%llu", start, stop,
                     (unsigned long long)self->part[which].index.size);
        return NULL;
    }
    int err;
    Py_BEGIN_ALLOW_THREADS
    err = run_pass(&self->sh.board, self->part, which, JOB_SETUP, 0, start, stop, self->threads,
                   NULL, NULL, NULL);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    if (err)
        return fail(err);
    Py_RETURN_NONE;
}

static PyObject *System_level(System *self, PyObject *args)
{
    unsigned level;
    if (!PyArg_ParseTuple(args, "I", &level))
        return NULL;
    if (level >= MAX_LEVEL) {
        PyErr_Format(PyExc_OverflowError, "distance %u: distances stop at %d", level, MAX_LEVEL);
        return NULL;
    }
    if (enter(self) < 0)
        return NULL;
    int later = 0, err = OK;
    uint64_t found = 0;
    if (level != self->level) {
        self->busy = 0;
        PyErr_Format(PyExc_ValueError, "level %u: the next distance to decide is %u", level,
                     self->level);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    if (level == 0)
        for (int i = 0; i < self->parts; i++)
            run_pass(&self->sh.board, self->part, i, JOB_DUE_FIRST, 0, 0,
                     self->part[i].index.size, self->threads, NULL, &later, NULL);
    /* Part 0's spread, then part 1's: the order one thread would take (see spread_range). */
    for (int i = 0; i < self->parts && !err; i++)
        err = run_pass(&self->sh.board, self->part, i, JOB_SPREAD, level, 0,
                       self->part[i].index.size, self->threads, &found, &later, NULL);
    Py_END_ALLOW_THREADS
    self->level++;
    self->busy = 0;
    if (err)
        return fail(err);
    return Py_BuildValue("KO", (unsigned long long)found, later ? Py_True : Py_False);
}

static PyObject *System_finish(System *self, PyObject *Py_UNUSED(ignored))
{
    if (enter(self) < 0)
        return NULL;
    long longest[2] = {-1, -1};
    Py_BEGIN_ALLOW_THREADS
    for (int i = 0; i < self->parts; i++)
        run_pass(&self->sh.board, self->part, i, JOB_FINISH, 0, 0, self->part[i].index.size,
                 self->threads, NULL, NULL, &longest[i]);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    self->finished = 1;
    return self->parts == 1 ? Py_BuildValue("(l)", longest[0])
                            : Py_BuildValue("(ll)", longest[0], longest[1]);
}

static PyObject *System_sizes(System *self, void *Py_UNUSED(closure))
{
    if (self->parts == 1)
        return Py_BuildValue("(K)", (unsigned long long)self->part[0].index.size);
    return Py_BuildValue("(KK)", (unsigned long long)self->part[0].index.size,
                         (unsigned long long)self->part[1].index.size);
}

static PyMethodDef System_methods[] = {
    {"setup", (PyCFunction)System_setup, METH_VARARGS,
     "setup(part, start, stop): the set-up pass over entries start..stop - 1 of a sector."},
    {"level", (PyCFunction)System_level, METH_VARARGS,
     "level(distance) -> (entries decided at it, whether any is due later)."},
    {"finish", (PyCFunction)System_finish, METH_NOARGS,
     "finish() -> the longest distance per sector (-1: none); the work arrays hold the codes."},
    {NULL, NULL, 0, NULL},
};

static PyObject *System_threads(System *self, void *Py_UNUSED(closure))
{
    return PyLong_FromLong(self->threads);
}

static PyGetSetDef System_getset[] = {
    {"sizes", (getter)System_sizes, NULL, "Entries of each sector of the system.", NULL},
    {"threads", (getter)System_threads, NULL, "Threads of each pass.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SystemType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "morris.solver.solution._retro.System",
    .tp_doc = "A moving-phase unit being solved by retrograde analysis in the symmetric index.",
    .tp_basicsize = sizeof(System),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)System_init,
    .tp_dealloc = (destructor)System_dealloc,
    .tp_methods = System_methods,
    .tp_getset = System_getset,
};

/* ---------------------------------------------------------------------------------------- */
/* A placing sector: one Bellman step over its successors' codes.                             */

/* The placing phase is acyclic: an entry's code is the best over its placements of the codes
 * they reach (morris/solver/solution/turns.py, expected_codes, is the same step in numpy, and
 * the reference these codes are tested against). A placement on a point q puts the mover's piece
 * there; the successor, the other side to move, is (the other side, the mover's pieces with q) in
 * the quiet sector (o, m + 1), or, when the piece closes a mill and the other side has a piece on
 * the board, one successor per removable piece in the removal sector (o - 1, m + 1) (a LOSS(0)
 * for the other side when it is left with two). The successors of one entry share the mover's
 * set, so their canonical symmetry and their block of the quiet sector are found once; seen
 * through that symmetry the other side is the block's canonical set, so what a removal leaves
 * of it is found once for all the entries of a block taken one after another. */

typedef struct {
    PyObject_HEAD
    Shared sh;
    Index index; /* the sector solved: (m, o) on the board */
    Index quiet; /* (o, m + 1) */
    Index cap;   /* (o - 1, m + 1), when a removal leads to a sector */
    const void *quiet_codes, *cap_codes; /* cap_codes NULL: no sector a removal leads to */
    int quiet_width, cap_width;
    int removes;      /* the other side has a piece on the board: a mill removes one */
    int wins_at_once; /* a removal leaves the other side two pieces */
    int busy;
} Placing;

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
    const Board *B = &P->sh.board;
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

/* Entries a pass of placing_range sorts at most: 32 MB of work arrays. */
#define PLACING_CHUNK (1u << 22)

/* Codes of entries [start, stop) into out[0 .. stop - start), 0 (a draw) without a step where
 * skip (NULL: none) is nonzero; -1 if out of memory.
 *
 * Memory, not arithmetic, bounds the step: an entry's dozen quiet successors lie in one block
 * of the quiet sector (the block of the other side's canonical set), spread over tens of
 * kilobytes, and consecutive entries have other sides far apart, so in entry order nearly every
 * successor was a cache miss (1.1 us an entry on 5v5). So the entries of each chunk are taken in
 * the order of their successors' block (a counting sort on it), sweeping the quiet sector once;
 * the removal successors' blocks, of the same set less a piece, come along. */
static int placing_range(const Placing *P, uint64_t start, uint64_t stop, uint16_t *out,
                         const uint8_t *skip)
{
    const Board *B = &P->sh.board;
    const Index *Q = &P->quiet;
    const size_t classes = (size_t)Q->canon->count;
    uint64_t most = stop - start < PLACING_CHUNK ? stop - start : PLACING_CHUNK;
    int32_t *rank = PyMem_RawMalloc((most ? most : 1) * sizeof *rank);
    uint32_t *order = PyMem_RawMalloc((most ? most : 1) * sizeof *order);
    uint32_t *first = PyMem_RawMalloc((classes + 1) * sizeof *first);
    int err = rank == NULL || order == NULL || first == NULL ? -1 : 0;
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
    PyMem_RawFree(rank);
    PyMem_RawFree(order);
    PyMem_RawFree(first);
    return err;
}

static void Placing_dealloc(Placing *self)
{
    shared_release(&self->sh);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Placing_init(Placing *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"mover", "other", "wins_at_once", "images", "neighbours",
                             "mill_masks", "representatives", "quiet", "removal", NULL};
    int m, o, wins;
    PyObject *images, *neighbours, *mills, *reps, *quiet, *removal;
    if (self->sh.views_held) {
        PyErr_SetString(PyExc_RuntimeError, "Placing is initialised once");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iipOOOOOO", kwlist, &m, &o, &wins, &images,
                                     &neighbours, &mills, &reps, &quiet, &removal))
        return -1;
    if (m < 0 || o < 0 || m + 1 > MAX_PIECES || o > MAX_PIECES || m + o >= POINTS) {
        PyErr_Format(PyExc_ValueError, "a placing sector of %dv%d on the board does not exist",
                     m, o);
        return -1;
    }
    if (set_board(&self->sh, images, neighbours, mills) < 0)
        return -1;
    if (set_index(&self->sh, reps, &self->index, m, o) < 0 ||
        set_index(&self->sh, reps, &self->quiet, o, m + 1) < 0)
        return -1;
    char what[64];
    snprintf(what, sizeof what, "quiet (%dv%d)", o, m + 1);
    if (get_codes(&self->sh, quiet, &self->quiet, what, &self->quiet_codes,
                  &self->quiet_width) < 0)
        return -1;
    self->removes = o > 0;
    self->wins_at_once = self->removes && wins;
    int needs = self->removes && !wins; /* a removal leads to (o - 1, m + 1) */
    if (needs != (removal != Py_None)) {
        PyErr_Format(PyExc_ValueError, "removal: %s for %dv%d", needs ? "the codes of the "
                     "sector a removal leads to are needed" : "must be None (no removal "
                     "leads to a sector)", m, o);
        return -1;
    }
    if (needs) {
        if (set_index(&self->sh, reps, &self->cap, o - 1, m + 1) < 0)
            return -1;
        snprintf(what, sizeof what, "removal (%dv%d)", o - 1, m + 1);
        if (get_codes(&self->sh, removal, &self->cap, what, &self->cap_codes,
                      &self->cap_width) < 0)
            return -1;
    }
    return 0;
}

static PyObject *Placing_solve(Placing *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"start", "stop", "out", "skip", NULL};
    unsigned long long start, stop;
    PyObject *out, *skip = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "KKO|O", kwlist, &start, &stop, &out, &skip))
        return NULL;
    if (!self->sh.views_held) {
        PyErr_SetString(PyExc_RuntimeError, "Placing is not initialised");
        return NULL;
    }
    if (start > stop || stop > self->index.size) {
        PyErr_Format(PyExc_ValueError, "entries %llu..%llu outside 0..%llu", start, stop,
                     (unsigned long long)self->index.size);
        return NULL;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Placing is busy in another thread");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(out, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0) {
        PyErr_SetString(PyExc_ValueError, "out: not a contiguous writable buffer");
        return NULL;
    }
    if (view.itemsize != 2 || (unsigned long long)view.len != 2 * (stop - start)) {
        PyErr_Format(PyExc_ValueError, "out: %zd items of %zd bytes, not %llu of 2",
                     view.len / (view.itemsize ? view.itemsize : 1), view.itemsize,
                     stop - start);
        PyBuffer_Release(&view);
        return NULL;
    }
    Py_buffer known = {0};
    if (skip != Py_None) {
        if (PyObject_GetBuffer(skip, &known, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
            PyErr_SetString(PyExc_ValueError, "skip: not a contiguous buffer");
            PyBuffer_Release(&view);
            return NULL;
        }
        if (known.itemsize != 1 || (unsigned long long)known.len != stop - start) {
            PyErr_Format(PyExc_ValueError, "skip: %zd items of %zd bytes, not %llu of 1",
                         known.len / (known.itemsize ? known.itemsize : 1), known.itemsize,
                         stop - start);
            PyBuffer_Release(&known);
            PyBuffer_Release(&view);
            return NULL;
        }
    }
    self->busy = 1;
    int err;
    Py_BEGIN_ALLOW_THREADS
    err = placing_range(self, start, stop, view.buf, skip != Py_None ? known.buf : NULL);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    if (skip != Py_None)
        PyBuffer_Release(&known);
    PyBuffer_Release(&view);
    if (err)
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *Placing_size(Placing *self, void *Py_UNUSED(closure))
{
    return PyLong_FromUnsignedLongLong(self->index.size);
}

static PyMethodDef Placing_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))Placing_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(start, stop, out, skip=None): the codes of entries start..stop - 1 into out\n"
     "(uint16); where skip (a byte an entry) is nonzero, a draw (0) known, not solved."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Placing_getset[] = {
    {"size", (getter)Placing_size, NULL, "Entries of the sector.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject PlacingType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "morris.solver.solution._retro.Placing",
    .tp_doc = "A placing sector solved by one Bellman step over its successors' codes.",
    .tp_basicsize = sizeof(Placing),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Placing_init,
    .tp_dealloc = (destructor)Placing_dealloc,
    .tp_methods = Placing_methods,
    .tp_getset = Placing_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "morris.solver.solution._retro",
    "Retrograde analysis of the moving phase, and the placing sectors' Bellman step, in the "
    "symmetry-reduced index, in C.",
    -1, NULL,
};

PyMODINIT_FUNC PyInit__retro(void)
{
    if (PyType_Ready(&SystemType) < 0 || PyType_Ready(&PlacingType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&SystemType);
    if (PyModule_AddObject(m, "System", (PyObject *)&SystemType) < 0) {
        Py_DECREF(&SystemType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&PlacingType);
    if (PyModule_AddObject(m, "Placing", (PyObject *)&PlacingType) < 0) {
        Py_DECREF(&PlacingType);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "MAX_LEVEL", MAX_LEVEL) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
