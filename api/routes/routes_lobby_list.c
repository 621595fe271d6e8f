/* routes_lobby_list.c: the lobby's lists (issue 30, item 6; migrations/0035), for anyone,
 * no token: GET /v1/lobby/tables, the listed games with an open seat (status waiting), and
 * GET /v1/lobby/games, the listed games being played (status active), to watch. Unlisted,
 * finished and aborted games are in neither. Newest first, ?ruleset= to keep one ruleset,
 * ?limit= (1 to 50, default 20), paged by ?cursor= (the answer's next_cursor, null on the
 * last page). A cursor is the position of the last entry shown, "<created_at in
 * microseconds>.<id>": it names no secret, so it is not sealed; one malformed is refused. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "game.h"
#include "json_out.h"
#include "params.h"
#include "problem.h"
#include "routes.h"
#include "store_lobby.h"

#define LOBBY_LIST_DEFAULT 20 /* entries of a page when ?limit= is not given */
#define LOBBY_LIST_MAX     50 /* entries of a page at most */
#define CURSOR_US_DIGITS   17 /* digits of a cursor's microseconds at most (until year 5138) */

/* Cursor `c` ("<microseconds>.<uuid>") into `out`: 0, or -1 when malformed. */
static int cursor_parse(const char *c, struct store_lobby_after *out)
{
    const char *dot = strchr(c, '.');
    size_t digits = dot ? (size_t)(dot - c) : 0;
    if (digits < 1 || digits > CURSOR_US_DIGITS) return -1;
    for (size_t i = 0; i < digits; i++)
        if (!isdigit((unsigned char)c[i])) return -1;
    if (!auth_uuid_valid(dot + 1)) return -1;
    errno = 0;
    out->after_us = strtoll(c, NULL, 10);
    if (errno) return -1;
    snprintf(out->after_id, sizeof out->after_id, "%s", dot + 1);
    return 0;
}

/* The query of a lobby list: its ruleset (NULL: any), where it begins, its size. Returns
 * NULL, or the detail of a 400 invalid_parameter. */
static const char *list_query(const struct api_request *req, const char **ruleset,
                              struct store_lobby_after *after, long *limit)
{
    static const char *const names[] = {"ruleset", "cursor", "limit"};
    if (req->query_overflow) return "16 query parameters at most.";
    for (size_t i = 0; i < req->nquery; i++) {
        size_t seen = 0;
        for (size_t j = 0; j < req->nquery; j++)
            seen += strcmp(req->query[i].name, req->query[j].name) == 0;
        if (seen > 1) return "Each query parameter may be given once.";
        int known = 0;
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            known |= strcmp(req->query[i].name, names[k]) == 0;
        if (!known) return "The query parameters are ruleset, cursor and limit.";
    }
    *ruleset = api_query_get(req, "ruleset");
    if (*ruleset && cc_ruleset_parse(*ruleset) < 0)
        return "ruleset must be the name of a ruleset (GET /v1/rulesets).";
    const char *cursor = api_query_get(req, "cursor");
    after->after_us = -1;
    if (cursor && cursor_parse(cursor, after))
        return "cursor is not one this list gave (pass next_cursor as it came).";
    const char *l = api_query_get(req, "limit");
    *limit = LOBBY_LIST_DEFAULT;
    if (l && (params_uint(l, LOBBY_LIST_MAX, limit) || *limit < 1))
        return "limit must be a number from 1 to 50.";
    return NULL;
}

/* A lobby list of the listed games of `status`, as {"<key>": [...], "next_cursor"}. */
static void lobby_list(const struct api_request *req, struct api_response *resp, const char *status,
                       const char *key)
{
    const char *ruleset = NULL;
    struct store_lobby_after after;
    long limit = 0;
    const char *bad = list_query(req, &ruleset, &after, &limit);
    if (bad) {
        problem_reply(resp, 400, "invalid_parameter", bad);
        return;
    }
    struct store_lobby_page page;
    enum store_status s = store_lobby_page(status, ruleset, &after, (int)limit, &page);
    struct json_out w;
    if (api_reply_begin(resp, s, &w)) return;
    json_out_key(&w, key);
    json_out_raw(&w, page.entries, strlen(page.entries));
    json_out_key(&w, "next_cursor");
    if (page.next_cursor[0])
        json_out_string(&w, page.next_cursor);
    else
        json_out_null(&w);
    json_out_end_object(&w);
    free(page.entries);
    api_reply_out(resp, 200, &w);
}

void routes_lobby_tables(const struct api_request *req, struct api_response *resp, const char *arg)
{
    (void)arg;
    lobby_list(req, resp, "waiting", "tables");
}

void routes_lobby_games(const struct api_request *req, struct api_response *resp, const char *arg)
{
    (void)arg;
    lobby_list(req, resp, "active", "games");
}
