/*
 * The symmetry-reduced index of the solved game's sectors (morris/engine/solution/symmetry.py)
 * in C, shared by the search's reader of the sectors (sectors.c) and the solver
 * (morris/solver/solution/native/retro.h):
 *
 *     entry = rank(canonical M) * C(24 - m, o) + colex rank(compress(s(O)))
 *
 * with s the first of the 16 symmetries that makes the mover's set M canonical (its least
 * image) and compress renumbering O's points over the points the canonical M leaves free. The
 * symmetries' byte images come from Python (symmetry.IMAGES); the binomials are filled here.
 */
#ifndef MORRIS_NATIVE_SYMINDEX_H
#define MORRIS_NATIVE_SYMINDEX_H

#include <stdint.h>

#define SYM_POINTS 24
#define SYM_COUNT 16

/* Both tables are passed flat (a const array of arrays does not take a plain one in C):
 * image[s][b][v], byte b (points 8b..8b+7) being v moved by symmetry s, at (s * 3 + b) * 256 + v;
 * comb[n][k] = C(n, k) at n * SYM_STRIDE + k. */
#define SYM_STRIDE (SYM_POINTS + 1)
typedef uint32_t SymImages[SYM_COUNT][3][256];
typedef uint64_t SymComb[SYM_POINTS + 1][SYM_STRIDE];

/* Points in x. Without a popcount instruction (x86-64's baseline, built without -mpopcnt) GCC
 * calls libgcc for __builtin_popcount, which took 12 % of a flying unit's time: bit tricks. */
static inline int sym_count(uint32_t x)
{
#if defined(__POPCNT__) || defined(__aarch64__) || defined(__ARM_NEON)
    return __builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
#endif
}

static inline void sym_fill_comb(SymComb comb)
{
    for (int n = 0; n <= SYM_POINTS; n++)
        for (int k = 0; k < SYM_STRIDE; k++)
            comb[n][k] = k == 0 ? 1 : (n == 0 ? 0 : comb[n - 1][k - 1] + comb[n - 1][k]);
}

static inline uint32_t sym_transform(const uint32_t *image, uint32_t x, int s)
{
    const uint32_t *t = image + s * 3 * 256;
    return t[x & 255] | t[256 + ((x >> 8) & 255)] | t[512 + (x >> 16)];
}

/* The least image of x and the first symmetry giving it (symmetry.canonical). */
static inline uint32_t sym_canonical(const uint32_t *image, uint32_t x, int *sym)
{
    uint32_t best = x;
    int best_sym = 0;
    for (int s = 1; s < SYM_COUNT; s++) {
        uint32_t y = sym_transform(image, x, s);
        if (y < best) {
            best = y;
            best_sym = s;
        }
    }
    *sym = best_sym;
    return best;
}

/* Colex rank of x among the sets of its size, its points renumbered over those not in skip
 * (encoding.rank_one). */
static inline uint64_t sym_colex(const uint64_t *comb, uint32_t x, uint32_t skip)
{
    uint64_t r = 0;
    for (int j = 1; x; j++, x &= x - 1) {
        int p = __builtin_ctz(x);
        r += comb[(p - sym_count(skip & ((1u << p) - 1))) * SYM_STRIDE + j];
    }
    return r;
}

#endif
