/* rng.h: the one seeded generator (xoshiro256** seeded by splitmix64), unbiased draws. */
#ifndef CC_RNG_H
#define CC_RNG_H

#include <stdint.h>

/* Generator state; a plain value. */
struct cc_rng {
    uint64_t s[4]; /* xoshiro256** state, never all zero */
};

/* Seeds `r` from any 64-bit seed (splitmix64 expands it). */
void cc_rng_seed(struct cc_rng *r, uint64_t seed);

/* The next 64 random bits. */
uint64_t cc_rng_next(struct cc_rng *r);

/* A uniform integer in [0, bound), bound >= 1, without modulo bias (Lemire's method with
 * rejection). */
uint32_t cc_rng_below(struct cc_rng *r, uint32_t bound);

/* Shuffles a[0..n) uniformly (Fisher-Yates). */
void cc_rng_shuffle(struct cc_rng *r, uint8_t *a, unsigned n);

#endif
