/*
 * The solved game's sectors read by the C search: the position's entry and a cache of
 * decompressed blocks (sectors.h). The index (symindex.h) is SymmetricIndex.index_one of
 * solution/symmetry.py, step for step; tests/solution/test_native_sectors.py compares the two
 * on every moving-phase sector of a built solution.
 */
#include "sectors.h"

const char *sectors_setup(Sectors *t)
{
    sym_fill_comb(t->comb);
    for (int m = 0; m <= SYM_POINTS; m++)
        for (int o = 0; o <= SYM_POINTS; o++)
            t->by_count[m][o] = -1;
    for (int i = 0; i < t->n_sector; i++) {
        Sector *sec = &t->sector[i];
        if (sec->mover < 0 || sec->other < 0 || sec->mover + sec->other > SYM_POINTS)
            return "a sector of more pieces than the board has points";
        if (sec->per_rep != (int64_t)t->comb[SYM_POINTS - sec->mover][sec->other])
            return "a sector whose entries per canonical set are not C(24 - mover, other)";
        if (sec->entries != sec->n_reps * sec->per_rep)
            return "a sector whose entries are not its canonical sets times their entries";
        if (sec->itemsize != 1 && sec->itemsize != 2)
            return "a distance code of other than 1 or 2 bytes";
        if (sec->block < 1 || (size_t)sec->block * (size_t)sec->itemsize > t->slot_bytes)
            return "a block larger than the cache's slots";
        if (t->by_count[sec->mover][sec->other] >= 0)
            return "two sectors of the same pieces";
        t->by_count[sec->mover][sec->other] = (int16_t)i;
    }
    return NULL;
}

int64_t sectors_index(const Sectors *t, const Sector *sec, uint32_t mover, uint32_t other)
{
    int sym;
    uint32_t canon = sym_canonical(&t->images[0][0][0], mover, &sym);
    /* its rank among the canonical sets (bisect_left) */
    int64_t lo = 0, hi = sec->n_reps;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (sec->reps[mid] < canon)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == sec->n_reps || sec->reps[lo] != canon)
        return -1;
    /* the other side, moved by the same symmetry, ranked over the points canon leaves free */
    uint32_t moved = sym ? sym_transform(&t->images[0][0][0], other, sym) : other;
    return lo * sec->per_rep + (int64_t)sym_colex(&t->comb[0][0], moved, canon);
}

/* The block `b` of sector `i`, through the cache; NULL if the host has no answer (*failed set
 * when it failed). */
static const uint8_t *block_of(Sectors *t, int i, int64_t b, int *failed)
{
    uint64_t key = ((uint64_t)i << 40 | (uint64_t)b) + 1;
    uint64_t set = (key * 0x9E3779B97F4A7C15ull >> 17) % (uint64_t)t->n_sets;
    Slot *slots = t->slots + set * SECTOR_WAYS;
    int oldest = 0;
    for (int w = 0; w < SECTOR_WAYS; w++) {
        if (slots[w].key == key) {
            slots[w].used = ++t->clock;
            return t->arena + (size_t)(set * SECTOR_WAYS + (uint64_t)w) * t->slot_bytes;
        }
        if (slots[w].used < slots[oldest].used)
            oldest = w;
    }
    t->misses++;
    const Sector *sec = &t->sector[i];
    int64_t length = sec->entries - b * sec->block;
    if (length > sec->block)
        length = sec->block;
    uint8_t *dst = t->arena + (size_t)(set * SECTOR_WAYS + (uint64_t)oldest) * t->slot_bytes;
    slots[oldest].key = 0; /* its old block is overwritten */
    slots[oldest].used = 0;
    int got = host_block(t, i, b, dst, (size_t)length * (size_t)sec->itemsize);
    if (got <= 0) {
        *failed = got < 0;
        return NULL;
    }
    slots[oldest].key = key;
    slots[oldest].used = ++t->clock;
    return dst;
}

int sectors_code(Sectors *t, uint32_t mover, uint32_t other, int *code)
{
    int m = sym_count(mover), o = sym_count(other);
    int i = t->by_count[m][o];
    if (i < 0 || t->sector[i].dead || (mover & other))
        return 0;
    Sector *sec = &t->sector[i];
    int64_t index = sectors_index(t, sec, mover, other);
    if (index < 0)
        return 0;
    t->probes++;
    int failed = 0;
    const uint8_t *data = block_of(t, i, index / sec->block, &failed);
    if (data == NULL) {
        if (failed)
            return -1;
        sec->dead = 1; /* the host dropped its file: never asked again */
        return 0;
    }
    int64_t r = index % sec->block;
    *code = sec->itemsize == 1 ? data[r] : ((const uint16_t *)(const void *)data)[r];
    return 1;
}
