/* store_db.h: what the store's files share, and nothing outside them includes: the
 * prepared statements (their SQL is in store_db.c), the calling thread's connection, and
 * running a statement on it. */
#ifndef API_STORE_DB_H
#define API_STORE_DB_H

#include <libpq-fe.h>

#include "store.h"
#include "store_games.h"

#define DB_MAX_PARAMS 24 /* parameters of one statement */

/*
 * The calling thread's connections (from its next one on) look rows up by their indexes
 * only (enable_seqscan off): for the batcher's threads, whose statements find a few games
 * by their ids. A generic plan is made once per connection, and one made while the games
 * table was small (a new database) scans the whole table, and goes on scanning it as it
 * grows, until the next ANALYZE; measured, a fresh database's first minute scanned it at
 * every batch.
 */
void db_index_lookups(void);

/* After a commit: wakes the webhook deliveries and the job workers when it gave them work
 * (store.c). */
void store_wake(long deliveries, long jobs);

/* The statements every connection prepares. */
enum stmt {
    ST_PING,
    ST_GAME_LOAD,
    ST_GAME_INSERT,
    ST_PLAYER_INSERT,
    ST_EVENTS_INSERT,
    ST_EVENTS_INSERT_RATED,
    ST_RESIGNATIONS,
    ST_GAME_UPDATE,
    ST_ACTION_INSERT,
    ST_GAME_COMMIT,
    ST_GAME_COMMIT_JOBS,
    ST_GAME_COMMIT_ROWS,
    ST_EVENTS_LIST,
    ST_IDEM_GET,
    ST_IDEM_PUT,
    ST_PERSON_INSERT,
    ST_PERSON_BY_TOKEN,
    ST_PERSON_TOKEN,
    ST_GAME_VERSION,
    ST_GAME_VERSIONS,
    ST_AFTER_COMMIT,
    ST_EVENTS_EACH,
    ST_WEBHOOK_PUT,
    ST_WEBHOOK_DELETE,
    ST_WEBHOOK_STATE,
    ST_WEBHOOK_CLAIM,
    ST_WEBHOOK_DONE,
    ST_WEBHOOK_DEFER,
    ST_WEBHOOK_HOST_DEFER,
    ST_COUNTS,
    ST_GAME_WATCH,
    ST_REMATCH_FIND, /* 0009: the next game of a finished one */
    ST_SEAT_CLAIM,   /* 0009: a rematch seat's token, set once */
    ST_JOBS_SET,
    ST_JOB_CLAIM,
    ST_JOB_OWNERS_PRUNE,
    ST_JOB_DROP,
    ST_JOB_RETRY,
    /* A person's games and webhook (store_inbox.c, 0012). */
    ST_INBOX_PAGE,
    ST_INBOX_PAGE_STATUS,
    ST_PLAYER_GAMES_PAGE,
    ST_PERSON_HOOK_PUT,
    ST_PERSON_HOOK_ROWS,
    ST_PERSON_HOOK_CLEAR,
    ST_PERSON_HOOK_DROP,
    ST_PERSON_HOOK_STATE,
    ST_JOIN_GAME,
    ST_JOIN_SEAT,
    ST_GAME_HISTORY, /* store_history.c: the setup and actions of a past version */
    ST_GAME_EXPORT,  /* store_export.c: the setup, seats, status and every action */
    ST_REPLAY_ROWS,  /* store_export.c: a replayed game's actions, their events, its version */
    /* Retention (store_retention.c, 0017). */
    ST_RETENTION_DELETE,
    ST_LOBBIES_EXPIRED,
    ST_IDEM_PURGE,
    ST_JOB_FREE_PLAN,
    ST_JOB_DROP_FREE,
    ST_PERSON_LOCK,
    ST_SEEKS_OPEN_OF,
    ST_SEEK_INSERT,
    ST_SEEK_POLL,
    ST_SEEK_GET,
    ST_SEEK_CANCEL,
    ST_SEEKS_LOBBY,
    ST_SEEKS_EXPIRE,
    ST_SEEKS_PURGE,
    ST_SEEKS_WAITING,
    ST_SEEKS_BIND,
    ST_SERVER_KEY, /* 0022: a shared secret of server_keys */
    /* Ratings (store_ratings.c, 0023). */
    ST_RATINGS_ENSURE,
    ST_RATINGS_LOCK,
    ST_RATINGS_WRITE,
    ST_RATINGS_PERSON,
    ST_RATINGS_HISTORY,
    ST_RATINGS_BOARD,
    ST_RATINGS_BOTS,
    /* Talk, blocks and moderation (store_chat.c, 0026). */
    ST_CHAT_POST,
    ST_CHAT_EACH,
    ST_CHAT_REPORT,
    ST_CHAT_HIDE,
    ST_CHAT_REPORTS,
    ST_BLOCK_ADD,
    ST_BLOCK_DELETE,
    ST_BLOCKS_LIST,
    ST_BLOCKS_AMONG,
    ST_PERSON_SUSPEND,
    ST_GAME_SUSPENDED,
    /* Tournaments (store_tournaments.c, 0031). */
    ST_TOURNEY_INSERT,
    ST_TOURNEY_LOCK,
    ST_TOURNEY_JOIN,
    ST_TOURNEY_LEAVE,
    ST_TOURNEY_JSON,
    ST_TOURNEY_LIST,
    /* Tournaments after the start (store_tourney_rounds.c, 0032). */
    ST_TOURNEY_START,
    ST_TOURNEY_CANCEL,
    ST_TOURNEY_ROW,
    ST_TOURNEY_SEEDED,
    ST_TOURNEY_TABLES,
    ST_TOURNEY_PAIRING_PUT,
    ST_TOURNEY_TABLE_BIND,
    ST_TOURNEY_ROUND_BEGIN,
    ST_TOURNEY_FINISH,
    ST_TOURNEY_EVENT_PUT,
    ST_TOURNEY_JOB_DONE,
    ST_TOURNEY_CHECK,
    ST_TOURNEY_EVENTS,
    ST_TOURNEY_LEFT_SEATS,
    ST_TOURNEY_WITHDRAW,
    ST_TOURNEY_SWEEP_PLAN,
    /* The lobby's lists (store_lobby.c, 0035). */
    ST_LOBBY_PAGE,
    /* The analysis of a finished game (store_analysis.c, 0036). */
    ST_ANALYSIS_GET,
    ST_ANALYSIS_DONE,
    ST_ANALYSIS_PUT,
    ST_COUNT
};

/* The calling thread's connection (statements prepared), connecting when needed; NULL
 * while the database is unreachable (then retried after a pause). */
PGconn *db_conn(void);

/* A new connection to the database store_init() was given (its notices logged), or NULL:
 * then the failure of `what` is logged and counted as a database error. */
PGconn *db_connect(const char *what);

/* 1 when the server of `pg` said (ParameterStatus, PostgreSQL 14+) that it is a standby
 * or takes no writes by default (fenced or demoted): the connection must be replaced. */
int db_read_only(const PGconn *pg);

/* Logs the failure of `what` with libpq's message (of `res`, else of `pg`). */
void db_log(const char *what, PGconn *pg, const PGresult *res);

/* A libpq notice processor: PostgreSQL's notices go to the log at debug level. */
void db_on_notice(void *arg, const char *message);

/*
 * Runs prepared statement `st` with `n` parameters (text, except those with a nonzero
 * length in `lens`, which are binary; results in binary with `binary`) on *pgp. On success
 * *out holds the result (caller PQclears) and STORE_OK is returned; else the mapped
 * failure. Outside a transaction, a dead or stale connection is replaced before use, and
 * a statement that never reached the server, or that is harmless to repeat, is run once
 * more on a new connection when the connection is lost under it (*pgp then names the
 * new connection; see store_db.c).
 */
enum store_status db_run_fmt(PGconn **pgp, enum stmt st, int n, const char *const *vals,
                             const int *lens, int binary, PGresult **out);

/* The name statement `st` is prepared under ("s" and its number). */
void db_stmt_name(enum stmt st, char name[16]);

/* Sends the preparation of `st` into the pipeline on `pg` (the calling thread's
 * connection) unless `st` is prepared there already: 1 when sent (its answer comes before
 * the statement's), 0 when not needed, -1 when it could not be sent. */
int db_pipe_prepare(PGconn *pg, enum stmt st);

/* The preparation of `st` sent by db_pipe_prepare() failed: it is prepared at its next use. */
void db_pipe_unprepared(PGconn *pg, enum stmt st);

/* db_run_fmt() with results in text. */
enum store_status db_run(PGconn **pgp, enum stmt st, int n, const char *const *vals,
                         const int *lens, PGresult **out);

/*
 * Runs `st` (as db_run_fmt) on the calling thread's connection and expects one row:
 * STORE_OK with *out holding it (caller PQclears), STORE_NOT_FOUND when the result has no
 * row or more than one, STORE_UNAVAILABLE without a connection, else the mapped failure.
 */
enum store_status db_run_row(enum stmt st, int n, const char *const *vals, int binary,
                             PGresult **out);

/* db_run_row() of a statement with one parameter, `param` (an id, mostly). */
enum store_status db_row_of(enum stmt st, const char *param, int binary, PGresult **out);

/* db_run_row() of a statement with two parameters, `param` and the number `n`, in text. */
enum store_status db_row_of_int(enum stmt st, const char *param, long n, PGresult **out);

/* db_run_row() of a statement whose one column is text: a copy of it into *text
 * (malloc'd, NUL-terminated; NULL unless STORE_OK), STORE_ERROR when out of memory.
 * STORE_NOT_FOUND (no row, or more than one) is passed on for the caller to map. */
enum store_status db_row_text(enum stmt st, int n, const char *const *vals, char **text);

/* Runs a page's statement `st` ($1 the text `id`, $2 the number `after`, $3 the number
 * `limit`, in text) as db_run on the calling thread's connection (STORE_UNAVAILABLE
 * without one); *out as db_run's. */
enum store_status db_run_page(enum stmt st, const char *id, int after, int limit, PGresult **out);

/* Calls fn(arg, seq, type, text, len) for the rows of `res` in order, with the event's seq
 * in column `col` and its type and text in the two columns after it, up to the first row
 * whose seq is NULL (a row with no event); *count gets the calls that returned 0. Returns
 * STORE_ERROR as soon as fn returns nonzero, else STORE_OK. */
enum store_status db_events_each(const PGresult *res, int col,
                                 int (*fn)(void *arg, int seq, const char *type, const char *text,
                                           size_t len),
                                 void *arg, int *count);

/* Runs `st` and discards the result; *affected (if not NULL) gets the rows changed. */
enum store_status db_run_cmd(PGconn **pgp, enum stmt st, int n, const char *const *vals,
                             const int *lens, long *affected);

/* Column `col` of row `row` as a long, or `null_value` when NULL. */
long db_long(const PGresult *res, int row, int col, long null_value);

/* Copies column `col` of row `row` into dst[cap]; -1 when it does not fit. */
int db_take_text(const PGresult *res, int row, int col, char *dst, size_t cap);

/* Copies column `col` of row 0 into dst[cap], cut to fit; "" when NULL. */
void db_copy_text(const PGresult *res, int col, char *dst, size_t cap);

/* Runs a plain SQL command (BEGIN, COMMIT, a migration script) without parameters. */
enum store_status db_exec(PGconn *pg, const char *sql, const char *what);

/* Starts a transaction, on a new connection if the thread's one is stale or dead. */
enum store_status db_begin(PGconn **pgp);

/* Ends a failed transaction if the connection is still there. */
void db_rollback(PGconn *pg);

/* The status of failed result `res` of statement `st` on `pg` (NULL: nothing came back), as
 * db_run maps it: a lost connection is dropped (STORE_UNAVAILABLE), a duplicate key is
 * STORE_DUPLICATE, a serialization failure STORE_CONFLICT, else STORE_ERROR (logged). */
enum store_status db_failure(PGconn *pg, const PGresult *res, enum stmt st);

/* Closes `pg` if it is the calling thread's connection (a new one is made on next use). */
void db_conn_discard(PGconn *pg);

/* Remembers an idempotent answer inside the current transaction (store.c). */
enum store_status db_idem_put(PGconn *pg, const struct store_idem *idem);
/* In the transaction on `pg`: the answer that `keyed` (NULL: none) makes of `outcome` stored
 * with db_idem_put, when it keeps one (store_tourney_keyed in store_tournaments.h). */
enum store_status db_keyed_put(PGconn *pg, int (*keyed)(void *, int, const struct store_idem **),
                               void *arg, int outcome);

#endif
