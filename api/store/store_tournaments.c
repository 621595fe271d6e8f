/* store_tournaments.c: tournaments' rows (migrations/0031; store_tournaments.h). */
#include "store_tournaments.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "store_db.h"

enum store_status store_tournament_create(const struct store_tournament_new *t,
                                          store_tourney_answer answer, void *arg)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char ppg[12], rounds[12], max[12];
    snprintf(ppg, sizeof ppg, "%d", t->players_per_game);
    snprintf(rounds, sizeof rounds, "%d", t->rounds);
    snprintf(max, sizeof max, "%d", t->max_players);
    const char *vals[12] = {t->id,         t->name,
                            t->organiser,  t->format,
                            t->ruleset,    t->options_json,
                            ppg,           t->rounds > 0 ? rounds : NULL,
                            t->clock_json, t->rated ? "true" : "false",
                            max,           t->starts_at};
    if (!answer) return db_run_cmd(&pg, ST_TOURNEY_INSERT, 12, vals, NULL, NULL);
    /* The answer goes with the tournament: a repeat finds both or neither. */
    enum store_status s = db_begin(&pg);
    if (s == STORE_OK) s = db_run_cmd(&pg, ST_TOURNEY_INSERT, 12, vals, NULL, NULL);
    PGresult *res = NULL;
    if (s == STORE_OK) s = db_run(&pg, ST_TOURNEY_JSON, 1, vals, NULL, &res);
    if (s == STORE_OK && (PQntuples(res) != 1 || PQgetisnull(res, 0, 0))) s = STORE_ERROR;
    if (s == STORE_OK) {
        const struct store_idem *idem = answer(arg, PQgetvalue(res, 0, 0));
        s = idem ? db_idem_put(pg, idem) : STORE_ERROR;
    }
    PQclear(res);
    if (s == STORE_OK) s = db_exec(pg, "COMMIT", "commit");
    if (s != STORE_OK) db_rollback(pg);
    return s;
}

enum store_status store_tournament_entry(const char *id, const char *person, int join,
                                         enum store_entry *entry, store_tourney_keyed keyed,
                                         void *arg)
{
    *entry = STORE_ENTRY_NOT_OPEN;
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    enum store_status s = db_begin(&pg);
    if (s != STORE_OK) return s;
    PGresult *res = NULL;
    s = db_run(&pg, ST_TOURNEY_LOCK, 1, &id, NULL, &res);
    if (s == STORE_OK && PQntuples(res) != 1) s = STORE_NOT_FOUND;
    int open = 0;
    char max[16] = "0";
    if (s == STORE_OK) {
        open = strcmp(PQgetvalue(res, 0, 0), "open") == 0;
        snprintf(max, sizeof max, "%s", PQgetvalue(res, 0, 1));
    }
    PQclear(res);
    res = NULL;
    const char *vals[3] = {id, person, max};
    if (s == STORE_OK && open && join) {
        s = db_run(&pg, ST_TOURNEY_JOIN, 3, vals, NULL, &res);
        if (s == STORE_OK && PQntuples(res) != 1) s = STORE_ERROR;
        if (s == STORE_OK)
            *entry = db_long(res, 0, 0, 0)   ? STORE_ENTRY_DONE
                     : db_long(res, 0, 1, 0) ? STORE_ENTRY_ALREADY
                                             : STORE_ENTRY_FULL;
        PQclear(res);
    } else if (s == STORE_OK && open) {
        long gone = 0;
        s = db_run_cmd(&pg, ST_TOURNEY_LEAVE, 2, vals, NULL, &gone);
        if (s == STORE_OK) *entry = gone ? STORE_ENTRY_DONE : STORE_ENTRY_ALREADY;
    }
    if (s == STORE_OK) s = db_keyed_put(pg, keyed, arg, (int)*entry);
    if (s == STORE_OK) s = db_exec(pg, "COMMIT", "commit");
    if (s != STORE_OK) db_rollback(pg);
    return s;
}

enum store_status store_tournament_json(const char *id, char **json)
{
    const char *vals[1] = {id};
    return db_row_text(ST_TOURNEY_JSON, 1, vals, json); /* STORE_NOT_FOUND: no such id */
}

/* The JSON list of statement st with text parameter `a` and number `n` into *json. */
static enum store_status json_list(enum stmt st, const char *a, int n, char **json)
{
    char num[12];
    snprintf(num, sizeof num, "%d", n);
    const char *vals[2] = {a, num};
    enum store_status s = db_row_text(st, 2, vals, json);
    return s == STORE_NOT_FOUND ? STORE_ERROR : s;
}

enum store_status store_tournaments_list(const char *status, int limit, char **json)
{
    return json_list(ST_TOURNEY_LIST, status, limit, json);
}

enum store_status store_tourney_events_each(const char *id, int after, int limit,
                                            int (*fn)(void *arg, int seq, const char *type,
                                                      const char *json, size_t len),
                                            void *arg, int *count,
                                            struct store_tourney_progress *progress)
{
    *count = 0;
    memset(progress, 0, sizeof *progress);
    PGresult *res;
    enum store_status s = db_run_page(ST_TOURNEY_EVENTS, id, after, limit, &res);
    if (s != STORE_OK) return s;
    if (PQntuples(res) == 0) s = STORE_NOT_FOUND;
    if (s == STORE_OK && db_take_text(res, 0, 0, progress->status, sizeof progress->status))
        s = STORE_ERROR;
    if (s == STORE_OK) progress->last_seq = (int)db_long(res, 0, 1, 0);
    /* A row without an event: none follows `after`. */
    if (s == STORE_OK) s = db_events_each(res, 2, fn, arg, count);
    PQclear(res);
    return s;
}
