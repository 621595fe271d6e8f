/* fuzz_snapshot.c: libFuzzer harness for the stored-state decoder. Any bytes must be
 * refused or decoded into a game that passes every check, re-encodes to the same bytes,
 * and can be played on (and resigned from) without breaking an invariant. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct cc_game g;
    static struct cc_placement list[CC_MAX_PLACEMENTS];
    static uint8_t again[CC_SNAPSHOT_MAX];
    if (cc_game_decode(&g, data, size) != CC_OK) return 0;
    if (cc_game_check(&g) != CC_OK) abort();
    size_t len = cc_game_encode(&g, again, sizeof again);
    if (len != size || memcmp(again, data, size) != 0) abort();
    /* A few moves on: the first legal ones. */
    for (int step = 0; step < 4 && g.phase != CC_PHASE_FINISHED; step++) {
        struct cc_action a = {.seat = g.seat, .tile = CC_NO_TILE};
        if (g.phase == CC_PHASE_DRAW) {
            a.kind = CC_ACTION_DRAW;
        } else {
            size_t n = cc_legal_placements(&g, list, CC_MAX_PLACEMENTS, true);
            if (n == 0) return 0;
            a.kind = CC_ACTION_PLACE;
            a.x = list[0].x;
            a.y = list[0].y;
            a.rot = list[0].rot;
            if (list[0].tile != g.drawn) a.tile = list[0].tile;
        }
        if (cc_game_apply(&g, &a, NULL) != CC_OK) abort();
        if (cc_game_check(&g) != CC_OK) abort();
    }
    /* Then the seat after the seat to move resigns (core/resign.c), if it still may. */
    if (g.phase != CC_PHASE_FINISHED) {
        enum cc_status st = cc_game_resign(&g, (uint8_t)((g.seat + 1) % g.nplayers), NULL);
        if (st != CC_OK && st != CC_ERR_ALREADY_RESIGNED) abort();
        if (cc_game_check(&g) != CC_OK) abort();
        size_t n = cc_game_encode(&g, again, sizeof again);
        static struct cc_game back;
        if (!n || cc_game_decode(&back, again, n) != CC_OK) abort();
    }
    return 0;
}
