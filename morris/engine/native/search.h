/*
 * The search's inner loop in plain C (search.c, its evaluation evaluate.c), apart from the
 * CPython glue (../_native.c).
 *
 * Nothing here is a copy of the Python source: every constant the Python search, its move
 * generator and its evaluation define (scores, table flags, the turn encoding, the evaluation's
 * weights, the number of points) reaches search.c through search_configure(), which the glue
 * calls with the values Python passes at import (search.py, _configure_native). The macros below
 * are C's own: capacities (array sizes; search_configure() refuses values that do not fit them)
 * and C's internal turn encoding.
 *
 * The host (the glue) provides memory and the callbacks into Python: host_check() when the
 * node count reaches check_at, host_probe() for the endgame tables (and the solved game's
 * sectors when the search has no Sectors of its own), host_block() for a block of a sector the
 * Sectors' cache does not hold (sectors.h).
 */
#ifndef MORRIS_NATIVE_SEARCH_H
#define MORRIS_NATIVE_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "sectors.h"

#define MAX_POINTS 32   /* a bitboard is 32 bits */
#define REDUCE_SPAN 64  /* the placing reductions' table: depths and turn indices */
#define MAX_PLY 72      /* plies of the per-ply buffers; the depth cap must stay below */
#define MAX_TURNS 4096  /* more than any position has, two removals of 12 pieces included */
#define MAX_QUIET 256   /* turns without removal: 24 placements and 12 x 4 steps at most */
#define MAX_MASKS 32
#define MAX_THROUGH 4   /* mills through one point */
#define MAX_LAYERS 8
#define MAX_HAND 32     /* pieces per side */
#define GENERATIONS 64  /* transposition-table generations before a real wipe */

/* C's own turn encoding, fixed at compile time (the hot loop decodes it): from | to << POINT_BITS
 * | remove << 2 * POINT_BITS | (second + 1) << 3 * POINT_BITS, NO_POINT for no origin (a
 * placement) or no removal, 0 in the top field for no second removal (a double mill's), so that a
 * turn without one stays below TURN_SPACE. The glue translates turns into movegen.py's encoding
 * (configure's `none`) where they leave C. */
#define POINT_BITS 5
#define NO_POINT ((1 << POINT_BITS) - 1)
#define SECOND_SHIFT (3 * POINT_BITS)
#define TURN_SPACE (1 << SECOND_SHIFT) /* the history table: turns without removal index it */

typedef int32_t turn;

typedef uint32_t bb;

static inline int popcount(bb x) { return __builtin_popcount(x); }
static inline int lowbit(bb x) { return __builtin_ctz(x); }

/* The evaluation's weights: the fields of evaluate.Weights, in their order. */
typedef struct {
    int open_two, open_two_per_hand, close_one, close_more, closings_against, placing_mobility,
        placing_blocked, point_link, point_cross, placing_one_exit, placing_tempo;
    int opponent_blocked, moving_mobility, moving_blocked, running_mill, threat, per_threat,
        per_threat_against, threats_against;
    int contempt; /* what a draw costs the engine (the side to move at the root) */
    int placing_reductions; /* 1: late placements reduced by the table (search.c), 0: a ply */
    int solved_draw; /* a drawn probe answer: the draw's value + eval / 4 within +-this */
} Weights;
#define N_WEIGHTS ((int)(sizeof(Weights) / sizeof(int)))

/* The constants of the Python source, given once by search_configure(). */
typedef struct {
    /* morris/core/points.py */
    int points;          /* NUM_POINTS */
    bb all_points;       /* ALL_POINTS */
    /* movegen.py: a turn is from | to << bits | remove << 2 * bits, `none` (all ones in `bits`)
     * for no point; only the glue uses it, to translate C's turns */
    int none;            /* NONE */
    int move_space;      /* MOVE_SPACE */
    uint64_t bar_mix_us, bar_mix_them; /* _BAR_MIX_US, _BAR_MIX_THEM: barred returns in keys */
    /* search.py */
    int mate, mate_bound, inf, max_depth, near_limit;
    long tt_max;
    int exact, lower, upper;  /* table entry flags */
    int draw, win, loss;      /* the probe's values */
    int reduce_depth, reduce_after;      /* late-move reduction: from this depth, after n turns */
    int reduce_base, reduce_div;         /* while placing: base + ln d ln i / div, hundredths */
    int reduce_span;                     /* that table's size: REDUCE_SPAN */
    int order_block, order_two;          /* placement order: a block, a new two */
    int order_take_two;                  /* mill turn order: an open two of theirs broken */
    int sector_depth; /* the solution's sectors are probed this many plies from the horizon on */
    /* evaluate.py: PIECE and the fields of WEIGHTS (a search's own weights, a variant's, may
     * replace these defaults: Search.w) */
    int piece;
    Weights weights;
} SearchParams;

/* 16 bytes. `stamp` is generation << 2 | flag: an entry of another generation is an empty slot,
 * so emptying the table is one increment (and a real wipe every GENERATIONS - 1). Scores stay
 * within MATE plus the plies (24 bits hold them), a turn within 4 point fields (20 bits), a
 * depth below MAX_PLY. */
typedef struct {
    uint64_t key;
    int32_t score : 24;
    uint32_t stamp : 8;
    uint32_t move : 24;
    uint32_t depth : 8;
} TTEntry;

/* The state of one search: rules, keys, tables, heuristics. */
typedef struct {
    /* rules */
    bb in_play; /* the points of the board in play (six men's morris: 16) */
    bb neighbours[MAX_POINTS];
    bb mill_masks[MAX_MASKS];
    int n_masks;
    bb layers[MAX_LAYERS]; /* evaluate.py's point_layers */
    int n_layers;
    bb mills_through[MAX_POINTS][MAX_THROUGH];
    int n_through[MAX_POINTS];
    int flying;
    int threefold;
    int limit; /* no-removal limit, -1 for none */
    int full_board_is_draw;
    int move_while_placing; /* Lasker: a piece may move instead of being placed */
    int remove_from_mills;  /* a piece in a mill may be removed even when others are not */
    int double_mill;        /* an action closing two mills at once removes two pieces */
    int return_mill_barred; /* Morabaraba: no straight return into a mill (bar codes) */
    Weights w;              /* the evaluation's weights (the variant's) */
    int piece;              /* what a piece is worth: evaluate.py's PIECE */
    /* zobrist keys */
    uint64_t zp[2][MAX_POINTS];
    uint64_t zh[2][MAX_HAND + 1];
    uint64_t zside;
    uint64_t *zn; /* limit + 2 keys */
    /* repetition path: keys since the last irreversible turn before the root, then the line */
    uint64_t *path;
    ptrdiff_t path_len;
    ptrdiff_t path_cap;
    ptrdiff_t root_index;
    /* budget */
    long long nodes;
    long long check_at;
    int has_probe; /* the host has tables or solved sectors: host_probe() may answer */
    bb table_cover[MAX_POINTS + 1]; /* by the mover's pieces, a bit for each count of the
                                     * other's that the probe answers (search.py, _table_cover) */
    int n_cover;
    bb sector_cover[MAX_POINTS + 1]; /* the counts only the solution answers (_table_cover) */
    int n_sector;
    Sectors *sectors; /* those sectors read here (sectors.h), or NULL: host_probe() reads them */
    int error;     /* a callback failed or memory ran out: unwind */
    /* heuristics */
    long long *history; /* TURN_SPACE */
    turn killers[MAX_PLY + 2][2];
    /* transposition table: open addressing, exact 64-bit keys */
    TTEntry *tt;
    uint64_t tt_mask;
    long tt_count;
    uint8_t generation; /* 1 .. GENERATIONS - 1 */
    /* per-ply turn buffers: every turn, and the quiet ones while they are ordered */
    turn (*buf)[MAX_TURNS];
    turn (*quiet)[MAX_QUIET];
} Search;

/* Provided by the host. */
int host_check(Search *s); /* sets s->check_at; -1 (error set) ends the search */
int host_probe(Search *s, bb us, bb them, int colour, int *value, int *dist); /* -1, 0 or 1 */
void *host_calloc(size_t n, size_t size);
void host_free(void *p);

/* NULL when `p` fits and is stored, else what is wrong with it. */
const char *search_configure(const SearchParams *p);
const SearchParams *search_params(void); /* NULL until configured */

/* Allocates the tables (history, turn buffers, a transposition table for about `tt_size`
 * entries) once the rules, keys and path are set; -1 if memory runs out. */
int search_start(Search *s, long long tt_size);
/* Frees every table (zn and path too); the search cannot run after it. */
void search_release(Search *s);

/* The negamax score of a child of the root at ply 1 into *score; -1 on error (s->error). */
int search_root_move(Search *s, bb us, bb them, int uh, int th, int c, uint64_t key, int nrc,
                     int depth, int alpha, int beta, int irreversible, int bar, int obar,
                     int *score);
int search_evaluate(const Search *s, bb us, bb them, int uh, int th);
void search_generate(const Search *s, bb us, bb them, int us_hand, int bar, turn *mills,
                     int *n_mills, turn *quiet, int *n_quiet);
const TTEntry *search_tt_find(const Search *s, uint64_t key);

#endif
