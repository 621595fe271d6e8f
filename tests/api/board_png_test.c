/* board_png_test.c: board.png's width parameter (board_png_width), the picture's size
 * (board_png_size), a render of a real board (the PNG's signature and IHDR size) and the
 * cache (found after board_png_end, a copy, the least recently used dropped first). */
#include <criterion/criterion.h>
#include <string.h>
#include <time.h>

#include "board_png.h"
#include "board_svg.h"
#include "game.h"
#include "peer.h"
#include "randplay.h"

Test(board_png, width)
{
    /* Taken: the width asked (NULL: absent) and the one drawn. */
    static const struct {
        const char *v;
        int out;
    } taken[] = {
        {NULL, BOARD_PNG_WIDTH_DEFAULT},
        {"64", 64},
        {"1200", 1200},
        {"4096", 4096},
        {"0600", 800},
        {"600", 800},
        {"65", 128},
        {"1199", 1200},
        {"1201", 1600},
        {"4095", 4096},
    };
    for (size_t i = 0; i < sizeof taken / sizeof taken[0]; i++) {
        int out = 7;
        int rc = board_png_width(taken[i].v, &out);
        const char *v = taken[i].v ? taken[i].v : "(absent)";
        cr_expect_eq(rc, 0, "\"%s\": %d", v, rc);
        cr_expect_eq(out, taken[i].out, "\"%s\": %d", v, out);
    }
    /* Refused (-1), the width left as it was. */
    static const char *const refused[] = {"63",   "0",     "4097",  "99999999999999999999999",
                                          "",     "-600",  "+600",  " 600",
                                          "600 ", "600.0", "600px", "1e3",
                                          "0x400"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        int out = 7;
        int rc = board_png_width(refused[i], &out);
        cr_expect_eq(rc, -1, "\"%s\": %d", refused[i], rc);
        cr_expect_eq(out, 7, "\"%s\": %d", refused[i], out);
    }
}

Test(board_png, size)
{
    int w, h;
    board_png_size(800, 1000, 1200, &w, &h);
    cr_expect(w == 1200 && h == 1500, "%dx%d", w, h);
    board_png_size(1000, 10, 64, &w, &h);
    cr_expect(w == 64 && h == 1, "a flat board: %dx%d", w, h);
    /* Square at 4096: 16.7 Mpx, shrunk to the pixel bound, still square. */
    board_png_size(500, 500, 4096, &w, &h);
    cr_expect(w == h && (long)w * h <= BOARD_PNG_MAX_PIXELS && w > 2800, "square: %dx%d", w, h);
    /* A long column: the height bound. */
    board_png_size(100, 100000, 64, &w, &h);
    cr_expect(h <= BOARD_PNG_WIDTH_MAX * 4 && w >= 1 && w < 64, "a column: %dx%d", w, h);
}

/* The width and height of the PNG `p` from its IHDR, or 0 when it is none. */
static int ihdr(const struct board_png *p, unsigned *w, unsigned *h)
{
    const unsigned char *d = (const unsigned char *)p->data;
    if (!d || p->len < 33 || memcmp(d, "\x89PNG\r\n\x1a\n", 8) || memcmp(d + 12, "IHDR", 4))
        return 0;
    *w = (unsigned)d[16] << 24 | (unsigned)d[17] << 16 | (unsigned)d[18] << 8 | d[19];
    *h = (unsigned)d[20] << 24 | (unsigned)d[21] << 16 | (unsigned)d[22] << 8 | d[23];
    return 1;
}

/* A client address of the tests (all zero, as NULL gets). */
static const uint8_t ANY[PEER_KEY_LEN];

Test(board_png, render_expansions)
{
    /* librsvg draws the marks and figures of both expansions of classic (a finished game:
     * every figure that random play deployed is still on the board or back). */
    static struct cc_game g;
    static struct cc_events ev;
    struct cc_options o = {.expansions = CC_EXP_INNS | CC_EXP_TRADERS};
    cr_assert(randplay_game(&g, &ev, CC_RULESET_CLASSIC, 4, o, 11, NULL, NULL, NULL));
    char *svg = board_svg_new(&g, NULL);
    cr_assert(svg && strstr(svg, "class=\"key expansions\""));
    struct board_png p;
    cr_assert_eq(board_png_render(svg, strlen(svg), 600, &p), 0);
    unsigned w = 0, h = 0;
    cr_expect(ihdr(&p, &w, &h) && w == 600 && h > 0, "%ux%u", w, h);
    board_png_free(&p);
    free(svg);
}

Test(board_png, render_and_cache)
{
    static struct cc_game g;
    struct cc_setup setup = randplay_setup(CC_RULESET_CLASSIC, 2, (struct cc_options){0}, 3);
    cr_assert_eq(cc_game_new(&g, &setup, NULL), CC_OK);
    char *svg = board_svg_new(&g, NULL);
    cr_assert(svg);
    struct board_png p;
    cr_assert_eq(board_png_render(svg, strlen(svg), 300, &p), 0);
    unsigned w = 0, h = 0;
    cr_expect(ihdr(&p, &w, &h) && w == 300 && h > 0 && (int)h == p.height && p.width == 300,
              "%ux%u", w, h);
    struct board_png bad;
    cr_expect_eq(board_png_render("<svg", 4, 300, &bad), -1, "not a document");
    cr_expect_null(bad.data);
    free(svg);

    static const char id[] = "11111111-2222-4333-8444-555555555555";
    struct board_png c;
    cr_expect_eq(board_png_cached(id, 1, 300, &c), 0, "empty cache");
    cr_assert_eq(board_png_begin(id, 1, 300, ANY, &c), 0);
    board_png_end(id, 1, 300, &p);
    cr_assert_eq(board_png_cached(id, 1, 300, &c), 1);
    cr_expect(c.len == p.len && !memcmp(c.data, p.data, p.len) && c.data != p.data);
    board_png_free(&c);
    cr_expect_eq(board_png_cached(id, 2, 300, &c), 0, "another version");
    cr_expect_eq(board_png_cached(id, 1, 301, &c), 0, "another width");
    cr_expect_eq(board_png_begin(id, 1, 300, ANY, &c), 1, "begin finds it cached");
    board_png_free(&c);
    /* Fill every slot with other versions: the oldest (version 1, just used, then the
     * first of those) goes first. */
    for (int v = 2; v < BOARD_PNG_CACHE_SLOTS + 2; v++) {
        cr_assert_eq(board_png_begin(id, v, 300, ANY, &c), 0);
        board_png_end(id, v, 300, &p);
    }
    cr_expect_eq(board_png_cached(id, 1, 300, &c), 0, "the least recently used dropped");
    cr_expect_eq(board_png_cached(id, BOARD_PNG_CACHE_SLOTS + 1, 300, &c), 1, "the newest kept");
    board_png_free(&c);
    /* A failed render caches nothing and frees its slot. */
    cr_assert_eq(board_png_begin(id, 999, 300, ANY, &c), 0);
    board_png_end(id, 999, 300, NULL);
    cr_expect_eq(board_png_begin(id, 999, 300, ANY, &c), 0);
    board_png_end(id, 999, 300, NULL);
    /* Every render slot busy: board_png_begin() waits for none (BOARD_PNG_BUSY at once);
     * once a slot is free it renders. One address renders BOARD_PNG_RENDERS_PER_ADDRESS
     * at once: its next picture is refused (BOARD_PNG_ADDRESS_BUSY) while another address
     * takes the free slot; the same picture being rendered is BOARD_PNG_BUSY for anyone. */
    static const char other[] = "11111111-2222-4333-8444-666666666666";
    uint8_t a[PEER_KEY_LEN] = {0}, b[PEER_KEY_LEN] = {0};
    a[15] = 1;
    b[15] = 2;
    cr_assert_eq(BOARD_PNG_RENDERS, 2);
    cr_assert_eq(BOARD_PNG_RENDERS_PER_ADDRESS, 1);
    cr_assert_eq(board_png_begin(other, 0, 300, a, &c), 0);
    cr_expect_eq(board_png_begin(other, 1, 300, a, &c), BOARD_PNG_ADDRESS_BUSY, "a's second");
    cr_expect_eq(board_png_begin(other, 0, 300, b, &c), BOARD_PNG_BUSY, "the same picture");
    cr_assert_eq(board_png_begin(other, 1, 300, b, &c), 0, "b takes the other slot");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cr_expect_eq(board_png_begin(id, 1000, 300, ANY, &c), BOARD_PNG_BUSY, "no slot: at once");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
    cr_expect(ms < 100, "took %ld ms", ms);
    cr_expect_null(c.data);
    board_png_end(other, 0, 300, NULL);
    cr_expect_eq(board_png_begin(id, 1000, 300, ANY, &c), 0, "a slot is free");
    board_png_end(id, 1000, 300, NULL);
    board_png_end(other, 1, 300, NULL);
    board_png_set_wait(150);
    cr_expect_eq(board_png_wait(), 150);
    board_png_set_wait(BOARD_PNG_WAIT_MS);
    board_png_free(&p);
    board_png_shutdown();
}
