/* routes.h: the handlers of the HTTP API, one per operation. */
#ifndef API_ROUTES_H
#define API_ROUTES_H

#include "auth.h"
#include "cfg.h"
#include "nodiscard.h"
#include "req.h"
#include "store_games.h"
#include "store_people.h"
#include "store_webhooks.h"
#include "store_chat.h"

/*
 * Each handler answers `req` into `resp` and has the signature of the route table's rows
 * (router.h): `arg` is the path's parameter segment (the game id ...), NULL for a route
 * whose pattern has none.
 */

/* GET /healthz: the process is alive. */
void routes_healthz(const struct api_request *req, struct api_response *resp, const char *arg);
/* GET /readyz: the database answers. */
void routes_readyz(const struct api_request *req, struct api_response *resp, const char *arg);
/* GET /openapi.yaml: the spec, as read at start-up. */
void routes_openapi(const struct api_request *req, struct api_response *resp, const char *arg);
/* GET /metrics: request counters in the Prometheus text format. */
void routes_metrics(const struct api_request *req, struct api_response *resp, const char *arg);

/* Reads what the operations routes serve (the spec file) and sets up the creation
 * limit (CREATE_LIMIT_PER_MINUTE, CREATE_BURST). Returns 0 or -1 (logged). */
int routes_ops_init(const struct cfg *cfg) NODISCARD;
/* Frees what routes_ops_init() read and set up. */
void routes_ops_free(void);

/*
 * The creation limit per client address, for every route that creates something that
 * stays (games; players and joins): takes a token of the request's address. Returns 0 when
 * the creation may go on, else 1 after answering 429 rate_limited with Retry-After.
 */
int routes_creation_limited(const struct api_request *req, struct api_response *resp);
/* The same in two steps, so that a repeat of a keyed creation (Idempotency-Key) takes no
 * token: _unkeyed where routes_creation_limited() stood (only a request with no key is
 * counted there), _keyed right after idem_begin() found no first answer to repeat (only a
 * request with a key is counted there). Each returns 1 after answering 429. */
int routes_creation_limited_unkeyed(const struct api_request *req, struct api_response *resp);
int routes_creation_limited_keyed(const struct api_request *req, struct api_response *resp);

struct json_err; /* json_in.h */

/* A request's body refused by its decoder (`err`): answers 400 with its code, or 500 when
 * the decoder ran out of memory (internal_error). (creation.c) */
void routes_body_refused(struct api_response *resp, const struct json_err *err);

/* The body of an action that takes none: 0 when it is empty or {} (json_in_empty), else 1
 * after answering 400 with the decoder's code. (creation.c) */
int routes_body_not_empty(const struct api_request *req, struct api_response *resp) NODISCARD;

/* Draws a new row's id into id[]. Returns 0, or 1 after answering 500. (creation.c) */
int routes_new_id(struct api_response *resp, char id[AUTH_UUID_LEN + 1]) NODISCARD;

/* Play now (routes_seeks.c, issue 26): POST /v1/seeks, GET /v1/seeks (the lobby),
 * GET /v1/seeks/{id}?wait= (a long poll), DELETE /v1/seeks/{id}. */
void routes_seek_create(const struct api_request *req, struct api_response *resp, const char *arg);
void routes_seeks_lobby(const struct api_request *req, struct api_response *resp, const char *arg);
void routes_seek_get(const struct api_request *req, struct api_response *resp, const char *id);
void routes_seek_delete(const struct api_request *req, struct api_response *resp, const char *id);

/* GET /v1/rulesets */
void routes_rulesets(const struct api_request *req, struct api_response *resp, const char *arg);
/* GET /v1/rulesets/{ruleset}/tiles */
void routes_tiles(const struct api_request *req, struct api_response *resp, const char *ruleset);

/* POST /v1/games */
void routes_game_create(const struct api_request *req, struct api_response *resp, const char *arg);
/* POST /v1/players: a new player (one identity across games) and its token, shown once. */
void routes_player_create(const struct api_request *req, struct api_response *resp,
                          const char *arg);
/* GET /v1/players/me: the player whose token the request carries. */
void routes_player_me(const struct api_request *req, struct api_response *resp, const char *arg);
/* GET /v1/players/{id}: a player's public profile: name and ratings (routes_ratings.c). */
void routes_player_public(const struct api_request *req, struct api_response *resp, const char *id);
/* GET /v1/players/{id}/games?status=finished: a player's finished games, public
 * (routes_inbox.c, 0025). */
void routes_player_games_public(const struct api_request *req, struct api_response *resp,
                                const char *id);
/* GET /v1/players/{id}/ratings/{pool}: a rating now and its history (routes_ratings.c). */
void routes_player_rating_history(const struct api_request *req, struct api_response *resp,
                                  const char *pool);
/* GET /v1/leaderboards/{pool}: the pool's leaderboard, paged (routes_ratings.c). */
void routes_leaderboard(const struct api_request *req, struct api_response *resp, const char *pool);
/* GET /v1/bots: each computer player's level and think class with its ratings. */
void routes_bots(const struct api_request *req, struct api_response *resp, const char *arg);
/* POST /v1/players/me/token: a new token for that player; the old one stops working. */
void routes_player_token(const struct api_request *req, struct api_response *resp, const char *arg);
/* GET /v1/players/me/games: the player's games, most urgent first, paged (routes_inbox.c). */
void routes_player_games(const struct api_request *req, struct api_response *resp, const char *arg);
/* GET /v1/players/me/webhook: the player's callback URL and how its deliveries stand. */
void routes_player_webhook_get(const struct api_request *req, struct api_response *resp,
                               const char *arg);
/* POST /v1/players/me/webhook: sets the player's callback URL for the events of every game
 * in which it holds a seat; answers its new secret (once). */
void routes_player_webhook_set(const struct api_request *req, struct api_response *resp,
                               const char *arg);
/* DELETE /v1/players/me/webhook: removes the player's callback. */
void routes_player_webhook_delete(const struct api_request *req, struct api_response *resp,
                                  const char *arg);

struct store_person;

/*
 * The player whose token the request's Authorization header carries ("Bearer <token>")
 * into `out`. Returns 0, or 1 after answering 401 missing_token or unknown_token, 403
 * player_suspended (the operator suspended it), 503 ...
 */
int routes_player_auth(const struct api_request *req, struct api_response *resp,
                       struct store_person *out) NODISCARD;
/* Answers 403 player_suspended: the token is a suspended player's (issue 28). */
void routes_suspended_answer(struct api_response *resp);

/* GET /v1/games/{id} */
void routes_game_get(const struct api_request *req, struct api_response *resp, const char *id);
/* GET /v1/games/{id}/scores */
void routes_scores(const struct api_request *req, struct api_response *resp, const char *id);
/* GET /v1/games/{id}/events?after=&wait= */
void routes_events(const struct api_request *req, struct api_response *resp, const char *id);

/* GET /v1/games/{id}/events/stream: the event stream whatever Accept says (a path of its
 * own, so that generated clients type /events as JSON only). */
void routes_events_stream(const struct api_request *req, struct api_response *resp, const char *id);

/* POST /v1/games/{id}/draw */
void routes_draw(const struct api_request *req, struct api_response *resp, const char *id);
/* GET /v1/games/{id}/placements */
void routes_placements_get(const struct api_request *req, struct api_response *resp,
                           const char *id);
/* POST /v1/games/{id}/placements */
void routes_placements_post(const struct api_request *req, struct api_response *resp,
                            const char *id);

/* POST /v1/games/{id}/resign: the caller's seat is out (core/resign.c). */
void routes_resign(const struct api_request *req, struct api_response *resp, const char *id);
/* POST /v1/games/{id}/rematch: the next game of a finished one, created once. */
void routes_rematch(const struct api_request *req, struct api_response *resp, const char *id);
/* POST /v1/games/{id}/join: an open seat taken by its invite (routes_lobby.c). */
void routes_game_join(const struct api_request *req, struct api_response *resp, const char *id);
/* POST /v1/games/{id}/abort: a game called off while waiting or before every seat placed. */
void routes_game_abort(const struct api_request *req, struct api_response *resp, const char *id);

/* GET /v1/games/{id}/turn: the seat to move, its tile (or hand) and legal placements. */
void routes_turn_view(const struct api_request *req, struct api_response *resp, const char *id);

struct game_result;
/*
 * The one mapping of the game service's outcomes (game/service.h) to HTTP: answers the
 * problem of `outcome` (an int holding an enum game_outcome; `r` its details) into `resp`:
 * 409 game_not_active or turn_timed_out, the engine's refusal, 412 version_mismatch for a
 * lost version, 404/503/500 for a failed read or store. GAME_COMMITTED and
 * GAME_PRECONDITION_FAILED answer nothing (the caller has the answer, or its own refusal).
 */
void routes_game_outcome(struct api_response *resp, int outcome, const struct game_result *r);

/* GET /v1/games/{id}/hint (routes_hint.c): the move the mcts level would make. */
void routes_hint(const struct api_request *req, struct api_response *resp, const char *id);
/* GET /v1/games/{id}/board.svg: the board as a picture. */
void routes_board_svg(const struct api_request *req, struct api_response *resp, const char *id);
/* GET /v1/games/{id}/board.png?width=: the board as a PNG picture (board_png.h), cached. */
void routes_board_png(const struct api_request *req, struct api_response *resp, const char *id);

struct json_out;
struct store_webhook_state;
/*
 * Writes the delivery state `h` of a webhook as its GET answers it: a seat's (`games` < 0,
 * with delivered_up_to) or a player's (`games` >= 0: the number of its games, and the game
 * `error_game` of its last error). Shared by routes_webhook.c and routes_inbox.c.
 */
void routes_webhook_state_json(struct json_out *w, const struct store_webhook_state *h, int games,
                               const char *error_game);
/*
 * A webhook's POST body read and its URL checked (json_in_webhook, webhook_url_check), for
 * the seat's and the player's webhook alike: the URL into *url (malloc'd, the caller frees
 * it even on failure), its format into `format`. 0, or -1 after answering 400 (or 500).
 */
int routes_webhook_url_read(const struct api_request *req, struct api_response *resp, char **url,
                            char format[STORE_HOOK_FORMAT_MAX]);
/*
 * Draws a webhook's new secrets into `secret` (WEBHOOK_SECRET_LEN + 1 bytes) and
 * `std_secret` (WEBHOOK_STD_SECRET_LEN + 1) and answers 200
 * {"url", "secret", "standard_secret"}. 0, or -1 after answering 500.
 */
int routes_webhook_secrets_reply(struct api_response *resp, const char *url, char *secret,
                                 char *std_secret);
/* GET /v1/games/{id}/webhook: the seat's callback URL and its delivery state (its token). */
void routes_webhook_get(const struct api_request *req, struct api_response *resp, const char *id);
/* POST /v1/games/{id}/webhook: sets the seat's callback URL, answers its new secret (once). */
void routes_webhook_set(const struct api_request *req, struct api_response *resp, const char *id);
/*
 * The create answer `game` (a JSON object, `len` bytes) with "webhook": {"url", "secret",
 * "standard_secret"} added. Returns a malloc'd text of *out_len bytes, or NULL (out of
 * memory, not an object, a secret not of WEBHOOK_SECRET_LEN characters).
 */
char *routes_webhook_splice(const char *game, size_t len, const char *url, const char *secret,
                            size_t *out_len);
/* DELETE /v1/games/{id}/webhook: removes the seat's callback (its token). */
void routes_webhook_delete(const struct api_request *req, struct api_response *resp,
                           const char *id);

/*
 * GET /v1/games/{id}/events with Accept: text/event-stream: answers a stream of the
 * game's events after `after` (routes_live.c). Called by routes_events().
 */
void routes_event_stream(const struct api_request *req, struct api_response *resp, const char *id,
                         int after);

/*
 * The chat of game `id` (a valid UUID) as a stream of server-sent events "chat_message"
 * after message `after` (or Last-Event-ID), read as person `viewer` (whose blocked
 * senders are passed over), or NULL (routes_live.c). The caller checked who may read.
 */
void routes_chat_stream_open(const struct api_request *req, struct api_response *resp,
                             const char *id, int after, const char *viewer);

/*
 * Tournament `id`'s events (round_started, tournament_finished) as a stream of server-sent
 * events after seq `after` (or Last-Event-ID), ending after tournament_finished
 * (routes_live.c); 404 when there is no such tournament.
 */
void routes_tourney_stream_open(const struct api_request *req, struct api_response *resp,
                                const char *id, int after);

struct store_chat_message;
/* Writes chat message `m` as the API shows it (routes_chat.c): seq, seat, player, name, text
 * (null when hidden), hidden, at. */
void routes_chat_message_json(struct json_out *w, const struct store_chat_message *m);

/* Segment `index` (0: "v1") of `path`, lower-cased, into `out` (`cap` bytes): 0, or -1 when
 * there is none or it does not fit (for routes with two parameters: the router hands over
 * the last one). */
int routes_path_segment(const char *path, int index, char *out, size_t cap) NODISCARD;
/*
 * The message a path names: the game id at segment `id_index` (routes_path_segment) into
 * `id` and the seq (1 ..) the router handed over as `seq_arg` into *seq. Returns 0, or 1
 * after answering 404 not_found when either is none.
 */
int routes_chat_message(const struct api_request *req, struct api_response *resp, int id_index,
                        const char *seq_arg, char id[AUTH_UUID_LEN + 1], int *seq) NODISCARD;

/* Talk (routes_chat.c, issue 28). POST /v1/games/{id}/chat: a seat's message. */
void routes_chat_post(const struct api_request *req, struct api_response *resp, const char *id);
/* GET /v1/games/{id}/chat?after=&wait=: the messages (long poll; SSE with Accept). */
void routes_chat_get(const struct api_request *req, struct api_response *resp, const char *id);
/* GET /v1/games/{id}/chat/stream: the messages as server-sent events. */
void routes_chat_stream(const struct api_request *req, struct api_response *resp, const char *id);
/* POST /v1/games/{id}/chat/{seq}/report: a seat reports a message (`seq` the router's arg). */
void routes_chat_report(const struct api_request *req, struct api_response *resp, const char *seq);
/* Blocks (routes_blocks.c). GET /v1/players/me/blocks */
void routes_blocks_list(const struct api_request *req, struct api_response *resp, const char *arg);
/* POST /v1/players/me/blocks/{player_id} */
void routes_block_add(const struct api_request *req, struct api_response *resp, const char *id);
/* DELETE /v1/players/me/blocks/{player_id} */
void routes_block_delete(const struct api_request *req, struct api_response *resp, const char *id);
/* The operator (routes_admin.c): ADMIN_TOKEN from `cfg` (off when unset). */
void routes_admin_config(const struct cfg *cfg);
/* GET /v1/admin/reports: the open reports with their messages and context. */
void routes_admin_reports(const struct api_request *req, struct api_response *resp,
                          const char *arg);
/* POST /v1/admin/games/{id}/chat/{seq}/hide (`seq` the router's arg). */
void routes_admin_hide(const struct api_request *req, struct api_response *resp, const char *seq);
/* POST /v1/admin/players/{id}/suspend */
void routes_admin_suspend(const struct api_request *req, struct api_response *resp, const char *id);
/* POST /v1/admin/players/{id}/reinstate */
void routes_admin_reinstate(const struct api_request *req, struct api_response *resp,
                            const char *id);

/* 1 when the request asks for server-sent events (Accept names text/event-stream). */
int routes_wants_event_stream(const struct api_request *req);

/* The watch of a long poll (live.h): live_wait_arm, live_wait_arm_chat or
 * live_wait_arm_tourney. */
typedef int routes_wait_arm_fn(struct api_async *a, const char *game, int after,
                               long long deadline_ms);

/*
 * Starts the long poll of game `id` after `after` for `wait` seconds from the request's
 * start: arms `arm_watch` before the caller's query, so that what is committed meanwhile,
 * on any server, still wakes it; without a wait (or when it cannot be armed) none is left
 * pending.
 * Returns what to answer when the query finds nothing: resp->suspend = API_SUSPEND_WAKE
 * (armed) or API_SUSPEND_TICK (run again at the next tick), or 0 when it must not wait.
 */
int routes_long_poll_arm(const struct api_request *req, const char *id, int after, long wait,
                         routes_wait_arm_fn *arm_watch);

/* Starts the answer `w` of a long poll's page (json_out_init'd here) as {"<key>": [, the
 * page's items to follow; routes_long_poll_page_end() settles it. */
void routes_long_poll_page_begin(struct json_out *w, const char *key);

/*
 * Settles a long poll's page `w` once the query that wrote its items returned `s`: a
 * failure is answered (404 not_found with the detail `missing` for STORE_NOT_FOUND, else as
 * problem_store); a page with nothing to answer yet (`empty`) waits when the poll does
 * (resp->suspend = `suspend`, what routes_long_poll_arm returned). Both free `w` and return
 * 1. Else the poll's wait is ended and the page's array closed: returns 0, and the caller
 * finishes the object `w` and answers it.
 */
int routes_long_poll_page_end(const struct api_request *req, struct api_response *resp,
                              struct json_out *w, enum store_status s, const char *missing,
                              int empty, int suspend);

/* GET /v1/games/{id}/analysis: a finished game's review of every placement, planned as a
 * job by the first request (202 with Retry-After until it is stored) (routes_analysis.c). */
void routes_game_analysis(const struct api_request *req, struct api_response *resp, const char *id);

/* GET /v1/games/{id}/export: a finished game's setup, draw order and actions
 * (routes_export.c). */
void routes_game_export(const struct api_request *req, struct api_response *resp, const char *id);
struct idem;
struct store_new_game;
/*
 * Stores the new game `n` of POST /v1/games (a creation or a replay; game_create_begin'd)
 * through the game service (game_create), owned by the request's address (n->owner: its
 * share of the job workers, 0020), and answers 201 with `*answer` (`answer_len` bytes;
 * taken: *answer is set to NULL). A request that lost the
 * race for its Idempotency-Key (`idem`, begun in `scope`, by a player when `by_player`)
 * to another with the same key is answered as the repeat would be; any other failure with
 * its problem. The 201 has Location /v1/games/{id} and the ETag of `version` (the new
 * game's), and is what the Idempotency-Key remembers. Returns 1 when the 201 was answered.
 */
struct game_new;
int routes_game_store_new(const struct api_request *req, const char *scope, int by_player,
                          struct idem *idem, struct game_new *n, int version, char **answer,
                          size_t answer_len, struct api_response *resp) NODISCARD;
/* 1 when the POST /v1/games body `body` (`len` bytes) is an object with a "replay" member. */
int routes_is_replay(const char *body, size_t len);
/* POST /v1/games {"replay": <export>}: the game created again by playing the export's
 * actions, answered as a creation (routes_export.c). */
void routes_game_replay(const struct api_request *req, struct api_response *resp);

/* Takes the hints' bounds (HINT_QUEUE, HINT_PER_ADDRESS) from `cfg` (routes_hint.c). */
void routes_hint_config(const struct cfg *cfg);

/* Takes the event streams' settings (SSE_HEARTBEAT, MAX_STREAMS) from `cfg`. */
void routes_live_config(const struct cfg *cfg);

/* Reads the web client's files (WEB_DIR, one folder, no subfolders) into memory; a
 * missing folder is logged and leaves / answering 404. Builds the page's Content-Security-
 * Policy from WEB_API_ORIGINS and writes that list into index.html's tilehall-api-origins
 * meta. Returns 0, or -1 (logged) when out of memory or WEB_API_ORIGINS is not a list of
 * origins. */
int routes_web_init(const struct cfg *cfg) NODISCARD;
/* Frees what routes_web_init() read. */
void routes_web_free(void);
/* GET /: the web client's page (index.html of WEB_DIR). */
void routes_web_index(const struct api_request *req, struct api_response *resp, const char *arg);
/* GET /web/{file}: one file of the web client, by its name in WEB_DIR. */
void routes_web_file(const struct api_request *req, struct api_response *resp, const char *file);
/* GET /web/i18n/{file}: a word table of the web client (WEB_DIR/i18n), as routes_web_file. */
void routes_web_words(const struct api_request *req, struct api_response *resp, const char *file);

/* The lobby's lists (routes_lobby_list.c). GET /v1/lobby/tables?ruleset=&cursor=&limit= */
void routes_lobby_tables(const struct api_request *req, struct api_response *resp, const char *arg);
/* GET /v1/lobby/games?ruleset=&cursor=&limit= */
void routes_lobby_games(const struct api_request *req, struct api_response *resp, const char *arg);

/* Tournaments (routes_tournaments.c). POST /v1/tournaments */
void routes_tournament_create(const struct api_request *req, struct api_response *resp,
                              const char *arg);
/* GET /v1/tournaments?status=&limit= */
void routes_tournaments_list(const struct api_request *req, struct api_response *resp,
                             const char *arg);
/* GET /v1/tournaments/{id} */
void routes_tournament_get(const struct api_request *req, struct api_response *resp,
                           const char *id);
/* POST /v1/tournaments/{id}/join */
void routes_tournament_join(const struct api_request *req, struct api_response *resp,
                            const char *id);
/* POST /v1/tournaments/{id}/leave */
void routes_tournament_leave(const struct api_request *req, struct api_response *resp,
                             const char *id);
/* POST /v1/tournaments/{id}/start */
void routes_tournament_start(const struct api_request *req, struct api_response *resp,
                             const char *id);
/* GET /v1/tournaments/{id}/events?after=&wait=: the events (long poll; SSE with Accept). */
void routes_tournament_events(const struct api_request *req, struct api_response *resp,
                              const char *id);
/* GET /v1/tournaments/{id}/events/stream: the events as server-sent events. */
void routes_tournament_events_stream(const struct api_request *req, struct api_response *resp,
                                     const char *id);

#endif
