/* routes_lobby.c: open seats and the games that wait for them (issue 11): taking a seat
 * by its invite (POST /v1/games/{id}/join), and calling a game off before it has really
 * begun (POST /v1/games/{id}/abort).
 *
 * An open seat's invite is a secret like a token (256 random bits, shown once in the create
 * answer, stored only as its SHA-256). A join is an action of the game: it moves the
 * version on (so the cache and ETags follow it), is written with its events in one
 * transaction guarded by the version read and by the invite still being unused
 * (store_game_join), so of two requests racing for one invite exactly one takes the seat
 * and the other finds it used (404 invite_not_found). The join that takes the last open
 * seat starts the game: status active, event game_started, seat 0 moves.
 *
 * A listed game's open seat (an open table of GET /v1/lobby/tables, 0035) may be taken by
 * its number instead, {"seat": N}: the same join, guarded by that seat's invite as stored,
 * so of two joiners of one seat one takes it and the other finds it taken (409
 * seat_taken). An unlisted game's seats are taken by invite only (403 invite_required). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "clocks.h"
#include "game/service.h"
#include "game_answers.h"
#include "idem.h"
#include "jobs.h"
#include "json_game.h"
#include "json_in.h"
#include "json_out.h"
#include "log.h"
#include "problem.h"
#include "query_args.h"
#include "routes.h"
#include "store.h"
#include "store_games.h"
#include "store_people.h"
#include "store_ratings.h"

#define JOIN_TRIES 8 /* joins decided again after another commit of the game won the race */

/* The invite of a join: the body's "invite" or the query's ?invite= (the invite_url), into
 * `out`. Returns 0, or -1 after answering 400. */
static int join_invite(const struct api_request *req, const struct json_join *in,
                       char out[JSON_INVITE_MAX + 1], struct api_response *resp)
{
    size_t seen = 0;
    for (size_t i = 0; i < req->nquery; i++) seen += strcmp(req->query[i].name, "invite") == 0;
    const char *q = api_query_get(req, "invite");
    if (req->query_overflow || seen > 1 || (q && (q[0] == '\0' || strlen(q) > JSON_INVITE_MAX))) {
        problem_reply(resp, 400, "invalid_parameter",
                      "invite must be given once, 1 to 64 characters (and 16 parameters at most).");
        return -1;
    }
    if (q && in->invite[0] && strcmp(q, in->invite) != 0) {
        problem_reply(resp, 400, "invalid_body",
                      "The body's \"invite\" and the query's invite differ: send one of them.");
        return -1;
    }
    const char *invite = in->invite[0] ? in->invite : q;
    if (!invite) {
        problem_reply(resp, 400, "invalid_body",
                      "The field \"invite\" is required (or ?invite=, as in the invite_url).");
        return -1;
    }
    snprintf(out, JSON_INVITE_MAX + 1, "%s", invite);
    return 0;
}

/* A join by seat number names no invite in the query either. Returns 0, or -1 after
 * answering 400. */
static int join_by_seat_alone(const struct api_request *req, struct api_response *resp)
{
    for (size_t i = 0; i < req->nquery; i++)
        if (strcmp(req->query[i].name, "invite") == 0) {
            problem_reply(resp, 400, "invalid_body",
                          "Send an invite (an invited seat) or \"seat\" (an open table's "
                          "seat), not both.");
            return -1;
        }
    return 0;
}

/* The texts of one join decided on a loaded game. */
struct join_texts {
    char *events; /* JSON array of the new events */
    char *action; /* the join as the action log keeps it */
    char *answer; /* the answer's body (with the token, if any) */
};

static void join_texts_free(struct join_texts *t)
{
    free(t->events);
    free(t->action);
    free(t->answer);
}

/* The join's answer {"seat", "token"?, "status", "version", "seed_chosen", "custom_deck"}
 * of game `ag`: malloc'd, or NULL. The last two say whether its creator fixed the draw
 * order (a seed or a deck of its choosing), so that whoever joins can tell (issue 29). */
static char *join_answer(const struct api_game *ag, int seat, const char *token, int started,
                         int version)
{
    struct json_out w;
    json_out_init(&w);
    json_out_begin_object(&w);
    json_out_kint(&w, "seat", seat);
    if (token) json_out_kstring(&w, "token", token);
    json_out_kstring(&w, "status", started ? "active" : "waiting");
    json_out_kint(&w, "version", version);
    json_out_key(&w, "seed_chosen");
    json_out_bool(&w, ag->row.seed_chosen);
    json_out_key(&w, "custom_deck");
    json_out_bool(&w, ag->g.custom_deck != 0);
    json_out_end_object(&w);
    char *text = json_out_take(&w, NULL);
    json_out_free(&w);
    return text;
}

/* The rating in `pool` of the person who just took seat `p` (its state shows it, as
 * store_game_load() would have read it): from the rows of the person's profile; none (known
 * 0) without a rated game in the pool, for a seat taken by name, or when the read fails
 * (then until the game is read again). */
static void joined_rating(struct store_player *p, const char *pool)
{
    memset(&p->rating, 0, sizeof p->rating);
    if (!p->person_id[0] || !pool) return;
    char name[STORE_NAME_MAX + 1];
    struct store_rating_list l;
    if (store_ratings_of_person(p->person_id, name, &l) != STORE_OK) return;
    for (int i = 0; i < l.n; i++) {
        if (strcmp(l.rows[i].pool, pool) != 0) continue;
        p->rating.known = 1;
        p->rating.read_ms = l.now_ms;
        p->rating.rating = l.rows[i].rating;
        p->rating.games = l.rows[i].games;
        p->rating.last_rated_ms = l.rows[i].last_rated_ms;
    }
    store_ratings_free(&l);
}

/*
 * Writes the texts of seat `seat` of `ag` (its name already set in ag->row) taken, the
 * game then `started` or not: the events seat_joined and, when started, game_started (with
 * every seat's name). Returns 0 or -1 (out of memory).
 */
static int join_encode(const struct api_game *ag, int seat, int started, const char *token,
                       struct join_texts *t)
{
    int seq = ag->row.last_seq + 1;
    struct json_out w;
    json_out_init(&w);
    json_out_begin_array(&w);
    json_out_begin_object(&w);
    json_out_kint(&w, "seq", seq);
    json_out_kstring(&w, "type", "seat_joined");
    json_out_kint(&w, "seat", seat);
    json_out_kstring(&w, "name", ag->names[seat]);
    json_out_end_object(&w);
    if (started) {
        json_out_begin_object(&w);
        json_out_kint(&w, "seq", seq + 1);
        json_out_kstring(&w, "type", "game_started");
        json_seats(&w, "players", &ag->g, ag->names, NULL, NULL);
        json_out_end_object(&w);
    }
    json_out_end_array(&w);
    t->events = json_out_take(&w, NULL);
    json_out_begin_object(&w);
    json_out_kstring(&w, "kind", "join");
    json_out_kint(&w, "seat", seat);
    json_out_end_object(&w);
    t->action = json_out_take(&w, NULL);
    json_out_free(&w);
    t->answer = join_answer(ag, seat, token, started, ag->row.version + 1);
    return t->events && t->action && t->answer ? 0 : -1;
}

/* How one attempt at a join ended. */
enum joined {
    JOIN_DONE, /* resp holds the answer (success, refusal or failure) */
    JOIN_AGAIN /* another commit of the game won the race: load it again, decide again */
};

/* The refusal of a join whose seat was taken under it (its invite used meanwhile): by
 * invite as a used invite, by seat number as a taken seat. */
static void join_lost(struct api_response *resp, const uint8_t *invite, int seat)
{
    char detail[64];
    snprintf(detail, sizeof detail, "Seat %d of this game is not open: someone took it.", seat);
    if (invite)
        problem_reply(resp, 404, "invite_not_found",
                      "No open seat of this game has this invite (it was used, or never was).");
    else
        problem_reply(resp, 409, "seat_taken", detail);
}

/* The open seat of game `ag` that the join asks for, its invite's hash into `ih`: the seat
 * whose invite hashes to `invite` (not NULL), else open seat `wanted` of a listed game.
 * Returns the seat, or -1 after answering the refusal. */
static int join_seat(const struct api_game *ag, const uint8_t *invite, int wanted,
                     uint8_t ih[AUTH_HASH_LEN], struct api_response *resp)
{
    if (!invite && !ag->row.listed) {
        problem_reply(resp, 403, "invite_required",
                      "This game is not listed in the lobby: its seats are taken by invite "
                      "only ({\"invite\": \"...\"}).");
        return -1;
    }
    if (!invite) {
        if (wanted >= ag->row.nplayers) {
            char detail[64];
            snprintf(detail, sizeof detail, "\"seat\": this game has %d seats (0 to %d).",
                     ag->row.nplayers, ag->row.nplayers - 1);
            problem_reply(resp, 400, "invalid_body", detail);
            return -1;
        }
        if (!ag->row.players[wanted].open) {
            join_lost(resp, NULL, wanted);
            return -1;
        }
        memcpy(ih, ag->row.players[wanted].invite_sha, AUTH_HASH_LEN);
        return wanted;
    }
    /* Every open seat's invite compared in constant time, without stopping early. */
    int seat = -1;
    for (int s = 0; s < ag->row.nplayers; s++)
        if (ag->row.players[s].open && auth_hash_equal(invite, ag->row.players[s].invite_sha))
            seat = s;
    if (seat < 0) {
        join_lost(resp, invite, seat);
        return -1;
    }
    memcpy(ih, invite, AUTH_HASH_LEN);
    return seat;
}

/*
 * Tries the join of the invite hashing to `invite` (NULL: of open seat `wanted` of a listed
 * game) on game `ag` (as stored), for person `me` (NULL: a named seat `name`): finds the
 * open seat, draws its token, writes the join.
 */
static enum joined join_try(const struct api_request *req, struct api_response *resp,
                            struct api_game *ag, const uint8_t *invite, int wanted,
                            const struct store_person *me, const char *name, struct idem *idem)
{
    if (ag->row.state == STORE_ABORTED && games_not_active(ag, resp)) return JOIN_DONE;
    if (ag->row.rated && !me) {
        /* Every seat of a rated game is a player's or a computer player's (0025). */
        problem_reply(resp, 400, "unrated_setup",
                      "This game is rated: take the seat with a player token (Authorization: "
                      "Bearer <player token>) instead of a name.");
        return JOIN_DONE;
    }
    uint8_t ih[AUTH_HASH_LEN];
    int seat = join_seat(ag, invite, wanted, ih, resp);
    if (seat < 0) return JOIN_DONE;
    int open = 0;
    for (int s = 0; s < ag->row.nplayers; s++) open += ag->row.players[s].open;
    for (int s = 0; me && s < ag->row.nplayers; s++)
        if (strcmp(ag->row.players[s].person_id, me->id) == 0) {
            problem_reply(resp, 409, "already_seated",
                          "This player holds a seat of this game already (one seat per player).");
            return JOIN_DONE;
        }
    char token[AUTH_TOKEN_LEN + 1];
    uint8_t th[AUTH_HASH_LEN];
    if (auth_token_new(token) || auth_sha256(token, AUTH_TOKEN_LEN, th)) {
        problem_reply(resp, 500, "internal_error", "No token could be drawn.");
        return JOIN_DONE;
    }
    /* A bound seat's token is thrown away unseen (0008): the player token acts for it. */
    if (me) memset(token, 0, sizeof token);
    struct store_player *p = &ag->row.players[seat];
    snprintf(p->name, sizeof p->name, "%s", me ? me->name : name);
    int started = open == 1;
    struct join_texts t = {0};
    if (join_encode(ag, seat, started, me ? NULL : token, &t)) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        goto out;
    }
    api_reply_take(resp, 200, "application/json", t.answer);
    t.answer = NULL;
    games_etag(resp, ag->row.version + 1);
    /* A repeat gets this answer again, the seat token included (sealed under the key). */
    if (idem->active) idem_remember(idem, req, resp, resp->body);
    /* The last join starts the game: a computer player at seat 0 moves then (jobs.h), and
     * a clock's first turn begins (clocks.h). */
    char clock_txt[STORE_CLOCK_JSON_MAX], deadline[32] = "";
    struct store_clock clock = ag->row.clock;
    struct game_start st = {.clock_json = clock_txt, .deadline = deadline};
    long long now_ms = clocks_now_ms();
    if (!started) clock.kind = 0; /* nothing of the clock written before the start */
    if (clock.kind) clocks_begin(&clock, &ag->g, now_ms);
    const struct store_jobs *plan =
        game_start(&ag->g, ag->row.players, &clock, now_ms, started, &st);
    struct store_join j = {
        .id = ag->id,
        .version = ag->row.version,
        .seat = seat,
        .invite_hash = ih,
        .name = p->name,
        .token_hash = th,
        .person_id = me ? me->id : NULL,
        .started = started,
        .last_seq = ag->row.last_seq + 1 + started,
        .action_json = t.action,
        .events_json = t.events,
        .idem = idem->active ? &idem->rec : NULL,
        .jobs = plan,
        .clock_json = st.clock_json,
        .deadline = st.deadline,
    };
    enum store_status ss = store_game_join(&j);
    if (ss == STORE_OK) {
        ag->row.version++;
        ag->row.last_seq = j.last_seq;
        p->open = 0;
        memset(p->invite_sha, 0, sizeof p->invite_sha);
        memcpy(p->token_hash, th, sizeof th);
        snprintf(p->person_id, sizeof p->person_id, "%s", me ? me->id : "");
        joined_rating(p, cc_ruleset_name((enum cc_ruleset)ag->g.ruleset));
        if (started) ag->row.state = STORE_PLAYING;
        if (clock.kind) ag->row.clock = clock;
        games_remember(ag, NULL, 0);
        log_kv(LOG_INFO, started ? "seat joined, game started" : "seat joined", "game", ag->id,
               NULL);
        goto out;
    }
    free(resp->body);
    memset(resp, 0, sizeof *resp);
    if (ss == STORE_CONFLICT) {
        join_texts_free(&t);
        return JOIN_AGAIN;
    }
    if (ss == STORE_NOT_FOUND)
        join_lost(resp, invite, seat);
    else if (ss == STORE_DUPLICATE && j.already_seated)
        problem_reply(resp, 409, "already_seated",
                      "This player holds a seat of this game already (one seat per player).");
    else if (ss == STORE_DUPLICATE && idem->active) {
        /* The same key raced us and won: answer as a repeat would. */
        if (!(me ? idem_begin(req, idem->scope, idem, resp)
                 : idem_begin_anonymous(req, idem->scope, idem, resp)))
            problem_store(resp, STORE_CONFLICT);
    } else
        problem_store(resp, ss);
out:
    memset(token, 0, sizeof token);
    join_texts_free(&t);
    return JOIN_DONE;
}

void routes_game_join(const struct api_request *req, struct api_response *resp, const char *id)
{
    struct json_join in;
    struct json_err err;
    if (json_in_join(req->body, req->body_len, &in, &err)) {
        problem_reply(resp, 400, err.code, err.detail);
        return;
    }
    char invite[JSON_INVITE_MAX + 1] = "";
    if (in.seat >= 0 ? join_by_seat_alone(req, resp) : join_invite(req, &in, invite, resp)) return;
    if (query_game_id(resp, id)) return;
    /* With a name the seat is a named one with a token of its own; without, it is bound to
     * the player whose token the request carries. Both at once is a mistake to point out,
     * not a guess to make. */
    struct store_person me;
    memset(&me, 0, sizeof me);
    int bound = in.name[0] == '\0';
    if (!bound && auth_bearer(req->authorization)) {
        problem_reply(resp, 400, "invalid_body",
                      "Send a name (a named seat, with a token of its own) or a player token (a "
                      "seat bound to that player), not both.");
        return;
    }
    if (routes_creation_limited_unkeyed(req, resp)) return;
    if (bound && routes_player_auth(req, resp, &me)) return;
    uint8_t ih[AUTH_HASH_LEN];
    if (invite[0] && auth_sha256(invite, strlen(invite), ih)) {
        problem_reply(resp, 500, "internal_error", "The invite could not be hashed.");
        return;
    }
    /* A player's keys are its own; an anonymous join's key is shared by the game's
     * joiners and unlocks the seat token of its answer: it must be unguessable
     * (idem_begin_anonymous: IDEM_ANON_MIN characters at least). */
    char scope[IDEM_SCOPE_MAX];
    if (bound)
        snprintf(scope, sizeof scope, "join/%s", me.id);
    else
        snprintf(scope, sizeof scope, "join/%s", id);
    struct idem idem;
    if (bound ? idem_begin(req, scope, &idem, resp) : idem_begin_anonymous(req, scope, &idem, resp))
        return;
    if (routes_creation_limited_keyed(req, resp)) return;
    for (int tries = 0; tries < JOIN_TRIES; tries++) {
        struct api_game *ag = games_load(id, GAMES_DB, resp);
        if (!ag) return;
        enum joined rc = join_try(req, resp, ag, invite[0] ? ih : NULL, in.seat, bound ? &me : NULL,
                                  in.name, &idem);
        games_free(ag);
        if (rc == JOIN_DONE) goto done;
    }
    problem_store(resp, STORE_CONFLICT);
done:
    if (idem.active && resp->status >= 400 && resp->status < 500)
        (void)idem_replay_if_done(req, scope, resp);
}

/* "Before every seat has placed a tile": fewer tiles placed than there are seats. */
static int abort_too_late(const struct api_game *ag)
{
    return ag->g.phase == CC_PHASE_FINISHED || ag->g.turn > ag->g.nplayers;
}

/*
 * Tries the abort of `seat` on game `ag` (as stored). Returns 1 when another commit won
 * the race (load again, decide again), else 0 with the answer in `resp`.
 */
static int abort_try(const struct api_request *req, struct api_response *resp, struct api_game *ag,
                     int seat, struct idem *idem, const char *scope)
{
    if (ag->row.state == STORE_ABORTED && games_not_active(ag, resp)) return 0;
    if (ag->row.state == STORE_PLAYING && abort_too_late(ag)) {
        problem_reply(resp, 409, "too_late_to_abort",
                      "Every seat has placed a tile (or the game is over): it can no longer be "
                      "aborted.");
        return 0;
    }
    if (idem_if_match(req, ag->row.version, resp)) return 0;
    int again = 0;
    char *events = NULL, *action = NULL, *answer = NULL;
    struct json_out w;
    json_out_init(&w);
    json_out_begin_array(&w);
    json_out_begin_object(&w);
    json_out_kint(&w, "seq", ag->row.last_seq + 1);
    json_out_kstring(&w, "type", "game_aborted");
    json_out_kint(&w, "seat", seat);
    json_out_end_object(&w);
    json_out_end_array(&w);
    size_t events_len = 0;
    events = json_out_take(&w, &events_len);
    json_out_begin_object(&w);
    json_out_kstring(&w, "kind", "abort");
    json_out_kint(&w, "seat", seat);
    json_out_end_object(&w);
    action = json_out_take(&w, NULL);
    json_out_begin_object(&w);
    json_out_kint(&w, "version", ag->row.version + 1);
    json_out_kstring(&w, "status", "aborted");
    json_out_key(&w, "events");
    json_out_raw(&w, events ? events : "[]", events ? events_len : 2);
    json_out_end_object(&w);
    answer = json_out_take(&w, NULL);
    json_out_free(&w);
    if (!events || !action || !answer) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        goto out;
    }
    api_reply_take(resp, 200, "application/json", answer);
    answer = NULL;
    games_etag(resp, ag->row.version + 1);
    if (idem->active) idem_remember(idem, req, resp, resp->body);
    enum game_ending ends = GAME_ENDS_ABORTED;
    struct game_change ch = {.events_json = events,
                             .nev = 1,
                             .seat = seat,
                             .kind = "abort",
                             .action_json = action,
                             .idem = idem->active ? &idem->rec : NULL,
                             .ends = &ends};
    enum store_status ss;
    enum game_outcome rc = game_commit_change(ag, &ch, GAME_BY_SEAT, &ss);
    if (rc == GAME_COMMITTED) {
        log_kv(LOG_INFO, "game aborted", "game", ag->id, NULL);
        goto out;
    }
    free(resp->body);
    memset(resp, 0, sizeof *resp);
    if (rc == GAME_CONFLICT && !req->if_match) {
        again = 1;
    } else if (rc == GAME_DUPLICATE && idem->active) {
        if (!idem_begin(req, scope, idem, resp)) problem_store(resp, STORE_CONFLICT);
    } else {
        routes_game_outcome(resp, rc, &(struct game_result){.store = ss});
    }
out:
    free(events);
    free(action);
    free(answer);
    return again;
}

void routes_game_abort(const struct api_request *req, struct api_response *resp, const char *id)
{
    struct api_game *ag = games_load(id, GAMES_DB, resp);
    if (!ag) return;
    int seat = games_seat(req, ag, resp);
    if (seat < 0) goto out;
    if (routes_body_not_empty(req, resp)) goto out;
    char scope[IDEM_SCOPE_MAX];
    struct idem idem;
    if (idem_begin_seat(req, ag->id, seat, scope, &idem, resp)) goto out;
    for (int tries = 0; abort_try(req, resp, ag, seat, &idem, scope); tries++) {
        games_free(ag);
        ag = NULL;
        if (tries + 1 == JOIN_TRIES) {
            problem_store(resp, STORE_CONFLICT);
            break;
        }
        if (!(ag = games_load(id, GAMES_DB, resp))) break;
    }
    if (idem.active && resp->status >= 400 && resp->status < 500)
        (void)idem_replay_if_done(req, scope, resp);
out:
    games_free(ag);
}
