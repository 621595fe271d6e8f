/* board_cache_test.c: the leaderboard's answers kept a moment (api/routes/board_cache.c):
 * a page is answered again within the cache's time, never after it, never for another key,
 * never when the cache is off; the oldest answer goes first when the slots are full. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board_cache.h"

/* 1 when the cache answers `key` with `body`; the answer freed. */
static int answers(const char *key, const char *body)
{
    struct api_response r;
    memset(&r, 0, sizeof r);
    int hit = board_cache_get(key, &r);
    int same = hit && r.status == 200 && r.len == strlen(body) && strcmp(r.body, body) == 0;
    free(r.body);
    return hit && same;
}

Test(board_cache, within_its_time_only)
{
    board_cache_init(200);
    board_cache_put("classic|0|50|", "{\"a\":1}", 7);
    cr_expect(answers("classic|0|50|", "{\"a\":1}"));
    cr_expect(!answers("classic|1|50|", "{\"a\":1}"), "another key");
    board_cache_put("classic|0|50|", "{\"a\":2}", 7);
    cr_expect(answers("classic|0|50|", "{\"a\":2}"), "the newer answer of the same page");
    usleep(300 * 1000);
    struct api_response r;
    memset(&r, 0, sizeof r);
    cr_expect_eq(board_cache_get("classic|0|50|", &r), 0, "older than its time");
    cr_expect_null(r.body);
    board_cache_shutdown();
}

Test(board_cache, off_keeps_nothing)
{
    board_cache_init(0);
    board_cache_put("classic|0|50|", "{}", 2);
    cr_expect(!answers("classic|0|50|", "{}"));
    board_cache_shutdown();
}

Test(board_cache, oldest_goes_first)
{
    board_cache_init(60000);
    char key[32];
    for (int i = 0; i <= BOARD_CACHE_SLOTS; i++) {
        snprintf(key, sizeof key, "k%d", i);
        board_cache_put(key, key, strlen(key));
        usleep(1000); /* a later mono_ms() for each */
    }
    cr_expect(!answers("k0", "k0"), "the oldest left");
    cr_expect(answers("k1", "k1"));
    snprintf(key, sizeof key, "k%d", BOARD_CACHE_SLOTS);
    cr_expect(answers(key, key));
    char longkey[BOARD_CACHE_KEY_MAX + 8];
    memset(longkey, 'x', sizeof longkey - 1);
    longkey[sizeof longkey - 1] = '\0';
    board_cache_put(longkey, "{}", 2);
    cr_expect(!answers(longkey, "{}"), "a key too long is not kept");
    board_cache_shutdown();
}
