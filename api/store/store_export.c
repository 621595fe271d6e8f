/* store_export.c: what an export of a finished game is read from, and the rows a replayed
 * game is written with (GET /v1/games/{id}/export, POST /v1/games {"replay"}). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "store.h"
#include "store_db.h"
#include "store_games.h"
#include "store_history.h"

enum store_status store_game_export(const char *id, struct store_export *out)
{
    memset(out, 0, sizeof *out);
    PGresult *res;
    enum store_status s = db_row_of(ST_GAME_EXPORT, id, 0, &res);
    if (s != STORE_OK) return s;
    out->setup = strdup(PQgetvalue(res, 0, 0));
    snprintf(out->status, sizeof out->status, "%s", PQgetvalue(res, 0, 1));
    snprintf(out->result, sizeof out->result, "%s", PQgetvalue(res, 0, 2));
    out->actions = strdup(PQgetvalue(res, 0, 3));
    out->chat = strdup(PQgetvalue(res, 0, 4));
    PQclear(res);
    if (!out->setup || !out->actions || !out->chat) {
        store_export_free(out);
        return STORE_ERROR;
    }
    return STORE_OK;
}

void store_export_free(struct store_export *x)
{
    free(x->setup);
    free(x->actions);
    free(x->chat);
    *x = (struct store_export){0};
}
