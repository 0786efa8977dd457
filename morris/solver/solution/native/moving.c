/*
 * The retrograde analysis of one moving-phase unit of k men's morris (a sector (m, o) with its
 * partner (o, m), or (m, m) alone) in the symmetry-reduced index (retro.h), a System. Its
 * CPython glue, System in the module morris.solver.solution._retro, is ../_retro.c.
 *
 * Symmetry. Several turns can reach the same entry, so the counter counts DISTINCT successor
 * entries, and a solved entry's predecessors (un-moves) are deduplicated per entry, so each
 * (predecessor, successor) pair is counted once on both sides. When M has a non-trivial
 * stabiliser, the entries (M, h(O)) for h in it are one position stored more than once: only the
 * class representative (the least h(O), which is also the least entry) takes part; the others
 * are marked NONCANON and copied from it at the end.
 *
 * The Python side (morris/solver/solution/solve.py) drives it through the glue: System(...)
 * checks and keeps the inputs, set_up() runs the setup pass on a range of entries
 * (system_set_up), level(L) decides distance L and propagates it (system_level), finish() turns
 * the work words into codes (system_finish). The glue releases the interpreter lock while they
 * compute (a Dask worker keeps its heartbeat); each runs on System(..., threads=N) POSIX
 * threads, each taking chunks of the entries: the codes are the same bits for every N (why:
 * spread_range).
 */
#include <pthread.h>
#include <stdint.h>

#include "retro.h"

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
/* The symmetric entries of one position.                                                    */

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

/* Whether (canonical x, y) is the representative of its entries (no image of y under x's
 * stabiliser is smaller). */
static inline int is_representative(const Board *B, unsigned stab, bb y)
{
    for (; stab; stab &= stab - 1)
        if (transform(B, y, low_point(stab)) < y)
            return 0;
    return 1;
}

/* ---------------------------------------------------------------------------------------- */
/* The passes over a range of entries.                                                       */

static inline unsigned cap_code(const Part *P, uint64_t e)
{
    return code_at(P->cap, P->cap_width, e);
}

/* The setup pass over entries [start, stop) of part P: count each entry's distinct quiet
 * successors and settle what its removals give. */
static int set_up_range(const Board *B, const Part *parts, int which, uint64_t start, uint64_t stop)
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
enum { JOB_SET_UP, JOB_DUE_FIRST, JOB_SPREAD, JOB_FINISH };

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
        case JOB_SET_UP:
            err = set_up_range(J->B, J->parts, J->which, start, stop);
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
    case JOB_SET_UP:
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
/* The solver's functions (retro.h).                                                          */

int system_set_up(const System *S, int which, uint64_t start, uint64_t stop)
{
    return run_pass(S->board, S->part, which, JOB_SET_UP, 0, start, stop, S->threads, NULL,
                    NULL, NULL);
}

int system_level(System *S, uint64_t *found, int *later)
{
    unsigned level = S->level++;
    int err = OK;
    *found = 0;
    *later = 0;
    if (level == 0)
        for (int i = 0; i < S->parts; i++)
            run_pass(S->board, S->part, i, JOB_DUE_FIRST, 0, 0, S->part[i].index.size,
                     S->threads, NULL, later, NULL);
    /* Part 0's spread, then part 1's: the order one thread would take (see spread_range). */
    for (int i = 0; i < S->parts && !err; i++)
        err = run_pass(S->board, S->part, i, JOB_SPREAD, level, 0, S->part[i].index.size,
                       S->threads, found, later, NULL);
    return err;
}

void system_finish(const System *S, long longest[2])
{
    longest[0] = longest[1] = -1;
    for (int i = 0; i < S->parts; i++)
        run_pass(S->board, S->part, i, JOB_FINISH, 0, 0, S->part[i].index.size, S->threads,
                 NULL, NULL, &longest[i]);
}
