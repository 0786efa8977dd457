/*
 * morris.engine._native: the search's inner loop in C.
 *
 * This is a line-for-line port of _Search.negamax (search.py), generate/has_moves/removable
 * (movegen.py) and make_evaluator (evaluate.py). It must give the very same scores, best moves
 * and node counts as the Python code, so that a level (a node budget) plays the same move with
 * or without it; tests/engine/test_native.py compares the two on many positions. Change one
 * side, change the other.
 *
 * The root (iterative deepening, randomness, principal variation) stays in Python; Python calls
 * Core.root_move() for each root move. The clock, the stop flag, the node budget and the endgame
 * tables stay in Python too: the core calls back `check(nodes)` when the node count reaches
 * `check_at` (it returns the next `check_at` or raises to end the search) and `probe(us, them,
 * colour)` for positions the tables cover.
 *
 * Positions are bitboards of the 24 points seen from the side to move, turns the ints of
 * movegen.py: from | to << 5 | remove << 10, with 31 for "none".
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define NONE 31
#define MATE 100000
#define MATE_BOUND (MATE - 1000)
#define INF 1000000
#define EXACT 0
#define LOWER 1
#define UPPER 2
#define NEAR_LIMIT 48
#define MOVE_SPACE (1 << 15)
#define MAX_PLY 72      /* the search's depth cap is 64 plies */
#define MAX_TURNS 1024  /* more than any position has: 3 flyers x 21 points x 12 removals */
#define MAX_MASKS 32
#define ALL_POINTS 0xFFFFFFu
#define POINT_WEIGHT 10 /* evaluate.py's POINT_WEIGHT */
#define TT_MAX 1500000  /* as search.py's _TT_MAX: the table is emptied when it holds this many */

typedef uint32_t bb;

static inline int popcount(bb x) { return __builtin_popcount(x); }
static inline int lowbit(bb x) { return __builtin_ctz(x); }

/* 16 bytes. `stamp` is generation << 2 | flag: an entry of another generation is an empty slot,
 * so emptying the table is one increment (and a real wipe every 63 generations). */
typedef struct {
    uint64_t key;
    int32_t score;
    int16_t move;
    int8_t depth;
    uint8_t stamp;
} TTEntry;

#define GENERATIONS 64

typedef struct {
    PyObject_HEAD
    /* rules */
    bb neighbours[24];
    bb mill_masks[MAX_MASKS];
    int n_masks;
    bb layers[4]; /* evaluate.py's point layers: layer k, the points with at least 2 + k links */
    int n_layers;
    bb mills_through[24][4];
    int n_through[24];
    int flying;
    int threefold;
    int limit; /* no-removal limit, -1 for none */
    int full_board_is_draw;
    /* zobrist keys */
    uint64_t zp[2][24];
    uint64_t zh[2][33];
    uint64_t zside;
    uint64_t *zn; /* limit + 2 keys */
    /* repetition path: keys since the last irreversible turn before the root, then the line */
    uint64_t *path;
    Py_ssize_t path_len;
    Py_ssize_t path_cap;
    Py_ssize_t root_index;
    /* budget */
    long long nodes;
    long long check_at;
    PyObject *check; /* check(nodes) -> next check_at, raises to end the search */
    PyObject *probe; /* probe(us, them, colour) -> None | (value, distance); or None */
    int table_pieces;
    int error;
    int released; /* release() freed the tables: the core cannot search any more */
    /* heuristics */
    long long *history;          /* MOVE_SPACE */
    int killers[MAX_PLY + 2][2];
    /* transposition table: open addressing, exact 64-bit keys */
    TTEntry *tt;
    uint64_t tt_mask;
    long tt_count;
    uint8_t generation; /* 1 .. GENERATIONS - 1 */
    /* per-ply turn buffers */
    int16_t (*buf)[MAX_TURNS];
} Core;

/* ------------------------------------------------------------------------------------------ */
/* transposition table                                                                         */

/* Where linear probing for `key` starts in a table of mask + 1 slots. */
static inline uint64_t tt_home(uint64_t key, uint64_t mask) { return (key ^ (key >> 29)) & mask; }

static inline int tt_live(const Core *s, const TTEntry *e) { return e->stamp >> 2 == s->generation; }

/* The slot holding `key`, or the empty slot where it would go. */
static TTEntry *tt_slot(const Core *s, uint64_t key)
{
    for (uint64_t i = tt_home(key, s->tt_mask);; i = (i + 1) & s->tt_mask) {
        TTEntry *e = &s->tt[i];
        if (!tt_live(s, e) || e->key == key)
            return e;
    }
}

static TTEntry *tt_find(const Core *s, uint64_t key)
{
    TTEntry *e = tt_slot(s, key);
    return tt_live(s, e) ? e : NULL;
}

/* Doubles the table when it is half full, keeping its entries: the size given at the start is
 * a hint, and like a dict the table never fills up. Returns -1 (MemoryError set) if it cannot. */
static int tt_grow(Core *s)
{
    uint64_t old_cap = s->tt_mask + 1;
    uint64_t cap = old_cap * 2;
    TTEntry *old = s->tt;
    TTEntry *table = PyMem_Calloc((size_t)cap, sizeof(TTEntry));
    if (table == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    s->tt = table;
    s->tt_mask = cap - 1;
    for (uint64_t j = 0; j < old_cap; j++) {
        if (tt_live(s, &old[j]))
            *tt_slot(s, old[j].key) = old[j];
    }
    PyMem_Free(old);
    return 0;
}

static int tt_store(Core *s, uint64_t key, int depth, int flag, int score, int move)
{
    /* search.py: `if len(tt) >= _TT_MAX: tt.clear()` before every store */
    if (s->tt_count >= TT_MAX) {
        s->tt_count = 0;
        if (++s->generation == GENERATIONS) {
            memset(s->tt, 0, (size_t)(s->tt_mask + 1) * sizeof(TTEntry));
            s->generation = 1;
        }
    }
    if ((uint64_t)(s->tt_count + 1) * 2 > s->tt_mask + 1 && tt_grow(s) < 0)
        return -1;
    TTEntry *e = tt_slot(s, key);
    if (!tt_live(s, e)) {
        e->key = key;
        s->tt_count++;
    }
    e->depth = (int8_t)depth;
    e->stamp = (uint8_t)(s->generation << 2 | flag);
    e->score = score;
    e->move = (int16_t)move;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* move generation (movegen.py)                                                                */

static bb removable(const Core *s, bb them)
{
    bb in_mill = 0;
    for (int i = 0; i < s->n_masks; i++) {
        bb m = s->mill_masks[i];
        if ((them & m) == m)
            in_mill |= m;
    }
    bb free_ = them & ~in_mill;
    return free_ ? free_ : them;
}

static inline int closes(const Core *s, bb new_us, int to)
{
    for (int k = 0; k < s->n_through[to]; k++) {
        bb m = s->mills_through[to][k];
        if ((new_us & m) == m)
            return 1;
    }
    return 0;
}

/* The turns being generated: mill turns (one per removable piece) and quiet turns. */
typedef struct {
    int16_t *mills, *quiet;
    int n_mills, n_quiet;
    int have_removable;
    bb removable;
} Turns;

/* Adds the action frm -> to (frm NONE: a placement) that leaves our pieces on new_us. */
static inline void add_action(const Core *s, Turns *t, int frm, int to, bb new_us, bb them)
{
    if (closes(s, new_us, to) && them) {
        if (!t->have_removable) {
            t->removable = removable(s, them);
            t->have_removable = 1;
        }
        int base = frm | to << 5;
        for (bb r = t->removable; r; r &= r - 1)
            t->mills[t->n_mills++] = (int16_t)(base | lowbit(r) << 10);
    } else {
        t->quiet[t->n_quiet++] = (int16_t)(frm | to << 5 | NONE << 10);
    }
}

/* Mill turns into mills[], quiet turns into quiet[], in movegen.generate's order. */
static void generate(const Core *s, bb us, bb them, int us_hand, int16_t *mills, int *n_mills,
                     int16_t *quiet, int *n_quiet)
{
    bb empty = ALL_POINTS & ~(us | them);
    Turns t = {mills, quiet, 0, 0, 0, 0};
    if (us_hand) {
        for (bb e = empty; e; e &= e - 1) {
            int to = lowbit(e);
            add_action(s, &t, NONE, to, us | (1u << to), them);
        }
    } else {
        int flies = s->flying && popcount(us) == 3;
        for (bb own = us; own; own &= own - 1) {
            int frm = lowbit(own);
            bb base_us = us ^ (1u << frm);
            for (bb to_set = flies ? empty : (s->neighbours[frm] & empty); to_set;
                 to_set &= to_set - 1) {
                int to = lowbit(to_set);
                add_action(s, &t, frm, to, base_us | (1u << to), them);
            }
        }
    }
    *n_mills = t.n_mills;
    *n_quiet = t.n_quiet;
}

static int has_moves(const Core *s, bb us, bb them, int us_hand)
{
    bb empty = ALL_POINTS & ~(us | them);
    if (!empty)
        return 0;
    if (us_hand || (s->flying && popcount(us) == 3))
        return 1;
    bb own = us;
    while (own) {
        int p = lowbit(own);
        own &= own - 1;
        if (s->neighbours[p] & empty)
            return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* evaluation (evaluate.py)                                                                    */

#define PIECE 100

static inline void mobility(const Core *s, bb side, bb empty, int *steps, int *blocked)
{
    int st = 0, bl = 0;
    while (side) {
        int p = lowbit(side);
        side &= side - 1;
        int n = popcount(s->neighbours[p] & empty);
        if (n)
            st += n;
        else
            bl++;
    }
    *steps = st;
    *blocked = bl;
}

static int running(const Core *s, bb closed, bb side, bb empty)
{
    int count = 0;
    while (closed) {
        int p = lowbit(closed);
        bb low = 1u << p;
        closed &= closed - 1;
        bb free_ = s->neighbours[p] & empty;
        if (free_) {
            count += 1;
            bb rest = side ^ low;
            while (free_) {
                bb fl = free_ & (~free_ + 1);
                free_ ^= fl;
                for (int i = 0; i < s->n_masks; i++) {
                    bb m = s->mill_masks[i];
                    if ((m & fl) && (rest & m) == (m ^ fl))
                        count += 3;
                }
            }
        }
    }
    return count;
}

static int evaluate(const Core *s, bb us, bb them, int uh, int th)
{
    int pu = popcount(us);
    int pt = popcount(them);
    int score = (pu + uh - pt - th) * PIECE;
    bb empty = ALL_POINTS ^ (us | them);
    if (uh || th) {
        int twos_us = 0, twos_them = 0;
        bb close_us = 0, close_them = 0;
        for (int i = 0; i < s->n_masks; i++) {
            bb m = s->mill_masks[i];
            bb a = us & m;
            bb b = them & m;
            if (!b) {
                if (a && a != m && popcount(a) == 2) {
                    twos_us++;
                    close_us |= m ^ a;
                }
            } else if (!a && b != m && popcount(b) == 2) {
                twos_them++;
                close_them |= m ^ b;
            }
        }
        score += 14 * (twos_us - twos_them);
        if (close_us && uh)
            score += (close_us & (close_us - 1)) == 0 ? 70 : 85;
        if (close_them && th && (close_them & (close_them - 1)))
            score -= 45;
        int mob_us, blocked_us, mob_them, blocked_them;
        mobility(s, us, empty, &mob_us, &blocked_us);
        mobility(s, them, empty, &mob_them, &blocked_them);
        score += 8 * (mob_us - mob_them) - 20 * (blocked_us - blocked_them);
        int held = 0;
        for (int k = 0; k < s->n_layers; k++)
            held += popcount(us & s->layers[k]) - popcount(them & s->layers[k]);
        return score + POINT_WEIGHT * held;
    }
    int fly_us = s->flying && pu == 3;
    int fly_them = s->flying && pt == 3;
    int mob_us = 0, blocked_us = 0, mob_them = 0, blocked_them = 0;
    if (!fly_us)
        mobility(s, us, empty, &mob_us, &blocked_us);
    if (!fly_them)
        mobility(s, them, empty, &mob_them, &blocked_them);
    if (!fly_them && !mob_them)
        score += 3 * PIECE;
    score += 12 * (mob_us - mob_them) - 20 * (blocked_us - blocked_them);
    bb closed_us = 0, closed_them = 0;
    int threats_us = 0, threats_them = 0;
    for (int i = 0; i < s->n_masks; i++) {
        bb m = s->mill_masks[i];
        bb a = us & m;
        bb b = them & m;
        if (a == m) {
            closed_us |= m;
        } else if (b == m) {
            closed_them |= m;
        } else if (!b) {
            if (a && popcount(a) == 2) {
                bb q = m ^ a;
                bb movers = (fly_us ? us : (s->neighbours[lowbit(q)] & us)) & ~m;
                if (movers)
                    threats_us++;
            }
        } else if (!a && popcount(b) == 2) {
            bb q = m ^ b;
            bb movers = (fly_them ? them : (s->neighbours[lowbit(q)] & them)) & ~m;
            if (movers)
                threats_them++;
        }
    }
    int running_us = (closed_us && !fly_us) ? running(s, closed_us, us, empty) : 0;
    int running_them = (closed_them && !fly_them) ? running(s, closed_them, them, empty) : 0;
    score += 12 * (running_us - running_them);
    if (threats_us)
        score += 60 + 10 * threats_us;
    if (threats_them)
        score -= 10 * threats_them + (threats_them > 1 ? 40 : 0);
    return score;
}

/* ------------------------------------------------------------------------------------------ */
/* the search (search.py, _Search.negamax)                                                     */

/* Calls check(nodes); returns -1 with the Python error set if it raised. */
static int call_check(Core *s)
{
    PyObject *r = PyObject_CallFunction(s->check, "L", s->nodes);
    if (r == NULL) {
        s->error = 1;
        return -1;
    }
    long long next = PyLong_AsLongLong(r);
    Py_DECREF(r);
    if (next == -1 && PyErr_Occurred()) {
        s->error = 1;
        return -1;
    }
    s->check_at = next;
    return 0;
}

/* Probes the endgame tables: 0 no answer, 1 answered (*value: 0 draw, 1 win, 2 loss). */
static int call_probe(Core *s, bb us, bb them, int c, int *value, int *dist)
{
    PyObject *r = PyObject_CallFunction(s->probe, "kki", (unsigned long)us,
                                        (unsigned long)them, c);
    if (r == NULL) {
        s->error = 1;
        return -1;
    }
    if (r == Py_None) {
        Py_DECREF(r);
        return 0;
    }
    int ok = PyArg_ParseTuple(r, "ii", value, dist);
    Py_DECREF(r);
    if (!ok) {
        s->error = 1;
        return -1;
    }
    return 1;
}

/* Stable sort of turns by history, highest first (Python's sort(reverse=True) keeps the order
 * of equal keys). Insertion sort: the lists are short. */
static void sort_by_history(const long long *history, int16_t *a, int n)
{
    for (int i = 1; i < n; i++) {
        int16_t x = a[i];
        long long hx = history[x];
        int j = i - 1;
        while (j >= 0 && history[a[j]] < hx) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = x;
    }
}

/* Sorts quiet placements by a static key, highest first, ties in the order given (as
   _Search._placing_order): 16 for each line through the point that holds two of the opponent's
   pieces and none of ours (a block), 4 for each that holds one of ours and none of theirs (a new
   two), 1 for each link of the point. */
static void sort_placements(const Core *s, bb us, bb them, int16_t *a, int n)
{
    int key[MAX_TURNS];
    for (int i = 0; i < n; i++) {
        int to = a[i] >> 5 & 31;
        int k = popcount(s->neighbours[to]);
        for (int q = 0; q < s->n_through[to]; q++) {
            bb m = s->mills_through[to][q];
            bb ours = us & m, theirs = them & m;
            if (!ours && popcount(theirs) == 2)
                k += 16;
            else if (!theirs && popcount(ours) == 1)
                k += 4;
        }
        key[i] = k;
    }
    for (int i = 1; i < n; i++) {
        int16_t x = a[i];
        int kx = key[i], j = i - 1;
        while (j >= 0 && key[j] < kx) {
            a[j + 1] = a[j];
            key[j + 1] = key[j];
            j--;
        }
        a[j + 1] = x;
        key[j + 1] = kx;
    }
}

/* Moves a[k] to the front, keeping the order of the others. */
static inline void to_front(int16_t *a, int k)
{
    int16_t x = a[k];
    memmove(a + 1, a, (size_t)k * sizeof(int16_t));
    a[0] = x;
}

static inline int find(const int16_t *a, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (a[i] == x)
            return i;
    return -1;
}

static int negamax(Core *s, bb us, bb them, int uh, int th, int c, uint64_t key, int nrc,
                   int depth, int alpha, int beta, int ply, Py_ssize_t rep_start)
{
    s->nodes++;
    if (s->nodes >= s->check_at && call_check(s) < 0)
        return 0;
    int limit = s->limit;
    /* Draws. A side to move that is blocked has lost even then (losses are checked first). */
    if (s->full_board_is_draw && !uh && !th && (us | them) == ALL_POINTS)
        return 0;
    int draw = limit >= 0 && nrc >= limit;
    if (!draw && s->threefold) {
        Py_ssize_t i = s->path_len - 3;
        if (i >= rep_start) {
            int seen_before_root = 0;
            while (i >= rep_start) {
                if (s->path[i] == key) {
                    if (i > s->root_index) {
                        draw = 1;
                        break;
                    }
                    seen_before_root++;
                    if (seen_before_root >= 2) {
                        draw = 1;
                        break;
                    }
                }
                i -= 2;
            }
        }
    }
    if (draw)
        return has_moves(s, us, them, uh) ? 0 : -(MATE - ply);
    /* Endgame tables: exact, unless the no-removal limit could come first. */
    if (s->probe != NULL && !uh && !th && popcount(us) + popcount(them) <= s->table_pieces) {
        int value, dist;
        int got = call_probe(s, us, them, c, &value, &dist);
        if (got < 0)
            return 0;
        if (got) {
            if (value == 0)
                return 0;
            if (limit < 0 || nrc + dist < limit)
                return value == 1 ? MATE - ply - dist : -(MATE - ply - dist);
        }
    }
    if (depth <= 0) {
        if (!has_moves(s, us, them, uh))
            return -(MATE - ply);
        return evaluate(s, us, them, uh, th);
    }
    /* Transposition table. */
    uint64_t tkey = (limit < 0 || nrc < limit - NEAR_LIMIT) ? key : key ^ s->zn[nrc];
    int tt_move = -1;
    TTEntry *entry = tt_find(s, tkey);
    if (entry != NULL) {
        int e_score = entry->score;
        tt_move = entry->move;
        if (entry->depth >= depth) {
            if (e_score > MATE_BOUND)
                e_score -= ply;
            else if (e_score < -MATE_BOUND)
                e_score += ply;
            int e_flag = entry->stamp & 3;
            if (e_flag == EXACT)
                return e_score;
            if (e_flag == LOWER) {
                if (e_score >= beta)
                    return e_score;
            } else if (e_score <= alpha) {
                return e_score;
            }
        }
    }
    int16_t *moves = s->buf[ply];
    int16_t quiet[MAX_TURNS];
    int n_mills, n_quiet;
    generate(s, us, them, uh, moves, &n_mills, quiet, &n_quiet);
    if (!n_mills && !n_quiet)
        return -(MATE - ply);
    long long *history = s->history;
    int *killers = s->killers[ply];
    if (n_quiet > 1) {
        if (uh)
            sort_placements(s, us, them, quiet, n_quiet);
        else
            sort_by_history(history, quiet, n_quiet);
        int ks[2] = {killers[1], killers[0]};
        for (int j = 0; j < 2; j++) {
            int k = ks[j];
            if (k >= 0) {
                int at = find(quiet, n_quiet, k);
                if (at >= 0)
                    to_front(quiet, at);
            }
        }
    }
    if (n_mills > 1)
        sort_by_history(history, moves, n_mills);
    memcpy(moves + n_mills, quiet, (size_t)n_quiet * sizeof(int16_t));
    int n = n_mills + n_quiet;
    if (tt_move >= 0 && tt_move != moves[0]) {
        int at = find(moves, n, tt_move);
        if (at >= 0)
            to_front(moves, at);
    }
    const uint64_t *zp_us = s->zp[c];
    const uint64_t *zp_them = s->zp[1 - c];
    const uint64_t *zh_us = s->zh[c];
    uint64_t zside = s->zside;
    int nc = 1 - c;
    int best = -INF;
    int best_move = moves[0];
    int orig_alpha = alpha;
    int th_left = popcount(them) + th;
    for (int i = 0; i < n; i++) {
        int mv = moves[i];
        int frm = mv & 31;
        int to = mv >> 5 & 31;
        int rem = mv >> 10;
        bb nus, nthem;
        int nuh, nnrc, irreversible, score;
        uint64_t nkey;
        if (frm == NONE) {
            nus = us | (1u << to);
            nuh = uh - 1;
            nkey = key ^ zp_us[to] ^ zh_us[uh] ^ zh_us[nuh] ^ zside;
            nnrc = nrc;
            irreversible = 1;
        } else {
            nus = us ^ ((1u << frm) | (1u << to));
            nuh = uh;
            nkey = key ^ zp_us[frm] ^ zp_us[to] ^ zside;
            nnrc = nrc + 1;
            irreversible = 0;
        }
        if (rem != NONE) {
            if (th_left <= 3) {
                /* The opponent is down to two pieces: won at once, nothing can be better. */
                best = MATE - ply - 1;
                best_move = mv;
                break;
            }
            nthem = them & ~(1u << rem);
            nkey ^= zp_them[rem];
            nnrc = 0;
            irreversible = 1;
        } else {
            nthem = them;
        }
        s->path[s->path_len++] = nkey;
        Py_ssize_t nrs = irreversible ? s->path_len - 1 : rep_start;
        if (i == 0) {
            score = -negamax(s, nthem, nus, th, nuh, nc, nkey, nnrc, depth - 1, -beta, -alpha,
                             ply + 1, nrs);
        } else {
            int r = (depth >= 3 && i >= 4 && i >= n_mills && mv != killers[0] &&
                     mv != killers[1])
                        ? 1
                        : 0;
            score = -negamax(s, nthem, nus, th, nuh, nc, nkey, nnrc, depth - 1 - r, -alpha - 1,
                             -alpha, ply + 1, nrs);
            if (!s->error && score > alpha && r)
                score = -negamax(s, nthem, nus, th, nuh, nc, nkey, nnrc, depth - 1, -alpha - 1,
                                 -alpha, ply + 1, nrs);
            if (!s->error && alpha < score && score < beta)
                score = -negamax(s, nthem, nus, th, nuh, nc, nkey, nnrc, depth - 1, -beta,
                                 -alpha, ply + 1, nrs);
        }
        s->path_len--;
        if (s->error)
            return 0;
        if (score > best) {
            best = score;
            best_move = mv;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) {
                    if (rem == NONE) {
                        history[mv] += (long long)depth * depth;
                        if (killers[0] != mv) {
                            killers[1] = killers[0];
                            killers[0] = mv;
                        }
                    }
                    break;
                }
            }
        }
    }
    int stored = best;
    if (stored > MATE_BOUND)
        stored += ply;
    else if (stored < -MATE_BOUND)
        stored -= ply;
    int flag = best <= orig_alpha ? UPPER : best >= beta ? LOWER : EXACT;
    if (tt_store(s, tkey, depth, flag, stored, best_move) < 0)
        s->error = 1;
    return best;
}

/* ------------------------------------------------------------------------------------------ */
/* the Python type                                                                             */

static int read_masks(PyObject *seq, bb *out, int max, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) {
        PyErr_Format(PyExc_ValueError, "%s: at most %d entries, not %zd", what, max, n);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == (unsigned long)-1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v & ~(unsigned long)ALL_POINTS) {
            PyErr_Format(PyExc_ValueError, "%s: %lu is not a set of the 24 points", what, v);
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (bb)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

static int read_keys(PyObject *seq, uint64_t *out, Py_ssize_t want, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != want) {
        PyErr_Format(PyExc_ValueError, "%s: %zd keys expected, not %zd", what, want,
                     PySequence_Fast_GET_SIZE(fast));
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < want; i++) {
        unsigned long long v =
            PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == (unsigned long long)-1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = v;
    }
    Py_DECREF(fast);
    return 0;
}

/* The callbacks are bound methods of the Python search, which holds this core: a cycle, so the
 * type takes part in the garbage collector (and _Search.release() breaks the cycle at once). */
static int Core_traverse(Core *s, visitproc visit, void *arg)
{
    Py_VISIT(s->check);
    Py_VISIT(s->probe);
    return 0;
}

static int Core_clear(Core *s)
{
    Py_CLEAR(s->check);
    Py_CLEAR(s->probe);
    return 0;
}

static void free_tables(Core *s)
{
    PyMem_Free(s->zn);
    PyMem_Free(s->path);
    PyMem_Free(s->history);
    PyMem_Free(s->tt);
    PyMem_Free(s->buf);
    s->zn = NULL;
    s->path = NULL;
    s->history = NULL;
    s->tt = NULL;
    s->buf = NULL;
}

static void Core_dealloc(Core *s)
{
    PyObject_GC_UnTrack(s);
    Core_clear(s);
    free_tables(s);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyObject *Core_release(Core *s, PyObject *Py_UNUSED(ignored))
{
    Core_clear(s);
    free_tables(s);
    s->released = 1;
    Py_RETURN_NONE;
}

static int Core_init(Core *s, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"neighbours", "mill_masks", "mills_through", "pieces_per_side",
                             "flying", "threefold", "limit", "full_board_is_draw", "zp", "zh",
                             "zside", "zn", "path", "root_index", "check", "probe",
                             "table_pieces", "tt_size", NULL};
    PyObject *neighbours, *mill_masks, *mills_through, *zp, *zh, *zn, *path, *check, *probe;
    int pieces, flying, threefold, limit, full, table_pieces;
    unsigned long long zside;
    Py_ssize_t root_index, tt_size;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOippipOOKOOnOOin", kwlist, &neighbours,
                                     &mill_masks, &mills_through, &pieces, &flying, &threefold,
                                     &limit, &full, &zp, &zh, &zside, &zn, &path, &root_index,
                                     &check, &probe, &table_pieces, &tt_size))
        return -1;
    if (s->tt != NULL || s->zn != NULL || s->released) {
        PyErr_SetString(PyExc_RuntimeError, "Core is already initialised");
        return -1;
    }
    if (pieces < 3 || pieces > 32) {
        PyErr_Format(PyExc_ValueError, "pieces_per_side must be 3..32, not %d", pieces);
        return -1;
    }
    if (read_masks(neighbours, s->neighbours, 24, "neighbours") != 24) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "neighbours: 24 masks expected");
        return -1;
    }
    s->n_layers = 0;
    for (int k = 1; k <= 4; k++) {
        bb layer = 0;
        for (int p = 0; p < 24; p++)
            if (popcount(s->neighbours[p]) >= 2 + k)
                layer |= (bb)1 << p;
        if (layer)
            s->layers[s->n_layers++] = layer;
    }
    s->n_masks = read_masks(mill_masks, s->mill_masks, MAX_MASKS, "mill_masks");
    if (s->n_masks < 0)
        return -1;
    PyObject *through = PySequence_Fast(mills_through, "mills_through");
    if (through == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(through) != 24) {
        Py_DECREF(through);
        PyErr_SetString(PyExc_ValueError, "mills_through: 24 entries expected");
        return -1;
    }
    for (int p = 0; p < 24; p++) {
        s->n_through[p] =
            read_masks(PySequence_Fast_GET_ITEM(through, p), s->mills_through[p], 4,
                       "mills_through");
        if (s->n_through[p] < 0) {
            Py_DECREF(through);
            return -1;
        }
    }
    Py_DECREF(through);
    s->flying = flying;
    s->threefold = threefold;
    s->limit = limit;
    s->full_board_is_draw = full;
    PyObject *zp_fast = PySequence_Fast(zp, "zp");
    if (zp_fast == NULL)
        return -1;
    PyObject *zh_fast = PySequence_Fast(zh, "zh");
    if (zh_fast == NULL) {
        Py_DECREF(zp_fast);
        return -1;
    }
    int bad = PySequence_Fast_GET_SIZE(zp_fast) != 2 || PySequence_Fast_GET_SIZE(zh_fast) != 2;
    for (int c = 0; c < 2 && !bad; c++) {
        if (read_keys(PySequence_Fast_GET_ITEM(zp_fast, c), s->zp[c], 24, "zp") < 0 ||
            read_keys(PySequence_Fast_GET_ITEM(zh_fast, c), s->zh[c], pieces + 1, "zh") < 0)
            bad = 2;
    }
    Py_DECREF(zp_fast);
    Py_DECREF(zh_fast);
    if (bad) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "zp and zh: two lists of keys expected");
        return -1;
    }
    s->zside = zside;
    Py_ssize_t n_zn = (limit < 0 ? 0 : limit) + 2;
    s->zn = PyMem_Calloc((size_t)n_zn, sizeof(uint64_t));
    if (s->zn == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (read_keys(zn, s->zn, n_zn, "zn") < 0)
        return -1;
    PyObject *path_fast = PySequence_Fast(path, "path");
    if (path_fast == NULL)
        return -1;
    Py_ssize_t np = PySequence_Fast_GET_SIZE(path_fast);
    s->path_cap = np + MAX_PLY + 8;
    s->path = PyMem_Calloc((size_t)s->path_cap, sizeof(uint64_t));
    if (s->path == NULL) {
        Py_DECREF(path_fast);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < np; i++) {
        unsigned long long v = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(path_fast, i));
        if (v == (unsigned long long)-1 && PyErr_Occurred()) {
            Py_DECREF(path_fast);
            return -1;
        }
        s->path[i] = v;
    }
    Py_DECREF(path_fast);
    s->path_len = np;
    s->root_index = root_index;
    Py_INCREF(check);
    s->check = check;
    if (probe != Py_None) {
        Py_INCREF(probe);
        s->probe = probe;
    }
    s->table_pieces = table_pieces;
    s->history = PyMem_Calloc(MOVE_SPACE, sizeof(long long));
    s->buf = PyMem_Calloc(MAX_PLY + 2, sizeof(*s->buf));
    /* Sized for the expected entries (at most TT_MAX) at a load of at most about 40%; it grows
     * past half full. */
    uint64_t want = (uint64_t)(tt_size < 1 ? 1 : tt_size);
    if (want > TT_MAX)
        want = TT_MAX;
    uint64_t cap = 4096;
    while (cap < want * 5 / 2 + 1024)
        cap <<= 1;
    s->tt = PyMem_Calloc((size_t)cap, sizeof(TTEntry));
    s->tt_mask = cap - 1;
    s->generation = 1;
    if (s->history == NULL || s->buf == NULL || s->tt == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (int p = 0; p < MAX_PLY + 2; p++)
        s->killers[p][0] = s->killers[p][1] = -1;
    s->nodes = 0;
    s->check_at = 0;
    return 0;
}

static PyObject *Core_root_move(Core *s, PyObject *args)
{
    unsigned long us, them;
    int uh, th, c, nrc, depth, alpha, beta, irreversible;
    unsigned long long key;
    if (!PyArg_ParseTuple(args, "kkiiiKiiiip", &us, &them, &uh, &th, &c, &key, &nrc, &depth,
                          &alpha, &beta, &irreversible))
        return NULL;
    if (s->tt == NULL) {
        PyErr_SetString(PyExc_RuntimeError,
                        s->released ? "Core was released" : "Core was not initialised");
        return NULL;
    }
    if ((us | them) & ~(unsigned long)ALL_POINTS || (us & them) || uh < 0 || th < 0 ||
        c < 0 || c > 1 || depth >= MAX_PLY - 2 || nrc < 0) {
        PyErr_SetString(PyExc_ValueError, "root_move: not a position of the board");
        return NULL;
    }
    if (s->path_len + MAX_PLY > s->path_cap) {
        PyErr_SetString(PyExc_RuntimeError, "root_move: the repetition path is full");
        return NULL;
    }
    /* search.py, _Search.search_root_move: the child of the root at ply 1. */
    Py_ssize_t base = s->path_len;
    s->path[s->path_len++] = key;
    Py_ssize_t rep_start = irreversible ? s->path_len - 1 : 0;
    s->error = 0;
    int score = -negamax(s, (bb)us, (bb)them, uh, th, c, key, nrc, depth, alpha, beta, 1,
                         rep_start);
    s->path_len = base;
    if (s->error) {
        s->error = 0;
        return NULL;
    }
    return PyLong_FromLong(score);
}

static PyObject *Core_evaluate(Core *s, PyObject *args)
{
    unsigned long us, them;
    int uh, th;
    if (!PyArg_ParseTuple(args, "kkii", &us, &them, &uh, &th))
        return NULL;
    return PyLong_FromLong(evaluate(s, (bb)us, (bb)them, uh, th));
}

static PyObject *Core_generate(Core *s, PyObject *args)
{
    unsigned long us, them;
    int uh;
    if (!PyArg_ParseTuple(args, "kki", &us, &them, &uh))
        return NULL;
    int16_t mills[MAX_TURNS], quiet[MAX_TURNS];
    int nm, nq;
    generate(s, (bb)us, (bb)them, uh, mills, &nm, quiet, &nq);
    PyObject *a = PyList_New(nm), *b = PyList_New(nq);
    if (a == NULL || b == NULL) {
        Py_XDECREF(a);
        Py_XDECREF(b);
        return NULL;
    }
    for (int i = 0; i < nm; i++)
        PyList_SET_ITEM(a, i, PyLong_FromLong(mills[i]));
    for (int i = 0; i < nq; i++)
        PyList_SET_ITEM(b, i, PyLong_FromLong(quiet[i]));
    return Py_BuildValue("NN", a, b);
}

static PyObject *Core_tt_get(Core *s, PyObject *arg)
{
    unsigned long long key = PyLong_AsUnsignedLongLong(arg);
    if (key == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    TTEntry *e = s->tt == NULL ? NULL : tt_find(s, key);
    if (e == NULL)
        Py_RETURN_NONE;
    return Py_BuildValue("iiii", e->depth, e->stamp & 3, e->score, e->move);
}

static PyMethodDef Core_methods[] = {
    {"root_move", (PyCFunction)Core_root_move, METH_VARARGS,
     "root_move(us, them, uh, th, colour, key, nrc, depth, alpha, beta, irreversible)\n"
     "The negamax score (for the side to move there) of a child of the root at ply 1."},
    {"evaluate", (PyCFunction)Core_evaluate, METH_VARARGS,
     "evaluate(us, them, us_hand, them_hand): the static evaluation for the side to move."},
    {"generate", (PyCFunction)Core_generate, METH_VARARGS,
     "generate(us, them, us_hand): (mill_turns, quiet_turns), as movegen.generate."},
    {"release", (PyCFunction)Core_release, METH_NOARGS,
     "release(): free the tables and drop the callbacks now (the core cannot search after it)."},
    {"tt_get", (PyCFunction)Core_tt_get, METH_O,
     "tt_get(key): (depth, flag, score, move) of the table entry, or None."},
    {NULL, NULL, 0, NULL},
};

#include <structmember.h>
static PyMemberDef Core_members[] = {
    {"nodes", T_LONGLONG, offsetof(Core, nodes), 0, "nodes searched so far"},
    {"check_at", T_LONGLONG, offsetof(Core, check_at), 0, "node count of the next check()"},
    {"tt_entries", T_LONG, offsetof(Core, tt_count), READONLY, "entries in the table"},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "morris.engine._native.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The state of one search: rules, keys, tables, heuristics.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_traverse = (traverseproc)Core_traverse,
    .tp_clear = (inquiry)Core_clear,
    .tp_methods = Core_methods,
    .tp_members = Core_members,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "morris.engine._native",
    "The search's inner loop in C: the same results as search.py, faster.", -1, NULL,
};

PyMODINIT_FUNC PyInit__native(void)
{
    if (PyType_Ready(&CoreType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
