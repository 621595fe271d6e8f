/* store_history.c: what replaying a game to a past version needs: its setup and the
 * actions stored after it (GET ...?version=N, api/replay.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "store.h"
#include "store_history.h"
#include "store_db.h"

enum store_status store_game_history(const char *id, int upto, struct store_history *out)
{
    memset(out, 0, sizeof *out);
    PGresult *res;
    enum store_status s = db_row_of_int(ST_GAME_HISTORY, id, upto, &res);
    if (s != STORE_OK) return s;
    out->setup = strdup(PQgetvalue(res, 0, 0));
    out->version = (int)db_long(res, 0, 1, -1);
    out->actions = strdup(PQgetvalue(res, 0, 2));
    PQclear(res);
    if (!out->setup || !out->actions) {
        store_history_free(out);
        return STORE_ERROR;
    }
    return STORE_OK;
}

void store_history_free(struct store_history *h)
{
    free(h->setup);
    free(h->actions);
    *h = (struct store_history){0};
}
