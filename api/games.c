/* games.c: loading and decoding stored games. */
#include "games.h"

#include <stdio.h>
#include <stdlib.h>

#include "log.h"
#include "problem.h"

void games_store_failed(struct api_response *resp, enum store_status s)
{
    if (s == STORE_UNAVAILABLE)
        problem_unavailable(resp);
    else
        problem_reply(resp, 500, "internal_error", "The game could not be read or stored.");
}

struct api_game *games_load(const char *id, struct api_response *resp)
{
    if (!auth_uuid_valid(id)) {
        problem_reply(resp, 404, "not_found", "There is no game with this id.");
        return NULL;
    }
    struct api_game *ag = malloc(sizeof *ag);
    if (!ag) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        return NULL;
    }
    snprintf(ag->id, sizeof ag->id, "%s", id);
    enum store_status s = store_game_load(id, &ag->row);
    if (s == STORE_NOT_FOUND) {
        problem_reply(resp, 404, "not_found", "There is no game with this id.");
        goto fail;
    }
    if (s != STORE_OK) {
        games_store_failed(resp, s);
        goto fail;
    }
    enum cc_status st = cc_game_decode(&ag->g, ag->row.snapshot, ag->row.snapshot_len);
    if (st != CC_OK || ag->g.nplayers != ag->row.nplayers) {
        log_kv(LOG_ERROR, "stored game does not decode", "game", id, NULL);
        problem_engine(resp, CC_ERR_CORRUPT);
        goto fail;
    }
    for (int i = 0; i < CC_MAX_PLAYERS; i++)
        ag->names[i] = i < ag->row.nplayers ? ag->row.players[i].name : "";
    return ag;
fail:
    free(ag);
    return NULL;
}

void games_free(struct api_game *ag)
{
    free(ag);
}

void games_etag(struct api_response *resp, int version)
{
    snprintf(resp->etag, sizeof resp->etag, "\"%d\"", version);
}
