/*
 * The search's inner loop: a line-for-line port of Search.negamax (search.py) and
 * generate/has_moves/removable (movegen.py); its evaluation (evaluate.py) is evaluate.c. It must give the
 * very same scores, best moves and node counts as the Python code, so that a level (a node
 * budget) plays the same move with or without it; tests/engine/test_native.py compares the two on
 * many positions. Change one side, change the other.
 *
 * Plain C, no Python: the glue (../_native.c) turns Python objects into a Search and back. Every
 * constant comes from Python through search_configure() (search.h says which); the literals
 * left here are C's own (bit tricks, capacities) and the rules' three (a side flies with three
 * pieces and has lost with two), which movegen.py writes the same way.
 *
 * Positions are bitboards of the points seen from the side to move, turns ints in C's own
 * encoding (search.h): from | to << POINT_BITS | remove << 2 * POINT_BITS, with NO_POINT for
 * "none"; the glue translates them into movegen.py's where they leave C.
 */
#include "search.h"
#include "evaluate.h"

#include <math.h>
#include <string.h>

/* The constants of the Python source (search_configure). */
static SearchParams P;
static int configured;
/* The plies a late placement is reduced by, by depth and turn index (search_configure). */
static int placing_reductions[REDUCE_SPAN][REDUCE_SPAN];

const char *search_configure(const SearchParams *p)
{
    int bits = 0;
    while (bits < 16 && (p->none >> bits) != 0)
        bits++;
    if (p->points < 1 || p->points > NO_POINT)
        return "points: more than a turn (and a bitboard) holds";
    if (p->all_points != (bb)(((uint64_t)1 << p->points) - 1))
        return "all_points: not the set of every point";
    if (p->none != (1 << bits) - 1 || p->none < p->points || 3 * bits > 15)
        return "none: not an all-ones point number above every point (three in 15 bits)";
    if (p->move_space != 1 << 3 * bits)
        return "move_space: not the space of three point numbers";
    if (p->max_depth < 1 || p->max_depth > MAX_PLY - 3)
        return "max_depth: deeper than the per-ply buffers";
    if (p->exact < 0 || p->exact > 3 || p->lower < 0 || p->lower > 3 || p->upper < 0 ||
        p->upper > 3 || p->exact == p->lower || p->exact == p->upper || p->lower == p->upper)
        return "exact, lower, upper: three different flags of two bits";
    if (p->mate_bound >= p->mate || p->mate >= p->inf || p->tt_max < 1)
        return "mate, mate_bound, inf, tt_max: out of order";
    if (p->reduce_base < 0 || p->reduce_div < 1)
        return "reduce_base, reduce_div: a negative base or a divisor below 1";
    if (p->reduce_span != REDUCE_SPAN)
        return "reduce_span: not the size of search.c's reduction table (REDUCE_SPAN)";
    P = *p;
    /* search.py, placing_reductions: the same arithmetic in doubles */
    for (int d = 0; d < REDUCE_SPAN; d++)
        for (int k = 0; k < REDUCE_SPAN; k++)
            placing_reductions[d][k] =
                d && k ? (int)(P.reduce_base / 100.0 +
                               log((double)d) * log((double)k) / (P.reduce_div / 100.0))
                       : 0;
    configured = 1;
    return NULL;
}

const SearchParams *search_params(void) { return configured ? &P : NULL; }

/* ------------------------------------------------------------------------------------------ */
/* transposition table                                                                         */

/* Where linear probing for `key` starts in a table of mask + 1 slots. */
static inline uint64_t tt_home(uint64_t key, uint64_t mask) { return (key ^ (key >> 29)) & mask; }

static inline int tt_live(const Search *s, const TTEntry *e) { return e->stamp >> 2 == s->generation; }

/* The slot holding `key`, or the empty slot where it would go. */
static TTEntry *tt_slot(const Search *s, uint64_t key)
{
    for (uint64_t i = tt_home(key, s->tt_mask);; i = (i + 1) & s->tt_mask) {
        TTEntry *e = &s->tt[i];
        if (!tt_live(s, e) || e->key == key)
            return e;
    }
}

static TTEntry *tt_find(const Search *s, uint64_t key)
{
    TTEntry *e = tt_slot(s, key);
    return tt_live(s, e) ? e : NULL;
}

/* Doubles the table when it is half full, keeping its entries: the size given at the start is
 * a hint, and like a dict the table never fills up. Returns -1 if memory runs out. */
static int tt_grow(Search *s)
{
    uint64_t old_cap = s->tt_mask + 1;
    uint64_t cap = old_cap * 2;
    TTEntry *old = s->tt;
    TTEntry *table = host_calloc((size_t)cap, sizeof(TTEntry));
    if (table == NULL)
        return -1;
    s->tt = table;
    s->tt_mask = cap - 1;
    for (uint64_t j = 0; j < old_cap; j++) {
        if (tt_live(s, &old[j]))
            *tt_slot(s, old[j].key) = old[j];
    }
    host_free(old);
    return 0;
}

static int tt_store(Search *s, uint64_t key, int depth, int flag, int score, int move)
{
    /* search.py: `if len(tt) >= _TT_MAX: tt.clear()` before every store */
    if (s->tt_count >= P.tt_max) {
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
    e->depth = (uint32_t)depth;
    e->stamp = (uint32_t)(s->generation << 2 | flag);
    e->score = score;
    e->move = (uint32_t)move;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* move generation (movegen.py)                                                                */

static bb removable(const Search *s, bb them)
{
    if (s->remove_from_mills)
        return them;
    bb in_mill = 0;
    for (int i = 0; i < s->n_masks; i++) {
        bb m = s->mill_masks[i];
        if ((them & m) == m)
            in_mill |= m;
    }
    bb free_ = them & ~in_mill;
    return free_ ? free_ : them;
}

/* The mills new_us closes at `to`: 0, 1, or (counted on only where a double mill removes two)
 * 2. */
static inline int closes(const Search *s, bb new_us, int to)
{
    int n = 0;
    for (int k = 0; k < s->n_through[to]; k++) {
        bb m = s->mills_through[to][k];
        if ((new_us & m) == m) {
            if (!s->double_mill)
                return 1;
            n++;
        }
    }
    return n > 2 ? 2 : n;
}

/* The turns being generated: mill turns (one per removable piece) and quiet turns. */
typedef struct {
    turn *mills, *quiet;
    int n_mills, n_quiet;
    int have_removable;
    bb removable;
} Turns;

/* Adds the action frm -> to (frm NO_POINT: a placement) that leaves our pieces on new_us. */
static inline void add_action(const Search *s, Turns *t, int frm, int to, bb new_us, bb them)
{
    int closed = them ? closes(s, new_us, to) : 0;
    if (closed) {
        if (!t->have_removable) {
            t->removable = removable(s, them);
            t->have_removable = 1;
        }
        int base = frm | to << POINT_BITS;
        if (closed == 2 && (them & (them - 1))) {
            /* Two removals: every pair taken one after the other, either way round, once as
             * remove < second (movegen._add_removals). */
            bb first_set = t->removable;
            for (bb r = first_set; r; r &= r - 1) {
                int a = lowbit(r);
                bb rl = 1u << a;
                for (bb r2 = removable(s, them ^ rl); r2; r2 &= r2 - 1) {
                    int b = lowbit(r2);
                    bb low = 1u << b;
                    if (b > a)
                        t->mills[t->n_mills++] =
                            (turn)(base | a << 2 * POINT_BITS | (b + 1) << SECOND_SHIFT);
                    else if (!((first_set & low) && (removable(s, them ^ low) & rl)))
                        t->mills[t->n_mills++] =
                            (turn)(base | b << 2 * POINT_BITS | (a + 1) << SECOND_SHIFT);
                }
            }
            return;
        }
        for (bb r = t->removable; r; r &= r - 1)
            t->mills[t->n_mills++] = (turn)(base | lowbit(r) << 2 * POINT_BITS);
    } else {
        t->quiet[t->n_quiet++] = (turn)(frm | to << POINT_BITS | NO_POINT << 2 * POINT_BITS);
    }
}

/* Mill turns into mills[], quiet turns into quiet[], in movegen.generate's order: placements,
 * then (while placing only where a piece may move instead) steps or flights. */
static inline int bar_code(int frm, int to) { return frm * 24 + to + 1; }

/* The return the turn frm-to bars (us before it, new_us after), or 0 (movegen.next_bar). */
static inline int next_bar(const Search *s, bb us, int frm, int to, bb new_us)
{
    if (!s->return_mill_barred || frm == NO_POINT)
        return 0;
    int left = 0;
    for (int k = 0; k < s->n_through[frm]; k++) {
        bb m = s->mills_through[frm][k];
        if ((us & m) == m)
            left = 1;
    }
    if (!left)
        return 0;
    for (int k = 0; k < s->n_through[to]; k++) {
        bb m = s->mills_through[to][k];
        if ((new_us & m) == m)
            return bar_code(to, frm);
    }
    return 0;
}

static void generate(const Search *s, bb us, bb them, int us_hand, int bar, turn *mills,
                     int *n_mills, turn *quiet, int *n_quiet)
{
    bb empty = s->in_play & ~(us | them);
    Turns t = {mills, quiet, 0, 0, 0, 0};
    if (us_hand) {
        for (bb e = empty; e; e &= e - 1) {
            int to = lowbit(e);
            add_action(s, &t, NO_POINT, to, us | (1u << to), them);
        }
    }
    if (!us_hand || s->move_while_placing) {
        int flies = !us_hand && s->flying && popcount(us) == 3;
        for (bb own = us; own; own &= own - 1) {
            int frm = lowbit(own);
            bb base_us = us ^ (1u << frm);
            for (bb to_set = flies ? empty : (s->neighbours[frm] & empty); to_set;
                 to_set &= to_set - 1) {
                int to = lowbit(to_set);
                bb new_us = base_us | (1u << to);
                if (bar && bar == bar_code(frm, to) && closes(s, new_us, to))
                    continue; /* the barred return into a mill */
                add_action(s, &t, frm, to, new_us, them);
            }
        }
    }
    *n_mills = t.n_mills;
    *n_quiet = t.n_quiet;
}

static int has_moves(const Search *s, bb us, bb them, int us_hand, int bar)
{
    bb empty = s->in_play & ~(us | them);
    if (!empty)
        return 0;
    if (us_hand || (s->flying && popcount(us) == 3))
        return 1;
    if (bar) {
        /* The barred return may be the only turn: generate to know (rare: Morabaraba only). */
        turn mills[MAX_TURNS], quiet[MAX_QUIET];
        int n_mills, n_quiet;
        generate(s, us, them, us_hand, bar, mills, &n_mills, quiet, &n_quiet);
        return n_mills + n_quiet > 0;
    }
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
/* the search (search.py, Search.negamax)                                                     */

/* Stable sort of turns by history, highest first (Python's sort(reverse=True) keeps the order
 * of equal keys). Insertion sort: the lists are short. */
static void sort_by_history(const long long *history, turn *a, int n)
{
    for (int i = 1; i < n; i++) {
        turn x = a[i];
        long long hx = history[x];
        int j = i - 1;
        while (j >= 0 && history[a[j]] < hx) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = x;
    }
}

/* Stable sort of turns by their keys, highest first (insertion sort: the lists are short). */
static void sort_by_key(turn *a, int *key, int n)
{
    for (int i = 1; i < n; i++) {
        turn x = a[i];
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

/* Sorts quiet placements by a static key, highest first, ties in the order given (as
   Search._placing_order): P.order_block for each line through the point that holds two of the
   opponent's pieces and none of ours (a block), P.order_two for each that holds one of ours and
   none of theirs (a new two), 1 for each link of the point. */
static void sort_placements(const Search *s, bb us, bb them, turn *a, int n)
{
    int key[MAX_QUIET];
    for (int i = 0; i < n; i++) {
        int to = a[i] >> POINT_BITS & NO_POINT;
        int k = popcount(s->neighbours[to]);
        for (int q = 0; q < s->n_through[to]; q++) {
            bb m = s->mills_through[to][q];
            bb ours = us & m, theirs = them & m;
            if (!ours && popcount(theirs) == 2)
                k += P.order_block;
            else if (!theirs && popcount(ours) == 1)
                k += P.order_two;
        }
        key[i] = k;
    }
    sort_by_key(a, key, n);
}

/* Sorts mill turns by a static key, highest first, ties in the order given (as
   Search._removal_order), by the (first) piece removed: P.order_take_two for each line through
   it that holds two of the opponent's pieces and none of ours (an open two broken), 1 for each
   empty neighbour of it after our turn. */
static void sort_removals(const Search *s, bb us, bb them, turn *a, int n)
{
    int key[MAX_TURNS];
    for (int i = 0; i < n; i++) {
        int frm = a[i] & NO_POINT;
        int to = a[i] >> POINT_BITS & NO_POINT;
        int rem = a[i] >> 2 * POINT_BITS & NO_POINT;
        bb nus = frm == NO_POINT ? us | (1u << to) : us ^ ((1u << frm) | (1u << to));
        int k = popcount(s->neighbours[rem] & s->in_play & ~(nus | them));
        for (int q = 0; q < s->n_through[rem]; q++) {
            bb m = s->mills_through[rem][q];
            if (!(nus & m) && popcount(them & m) == 2)
                k += P.order_take_two;
        }
        key[i] = k;
    }
    sort_by_key(a, key, n);
}

/* Moves a[k] to the front, keeping the order of the others. */
static inline void to_front(turn *a, int k)
{
    turn x = a[k];
    memmove(a + 1, a, (size_t)k * sizeof(turn));
    a[0] = x;
}

static inline int find(const turn *a, int n, turn x)
{
    for (int i = 0; i < n; i++)
        if (a[i] == x)
            return i;
    return -1;
}

enum { PROBE_NONE, PROBE_TABLES, PROBE_SECTORS };

/* Who answers this moving-phase position (search.py, _table_cover): the tables at any depth,
 * else the solved game's sectors only from P.sector_depth plies from the horizon on. Python's
 * twin, Search._probed_here, says only whether someone does. */
static inline int probed_here(const Search *s, bb us, bb them, int depth)
{
    int m = popcount(us), o = popcount(them);
    if (m < s->n_cover && (s->table_cover[m] >> o & 1))
        return PROBE_TABLES;
    if (depth >= P.sector_depth && m < s->n_sector && (s->sector_cover[m] >> o & 1))
        return PROBE_SECTORS;
    return PROBE_NONE;
}

/* A sector's answer as host_probe() gives it (search.py, table_value and _table_result: a code
 * is distance + 1, 0 a draw; an odd distance a win for the side to move, an even one a loss). */
static int sector_probe(Search *s, bb us, bb them, int *value, int *dist)
{
    int code;
    int got = sectors_code(s->sectors, us, them, &code);
    if (got <= 0)
        return got;
    if (code == 0) {
        *value = P.draw;
        *dist = 0;
    } else {
        *dist = code - 1;
        *value = (*dist & 1) ? P.win : P.loss;
    }
    return 1;
}

static int negamax(Search *s, bb us, bb them, int uh, int th, int c, uint64_t key, int nrc,
                   int depth, int alpha, int beta, int ply, ptrdiff_t rep_start, int bar,
                   int obar)
{
    s->nodes++;
    if (s->nodes >= s->check_at && host_check(s) < 0) {
        s->error = 1;
        return 0;
    }
    int limit = s->limit;
    /* A draw's value for the side to move: the engine's (at even plies) is -contempt. */
    int drawn = (ply & 1) ? s->w.contempt : -s->w.contempt;
    /* Draws. A side to move that is blocked has lost even then (losses are checked first). */
    if (s->full_board_is_draw && !uh && !th && (us | them) == s->in_play)
        return drawn;
    int draw = limit >= 0 && nrc >= limit;
    if (!draw && s->threefold) {
        ptrdiff_t i = s->path_len - 3;
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
        return has_moves(s, us, them, uh, bar) ? drawn : -(P.mate - ply);
    /* Endgame tables and the solved game's sectors (search.py, table_value): exact, unless
     * the no-removal limit could come first. */
    int asked = s->has_probe && !uh && !th ? probed_here(s, us, them, depth) : PROBE_NONE;
    if (asked != PROBE_NONE) {
        int value, dist;
        int got = asked == PROBE_SECTORS && s->sectors != NULL
                      ? sector_probe(s, us, them, &value, &dist)
                      : host_probe(s, us, them, c, &value, &dist);
        if (got < 0) {
            s->error = 1;
            return 0;
        }
        if (got) {
            if (value == P.draw) {
                /* search.py, solved_draw_score: the draw's value plus a quarter of the
                 * evaluation, within +-solved_draw (floor division, as Python's). */
                int band = s->w.solved_draw;
                if (!band)
                    return drawn;
                int e = eval_position(s, us, them, 0, 0);
                int q = e >= 0 ? e / 4 : -((-e + 3) / 4);
                return drawn + (q > band ? band : q < -band ? -band : q);
            }
            if (limit < 0 || nrc + dist < limit)
                return value == P.win ? P.mate - ply - dist : -(P.mate - ply - dist);
        }
    }
    if (depth <= 0) {
        if (!has_moves(s, us, them, uh, bar))
            return -(P.mate - ply);
        return eval_position(s, us, them, uh, th);
    }
    /* Transposition table. */
    uint64_t tkey = (limit < 0 || nrc < limit - P.near_limit) ? key : key ^ s->zn[nrc];
    if (bar || obar) /* search.py, bar_key: a barred return changes the turns */
        tkey ^= (uint64_t)bar * P.bar_mix_us ^ (uint64_t)obar * P.bar_mix_them;
    int tt_move = -1;
    TTEntry *entry = tt_find(s, tkey);
    if (entry != NULL) {
        int e_score = entry->score;
        tt_move = entry->move;
        if (entry->depth >= depth) {
            if (e_score > P.mate_bound)
                e_score -= ply;
            else if (e_score < -P.mate_bound)
                e_score += ply;
            int e_flag = entry->stamp & 3;
            if (e_flag == P.exact)
                return e_score;
            if (e_flag == P.lower) {
                if (e_score >= beta)
                    return e_score;
            } else if (e_score <= alpha) {
                return e_score;
            }
        }
    }
    turn *moves = s->buf[ply];
    turn *quiet = s->quiet[ply];
    int n_mills, n_quiet;
    generate(s, us, them, uh, bar, moves, &n_mills, quiet, &n_quiet);
    if (!n_mills && !n_quiet)
        return -(P.mate - ply);
    long long *history = s->history;
    turn *killers = s->killers[ply];
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
    /* Mill turns by a static order: the history table holds quiet turns only. */
    if (n_mills > 1)
        sort_removals(s, us, them, moves, n_mills);
    memcpy(moves + n_mills, quiet, (size_t)n_quiet * sizeof(turn));
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
    int best = -P.inf;
    int best_move = moves[0];
    int orig_alpha = alpha;
    int th_left = popcount(them) + th;
    int nbar = 0;
    for (int i = 0; i < n; i++) {
        int mv = moves[i];
        int frm = mv & NO_POINT;
        int to = mv >> POINT_BITS & NO_POINT;
        int rem = mv >> 2 * POINT_BITS & NO_POINT;
        int second = mv >> SECOND_SHIFT; /* the second removal plus one, 0 for none */
        bb nus, nthem;
        int nuh, nnrc, irreversible, score;
        uint64_t nkey;
        if (frm == NO_POINT) {
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
        if (rem != NO_POINT) {
            if (th_left <= (second ? 4 : 3)) {
                /* The opponent is down to two pieces: won at once, nothing can be better. */
                best = P.mate - ply - 1;
                best_move = mv;
                break;
            }
            nthem = them & ~(1u << rem);
            nkey ^= zp_them[rem];
            if (second) {
                nthem &= ~(1u << (second - 1));
                nkey ^= zp_them[second - 1];
            }
            nnrc = 0;
            irreversible = 1;
        } else {
            nthem = them;
        }
        if (s->return_mill_barred)
            nbar = next_bar(s, us, frm, to, nus);
        s->path[s->path_len++] = nkey;
        ptrdiff_t nrs = irreversible ? s->path_len - 1 : rep_start;
        if (i == 0) {
            score = -negamax(s, nthem, nus, th, nuh, nc, nkey, nnrc, depth - 1, -beta, -alpha,
                             ply + 1, nrs, obar, nbar);
        } else {
            int r = (depth >= P.reduce_depth && i >= P.reduce_after && i >= n_mills && mv != killers[0] &&
                     mv != killers[1])
                        ? 1
                        : 0;
            if (r && (uh || th) && s->w.placing_reductions) {
                int late = placing_reductions[depth < REDUCE_SPAN ? depth : REDUCE_SPAN - 1]
                                             [i < REDUCE_SPAN ? i : REDUCE_SPAN - 1];
                r = late < depth - 2 ? late : depth - 2;
                if (r < 1)
                    r = 1;
            }
            score = -negamax(s, nthem, nus, th, nuh, nc, nkey, nnrc, depth - 1 - r, -alpha - 1,
                             -alpha, ply + 1, nrs, obar, nbar);
            if (!s->error && score > alpha && r)
                score = -negamax(s, nthem, nus, th, nuh, nc, nkey, nnrc, depth - 1, -alpha - 1,
                                 -alpha, ply + 1, nrs, obar, nbar);
            if (!s->error && alpha < score && score < beta)
                score = -negamax(s, nthem, nus, th, nuh, nc, nkey, nnrc, depth - 1, -beta,
                                 -alpha, ply + 1, nrs, obar, nbar);
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
                    if (rem == NO_POINT) {
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
    if (stored > P.mate_bound)
        stored += ply;
    else if (stored < -P.mate_bound)
        stored -= ply;
    int flag = best <= orig_alpha ? P.upper : best >= beta ? P.lower : P.exact;
    if (tt_store(s, tkey, depth, flag, stored, best_move) < 0)
        s->error = 1;
    return best;
}

/* ------------------------------------------------------------------------------------------ */
/* the entry points (search.h)                                                                 */

int search_start(Search *s, long long tt_size)
{
    s->history = host_calloc(TURN_SPACE, sizeof(long long));
    s->buf = host_calloc(MAX_PLY + 2, sizeof(*s->buf));
    s->quiet = host_calloc(MAX_PLY + 2, sizeof(*s->quiet));
    /* Sized for the expected entries (at most tt_max) at a load of at most about 40%; it grows
     * past half full. */
    uint64_t want = (uint64_t)(tt_size < 1 ? 1 : tt_size);
    if (want > (uint64_t)P.tt_max)
        want = (uint64_t)P.tt_max;
    uint64_t cap = 4096;
    while (cap < want * 5 / 2 + 1024)
        cap <<= 1;
    s->tt = host_calloc((size_t)cap, sizeof(TTEntry));
    s->tt_mask = cap - 1;
    s->generation = 1;
    if (s->history == NULL || s->buf == NULL || s->quiet == NULL || s->tt == NULL)
        return -1;
    for (int p = 0; p < MAX_PLY + 2; p++)
        s->killers[p][0] = s->killers[p][1] = -1;
    s->nodes = 0;
    s->check_at = 0;
    return 0;
}

void search_release(Search *s)
{
    host_free(s->zn);
    host_free(s->path);
    host_free(s->history);
    host_free(s->tt);
    host_free(s->buf);
    host_free(s->quiet);
    s->quiet = NULL;
    s->zn = NULL;
    s->path = NULL;
    s->history = NULL;
    s->tt = NULL;
    s->buf = NULL;
}

int search_root_move(Search *s, bb us, bb them, int uh, int th, int c, uint64_t key, int nrc,
                     int depth, int alpha, int beta, int irreversible, int bar, int obar,
                     int *score)
{
    /* search.py, Search.search_root_move: the child of the root at ply 1. */
    ptrdiff_t base = s->path_len;
    s->path[s->path_len++] = key;
    ptrdiff_t rep_start = irreversible ? s->path_len - 1 : 0;
    s->error = 0;
    *score = -negamax(s, us, them, uh, th, c, key, nrc, depth, alpha, beta, 1, rep_start, bar,
                      obar);
    s->path_len = base;
    if (s->error) {
        s->error = 0;
        return -1;
    }
    return 0;
}

int search_evaluate(const Search *s, bb us, bb them, int uh, int th)
{
    return eval_position(s, us, them, uh, th);
}

void search_generate(const Search *s, bb us, bb them, int us_hand, int bar, turn *mills,
                     int *n_mills, turn *quiet, int *n_quiet)
{
    generate(s, us, them, us_hand, bar, mills, n_mills, quiet, n_quiet);
}

const TTEntry *search_tt_find(const Search *s, uint64_t key)
{
    return s->tt == NULL ? NULL : tt_find(s, key);
}
