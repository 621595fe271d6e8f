/* store_chat.c: talk's rows (migrations/0026): a game's chat messages, reports, blocks
 * between players, the operator's hiding and suspensions. */
#include "store_chat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "store_db.h"

enum store_status store_chat_post(const struct store_chat_post *p, store_chat_answer answer,
                                  void *arg, int *seq, int *retry_ms, char at[32])
{
    at[0] = '\0';
    *seq = 0;
    *retry_ms = 0;
    char seat[12], max[12], window[12];
    snprintf(seat, sizeof seat, "%d", p->seat);
    snprintf(max, sizeof max, "%d", p->max);
    snprintf(window, sizeof window, "%d", p->window_ms);
    const char *vals[7] = {p->game, seat, p->person, p->name, p->text, max, window};
    PGresult *res = NULL;
    PGconn *pg = NULL;
    enum store_status s;
    if (answer) {
        if (!(pg = db_conn())) return STORE_UNAVAILABLE;
        s = db_begin(&pg);
        if (s == STORE_OK) s = db_run(&pg, ST_CHAT_POST, 7, vals, NULL, &res);
        if (s == STORE_OK && PQntuples(res) != 1) s = STORE_ERROR;
    } else {
        s = db_run_row(ST_CHAT_POST, 7, vals, 0, &res);
        if (s == STORE_NOT_FOUND) s = STORE_ERROR;
    }
    if (s == STORE_OK) {
        *seq = (int)db_long(res, 0, 0, 0);
        *retry_ms = (int)db_long(res, 0, 1, 0);
        if (*seq > 0 && db_take_text(res, 0, 2, at, 32)) s = STORE_ERROR;
    }
    PQclear(res);
    if (answer && s == STORE_OK && *seq > 0) {
        /* The answer goes with the message: a repeat finds both or neither. */
        const struct store_idem *idem = answer(arg, *seq, at);
        s = idem ? db_idem_put(pg, idem) : STORE_ERROR;
    }
    if (answer && s == STORE_OK) s = db_exec(pg, "COMMIT", "commit");
    if (answer && s != STORE_OK && pg) db_rollback(pg);
    if (s != STORE_OK) {
        *seq = 0;
        *retry_ms = 0;
        return s;
    }
    if (*seq == 0 && *retry_ms <= 0) *retry_ms = 1; /* refused: never a zero wait */
    return STORE_OK;
}

enum store_status store_chat_each(const char *game, int after, int limit, const char *viewer,
                                  int (*fn)(void *arg, const struct store_chat_message *m),
                                  void *arg, int *count, int *last)
{
    *count = 0;
    *last = after;
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char a[12], l[12];
    snprintf(a, sizeof a, "%d", after);
    snprintf(l, sizeof l, "%d", limit);
    const char *vals[4] = {game, a, l, viewer};
    PGresult *res;
    enum store_status s = db_run(&pg, ST_CHAT_EACH, 4, vals, NULL, &res);
    if (s != STORE_OK) return s;
    struct store_chat_message *m = malloc(sizeof *m);
    if (!m) {
        PQclear(res);
        return STORE_ERROR;
    }
    int rows = PQntuples(res);
    for (int i = 0; i < rows && s == STORE_OK; i++) {
        memset(m, 0, sizeof *m);
        m->seq = (int)db_long(res, i, 0, 0);
        m->seat = (int)db_long(res, i, 1, 0);
        m->hidden = db_long(res, i, 5, 0) != 0;
        m->blocked = db_long(res, i, 6, 0) != 0;
        if (db_take_text(res, i, 2, m->person, sizeof m->person) ||
            db_take_text(res, i, 3, m->name, sizeof m->name) ||
            db_take_text(res, i, 4, m->text, sizeof m->text) ||
            db_take_text(res, i, 7, m->at, sizeof m->at)) {
            s = STORE_ERROR;
            break;
        }
        if (fn(arg, m)) {
            s = STORE_ERROR;
            break;
        }
        (*count)++;
        *last = m->seq;
    }
    free(m);
    PQclear(res);
    return s;
}

/* Runs `st`, whose one row says whether its target exists (column 0 > 0) and a number
 * (column 1: a row made, the games touched): STORE_NOT_FOUND when the target does not
 * exist, else *number. */
static enum store_status found_row(enum stmt st, int n, const char *const *vals, long *number)
{
    PGresult *res;
    enum store_status s = db_run_row(st, n, vals, 0, &res);
    if (s != STORE_OK) return s == STORE_NOT_FOUND ? STORE_ERROR : s;
    int found = db_long(res, 0, 0, 0) > 0;
    *number = db_long(res, 0, 1, 0);
    PQclear(res);
    return found ? STORE_OK : STORE_NOT_FOUND;
}

/* found_row() in a transaction that also keeps a keyed request's answer (db_keyed_put(),
 * outcome: *number); without `keyed`, found_row() alone. */
static enum store_status found_row_keyed(enum stmt st, int n, const char *const *vals, long *number,
                                         store_keyed keyed, void *arg)
{
    if (!keyed) return found_row(st, n, vals, number);
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    enum store_status s = db_begin(&pg);
    if (s != STORE_OK) return s;
    PGresult *res = NULL;
    s = db_run(&pg, st, n, vals, NULL, &res);
    if (s == STORE_OK && PQntuples(res) != 1) s = STORE_ERROR;
    int found = 0;
    if (s == STORE_OK) {
        found = db_long(res, 0, 0, 0) > 0;
        *number = db_long(res, 0, 1, 0);
    }
    PQclear(res);
    if (s == STORE_OK && !found) s = STORE_NOT_FOUND;
    if (s == STORE_OK) s = db_keyed_put(pg, keyed, arg, (int)*number);
    if (s == STORE_OK) s = db_exec(pg, "COMMIT", "commit");
    if (s != STORE_OK) {
        db_rollback(pg);
        *number = 0;
    }
    return s;
}

enum store_status store_chat_report(const char *game, int seq, int seat, const char *person,
                                    int *created, store_keyed keyed, void *arg)
{
    *created = 0;
    char q[12], st[12];
    snprintf(q, sizeof q, "%d", seq);
    snprintf(st, sizeof st, "%d", seat);
    const char *vals[4] = {game, q, st, person};
    long made = 0;
    enum store_status s = found_row_keyed(ST_CHAT_REPORT, 4, vals, &made, keyed, arg);
    *created = made > 0;
    return s;
}

enum store_status store_chat_hide(const char *game, int seq, store_keyed keyed, void *arg)
{
    char q[12];
    snprintf(q, sizeof q, "%d", seq);
    const char *vals[2] = {game, q};
    long hidden = 0;
    return found_row_keyed(ST_CHAT_HIDE, 2, vals, &hidden, keyed, arg);
}

/* db_row_text() of `st`, whose aggregate always has its one row: none is a fault. */
static enum store_status json_row(enum stmt st, int n, const char *const *vals, char **json)
{
    enum store_status s = db_row_text(st, n, vals, json);
    return s == STORE_NOT_FOUND ? STORE_ERROR : s;
}

enum store_status store_chat_reports(int limit, char **json)
{
    char l[12];
    snprintf(l, sizeof l, "%d", limit);
    const char *vals[1] = {l};
    return json_row(ST_CHAT_REPORTS, 1, vals, json);
}

enum store_status store_block_set(const char *blocker, const char *blocked, int on, int *changed,
                                  store_keyed keyed, void *arg)
{
    *changed = 0;
    const char *vals[2] = {blocker, blocked};
    if (!on) {
        PGconn *pg = db_conn();
        if (!pg) return STORE_UNAVAILABLE;
        long n = 0;
        enum store_status s = db_run_cmd(&pg, ST_BLOCK_DELETE, 2, vals, NULL, &n);
        *changed = n > 0;
        return s;
    }
    long made = 0;
    enum store_status s = found_row_keyed(ST_BLOCK_ADD, 2, vals, &made, keyed, arg);
    *changed = made > 0;
    return s;
}

enum store_status store_blocks_list(const char *blocker, char **json)
{
    const char *vals[1] = {blocker};
    return json_row(ST_BLOCKS_LIST, 1, vals, json);
}

/* Runs `st` with its one parameter `param` on the thread's connection: its rows into *res
 * (caller PQclears). */
static enum store_status rows_of(enum stmt st, const char *param, PGresult **res)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    const char *vals[1] = {param};
    return db_run(&pg, st, 1, vals, NULL, res);
}

enum store_status store_blocks_among(const char *persons, struct store_block **out, int *n)
{
    *out = NULL;
    *n = 0;
    PGresult *res;
    enum store_status s = rows_of(ST_BLOCKS_AMONG, persons, &res);
    if (s != STORE_OK) return s;
    int rows = PQntuples(res);
    if (rows > 0 && !(*out = calloc((size_t)rows, sizeof **out))) {
        PQclear(res);
        return STORE_ERROR;
    }
    for (int r = 0; r < rows; r++) {
        snprintf((*out)[r].blocker, sizeof(*out)[r].blocker, "%s", PQgetvalue(res, r, 0));
        snprintf((*out)[r].blocked, sizeof(*out)[r].blocked, "%s", PQgetvalue(res, r, 1));
    }
    *n = rows;
    PQclear(res);
    return STORE_OK;
}

enum store_status store_person_suspend(const char *id, int on, int *games, store_keyed keyed,
                                       void *arg)
{
    *games = 0;
    const char *vals[2] = {id, on ? "true" : "false"};
    long touched = 0;
    enum store_status s = found_row_keyed(ST_PERSON_SUSPEND, 2, vals, &touched, keyed, arg);
    *games = (int)touched;
    return s;
}

enum store_status store_game_suspended_seats(const char *game, unsigned *mask)
{
    *mask = 0;
    PGresult *res;
    enum store_status s = rows_of(ST_GAME_SUSPENDED, game, &res);
    if (s != STORE_OK) return s;
    for (int i = 0; i < PQntuples(res); i++) {
        long seat = db_long(res, i, 0, -1);
        if (seat >= 0 && seat < 32) *mask |= 1u << seat;
    }
    PQclear(res);
    return STORE_OK;
}
