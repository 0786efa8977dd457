/*
 * The solved game's moving-phase sectors, read by the C search itself (sectors.c).
 *
 * The search asks a sector at a node only the solution answers (search.py, _table_cover): the
 * stored distance code of the position (solution/storage.py: distance + 1, 0 a draw). Here the
 * position's entry is computed (the symmetry-reduced index of solution/symmetry.py:
 * SymmetricIndex.index_one) and read from a block of the sector's distance section held in a
 * cache of decompressed blocks. Only a block the cache does not hold goes to the host
 * (host_block(): the glue asks Python, which decompresses and checks it), so a probe that hits
 * the cache costs a fraction of a microsecond where the Python probe cost several.
 *
 * Plain C, no Python: the glue (../_native.c) fills a Sectors from the solution's files. The
 * symmetries' byte images, the canonical sets and the sectors' shapes all come from Python
 * (symmetry.py, storage.py); the index itself is symindex.h, the solver's too.
 */
#ifndef MORRIS_NATIVE_SECTORS_H
#define MORRIS_NATIVE_SECTORS_H

#include <stddef.h>
#include <stdint.h>

#include "symindex.h"

#define SECTOR_WAYS 4      /* the block cache: a set of 4 slots, the least recently used goes */

/* One moving-phase sector: `mover` pieces of the side to move against `other`. */
typedef struct {
    int mover, other;
    const uint32_t *reps; /* the canonical sets of `mover` points, sorted (symmetry.py) */
    int64_t n_reps;
    int64_t per_rep;      /* entries of one canonical set: C(24 - mover, other) */
    int64_t entries;
    int64_t block;        /* entries of a block of the distance section */
    int itemsize;         /* bytes of a distance code: 1 or 2 */
    int dead;             /* the host no longer has its file: it answers nothing */
} Sector;

typedef struct {
    uint64_t key;  /* (sector << 40 | block) + 1; 0: empty */
    uint64_t used; /* the cache's clock at the last use */
} Slot;

typedef struct {
    SymImages images; /* symmetry s of byte b being v (symmetry.py) */
    SymComb comb;
    Sector *sector;
    int n_sector;
    int16_t by_count[SYM_POINTS + 1][SYM_POINTS + 1]; /* sector by pieces, -1: none */
    Slot *slots;
    uint8_t *arena;    /* slot i's block at arena + i * slot_bytes */
    int64_t n_sets;
    size_t slot_bytes;
    uint64_t clock;
    long long probes, misses;
} Sectors;

/* Provided by the host: block `block` of sector `sector`'s distance codes, decompressed, into
 * `dst` (`bytes` bytes). 1 read; 0 the host no longer has the sector's file (damaged: it was
 * dropped); -1 failed (the host's error is set). */
int host_block(Sectors *t, int sector, int64_t block, uint8_t *dst, size_t bytes);

/* Sets the binomial table and the lookup by pieces; the caller has filled images and sector.
 * NULL, or what is wrong (a sector that does not fit the board). */
const char *sectors_setup(Sectors *t);

/* The entry of a position (bitboards of the side to move and of the other) in its sector's
 * index; -1 if `mover` is not a set of the sector's size. */
int64_t sectors_index(const Sectors *t, const Sector *sec, uint32_t mover, uint32_t other);

/* The stored distance code of a position into *code: 1 answered, 0 no sector answers it, -1
 * the host failed (its error set). */
int sectors_code(Sectors *t, uint32_t mover, uint32_t other, int *code);

#endif
