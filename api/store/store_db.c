/* store_db.c: the database under the store: every SQL statement the service prepares
 * (one table, so that all of them can be read in one place), one connection per thread,
 * running a statement with reconnection and error mapping, transactions, migrations.
 *
 * After the database restarted, every thread's connection is dead, but a thread learns it
 * only when it uses its own. So that no request fails once the database is back, a
 * connection is checked before each use outside a transaction and replaced when it is
 * dead or stale: dead when libpq says so or its socket shows the server's farewell (a
 * restarted server closes every connection, and the end of the stream is readable at
 * once); stale when the generation changed since it connected. The generation is bumped
 * whenever any connection is found lost (one lost connection makes all the others
 * suspect) and when the live hub's listening connection is lost or comes back
 * (store_conns_stale). A thread whose attempt to connect failed waits RECONNECT_DELAY_MS
 * before the next, unless some connection succeeded since (the database is back). A
 * statement is run again on a new connection only when repeating it cannot do harm: it
 * never reached the server, or it reads only or is idempotent (stmt_repeatable).
 *
 * Failover: DATABASE_URL may name several hosts (host=a,b or postgresql://a,b/db); every
 * connection asks for a server that takes writes (target_session_attrs=read-write, added
 * unless the URL sets it), so a new connection goes to whichever host is the primary now.
 * A server that answers 25006 (read_only_sql_transaction) or reports itself read-only
 * (in_hot_standby, default_transaction_read_only) counts as lost: its connection is
 * replaced and every other one made stale, as when a connection dies. */
#include "store.h"

#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <libpq-fe.h>

#include "log.h"
#include "metrics.h"
#include "req.h"
#include "store_db.h"
#include "store_retention.h"
#include "store_tourney_rounds.h"

#define MIGRATION_LOCK_KEY "7596138466117266540" /* pg_advisory_lock key of migrations */
#define RECONNECT_DELAY_MS 250                   /* between attempts of one thread */
#define STATE_READ_ONLY    "25006"               /* read_only_sql_transaction */

/*
 * The common table expressions that write the background jobs (STORE_JOBS_JSON in `json`)
 * of game `game` for version `version` (0010): jx the entries, jd the removals, ji the
 * rows written (a job already there is replaced: lease and attempts cleared).
 */
#define JOBS_CTE(game, version, json)                                                              \
    "jx AS (SELECT x->>'kind' AS kind, (x->>'due_ms')::bigint AS due_ms, "                         \
    "coalesce((x->>'lease_ms')::integer, 10000) AS lease_ms FROM json_array_elements(" json        \
    "::json) AS x), jd AS (DELETE FROM jobs j USING jx WHERE j.game_id = " game " AND j.kind = "   \
    "jx.kind AND jx.due_ms IS NULL RETURNING 1), ji AS (INSERT INTO jobs (game_id, kind, "         \
    "version, due_at, lease_ms) SELECT " game ", kind, " version ", now() + due_ms * interval "    \
    "'1 millisecond', lease_ms FROM jx WHERE due_ms IS NOT NULL AND " game " IS NOT NULL ON "      \
    "CONFLICT (game_id, kind, subject) DO UPDATE SET version = EXCLUDED.version, due_at = "        \
    "EXCLUDED.due_at, lease_ms = EXCLUDED.lease_ms, claimed_until = NULL, attempts = 0 "           \
    "RETURNING 1)"

/* A waiting seek that has lapsed (0027): past its expiry, or live and not polled for the
 * seconds of parameter `p` (store_seeks_set_lapse). */
#define SEEK_LAPSED(p)                                                                             \
    "(s.expires_at <= now() OR (s.live AND s.polled_at < now() - " p "::integer * interval "       \
    "'1 second'))"
#define SEEK_LAPSED_1 SEEK_LAPSED("$1")
#define SEEK_LAPSED_2 SEEK_LAPSED("$2")
#define SEEK_LAPSED_4 SEEK_LAPSED("$4")

/* A seek's columns as store_seeks.c reads them (seeks s, people p). */
#define SEEK_COLUMNS                                                                               \
    "s.id::text, s.person_id::text, p.name, s.status, coalesce(s.game_id::text, ''), s.seat, "     \
    "s.pool, s.players, s.live, s.rating, s.rating_min, s.rating_max, s.bot_after_s, "             \
    "(extract(epoch FROM now() - s.created_at) * 1000)::bigint, to_char(s.created_at AT TIME "     \
    "ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), to_char(s.expires_at AT TIME ZONE 'UTC', "     \
    "'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), s.pool::json->>'ruleset'"

/* Who a job's fair share is counted for (ST_JOB_CLAIM): its game's creating address, else its
 * game, else (a job of no game, 0027) its kind and subject. */
#define JOB_OWNER "coalesce(g.owner, j.game_id::text, 'job:' || j.kind || ':' || j.subject)"

/* Sent at commit when JOBS_CTE wrote a job: wakes the job workers of every server. */
#define JOBS_NOTIFY                                                                                \
    "(SELECT pg_notify('" STORE_JOBS_CHANNEL "', '') WHERE EXISTS (SELECT 1 FROM ji))"

/*
 * A page of the games of the person whose token hash is $1 (0012), in the list's order
 * from the index players_inbox (or players_inbox_status with `filter`): ranks $2 .. $3 (0:
 * the person's turn), after the keys ($4, $5, $6, $7) of the last entry shown before, at
 * most $8 + 1 entries (one more than a page: then another page follows). The person is
 * found in the same statement (one round trip per page): no row when the hash is no
 * person's. One row per entry, in order, each with the person (id, name, token hash), the
 * count of the person's games where it is its turn, the entry's keys, its game's turn, the
 * seats' names (0016; read from the seats while the game has not moved since its creation)
 * and scores as arrays by seat; a single row with the person and the count but NULL entry
 * columns when the page is empty. Results in binary.
 */
#define INBOX_PAGE(filter) INBOX_PAGE_OF("token_hash = $1::bytea", filter)
/* The same page of the person `who` finds (a condition on people); rated games (0025) add
 * whether the game is rated and, once rated, its seats' ratings before and after (rounded,
 * int4[] by seat; NULL before). */
#define INBOX_PAGE_OF(who, filter)                                                                 \
    "WITH me AS (SELECT id, name, token_hash, (SELECT count(*) FROM players x WHERE x.person_id "  \
    "= people.id AND x.inbox_rank = 0) AS turns, (suspended_at IS NOT NULL)::integer AS "          \
    "suspended FROM people WHERE " who "), "                                                       \
    "f AS (SELECT p.game_id, p.seat, p.inbox_rank, p.inbox_deadline, p.inbox_recency "             \
    "FROM players p WHERE p.person_id = (SELECT id FROM me)" filter " AND p.inbox_rank BETWEEN "   \
    "$2::smallint AND $3::smallint AND (p.inbox_rank, p.inbox_deadline, p.inbox_recency, "         \
    "p.game_id) > ($4::smallint, $5::bigint, $6::bigint, $7::uuid) ORDER BY p.inbox_rank, "        \
    "p.inbox_deadline, p.inbox_recency, p.game_id LIMIT $8::integer + 1) "                         \
    "SELECT me.id::text, me.name, me.token_hash, me.turns, f.game_id::text, f.seat::integer, "     \
    "f.inbox_rank::integer, f.inbox_deadline, f.inbox_recency, g.ruleset, g.status, "              \
    "g.version::integer, g.turn_number::integer, g.turn_seat::integer, g.turn_phase, "             \
    "coalesce(g.seat_names, ARRAY(SELECT x.name FROM players x WHERE x.game_id = g.id ORDER BY "   \
    "x.seat)), g.scores::integer[], g.rated::integer, (SELECT array_agg(round(h.rating_before)::"  \
    "integer ORDER BY h.seat) FROM rating_history h WHERE h.game_id = g.id), (SELECT "             \
    "array_agg(round(h.rating_after)::integer ORDER BY h.seat) FROM rating_history h WHERE "       \
    "h.game_id = g.id), me.suspended FROM me LEFT JOIN (f JOIN games g ON g.id = f.game_id) ON "   \
    "true ORDER BY f.inbox_rank, f.inbox_deadline, f.inbox_recency, f.game_id"

/* A rating's columns as store_ratings.c reads them (r: ratings, p: people; 0023). */
#define RATING_COLUMNS                                                                             \
    "r.subject, r.pool, coalesce(p.name, r.bot), coalesce(r.bot, ''), "                            \
    "coalesce(r.think_class, ''), r.rating, r.deviation, r.volatility, r.games, r.won, r.drawn, "  \
    "r.lost, coalesce((extract(epoch FROM r.last_rated_at) * 1000)::bigint, 0), "                  \
    "(extract(epoch FROM now()) * 1000)::bigint"

/*
 * The statement of a whole action (ST_GAME_COMMIT, ST_GAME_COMMIT_JOBS), in the order of
 * its parts: g the game's row, guarded by its version, with the turn and scores (0012,
 * struct store_turn: a NULL phase $13 keeps what is stored) and the clock (0014); a the
 * action (none for a commit of events only, $7 NULL: a clock's deadline_near, 0011); e the
 * events; w a delivery per event for each webhook of the game (0003, 0006), from the
 * events' rows (their text is read once); `jobs` (JOBS_CTE of $17, or ""). Answers the
 * deliveries written (the caller kicks its workers), and, sent at commit only, the
 * notification that wakes the streams and long polls of every server while one of them
 * watches the game (0004), then `jobs_out` (the jobs written and their notification).
 */
#define GAME_COMMIT(jobs, jobs_out)                                                                \
    "WITH g AS (UPDATE games SET version = $2::integer + 1, status = $3, "                         \
    "last_seq = $4::integer, snapshot = $5::bytea, updated_at = now(), result = $10, "             \
    "turn_number = CASE WHEN $13::text IS NULL THEN turn_number ELSE $11::integer END, "           \
    "turn_seat = CASE WHEN $13::text IS NULL THEN turn_seat ELSE $12::integer END, "               \
    "turn_phase = coalesce($13::text, turn_phase), scores = CASE WHEN $13::text IS NULL THEN "     \
    "scores ELSE $14::integer[] END, clock = $15::jsonb, deadline = $16::timestamptz "             \
    "WHERE id = $1::uuid AND version = $2::integer RETURNING id, watched_until), "                 \
    "a AS (INSERT INTO actions (game_id, version, seat, kind, body) "                              \
    "SELECT id, $2::integer + 1, $6::integer, $7, $8::jsonb FROM g WHERE $7::text IS NOT NULL), "  \
    "e AS (INSERT INTO events (game_id, seq, version, type, payload) "                             \
    "SELECT g.id, (x->>'seq')::integer, $2::integer + 1, x->>'type', x "                           \
    "FROM g, json_array_elements($9::json) AS x RETURNING seq), "                                  \
    "w AS (INSERT INTO webhook_deliveries (webhook_id, seq) "                                      \
    "SELECT h.id, e.seq FROM g JOIN webhooks h ON h.game_id = g.id, e RETURNING 1)" jobs " "       \
    "SELECT (SELECT count(*) FROM w), (SELECT pg_notify('" STORE_EVENTS_CHANNEL "', g.id::text "   \
    "|| ':' || $4::integer) WHERE g.watched_until > now()), " jobs_out " FROM g"

/* A time as the API writes it (UTC, milliseconds, Z). */
#define TOURNEY_TIME_SQL(col)                                                                      \
    "to_char(" col " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
/* A tournament t (organiser o) as TournamentSummary (openapi.yaml). */
#define TOURNEY_SUMMARY_SQL                                                                        \
    "json_build_object('id', t.id, 'name', t.name, 'organiser', json_build_object('id', o.id, "    \
    "'name', o.name), 'format', t.format, 'ruleset', t.ruleset, 'options', t.options, "            \
    "'players_per_game', t.players_per_game, 'rounds', t.rounds, 'clock', t.clock, 'rated', "      \
    "t.rated, 'max_players', t.max_players, 'starts_at', " TOURNEY_TIME_SQL(                       \
        "t.starts_at") ", 'status', t.status, 'entrant_count', (SELECT count(*) FROM "             \
                       "tournament_entrants c "                                                    \
                       "WHERE c.tournament_id = t.id), 'created_at', " TOURNEY_TIME_SQL(           \
                           "t.created_at") ")"

/* The rating subject (0023) of seat p (players p): a person's id, a computer player's level
 * and think class, else NULL (a named or open seat has no rating). */
#define SEAT_SUBJECT_SQL                                                                           \
    "CASE WHEN p.person_id IS NOT NULL THEN p.person_id::text WHEN p.bot IS NOT NULL THEN "        \
    "'bot:' || p.bot || ':' || CASE WHEN p.think_ms < 100 THEN 'fast' WHEN p.think_ms < 1000 "     \
    "THEN 'normal' ELSE 'slow' END END"

/* A listed game g (0035) as LobbyGame (openapi.yaml): its setup, the clock's settings (not
 * where it stands), and its seats by number, an open one without a name, a taken one with
 * its player or computer player and its rating in the game's pool (rounded), if any. */
#define LOBBY_GAME_SQL                                                                             \
    "json_build_object('id', g.id, 'ruleset', g.ruleset, 'options', g.options, 'clock', "          \
    "CASE WHEN g.clock IS NOT NULL THEN jsonb_strip_nulls(jsonb_build_object('turn_seconds', "     \
    "g.clock->'turn_seconds', 'initial_seconds', g.clock->'initial_seconds', "                     \
    "'increment_seconds', g.clock->'increment_seconds', 'on_timeout', g.clock->'on_timeout')) "    \
    "END, 'rated', g.rated, 'status', g.status, 'created_at', " TOURNEY_TIME_SQL(                  \
        "g.created_at") ", 'seats', (SELECT json_agg(json_build_object('seat', p.seat, 'open', "   \
                        "p.invite_hash IS NOT NULL, 'name', CASE WHEN p.invite_hash IS NULL "      \
                        "THEN p.name END, 'player', p.person_id, 'bot', p.bot, 'rating', "         \
                        "round(r.rating)::integer) ORDER BY p.seat) FROM players p LEFT JOIN "     \
                        "ratings r ON r.pool = g.ruleset AND r.subject = " SEAT_SUBJECT_SQL        \
                        " WHERE p.game_id = g.id))"

static const char *const stmt_sql[ST_COUNT] = {
    [ST_PING] = "SELECT 1",
    /* One row per seat; the snapshot only in the first (results in binary); the person a
     * seat is bound to (0008), or NULL; the game's status and the seat's invite hash while
     * it is open (0009), or NULL. */
    [ST_GAME_LOAD] = "SELECT g.version, g.last_seq, p.seat, p.name, p.token_hash, "
                     "CASE WHEN p.seat = 0 THEN g.snapshot END, p.person_id::text, "
                     /* A computer player's seat and the hints switch (0010). */
                     "coalesce(p.bot, ''), coalesce(p.think_ms, 0), g.hints::integer, "
                     /* A rematch seat whose token is not handed out yet (0009). */
                     "p.token_unclaimed, "
                     /* The game's status and an open seat's invite (0013). */
                     "g.status, p.invite_hash, "
                     /* The clock (0014), in the first row only. */
                     "CASE WHEN p.seat = 0 THEN g.clock::text END, "
                     /* Whether the creator chose the seed (0022). */
                     "g.seed_chosen::integer, "
                     /* Whether the game is rated (0025), who reads the chat (0026). */
                     "g.rated::integer, g.chat_public::integer, "
                     /* The seat's rating in the game's pool (0023) as text, the database's
                      * clock, and whether the seat has a rating at all (a person's or a
                      * computer player's): its subject, as ratings_subject() names it. */
                     "r.rating::text, r.deviation::text, r.volatility::text, r.games::text, "
                     "(extract(epoch FROM r.last_rated_at) * 1000)::bigint::text, "
                     "(extract(epoch FROM now()) * 1000)::bigint::text, "
                     "(p.person_id IS NOT NULL OR p.bot IS NOT NULL)::integer, "
                     /* Whether the game is in the lobby's lists (0035). */
                     "g.listed::integer "
                     "FROM games g "
                     "JOIN players p ON p.game_id = g.id "
                     "LEFT JOIN ratings r ON r.pool = g.ruleset AND r.subject = " SEAT_SUBJECT_SQL
                     " WHERE g.id = $1::uuid ORDER BY p.seat",
    [ST_GAME_INSERT] =
        "INSERT INTO games (id, ruleset, options, seed, start_tile, custom_deck, "
        "version, status, last_seq, snapshot, hints, result, rematch_of, "
        "turn_number, turn_seat, turn_phase, scores, clock, deadline, seed_chosen, owner, rated, "
        "chat_public, listed) VALUES ($1::uuid, $2, $3::jsonb, $4::numeric, $5, $6::jsonb, 1, $7, "
        "$8::integer, "
        "$9::bytea, NOT $10::boolean, $11, $12::uuid, $13::integer, $14::integer, "
        "$15, $16::integer[], $17::jsonb, $18::timestamptz, $19::boolean, $20, $21::boolean, "
        "$22::boolean, $23::boolean)",
    [ST_PLAYER_INSERT] = "INSERT INTO players (game_id, seat, name, token_hash, person_id, bot, "
                         "think_ms, token_unclaimed, invite_hash) VALUES ($1::uuid, $2::integer, "
                         "$3, $4::bytea, $5::uuid, $6, $7::integer, coalesce($8::boolean, false), "
                         "$9::bytea)",
    [ST_EVENTS_INSERT] = "INSERT INTO events (game_id, seq, version, type, payload) "
                         "SELECT $1::uuid, (e->>'seq')::integer, $2::integer, e->>'type', e "
                         "FROM json_array_elements($3::json) AS e",
    /* The events of a commit that ends a rated game (0025): as ST_EVENTS_INSERT, with the
     * JSON array $4 (each seat's rating before and after) added to game_finished as its
     * last member "ratings" (the event's text kept as it is, its members in order). */
    [ST_EVENTS_INSERT_RATED] =
        "INSERT INTO events (game_id, seq, version, type, payload) "
        "SELECT $1::uuid, (e->>'seq')::integer, $2::integer, e->>'type', CASE WHEN "
        "e->>'type' = 'game_finished' THEN (left(rtrim(e::text), -1) || ',\"ratings\":' || "
        "$4::json::text || '}')::json ELSE e END FROM json_array_elements($3::json) AS e",
    /* When each seat of game $1 that resigned or timed out left it: the version of its
     * last resignation (a timeout that resigns is one too), for the finishing order. */
    [ST_RESIGNATIONS] = "SELECT seat, max(version) FROM actions WHERE game_id = $1::uuid AND "
                        "kind = 'resign' GROUP BY seat",
    [ST_GAME_UPDATE] = "UPDATE games SET version = $2::integer + 1, status = $3, "
                       "last_seq = $4::integer, snapshot = $5::bytea, updated_at = now(), "
                       "result = $6, "
                       /* The turn and scores (0012, struct store_turn): a NULL phase ($9)
                        * keeps what is stored. */
                       "turn_number = CASE WHEN $9::text IS NULL THEN turn_number "
                       "ELSE $7::integer END, turn_seat = CASE WHEN $9::text IS NULL "
                       "THEN turn_seat ELSE $8::integer END, turn_phase = coalesce($9::text, "
                       "turn_phase), scores = CASE WHEN $9::text IS NULL THEN scores "
                       "ELSE $10::integer[] END, "
                       /* The clock (0014). */
                       "clock = $11::jsonb, deadline = $12::timestamptz "
                       "WHERE id = $1::uuid AND version = $2::integer",
    [ST_ACTION_INSERT] = "INSERT INTO actions (game_id, version, seat, kind, body) "
                         "VALUES ($1::uuid, $2::integer, $3::integer, $4, $5::jsonb)",
    /* A whole action in one statement (one round trip, its own transaction): nothing is
     * written unless the version is still the one read; answers 1 row, or 0 (moved on).
     * Without the jobs' expressions when the commit writes none (most moves): PostgreSQL
     * sets up every data-modifying CTE of a statement at each execution, even one that
     * writes nothing. */
    [ST_GAME_COMMIT] = GAME_COMMIT("", "0, NULL"),
    [ST_GAME_COMMIT_JOBS] =
        GAME_COMMIT(", " JOBS_CTE("(SELECT id FROM g)", "$2::integer + 1", "$17"),
                    "(SELECT count(*) FROM ji), " JOBS_NOTIFY),
    /* The commits of several games in one statement (a group commit, batcher.c,
     * store_batch.c): $1 .. $16 arrays (sent in binary) with an entry per game, each what
     * ST_GAME_COMMIT's parameter of that place is (the scores as the text of an integer
     * array), each game written as ST_GAME_COMMIT writes its own. The games and their
     * webhooks are found by the ids' index ($1): a join alone would scan them while the
     * tables are small. Answers a row per game whose version held: its id, the deliveries
     * the statement wrote, and the notification of the game while watched. */
    [ST_GAME_COMMIT_ROWS] =
        "WITH b AS (SELECT * FROM unnest($1::uuid[], $2::integer[], $3::text[], $4::integer[], "
        "$5::bytea[], $6::integer[], $7::text[], $8::text[], $9::text[], $10::text[], "
        "$11::integer[], $12::integer[], $13::text[], $14::text[], $15::text[], $16::text[]) AS "
        "b(id, version, status, last_seq, snapshot, seat, kind, action, events, result, "
        "turn_number, turn_seat, turn_phase, scores, clock, deadline)), "
        "g AS (UPDATE games SET version = b.version + 1, status = b.status, "
        "last_seq = b.last_seq, snapshot = b.snapshot, updated_at = now(), result = b.result, "
        "turn_number = CASE WHEN b.turn_phase IS NULL THEN games.turn_number ELSE "
        "b.turn_number END, turn_seat = CASE WHEN b.turn_phase IS NULL THEN games.turn_seat "
        "ELSE b.turn_seat END, turn_phase = coalesce(b.turn_phase, games.turn_phase), "
        "scores = CASE WHEN b.turn_phase IS NULL THEN games.scores ELSE b.scores::integer[] "
        "END, clock = b.clock::jsonb, deadline = b.deadline::timestamptz FROM b "
        "WHERE games.id = ANY ($1::uuid[]) AND games.id = b.id AND games.version = b.version "
        "RETURNING games.id, games.watched_until, b.version, b.seat, b.kind, b.action, "
        "b.events, b.last_seq), "
        "a AS (INSERT INTO actions (game_id, version, seat, kind, body) "
        "SELECT id, version + 1, seat, kind, action::jsonb FROM g WHERE kind IS NOT NULL), "
        "e AS (INSERT INTO events (game_id, seq, version, type, payload) "
        "SELECT g.id, (x->>'seq')::integer, g.version + 1, x->>'type', x "
        "FROM g, json_array_elements(g.events::json) AS x RETURNING game_id, seq), "
        "w AS (INSERT INTO webhook_deliveries (webhook_id, seq) "
        "SELECT h.id, e.seq FROM webhooks h JOIN e ON e.game_id = h.game_id "
        "WHERE h.game_id = ANY ($1::uuid[]) RETURNING 1) "
        "SELECT g.id::text, (SELECT count(*) FROM w), (SELECT pg_notify('" STORE_EVENTS_CHANNEL
        "', g.id::text || ':' || g.last_seq) WHERE g.watched_until > now()) FROM g",
    /* The game's events after $2 (no row: no such game; one row with NULL: none). */
    /* A page of events, each row with the game's status and last seq (one snapshot). */
    [ST_EVENTS_LIST] = "SELECT e.payload, g.status, g.last_seq, e.seq FROM games g LEFT JOIN "
                       "LATERAL (SELECT seq, payload FROM events WHERE game_id = g.id AND seq > "
                       "$2::integer ORDER BY seq LIMIT $3::integer) e ON true WHERE g.id = "
                       "$1::uuid ORDER BY e.seq",
    /* Idempotent answers (0011): found by the key's hash, the body sealed. */
    [ST_IDEM_GET] = "SELECT request_hash, status, location, etag, body, sealed FROM idempotency "
                    "WHERE scope = $1 AND key_hash = decode($2, 'hex') "
                    "AND created_at > now() - interval '24 hours'",
    [ST_IDEM_PUT] =
        "INSERT INTO idempotency (scope, key_hash, request_hash, status, location, etag, sealed) "
        "VALUES ($1, $2::bytea, $3::bytea, $4::integer, $5, $6, $7::bytea) "
        "ON CONFLICT (scope, key_hash) "
        "DO UPDATE SET request_hash = EXCLUDED.request_hash, status = EXCLUDED.status, "
        "location = EXCLUDED.location, etag = EXCLUDED.etag, body = NULL, "
        "sealed = EXCLUDED.sealed, created_at = now() "
        "WHERE idempotency.created_at <= now() - interval '24 hours'",
    /* People (0007, store_player.c): one identity across games, found by its token's hash. */
    [ST_PERSON_INSERT] =
        "INSERT INTO people (id, name, token_hash) VALUES ($1::uuid, $2, $3::bytea)",
    [ST_PERSON_BY_TOKEN] =
        "SELECT id::text, name, token_hash, (suspended_at IS NOT NULL)::integer FROM people "
        "WHERE token_hash = $1::bytea",
    /* A new token hash ($2) for the person whose token hash is $1 now: of two replacements
     * racing with one token, the second waits for the first's row and then finds the hash
     * changed (PostgreSQL checks the WHERE again on the row as committed): it changes
     * nothing and answers no row. */
    [ST_PERSON_TOKEN] =
        "UPDATE people SET token_hash = $2::bytea, token_replaced = token_replaced + 1, "
        "token_changed_at = now() WHERE token_hash = $1::bytea RETURNING id::text, name",
    [ST_GAME_VERSION] = "SELECT version FROM games WHERE id = $1::uuid",
    [ST_GAME_VERSIONS] = "SELECT id::text, version FROM games WHERE id = ANY($1::uuid[])",
    /* What ST_GAME_COMMIT does besides, for a transaction of several statements (after
     * the game's row was written in it, so that a lease set before is seen): the webhook
     * deliveries of the events $3 (for each webhook of the game) and, while watched, the
     * notification of seq $2. */
    [ST_AFTER_COMMIT] = "WITH w AS (INSERT INTO webhook_deliveries (webhook_id, seq) "
                        "SELECT h.id, (x->>'seq')::integer FROM webhooks h, "
                        "json_array_elements($3::json) AS x WHERE h.game_id = $1::uuid "
                        "RETURNING 1) "
                        "SELECT (SELECT count(*) FROM w), (SELECT pg_notify('" STORE_EVENTS_CHANNEL
                        "', $1::uuid::text || ':' || $2::integer) FROM games WHERE id = "
                        "$1::uuid AND watched_until > now())",
    [ST_EVENTS_EACH] = "SELECT seq, type, payload::text FROM events WHERE game_id = $1::uuid "
                       "AND seq > $2::integer ORDER BY seq LIMIT $3::integer",
    /* The webhooks of a game, one per owner $4: 'creator' or 'seat:<n>' (0006), in format
     * $5 (0028). */
    [ST_WEBHOOK_PUT] = "INSERT INTO webhooks (game_id, owner, url, secret, format) VALUES "
                       "($1::uuid, $4, $2, $3, $5) ON CONFLICT (game_id, owner) DO UPDATE SET "
                       "url = EXCLUDED.url, secret = EXCLUDED.secret, format = EXCLUDED.format, "
                       "updated_at = now()",
    [ST_WEBHOOK_DELETE] = "DELETE FROM webhooks WHERE game_id = $1::uuid AND owner = $2",
    [ST_WEBHOOK_STATE] =
        "SELECT w.url, to_char(w.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), "
        "w.failed_attempts, w.last_error, w.last_error_seq, w.last_error_status, "
        "to_char(w.last_error_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), "
        "d.delivered, d.pending, d.gave_up, "
        "(SELECT max(seq) FROM webhook_deliveries x WHERE x.webhook_id = w.id AND "
        "x.kind = 'event' AND (x.delivered_at IS NOT NULL OR x.gave_up) AND "
        "x.seq < coalesce(d.first_pending, 2147483647)), w.format "
        "FROM webhooks w, LATERAL (SELECT count(*) FILTER (WHERE delivered_at IS NOT NULL) "
        "AS delivered, count(*) FILTER (WHERE delivered_at IS NULL AND NOT gave_up) AS "
        "pending, count(*) FILTER (WHERE gave_up) AS gave_up, min(seq) FILTER (WHERE "
        "kind = 'event' AND delivered_at IS NULL AND NOT gave_up) AS first_pending FROM "
        "webhook_deliveries WHERE webhook_id = w.id) d WHERE w.game_id = $1::uuid AND "
        "w.owner = $2",
    /* Claims (leases for $1 ms) up to $2 due deliveries, each the first undelivered of its
     * webhook and kind (so each webhook gets its game's events in order, and its chat
     * messages in order), skipping rows other servers hold, hosts in $3 and more than $4
     * of one host (of the 4 x $2 oldest due). An event comes with its version and whether
     * it is the last of it; a chat message (0028) as GET .../chat shows it. */
    [ST_WEBHOOK_CLAIM] =
        "WITH c AS (SELECT d.webhook_id, d.kind, d.seq, d.next_attempt_at, "
        "coalesce(w.host, '') AS host "
        "FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE "
        "d.delivered_at IS NULL AND NOT d.gave_up AND d.next_attempt_at <= now() AND NOT "
        "(coalesce(w.host, '') = ANY($3::text[])) AND NOT EXISTS (SELECT 1 FROM "
        "webhook_deliveries p WHERE p.webhook_id = d.webhook_id AND p.kind = d.kind AND "
        "p.seq < d.seq AND p.delivered_at IS NULL AND NOT p.gave_up) ORDER BY "
        "d.next_attempt_at LIMIT 4 * $2::integer FOR UPDATE OF d SKIP LOCKED), "
        "p AS (SELECT webhook_id, kind, seq FROM (SELECT c.*, row_number() OVER (PARTITION BY "
        "host ORDER BY next_attempt_at, seq) AS k FROM c) r WHERE k <= $4::integer ORDER BY "
        "next_attempt_at LIMIT $2::integer) "
        "UPDATE webhook_deliveries d SET attempts = d.attempts + 1, next_attempt_at = now() + "
        "$1::integer * interval '1 millisecond' FROM p JOIN webhooks w ON w.id = p.webhook_id "
        "LEFT JOIN events e ON p.kind = 'event' AND e.game_id = w.game_id AND e.seq = p.seq "
        "LEFT JOIN chat_messages m ON p.kind = 'chat' AND m.game_id = w.game_id AND "
        "m.seq = p.seq LEFT JOIN tournament_events te ON p.kind = 'tournament' AND "
        "te.tournament_id = w.tournament_id AND te.seq = p.seq LEFT JOIN tournaments t ON "
        "t.id = te.tournament_id WHERE d.webhook_id = p.webhook_id AND d.kind = p.kind AND "
        "d.seq = p.seq AND (e.seq IS NOT NULL OR m.seq IS NOT NULL OR te.seq IS NOT NULL) "
        "RETURNING coalesce(w.game_id, w.tournament_id)::text, d.seq, d.attempts, w.url, "
        "w.secret, coalesce(e.payload::text, CASE WHEN m.seq IS NOT NULL THEN "
        "json_build_object('seq', m.seq, 'seat', m.seat, 'player', "
        "m.person_id, 'name', m.name, 'text', CASE WHEN m.hidden THEN NULL ELSE m.body END, "
        "'hidden', m.hidden, 'at', to_char(m.created_at AT TIME ZONE 'UTC', "
        "'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))::text END, json_build_object('seq', te.seq, "
        "'type', te.type, 'data', te.data, 'at', " TOURNEY_TIME_SQL(
            "te.created_at") ")::text), "
                             "coalesce(w.host, ''), w.id::text, d.kind, w.format, w.owner, "
                             "coalesce(e.version, 0), "
                             "e.seq IS NOT NULL AND NOT EXISTS (SELECT 1 FROM events x WHERE "
                             "x.game_id = e.game_id "
                             "AND x.seq = e.seq + 1 AND x.version = e.version), coalesce(t.name, "
                             "'')",
    /* The outcome of an attempt of delivery $2 of kind $8 ('event', 'chat', 'tournament')
     * to webhook $1: delivered ($3), or due again in $6 ms, or given up ($7). */
    [ST_WEBHOOK_DONE] =
        "WITH d AS (UPDATE webhook_deliveries SET last_status = $4::integer, delivered_at = "
        "CASE WHEN $3::boolean THEN now() END, gave_up = NOT $3::boolean AND $7::boolean, "
        "next_attempt_at = now() + $6::integer * interval '1 millisecond' WHERE webhook_id = "
        "$1::bigint AND kind = $8 AND seq = $2::integer RETURNING webhook_id) "
        "UPDATE webhooks w SET failed_attempts = w.failed_attempts + 1, last_error = $5, "
        "last_error_seq = CASE WHEN $8 = 'event' THEN $2::integer END, "
        "last_error_status = $4::integer, last_error_at = now() "
        "FROM d WHERE w.id = d.webhook_id AND NOT $3::boolean",
    /* A claimed delivery (webhook $1, seq $2 of kind $4) put back unattempted, due in $3
     * ms. */
    [ST_WEBHOOK_DEFER] = "UPDATE webhook_deliveries SET attempts = greatest(attempts - 1, 0), "
                         "next_attempt_at = now() + $3::integer * interval '1 millisecond' "
                         "WHERE webhook_id = $1::bigint AND kind = $4 AND seq = $2::integer",
    /* Host $1's waiting deliveries due in $2 ms at the earliest (a circuit breaker). */
    [ST_WEBHOOK_HOST_DEFER] =
        "UPDATE webhook_deliveries d SET next_attempt_at = greatest(d.next_attempt_at, now() + "
        "$2::integer * interval '1 millisecond') FROM webhooks w WHERE w.id = d.webhook_id "
        "AND w.host = $1 AND d.delivered_at IS NULL AND NOT d.gave_up",
    [ST_COUNTS] = "SELECT count(*) FILTER (WHERE status = 'active'), count(*) FILTER (WHERE "
                  "status = 'finished'), (SELECT count(*) FROM webhook_deliveries WHERE "
                  "delivered_at IS NULL AND NOT gave_up) FROM games",
    /* The lease of a watch (0004): game $1 is watched for $2 ms more at least. */
    [ST_GAME_WATCH] = "UPDATE games SET watched_until = greatest(watched_until, now() + "
                      "$2::integer * interval '1 millisecond') WHERE id = $1::uuid",
    /* Rematches (0009): the next game of $1, and the first ask of a named seat's token. */
    [ST_REMATCH_FIND] = "SELECT id::text FROM games WHERE rematch_of = $1::uuid",
    [ST_SEAT_CLAIM] = "UPDATE players SET token_hash = $3::bytea, token_unclaimed = false "
                      "WHERE game_id = $1::uuid AND seat = $2::integer AND token_unclaimed",
    /* The jobs $3 (STORE_JOBS_JSON) of game $1 for its version $2, in a transaction of
     * several statements (0010); answers the number of jobs written. */
    [ST_JOBS_SET] = "WITH " JOBS_CTE("$1::uuid", "$2::integer", "$3") " SELECT (SELECT count(*) "
                                                                      "FROM ji), " JOBS_NOTIFY,
    /* Claims up to $1 due jobs of the kinds $2, skipping rows other servers hold: each is
     * leased (due again when its lease runs out) and its attempt counted. Fair shares
     * (0020): a job's owner is the address that created its game (the game itself for a
     * game without one; for a job of no game (0027) its kind and subject); an owner holding
     * $3 running jobs of these kinds already (their lease still ahead) is passed over, and
     * of the rest the owner served longest ago (job_owners) goes first, then the job due
     * first. */
    [ST_JOB_CLAIM] =
        "WITH r AS (SELECT " JOB_OWNER " AS owner FROM jobs j LEFT JOIN games g ON g.id = "
        "j.game_id WHERE j.claimed_until > now() AND j.kind = ANY($2::text[]) GROUP BY 1 "
        "HAVING count(*) >= $3::integer), "
        "c AS (SELECT j.id, " JOB_OWNER " AS owner FROM jobs j LEFT JOIN games g ON g.id = "
        "j.game_id LEFT JOIN job_owners o ON o.owner = " JOB_OWNER " WHERE j.due_at <= now() "
        "AND (j.claimed_until IS NULL OR j.claimed_until <= now()) AND j.kind = ANY($2::text[]) "
        "AND NOT EXISTS (SELECT 1 FROM r WHERE r.owner = " JOB_OWNER
        ") ORDER BY o.served_at NULLS FIRST, j.due_at LIMIT $1::integer "
        "FOR UPDATE OF j SKIP LOCKED), "
        "u AS (UPDATE jobs j SET due_at = now() + j.lease_ms * interval '1 millisecond', "
        "claimed_until = now() + j.lease_ms * interval '1 millisecond', attempts = j.attempts + "
        "1 FROM c WHERE j.id = c.id RETURNING j.id, coalesce(j.game_id::text, '') AS game_id, "
        "j.kind, j.subject, j.version, j.attempts, c.owner), "
        "s AS (INSERT INTO job_owners (owner, served_at) SELECT DISTINCT owner, now() FROM u "
        "ON CONFLICT (owner) DO UPDATE SET served_at = EXCLUDED.served_at) "
        "SELECT id, game_id, kind, subject, version, attempts FROM u",
    /* Owners not served for a day (0020): the claims' round-robin has forgotten them. */
    [ST_JOB_OWNERS_PRUNE] = "DELETE FROM job_owners WHERE served_at < now() - interval '1 day'",
    /* Job $1 removed or due again in $3 ms, if it is still the one of version $2. */
    [ST_JOB_DROP] = "DELETE FROM jobs WHERE id = $1::bigint AND version = $2::integer",
    [ST_JOB_RETRY] = "UPDATE jobs SET due_at = now() + $3::integer * interval '1 millisecond', "
                     "claimed_until = NULL WHERE id = $1::bigint AND version = $2::integer",
    /* The job of no game (0027) of kind $1 and subject $2 due in $3 ms, leased $4 ms a
     * claim, written if missing; its version moves on, so that a run that claimed it before
     * does not drop it (ST_JOB_DROP_FREE). $5: the version a run of it claimed (NULL: none):
     * that run plans its next time as it likes; any other writer only brings it forward (a
     * run of before must not put off what a writer meanwhile asked for at once). A writer
     * that asks for no earlier time than the job is due at already changes nothing and
     * notifies nobody: a burst of new seeks kicks the matchmaker once, not once each. While
     * a run holds the job (claimed_until ahead), another writer leaves the claim alone: the
     * job is due again when that run ends, not run twice at once (every new seek would start
     * another run that makes the same tables and loses them); nobody is woken then. */
    [ST_JOB_FREE_PLAN] =
        "WITH w AS (INSERT INTO jobs AS j (game_id, kind, subject, version, due_at, lease_ms) "
        "VALUES (NULL, $1, $2, 0, now() + $3::integer * interval '1 millisecond', $4::integer) "
        "ON CONFLICT (game_id, kind, subject) DO UPDATE SET version = j.version + 1, due_at = "
        "CASE WHEN j.version = $5::integer THEN EXCLUDED.due_at ELSE least(j.due_at, "
        "EXCLUDED.due_at) END, lease_ms = EXCLUDED.lease_ms, claimed_until = CASE WHEN "
        "$5::integer IS NULL AND j.claimed_until > now() THEN j.claimed_until END, attempts = "
        "CASE WHEN $5::integer IS NULL AND j.claimed_until > now() THEN j.attempts ELSE 0 END "
        "WHERE $5::integer IS NOT NULL OR j.due_at > EXCLUDED.due_at "
        "RETURNING j.claimed_until IS NULL AS free) "
        "SELECT pg_notify('" STORE_JOBS_CHANNEL "', '') FROM w WHERE free",
    /* A run of job $1 (version $2 when claimed) of no game that found nothing to do: the
     * job is removed, unless a writer moved it on meanwhile (ST_JOB_FREE_PLAN during the
     * run): then its claim is released for the time that writer asked for. */
    [ST_JOB_DROP_FREE] =
        "WITH d AS (DELETE FROM jobs WHERE id = $1::bigint AND version = $2::integer RETURNING "
        "1), u AS (UPDATE jobs SET claimed_until = NULL, attempts = 0 WHERE id = $1::bigint AND "
        "version <> $2::integer RETURNING 1) SELECT pg_notify('" STORE_JOBS_CHANNEL "', '') "
        "FROM u",
    /* A person's games (GET /v1/players/me/games, 0012), all or of status $9. */
    [ST_INBOX_PAGE] = INBOX_PAGE(""),
    [ST_INBOX_PAGE_STATUS] = INBOX_PAGE(" AND p.game_status = $9"),
    /* A player's public list of finished games (GET /v1/players/{id}/games, 0025): the page
     * of person $1 (its id), of status $9, as ST_INBOX_PAGE_STATUS. */
    [ST_PLAYER_GAMES_PAGE] = INBOX_PAGE_OF("id = $1::uuid", " AND p.game_status = $9"),
    /* A person's webhook (0012): the URL $2 and secret $3 on the person $1 first (its row
     * locked until the commit), then one webhooks row per game of the person (a seat
     * bound meanwhile shows in this second statement's snapshot, or its trigger waited for
     * the first and copied the new URL), and the rows of its tournaments (0034) moved to the
     * new URL. */
    [ST_PERSON_HOOK_PUT] = "UPDATE people SET webhook_url = $2, webhook_secret = $3, "
                           "webhook_format = $4, webhook_since = now() WHERE id = $1::uuid",
    [ST_PERSON_HOOK_ROWS] =
        "WITH t AS (UPDATE webhooks SET url = $2, secret = $3, format = $4, updated_at = now() "
        "WHERE owner = 'person:' || $1::uuid::text AND tournament_id IS NOT NULL) "
        "INSERT INTO webhooks (game_id, owner, url, secret, format) SELECT game_id, "
        "'person:' || $1::uuid::text, $2, $3, $4 FROM players WHERE person_id = $1::uuid "
        "ON CONFLICT (game_id, owner) DO UPDATE SET url = EXCLUDED.url, secret = "
        "EXCLUDED.secret, format = EXCLUDED.format, updated_at = now()",
    /* Removal: the person's URL first (0 rows: there was none), then its webhooks rows
     * with their deliveries. */
    [ST_PERSON_HOOK_CLEAR] = "UPDATE people SET webhook_url = NULL, webhook_secret = NULL, "
                             "webhook_since = NULL WHERE id = $1::uuid AND webhook_url IS NOT NULL",
    [ST_PERSON_HOOK_DROP] = "DELETE FROM webhooks WHERE owner = 'person:' || $1::uuid::text",
    /* The person's webhook and its deliveries over all its games: no row when it has none. */
    [ST_PERSON_HOOK_STATE] =
        "SELECT p.webhook_url, to_char(p.webhook_since AT TIME ZONE 'UTC', "
        "'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'), f.games, f.failed, d.delivered, d.pending, "
        "d.gave_up, e.game_id::text, e.last_error, e.last_error_seq, e.last_error_status, "
        "to_char(e.last_error_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'), "
        "p.webhook_format "
        "FROM (SELECT *, 'person:' || id::text AS owner FROM people) p "
        "CROSS JOIN LATERAL (SELECT count(*) AS games, "
        "coalesce(sum(failed_attempts), 0) AS failed FROM webhooks WHERE owner = p.owner AND "
        "game_id IS NOT NULL) f "
        "CROSS JOIN LATERAL (SELECT count(*) FILTER (WHERE x.delivered_at IS NOT NULL) AS "
        "delivered, count(*) FILTER (WHERE x.delivered_at IS NULL AND NOT x.gave_up) AS pending, "
        "count(*) FILTER (WHERE x.gave_up) AS gave_up FROM webhooks w JOIN webhook_deliveries x "
        "ON x.webhook_id = w.id WHERE w.owner = p.owner) d "
        "LEFT JOIN LATERAL (SELECT game_id, last_error, last_error_seq, last_error_status, "
        "last_error_at FROM webhooks WHERE owner = p.owner AND last_error_at IS NOT NULL AND "
        "game_id IS NOT NULL "
        "ORDER BY last_error_at DESC LIMIT 1) e ON true "
        "WHERE p.id = $1::uuid AND p.webhook_url IS NOT NULL",
    /* A join (0013, store_lobby.c): the waiting game $1 moves on from version $2 (to
     * 'active' when $3, the last open seat was taken), its newest event is then $4. */
    [ST_JOIN_GAME] = "UPDATE games SET version = $2::integer + 1, status = CASE WHEN "
                     "$3::boolean THEN 'active' ELSE 'waiting' END, last_seq = $4::integer, "
                     /* The clock begun by the last join ($5, 0014; NULL: as it is). */
                     "clock = coalesce($5::jsonb, clock), deadline = CASE WHEN $5::jsonb IS "
                     "NULL THEN deadline ELSE $6::timestamptz END, "
                     "updated_at = now() WHERE id = $1::uuid AND version = $2::integer AND "
                     "status = 'waiting'",
    /* ...and its seat $2 is taken, while its invite is still $6 (a used invite is NULL). */
    [ST_JOIN_SEAT] = "UPDATE players SET name = $3, token_hash = $4::bytea, person_id = "
                     "$5::uuid, invite_hash = NULL WHERE game_id = $1::uuid AND seat = "
                     "$2::integer AND invite_hash = $6::bytea",
    /* Game $1's setup as a POST /v1/games body (seats named by number: the names are the
     * row's; a seat open at creation, one still open or joined since, as {"open": true}
     * with its placeholder name of then, from the game_created event), its version, and
     * its actions up to version $2 as a JSON array, oldest first (store_history.c). */
    [ST_GAME_HISTORY] =
        "SELECT json_strip_nulls(json_build_object('ruleset', g.ruleset, 'options', g.options, "
        "'seed', g.seed::text, 'start', g.start_tile, 'deck', g.custom_deck, 'players', "
        "(SELECT json_agg(CASE WHEN p.invite_hash IS NOT NULL OR EXISTS (SELECT 1 FROM actions "
        "j WHERE j.game_id = g.id AND j.kind = 'join' AND j.seat = p.seat) THEN "
        "json_build_object('open', true, 'name', coalesce((SELECT c.payload->'players'->p.seat"
        "->>'name' FROM events c WHERE c.game_id = g.id AND c.seq = 1 AND c.type = "
        "'game_created'), 'Seat ' || (p.seat + 1))) ELSE json_build_object('name', 'Seat ' || "
        "(p.seat + 1)) END ORDER BY p.seat) FROM players p WHERE p.game_id = g.id)))::text, "
        "g.version, (SELECT "
        "coalesce(json_agg(a.body ORDER BY a.version), '[]'::json) FROM actions a WHERE "
        "a.game_id = g.id AND a.version <= $2::integer)::text FROM games g WHERE g.id = $1::uuid",
    /* store_export.c: the setup as a create body (its seats named or computer players), the
     * status, the result and every stored action, oldest first. */
    [ST_GAME_EXPORT] =
        "SELECT json_strip_nulls(json_build_object('ruleset', g.ruleset, 'options', g.options, "
        "'seed', g.seed::text, 'start', g.start_tile, 'deck', g.custom_deck, 'hints', g.hints, "
        "'chat', CASE WHEN g.chat_public THEN 'public' END, "
        "'players', (SELECT json_agg(CASE WHEN p.bot IS NULL THEN json_build_object('name', "
        "p.name) ELSE json_build_object('bot', p.bot, 'think_ms', p.think_ms) END ORDER BY "
        "p.seat) FROM players p WHERE p.game_id = g.id)))::text, g.status, g.result, (SELECT "
        "coalesce(json_agg(a.body ORDER BY a.version), '[]'::json) FROM actions a WHERE "
        "a.game_id = g.id)::text, "
        /* The chat's messages (0026), hidden ones with their text (the record). */
        "(SELECT coalesce(json_agg(json_build_object('seq', c.seq, 'seat', c.seat, 'player', "
        "c.person_id, 'name', c.name, 'text', c.body, 'hidden', c.hidden, 'at', "
        "to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')) ORDER BY "
        "c.seq), '[]'::json) FROM chat_messages c WHERE c.game_id = g.id)::text "
        "FROM games g WHERE g.id = $1::uuid",
    /* store_export.c: $2 a JSON array of {version, seat, kind, body, events}. */
    [ST_REPLAY_ROWS] =
        "WITH x AS (SELECT (r->>'version')::integer AS version, (r->>'seat')::integer AS seat, "
        "r->>'kind' AS kind, r->'body' AS body, r->'events' AS events FROM "
        "json_array_elements($2::json) AS r), a AS (INSERT INTO actions (game_id, version, "
        "seat, kind, body) SELECT $1::uuid, version, seat, kind, body::jsonb FROM x), e AS "
        "(INSERT INTO events (game_id, seq, version, type, payload) SELECT $1::uuid, "
        "(ev->>'seq')::integer, x.version, ev->>'type', ev FROM x, "
        "json_array_elements(x.events) AS ev) UPDATE games SET version = $3::integer WHERE "
        "id = $1::uuid",
    /* Retention (0017): up to $2 games that ended more than $1 days ago, oldest first, and
     * every row of theirs; games another sweep holds are skipped. Deliveries go with their
     * webhooks (ON DELETE CASCADE); a rematch of a deleted game keeps rematch_of NULL. */
    [ST_RETENTION_DELETE] =
        "WITH old AS (SELECT id FROM games WHERE ended_at < now() - $1::integer * interval "
        "'1 day' AND status IN ('finished', 'aborted') ORDER BY ended_at LIMIT $2::integer "
        "FOR UPDATE SKIP LOCKED), "
        "p AS (DELETE FROM players WHERE game_id IN (SELECT id FROM old)), "
        "a AS (DELETE FROM actions WHERE game_id IN (SELECT id FROM old)), "
        "e AS (DELETE FROM events WHERE game_id IN (SELECT id FROM old)), "
        "w AS (DELETE FROM webhooks WHERE game_id IN (SELECT id FROM old)), "
        "j AS (DELETE FROM jobs WHERE game_id IN (SELECT id FROM old)), "
        "g AS (DELETE FROM games WHERE id IN (SELECT id FROM old) RETURNING 1) "
        "SELECT count(*) FROM g",
    /* Up to $2 lobbies created more than $1 hours ago, oldest first. */
    [ST_LOBBIES_EXPIRED] = "SELECT id::text FROM games WHERE status = 'waiting' AND created_at < "
                           "now() - $1::integer * interval '1 hour' ORDER BY created_at LIMIT "
                           "$2::integer",
    /* Up to $1 idempotent answers past their 24 hours. */
    [ST_IDEM_PURGE] = "WITH x AS (SELECT scope, key_hash FROM idempotency WHERE created_at < now() "
                      "- interval '24 hours' ORDER BY created_at LIMIT $1::integer FOR UPDATE "
                      "SKIP LOCKED) DELETE FROM idempotency i USING x WHERE i.scope = x.scope "
                      "AND i.key_hash = x.key_hash",
    /* Seeks (0027, store_seeks.c). Person $1's row locked (no row: no such person), then in
     * a statement of its own its open seeks counted: a statement's snapshot (READ COMMITTED)
     * is taken when it starts, so only one that starts after the lock was granted sees the
     * seeks that the holder of the lock inserted. */
    [ST_PERSON_LOCK] = "SELECT 1 FROM people WHERE id = $1::uuid FOR UPDATE",
    [ST_SEEKS_OPEN_OF] = "SELECT count(*) FROM seeks s WHERE s.person_id = $1::uuid AND "
                         "s.status = 'waiting' AND NOT " SEEK_LAPSED_2,
    [ST_SEEK_INSERT] =
        "INSERT INTO seeks (id, person_id, pool, players, live, rating, rating_min, rating_max, "
        "bot_after_s, expires_at) VALUES ($1::uuid, $2::uuid, $3, $4::integer, $5::boolean, "
        "coalesce((SELECT rating FROM ratings WHERE person_id = $2::uuid AND pool = $10), 1500), "
        "$6::float8, $7::float8, $8::integer, now() + $9::integer * interval '1 second')",
    /* Seek $1 read by its owner $2 (NULL: anyone else): a lapsed seek (unpolled for $4 s)
     * expires, a poll is remembered (always when $3, else when the last is $5 s old). */
    [ST_SEEK_POLL] =
        "WITH t AS (UPDATE seeks s SET status = CASE WHEN " SEEK_LAPSED_4 " THEN 'expired' ELSE "
        "s.status END, ended_at = CASE WHEN " SEEK_LAPSED_4 " THEN now() END, polled_at = CASE "
        "WHEN " SEEK_LAPSED_4 " THEN s.polled_at ELSE now() END WHERE s.id = $1::uuid AND "
        "s.person_id = $2::uuid AND s.status = 'waiting' AND (" SEEK_LAPSED_4 " OR $3::boolean "
        "OR s.polled_at < now() - $5::integer * interval '1 second') RETURNING s.*) "
        "SELECT " SEEK_COLUMNS " FROM (SELECT * FROM t UNION ALL SELECT * FROM seeks WHERE id = "
        "$1::uuid AND NOT EXISTS (SELECT 1 FROM t)) s JOIN people p ON p.id = s.person_id",
    [ST_SEEK_GET] = "SELECT " SEEK_COLUMNS " FROM seeks s JOIN people p ON p.id = s.person_id "
                    "WHERE s.id = $1::uuid",
    [ST_SEEK_CANCEL] = "UPDATE seeks SET status = 'cancelled', ended_at = now() WHERE id = "
                       "$1::uuid AND status = 'waiting'",
    /* The lobby: open correspondence seeks (of ruleset $1, or all), oldest first. */
    [ST_SEEKS_LOBBY] = "SELECT " SEEK_COLUMNS " FROM seeks s JOIN people p ON p.id = s.person_id "
                       "WHERE s.status = 'waiting' AND NOT s.live AND s.expires_at > now() AND "
                       "($1::text IS NULL OR s.pool::json->>'ruleset' = $1) ORDER BY "
                       "s.created_at LIMIT $2::integer",
    /* The matchmaker: the seeks lapsed (unpolled for $1 s) expired, then the waiting ones by
     * pool and age. */
    [ST_SEEKS_EXPIRE] = "UPDATE seeks s SET status = 'expired', ended_at = now() WHERE s.status = "
                        "'waiting' AND " SEEK_LAPSED_1,
    /* Up to $1 seeks that ended more than a day ago (their answers are read at the end). */
    [ST_SEEKS_PURGE] = "DELETE FROM seeks WHERE id IN (SELECT id FROM seeks WHERE ended_at < "
                       "now() - interval '1 day' ORDER BY ended_at LIMIT $1::integer FOR UPDATE "
                       "SKIP LOCKED)",
    [ST_SEEKS_WAITING] = "SELECT " SEEK_COLUMNS " FROM seeks s JOIN people p ON p.id = "
                         "s.person_id WHERE s.status = 'waiting' ORDER BY s.pool, s.created_at "
                         "LIMIT $1::integer",
    /* In the creation of game $1 (store_game_create): seeks $2 bound to seats $3, each only
     * if it still waits (locked in the order of their ids); answers how many were bound. */
    [ST_SEEKS_BIND] =
        "WITH x AS (SELECT * FROM unnest($2::uuid[], $3::integer[]) AS x (id, seat)), "
        "l AS (SELECT s.id FROM seeks s WHERE s.id IN (SELECT id FROM x) AND s.status = "
        "'waiting' ORDER BY s.id FOR UPDATE), u AS (UPDATE seeks s SET status = 'matched', "
        "game_id = $1::uuid, seat = x.seat, ended_at = now() FROM x WHERE s.id = x.id AND s.id "
        "IN (SELECT id FROM l) AND s.status = 'waiting' RETURNING 1) SELECT count(*) FROM u",
    /* A shared secret (0022): the key of the cursors of a player's list. */
    [ST_SERVER_KEY] = "SELECT key FROM server_keys WHERE name = $1",
    /* Ratings (0023, store_ratings.c). The rows of pool $1's subjects rated for the first
     * time, from the JSON array $2 of {"s": subject, "p": person or null, "b": level or
     * null, "c": think class or null}, in the order of their names, rated $3 / $4 / $5. */
    [ST_RATINGS_ENSURE] =
        "INSERT INTO ratings (subject, pool, person_id, bot, think_class, rating, deviation, "
        "volatility) SELECT e->>'s', $1, (e->>'p')::uuid, e->>'b', e->>'c', $3::float8, "
        "$4::float8, $5::float8 FROM json_array_elements($2::json) AS e ORDER BY e->>'s' "
        "ON CONFLICT DO NOTHING",
    /* The rows of pool $1's subjects (JSON array $2 of names), locked in the order of their
     * names, each with its last rated game and the database's clock in ms since 1970. */
    [ST_RATINGS_LOCK] =
        "SELECT subject, rating, deviation, volatility, games, coalesce((extract(epoch FROM "
        "last_rated_at) * 1000)::bigint, 0), (extract(epoch FROM now()) * 1000)::bigint "
        "FROM ratings WHERE pool = $1 AND subject IN (SELECT json_array_elements_text($2::json)) "
        "ORDER BY subject FOR UPDATE",
    /* A rated game's update: pool $1, game $2 of $3 seats, the JSON array $4 of one entry a
     * seat {"seat", "s": subject, "place", "w"/"d"/"l": 1 or 0, "rb", "db", "vb" before,
     * "ra", "da", "va" after}: each rating row and one history row a seat. Answers the
     * history rows written. The time written is the clock's when the rows are locked (not the
     * transaction's start): of two games over one rating, the one that waited for the other's
     * lock is the later in its history. */
    [ST_RATINGS_WRITE] =
        "WITH x AS (SELECT (e->>'seat')::smallint AS seat, e->>'s' AS subject, "
        "(e->>'place')::smallint AS place, (e->>'w')::integer AS w, (e->>'d')::integer AS d, "
        "(e->>'l')::integer AS l, (e->>'rb')::float8 AS rb, (e->>'db')::float8 AS db, "
        "(e->>'vb')::float8 AS vb, (e->>'ra')::float8 AS ra, (e->>'da')::float8 AS da, "
        "(e->>'va')::float8 AS va FROM json_array_elements($4::json) AS e), "
        "u AS (UPDATE ratings r SET rating = x.ra, deviation = x.da, volatility = x.va, "
        "games = r.games + 1, won = r.won + x.w, drawn = r.drawn + x.d, lost = r.lost + x.l, "
        "last_rated_at = clock_timestamp() FROM x WHERE r.pool = $1 AND r.subject = x.subject "
        "RETURNING 1), "
        "h AS (INSERT INTO rating_history (game_id, seat, subject, pool, seats, place, "
        "rating_before, deviation_before, volatility_before, rating_after, deviation_after, "
        "volatility_after, rated_at) SELECT $2::uuid, x.seat, x.subject, $1, $3::smallint, "
        "x.place, x.rb, x.db, x.vb, x.ra, x.da, x.va, clock_timestamp() FROM x RETURNING 1) "
        "SELECT (SELECT count(*) FROM h), (SELECT count(*) FROM u)",
    /* Person $1's name and its ratings (none: one row with NULL rating columns), by pool;
     * the columns of RATING_COLUMNS from column 1 on. */
    [ST_RATINGS_PERSON] = "SELECT p.name, " RATING_COLUMNS " FROM people p LEFT JOIN ratings r "
                          "ON r.subject = p.id::text WHERE p.id = $1::uuid ORDER BY r.pool",
    /* The newest $3 points of subject $1's history in pool $2, newest first. */
    [ST_RATINGS_HISTORY] =
        "SELECT game_id::text, seats, place, rating_before, deviation_before, volatility_before, "
        "rating_after, deviation_after, volatility_after, (extract(epoch FROM rated_at) * "
        "1000)::bigint FROM rating_history WHERE subject = $1 AND pool = $2 ORDER BY rated_at "
        "DESC, game_id DESC LIMIT $3::integer",
    /* A page of pool $1's leaderboard from the index ratings_leaderboard: after the entry
     * ($3 rating, $4 subject; Infinity and '' from the top), people only unless $2, at
     * most $5 + 1 entries (one more than a page: then another page follows). Not
     * provisional as the answer shows it: the deviation grown by the time away
     * (glicko2_aged(): deviation^2 + periods * (volatility * scale)^2) at most $6, with $7
     * periods a day and $8 the scale (glicko2.h's constants, store_leaderboard). The stored
     * deviation's bound is written as the partial index (0023) has it, so that the planner
     * uses the index. */
    [ST_RATINGS_BOARD] = "SELECT '', " RATING_COLUMNS " FROM ratings r LEFT JOIN people p ON "
                         "p.id = r.person_id WHERE r.pool = $1 AND r.deviation <= 110 "
                         "AND r.deviation * r.deviation + greatest(extract(epoch FROM now() - "
                         "r.last_rated_at), 0) / 86400.0 * $7::float8 * (r.volatility * "
                         "$8::float8) ^ 2 <= $6::float8 * $6::float8 AND "
                         "(r.rating, r.subject) < ($3::float8, $4::text) AND r.last_rated_at > "
                         "now() - interval '90 days' AND ($2::boolean OR r.person_id IS NOT "
                         "NULL) ORDER BY r.rating DESC, r.subject DESC LIMIT $5::integer + 1",
    /* Every computer player's rating. */
    [ST_RATINGS_BOTS] = "SELECT '', " RATING_COLUMNS " FROM ratings r LEFT JOIN people p ON "
                        "false WHERE r.bot IS NOT NULL ORDER BY r.bot, r.think_class, r.pool",
    /* Talk (0026): a message posted by chat_post(), which numbers it, holds the rate limit
     * ($6 messages of a seat within $7 ms) and notifies. */
    [ST_CHAT_POST] = "SELECT coalesce(seq, 0), retry_ms, coalesce(sent_at, '') FROM "
                     "chat_post($1::uuid, $2::integer, "
                     "$3::uuid, $4, $5, $6::integer, $7::integer)",
    /* Game $1's messages after $2, at most $3, each with whether person $4 blocked its
     * sender. */
    [ST_CHAT_EACH] =
        "SELECT m.seq, m.seat, coalesce(m.person_id::text, ''), m.name, m.body, m.hidden::integer, "
        "(m.person_id IS NOT NULL AND EXISTS (SELECT 1 FROM blocks b WHERE b.blocker = "
        "$4::uuid AND b.blocked = m.person_id))::integer, to_char(m.created_at AT TIME ZONE "
        "'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') FROM chat_messages m WHERE m.game_id = "
        "$1::uuid AND m.seq > $2::integer ORDER BY m.seq LIMIT $3::integer",
    /* Message $2 of game $1 reported by seat $3 (person $4): whether the message exists,
     * and whether this report is new. */
    [ST_CHAT_REPORT] =
        "WITH m AS (SELECT 1 FROM chat_messages WHERE game_id = $1::uuid AND seq = $2::integer), "
        "i AS (INSERT INTO chat_reports (game_id, seq, seat, person_id) SELECT $1::uuid, "
        "$2::integer, $3::integer, $4::uuid WHERE EXISTS (SELECT 1 FROM m) ON CONFLICT DO "
        "NOTHING RETURNING 1) SELECT (SELECT count(*) FROM m), (SELECT count(*) FROM i)",
    /* Message $2 of game $1 hidden, its reports closed. */
    [ST_CHAT_HIDE] =
        "WITH m AS (UPDATE chat_messages SET hidden = true WHERE game_id = $1::uuid AND seq = "
        "$2::integer RETURNING seq), r AS (UPDATE chat_reports SET resolved_at = now() WHERE "
        "game_id = $1::uuid AND seq = $2::integer AND resolved_at IS NULL AND EXISTS (SELECT 1 "
        "FROM m)) SELECT count(*), count(*) FROM m",
    /* The open reports, oldest first, at most $1, with each message and its context. */
    [ST_CHAT_REPORTS] =
        "SELECT coalesce(json_agg(json_build_object('game', r.game_id, 'seq', r.seq, 'reports', "
        "r.n, 'reported_at', to_char(r.first_at AT TIME ZONE 'UTC', "
        "'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'), 'message', r.message, 'context', (SELECT "
        "json_agg(json_build_object('seq', c.seq, 'seat', c.seat, 'name', c.name, 'text', "
        "c.body, 'hidden', c.hidden) ORDER BY c.seq) FROM chat_messages c WHERE c.game_id = "
        "r.game_id AND c.seq BETWEEN r.seq - 5 AND r.seq + 5)) ORDER BY r.first_at, r.game_id, "
        "r.seq), '[]')::text FROM (SELECT m.game_id, m.seq, count(*) AS n, min(x.created_at) "
        "AS first_at, json_build_object('seq', m.seq, 'seat', m.seat, 'name', m.name, 'player', "
        "m.person_id, 'text', m.body, 'hidden', m.hidden, 'at', to_char(m.created_at AT TIME "
        "ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')) AS message FROM chat_reports x "
        "JOIN chat_messages m ON m.game_id = x.game_id AND m.seq = x.seq WHERE x.resolved_at IS "
        "NULL GROUP BY m.game_id, m.seq ORDER BY min(x.created_at), m.game_id, m.seq LIMIT "
        "$1::integer) r",
    /* Person $1 blocks person $2: whether $2 exists, and whether the block is new. */
    [ST_BLOCK_ADD] =
        "WITH t AS (SELECT id FROM people WHERE id = $2::uuid), i AS (INSERT INTO blocks "
        "(blocker, blocked) SELECT $1::uuid, id FROM t ON CONFLICT DO NOTHING RETURNING 1) "
        "SELECT (SELECT count(*) FROM t), (SELECT count(*) FROM i)",
    [ST_BLOCK_DELETE] = "DELETE FROM blocks WHERE blocker = $1::uuid AND blocked = $2::uuid",
    [ST_BLOCKS_LIST] =
        "SELECT coalesce(json_agg(json_build_object('player', b.blocked, 'name', p.name, "
        "'since', to_char(b.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')) "
        "ORDER BY b.created_at, b.blocked), '[]')::text FROM blocks b JOIN people p ON p.id = "
        "b.blocked WHERE b.blocker = $1::uuid",
    /* The blocks among persons $1 (an array): the matchmaker's one read a run. */
    [ST_BLOCKS_AMONG] = "SELECT blocker::text, blocked::text FROM blocks WHERE blocker = "
                        "ANY($1::uuid[]) AND blocked = ANY($1::uuid[])",
    /* Person $1 suspended ($2 true) or reinstated; a suspension makes the "suspension" job
     * of each active game of the person's due at once (api/suspension.c), cancels the
     * person's waiting seeks and withdraws them from tournaments still open (issue 28: "their
     * open seeks and tournament entries are withdrawn"); a reinstatement gives neither back. */
    [ST_PERSON_SUSPEND] =
        "WITH p AS (UPDATE people SET suspended_at = CASE WHEN $2::boolean THEN "
        "coalesce(suspended_at, now()) END WHERE id = $1::uuid RETURNING id), sk AS (UPDATE "
        "seeks SET status = 'cancelled', ended_at = now() WHERE $2::boolean AND status = "
        "'waiting' AND person_id IN (SELECT id FROM p) RETURNING 1), te AS (DELETE FROM "
        "tournament_entrants e USING tournaments t WHERE $2::boolean AND t.id = "
        "e.tournament_id AND t.status = 'open' AND e.person_id IN (SELECT id FROM p) RETURNING "
        "1), j AS (INSERT INTO "
        "jobs (game_id, kind, version, due_at, lease_ms) SELECT g.id, 'suspension', g.version, "
        "now(), 10000 FROM players s JOIN games g ON g.id = s.game_id WHERE $2::boolean AND "
        "s.person_id IN (SELECT id FROM p) AND g.status = 'active' ON CONFLICT (game_id, kind, "
        "subject) "
        "DO UPDATE SET version = EXCLUDED.version, due_at = EXCLUDED.due_at, claimed_until = "
        "NULL, attempts = 0 RETURNING 1) SELECT (SELECT count(*) FROM p), (SELECT count(*) "
        "FROM j), (SELECT pg_notify('" STORE_JOBS_CHANNEL "', '') WHERE EXISTS (SELECT 1 FROM "
        "j))",
    [ST_GAME_SUSPENDED] = "SELECT p.seat FROM players p JOIN people pe ON pe.id = p.person_id "
                          "WHERE p.game_id = $1::uuid AND pe.suspended_at IS NOT NULL",
    [ST_TOURNEY_INSERT] =
        "WITH t AS (INSERT INTO tournaments (id, name, organiser, format, ruleset, options, "
        "players_per_game, rounds, clock, rated, max_players, starts_at) VALUES ($1::uuid, $2, "
        "$3::uuid, $4, $5, $6::jsonb, $7::integer, $8::integer, $9::jsonb, $10::boolean, "
        "$11::integer, $12::timestamptz) RETURNING id, starts_at) "
        /* An announced start: round 1's job (tourney_run.h) due then (0032). */
        "INSERT INTO jobs (game_id, kind, subject, version, due_at, lease_ms) SELECT NULL, "
        "'tournament_round', t.id::text || ':1', 0, t.starts_at, 10000 FROM t WHERE "
        "t.starts_at IS NOT NULL",
    /* The tournament's row held for a join or a leave: its status and room. The entrants
     * are counted by the next statement, whose snapshot (READ COMMITTED) is taken after the
     * lock was granted and so sees every join committed meanwhile. */
    [ST_TOURNEY_LOCK] =
        "SELECT status, max_players FROM tournaments WHERE id = $1::uuid FOR UPDATE",
    /* Person $2 joins tournament $1 unless in already or $3 entrants are in: (joined now,
     * was in already). */
    [ST_TOURNEY_JOIN] =
        "WITH was AS (SELECT 1 FROM tournament_entrants WHERE tournament_id = $1::uuid AND "
        "person_id = $2::uuid), i AS (INSERT INTO tournament_entrants (tournament_id, "
        "person_id) SELECT $1::uuid, $2::uuid WHERE NOT EXISTS (SELECT 1 FROM was) AND (SELECT "
        "count(*) FROM tournament_entrants WHERE tournament_id = $1::uuid) < $3::integer "
        "RETURNING 1) SELECT (SELECT count(*) FROM i), (SELECT count(*) FROM was)",
    [ST_TOURNEY_LEAVE] = "DELETE FROM tournament_entrants WHERE tournament_id = $1::uuid AND "
                         "person_id = $2::uuid",
    /* Tournament $1 as Tournament (openapi.yaml) but its standings (computed in C from the
     * tables: store_tourney_rounds.c): the summary, the round running, the entrants (seed
     * order once started) and every round's tables with their games. */
    [ST_TOURNEY_JSON] =
        "SELECT (" TOURNEY_SUMMARY_SQL "::jsonb || jsonb_build_object('round', t.round, "
        "'started_at', " TOURNEY_TIME_SQL("t.started_at") ", 'finished_at', " TOURNEY_TIME_SQL(
            "t.finished_at") ", 'entrants', (SELECT coalesce(jsonb_agg(jsonb_build_object("
                             "'player', e.person_id, 'name', p.name, "
                             "'joined_at', " TOURNEY_TIME_SQL(
                                 "e.joined_at") ", 'seed', e.seed, 'left_round', e.left_round) "
                                                "ORDER BY e.seed NULLS LAST, e.joined_at, "
                                                "e.person_id), '[]') FROM tournament_entrants e "
                                                "JOIN people p ON p.id = e.person_id WHERE "
                                                "e.tournament_id = t.id), 'pairings', (SELECT "
                                                "coalesce(jsonb_agg(jsonb_build_object('round', "
                                                "r.round, 'tables', r.tables) ORDER BY "
                                                "r.round), '[]') FROM (SELECT x.round, "
                                                "jsonb_agg(jsonb_build_object('table', "
                                                "x.table_no, 'players', x.seats, 'game', "
                                                "x.game_id, 'bye', cardinality(x.seats) = 1, "
                                                "'status', g.status, 'scores', g.scores) ORDER BY "
                                                "x.table_no) AS tables FROM "
                                                "tournament_tables x LEFT JOIN games g ON g.id = "
                                                "x.game_id WHERE x.tournament_id = t.id "
                                                "GROUP BY x.round) r)))::text FROM tournaments t "
                                                "JOIN people o ON o.id = t.organiser "
                                                "WHERE t.id = $1::uuid",
    [ST_TOURNEY_LIST] =
        "SELECT coalesce(json_agg(x.j ORDER BY x.created_at DESC, x.id), '[]')::text FROM "
        "(SELECT " TOURNEY_SUMMARY_SQL " AS j, t.created_at, t.id FROM tournaments t JOIN "
        "people o ON o.id = t.organiser WHERE $1::text IS NULL OR t.status = $1::text ORDER BY "
        "t.created_at DESC, t.id LIMIT $2::integer) x",
    /* The lobby's lists (0035): listed games of status $1 (and of ruleset $2, unless NULL)
     * after the cursor ($3: created_at in microseconds since 1970, $4: id; NULL: from the
     * newest), newest first, $5 at most; each with its cursor. The cursor's bound is an
     * index condition of games_listed whether given or not (NULL: infinity). */
    [ST_LOBBY_PAGE] =
        "SELECT " LOBBY_GAME_SQL "::text, (extract(epoch FROM g.created_at) * 1000000)::bigint"
        "::text || '.' || g.id::text FROM games g WHERE g.listed AND g.status = $1::text AND "
        "($2::text IS NULL OR g.ruleset = $2::text) AND (g.created_at, g.id) < (CASE WHEN "
        "$3::bigint IS NULL THEN 'infinity'::timestamptz ELSE 'epoch'::timestamptz + "
        "$3::bigint * interval '1 microsecond' END, coalesce($4::uuid, "
        "'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid)) ORDER BY g.created_at DESC, g.id DESC "
        "LIMIT $5::integer",
    /* Tournament $1 started if open (0032's tournament_start): what it found. */
    [ST_TOURNEY_START] = "SELECT tournament_start($1::uuid)",
    /* An announced start with fewer than two entrants: called off. */
    [ST_TOURNEY_CANCEL] = "UPDATE tournaments SET status = 'cancelled', finished_at = now() "
                          "WHERE id = $1::uuid AND status = 'open'",
    /* What pairing a round of tournament $1 needs of its row. */
    [ST_TOURNEY_ROW] = "SELECT format, ruleset, options::text, players_per_game, "
                       "coalesce(rounds, 0), clock::text, rated::integer, status, round, "
                       "organiser "
                       "FROM tournaments WHERE id = $1::uuid",
    /* Its entrants in seed order (joining order before the start), and the round each left
     * in (NULL: still in). */
    [ST_TOURNEY_SEEDED] = "SELECT e.person_id, p.name, e.left_round FROM tournament_entrants e "
                          "JOIN people p ON p.id = e.person_id WHERE e.tournament_id = $1::uuid "
                          "ORDER BY e.seed NULLS LAST, e.joined_at, e.person_id",
    /* Its tables, each with its game's end: ended (finished or aborted), the scores by
     * seat, and each seat's resignation (its version: a later one ranks above), as
     * "seat:version,...". */
    [ST_TOURNEY_TABLES] =
        "SELECT x.round, x.table_no, array_to_string(x.seats, ','), x.game_id, "
        "(g.status IN ('finished', 'aborted'))::integer, array_to_string(g.scores, ','), "
        "(SELECT string_agg(a.seat || ':' || a.v, ',') FROM (SELECT seat, max(version) AS v "
        "FROM actions WHERE game_id = x.game_id AND kind = 'resign' GROUP BY seat) a) FROM "
        "tournament_tables x LEFT JOIN games g ON g.id = x.game_id WHERE x.tournament_id = "
        "$1::uuid ORDER BY x.round, x.table_no",
    /* Round $2 of tournament $1 paired as $3 (a JSON array of tables, each an array of
     * entrant ids by seat), unless it is paired already: the first pairing stays. */
    [ST_TOURNEY_PAIRING_PUT] =
        "INSERT INTO tournament_tables (tournament_id, round, table_no, seats) SELECT $1::uuid, "
        "$2::integer, (a.ord - 1)::integer, ARRAY(SELECT jsonb_array_elements_text(a.e))::uuid[] "
        "FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS a (e, ord) WHERE NOT EXISTS "
        "(SELECT 1 FROM tournament_tables WHERE tournament_id = $1::uuid AND round = "
        "$2::integer) ON CONFLICT DO NOTHING",
    /* In the creation of game $1 (store_game_create): table $4 of round $3 of tournament $2
     * takes it, only while it has none. */
    [ST_TOURNEY_TABLE_BIND] = "UPDATE tournament_tables SET game_id = $1::uuid WHERE "
                              "tournament_id = $2::uuid AND round = $3::integer AND table_no = "
                              "$4::integer AND game_id IS NULL",
    /* Round $2 of running tournament $1 begins (once: the round before it ran). */
    [ST_TOURNEY_ROUND_BEGIN] = "UPDATE tournaments SET round = $2::integer WHERE id = $1::uuid "
                               "AND status = 'running' AND round = $2::integer - 1",
    [ST_TOURNEY_FINISH] = "UPDATE tournaments SET status = 'finished', finished_at = now() "
                          "WHERE id = $1::uuid AND status = 'running'",
    /* Event $2 (data $3) of tournament $1, numbered after the last (the tournament's row is
     * held by the transaction), with its deliveries to the entrants' player webhooks
     * (0034). */
    [ST_TOURNEY_EVENT_PUT] = "SELECT tournament_event_put($1::uuid, $2, $3::jsonb)",
    /* The pairing's job done, in the pairing's transaction (whatever its version: no other
     * writer moves a round's job on once its round is paired). */
    [ST_TOURNEY_JOB_DONE] = "DELETE FROM jobs WHERE id = $1::bigint",
    [ST_TOURNEY_CHECK] = "SELECT tournament_round_check($1::uuid)",
    /* Tournament $1's status and newest event's seq, with its events after seq $2 (at most
     * $3, oldest first) as TournamentEvent: one row an event, or one row of NULL events
     * when none follows $2; no row for no tournament. One statement, so that a long poll's
     * and a stream's every look is one round trip. */
    [ST_TOURNEY_EVENTS] =
        "SELECT t.status, (SELECT coalesce(max(x.seq), 0) FROM tournament_events x WHERE "
        "x.tournament_id = t.id), e.seq, e.type, json_build_object('seq', e.seq, 'type', "
        "e.type, 'data', e.data, 'at', " TOURNEY_TIME_SQL(
            "e.created_at") ")::text FROM tournaments t LEFT JOIN LATERAL (SELECT * FROM "
                            "tournament_events y WHERE y.tournament_id = t.id AND y.seq > "
                            "$2::integer ORDER BY y.seq LIMIT $3::integer) e ON true WHERE t.id = "
                            "$1::uuid ORDER BY e.seq",
    /* Person $2 leaves running tournament $1: out from the round running on; its game of
     * that round still being played and its seat there (the table's seat order is the
     * game's), or NULLs. No row: not an entrant still in, or the tournament is not running. */
    /* The seats, at most $2, of tournament $1's running games held by entrants who left
     * in that game's round or before it, and not resigned yet (tourney_sweep.h). */
    [ST_TOURNEY_LEFT_SEATS] =
        "SELECT x.game_id::text, array_position(x.seats, e.person_id) - 1 FROM tournament_tables "
        "x JOIN games g ON g.id = x.game_id JOIN tournament_entrants e ON e.tournament_id = "
        "x.tournament_id AND e.person_id = ANY (x.seats) WHERE x.tournament_id = $1::uuid AND "
        "g.status = 'active' AND e.left_round IS NOT NULL AND x.round >= e.left_round AND NOT "
        "EXISTS (SELECT 1 FROM actions a WHERE a.game_id = x.game_id AND a.kind = 'resign' AND "
        "a.seat = array_position(x.seats, e.person_id) - 1) ORDER BY x.round, x.table_no LIMIT "
        "$2::integer",
    [ST_TOURNEY_WITHDRAW] =
        "UPDATE tournament_entrants e SET left_round = greatest(t.round, 1) FROM tournaments t "
        "WHERE t.id = "
        "e.tournament_id AND e.tournament_id = $1::uuid AND e.person_id = $2::uuid AND "
        "e.left_round IS NULL AND t.status = 'running' RETURNING (SELECT x.game_id FROM "
        "tournament_tables x JOIN games g ON g.id = x.game_id WHERE x.tournament_id = t.id AND "
        "x.round = t.round AND g.status = 'active' AND $2::uuid = ANY (x.seats)), (SELECT "
        "array_position(x.seats, $2::uuid) - 1 FROM tournament_tables x JOIN games g ON g.id = "
        "x.game_id WHERE x.tournament_id = t.id AND x.round = t.round AND g.status = 'active' "
        "AND $2::uuid = ANY (x.seats))",
    /* In a leave's or a round's transaction: tournament $1's sweep (a job of no game, kind
     * STORE_TOURNEY_SWEEP_KIND, subject the id; leased $3 ms) due in $2 ms, when an entrant
     * of it has left. A sweep already planned is brought forward, never put off; its
     * version moves on, so that a sweep running now runs once more after it (as
     * ST_JOB_FREE_PLAN's writers do); the workers are woken at the commit. */
    [ST_TOURNEY_SWEEP_PLAN] =
        "WITH w AS (INSERT INTO jobs AS j (game_id, kind, subject, version, due_at, lease_ms) "
        "SELECT NULL, '" STORE_TOURNEY_SWEEP_KIND "', $1::uuid::text, 0, now() + $2::integer * "
        "interval '1 millisecond', $3::integer WHERE EXISTS (SELECT 1 FROM tournament_entrants "
        "WHERE tournament_id = $1::uuid AND left_round IS NOT NULL) ON CONFLICT (game_id, kind, "
        "subject) DO UPDATE SET version = j.version + 1, due_at = least(j.due_at, "
        "EXCLUDED.due_at), lease_ms = EXCLUDED.lease_ms, claimed_until = CASE WHEN "
        "j.claimed_until > now() THEN j.claimed_until END, attempts = CASE WHEN j.claimed_until "
        "> now() THEN j.attempts ELSE 0 END RETURNING j.claimed_until IS NULL AS free) SELECT "
        "pg_notify('" STORE_JOBS_CHANNEL "', '') FROM w WHERE free",
    /* The analysis of finished game $1 (0036): the game's status, the stored body (NULL:
     * none yet) and whether this read wrote its job (kind 'analysis', leased $2 ms a claim;
     * written when the game is finished, has no analysis and no such job yet: every
     * server's workers are notified). No row: no such game. */
    [ST_ANALYSIS_GET] =
        "WITH g AS (SELECT id, status FROM games WHERE id = $1::uuid), a AS (SELECT body::text "
        "AS body FROM game_analysis WHERE game_id = $1::uuid), w AS (INSERT INTO jobs (game_id, "
        "kind, version, due_at, lease_ms) SELECT id, 'analysis', 0, now(), $2::integer FROM g "
        "WHERE status = 'finished' AND NOT EXISTS (SELECT 1 FROM a) ON CONFLICT (game_id, kind, "
        "subject) DO NOTHING RETURNING 1) SELECT g.status, (SELECT body FROM a), (SELECT "
        "count(*) FROM w), (SELECT pg_notify('" STORE_JOBS_CHANNEL "', '') WHERE EXISTS (SELECT "
        "1 FROM w)) FROM g",
    /* Whether game $1 has its analysis stored (a run claimed after another stored it). */
    [ST_ANALYSIS_DONE] = "SELECT count(*) FROM game_analysis WHERE game_id = $1::uuid",
    /* Stores the analysis $2 (CPU $3 ms) of game $1 and removes its job $4 of version $5, in
     * one statement; a second run's body is not kept, only counted (runs). */
    [ST_ANALYSIS_PUT] =
        "WITH d AS (DELETE FROM jobs WHERE id = $4::bigint AND version = $5::integer RETURNING 1) "
        "INSERT INTO game_analysis AS a (game_id, body, cpu_ms) SELECT id, $2::jsonb, $3::integer "
        "FROM games WHERE id = $1::uuid ON CONFLICT (game_id) DO UPDATE SET runs = a.runs + 1",
};

/*
 * The statements that may be sent a second time after the first one's answer was lost
 * (it may have run): those that only read, and ST_GAME_WATCH (greatest() of a lease: the
 * same row and answer twice). Every other statement writes something whose second run
 * would answer differently (a duplicate key, no row left to update or delete) and is
 * repeated only when it certainly never reached the server (see db_run_fmt).
 */
static const unsigned char stmt_repeatable[ST_COUNT] = {
    [ST_PING] = 1,           [ST_GAME_LOAD] = 1,       [ST_EVENTS_LIST] = 1,
    [ST_IDEM_GET] = 1,       [ST_GAME_VERSION] = 1,    [ST_GAME_VERSIONS] = 1,
    [ST_EVENTS_EACH] = 1,    [ST_WEBHOOK_STATE] = 1,   [ST_COUNTS] = 1,
    [ST_GAME_WATCH] = 1,     [ST_PERSON_BY_TOKEN] = 1, [ST_REMATCH_FIND] = 1,
    [ST_GAME_HISTORY] = 1,   [ST_GAME_EXPORT] = 1,     [ST_SERVER_KEY] = 1,
    [ST_RATINGS_PERSON] = 1, [ST_RATINGS_HISTORY] = 1, [ST_RATINGS_BOARD] = 1,
    [ST_RATINGS_BOTS] = 1,   [ST_CHAT_EACH] = 1,       [ST_CHAT_REPORTS] = 1,
    [ST_BLOCKS_LIST] = 1,    [ST_BLOCKS_AMONG] = 1,    [ST_GAME_SUSPENDED] = 1,
    [ST_CHAT_HIDE] = 1,      [ST_TOURNEY_JSON] = 1,    [ST_TOURNEY_LIST] = 1,
    [ST_TOURNEY_ROW] = 1,    [ST_TOURNEY_SEEDED] = 1,  [ST_TOURNEY_TABLES] = 1,
    [ST_TOURNEY_EVENTS] = 1, [ST_LOBBY_PAGE] = 1,      [ST_TOURNEY_LEFT_SEATS] = 1,
};

/* A thread's connection. */
struct conn {
    PGconn *pg;            /* NULL while disconnected */
    unsigned gen;          /* conn_gen when pg connected: stale once it differs */
    long long next_try_ms; /* no reconnect attempt before this, unless... */
    unsigned fail_ups;     /* ...conn_ups moved on since the attempt that failed */
    unsigned tli;          /* the timeline of the primary pg reached (store_epoch) */
    int checked;           /* pg passed conn_alive() and nothing was sent on it since */
    /* The statements prepared on pg: each is prepared at its first use, not all at
     * connect, so that a new connection costs a few milliseconds instead of a round trip
     * for each of ST_COUNT statements (after a failover every thread of every server
     * reconnects at once, and preparing them all held requests for a second). */
    unsigned char prepared[(ST_COUNT + 7) / 8];
};

static atomic_uint conn_gen;   /* bumped when every connection may be dead */
static atomic_uint conn_ups;   /* bumped at every connection made, and by conn_gen's bumps */
static atomic_uint newest_tli; /* the newest timeline any connection reached */
static char *conninfo;         /* from store_init */
static pthread_key_t conn_key; /* the thread's struct conn */
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void conn_free(void *p)
{
    struct conn *c = p;
    if (!c) return;
    if (c->pg) PQfinish(c->pg);
    free(c);
}

static void key_make(void)
{
    if (pthread_key_create(&conn_key, conn_free) != 0) abort();
}

/* Appends `kw`='`val`' (quoted as libpq's key/value form wants) to `b` of size `cap` at
 * *o; -1 when it does not fit. */
static int conninfo_put(char *b, size_t cap, size_t *o, const char *kw, const char *val)
{
    int n = snprintf(b + *o, cap - *o, "%s%s='", *o ? " " : "", kw);
    if (n < 0 || (size_t)n >= cap - *o) return -1;
    *o += (size_t)n;
    for (const char *p = val; *p; p++) {
        if (*o + 3 >= cap) return -1;
        if (*p == '\\' || *p == '\'') b[(*o)++] = '\\';
        b[(*o)++] = *p;
    }
    if (*o + 2 >= cap) return -1;
    b[(*o)++] = '\'';
    b[*o] = '\0';
    return 0;
}

/*
 * `info` (a URI or key/value conninfo, one host or several) as a key/value conninfo that
 * asks for a server that accepts writes (target_session_attrs=read-write) unless `info`
 * says otherwise: with several hosts libpq then connects to the primary among them,
 * skipping a standby, and a single host that is (or became) a standby is refused at
 * connect instead of failing every write. Malloc'd, or NULL when `info` does not parse.
 */
static char *conninfo_for_writes(const char *info)
{
    char *err = NULL;
    PQconninfoOption *opts = PQconninfoParse(info, &err);
    if (!opts) {
        log_kv(LOG_ERROR, "DATABASE_URL does not parse", "error", err ? err : "out of memory",
               NULL);
        PQfreemem(err);
        return NULL;
    }
    size_t cap = strlen(info) * 2 + 256, o = 0;
    char *b = malloc(cap);
    int ok = b != NULL, tsa = 0;
    if (b) b[0] = '\0';
    for (PQconninfoOption *x = opts; ok && x->keyword; x++) {
        if (!x->val) continue;
        if (strcmp(x->keyword, "target_session_attrs") == 0) tsa = 1;
        ok = conninfo_put(b, cap, &o, x->keyword, x->val) == 0;
    }
    if (ok && !tsa) ok = conninfo_put(b, cap, &o, "target_session_attrs", "read-write") == 0;
    PQconninfoFree(opts);
    if (!ok) {
        free(b);
        return NULL;
    }
    return b;
}

int store_init(const char *info)
{
    pthread_once(&key_once, key_make);
    free(conninfo);
    conninfo = conninfo_for_writes(info);
    return conninfo ? 0 : -1;
}

void store_shutdown(void)
{
    pthread_once(&key_once, key_make);
    conn_free(pthread_getspecific(conn_key));
    pthread_setspecific(conn_key, NULL);
    free(conninfo);
    conninfo = NULL;
}

/* Logs the failure of `what` with libpq's message. */
void db_log(const char *what, PGconn *pg, const PGresult *res)
{
    const char *msg = res ? PQresultErrorMessage(res) : PQerrorMessage(pg);
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    char clean[512];
    snprintf(clean, sizeof clean, "%s", msg ? msg : "");
    size_t n = strlen(clean);
    while (n && (clean[n - 1] == '\n' || clean[n - 1] == ' ')) clean[--n] = '\0';
    log_kv(LOG_ERROR, "database error", "op", what, "sqlstate", state, "error", clean, NULL);
}

/* PostgreSQL's notices (NOTICE, WARNING) go to the log at debug level. */
void db_on_notice(void *arg, const char *message)
{
    (void)arg;
    char clean[512];
    snprintf(clean, sizeof clean, "%s", message);
    size_t n = strlen(clean);
    while (n && (clean[n - 1] == '\n' || clean[n - 1] == ' ')) clean[--n] = '\0';
    log_kv(LOG_DEBUG, "database notice", "notice", clean, NULL);
}

void store_conns_stale(void)
{
    atomic_fetch_add(&conn_gen, 1);
    atomic_fetch_add(&conn_ups, 1); /* a thread waiting to reconnect may try at once */
}

unsigned store_epoch(void)
{
    pthread_once(&key_once, key_make);
    const struct conn *c = pthread_getspecific(conn_key);
    return c && c->pg ? c->tli : 0;
}

unsigned store_epoch_newest(void)
{
    return atomic_load(&newest_tli);
}

/* The timeline of the primary `pg` reached (that of its current WAL file), or 0. */
static unsigned conn_timeline(PGconn *pg)
{
    PGresult *res = PQexec(pg, "SELECT pg_walfile_name(pg_current_wal_lsn())");
    unsigned tli = 0;
    if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
        PQgetlength(res, 0, 0) >= 8) {
        char hex[9];
        memcpy(hex, PQgetvalue(res, 0, 0), 8);
        hex[8] = '\0';
        tli = (unsigned)strtoul(hex, NULL, 16);
    }
    PQclear(res);
    return tli;
}

/*
 * 1 when `pg` (idle, CONNECTION_OK) may be used: its socket has nothing to read, or what
 * it had to read (a notice) left it connected. A server that shut down or terminated the
 * backend has sent its last message and closed: reading it ends the connection here,
 * before a statement is sent into it.
 */
static int conn_alive(PGconn *pg)
{
    struct pollfd pf = {PQsocket(pg), POLLIN, 0};
    if (pf.fd < 0) return 0;
    int rc = poll(&pf, 1, 0);
    if (rc < 0) return 0;
    if (rc > 0 && (!PQconsumeInput(pg) || PQstatus(pg) != CONNECTION_OK)) return 0;
    return !db_read_only(pg);
}

int db_read_only(const PGconn *pg)
{
    /* Both reported by PostgreSQL 14 and later whenever they change (GUC_REPORT). */
    const char *hot = PQparameterStatus(pg, "in_hot_standby");
    const char *ro = PQparameterStatus(pg, "default_transaction_read_only");
    return (hot && strcmp(hot, "on") == 0) || (ro && strcmp(ro, "on") == 0);
}

PGconn *db_connect(const char *what)
{
    if (!conninfo) return NULL;
    PGconn *pg = PQconnectdb(conninfo);
    if (PQstatus(pg) != CONNECTION_OK) {
        db_log(what, pg, NULL);
        metrics_db_error(1);
        PQfinish(pg);
        return NULL;
    }
    PQsetNoticeProcessor(pg, db_on_notice, NULL);
    return pg;
}

/* 1: the calling thread's connections plan without sequential scans (db_index_lookups). */
static _Thread_local int index_lookups;

void db_index_lookups(void)
{
    index_lookups = 1;
}

/* Connects (a thread's connection). Returns the connection or NULL. */
static PGconn *connect_thread(void)
{
    PGconn *pg = db_connect("connect");
    if (!pg) return NULL;
    if (index_lookups && db_exec(pg, "SET enable_seqscan = off", "index lookups") != STORE_OK) {
        PQfinish(pg);
        return NULL;
    }
    return pg;
}

/*
 * The calling thread's connection, connecting when needed; NULL while unreachable. With
 * `timeline` a new connection learns the timeline of its primary (store_epoch), which
 * the migrations' short-lived connection has no use for.
 */
static PGconn *conn_get_opt(int timeline)
{
    pthread_once(&key_once, key_make);
    struct conn *c = pthread_getspecific(conn_key);
    if (!c) {
        c = calloc(1, sizeof *c);
        if (!c) return NULL;
        if (pthread_setspecific(conn_key, c) != 0) {
            free(c);
            return NULL;
        }
    }
    unsigned gen = atomic_load(&conn_gen);
    /* Looked at once between two statements: a caller's db_conn() and the statement's
     * conn_before_use() would otherwise both poll the socket for the same request. */
    if (c->pg && PQstatus(c->pg) == CONNECTION_OK && PQtransactionStatus(c->pg) == PQTRANS_IDLE &&
        (c->gen != gen || (!c->checked && !conn_alive(c->pg)))) {
        /* Dead or stale: replaced before use, so that no statement is sent into it. */
        int read_only = c->gen == gen && db_read_only(c->pg);
        log_kv(read_only ? LOG_WARN : LOG_DEBUG,
               read_only ? "database is read-only" : "database connection replaced", "why",
               c->gen != gen ? "stale"
               : read_only   ? "the server is read-only now (a standby, or demoted)"
                             : "closed by the server",
               NULL);
        /* The others are likely on it too: each is looked at before its next use. */
        if (read_only) atomic_fetch_add(&conn_gen, 1);
        PQfinish(c->pg);
        c->pg = NULL;
    }
    if (c->pg && PQstatus(c->pg) != CONNECTION_OK) {
        PQfinish(c->pg);
        c->pg = NULL;
    }
    /* Alive as of now (looked at above, or just replaced) until the next statement. */
    c->checked = c->pg && PQtransactionStatus(c->pg) == PQTRANS_IDLE;
    if (!c->pg) {
        long long now = api_now_ms();
        if (now < c->next_try_ms && atomic_load(&conn_ups) == c->fail_ups) return NULL;
        c->pg = connect_thread();
        memset(c->prepared, 0, sizeof c->prepared);
        if (!c->pg) {
            c->next_try_ms = now + RECONNECT_DELAY_MS;
            c->fail_ups = atomic_load(&conn_ups);
        } else {
            c->gen = gen;
            c->tli = timeline ? conn_timeline(c->pg) : 0;
            unsigned seen = atomic_load(&newest_tli);
            while (c->tli > seen && !atomic_compare_exchange_weak(&newest_tli, &seen, c->tli)) {
            }
            atomic_fetch_add(&conn_ups, 1);
            log_kv(LOG_INFO, "database connected", NULL);
        }
    }
    return c->pg;
}

PGconn *db_conn(void)
{
    return conn_get_opt(1);
}

/* Before something is sent on `pg`: if it is the thread's connection, it is looked at
 * again before the next statement outside a transaction (conn_get_opt). */
static void conn_sending(const PGconn *pg)
{
    pthread_once(&key_once, key_make);
    struct conn *c = pthread_getspecific(conn_key);
    if (c && c->pg == pg) c->checked = 0;
}

/* Closes the calling thread's connection (a new one is made on the next use). */
static void conn_drop(void)
{
    struct conn *c = pthread_getspecific(conn_key);
    if (c && c->pg) {
        PQfinish(c->pg);
        c->pg = NULL;
    }
}

/* Maps a failed result to a status; drops the connection when it is gone. */
static enum store_status fail_status(PGconn *pg, const PGresult *res, const char *what)
{
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    /* 25006 read_only_sql_transaction: the server no longer takes writes (a standby, or
     * a primary demoted or fenced under us, while the new primary is elsewhere): the
     * connection is replaced like a lost one, and the new one goes to a server that
     * takes writes (target_session_attrs=read-write, conninfo_for_writes). */
    int read_only = state && strcmp(state, STATE_READ_ONLY) == 0;
    if (PQstatus(pg) != CONNECTION_OK || (state && strncmp(state, "08", 2) == 0) ||
        (state && strncmp(state, "57P", 3) == 0) || read_only) {
        log_kv(LOG_WARN, read_only ? "database is read-only" : "database connection lost", "op",
               what, NULL);
        metrics_db_error(1);
        struct conn *c = pthread_getspecific(conn_key);
        if (c && c->pg == pg) {
            PQfinish(pg);
            c->pg = NULL;
        }
        /* The others may have died with it (a restart): each is replaced before its
         * next use. */
        atomic_fetch_add(&conn_gen, 1);
        return STORE_UNAVAILABLE;
    }
    if (state && strcmp(state, "23505") == 0) return STORE_DUPLICATE;
    if (state && (strcmp(state, "40001") == 0 || strcmp(state, "40P01") == 0))
        return STORE_CONFLICT;
    db_log(what, pg, res);
    metrics_db_error(0);
    return STORE_ERROR;
}

enum store_status db_failure(PGconn *pg, const PGresult *res, enum stmt st)
{
    return fail_status(pg, res, stmt_sql[st]);
}

void db_conn_discard(PGconn *pg)
{
    struct conn *c = pthread_getspecific(conn_key);
    if (c && c->pg == pg) conn_drop();
}

/*
 * Before a statement outside a transaction on the thread's connection *pgp: makes *pgp
 * the connection to use now (db_conn() replaces one that is dead or stale). Returns
 * STORE_OK, or STORE_UNAVAILABLE when no connection can be made. In a transaction, and
 * on a connection other than the thread's, nothing changes.
 */
static enum store_status conn_before_use(PGconn **pgp)
{
    pthread_once(&key_once, key_make);
    struct conn *c = pthread_getspecific(conn_key);
    if (!c || c->pg != *pgp || PQstatus(*pgp) != CONNECTION_OK ||
        PQtransactionStatus(*pgp) != PQTRANS_IDLE)
        return STORE_OK;
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    *pgp = pg;
    return STORE_OK;
}

/* The thread's record of what is prepared on `pg`, or NULL when `pg` is not the calling
 * thread's connection (no other connection runs prepared statements). */
static struct conn *conn_of(const PGconn *pg)
{
    pthread_once(&key_once, key_make);
    struct conn *c = pthread_getspecific(conn_key);
    return c && c->pg == pg ? c : NULL;
}

static int is_prepared(const struct conn *c, enum stmt st)
{
    return (c->prepared[st / 8] >> (st % 8)) & 1;
}

static void set_prepared(struct conn *c, enum stmt st, int on)
{
    unsigned char bit = (unsigned char)(1u << (st % 8));
    c->prepared[st / 8] =
        (unsigned char)(on ? c->prepared[st / 8] | bit : c->prepared[st / 8] & ~bit);
}

void db_stmt_name(enum stmt st, char name[16])
{
    snprintf(name, 16, "s%d", (int)st);
}

/* Prepares `st` on `pg` (the thread's connection, outside a pipeline) unless it is
 * already. STORE_OK, or the mapped failure (the connection dropped when it was lost). */
static enum store_status prepare_now(PGconn *pg, enum stmt st)
{
    struct conn *c = conn_of(pg);
    if (!c) {
        log_kv(LOG_ERROR, "prepared statement on a connection not the thread's", "op", stmt_sql[st],
               NULL);
        return STORE_ERROR;
    }
    if (is_prepared(c, st)) return STORE_OK;
    char name[16];
    db_stmt_name(st, name);
    conn_sending(pg);
    PGresult *res = PQprepare(pg, name, stmt_sql[st], 0, NULL);
    enum store_status s = STORE_OK;
    if (PQresultStatus(res) == PGRES_COMMAND_OK)
        set_prepared(c, st, 1);
    else
        s = fail_status(pg, res, "prepare");
    PQclear(res);
    return s;
}

int db_pipe_prepare(PGconn *pg, enum stmt st)
{
    struct conn *c = conn_of(pg);
    if (!c) return -1;
    if (is_prepared(c, st)) return 0;
    char name[16];
    db_stmt_name(st, name);
    if (!PQsendPrepare(pg, name, stmt_sql[st], 0, NULL)) return -1;
    set_prepared(c, st, 1); /* db_pipe_unprepared() takes it back if it fails */
    return 1;
}

void db_pipe_unprepared(PGconn *pg, enum stmt st)
{
    struct conn *c = conn_of(pg);
    if (c) set_prepared(c, st, 0);
}

/* The result of the statement sent on `pg`: the last one, or the first error (which a
 * result that came before it, such as a command completed before the server died, does
 * not hide). NULL when none came at all. */
static PGresult *take_result(PGconn *pg)
{
    PGresult *last = NULL, *r;
    while ((r = PQgetResult(pg)) != NULL) {
        if (last && PQresultStatus(last) == PGRES_FATAL_ERROR) {
            PQclear(r);
            continue;
        }
        PQclear(last);
        last = r;
        if (PQstatus(pg) == CONNECTION_BAD) break;
    }
    return last;
}

/*
 * Runs prepared statement `st` with `n` parameters (text, except those with a nonzero
 * length in `lens`, which are binary) on *pgp. On success *out holds the result (caller
 * PQclears) and STORE_OK is returned; else the mapped failure (nothing to clear).
 *
 * Outside a transaction, a dead or stale connection is replaced before the statement is
 * sent (conn_before_use), so that a database restart costs no request. Should the
 * connection be lost all the same, the statement is sent once more on a new connection
 * when that is harmless: when it never reached the server (PQsendQueryPrepared failed: the
 * connection was already down, or the bytes never left; PostgreSQL commits a statement of
 * the extended protocol only at its Sync message, the last one sent), or when it may run
 * twice (stmt_repeatable). A lost answer to a write is not repeated: it may have been
 * committed. For ST_GAME_COMMIT, even a wrong judgement could not apply an action twice:
 * it updates the game only WHERE version = $2, which a first run that committed moved to
 * $2 + 1, so a second run writes nothing and its caller answers a conflict. In a
 * transaction, nothing is repeated (the transaction is gone with its connection).
 */
enum store_status db_run_fmt(PGconn **pgp, enum stmt st, int n, const char *const *vals,
                             const int *lens, int binary, PGresult **out)
{
    char name[16];
    db_stmt_name(st, name);
    int formats[DB_MAX_PARAMS] = {0};
    if (n > DB_MAX_PARAMS) return STORE_ERROR;
    for (int i = 0; lens && i < n; i++) formats[i] = lens[i] ? 1 : 0;
    int idle = PQtransactionStatus(*pgp) == PQTRANS_IDLE;
    if (idle) {
        enum store_status s = conn_before_use(pgp);
        if (s != STORE_OK) return s;
    }
    for (int attempt = 0;; attempt++) {
        PGconn *pg = *pgp;
        /* Its first use on this connection prepares it; failing, it was never sent. */
        enum store_status s = prepare_now(pg, st);
        int sent = 0;
        if (s == STORE_OK) {
            conn_sending(pg);
            sent = PQsendQueryPrepared(pg, name, n, vals, lens, formats, binary);
            PGresult *res = sent ? take_result(pg) : NULL;
            ExecStatusType rs = PQresultStatus(res);
            if (rs == PGRES_COMMAND_OK || rs == PGRES_TUPLES_OK) {
                *out = res;
                return STORE_OK;
            }
            /* A statement a read-only server refused did not run: as good as never sent. */
            const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
            if (state && strcmp(state, STATE_READ_ONLY) == 0) sent = 0;
            s = fail_status(pg, res, stmt_sql[st]);
            PQclear(res);
        }
        if (s == STORE_UNAVAILABLE && idle && attempt == 0 && (!sent || stmt_repeatable[st]) &&
            (*pgp = db_conn()) != NULL) {
            log_kv(LOG_INFO, "statement sent again on a new connection", "op",
                   sent ? "repeatable" : "not sent", NULL);
            continue;
        }
        return s;
    }
}

/* db_run_fmt() with results in text. */
enum store_status db_run(PGconn **pgp, enum stmt st, int n, const char *const *vals,
                         const int *lens, PGresult **out)
{
    return db_run_fmt(pgp, st, n, vals, lens, 0, out);
}

enum store_status db_run_row(enum stmt st, int n, const char *const *vals, int binary,
                             PGresult **out)
{
    *out = NULL;
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    PGresult *res;
    enum store_status s = db_run_fmt(&pg, st, n, vals, NULL, binary, &res);
    if (s != STORE_OK) return s;
    if (PQntuples(res) != 1) {
        PQclear(res);
        return STORE_NOT_FOUND;
    }
    *out = res;
    return STORE_OK;
}

enum store_status db_row_of(enum stmt st, const char *param, int binary, PGresult **out)
{
    const char *vals[1] = {param};
    return db_run_row(st, 1, vals, binary, out);
}

enum store_status db_row_of_int(enum stmt st, const char *param, long n, PGresult **out)
{
    char text[24];
    snprintf(text, sizeof text, "%ld", n);
    const char *vals[2] = {param, text};
    return db_run_row(st, 2, vals, 0, out);
}

enum store_status db_row_text(enum stmt st, int n, const char *const *vals, char **text)
{
    *text = NULL;
    PGresult *res;
    enum store_status s = db_run_row(st, n, vals, 0, &res);
    if (s != STORE_OK) return s;
    size_t len = (size_t)PQgetlength(res, 0, 0);
    *text = malloc(len + 1);
    if (*text) {
        memcpy(*text, PQgetvalue(res, 0, 0), len);
        (*text)[len] = '\0';
    }
    PQclear(res);
    return *text ? STORE_OK : STORE_ERROR;
}

enum store_status db_run_page(enum stmt st, const char *id, int after, int limit, PGresult **out)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    char a[16], l[16];
    snprintf(a, sizeof a, "%d", after);
    snprintf(l, sizeof l, "%d", limit);
    const char *vals[3] = {id, a, l};
    return db_run(&pg, st, 3, vals, NULL, out);
}

enum store_status db_events_each(const PGresult *res, int col,
                                 int (*fn)(void *arg, int seq, const char *type, const char *text,
                                           size_t len),
                                 void *arg, int *count)
{
    *count = 0;
    int rows = PQntuples(res);
    for (int i = 0; i < rows && !PQgetisnull(res, i, col); i++) {
        if (fn(arg, (int)db_long(res, i, col, 0), PQgetvalue(res, i, col + 1),
               PQgetvalue(res, i, col + 2), (size_t)PQgetlength(res, i, col + 2)))
            return STORE_ERROR;
        (*count)++;
    }
    return STORE_OK;
}

/* Runs `st` and discards the result; *affected (if not NULL) gets the rows changed. */
enum store_status db_run_cmd(PGconn **pgp, enum stmt st, int n, const char *const *vals,
                             const int *lens, long *affected)
{
    PGresult *res;
    enum store_status s = db_run(pgp, st, n, vals, lens, &res);
    if (s != STORE_OK) return s;
    if (affected) *affected = strtol(PQcmdTuples(res), NULL, 10);
    PQclear(res);
    return STORE_OK;
}

/* Column `col` of row `row` as a long, or `null_value` when NULL. */
long db_long(const PGresult *res, int row, int col, long null_value)
{
    if (PQgetisnull(res, row, col)) return null_value;
    return strtol(PQgetvalue(res, row, col), NULL, 10);
}

int db_take_text(const PGresult *res, int row, int col, char *dst, size_t cap)
{
    size_t n = (size_t)PQgetlength(res, row, col);
    if (n >= cap) return -1;
    memcpy(dst, PQgetvalue(res, row, col), n);
    dst[n] = '\0';
    return 0;
}

void db_copy_text(const PGresult *res, int col, char *dst, size_t cap)
{
    snprintf(dst, cap, "%s", PQgetisnull(res, 0, col) ? "" : PQgetvalue(res, 0, col));
}

/* Runs a plain SQL command (BEGIN, COMMIT, a migration script). */
enum store_status db_exec(PGconn *pg, const char *sql, const char *what)
{
    conn_sending(pg);
    PGresult *res = PQexec(pg, sql);
    ExecStatusType rs = PQresultStatus(res);
    enum store_status s = STORE_OK;
    if (rs != PGRES_COMMAND_OK && rs != PGRES_TUPLES_OK) s = fail_status(pg, res, what);
    PQclear(res);
    return s;
}

/* Starts a transaction, on a new connection if the thread's one is stale or turns out
 * dead (BEGIN changes nothing, so sending it again is always harmless). */
enum store_status db_begin(PGconn **pgp)
{
    enum store_status s = conn_before_use(pgp);
    if (s != STORE_OK) return s;
    s = db_exec(*pgp, "BEGIN", "begin");
    if (s == STORE_UNAVAILABLE && (*pgp = db_conn()) != NULL) s = db_exec(*pgp, "BEGIN", "begin");
    return s;
}

/* Ends a failed transaction if the connection is still there. */
void db_rollback(PGconn *pg)
{
    struct conn *c = pthread_getspecific(conn_key);
    if (c && c->pg == pg && PQstatus(pg) == CONNECTION_OK &&
        PQtransactionStatus(pg) != PQTRANS_IDLE) {
        PGresult *res = PQexec(pg, "ROLLBACK");
        PQclear(res);
    }
}

enum store_status store_ping(void)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    return db_run_cmd(&pg, ST_PING, 0, NULL, NULL, NULL);
}

enum store_status store_migrate(const struct store_migration *list, size_t n)
{
    conn_drop();
    PGconn *pg = conn_get_opt(0);
    if (!pg) return STORE_UNAVAILABLE;
    enum store_status s = db_exec(pg, "SELECT pg_advisory_lock(" MIGRATION_LOCK_KEY ")", "lock");
    if (s != STORE_OK) return s;
    s = db_exec(pg,
                "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, "
                "name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())",
                "schema_migrations");
    for (size_t i = 0; s == STORE_OK && i < n; i++) {
        char ver[16];
        snprintf(ver, sizeof ver, "%d", list[i].version);
        const char *vals[2] = {ver, list[i].name};
        PGresult *res =
            PQexecParams(pg, "SELECT 1 FROM schema_migrations WHERE version = $1::integer", 1, NULL,
                         vals, NULL, NULL, 0);
        if (PQresultStatus(res) != PGRES_TUPLES_OK) {
            s = fail_status(pg, res, "schema_migrations");
            PQclear(res);
            break;
        }
        int done = PQntuples(res) > 0;
        PQclear(res);
        if (done) continue;
        log_kv(LOG_INFO, "applying migration", "file", list[i].name, NULL);
        s = db_exec(pg, "BEGIN", "begin");
        if (s == STORE_OK) s = db_exec(pg, list[i].sql, list[i].name);
        if (s == STORE_OK) {
            res = PQexecParams(pg,
                               "INSERT INTO schema_migrations (version, name) "
                               "VALUES ($1::integer, $2)",
                               2, NULL, vals, NULL, NULL, 0);
            if (PQresultStatus(res) != PGRES_COMMAND_OK) s = fail_status(pg, res, "record");
            PQclear(res);
        }
        if (s == STORE_OK) s = db_exec(pg, "COMMIT", "commit");
        if (s != STORE_OK) db_rollback(pg);
    }
    /* Still the same connection (else it was lost, and its lock with it). */
    int same = conn_get_opt(0) == pg;
    if (same) {
        enum store_status u =
            db_exec(pg, "SELECT pg_advisory_unlock(" MIGRATION_LOCK_KEY ")", "unlock");
        if (s == STORE_OK) s = u;
    }
    if (s == STORE_OK && same) {
        /* Forget idempotent answers older than a day while we are here. */
        s = db_exec(pg, "DELETE FROM idempotency WHERE created_at < now() - interval '24 hours'",
                    "idempotency purge");
    }
    /* Every statement is prepared once here, on the schema just made: one that does not
     * fit it fails the start, not the first request that uses it (connections prepare
     * each statement at its first use). */
    for (int i = 0; s == STORE_OK && same && i < ST_COUNT; i++) s = prepare_now(pg, (enum stmt)i);
    conn_drop();
    return s;
}
