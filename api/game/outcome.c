/* outcome.c: what the game service's outcomes and endings mean, apart from the service's
 * work (so that they link alone) -- see service.h. */
#include "game/service.h"
#include "json_game.h"

const char *game_end_result(const struct cc_game *g, enum game_ending how)
{
    switch (how) {
    case GAME_ENDS_PLAYED:
        return json_result(g);
    case GAME_ENDS_TIMEOUT:
        return "timeout";
    case GAME_ENDS_ABORTED:
    case GAME_ENDS_EXPIRED:
        break;
    }
    return NULL;
}

/* What each outcome is, for logs and for job workers (game_outcome_moved_on, _failed). */
static const struct {
    const char *name; /* for logs */
    char moved_on;    /* 1: the game is no longer where the action was chosen */
    char failed;      /* 1: the server failed (worth a retry) */
} outcomes[] = {
    [GAME_COMMITTED] = {"committed", 0, 0},
    [GAME_REFUSED] = {"refused", 1, 0},
    [GAME_NOT_ACTIVE] = {"game_not_active", 1, 0},
    [GAME_TURN_TIMED_OUT] = {"turn_timed_out", 1, 0},
    [GAME_PRECONDITION_FAILED] = {"precondition_failed", 1, 0},
    [GAME_CONFLICT] = {"conflict", 1, 0},
    [GAME_DUPLICATE] = {"duplicate", 0, 1},
    [GAME_SEEKS_TAKEN] = {"seeks_taken", 1, 0},
    [GAME_LOAD_FAILED] = {"load_failed", 0, 1},
    [GAME_STORE_FAILED] = {"store_failed", 0, 1},
    [GAME_RATE_LIMITED] = {"rate_limited", 0, 1},
    [GAME_CORRUPT] = {"corrupt", 0, 1},
    [GAME_NO_MEMORY] = {"no_memory", 0, 1},
    [GAME_PENDING] = {"pending", 0, 0},
};

/* 1 when `rc` is one of the outcomes above. */
static int known(enum game_outcome rc)
{
    return (unsigned)rc < sizeof outcomes / sizeof outcomes[0];
}

const char *game_outcome_name(enum game_outcome rc)
{
    return known(rc) ? outcomes[rc].name : "unknown";
}

int game_outcome_moved_on(enum game_outcome rc)
{
    return known(rc) && outcomes[rc].moved_on;
}

int game_outcome_failed(enum game_outcome rc)
{
    return !known(rc) || outcomes[rc].failed;
}
