/* t_chatapps.c: chat messages delivered to webhooks (a seat's, not the sender's own, not
 * the creator's of a private chat; their own numbering, signed, retried), webhooks in
 * Discord's and Slack's formats (each payload's documented shape: Discord's multipart
 * "payload_json" and "files[0]" with the board PNG, Slack's blocks with the picture's URL
 * under PUBLIC_URL; only the events a person reads: the start, a turn, chat, a deadline near
 * and the game over; markup and mentions made harmless; Discord's picture drawn in
 * board.png's render slots and kept in its cache), and the Idempotency-Key of a chat post
 * (issue 28, items 1 and 5). */
#define _GNU_SOURCE /* memmem */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "db.h"
#include "hook.h"
#include "tests.h"

/* Records the first failed expectation of a test (as CHECK does) and goes on, so that the
 * test frees what it holds. */
#define EXPECT(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond) && !itest_failure[0]) {                                                        \
            int n_ = snprintf(itest_failure, sizeof itest_failure, "%s:%d: ", __FILE__, __LINE__); \
            _Pragma("GCC diagnostic push")                                                         \
                _Pragma("GCC diagnostic ignored \"-Wformat-truncation\"") /* cut is fine */        \
                snprintf(itest_failure + n_, sizeof itest_failure - (size_t)n_, __VA_ARGS__);      \
            _Pragma("GCC diagnostic pop")                                                          \
        }                                                                                          \
    } while (0)

/* The public URL the test servers run with (PUBLIC_URL in mk/api.mk's ITEST_ENV). */
#define PUBLIC_URL "http://tiles.test"

/* A game of Ann and Bob on a fixed deck, with `extra` members (",..." or ""). */
#define APP_GAME                                                                                   \
    "{\"ruleset\":\"classic\",\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"start\":"      \
    "\"D\",\"deck\":[\"K\",\"D\",\"E\",\"U\",\"V\",\"B\",\"A\",\"L\",\"K\",\"D\",\"E\",\"U\"]%s}"

/* A copy of request `i` of `l` (body malloc'd: free it), or an empty one. */
static struct hook_req request(struct listener *l, int i)
{
    struct hook_req r = {0};
    pthread_mutex_lock(&l->lock);
    if (i < l->n) {
        r = l->req[i];
        r.body = malloc((size_t)l->req[i].body_len + 1);
        if (r.body) memcpy(r.body, l->req[i].body, (size_t)l->req[i].body_len + 1);
    }
    pthread_mutex_unlock(&l->lock);
    return r;
}

/* POST `path` with `body` and the header lines `h` (NULL-terminated) into `r`; its status. */
static long post(const struct server *srv, const char *path, const char *body, const char **h,
                 struct resp *r)
{
    http(srv, "POST", path, body, h, r);
    return r->status;
}

/* The URL of `path` on listener `l` into `url`. */
static void listener_url(const struct listener *l, const char *path, char url[128])
{
    snprintf(url, 128, "http://127.0.0.1:%d%s", l->port, path);
}

/* Sets seat `seat`'s webhook of `g` to `url` in `format`; its secret into `secret`. */
static int seat_hook(const struct server *srv, const struct game *g, int seat, const char *url,
                     const char *format, char secret[64])
{
    char path[160], body[300];
    snprintf(path, sizeof path, "/v1/games/%s/webhook", g->id);
    snprintf(body, sizeof body, "{\"url\":\"%s\",\"format\":\"%s\"}", url, format);
    const char *h[] = {g->auth[seat], NULL};
    struct resp r;
    long st = post(srv, path, body, h, &r);
    snprintf(secret, 64, "%s", st == 200 ? jstr(r.json, "secret") : "");
    resp_free(&r);
    return st == 200 ? 0 : -1;
}

/* Seat `seat` of `g` says `text` (a JSON string's inside); the status. */
static long say(const struct server *srv, const struct game *g, int seat, const char *text)
{
    char path[160], body[700];
    snprintf(path, sizeof path, "/v1/games/%s/chat", g->id);
    snprintf(body, sizeof body, "{\"text\":\"%s\"}", text);
    const char *h[] = {g->auth[seat], NULL};
    struct resp r;
    long st = post(srv, path, body, h, &r);
    resp_free(&r);
    return st;
}

/* 1 when `sig` is "sha256=" + the hex HMAC-SHA256 of `body` (`len` bytes) under `secret`. */
static int signed_by(const char *secret, const char *body, size_t len, const char *sig)
{
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!HMAC(EVP_sha256(), secret, (int)strlen(secret), (const unsigned char *)body, len, mac, &n))
        return 0;
    char hex[2 * EVP_MAX_MD_SIZE + 8] = "sha256=";
    for (unsigned i = 0; i < n; i++) snprintf(hex + 7 + 2 * i, 3, "%02x", mac[i]);
    return strcmp(hex, sig) == 0;
}

/* Requests of `l` whose X-Tilehall-Event is `event`. */
static int count_event(struct listener *l, const char *event)
{
    pthread_mutex_lock(&l->lock);
    int n = 0;
    for (int i = 0; i < l->n; i++) n += strcmp(l->req[i].event, event) == 0;
    pthread_mutex_unlock(&l->lock);
    return n;
}

ITEST(test_chat_webhooks, "chat: delivered to the other seats' webhooks, each once, signed and "
                          "retried, numbered apart from events; not to a private chat's creator")
{
    struct listener *lc = listener_start(), *l0 = listener_start(), *l1 = listener_start();
    CHECK(lc && l0 && l1, "no listeners");
    char body[1024], url[128], url0[128], url1[128], s0[64], s1[64], why[300] = "";
    snprintf(url, sizeof url, "http://127.0.0.1:%d/creator", lc->port);
    snprintf(url0, sizeof url0, "http://127.0.0.1:%d/ann", l0->port);
    snprintf(url1, sizeof url1, "http://127.0.0.1:%d/bob", l1->port);
    char extra[200];
    snprintf(extra, sizeof extra, ",\"webhook\":{\"url\":\"%s\"}", url);
    snprintf(body, sizeof body, APP_GAME, extra);
    struct game g;
    int ok = game_new(srv, body, &g, why, sizeof why) == 0;
    ok = ok && seat_hook(srv, &g, 0, url0, "tilehall", s0) == 0 &&
         seat_hook(srv, &g, 1, url1, "tilehall", s1) == 0;
    l1->fail_first = 1; /* the first attempt fails: the message comes again */
    long st = ok ? say(srv, &g, 0, "hello\\nBob") : 0;
    int got = ok && listener_wait_ok(l1, 1, 5000);
    usleep(400000); /* a duplicate, or a delivery to the sender or the creator, would come now */
    struct hook_req r1 = request(l1, 0), r2 = request(l1, 1);
    int n1 = listener_count(l1), n0 = listener_count(l0), chats_c = count_event(lc, "chat");
    cJSON *b = r2.body ? cJSON_Parse(r2.body) : NULL;
    char want_delivery[96];
    snprintf(want_delivery, sizeof want_delivery, "%s:chat:1", g.id);
    size_t wl = strlen(r2.wid);
    /* How the seat's webhook stands: the message delivered, the failed attempt kept with no
     * event's seq (a chat message's numbers are its own). */
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/webhook", g.id);
    const char *h1[] = {ok ? g.auth[1] : NULL, NULL};
    long hst = 0;
    cJSON *state = ok ? get_json_as(srv, path, h1, &hst) : NULL;
    listener_stop(lc);
    listener_stop(l0);
    listener_stop(l1);
    CHECK(ok, "set-up: %s", why);
    CHECK(st == 201, "the message was answered %ld", st);
    EXPECT(got && n1 == 2, "Bob's webhook got %d requests (one failed, then one delivery)", n1);
    EXPECT(r1.answered == 500 && r2.answered == 200 && r2.attempt == 2,
           "attempts: %d answered %d, %d answered %d", r1.attempt, r1.answered, r2.attempt,
           r2.answered);
    EXPECT(n0 == 0, "Ann's own webhook got %d requests for her message", n0);
    EXPECT(chats_c == 0, "the creator's webhook got %d chat messages of a private chat", chats_c);
    EXPECT(!strcmp(r2.event, "chat") && !strcmp(r2.delivery, want_delivery) && wl > 7 &&
               !strcmp(r2.wid + wl - 7, ":chat:1") && !strncmp(r2.ctype, "application/json", 16),
           "headers: event %s, delivery %s, webhook-id %s, %s", r2.event, r2.delivery, r2.wid,
           r2.ctype);
    EXPECT(r2.body && signed_by(s1, r2.body, (size_t)r2.body_len, r2.sig), "bad signature %s",
           r2.sig);
    EXPECT(b && !strcmp(jstr(b, "game"), g.id) && jnum(b, "timestamp") > 0 &&
               jnum(b, "chat.seq") == 1 && jnum(b, "chat.seat") == 0 &&
               !strcmp(jstr(b, "chat.name"), "Ann") &&
               !strcmp(jstr(b, "chat.text"), "hello\nBob") &&
               cJSON_IsFalse(jget(b, "chat.hidden")) && strlen(jstr(b, "chat.at")) == 24 &&
               !jget(b, "event"),
           "body %.300s", r2.body ? r2.body : "(none)");
    EXPECT(hst == 200 && jnum(state, "delivered") == 1 && jnum(state, "pending") == 0 &&
               !strcmp(jstr(state, "format"), "tilehall") &&
               cJSON_IsNull(jget(state, "last_error.seq")) &&
               jnum(state, "last_error.status") == 500,
           "Bob's webhook state %ld", hst);
    cJSON_Delete(state);
    cJSON_Delete(b);
    free(r1.body);
    free(r2.body);
}

/* The part of the multipart `body` (`len` bytes, boundary `bd`) whose header block holds
 * `name`: its data into *data (pointing into body) and length; 1 when found. */
static int part_of(const char *body, size_t len, const char *bd, const char *name,
                   const char **data, size_t *dlen, char *head, size_t hcap)
{
    char delim[128];
    int dl = snprintf(delim, sizeof delim, "--%s\r\n", bd);
    char end[128];
    int el = snprintf(end, sizeof end, "\r\n--%s", bd);
    const char *p = body, *stop = body + len;
    while (p && p < stop) {
        const char *s = memmem(p, (size_t)(stop - p), delim, (size_t)dl);
        if (!s) return 0;
        const char *h = s + dl, *hend = memmem(h, (size_t)(stop - h), "\r\n\r\n", 4);
        if (!hend) return 0;
        const char *d = hend + 4, *e = memmem(d, (size_t)(stop - d), end, (size_t)el);
        if (!e) return 0;
        snprintf(head, hcap, "%.*s", (int)(hend - h), h);
        if (strstr(head, name)) {
            *data = d;
            *dlen = (size_t)(e - d);
            return 1;
        }
        p = e + 2;
    }
    return 0;
}

/*
 * Checks `r` against Discord's "Execute Webhook": with a picture, multipart/form-data whose
 * part "payload_json" is JSON (content at most 2,000 characters, allowed_mentions, the
 * attachment 0 named board.png) and part "files[0]" the PNG as image/png, the body closed
 * by the boundary's end; without, JSON. The message's content into `content`. 0, or -1 with
 * why.
 */
static int discord_ok(const struct hook_req *r, int picture, char *content, size_t cap, char *why,
                      size_t wcap)
{
    cJSON *j = NULL;
    int rc = -1;
    content[0] = '\0';
    if (!picture) {
        if (strncmp(r->ctype, "application/json", 16) != 0) {
            snprintf(why, wcap, "a message without a picture sent as %s", r->ctype);
            return -1;
        }
        j = cJSON_Parse(r->body);
    } else {
        const char *b = strstr(r->ctype, "boundary=");
        char bd[100], head[300], closing[128];
        const char *data, *png;
        size_t dlen, plen;
        if (strncmp(r->ctype, "multipart/form-data;", 20) != 0 || !b) {
            snprintf(why, wcap, "a picture sent as %s", r->ctype);
            return -1;
        }
        snprintf(bd, sizeof bd, "%s", b + 9);
        int cl = snprintf(closing, sizeof closing, "\r\n--%s--\r\n", bd);
        if (r->body_len < cl || memcmp(r->body + r->body_len - cl, closing, (size_t)cl) != 0) {
            snprintf(why, wcap, "the multipart body does not end with its boundary");
            return -1;
        }
        if (!part_of(r->body, (size_t)r->body_len, bd, "name=\"files[0]\"", &png, &plen, head,
                     sizeof head) ||
            !strstr(head, "filename=\"board.png\"") || !strstr(head, "Content-Type: image/png") ||
            plen < 8 || memcmp(png, "\x89PNG\r\n\x1a\n", 8) != 0) {
            snprintf(why, wcap, "no PNG in part files[0] (%.200s)", head);
            return -1;
        }
        if (!part_of(r->body, (size_t)r->body_len, bd, "name=\"payload_json\"", &data, &dlen, head,
                     sizeof head)) {
            snprintf(why, wcap, "no part payload_json");
            return -1;
        }
        char *txt = strndup(data, dlen);
        j = txt ? cJSON_Parse(txt) : NULL;
        free(txt);
        const cJSON *a = cJSON_GetArrayItem(jget(j, "attachments"), 0);
        if (!a || jnum(a, "id") != 0 || strcmp(jstr(a, "filename"), "board.png") != 0) {
            snprintf(why, wcap, "payload_json names no attachment 0 board.png");
            goto out;
        }
    }
    const cJSON *c = jget(j, "content");
    const cJSON *parse = jget(j, "allowed_mentions.parse");
    if (!cJSON_IsString(c) || strlen(c->valuestring) > 2000 * 4 || !cJSON_IsArray(parse) ||
        cJSON_GetArraySize(parse) != 0) {
        snprintf(why, wcap, "the JSON is no Discord message: %.200s", r->body);
        goto out;
    }
    snprintf(content, cap, "%s", c->valuestring);
    rc = 0;
out:
    cJSON_Delete(j);
    return rc;
}

ITEST(test_webhook_discord, "webhooks: Discord's format: the start, a turn, chat, each as "
                            "Discord reads it (the board PNG attached), nothing else")
{
    struct listener *l = listener_start();
    CHECK(l, "no listener");
    char body[1024], url[128], extra[200], why[300] = "";
    snprintf(url, sizeof url, "http://127.0.0.1:%d/api/webhooks/1/x", l->port);
    snprintf(extra, sizeof extra,
             ",\"chat\":\"public\",\"webhook\":{\"url\":\"%s\",\"format\":\"discord\"}", url);
    snprintf(body, sizeof body, APP_GAME, extra);
    struct game g;
    int ok = game_new(srv, body, &g, why, sizeof why) == 0;
    int started = ok && listener_wait_ok(l, 1, 5000);
    /* Ann's turn (a draw, a placement): one message, "Bob, it is your turn". */
    ok = ok && started && play_turn(srv, &g, 0, why, sizeof why) >= 0;
    int turned = ok && listener_wait_ok(l, 2, 5000);
    long st = ok ? say(srv, &g, 1, "**hi** @everyone <b>") : 0;
    int chatted = ok && listener_wait_ok(l, 3, 5000);
    usleep(400000); /* any other event's message would come now */
    int n = listener_count(l);
    struct hook_req r[3] = {request(l, 0), request(l, 1), request(l, 2)};
    listener_stop(l);
    CHECK(ok, "set-up: %s", why);
    CHECK(started && turned && chatted && st == 201, "%d messages (chat answered %ld)", n, st);
    EXPECT(n == 3, "%d messages for the start, a turn and a chat message", n);
    char c[3][2100], w[300];
    EXPECT(discord_ok(&r[0], 1, c[0], sizeof c[0], w, sizeof w) == 0, "the start: %s", w);
    EXPECT(strstr(c[0], "The game has started\\: Ann, Bob.") &&
               strstr(c[0], "Ann, it is your turn"),
           "the start says %s", c[0]);
    EXPECT(discord_ok(&r[1], 1, c[1], sizeof c[1], w, sizeof w) == 0, "the turn: %s", w);
    EXPECT(strstr(c[1], "Bob, it is your turn") != NULL, "the turn says %s", c[1]);
    EXPECT(discord_ok(&r[2], 0, c[2], sizeof c[2], w, sizeof w) == 0, "the chat: %s", w);
    EXPECT(!strcmp(c[2], "Bob\\: \\*\\*hi\\*\\* \\@everyone \\<b\\>"),
           "the chat message's markup and mention not made harmless: %s", c[2]);
    EXPECT(!strcmp(r[2].event, "chat") && !strcmp(r[0].event, "message"), "events %s %s",
           r[0].event, r[2].event);
    for (int i = 0; i < 3; i++) free(r[i].body);
}

/* Checks `b`, a Slack incoming webhook's JSON: "text" (the fallback), "blocks" whose first is
 * a section with a text object; an image block (when `image`) with image_url and alt_text
 * within Slack's limits. The section's text into `text`, the image's URL into `img`. */
static int slack_ok(const cJSON *b, char *text, size_t cap, char *img, size_t icap)
{
    const cJSON *blocks = jget(b, "blocks");
    const cJSON *sec = cJSON_GetArrayItem(blocks, 0);
    const char *tt = jstr(sec, "text.type");
    if (!cJSON_IsString(jget(b, "text")) || !cJSON_IsArray(blocks) ||
        strcmp(jstr(sec, "type"), "section") != 0 ||
        (strcmp(tt, "plain_text") != 0 && strcmp(tt, "mrkdwn") != 0) ||
        strlen(jstr(sec, "text.text")) > 3000)
        return -1;
    snprintf(text, cap, "%s", jstr(sec, "text.text"));
    img[0] = '\0';
    const cJSON *im = cJSON_GetArrayItem(blocks, 1);
    if (im) {
        if (strcmp(jstr(im, "type"), "image") != 0 || strlen(jstr(im, "image_url")) > 3000 ||
            !jstr(im, "alt_text")[0] || strlen(jstr(im, "alt_text")) > 2000)
            return -1;
        snprintf(img, icap, "%s", jstr(im, "image_url"));
    }
    return 0;
}

ITEST(test_webhook_slack, "webhooks: Slack's format: blocks with the text and the board's URL "
                          "under PUBLIC_URL; a seat's turns and the chat for its seat only")
{
    struct listener *lc = listener_start(), *lb = listener_start();
    CHECK(lc && lb, "no listeners");
    char body[1024], url[128], urlb[128], extra[200], why[300] = "", sb[64];
    listener_url(lc, "/services/T0/B0/x", url);
    listener_url(lb, "/services/T0/B1/y", urlb);
    snprintf(extra, sizeof extra, ",\"webhook\":{\"url\":\"%s\",\"format\":\"slack\"}", url);
    snprintf(body, sizeof body, APP_GAME, extra);
    struct game g;
    int ok = game_new(srv, body, &g, why, sizeof why) == 0;
    int started = ok && listener_wait_ok(lc, 1, 5000);
    ok = ok && started && seat_hook(srv, &g, 1, urlb, "slack", sb) == 0;
    long st = ok ? say(srv, &g, 0, "<b>&amp; hi") : 0; /* private: not to the creator's */
    int chatted = ok && listener_wait_ok(lb, 1, 5000);
    ok = ok && chatted && play_turn(srv, &g, 0, why, sizeof why) >= 0;
    int turned = ok && listener_wait_ok(lc, 2, 5000) && listener_wait_ok(lb, 2, 5000);
    usleep(400000);
    int nc = listener_count(lc), nb = listener_count(lb);
    struct hook_req c0 = request(lc, 0), c1 = request(lc, 1), b0 = request(lb, 0),
                    b1 = request(lb, 1);
    listener_stop(lc);
    listener_stop(lb);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/webhook", g.id);
    const char *h1[] = {ok ? g.auth[1] : NULL, NULL};
    long hst = 0;
    cJSON *state = ok ? get_json_as(srv, path, h1, &hst) : NULL;
    CHECK(ok && st == 201, "set-up: %s (chat %ld)", why, st);
    CHECK(started && turned, "creator's %d, Bob's %d messages", nc, nb);
    EXPECT(nc == 2 && nb == 2, "creator's webhook got %d messages (2), Bob's %d (2)", nc, nb);
    cJSON *j[4] = {cJSON_Parse(c0.body ? c0.body : ""), cJSON_Parse(c1.body ? c1.body : ""),
                   cJSON_Parse(b0.body ? b0.body : ""), cJSON_Parse(b1.body ? b1.body : "")};
    char t[4][2000], img[4][800];
    for (int i = 0; i < 4; i++)
        EXPECT(slack_ok(j[i], t[i], sizeof t[i], img[i], sizeof img[i]) == 0,
               "message %d is no Slack message", i);
    EXPECT(strstr(t[0], "The game has started: Ann, Bob.") != NULL, "the start says %s", t[0]);
    EXPECT(strstr(t[1], "Bob, it is your turn") && strstr(t[3], "Bob, it is your turn"),
           "the turn says %s / %s", t[1], t[3]);
    EXPECT(!strcmp(t[2], "Ann: <b>&amp; hi") &&
               !strcmp(jstr(j[2], "text"), "Ann: &lt;b&gt;&amp;amp; hi") && !img[2][0],
           "the chat message: %s, fallback %s, image %s", t[2], jstr(j[2], "text"), img[2]);
    char want[300];
    snprintf(want, sizeof want, PUBLIC_URL "/v1/games/%s/board.png?version=", g.id);
    EXPECT(!strncmp(img[0], want, strlen(want)) && !strncmp(img[1], want, strlen(want)) &&
               strstr(img[1], "&width=800"),
           "the pictures' URLs %s, %s", img[0], img[1]);
    /* The picture's URL is the server's own board.png of that version. */
    struct resp r = {0};
    if (!strncmp(img[1], PUBLIC_URL, strlen(PUBLIC_URL)))
        http(srv, "GET", img[1] + strlen(PUBLIC_URL), NULL, NULL, &r);
    EXPECT(r.status == 200 && !strcmp(r.ctype, "image/png"), "GET of the picture: %ld %s", r.status,
           r.ctype);
    resp_free(&r);
    EXPECT(hst == 200 && !strcmp(jstr(state, "format"), "slack"), "Bob's webhook: %ld %s", hst,
           jstr(state, "format"));
    cJSON_Delete(state);
    for (int i = 0; i < 4; i++) cJSON_Delete(j[i]);
    free(c0.body);
    free(c1.body);
    free(b0.body);
    free(b1.body);
}

/* A copy of the first request of `l` whose body holds `needle` (body malloc'd: free it), or
 * an empty one. */
static struct hook_req request_with(struct listener *l, const char *needle)
{
    int i = 0, n = listener_count(l);
    for (; i < n; i++) {
        struct hook_req r = request(l, i);
        if (r.body && memmem(r.body, (size_t)r.body_len, needle, strlen(needle))) return r;
        free(r.body);
    }
    return (struct hook_req){0};
}

/* Waits up to `ms` until a request of `l` holds `needle`; 1 if so. */
static int wait_request_with(struct listener *l, const char *needle, long ms)
{
    for (long t = 0;; t += 50) {
        struct hook_req r = request_with(l, needle);
        free(r.body);
        if (r.body || t >= ms) return r.body != NULL;
        usleep(50000);
    }
}

ITEST(test_webhook_apps_deadline_over,
      "webhooks: Discord's and Slack's formats of a deadline near and the game over, as each "
      "app reads them; Discord's picture drawn in board.png's render slots and kept")
{
    /* Nobody plays: Ann's bank of 8 s runs out (resign at the timeout), deadline_near at
     * 2 s left (a quarter of the bank), then the game over. The near's job must run before
     * the deadline or it is dropped; it waits in the one fast lane behind the other tests'
     * games (one owner: every test's address is 127.0.0.1), which under ASan on a busy
     * machine took over a second once. The creator's webhook is Discord's, Ann's seat's
     * Slack's. */
    struct listener *ld = listener_start(), *ls = listener_start();
    CHECK(ld && ls, "no listeners");
    char url[128], urls[128];
    listener_url(ld, "/api/webhooks/2/z", url);
    listener_url(ls, "/services/T0/B2/z", urls);
    char body[1024], extra[300], why[300] = "", secret[64];
    snprintf(extra, sizeof extra,
             ",\"clock\":{\"initial_seconds\":8,\"on_timeout\":\"resign\"},"
             "\"webhook\":{\"url\":\"%s\",\"format\":\"discord\"}",
             url);
    snprintf(body, sizeof body, APP_GAME, extra);
    struct game g;
    int ok = game_new(srv, body, &g, why, sizeof why) == 0 &&
             seat_hook(srv, &g, 0, urls, "slack", secret) == 0;
    /* The start's picture drawn: the counters from now on are the game over's. */
    int started = ok && wait_request_with(ld, "The game has started", 5000);
    long r0 = metric_count(srv, METRIC_PNG_RENDERED);
    int over = started && wait_request_with(ld, "The game is over", 16000) &&
               wait_request_with(ls, "The game is over", 3000);
    long r1 = metric_count(srv, METRIC_PNG_RENDERED), c1 = metric_count(srv, METRIC_PNG_CACHED);
    struct hook_req dn = request_with(ld, "runs out in"),
                    dov = request_with(ld, "The game is over"),
                    sn = request_with(ls, "runs out in"),
                    sov = request_with(ls, "The game is over");
    listener_stop(ld);
    listener_stop(ls);
    CHECK(ok, "set-up: %s", why);
    CHECK(started && over, "no start (%d) or no game over (%d) delivered", started, over);
    int version = game_version(srv, &g);
    char c[2][2100] = {"", ""}, w[300] = "";
    /* Without a delivery, the game's events tell whether the near was committed at all. */
    char nears[160] = "";
    if (!dn.body)
        snprintf(nears, sizeof nears, "none delivered; the game's events hold %ld deadline_near",
                 db_events_of(g.id, "deadline_near"));
    EXPECT(dn.body && discord_ok(&dn, 0, c[0], sizeof c[0], w, sizeof w) == 0,
           "Discord's deadline near: %s", dn.body ? w : nears);
    EXPECT(strstr(c[0], "Ann, your time for turn ") && strstr(c[0], " runs out in 1 minute."),
           "Discord's deadline near says %s", c[0]);
    EXPECT(dov.body && discord_ok(&dov, 1, c[1], sizeof c[1], w, sizeof w) == 0,
           "Discord's game over: %s", dov.body ? w : "none");
    EXPECT(!strcmp(c[1], "The game is over\\: Ann 0, Bob 0."), "Discord's game over says %s", c[1]);
    EXPECT(!strcmp(dn.event, "message") && !strcmp(dov.event, "message"), "events %s, %s", dn.event,
           dov.event);
    cJSON *j[2] = {cJSON_Parse(sn.body ? sn.body : ""), cJSON_Parse(sov.body ? sov.body : "")};
    char t[2][2000], img[2][800], want[300];
    for (int i = 0; i < 2; i++)
        EXPECT(slack_ok(j[i], t[i], sizeof t[i], img[i], sizeof img[i]) == 0,
               "Slack's %s is no Slack message: %.300s", i ? "game over" : "deadline near",
               i ? sov.body : sn.body);
    EXPECT(strstr(t[0], "Ann, your time for turn ") && strstr(t[0], " runs out in 1 minute.") &&
               !strcmp(jstr(j[0], "text"), t[0]) && !img[0][0],
           "Slack's deadline near: %s, fallback %s, image %s", t[0], jstr(j[0], "text"), img[0]);
    snprintf(want, sizeof want, PUBLIC_URL "/v1/games/%s/board.png?version=%d&width=800", g.id,
             version);
    EXPECT(!strcmp(t[1], "The game is over: Ann 0, Bob 0.") && !strcmp(jstr(j[1], "text"), t[1]) &&
               !strcmp(img[1], want),
           "Slack's game over: %s, fallback %s, image %s (want %s)", t[1], jstr(j[1], "text"),
           img[1], want);
    /* The game over's picture was drawn once, through board.png's slots, and kept: the
     * picture Slack links is that one, from the cache. */
    struct resp r = {0};
    if (!strncmp(img[1], PUBLIC_URL, strlen(PUBLIC_URL)))
        http(srv, "GET", img[1] + strlen(PUBLIC_URL), NULL, NULL, &r);
    long r2 = metric_count(srv, METRIC_PNG_RENDERED), c2 = metric_count(srv, METRIC_PNG_CACHED);
    EXPECT(r0 >= 0 && r1 == r0 + 1, "pictures drawn for the game over's message: %ld (1)", r1 - r0);
    EXPECT(r.status == 200 && !strcmp(r.ctype, "image/png") && r2 == r1 && c2 == c1 + 1,
           "GET of the game over's picture: %ld %s, drawn again %ld times, from the cache %ld",
           r.status, r.ctype, r2 - r1, c2 - c1);
    resp_free(&r);
    for (int i = 0; i < 2; i++) cJSON_Delete(j[i]);
    free(dn.body);
    free(dov.body);
    free(sn.body);
    free(sov.body);
}

ITEST(test_chat_idempotency, "chat: an Idempotency-Key posts once, a repeat gets the first "
                             "answer, the key with another text is 409")
{
    struct game g;
    char body[600];
    snprintf(body, sizeof body, APP_GAME, "");
    NEW_GAME(&g, body);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/chat", g.id);
    const char *h[] = {g.auth[0], "Idempotency-Key: chat-key-1", NULL};
    struct resp a, b, c, d;
    post(srv, path, "{\"text\":\"once\"}", h, &a);
    post(srv, path, "{\"text\":\"once\"}", h, &b);
    post(srv, path, "{\"text\":\"twice\"}", h, &c);
    const char *h1[] = {g.auth[1], "Idempotency-Key: chat-key-1", NULL};
    post(srv, path, "{\"text\":\"once\"}", h1, &d); /* another seat's key: its own */
    const char *v[] = {g.id};
    long stored =
        db_scalar_params("SELECT count(*) FROM chat_messages WHERE game_id = $1::uuid", 1, v);
    EXPECT(a.status == 201 && jnum(a.json, "seq") == 1, "first: %ld %.200s", a.status, a.body);
    EXPECT(b.status == 201 && a.body && b.body && !strcmp(a.body, b.body), "repeat: %ld %.200s",
           b.status, b.body);
    EXPECT(c.status == 409 && !strcmp(problem_code(&c), "idempotency_key_reused"),
           "the key with another text: %ld %s", c.status, problem_code(&c));
    EXPECT(d.status == 201 && jnum(d.json, "seq") == 2 && jnum(d.json, "seat") == 1,
           "Bob's post with the same key: %ld %.200s", d.status, d.body);
    EXPECT(stored == 2, "%ld messages stored (2)", stored);
    resp_free(&a);
    resp_free(&b);
    resp_free(&c);
    resp_free(&d);
}

/* POST `path` with `body` as `auth` (a header line); the status, the answer into `r`. */
static long post_as(const struct server *srv, const char *path, const char *body, const char *auth,
                    struct resp *r)
{
    const char *h[] = {auth, NULL};
    return post(srv, path, body, h, r);
}

ITEST(test_chat_webhooks_blocks, "chat: players' webhooks get the other players' messages, "
                                 "never those of a player they blocked")
{
    struct listener *la = listener_start(), *lb = listener_start();
    CHECK(la && lb, "no listeners");
    struct person ann, bob;
    char why[300] = "", body[300], path[200], invite[200] = "", id[64] = "";
    int ok = person_new(srv, "Ann", &ann, why, sizeof why) == 0 &&
             person_new(srv, "Bob", &bob, why, sizeof why) == 0;
    struct resp r = {0};
    for (int i = 0; ok && i < 2; i++) {
        snprintf(body, sizeof body, "{\"url\":\"http://127.0.0.1:%d/p\"}", (i ? lb : la)->port);
        ok = post_as(srv, "/v1/players/me/webhook", body, i ? bob.auth : ann.auth, &r) == 200;
        resp_free(&r);
    }
    if (ok) {
        ok = post_as(srv, "/v1/games", "{\"players\":[{\"player\":\"me\"},{\"open\":true}]}",
                     ann.auth, &r) == 201;
        snprintf(id, sizeof id, "%s", jstr(r.json, "id"));
        snprintf(invite, sizeof invite, "%s",
                 jstr(cJSON_GetArrayItem(jget(r.json, "players"), 1), "invite"));
        resp_free(&r);
    }
    if (ok) {
        snprintf(path, sizeof path, "/v1/games/%s/join", id);
        snprintf(body, sizeof body, "{\"invite\":\"%s\"}", invite);
        ok = post_as(srv, path, body, bob.auth, &r) == 200;
        resp_free(&r);
    }
    if (ok) {
        snprintf(path, sizeof path, "/v1/players/me/blocks/%s", bob.id);
        long st = post_as(srv, path, NULL, ann.auth, &r);
        ok = st == 200 || st == 201 || st == 204;
        resp_free(&r);
    }
    snprintf(path, sizeof path, "/v1/games/%s/chat", id);
    long s1 = ok ? post_as(srv, path, "{\"text\":\"from Bob\"}", bob.auth, &r) : 0;
    resp_free(&r);
    long s2 = ok ? post_as(srv, path, "{\"text\":\"from Ann\"}", ann.auth, &r) : 0;
    resp_free(&r);
    int got = ok && s1 == 201 && s2 == 201 && listener_wait_ok(lb, 1, 5000);
    usleep(500000); /* Bob's message to Ann's webhook would come now */
    int ca = count_event(la, "chat"), cb = count_event(lb, "chat");
    struct hook_req m = {0};
    pthread_mutex_lock(&lb->lock);
    for (int i = 0; i < lb->n; i++)
        if (!strcmp(lb->req[i].event, "chat")) {
            m = lb->req[i];
            m.body = strdup(lb->req[i].body ? lb->req[i].body : "");
        }
    pthread_mutex_unlock(&lb->lock);
    cJSON *b = m.body ? cJSON_Parse(m.body) : NULL;
    listener_stop(la);
    listener_stop(lb);
    CHECK(ok, "set-up: %s", why);
    CHECK(got, "posts %ld %ld; Bob's webhook got %d chat messages", s1, s2, cb);
    EXPECT(ca == 0, "Ann's webhook got %d chat messages (Bob is blocked, hers are her own)", ca);
    EXPECT(cb == 1 && !strcmp(jstr(b, "chat.text"), "from Ann") && !strcmp(jstr(b, "game"), id) &&
               !strcmp(jstr(b, "chat.player"), ann.id),
           "Bob's webhook: %d chat messages, %.200s", cb, m.body ? m.body : "");
    cJSON_Delete(b);
    free(m.body);
}
