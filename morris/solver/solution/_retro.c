/*
 * morris.solver.solution._retro: the CPython glue of the solved game's retrograde analysis
 * (native/retro.h; the moving phase in native/moving.c, the placing phase in native/placing.c).
 *
 * Here: the module, the System type (a moving-phase unit, wrapping a C System) and the Placing
 * type (a placing sector, wrapping a C Placing), which check their arguments and the caller's
 * buffers and fill the C structs from them (the board, the canonical sets of each size read,
 * the work arrays and the codes the solvers read, held until the object goes), and the host
 * side of retro.h (memory from Python's raw allocator, so tracemalloc sees it).
 *
 * The Python side (morris/solver/solution/solve.py, ranges.py) drives them: System(...) then
 * set_up(), level(L) for each distance in turn and finish(); Placing(...).solve(start, stop,
 * out). Each releases the interpreter lock while the C solver computes (a Dask worker keeps its
 * heartbeat); an object refuses a second call while one runs in another thread (`busy`).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "native/retro.h"

/* ---------------------------------------------------------------------------------------- */
/* The host side of retro.h.                                                                  */

/* The raw domain: callable without the interpreter lock, and tracemalloc still sees it. */
void *host_malloc(size_t size) { return PyMem_RawMalloc(size); }

void host_free(void *p) { PyMem_RawFree(p); }

/* ---------------------------------------------------------------------------------------- */
/* What both types hold.                                                                      */

#define MAX_VIEWS 16 /* board 3, representatives 4, work and counts 4, removal targets 2 */

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
    sym_fill_comb(B->comb);
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
    C->count = (size_t)(v->len / 4);
    uint64_t all = B->comb[POINTS][size];
    C->rank = PyMem_RawMalloc(all * sizeof *C->rank);
    C->sym = PyMem_RawMalloc(all * sizeof *C->sym);
    C->stab = PyMem_RawCalloc(C->count ? C->count : 1, sizeof *C->stab);
    if (C->rank == NULL || C->sym == NULL || C->stab == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memset(C->rank, 0xFF, all * sizeof *C->rank);
    for (size_t i = 0; i < C->count; i++) {
        bb x = C->reps[i];
        int s;
        if ((x & ~FULL) || count_points(x) != size || (i > 0 && x <= C->reps[i - 1]) ||
            canonical(B, x, &s) != x) {
            PyErr_Format(PyExc_ValueError, "%s: item %zu (0x%x) is not a canonical set of %d "
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

/* ---------------------------------------------------------------------------------------- */
/* The System type: a moving-phase unit (native/moving.c).                                    */

typedef struct {
    PyObject_HEAD
    Shared sh;
    System sys; /* its board is sh's */
    int busy;
    int finished;
} SystemObject;

static void System_dealloc(SystemObject *self)
{
    shared_release(&self->sh);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int System_init(SystemObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"mover", "other", "images", "neighbours", "mill_masks",
                             "representatives", "work", "counts", "removal_targets", "threads", NULL};
    int m, o, threads = 1;
    PyObject *images, *neighbours, *mills, *reps, *work, *counts, *removal_targets;
    if (self->sh.views_held) {
        PyErr_SetString(PyExc_RuntimeError, "System is initialised once");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOOOOOOO|$i", kwlist, &m, &o, &images,
                                     &neighbours, &mills, &reps, &work, &counts, &removal_targets,
                                     &threads))
        return -1;
    if (threads < 1) {
        PyErr_Format(PyExc_ValueError, "threads must be at least 1, not %d", threads);
        return -1;
    }
    System *S = &self->sys;
    S->threads = threads;
    if (m < MIN_PIECES || o < MIN_PIECES || m > MAX_PIECES || o > MAX_PIECES) {
        PyErr_Format(PyExc_ValueError, "pieces must be %d..%d a side, not %dv%d", MIN_PIECES,
                     MAX_PIECES, m, o);
        return -1;
    }
    if (set_board(&self->sh, images, neighbours, mills) < 0)
        return -1;
    S->board = &self->sh.board;
    S->parts = m == o ? 1 : 2;
    for (const char *name = "work"; name; name = name[0] == 'w' ? "counts" : NULL) {
        PyObject *seq = name[0] == 'w' ? work : counts;
        if (!PySequence_Check(seq) || PySequence_Size(seq) != S->parts) {
            PyErr_Format(PyExc_ValueError, "%s: one array per sector, %d for %dv%d", name,
                         S->parts, m, o);
            return -1;
        }
    }
    if (!PySequence_Check(removal_targets) || PySequence_Size(removal_targets) != S->parts) {
        PyErr_Format(PyExc_ValueError, "removal_targets: one array (or None) per sector, %d for %dv%d",
                     S->parts, m, o);
        return -1;
    }
    for (int i = 0; i < S->parts; i++) {
        Part *P = &S->part[i];
        int pm = i == 0 ? m : o, po = i == 0 ? o : m;
        char what[64];
        if (set_index(&self->sh, reps, &P->index, pm, po) < 0)
            return -1;
        P->partner = S->parts == 1 ? 0 : 1 - i;
        P->flies = pm == MIN_PIECES;
        PyObject *w = PySequence_GetItem(work, i), *c = PySequence_GetItem(counts, i),
                 *cap = PySequence_GetItem(removal_targets, i);
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
            PyErr_Format(PyExc_ValueError, "removal_targets[%d]: %s for %dv%d", i,
                         wins ? "must be None (a removal leaves two)" : "the codes of the "
                         "sector a removal leads to are needed", pm, po);
            bad = 1;
        }
        if (!bad && !wins) {
            bad = set_index(&self->sh, reps, &P->cap_index, po - 1, pm) < 0;
            snprintf(what, sizeof what, "removal_targets[%d] (%dv%d)", i, po - 1, pm);
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

static int enter(SystemObject *self)
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
        PyErr_Format(PyExc_ValueError, "removal_targets: a code of %d or more", MAX_LEVEL);
    else
        PyErr_SetString(PyExc_ValueError, "counts: an entry has more won successors than it "
                        "has successors (work arrays changed between calls?)");
    return NULL;
}

static PyObject *System_set_up(SystemObject *self, PyObject *args)
{
    const System *S = &self->sys;
    int which;
    unsigned long long start, stop;
    if (!PyArg_ParseTuple(args, "iKK", &which, &start, &stop))
        return NULL;
    if (which < 0 || which >= S->parts) {
        PyErr_Format(PyExc_ValueError, "part must be 0..%d, not %d", S->parts - 1, which);
        return NULL;
    }
    if (enter(self) < 0)
        return NULL;
    if (start > stop || stop > S->part[which].index.size) {
        self->busy = 0;
        PyErr_Format(PyExc_ValueError, "entries %llu..%llu outside 0..%llu", start, stop,
                     (unsigned long long)S->part[which].index.size);
        return NULL;
    }
    int err;
    Py_BEGIN_ALLOW_THREADS
    err = system_set_up(S, which, start, stop);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    if (err)
        return fail(err);
    Py_RETURN_NONE;
}

static PyObject *System_level(SystemObject *self, PyObject *args)
{
    System *S = &self->sys;
    unsigned level;
    if (!PyArg_ParseTuple(args, "I", &level))
        return NULL;
    if (level >= MAX_LEVEL) {
        PyErr_Format(PyExc_OverflowError, "distance %u: distances stop at %d", level, MAX_LEVEL);
        return NULL;
    }
    if (enter(self) < 0)
        return NULL;
    if (level != S->level) {
        self->busy = 0;
        PyErr_Format(PyExc_ValueError, "level %u: the next distance to decide is %u", level,
                     S->level);
        return NULL;
    }
    int later, err;
    uint64_t found;
    Py_BEGIN_ALLOW_THREADS
    err = system_level(S, &found, &later);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    if (err)
        return fail(err);
    return Py_BuildValue("KO", (unsigned long long)found, later ? Py_True : Py_False);
}

static PyObject *System_finish(SystemObject *self, PyObject *Py_UNUSED(ignored))
{
    const System *S = &self->sys;
    if (enter(self) < 0)
        return NULL;
    long longest[2];
    Py_BEGIN_ALLOW_THREADS
    system_finish(S, longest);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    self->finished = 1;
    return S->parts == 1 ? Py_BuildValue("(l)", longest[0])
                         : Py_BuildValue("(ll)", longest[0], longest[1]);
}

static PyObject *System_sizes(SystemObject *self, void *Py_UNUSED(closure))
{
    const System *S = &self->sys;
    if (S->parts == 1)
        return Py_BuildValue("(K)", (unsigned long long)S->part[0].index.size);
    return Py_BuildValue("(KK)", (unsigned long long)S->part[0].index.size,
                         (unsigned long long)S->part[1].index.size);
}

static PyMethodDef System_methods[] = {
    {"set_up", (PyCFunction)System_set_up, METH_VARARGS,
     "set_up(part, start, stop): the setup pass over entries start..stop - 1 of a sector."},
    {"level", (PyCFunction)System_level, METH_VARARGS,
     "level(distance) -> (entries decided at it, whether any is due later)."},
    {"finish", (PyCFunction)System_finish, METH_NOARGS,
     "finish() -> the longest distance per sector (-1: none); the work arrays hold the codes."},
    {NULL, NULL, 0, NULL},
};

static PyObject *System_threads(SystemObject *self, void *Py_UNUSED(closure))
{
    return PyLong_FromLong(self->sys.threads);
}

static PyGetSetDef System_getset[] = {
    {"sizes", (getter)System_sizes, NULL, "Entries of each sector of the system.", NULL},
    {"threads", (getter)System_threads, NULL, "Threads of each pass.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SystemType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "morris.solver.solution._retro.System",
    .tp_doc = "A moving-phase unit being solved by retrograde analysis in the symmetric index.",
    .tp_basicsize = sizeof(SystemObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)System_init,
    .tp_dealloc = (destructor)System_dealloc,
    .tp_methods = System_methods,
    .tp_getset = System_getset,
};

/* ---------------------------------------------------------------------------------------- */
/* The Placing type: a placing sector (native/placing.c).                                     */

typedef struct {
    PyObject_HEAD
    Shared sh;
    Placing placing; /* its board is sh's */
    int busy;
} PlacingObject;

static void Placing_dealloc(PlacingObject *self)
{
    shared_release(&self->sh);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Placing_init(PlacingObject *self, PyObject *args, PyObject *kwds)
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
    Placing *P = &self->placing;
    P->board = &self->sh.board;
    if (set_index(&self->sh, reps, &P->index, m, o) < 0 ||
        set_index(&self->sh, reps, &P->quiet, o, m + 1) < 0)
        return -1;
    char what[64];
    snprintf(what, sizeof what, "quiet (%dv%d)", o, m + 1);
    if (get_codes(&self->sh, quiet, &P->quiet, what, &P->quiet_codes,
                  &P->quiet_width) < 0)
        return -1;
    P->removes = o > 0;
    P->wins_at_once = P->removes && wins;
    int needs = P->removes && !wins; /* a removal leads to (o - 1, m + 1) */
    if (needs != (removal != Py_None)) {
        PyErr_Format(PyExc_ValueError, "removal: %s for %dv%d", needs ? "the codes of the "
                     "sector a removal leads to are needed" : "must be None (no removal "
                     "leads to a sector)", m, o);
        return -1;
    }
    if (needs) {
        if (set_index(&self->sh, reps, &P->cap, o - 1, m + 1) < 0)
            return -1;
        snprintf(what, sizeof what, "removal (%dv%d)", o - 1, m + 1);
        if (get_codes(&self->sh, removal, &P->cap, what, &P->cap_codes,
                      &P->cap_width) < 0)
            return -1;
    }
    return 0;
}

static PyObject *Placing_solve(PlacingObject *self, PyObject *args, PyObject *kwds)
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
    if (start > stop || stop > self->placing.index.size) {
        PyErr_Format(PyExc_ValueError, "entries %llu..%llu outside 0..%llu", start, stop,
                     (unsigned long long)self->placing.index.size);
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
    err = placing_solve(&self->placing, start, stop, view.buf,
                        skip != Py_None ? known.buf : NULL);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    if (skip != Py_None)
        PyBuffer_Release(&known);
    PyBuffer_Release(&view);
    if (err)
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *Placing_size(PlacingObject *self, void *Py_UNUSED(closure))
{
    return PyLong_FromUnsignedLongLong(self->placing.index.size);
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
    .tp_basicsize = sizeof(PlacingObject),
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
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    /* PyModule_AddType: readies the type, adds it under its short name, keeps the reference */
    if (PyModule_AddType(m, &SystemType) < 0 || PyModule_AddType(m, &PlacingType) < 0 ||
        PyModule_AddIntConstant(m, "MAX_LEVEL", MAX_LEVEL) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
