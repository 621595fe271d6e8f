/* board_png.h: the board picture as PNG (for chat apps, which show no SVG): board_svg.c's
 * document rendered by librsvg, and a small cache of rendered pictures by (game, version,
 * width) so that many viewers of one version cost one render. Widths are rounded up to one
 * of BOARD_PNG_SIZES so that the cache serves every width asked, and no request waits for
 * a render slot on a thread: board_png_begin() answers at once (the HTTP layer suspends the
 * request and asks again, routes_view.c). */
#ifndef API_BOARD_PNG_H
#define API_BOARD_PNG_H

#include <stddef.h>
#include <stdint.h>

#include "nodiscard.h"

#define BOARD_PNG_WIDTH_MIN     64   /* ?width= at least */
#define BOARD_PNG_WIDTH_MAX     4096 /* ?width= at most */
#define BOARD_PNG_WIDTH_DEFAULT 1200 /* without ?width= */
/* Pixels of one picture at most (4096 x 2048): a board whose height at the asked width
 * would pass it is drawn smaller, its aspect ratio kept. */
#define BOARD_PNG_MAX_PIXELS          (4096L * 2048L)
#define BOARD_PNG_MAX                 (32u << 20) /* bytes of one PNG at most */
#define BOARD_PNG_CACHE_SLOTS         64          /* pictures the cache keeps at most */
#define BOARD_PNG_CACHE_BYTES         (64u << 20) /* bytes the cache keeps at most */
#define BOARD_PNG_RENDERS             2           /* renders running at once at most */
#define BOARD_PNG_RENDERS_PER_ADDRESS 1           /* of them for one client address at most */
#define BOARD_PNG_WAIT_MS             10000       /* a request waits this long for a render slot */
#define BOARD_PNG_RETRY_AFTER         2 /* Retry-After of the answer when it waited in vain */
/* The widths pictures are drawn at: an asked width is rounded up to the next of them. */
#define BOARD_PNG_SIZES                                                                            \
    {                                                                                              \
        64, 128, 256, 512, 800, 1200, 1600, 2048, 3072, 4096                                       \
    }

/* A rendered picture. */
struct board_png {
    char *data; /* the PNG file (malloc'd, NUL after its last byte), or NULL */
    size_t len; /* its bytes */
    int width;  /* pixels across */
    int height; /* pixels down */
};

/*
 * Reads `v`, the value of ?width= (NULL when absent: BOARD_PNG_WIDTH_DEFAULT), as a decimal
 * integer from BOARD_PNG_WIDTH_MIN to BOARD_PNG_WIDTH_MAX (digits only), rounded up to the
 * next of BOARD_PNG_SIZES. Returns 0 with the width drawn in *out, or -1 (*out untouched)
 * when it is not such a number. Pure.
 */
int board_png_width(const char *v, int *out) NODISCARD;

/*
 * The size of the picture of a document `svg_w` x `svg_h` (both > 0) asked at `width`:
 * that width and the height of the same aspect ratio (at least 1), both shrunk alike
 * while they pass BOARD_PNG_MAX_PIXELS or the height passes BOARD_PNG_WIDTH_MAX * 4 (16384).
 * Pure.
 */
void board_png_size(double svg_w, double svg_h, int width, int *out_w, int *out_h);

/*
 * Renders the SVG document `svg` (`len` bytes) at `width` pixels across (size as
 * board_png_size() says) into `out` (board_png_free() it). Thread-safe. Returns 0, or -1
 * (out empty) when the document cannot be read, memory runs out or the PNG would pass
 * BOARD_PNG_MAX.
 */
int board_png_render(const char *svg, size_t len, int width, struct board_png *out) NODISCARD;

/* Frees the picture's data and empties it; `p` may be NULL. */
void board_png_free(struct board_png *p);

/*
 * A copy of the cached picture of game `id` at `version` and `width` into `out`
 * (board_png_free() it). Thread-safe. Returns 1 when found, else 0 (also when memory for
 * the copy runs out).
 */
int board_png_cached(const char *id, int version, int width, struct board_png *out) NODISCARD;

/*
 * Sets how long a request waits (suspended) for a render slot at most, in milliseconds
 * (0: not at all; BOARD_PNG_WAIT_MS until set). Call it before the server serves
 * (BOARD_PNG_WAIT_MS of the environment, cfg.h).
 */
void board_png_set_wait(int ms);

/* What board_png_set_wait() set. Thread-safe. */
int board_png_wait(void);

#define BOARD_PNG_BUSY         (-1) /* board_png_begin(): no render slot now; ask again */
#define BOARD_PNG_ADDRESS_BUSY (-2) /* board_png_begin(): the address renders enough now */

/*
 * Before a render, without waiting: looks in the cache again (another request may have
 * rendered the same picture meanwhile), then takes a render slot for the client whose
 * address key is `peer` (peer.h). Concurrent viewers of one version cost one render: while
 * the same picture is being rendered the others are told to ask again. Answers found in the
 * cache and pictures rendered are counted in /metrics (metrics_board_png()). Returns 1 with
 * a copy in `out` when it is cached now (nothing more to do); 0 when the caller renders it
 * (it must then call board_png_end()); BOARD_PNG_BUSY when the same picture is being
 * rendered or every slot is taken (ask again shortly, or answer 503 and ask the client to
 * retry after BOARD_PNG_RETRY_AFTER seconds); BOARD_PNG_ADDRESS_BUSY when `peer` already
 * has BOARD_PNG_RENDERS_PER_ADDRESS renders running (answer 503 at once). Thread-safe.
 */
int board_png_begin(const char *id, int version, int width, const uint8_t *peer,
                    struct board_png *out) NODISCARD;

/*
 * After a render that board_png_begin() let go ahead: keeps a copy of `png` (NULL when
 * the render failed) in the cache, dropping the least recently used pictures while the
 * cache would pass BOARD_PNG_CACHE_SLOTS or BOARD_PNG_CACHE_BYTES, and lets the next
 * render go. Thread-safe.
 */
void board_png_end(const char *id, int version, int width, const struct board_png *png);

/* A render on a thread of its own (board_png_spawn()), so that no HTTP thread draws. */
struct board_png_job {
    char id[40];                           /* the game's id, as given to board_png_begin() */
    int version;                           /* its version */
    int width;                             /* the width drawn */
    char *svg;                             /* the document (malloc'd; the render thread frees it) */
    struct board_png png;                  /* the picture once rendered (rc 0) */
    int rc;                                /* board_png_render()'s result */
    void (*done)(struct board_png_job *j); /* called on the render thread after
                                               board_png_end(): the job is the caller's */
};

/*
 * After board_png_begin() answered 0: renders `j` on a new thread, which then calls
 * board_png_end() and j->done(j). Returns 0, or -1 when no thread could be started (the
 * caller renders it itself; j->svg is still its own).
 */
int board_png_spawn(struct board_png_job *j) NODISCARD;

/* Waits for the renders of board_png_spawn() to end, then frees every cached picture (at
 * shutdown, after the HTTP layer stopped). */
void board_png_shutdown(void);

#endif
