/* tests.h: the list of integration tests and helpers shared by the test files. */
#ifndef ITEST_TESTS_H
#define ITEST_TESTS_H

#include "itest.h"

struct itest {
    const char *name;               /* printed with its result */
    void (*fn)(struct server *srv); /* records a failure through CHECK */
};

extern const struct itest itest_tests[];
extern const size_t itest_ntests;

/* A game created for a test. */
struct game {
    char id[64];        /* its id */
    int nplayers;       /* seats */
    char token[5][128]; /* the tokens by seat */
    char auth[5][160];  /* "Authorization: Bearer <token>" by seat */
};

/* Creates a game from `body`; returns 0 or -1 (then `why` says what went wrong). */
int game_new(const struct server *srv, const char *body, struct game *g, char *why, size_t cap);

/* The create bodies of the picture tests (board.svg, board.png) after their first game:
 * hills with three seats, discovery with a name that must be escaped, classic with the River. */
#define PICTURE_GAMES                                                                              \
    "{\"ruleset\":\"hills\",\"players\":[{\"name\":\"A\"},{\"name\":\"B\"},{\"name\":\"C\"}],"     \
    "\"seed\":7}",                                                                                 \
        "{\"ruleset\":\"discovery\",\"players\":[{\"name\":\"A\"},{\"name\":\"<B&>\"}],\"seed\":"  \
        "8}",                                                                                      \
        "{\"ruleset\":\"classic\",\"options\":{\"river\":true},\"players\":[{\"name\":\"A\"},{"    \
        "\"name\":\"B\"}],\"seed\":9}"

/* Creates a game from `body` into `g` (a struct game *) for the test whose server is `srv`,
 * or fails the test (CHECK) with the reason. */
#define NEW_GAME(g, body)                                                                          \
    do {                                                                                           \
        char why_[300];                                                                            \
        CHECK(game_new(srv, body, g, why_, sizeof why_) == 0, "%s", why_);                         \
    } while (0)

/* A player created for a test. */
struct person {
    char id[64];    /* its id */
    char auth[160]; /* "Authorization: Bearer <token>" */
};

/* Creates the player `name` on `srv` (POST /v1/players, its token of the documented shape)
 * into `p`; 0, or -1 with what went wrong in `why`. */
int person_new(const struct server *srv, const char *name, struct person *p, char *why, size_t cap);

/* The JSON body of GET `path` (caller deletes), or NULL unless it answered 200. */
cJSON *get_json(const struct server *srv, const char *path);

/* The game's current JSON (caller deletes), or NULL. */
cJSON *game_get(const struct server *srv, const struct game *g);

/* Checks that GET `path` answers 404 not_found (records a failure otherwise). */
void expect_not_found(const struct server *srv, const char *path);

/* The game's version, or -1. */
int game_version(const struct server *srv, const struct game *g);

/*
 * Plays one whole turn for the seat to move: draws if needed, then places the first
 * legal placement (deploying a follower at its first location when `follower`). Returns
 * 1 when the game is finished afterwards, 0 when it goes on, -1 on an unexpected answer
 * (described in `why`).
 */
int play_turn(const struct server *srv, const struct game *g, int follower, char *why, size_t cap);

/* 1 when `tok` is 43 characters of base64url (256 random bits): a seat's or a player's
 * token. */
int token_shape(const char *tok);

void test_ops(struct server *srv);
void test_ratings_read(struct server *srv);
void test_board_png(struct server *srv);
void test_board_png_refusals(struct server *srv);
void test_board_png_cache(struct server *srv);
void test_board_png_busy(struct server *srv);
void test_past_versions(struct server *srv);
void test_events_pages(struct server *srv);
void test_place_answer_next(struct server *srv);
void test_if_match_forms(struct server *srv);
void test_choices(struct server *srv);
void test_not_found_and_methods(struct server *srv);
void test_rulesets(struct server *srv);
void test_create(struct server *srv);
void test_create_errors(struct server *srv);
void test_body_limits(struct server *srv);
void test_auth(struct server *srv);
void test_turn_errors(struct server *srv);
void test_if_match(struct server *srv);
void test_if_none_match(struct server *srv);
void test_idempotency(struct server *srv);
void test_events(struct server *srv);
void test_long_poll(struct server *srv);
void test_whole_game(struct server *srv);
void test_race(struct server *srv);
void test_two_servers(struct server *srv);
void test_restart(struct server *srv);
void test_drain(struct server *srv);
void test_drain_steps(struct server *srv);
void test_drain_webhook(struct server *srv);
void test_db_loss(struct server *srv);
void test_hills_game(struct server *srv);
void test_hills_refusals(struct server *srv);
void test_discovery_pile_game(struct server *srv);
void test_discovery_hand_game(struct server *srv);
void test_discovery_refusals(struct server *srv);
void test_bad_input(struct server *srv);
void test_rate_limit(struct server *srv);
void test_connection_limits(struct server *srv);
void test_attack_connection_flood(struct server *srv);
void test_attack_slowloris(struct server *srv);
void test_attack_framing(struct server *srv);
void test_attack_content_length(struct server *srv);
void test_idem_concurrent_repeats(struct server *srv);
void test_idem_if_match_strong(struct server *srv);
void test_idem_sealed_create(struct server *srv);
void test_idem_player_keys(struct server *srv);
void test_idem_canonical(struct server *srv);
void test_idem_concurrent_creates(struct server *srv);
void test_idem_migration(struct server *srv);

/* The DATABASE_URL of a fresh database `name` of the test cluster, or "" (t_webhook.c). */
void fresh_database(const char *name, char *url, size_t cap);

/* Runs the psql script `sql` on database `db` in one transaction, with psql variable
 * game=`game`. 0 or -1 (t_webhook.c). */
int psql_run(const char *db, const char *game, const char *sql);
void test_playertoken_same_as_seat(struct server *srv);
void test_playertoken_same_as_seat_hand(struct server *srv);
void test_playertoken_limits(struct server *srv);
void test_security(struct server *srv);
void test_race_many(struct server *srv);
void test_crash(struct server *srv);
void test_outage(struct server *srv);
void test_reconnect(struct server *srv);
void test_read_only(struct server *srv);
void test_create_limit(struct server *srv);
void test_create_limit_rematch(struct server *srv);
void test_create_limit_replay(struct server *srv);
void test_event_stream(struct server *srv);
void test_event_stream_end(struct server *srv);
void test_live_across_servers(struct server *srv);
void test_live_lease(struct server *srv);
void test_slow_request_log(struct server *srv);
void test_stream_across_servers(struct server *srv);
void test_stream_limits(struct server *srv);
void test_turn_view(struct server *srv);
void test_board_svg(struct server *srv);
void test_metrics_and_request_ids(struct server *srv);
void test_webhooks(struct server *srv);
void test_webhook_retries(struct server *srv);
void test_webhook_servers(struct server *srv);
void test_webhook_private(struct server *srv);
void test_webhook_tarpits(struct server *srv);
void test_webhook_breaker(struct server *srv);
void test_webhook_migration(struct server *srv);
void test_players(struct server *srv);
void test_players_refusals(struct server *srv);
void test_players_idempotency(struct server *srv);
void test_players_token_race(struct server *srv);
void test_players_create_limit(struct server *srv);
void test_seatme_play(struct server *srv);
void test_seatme_refusals(struct server *srv);
void test_seatme_idempotency(struct server *srv);
void test_resign_three(struct server *srv);
void test_resign_two(struct server *srv);
void test_resign_completed(struct server *srv);
void test_resign_refusals(struct server *srv);
void test_rematch(struct server *srv);
void test_rematch_cached(struct server *srv);
/* t_clocks.c: clocks of games (issue 12). */
void test_clocks_refused(struct server *srv);
void test_clocks_met(struct server *srv);
void test_clocks_autoplay(struct server *srv);
void test_clocks_resign(struct server *srv);
void test_clocks_bank(struct server *srv);
void test_clocks_late(struct server *srv);
void test_clocks_race(struct server *srv);
void test_clocks_killed(struct server *srv);
void test_clocks_lease(struct server *srv);
void test_clocks_near(struct server *srv);
void test_clocks_in_my_games(struct server *srv);
void test_clocks_bench(struct server *srv);

/* t_bots.c: computer players and hints (issue 13). */
void test_bots_against_person(struct server *srv);
void test_bots_only(struct server *srv);
void test_bots_server_killed(struct server *srv);
void test_bots_lease(struct server *srv);
void test_bots_refused(struct server *srv);
void test_hints(struct server *srv);
void test_bots_rematch(struct server *srv);

/* t_jobs.c: fair background work (issue 29, findings 2 and 4). */
void test_hints_client_gone(struct server *srv);
void test_hints_bounded(struct server *srv);
void test_hints_per_address(struct server *srv);
void test_bots_people_left(struct server *srv);
void test_bots_fair_share(struct server *srv);
void test_creation_owner_seed(struct server *srv);
void test_inbox_list(struct server *srv);
void test_inbox_webhook(struct server *srv);
void test_inbox_names(struct server *srv);
void test_lobby_play(struct server *srv);
void test_lobby_refusals(struct server *srv);
void test_lobby_race(struct server *srv);
void test_lobby_start_events(struct server *srv);
void test_lobby_idempotency(struct server *srv);
void test_lobby_stacked_deck_shown(struct server *srv);
void test_lobby_abort(struct server *srv);
void test_lobby_past_versions(struct server *srv);
void test_lobby_clock_and_bot(struct server *srv);
void test_cors_preflights(struct server *srv);
void test_cors_answers(struct server *srv);
void test_cors_origins(struct server *srv);
void test_security_headers(struct server *srv);
void test_security_page_origins(struct server *srv);
void test_cors_timeout(struct server *srv);

/* t_export.c: export and replay (issue 16, item 4). */
void test_export_replay_rulesets(struct server *srv);
void test_export_replay_people(struct server *srv);
void test_export_refusals(struct server *srv);
void test_export_replay_lobby_clock_idem(struct server *srv);

/* t_retention.c */
void test_retention(struct server *srv);
void test_retention_killed(struct server *srv);

#endif
