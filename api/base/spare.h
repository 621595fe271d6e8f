/* spare.h: one freed block of each large kind kept per thread for that thread's next
 * (the blocks every request takes and gives back: malloc's slow path twice a request
 * otherwise). */
#ifndef API_SPARE_H
#define API_SPARE_H

#include <stddef.h>

/* The kinds of block kept, each always of one size. */
enum spare_kind {
    SPARE_GAME, /* struct api_game (games.c) */
    SPARE_TURN, /* the scratch of an action (play.c) */
    SPARE_KINDS
};

/* A block of `size` bytes (uninitialised) for kind `k`: the calling thread's spare, else a
 * new one; NULL when memory ran out. */
void *spare_take(enum spare_kind k, size_t size);

/* Gives block `p` of kind `k` back (NULL: nothing): kept as the calling thread's spare when
 * it has none, else freed. Freed at the thread's end. */
void spare_give(enum spare_kind k, void *p);

#endif
