/* store_lobby.c: the lobby's lists (migrations/0035; store_lobby.h). */
#include "store_lobby.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "json_out.h"
#include "store_db.h"

enum store_status store_lobby_page(const char *status, const char *ruleset,
                                   const struct store_lobby_after *after, int limit,
                                   struct store_lobby_page *page)
{
    memset(page, 0, sizeof *page);
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char us[24], lim[12];
    snprintf(us, sizeof us, "%lld", after->after_us);
    snprintf(lim, sizeof lim, "%d", limit + 1); /* one more: is there a next page? */
    const char *vals[5] = {status, ruleset, after->after_us >= 0 ? us : NULL,
                           after->after_us >= 0 ? after->after_id : NULL, lim};
    PGresult *res = NULL;
    enum store_status s = db_run(&pg, ST_LOBBY_PAGE, 5, vals, NULL, &res);
    if (s != STORE_OK) return s;
    int n = PQntuples(res), shown = n > limit ? limit : n;
    struct json_out w;
    json_out_init(&w);
    json_out_begin_array(&w);
    for (int i = 0; i < shown; i++)
        json_out_raw(&w, PQgetvalue(res, i, 0), (size_t)PQgetlength(res, i, 0));
    json_out_end_array(&w);
    page->entries = json_out_take(&w, NULL);
    json_out_free(&w);
    if (n > limit && shown > 0)
        snprintf(page->next_cursor, sizeof page->next_cursor, "%s", PQgetvalue(res, shown - 1, 1));
    PQclear(res);
    return page->entries ? STORE_OK : STORE_ERROR;
}
