/* routes_chat.c: a game's chat (issue 28): a seat's message (POST), the messages (GET, a
 * long poll woken across servers; SSE at /chat/stream), a seat's report of a message.
 *
 * Messages are no action of the game: they have their own numbers (seq from 1), never move
 * the game's version or ETag, and are kept with the game (store_chat.h, migrations/0026).
 * The seats read the chat, and anyone when the game was created with "chat": "public". A
 * reader who is a player (a seat bound to one, or a player token of a public chat) never
 * sees the messages of a player it blocked; the others still do. A message is at most 500
 * characters (json_in_chat) and a seat sends at most CHAT_RATE_MAX of them within
 * CHAT_RATE_WINDOW_MS (429 with Retry-After), on any number of servers (the limit is kept
 * in the database). */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "game_answers.h"
#include "idem.h"
#include "json_in.h"
#include "json_out.h"
#include "live.h"
#include "log.h"
#include "params.h"
#include "problem.h"
#include "query_args.h"
#include "routes.h"
#include "store.h"
#include "store_chat.h"
#include "store_games.h"
#include "store_people.h"
#include "webhook.h"

#define CHAT_RATE_MAX       5     /* messages of one seat ... */
#define CHAT_RATE_WINDOW_MS 10000 /* ... within this window at most */
#define CHAT_PAGE           100   /* messages per answer at most */
#define CHAT_MAX_WAIT       60    /* seconds a long poll may wait */

void routes_chat_message_json(struct json_out *w, const struct store_chat_message *m)
{
    json_out_begin_object(w);
    json_out_kint(w, "seq", m->seq);
    json_out_kint(w, "seat", m->seat);
    json_out_kstring(w, "player", m->person[0] ? m->person : NULL);
    json_out_kstring(w, "name", m->name);
    /* Hidden by the operator: kept for the record, shown to nobody. */
    json_out_kstring(w, "text", m->hidden ? NULL : m->text);
    json_out_key(w, "hidden");
    json_out_bool(w, m->hidden);
    json_out_kstring(w, "at", m->at);
    json_out_end_object(w);
}

/* A message being posted: what its answer is made of (post_answer()). */
struct post_ctx {
    const struct api_request *req;
    struct api_response *resp;
    struct idem *idem;
    int seat;
    const struct store_player *p;
    const char *text;
};

/* Answers 201 with the message just numbered `seq` into x->resp; 0, or -1 without memory. */
static int post_reply(struct post_ctx *x, int seq, const char *at)
{
    struct store_chat_message *m = calloc(1, sizeof *m);
    if (!m) return -1;
    m->seq = seq;
    m->seat = x->seat;
    snprintf(m->person, sizeof m->person, "%s", x->p->person_id);
    snprintf(m->name, sizeof m->name, "%s", x->p->name);
    snprintf(m->text, sizeof m->text, "%s", x->text);
    snprintf(m->at, sizeof m->at, "%s", at);
    struct json_out w;
    json_out_init(&w);
    routes_chat_message_json(&w, m);
    free(m);
    free(x->resp->body);
    memset(x->resp, 0, sizeof *x->resp);
    api_reply_out(x->resp, 201, &w);
    return x->resp->status == 201 ? 0 : -1;
}

/* store_chat_answer: the answer of a keyed post, kept with the message. */
static const struct store_idem *post_answer(void *arg, int seq, const char *at)
{
    struct post_ctx *x = arg;
    if (post_reply(x, seq, at)) return NULL;
    idem_remember(x->idem, x->req, x->resp, x->resp->body);
    return &x->idem->rec;
}

void routes_chat_post(const struct api_request *req, struct api_response *resp, const char *id)
{
    int seat;
    struct api_game *ag = games_load_seat(req, resp, id, &seat);
    if (!ag) return;
    char *text = malloc(JSON_CHAT_TEXT_BYTES + 1);
    struct json_err err;
    if (!text) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        goto out;
    }
    if (json_in_chat(req->body, req->body_len, text, &err)) {
        problem_reply(resp, 400, err.code, err.detail);
        goto out;
    }
    /* An Idempotency-Key (the seat's own, as for its actions): a repeat gets the first
     * answer and posts nothing; the answer is kept in the post's transaction. */
    char scope[IDEM_SCOPE_MAX];
    struct idem idem;
    if (idem_begin_seat(req, ag->id, seat, scope, &idem, resp)) goto out;
    const struct store_player *p = &ag->row.players[seat];
    struct post_ctx x = {req, resp, &idem, seat, p, text};
    struct store_chat_post post = {.game = ag->id,
                                   .seat = seat,
                                   .person = p->person_id[0] ? p->person_id : NULL,
                                   .name = p->name,
                                   .text = text,
                                   .max = CHAT_RATE_MAX,
                                   .window_ms = CHAT_RATE_WINDOW_MS};
    int seq = 0, retry_ms = 0;
    char at[32];
    enum store_status s =
        store_chat_post(&post, idem.active ? post_answer : NULL, &x, &seq, &retry_ms, at);
    /* The same key may have raced this request and won: answered as a repeat would be. */
    if (idem_finish(req, scope, &idem, resp, s)) goto out;
    if (seq == 0) {
        problem_reply(resp, 429, "chat_rate_limited",
                      "A seat sends at most 5 messages within 10 seconds: wait for Retry-After.");
        resp->retry_after = (retry_ms + 999) / 1000;
        goto out;
    }
    if (!idem.active && post_reply(&x, seq, at)) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        goto out;
    }
    /* Its deliveries (0028) were written with it: this server's workers look at once (other
     * servers' are woken by its notification). */
    webhook_kick();
    char seq_s[12], seat_s[12];
    snprintf(seq_s, sizeof seq_s, "%d", seq);
    snprintf(seat_s, sizeof seat_s, "%d", seat);
    log_kv(LOG_DEBUG, "chat message", "game", ag->id, "seq", seq_s, "seat", seat_s, NULL);
out:
    free(text);
    games_free(ag);
}

/*
 * Who reads the chat of `ag`: the seat the token speaks for, or with a public chat anyone
 * (no token), and a player token of somebody without a seat. *viewer gets the reader's
 * person ("" for none: a named seat, a spectator). Returns 0, or 1 after answering 401
 * (missing or unknown token: a private chat is its seats'), 403 player_suspended, 503.
 */
static int chat_reader(const struct api_request *req, struct api_response *resp,
                       struct api_game *ag, char viewer[AUTH_UUID_LEN + 1])
{
    viewer[0] = '\0';
    if (!req->authorization && ag->row.chat_public) return 0;
    if (!req->authorization) {
        problem_reply(resp, 401, "missing_token",
                      "This game's chat is private: its seats read it, with their token "
                      "(Authorization: Bearer <token>).");
        return 1;
    }
    int seat = games_seat(req, ag, resp);
    if (seat >= 0) {
        snprintf(viewer, AUTH_UUID_LEN + 1, "%s", ag->row.players[seat].person_id);
        return 0;
    }
    if (!ag->row.chat_public || resp->status != 401) return 1;
    /* A public chat read with a player token of somebody without a seat: its blocks apply. */
    free(resp->body);
    memset(resp, 0, sizeof *resp);
    struct store_person p;
    if (routes_player_auth(req, resp, &p)) return 1;
    snprintf(viewer, AUTH_UUID_LEN + 1, "%s", p.id);
    return 0;
}

/* store_chat_each() callback of a GET: one message into the answer's array, unless its
 * sender is blocked by the reader. */
static int chat_page_put(void *arg, const struct store_chat_message *m)
{
    if (!m->blocked) routes_chat_message_json(arg, m);
    return 0;
}

void routes_chat_get(const struct api_request *req, struct api_response *resp, const char *id)
{
    long after, wait;
    if (query_after_wait(req, resp, &after, &wait, CHAT_MAX_WAIT)) return;
    if (query_game_id(resp, id)) return;
    struct api_game *ag = games_load(id, GAMES_CURRENT, resp);
    if (!ag) {
        live_wait_end(req->async);
        return;
    }
    char viewer[AUTH_UUID_LEN + 1];
    if (chat_reader(req, resp, ag, viewer)) {
        live_wait_end(req->async);
        games_free(ag);
        return;
    }
    const char *chat = ag->row.chat_public ? "public" : "private";
    games_free(ag);
    if (routes_wants_event_stream(req)) {
        routes_chat_stream_open(req, resp, id, (int)after, viewer[0] ? viewer : NULL);
        return;
    }
    /* As the events' long poll (a message always notifies). */
    int suspend = routes_long_poll_arm(req, id, (int)after, wait, live_wait_arm_chat);
    struct json_out w;
    routes_long_poll_page_begin(&w, "messages");
    int count = 0, last = (int)after;
    enum store_status s = store_chat_each(id, (int)after, CHAT_PAGE, viewer[0] ? viewer : NULL,
                                          chat_page_put, &w, &count, &last);
    if (routes_long_poll_page_end(req, resp, &w, s, "There is no game with this id.", count == 0,
                                  suspend))
        return;
    /* The seq to ask after next: past the messages of blocked senders too. */
    json_out_kint(&w, "last_seq", last);
    json_out_key(&w, "has_more");
    json_out_bool(&w, count == CHAT_PAGE);
    json_out_kstring(&w, "chat", chat);
    json_out_end_object(&w);
    api_reply_out(resp, 200, &w);
}

void routes_chat_stream(const struct api_request *req, struct api_response *resp, const char *id)
{
    long after;
    if (query_after_wait(req, resp, &after, NULL, 0)) return;
    if (query_game_id(resp, id)) return;
    struct api_game *ag = games_load(id, GAMES_CURRENT, resp);
    if (!ag) return;
    char viewer[AUTH_UUID_LEN + 1];
    int refused = chat_reader(req, resp, ag, viewer);
    games_free(ag);
    if (!refused) routes_chat_stream_open(req, resp, id, (int)after, viewer[0] ? viewer : NULL);
}

int routes_path_segment(const char *path, int index, char *out, size_t cap)
{
    const char *p = path;
    for (int i = 0; i <= index; i++) {
        if (*p != '/') return -1;
        p++;
        size_t len = strcspn(p, "/");
        if (i == index) {
            if (len == 0 || len >= cap) return -1;
            for (size_t k = 0; k < len; k++) out[k] = (char)tolower((unsigned char)p[k]);
            out[len] = '\0';
            return 0;
        }
        p += len;
    }
    return -1;
}

int routes_chat_message(const struct api_request *req, struct api_response *resp, int id_index,
                        const char *seq_arg, char id[AUTH_UUID_LEN + 1], int *seq)
{
    long v;
    if (routes_path_segment(req->path, id_index, id, AUTH_UUID_LEN + 1) || !auth_uuid_valid(id) ||
        !seq_arg || params_uint(seq_arg, INT_MAX, &v) || v < 1) {
        problem_reply(resp, 404, "not_found", "There is no such game or message.");
        return 1;
    }
    *seq = (int)v;
    return 0;
}

/* A report's answer: 201 for a new report; a repeat of the seat's report changes nothing
 * and says so with 200. */
static void report_answer(struct api_response *resp, const char *game, int seq, int seat,
                          int created)
{
    struct json_out w;
    json_out_init(&w);
    json_out_begin_object(&w);
    json_out_kstring(&w, "game", game);
    json_out_kint(&w, "seq", seq);
    json_out_kint(&w, "seat", seat);
    json_out_kstring(&w, "status", "reported");
    json_out_end_object(&w);
    api_reply_out(resp, created ? 201 : 200, &w);
}

/* A keyed report: its answer, made in the report's transaction and kept there for the
 * key's repeats (store_keyed). */
struct report_ctx {
    const struct api_request *req;
    struct api_response *resp;
    struct idem *idem;
    const char *game;
    int seq, seat;
};

static int report_keyed(void *arg, int created, const struct store_idem **keep)
{
    struct report_ctx *x = arg;
    free(x->resp->body);
    memset(x->resp, 0, sizeof *x->resp);
    report_answer(x->resp, x->game, x->seq, x->seat, created);
    return idem_keep(x->idem, x->req, x->resp, created ? 201 : 200, keep);
}

void routes_chat_report(const struct api_request *req, struct api_response *resp,
                        const char *seq_arg)
{
    /* The path is /v1/games/{id}/chat/{seq}/report: the router hands over the seq. */
    char id[AUTH_UUID_LEN + 1];
    int seq;
    if (routes_chat_message(req, resp, 2, seq_arg, id, &seq)) return;
    int seat;
    struct api_game *ag = games_load_seat(req, resp, id, &seat);
    if (!ag) return;
    if (routes_body_not_empty(req, resp)) goto out;
    const char *person = ag->row.players[seat].person_id;
    /* An Idempotency-Key (the seat's own, as for its posts): a repeat gets the first answer
     * (201 when that one reported), kept in the report's transaction. */
    char scope[IDEM_SCOPE_MAX];
    struct idem idem;
    if (idem_begin_seat(req, ag->id, seat, scope, &idem, resp)) goto out;
    struct report_ctx x = {req, resp, &idem, ag->id, seq, seat};
    int created = 0;
    enum store_status s = store_chat_report(ag->id, seq, seat, person[0] ? person : NULL, &created,
                                            idem.active ? report_keyed : NULL, &x);
    if (s == STORE_NOT_FOUND) { /* refused before any answer was made: the key stays free */
        problem_reply(resp, 404, "not_found", "The game's chat has no message with this seq.");
        goto out;
    }
    if (idem_finish(req, scope, &idem, resp, s)) goto out;
    if (!idem.active) report_answer(resp, ag->id, seq, seat, created);
    char seq_s[12];
    snprintf(seq_s, sizeof seq_s, "%d", seq);
    log_kv(LOG_INFO, "chat message reported", "game", ag->id, "seq", seq_s, NULL);
out:
    games_free(ag);
}
