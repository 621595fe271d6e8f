/* png_bench.c: what a board.png costs (api/render/board_png.c): a finished classic game of two
 * random bots drawn as SVG (api/render/board_svg.c), rendered by librsvg to PNG at widths 600,
 * 1200 and 2400, and answered from the cache of rendered pictures; then a finished game with
 * both expansions (their marks and figures: board_marks.c) at 600 and 1200. Prints, per
 * width, the picture's size in pixels and bytes and the wall time of one render (median and
 * max of the runs), the time of a cached answer, and writes the base game's 1200 px picture
 * to the file named by the second argument (if any) to look at.
 * Usage: bench-png [runs per width, default 10] [out.png] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board_png.h"
#include "board_svg.h"
#include "game.h"
#include "randplay.h"

#define MAX_RUNS 1000

static struct cc_game game;

/* Monotonic milliseconds (a render may use threads of librsvg's own). */
static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Plays a classic game of two random players with `expansions` (enum cc_expansion bits)
 * to its end into `game`. */
static void play(unsigned expansions)
{
    static struct cc_events ev;
    struct cc_options options;
    memset(&options, 0, sizeof options);
    options.expansions = (uint8_t)expansions;
    if (!randplay_game(&game, &ev, CC_RULESET_CLASSIC, 2, options, 42, NULL, NULL, NULL)) {
        fprintf(stderr, "bench-png: a random move was refused\n");
        exit(1);
    }
}

/* The board picture of `game`, its length in *len and the time it took in *ms. */
static char *timed_svg(size_t *len, double *ms)
{
    static const char *const names[CC_MAX_PLAYERS] = {"Ada", "Brendan"};
    double t0 = now_ms();
    char *svg = board_svg_new(&game, names);
    *ms = now_ms() - t0;
    if (!svg) {
        fprintf(stderr, "bench-png: no SVG\n");
        exit(1);
    }
    *len = strlen(svg);
    return svg;
}

/* Renders `svg` at `width` `runs` times and prints the median and the longest; the last
 * picture stays in *png (freed by the caller). */
static void time_renders(const char *svg, size_t svg_len, int width, long runs,
                         struct board_png *png)
{
    static double t[MAX_RUNS];
    for (long r = 0; r < runs; r++) {
        board_png_free(png);
        double t0 = now_ms();
        if (board_png_render(svg, svg_len, width, png)) {
            fprintf(stderr, "bench-png: render at %d failed\n", width);
            exit(1);
        }
        t[r] = now_ms() - t0;
    }
    qsort(t, (size_t)runs, sizeof t[0], cmp_double);
    printf("  width %4d: %4d x %4d px, %7zu bytes: render %7.1f ms median, %7.1f ms max "
           "(%ld runs)\n",
           width, png->width, png->height, png->len, t[runs / 2], t[runs - 1], runs);
}

int main(int argc, char **argv)
{
    long runs = argc > 1 ? strtol(argv[1], NULL, 10) : 10;
    if (runs < 1 || runs > MAX_RUNS) runs = 10;
    play(0);
    size_t svg_len;
    double svg_ms, t0;
    char *svg = timed_svg(&svg_len, &svg_ms);
    printf("bench-png: a classic game finished after %d turns; its SVG %zu bytes in %.2f ms\n",
           game.turn, svg_len, svg_ms);
    static const int widths[] = {600, 1200, 2400};
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        struct board_png png = {0};
        time_renders(svg, svg_len, widths[i], runs, &png);
        if (widths[i] == 1200) {
            if (argc > 2) {
                FILE *f = fopen(argv[2], "wb");
                if (!f || fwrite(png.data, 1, png.len, f) != png.len || fclose(f)) {
                    fprintf(stderr, "bench-png: cannot write %s\n", argv[2]);
                    return 1;
                }
            }
            /* The cached answer: a copy of the picture found among full cache slots. */
            static const char id[] = "00000000-0000-4000-8000-000000000000";
            static const uint8_t any_peer[16]; /* one client address (peer.h) */
            for (int k = 0; k < BOARD_PNG_CACHE_SLOTS; k++) {
                if (board_png_begin(id, k, 1200, any_peer, &png) == 0)
                    board_png_end(id, k, 1200, &png);
            }
            const int lookups = 2000;
            t0 = now_ms();
            for (int k = 0; k < lookups; k++) {
                struct board_png copy;
                if (!board_png_cached(id, k % BOARD_PNG_CACHE_SLOTS, 1200, &copy)) {
                    fprintf(stderr, "bench-png: not in the cache\n");
                    return 1;
                }
                board_png_free(&copy);
            }
            printf("  width 1200 from the cache (%d of %d slots full): %.3f ms per answer\n",
                   BOARD_PNG_CACHE_SLOTS, BOARD_PNG_CACHE_SLOTS, (now_ms() - t0) / lookups);
        }
        board_png_free(&png);
    }
    free(svg);
    /* The same with both expansions of classic: more tiles, their marks and figures. */
    play(CC_EXP_INNS | CC_EXP_TRADERS);
    svg = timed_svg(&svg_len, &svg_ms);
    printf("bench-png: with inns and traders, finished after %d turns; its SVG %zu bytes in "
           "%.2f ms\n",
           game.turn, svg_len, svg_ms);
    for (size_t i = 0; i < 2; i++) {
        struct board_png png = {0};
        time_renders(svg, svg_len, widths[i], runs, &png);
        board_png_free(&png);
    }
    board_png_shutdown();
    free(svg);
    return 0;
}
