/*
 * morris.engine._native: the CPython glue of the search's inner loop (native/search.c).
 *
 * Here: the module, its configure() call (the constants of the Python source, given once at
 * import by search.py), the Core type (argument parsing, Python objects into a Search and back)
 * and the host side of search.h (memory from Python's allocator, so tracemalloc sees it, and the
 * callbacks into Python). The search itself, and what it must agree on with the Python search,
 * is in native/search.c.
 *
 * The root (iterative deepening, randomness, principal variation) stays in Python; Python calls
 * Core.root_move() for each root move. The clock, the stop flag, the node budget and the endgame
 * tables stay in Python too: the core calls back `check(nodes)` when the node count reaches
 * `check_at` (it returns the next `check_at` or raises to end the search) and `probe(us, them,
 * colour)` for positions the tables cover.
 *
 * Core.root_move() releases the interpreter lock for the whole of the C search, so the daemon's
 * search thread never holds up the board's scanning and lights: the search touches no Python
 * object, its memory comes from the raw allocator (safe without the lock) and the two callbacks
 * take the lock back for the Python call only (host_check, host_probe). A core is used by the
 * thread that runs its root_move; the other methods refuse while a search runs (`busy`).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stddef.h>
#include <string.h>

#include "native/search.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

/* The solved game's sectors the search reads itself (native/sectors.h): their shapes, the
 * cache of decompressed blocks and fetch(sector, block), which decompresses a block the cache
 * does not hold. Kept by the engine from one turn to the next, so the cache is too; used by one
 * search at a time (`busy`). */
typedef struct {
    PyObject_HEAD
    Sectors t;
    PyObject *fetch; /* fetch(sector, block) -> the block's codes (a buffer) | None */
    PyObject *keep;  /* the canonical sets' bytes the sectors point into */
    int busy;        /* a search reads it, without the interpreter lock */
} SectorsObject;

typedef struct {
    PyObject_HEAD
    Search s;
    PyObject *check; /* check(nodes) -> next check_at, raises to end the search */
    PyObject *probe; /* probe(us, them, colour) -> None | (value, distance); or NULL */
    SectorsObject *sectors; /* the sectors it reads itself (s.sectors), or NULL */
    int released;    /* release() freed the tables: the core cannot search any more */
    int busy;        /* root_move() runs, without the interpreter lock */
    PyThreadState *tstate; /* the searching thread's state while the lock is released */
} Core;

static PyTypeObject SectorsType;

static inline Core *core_of(Search *s) { return (Core *)((char *)s - offsetof(Core, s)); }

/* ------------------------------------------------------------------------------------------ */
/* the host side of search.h                                                                   */

/* The raw domain: callable without the interpreter lock (the table grows during the search),
 * and tracemalloc still sees it. */
void *host_calloc(size_t n, size_t size) { return PyMem_RawCalloc(n, size); }

void host_free(void *p) { PyMem_RawFree(p); }

/* The callbacks run inside root_move(), which released the lock: take it back for the call. */
static inline void hold_lock(Core *self) { PyEval_RestoreThread(self->tstate); }

static inline void drop_lock(Core *self) { self->tstate = PyEval_SaveThread(); }

/* Calls check(nodes); returns -1 with the Python error set if it raised. */
int host_check(Search *s)
{
    Core *self = core_of(s);
    hold_lock(self);
    PyObject *r = PyObject_CallFunction(self->check, "L", s->nodes);
    long long next = -1;
    if (r != NULL) {
        next = PyLong_AsLongLong(r);
        Py_DECREF(r);
    }
    int failed = r == NULL || (next == -1 && PyErr_Occurred());
    drop_lock(self); /* the error, if any, stays set in this thread's state */
    if (failed)
        return -1;
    s->check_at = next;
    return 0;
}

/* Probes the endgame tables: 0 no answer, 1 answered (*value as search.py's _DRAW, _WIN, _LOSS),
 * -1 with the Python error set. */
int host_probe(Search *s, bb us, bb them, int c, int *value, int *dist)
{
    Core *self = core_of(s);
    hold_lock(self);
    PyObject *r = PyObject_CallFunction(self->probe, "kki", (unsigned long)us,
                                        (unsigned long)them, c);
    int got = -1;
    if (r == Py_None)
        got = 0;
    else if (r != NULL)
        got = PyArg_ParseTuple(r, "ii", value, dist) ? 1 : -1;
    Py_XDECREF(r);
    drop_lock(self);
    return got;
}

static inline SectorsObject *sectors_object(Sectors *t)
{
    return (SectorsObject *)((char *)t - offsetof(SectorsObject, t));
}

/* Calls fetch(sector, block) and copies the block into dst. Called inside a search (the lock
 * released by root_move) or from Sectors.code() (the lock held): PyGILState takes it in both. */
int host_block(Sectors *t, int sector, int64_t block, uint8_t *dst, size_t bytes)
{
    SectorsObject *self = sectors_object(t);
    PyGILState_STATE held = PyGILState_Ensure();
    int got = -1;
    PyObject *r = PyObject_CallFunction(self->fetch, "iL", sector, (long long)block);
    if (r == Py_None) {
        got = 0;
    } else if (r != NULL) {
        Py_buffer view;
        if (PyObject_GetBuffer(r, &view, PyBUF_SIMPLE) == 0) {
            if ((size_t)view.len == bytes) {
                memcpy(dst, view.buf, bytes);
                got = 1;
            } else {
                PyErr_Format(PyExc_ValueError, "fetch(%d, %lld): %zd bytes, not %zu", sector,
                             (long long)block, view.len, bytes);
            }
            PyBuffer_Release(&view);
        }
    }
    Py_XDECREF(r);
    PyGILState_Release(held);
    return got;
}

/* Refuses (RuntimeError) while another thread's root_move() uses the core. */
static int check_idle(Core *self)
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Core: a search runs on it (in another thread)");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* configure(): the constants                                                                  */

enum { AS_INT, AS_BB, AS_LONG, AS_U64 };

typedef struct {
    const char *name;
    size_t offset;
    int as;
} Field;

#define INT_FIELD(f) {#f, offsetof(SearchParams, f), AS_INT}
#define WEIGHT_FIELD(f) {#f, offsetof(SearchParams, weights.f), AS_INT}

/* Every field of SearchParams, by the keyword configure() takes it as. */
static const Field FIELDS[] = {
    INT_FIELD(points), {"all_points", offsetof(SearchParams, all_points), AS_BB},
    INT_FIELD(none), INT_FIELD(move_space),
    {"bar_mix_us", offsetof(SearchParams, bar_mix_us), AS_U64},
    {"bar_mix_them", offsetof(SearchParams, bar_mix_them), AS_U64},
    INT_FIELD(mate), INT_FIELD(mate_bound),
    INT_FIELD(inf), INT_FIELD(max_depth), INT_FIELD(near_limit),
    {"tt_max", offsetof(SearchParams, tt_max), AS_LONG},
    INT_FIELD(exact), INT_FIELD(lower), INT_FIELD(upper), INT_FIELD(draw), INT_FIELD(win),
    INT_FIELD(loss), INT_FIELD(reduce_depth), INT_FIELD(reduce_after), INT_FIELD(reduce_base),
    INT_FIELD(reduce_div), INT_FIELD(reduce_span), INT_FIELD(order_block),
    INT_FIELD(order_two), INT_FIELD(order_take_two), INT_FIELD(sector_depth),
    INT_FIELD(piece),
    /* the weights, in the order of Weights (search.h) and of evaluate.Weights */
    WEIGHT_FIELD(open_two), WEIGHT_FIELD(open_two_per_hand), WEIGHT_FIELD(close_one),
    WEIGHT_FIELD(close_more), WEIGHT_FIELD(closings_against), WEIGHT_FIELD(placing_mobility),
    WEIGHT_FIELD(placing_blocked), WEIGHT_FIELD(point_link), WEIGHT_FIELD(point_cross),
    WEIGHT_FIELD(placing_one_exit), WEIGHT_FIELD(placing_tempo), WEIGHT_FIELD(opponent_blocked),
    WEIGHT_FIELD(moving_mobility), WEIGHT_FIELD(moving_blocked), WEIGHT_FIELD(running_mill),
    WEIGHT_FIELD(threat), WEIGHT_FIELD(per_threat), WEIGHT_FIELD(per_threat_against),
    WEIGHT_FIELD(threats_against), WEIGHT_FIELD(contempt), WEIGHT_FIELD(placing_reductions),
    WEIGHT_FIELD(solved_draw),
};
#define N_FIELDS (sizeof(FIELDS) / sizeof(FIELDS[0]))

static PyObject *native_configure(PyObject *Py_UNUSED(module), PyObject *args, PyObject *kwds)
{
    if (PyTuple_GET_SIZE(args) != 0 || kwds == NULL ||
        PyDict_GET_SIZE(kwds) != (Py_ssize_t)N_FIELDS) {
        PyErr_Format(PyExc_TypeError, "configure() takes the %d constants as keywords",
                     (int)N_FIELDS);
        return NULL;
    }
    SearchParams p;
    memset(&p, 0, sizeof(p));
    for (size_t i = 0; i < N_FIELDS; i++) {
        PyObject *v = PyDict_GetItemString(kwds, FIELDS[i].name);
        if (v == NULL) {
            PyErr_Format(PyExc_TypeError, "configure(): %s missing", FIELDS[i].name);
            return NULL;
        }
        char *at = (char *)&p + FIELDS[i].offset;
        if (FIELDS[i].as == AS_U64) {
            unsigned long long u = PyLong_AsUnsignedLongLong(v);
            if (u == (unsigned long long)-1 && PyErr_Occurred())
                return NULL;
            *(uint64_t *)at = u;
            continue;
        }
        long long x = PyLong_AsLongLong(v);
        if (x == -1 && PyErr_Occurred())
            return NULL;
        int fits = FIELDS[i].as == AS_BB     ? x >= 0 && x <= (long long)UINT32_MAX
                   : FIELDS[i].as == AS_LONG ? x >= LONG_MIN && x <= LONG_MAX
                                             : x >= INT_MIN && x <= INT_MAX;
        if (!fits) {
            PyErr_Format(PyExc_ValueError, "configure(): %s=%lld is out of range",
                         FIELDS[i].name, x);
            return NULL;
        }
        if (FIELDS[i].as == AS_BB)
            *(bb *)at = (bb)x;
        else if (FIELDS[i].as == AS_LONG)
            *(long *)at = (long)x;
        else
            *(int *)at = (int)x;
    }
    const char *bad = search_configure(&p);
    if (bad != NULL) {
        PyErr_Format(PyExc_ValueError, "configure(): %s", bad);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *native_constants(PyObject *Py_UNUSED(module), PyObject *Py_UNUSED(ignored))
{
    const SearchParams *p = search_params();
    if (p == NULL)
        return PyDict_New();
    PyObject *out = PyDict_New();
    if (out == NULL)
        return NULL;
    for (size_t i = 0; i < N_FIELDS; i++) {
        const char *at = (const char *)p + FIELDS[i].offset;
        long long x = FIELDS[i].as == AS_BB     ? (long long)*(const bb *)at
                      : FIELDS[i].as == AS_LONG ? (long long)*(const long *)at
                      : FIELDS[i].as == AS_U64  ? 0
                                                : (long long)*(const int *)at;
        PyObject *v = FIELDS[i].as == AS_U64
                          ? PyLong_FromUnsignedLongLong(*(const uint64_t *)at)
                          : PyLong_FromLongLong(x);
        if (v == NULL || PyDict_SetItemString(out, FIELDS[i].name, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(v);
    }
    return out;
}

/* A turn of C's encoding (search.h) in movegen.py's: `none` (all ones) for no point. */
static long python_turn(int t)
{
    long none = search_params()->none;
    int bits = 0;
    while ((none >> bits) != 0)
        bits++;
    int frm = t & NO_POINT, to = t >> POINT_BITS & NO_POINT, rem = t >> 2 * POINT_BITS & NO_POINT;
    long second = t >> SECOND_SHIFT; /* the second removal plus one in both encodings */
    return (frm == NO_POINT ? none : frm) | (long)to << bits |
           (rem == NO_POINT ? none : rem) << 2 * bits | second << 3 * bits;
}

/* ------------------------------------------------------------------------------------------ */
/* the Core type                                                                               */

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
    unsigned long all = (unsigned long)search_params()->all_points;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == (unsigned long)-1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v & ~all) {
            PyErr_Format(PyExc_ValueError, "%s: %lu is not a set of the %d points", what, v,
                         search_params()->points);
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
 * type takes part in the garbage collector (and Search.release() breaks the cycle at once). */
static int Core_traverse(Core *self, visitproc visit, void *arg)
{
    Py_VISIT(self->check);
    Py_VISIT(self->probe);
    Py_VISIT((PyObject *)self->sectors);
    return 0;
}

static int Core_clear(Core *self)
{
    if (self->busy)
        return 0; /* the searching thread holds a reference: the collector cannot free it */
    Py_CLEAR(self->check);
    Py_CLEAR(self->probe);
    self->s.sectors = NULL;
    Py_CLEAR(self->sectors);
    return 0;
}

static void Core_dealloc(Core *self)
{
    PyObject_GC_UnTrack(self);
    Core_clear(self);
    search_release(&self->s);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Core_release(Core *self, PyObject *Py_UNUSED(ignored))
{
    if (check_idle(self) < 0)
        return NULL;
    Core_clear(self);
    search_release(&self->s);
    self->s.has_probe = 0;
    self->released = 1;
#ifdef __GLIBC__
    /* A table freed in a thread's arena (the daemon searches in a thread) stays resident until
     * the arena is trimmed: 8 MB after a level-7 search, kept between turns. */
    Py_BEGIN_ALLOW_THREADS
    malloc_trim(0);
    Py_END_ALLOW_THREADS
#endif
    Py_RETURN_NONE;
}

/* The weights given to a core (a sequence in the order of Weights) into *w. */
static int read_weights(PyObject *seq, Weights *w)
{
    PyObject *fast = PySequence_Fast(seq, "weights");
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != N_WEIGHTS) {
        PyErr_Format(PyExc_ValueError, "weights: %d numbers expected, not %zd", N_WEIGHTS,
                     PySequence_Fast_GET_SIZE(fast));
        Py_DECREF(fast);
        return -1;
    }
    int *out = (int *)w;
    for (int i = 0; i < N_WEIGHTS; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if ((v == -1 && PyErr_Occurred()) || v < -1000000 || v > 1000000) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "weights: %ld is out of range", v);
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

static int Core_init(Core *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"neighbours", "mill_masks", "mills_through", "layers",
                             "pieces_per_side", "flying", "threefold", "limit",
                             "full_board_is_draw", "zp", "zh", "zside", "zn", "path",
                             "root_index", "check", "probe", "table_cover", "tt_size",
                             "in_play", "move_while_placing", "remove_from_mills",
                             "double_mill_removes_two", "return_mill_barred", "weights",
                             "sector_cover", "sectors", NULL};
    PyObject *neighbours, *mill_masks, *mills_through, *layers, *zp, *zh, *zn, *path, *check,
        *probe, *table_cover, *weights = NULL, *sector_cover = NULL, *sectors = NULL;
    int pieces, flying, threefold, limit, full;
    int move_while_placing = 0, remove_from_mills = 0, double_mill = 0, barred = 0;
    unsigned long long zside;
    unsigned long in_play = (unsigned long)-1;
    Py_ssize_t root_index, tt_size;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOippipOOKOOnOOOn|$kppppOOO", kwlist,
                                     &neighbours, &mill_masks, &mills_through, &layers, &pieces,
                                     &flying, &threefold, &limit, &full, &zp, &zh, &zside, &zn,
                                     &path, &root_index, &check, &probe, &table_cover, &tt_size,
                                     &in_play, &move_while_placing, &remove_from_mills,
                                     &double_mill, &barred, &weights, &sector_cover,
                                     &sectors))
        return -1;
    Search *s = &self->s;
    if (s->tt != NULL || s->zn != NULL || self->released) {
        PyErr_SetString(PyExc_RuntimeError, "Core is already initialised");
        return -1;
    }
    const SearchParams *params = search_params();
    if (params == NULL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Core: configure() was not called (search.py calls it at import)");
        return -1;
    }
    int points = params->points;
    if (pieces < 3 || pieces > MAX_HAND) {
        PyErr_Format(PyExc_ValueError, "pieces_per_side must be 3..%d, not %d", MAX_HAND, pieces);
        return -1;
    }
    if (read_masks(neighbours, s->neighbours, points, "neighbours") != points) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "neighbours: %d masks expected", points);
        return -1;
    }
    s->n_layers = read_masks(layers, s->layers, MAX_LAYERS, "layers");
    if (s->n_layers < 0)
        return -1;
    s->n_masks = read_masks(mill_masks, s->mill_masks, MAX_MASKS, "mill_masks");
    if (s->n_masks < 0)
        return -1;
    PyObject *through = PySequence_Fast(mills_through, "mills_through");
    if (through == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(through) != points) {
        Py_DECREF(through);
        PyErr_Format(PyExc_ValueError, "mills_through: %d entries expected", points);
        return -1;
    }
    for (int p = 0; p < points; p++) {
        s->n_through[p] = read_masks(PySequence_Fast_GET_ITEM(through, p), s->mills_through[p],
                                     MAX_THROUGH, "mills_through");
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
    /* Optional: the standard game's settings and the configured (standard) weights. */
    if (in_play == (unsigned long)-1)
        in_play = (unsigned long)params->all_points;
    if (in_play & ~(unsigned long)params->all_points) {
        PyErr_Format(PyExc_ValueError, "in_play: %lu is not a set of the %d points", in_play,
                     points);
        return -1;
    }
    s->in_play = (bb)in_play;
    s->move_while_placing = move_while_placing;
    s->remove_from_mills = remove_from_mills;
    s->double_mill = double_mill;
    s->return_mill_barred = barred;
    s->w = params->weights;
    s->piece = params->piece;
    if (weights != NULL && weights != Py_None && read_weights(weights, &s->w) < 0)
        return -1;
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
        if (read_keys(PySequence_Fast_GET_ITEM(zp_fast, c), s->zp[c], points, "zp") < 0 ||
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
    s->zn = host_calloc((size_t)n_zn, sizeof(uint64_t));
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
    s->path = host_calloc((size_t)s->path_cap, sizeof(uint64_t));
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
    self->check = check;
    if (probe != Py_None) {
        Py_INCREF(probe);
        self->probe = probe;
        s->has_probe = 1;
    }
    /* search.py, _table_cover: by the mover's pieces, the other's counts answered */
    s->n_cover = read_masks(table_cover, s->table_cover, MAX_POINTS + 1, "table_cover");
    if (s->n_cover < 0)
        return -1;
    /* and the counts only the solution's sectors answer (asked from P.sector_depth on) */
    s->n_sector = 0;
    if (sector_cover != NULL && sector_cover != Py_None) {
        s->n_sector = read_masks(sector_cover, s->sector_cover, MAX_POINTS + 1, "sector_cover");
        if (s->n_sector < 0)
            return -1;
    }
    if (sectors != NULL && sectors != Py_None) {
        if (!PyObject_TypeCheck(sectors, &SectorsType)) {
            PyErr_SetString(PyExc_TypeError, "sectors: a Sectors or None expected");
            return -1;
        }
        Py_INCREF(sectors);
        self->sectors = (SectorsObject *)sectors;
        s->sectors = &self->sectors->t;
    }
    if (search_start(s, (long long)tt_size) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyObject *Core_root_move(Core *self, PyObject *args)
{
    unsigned long us, them;
    int uh, th, c, nrc, depth, alpha, beta, irreversible, bar = 0, obar = 0;
    unsigned long long key;
    if (!PyArg_ParseTuple(args, "kkiiiKiiiip|ii", &us, &them, &uh, &th, &c, &key, &nrc, &depth,
                          &alpha, &beta, &irreversible, &bar, &obar))
        return NULL;
    Search *s = &self->s;
    if (check_idle(self) < 0)
        return NULL;
    if (s->tt == NULL) {
        PyErr_SetString(PyExc_RuntimeError,
                        self->released ? "Core was released" : "Core was not initialised");
        return NULL;
    }
    if ((us | them) & ~(unsigned long)search_params()->all_points || (us & them) || uh < 0 ||
        th < 0 || c < 0 || c > 1 || depth >= MAX_PLY - 2 || nrc < 0 || bar < 0 || obar < 0 ||
        bar > 24 * 24 || obar > 24 * 24) {
        PyErr_SetString(PyExc_ValueError, "root_move: not a position of the board");
        return NULL;
    }
    if (s->path_len + MAX_PLY > s->path_cap) {
        PyErr_SetString(PyExc_RuntimeError, "root_move: the repetition path is full");
        return NULL;
    }
    if (self->sectors != NULL && self->sectors->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Core: its Sectors are read by another search");
        return NULL;
    }
    int score;
    /* The callbacks (bound methods of the Python search) stay alive: the caller holds the
     * search, which holds them; busy keeps release() and the collector off them. */
    self->busy = 1;
    if (self->sectors != NULL)
        self->sectors->busy = 1;
    drop_lock(self);
    int failed = search_root_move(s, (bb)us, (bb)them, uh, th, c, key, nrc, depth, alpha, beta,
                                  irreversible, bar, obar, &score) < 0;
    hold_lock(self);
    self->busy = 0;
    if (self->sectors != NULL)
        self->sectors->busy = 0;
    if (failed) {
        if (!PyErr_Occurred())
            PyErr_NoMemory(); /* the transposition table could not grow */
        return NULL;
    }
    return PyLong_FromLong(score);
}

static PyObject *Core_evaluate(Core *self, PyObject *args)
{
    unsigned long us, them;
    int uh, th;
    if (!PyArg_ParseTuple(args, "kkii", &us, &them, &uh, &th))
        return NULL;
    return PyLong_FromLong(search_evaluate(&self->s, (bb)us, (bb)them, uh, th));
}

static PyObject *Core_generate(Core *self, PyObject *args)
{
    unsigned long us, them;
    int uh, bar = 0;
    if (!PyArg_ParseTuple(args, "kki|i", &us, &them, &uh, &bar))
        return NULL;
    static turn mills[MAX_TURNS], quiet[MAX_QUIET]; /* the interpreter lock is held */
    int nm, nq;
    search_generate(&self->s, (bb)us, (bb)them, uh, bar, mills, &nm, quiet, &nq);
    PyObject *a = PyList_New(nm), *b = PyList_New(nq);
    if (a == NULL || b == NULL) {
        Py_XDECREF(a);
        Py_XDECREF(b);
        return NULL;
    }
    for (int i = 0; i < nm; i++)
        PyList_SET_ITEM(a, i, PyLong_FromLong(python_turn(mills[i])));
    for (int i = 0; i < nq; i++)
        PyList_SET_ITEM(b, i, PyLong_FromLong(python_turn(quiet[i])));
    return Py_BuildValue("NN", a, b);
}

static PyObject *Core_tt_get(Core *self, PyObject *arg)
{
    if (check_idle(self) < 0) /* the table may be growing under it */
        return NULL;
    unsigned long long key = PyLong_AsUnsignedLongLong(arg);
    if (key == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    const TTEntry *e = search_tt_find(&self->s, key);
    if (e == NULL)
        Py_RETURN_NONE;
    return Py_BuildValue("iiil", (int)e->depth, (int)(e->stamp & 3), (int)e->score,
                         python_turn((int)e->move));
}

static PyMethodDef Core_methods[] = {
    {"root_move", (PyCFunction)Core_root_move, METH_VARARGS,
     "root_move(us, them, uh, th, colour, key, nrc, depth, alpha, beta, irreversible[, bar,\n"
     "obar])\n"
     "The negamax score (for the side to move there) of a child of the root at ply 1."},
    {"evaluate", (PyCFunction)Core_evaluate, METH_VARARGS,
     "evaluate(us, them, us_hand, them_hand): the static evaluation for the side to move."},
    {"generate", (PyCFunction)Core_generate, METH_VARARGS,
     "generate(us, them, us_hand[, bar]): (mill_turns, quiet_turns), as movegen.generate."},
    {"release", (PyCFunction)Core_release, METH_NOARGS,
     "release(): free the tables and drop the callbacks now (the core cannot search after it)."},
    {"tt_get", (PyCFunction)Core_tt_get, METH_O,
     "tt_get(key): (depth, flag, score, move) of the table entry, or None."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef Core_members[] = {
    {"nodes", T_LONGLONG, offsetof(Core, s.nodes), 0, "nodes searched so far"},
    {"check_at", T_LONGLONG, offsetof(Core, s.check_at), 0, "node count of the next check()"},
    {"tt_entries", T_LONG, offsetof(Core, s.tt_count), READONLY, "entries in the table"},
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

/* ------------------------------------------------------------------------------------------ */
/* Sectors: the solved game's sectors read by the C search                                     */

static int Sectors_init(SectorsObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"images", "sectors", "fetch", "cache_bytes", NULL};
    PyObject *images, *sectors, *fetch;
    Py_ssize_t cache_bytes;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOn", kwlist, &images, &sectors, &fetch,
                                     &cache_bytes))
        return -1;
    Sectors *t = &self->t;
    if (t->sector != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Sectors is already initialised");
        return -1;
    }
    if (!PyCallable_Check(fetch)) {
        PyErr_SetString(PyExc_TypeError, "fetch: a callable expected");
        return -1;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(images, &view, PyBUF_SIMPLE) < 0)
        return -1;
    if ((size_t)view.len != sizeof t->images) {
        PyErr_Format(PyExc_ValueError, "images: %zu bytes expected, not %zd", sizeof t->images,
                     view.len);
        PyBuffer_Release(&view);
        return -1;
    }
    memcpy(t->images, view.buf, sizeof t->images);
    PyBuffer_Release(&view);
    PyObject *fast = PySequence_Fast(sectors, "sectors");
    if (fast == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    self->keep = PyList_New(0);
    t->sector = PyMem_RawCalloc(n > 0 ? (size_t)n : 1, sizeof(Sector));
    if (self->keep == NULL || t->sector == NULL) {
        Py_DECREF(fast);
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        return -1;
    }
    size_t slot_bytes = 2;
    for (Py_ssize_t i = 0; i < n; i++) {
        Sector *sec = &t->sector[i];
        PyObject *reps;
        long long per_rep, entries, block;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "iiSLLLi", &sec->mover,
                              &sec->other, &reps, &per_rep, &entries, &block, &sec->itemsize) ||
            PyList_Append(self->keep, reps) < 0) {
            Py_DECREF(fast);
            return -1;
        }
        sec->reps = (const uint32_t *)(const void *)PyBytes_AS_STRING(reps);
        sec->n_reps = PyBytes_GET_SIZE(reps) / (Py_ssize_t)sizeof(uint32_t);
        sec->per_rep = per_rep;
        sec->entries = entries;
        sec->block = block;
        if (block > 0 && sec->itemsize > 0 && (size_t)block * (size_t)sec->itemsize > slot_bytes)
            slot_bytes = (size_t)block * (size_t)sec->itemsize;
    }
    Py_DECREF(fast);
    t->n_sector = (int)n;
    t->slot_bytes = slot_bytes;
    const char *bad = n > 32767 ? "more sectors than the lookup holds" : sectors_setup(t);
    if (bad != NULL) {
        PyErr_SetString(PyExc_ValueError, bad);
        return -1;
    }
    Py_ssize_t slots = cache_bytes / (Py_ssize_t)slot_bytes;
    t->n_sets = slots < SECTOR_WAYS ? 1 : slots / SECTOR_WAYS;
    /* calloc: the arena's pages are taken only as blocks fill them */
    t->slots = PyMem_RawCalloc((size_t)t->n_sets * SECTOR_WAYS, sizeof(Slot));
    t->arena = PyMem_RawCalloc((size_t)t->n_sets * SECTOR_WAYS, slot_bytes);
    if (t->slots == NULL || t->arena == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Py_INCREF(fetch);
    self->fetch = fetch;
    return 0;
}

static int Sectors_traverse(SectorsObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->fetch);
    return 0;
}

static int Sectors_clear(SectorsObject *self)
{
    if (self->busy)
        return 0; /* a search reads it: its core holds a reference */
    Py_CLEAR(self->fetch);
    return 0;
}

static void Sectors_dealloc(SectorsObject *self)
{
    PyObject_GC_UnTrack(self);
    Py_CLEAR(self->fetch);
    Py_CLEAR(self->keep);
    PyMem_RawFree(self->t.sector);
    PyMem_RawFree(self->t.slots);
    PyMem_RawFree(self->t.arena);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Sectors_code(SectorsObject *self, PyObject *args)
{
    unsigned long mover, other;
    if (!PyArg_ParseTuple(args, "kk", &mover, &other))
        return NULL;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Sectors: a search reads them (in another thread)");
        return NULL;
    }
    if (self->t.sector == NULL || self->fetch == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Sectors was not initialised");
        return NULL;
    }
    if ((mover | other) >> SYM_POINTS) {
        PyErr_SetString(PyExc_ValueError, "code: not a position of the board");
        return NULL;
    }
    int code;
    int got = sectors_code(&self->t, (uint32_t)mover, (uint32_t)other, &code);
    if (got < 0)
        return NULL;
    if (got == 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(code);
}

static PyObject *Sectors_cached(SectorsObject *self, PyObject *Py_UNUSED(ignored))
{
    long n = 0;
    for (int64_t i = 0; self->t.slots != NULL && i < self->t.n_sets * SECTOR_WAYS; i++)
        n += self->t.slots[i].key != 0;
    return PyLong_FromLong(n);
}

static PyMethodDef Sectors_methods[] = {
    {"code", (PyCFunction)Sectors_code, METH_VARARGS,
     "code(mover, other): the stored distance code of a moving-phase position (distance + 1,\n"
     "0 a draw), read as the search reads it; None where no sector answers."},
    {"cached", (PyCFunction)Sectors_cached, METH_NOARGS,
     "cached(): the blocks the cache holds now."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef Sectors_members[] = {
    {"probes", T_LONGLONG, offsetof(SectorsObject, t.probes), READONLY,
     "positions read so far"},
    {"misses", T_LONGLONG, offsetof(SectorsObject, t.misses), READONLY,
     "blocks fetched so far (not in the cache)"},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject SectorsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "morris.engine._native.Sectors",
    .tp_basicsize = sizeof(SectorsObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Sectors(images, sectors, fetch, cache_bytes): the solved game's moving-phase\n"
              "sectors read by the C search, with a cache of decompressed blocks.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Sectors_init,
    .tp_dealloc = (destructor)Sectors_dealloc,
    .tp_traverse = (traverseproc)Sectors_traverse,
    .tp_clear = (inquiry)Sectors_clear,
    .tp_methods = Sectors_methods,
    .tp_members = Sectors_members,
};

/* ------------------------------------------------------------------------------------------ */
/* the module                                                                                  */

static PyMethodDef module_methods[] = {
    {"configure", (PyCFunction)(void (*)(void))native_configure, METH_VARARGS | METH_KEYWORDS,
     "configure(**constants): the constants of the Python source, once before any Core\n"
     "(search.py calls it at import). Raises ValueError for values the C code cannot hold."},
    {"constants", (PyCFunction)native_constants, METH_NOARGS,
     "constants(): the constants configure() stored, by keyword ({} before it)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "morris.engine._native",
    "The search's inner loop in C: the same results as search.py, faster.", -1, module_methods,
};

PyMODINIT_FUNC PyInit__native(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    /* PyModule_AddType: readies the type, adds it under its short name, keeps the reference */
    if (PyModule_AddType(m, &CoreType) < 0 || PyModule_AddType(m, &SectorsType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
