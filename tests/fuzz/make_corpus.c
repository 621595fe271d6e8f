/* make_corpus.c: writes the seed corpus of the snapshot fuzzer: encoded games of every
 * ruleset at the start, in the middle and at the end. Usage: make_corpus DIR */
#include <stdio.h>
#include <string.h>

#include "randplay.h"

static const char *dir;
static unsigned written;

static void dump(const struct cc_game *g, const char *tag)
{
    static uint8_t buf[CC_SNAPSHOT_MAX];
    size_t len = cc_game_encode(g, buf, sizeof buf);
    char path[512];
    snprintf(path, sizeof path, "%s/%s-%u", dir, tag, written++);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, len, f) != len) perror(path);
    if (f) fclose(f);
}

static void hook(const struct cc_game *g, const struct cc_action *a, const struct cc_events *ev,
                 void *ctx)
{
    (void)a;
    (void)ev;
    unsigned *n = ctx;
    if (++*n % 37 == 1 || g->phase == CC_PHASE_FINISHED) dump(g, cc_ruleset_name(g->ruleset));
    /* Now and then a copy in which the next seat resigned (core/resign.c: a trailing byte). */
    static struct cc_game out;
    if (*n % 53 == 7 && g->phase != CC_PHASE_FINISHED) {
        out = *g;
        if (cc_game_resign(&out, (uint8_t)((g->seat + 1) % g->nplayers), NULL) == CC_OK)
            dump(&out, "resigned");
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    dir = argv[1];
    static struct cc_game g;
    static struct cc_events ev;
    struct cc_options opts[] = {{0}, {.edition = 1, .river = 1}, {.draw = 1}};
    for (int r = 0; r < CC_RULESET_COUNT; r++) {
        if (!cc_tileset_get((enum cc_ruleset)r)) continue;
        for (uint64_t seed = 1; seed <= 2; seed++) {
            unsigned n = 0;
            struct cc_options o = r == CC_RULESET_CLASSIC     ? opts[seed - 1]
                                  : r == CC_RULESET_DISCOVERY ? opts[seed == 2 ? 2 : 0]
                                                              : opts[0];
            randplay_game(&g, &ev, (uint8_t)r, (uint8_t)(1 + seed * 2), o, seed, NULL, hook, &n);
        }
    }
    printf("%u snapshots\n", written);
    return 0;
}
