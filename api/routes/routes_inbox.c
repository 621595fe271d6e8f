/* routes_inbox.c: a player's games and a player's webhook (issue 11, items 5 and 6):
 * GET /v1/players/me/games (the games where the player holds a seat, most urgent first,
 * paged by an opaque cursor, with an ETag of the answer) and POST|GET|DELETE
 * /v1/players/me/webhook (a callback for the events of every such game, delivered and
 * signed as a game's webhook is: same outbox, same headers, same retries). Each needs the
 * player's token (routes_player_auth). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "auth.h"
#include "idem.h"
#include "json_in.h"
#include "json_out.h"
#include "log.h"
#include "params.h"
#include "problem.h"
#include "routes.h"
#include "store.h"
#include "webhook.h"
#include "store_people.h"

#define INBOX_LIMIT_DEFAULT 50  /* entries per page without ?limit */
#define INBOX_LIMIT_MAX     100 /* ?limit at most */
#define CURSOR_MAX          224 /* characters of a cursor at most (base64url of the keys) */
#define CURSOR_MAC_LEN      16  /* bytes of a cursor's MAC (HMAC-SHA256 cut to 128 bits) */

static const char b64url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* `n` bytes at `in` as base64url without padding into `out` (size `cap`). 0 or -1. */
static int b64url_encode_n(const void *in, size_t n, char *out, size_t cap)
{
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)in;
    if ((n + 2) / 3 * 4 + 1 > cap) return -1;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        out[o++] = b64url[v >> 18 & 63];
        out[o++] = b64url[v >> 12 & 63];
        if (i + 1 < n) out[o++] = b64url[v >> 6 & 63];
        if (i + 2 < n) out[o++] = b64url[v & 63];
    }
    out[o] = '\0';
    return 0;
}

/* `in` (NUL-terminated) as base64url without padding into `out` (size `cap`). 0 or -1. */
static int b64url_encode(const char *in, char *out, size_t cap)
{
    return b64url_encode_n(in, strlen(in), out, cap);
}

/* Decodes base64url `in` (no padding) into `out` (size `cap`, NUL-terminated). 0 or -1. */
static int b64url_decode(const char *in, char *out, size_t cap)
{
    size_t n = strlen(in), o = 0;
    if (n % 4 == 1) return -1;
    unsigned v = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        const char *c = memchr(b64url, in[i], 64);
        if (!c || in[i] == '\0') return -1;
        v = v << 6 | (unsigned)(c - b64url);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (o + 1 >= cap) return -1;
            out[o++] = (char)(v >> bits & 0xFF);
        }
    }
    out[o] = '\0';
    return 0;
}

/* A signed decimal of at most 19 digits from *p up to `stop` into *out; moves *p past stop. */
static int read_ll(const char **p, char stop, long long *out)
{
    const char *s = *p;
    int neg = *s == '-';
    if (neg) s++;
    long long v = 0;
    int digits = 0;
    for (; *s >= '0' && *s <= '9'; s++, digits++) {
        if (digits == 19) return -1;
        v = v * 10 + (*s - '0');
    }
    if (digits == 0 || *s != stop) return -1;
    *out = neg ? -v : v;
    *p = s + 1;
    return 0;
}

/*
 * A cursor is "<keys>.<mac>": the base64url of "rank.deadline.recency.game" (the last
 * entry's keys), a dot, and the base64url of its MAC: HMAC-SHA256 under the service's key
 * (server_keys "inbox_cursor", migrations/0022: shared by every server) of a label, the
 * token hash of whoever was given it, the filters and the keys, cut to 128 bits. So a
 * cursor the list did not give, or gave to another token or with other filters, is
 * refused: nobody without the key can make one.
 */
struct cursor {
    char text[CURSOR_MAX];           /* the keys as text */
    uint8_t mac[CURSOR_MAC_LEN + 2]; /* its MAC as the cursor states it (decoded) */
};

static pthread_mutex_t key_lock = PTHREAD_MUTEX_INITIALIZER;
static int key_loaded;                           /* 1 once key holds the key (key_lock) */
static uint8_t cursor_key[STORE_SERVER_KEY_LEN]; /* server_keys "inbox_cursor" */

/* The MAC of cursor keys `text` given to token hash `th` for the filters of `q` into `mac`.
 * STORE_OK, or the store's failure to read the key (read once, then kept). */
static enum store_status cursor_mac(const uint8_t th[AUTH_HASH_LEN],
                                    const struct store_inbox_query *q, const char *text,
                                    uint8_t mac[CURSOR_MAC_LEN])
{
    uint8_t key[STORE_SERVER_KEY_LEN];
    enum store_status s = STORE_OK;
    pthread_mutex_lock(&key_lock);
    if (!key_loaded && (s = store_server_key("inbox_cursor", cursor_key)) == STORE_OK)
        key_loaded = 1;
    memcpy(key, cursor_key, sizeof key);
    pthread_mutex_unlock(&key_lock);
    if (s != STORE_OK) return s;
    char filters[48];
    int fl =
        snprintf(filters, sizeof filters, "\n%s\n%d\n", q->status ? q->status : "", q->my_turn);
    uint8_t msg[32 + AUTH_HASH_LEN + sizeof filters + CURSOR_MAX];
    size_t o = 0, tl = strlen(text);
    static const char label[] = "tilehall inbox cursor 1\n";
    memcpy(msg + o, label, sizeof label - 1), o += sizeof label - 1;
    memcpy(msg + o, th, AUTH_HASH_LEN), o += AUTH_HASH_LEN;
    memcpy(msg + o, filters, (size_t)fl), o += (size_t)fl;
    memcpy(msg + o, text, tl), o += tl;
    uint8_t full[EVP_MAX_MD_SIZE];
    unsigned fn = 0;
    if (!HMAC(EVP_sha256(), key, (int)sizeof key, msg, o, full, &fn) || fn < CURSOR_MAC_LEN)
        return STORE_ERROR;
    memcpy(mac, full, CURSOR_MAC_LEN);
    return STORE_OK;
}

/* The keys of cursor `c` ("<keys>.<mac>", struct cursor) into `k` and `out`: 0, or -1 when
 * it is malformed (its MAC is checked later, with the token: cursor_mac). */
static int cursor_parse(const char *c, struct store_inbox_key *k, struct cursor *out)
{
    char keys64[CURSOR_MAX];
    const char *dot = strchr(c, '.');
    size_t kl = dot ? (size_t)(dot - c) : 0;
    if (strlen(c) >= CURSOR_MAX || !dot || kl == 0) return -1;
    memcpy(keys64, c, kl);
    keys64[kl] = '\0';
    char mac[sizeof out->mac + 1];
    if (strlen(dot + 1) != 22 || b64url_decode(dot + 1, mac, sizeof mac)) return -1;
    memcpy(out->mac, mac, CURSOR_MAC_LEN);
    char *text = out->text;
    long long rank;
    if (b64url_decode(keys64, text, sizeof out->text)) return -1;
    const char *p = text;
    if (read_ll(&p, '.', &rank) || (rank != 0 && rank != 1) || read_ll(&p, '.', &k->deadline) ||
        read_ll(&p, '.', &k->recency) || strlen(p) != AUTH_UUID_LEN || !auth_uuid_valid(p))
        return -1;
    k->rank = (int)rank;
    snprintf(k->game, sizeof k->game, "%s", p);
    return 0;
}

/* 1 when If-None-Match `h` names entity tag `tag` (quoted; weak comparison) or is "*". */
static int none_match(const char *h, const char *tag)
{
    size_t n = strlen(tag);
    for (const char *p = h; p && *p;) {
        while (*p == ' ' || *p == '\t' || *p == ',') p++;
        if (*p == '*') return 1;
        if (strncmp(p, "W/", 2) == 0) p += 2;
        const char *end = p;
        while (*end && *end != ',' && *end != ' ' && *end != '\t') end++;
        if ((size_t)(end - p) == n && memcmp(p, tag, n) == 0) return 1;
        p = end;
    }
    return 0;
}

/* Reads the list's query parameters into `q` (its `after` in `after`): NULL, or what is
 * wrong with them (the detail of a 400 invalid_parameter). */
static const char *inbox_query(const struct api_request *req, struct store_inbox_query *q,
                               struct store_inbox_key *after, struct cursor *cur)
{
    static const char *const statuses[] = {"waiting", "active", "finished", "aborted"};
    const char *status = api_query_get(req, "status");
    const char *my_turn = api_query_get(req, "my_turn");
    const char *limit = api_query_get(req, "limit");
    const char *cursor = api_query_get(req, "cursor");
    q->status = NULL;
    for (size_t i = 0; status && i < sizeof statuses / sizeof statuses[0]; i++)
        if (strcmp(status, statuses[i]) == 0) q->status = statuses[i];
    if (status && !q->status) return "status must be waiting, active, finished or aborted.";
    q->my_turn = -1;
    if (my_turn && strcmp(my_turn, "true") == 0) q->my_turn = 1;
    if (my_turn && strcmp(my_turn, "false") == 0) q->my_turn = 0;
    if (my_turn && q->my_turn < 0) return "my_turn must be true or false.";
    long l = INBOX_LIMIT_DEFAULT;
    if (limit && (params_uint(limit, INBOX_LIMIT_MAX, &l) || l < 1))
        return "limit must be a number from 1 to 100.";
    q->limit = (int)l;
    q->after = NULL;
    if (cursor) {
        if (cursor_parse(cursor, after, cur))
            return "cursor is not one this list gave (pass next_cursor as it came).";
        q->after = after;
    }
    return NULL;
}

/* Microseconds since 1970 `us` as RFC 3339 in UTC with milliseconds into `out`. */
static void utc_ms(long long us, char out[32])
{
    long long ms = us / 1000;
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    if (ms < 0 || !gmtime_r(&t, &tm) || tm.tm_year < -1900 || tm.tm_year > 9999 - 1900) {
        snprintf(out, 32, "1970-01-01T00:00:00.000Z");
        return;
    }
    /* Each field in its range (gmtime_r), so the 24 characters fit. */
    snprintf(out, 32, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", (tm.tm_year + 1900) % 10000,
             (tm.tm_mon + 1) % 100, tm.tm_mday % 100, tm.tm_hour % 100, tm.tm_min % 100,
             tm.tm_sec % 100, (int)(ms % 1000));
}

/* Entry `e` of the list as a JSON object. */
static void entry_json(struct json_out *w, const struct store_inbox_entry *e)
{
    char at[32];
    json_out_begin_object(w);
    json_out_kstring(w, "id", e->key.game);
    json_out_kstring(w, "ruleset", e->ruleset);
    json_out_kstring(w, "status", e->status);
    json_out_kint(w, "version", e->version);
    json_out_kint(w, "seat", e->seat);
    json_out_key(w, "my_turn");
    json_out_bool(w, e->key.rank == 0);
    json_out_key(w, "turn");
    if (e->turn_phase[0]) {
        json_out_begin_object(w);
        json_out_kint(w, "number", e->turn_number);
        json_out_kint_or_null(w, "seat", e->turn_seat >= 0, e->turn_seat);
        json_out_kstring(w, "phase", e->turn_phase);
        json_out_end_object(w);
    } else {
        json_out_null(w);
    }
    /* The keys hold the times (migrations/0012): deadline in µs (none: the largest
     * bigint), minus updated_at in µs. */
    json_out_key(w, "deadline");
    if (e->key.deadline == INT64_MAX) {
        json_out_null(w);
    } else {
        utc_ms(e->key.deadline, at);
        json_out_string(w, at);
    }
    utc_ms(-e->key.recency, at);
    json_out_kstring(w, "updated_at", at);
    json_out_key(w, "players");
    json_out_begin_array(w);
    for (int i = 0; i < e->nseats; i++) {
        json_out_begin_object(w);
        json_out_kint(w, "seat", e->seats[i].seat);
        json_out_kstring(w, "name", e->seats[i].name);
        json_out_kint_or_null(w, "score", e->seats[i].has_score, e->seats[i].score);
        /* A rated game once it ended: the seat's rating before and after it (0025). */
        json_out_kint_or_null(w, "rating_before", e->seats[i].has_rating,
                              e->seats[i].rating_before);
        json_out_kint_or_null(w, "rating_after", e->seats[i].has_rating, e->seats[i].rating_after);
        json_out_end_object(w);
    }
    json_out_end_array(w);
    json_out_key(w, "rated");
    json_out_bool(w, e->rated);
    json_out_end_object(w);
}

/* The cursor of the entry after which a page of `page` goes on into cursor[CURSOR_MAX],
 * signed for `th` and the filters of `q`: 1 when there is one, 0 when none (or *s failed). */
static int next_cursor(const uint8_t th[AUTH_HASH_LEN], const struct store_inbox_query *q,
                       const struct store_inbox_page *page, char cursor[CURSOR_MAX],
                       enum store_status *s)
{
    if (!page->more || page->n == 0) return 0;
    char keys[160];
    uint8_t mac[CURSOR_MAC_LEN];
    const struct store_inbox_key *k = &page->entries[page->n - 1].key;
    snprintf(keys, sizeof keys, "%d.%lld.%lld.%s", k->rank, k->deadline, k->recency, k->game);
    size_t o;
    return (*s = cursor_mac(th, q, keys, mac)) == STORE_OK &&
           b64url_encode(keys, cursor, CURSOR_MAX) == 0 &&
           (o = strlen(cursor)) + 1 + 23 <= CURSOR_MAX &&
           (cursor[o] = '.',
            b64url_encode_n(mac, CURSOR_MAC_LEN, cursor + o + 1, CURSOR_MAX - o - 1) == 0);
}

/* 1 when the request's cursor `cur` (if q->after) is not one this list gave `th` with the
 * filters of `q`; 0 when it is, when there is none, or when *s says the key was not read. */
static int cursor_forged(const uint8_t th[AUTH_HASH_LEN], const struct store_inbox_query *q,
                         const struct cursor *cur, enum store_status *s)
{
    uint8_t mac[CURSOR_MAC_LEN];
    return q->after && (*s = cursor_mac(th, q, cur->text, mac)) == STORE_OK &&
           CRYPTO_memcmp(mac, cur->mac, CURSOR_MAC_LEN) != 0;
}

/*
 * Starts the answer of `page` (read with status `s`): its next cursor into
 * cursor[CURSOR_MAX] ("" when the list ends there) and `w` begun as an object. Returns 1
 * after answering the problem of `s` or of the cursor (the page freed then), else 0.
 */
static int page_begin(struct api_response *resp, const uint8_t th[AUTH_HASH_LEN],
                      const struct store_inbox_query *q, struct store_inbox_page *page,
                      enum store_status s, char cursor[CURSOR_MAX], struct json_out *w)
{
    if (!(s == STORE_OK && next_cursor(th, q, page, cursor, &s))) cursor[0] = '\0';
    if (s != STORE_OK) store_inbox_free(page);
    return api_reply_begin(resp, s, w);
}

/* The page's games as the answer's "games" array. */
static void page_games_json(struct json_out *w, const struct store_inbox_page *page)
{
    json_out_key(w, "games");
    json_out_begin_array(w);
    for (int i = 0; i < page->n; i++) entry_json(w, &page->entries[i]);
    json_out_end_array(w);
}

void routes_player_games(const struct api_request *req, struct api_response *resp, const char *arg)
{
    (void)arg;
    struct store_person p;
    struct store_inbox_query q;
    struct store_inbox_key after;
    struct store_inbox_page page = {0};
    struct cursor cur;
    const char *bad = inbox_query(req, &q, &after, &cur);
    const char *token = auth_bearer(req->authorization);
    if (bad || !token) {
        /* The token is judged first, as for every request of a player (401 before 400). */
        if (routes_player_auth(req, resp, &p)) return;
        problem_reply(resp, 400, "invalid_parameter", bad);
        return;
    }
    /* The person and the page in one statement (one round trip), then the person's hash
     * compared in constant time, as routes_player_auth does. */
    uint8_t th[AUTH_HASH_LEN];
    if (auth_sha256(token, strlen(token), th)) {
        problem_reply(resp, 500, "internal_error", "The token could not be hashed.");
        return;
    }
    enum store_status s = store_inbox_page(th, &q, &p, &page);
    if (s == STORE_NOT_FOUND || (s == STORE_OK && !auth_hash_equal(th, p.token_hash))) {
        store_inbox_free(&page);
        problem_reply(resp, 401, "unknown_token",
                      "The token is no player's (a replaced token stops working at once).");
        return;
    }
    if (s != STORE_OK) {
        problem_store(resp, s);
        return;
    }
    if (p.suspended) {
        store_inbox_free(&page);
        routes_suspended_answer(resp);
        return;
    }
    /* The cursor's MAC, checked once the token is (401 before 400): the page read with its
     * keys is dropped when it is not one this list gave this token with these filters. */
    if (cursor_forged(th, &q, &cur, &s)) {
        store_inbox_free(&page);
        problem_reply(resp, 400, "invalid_parameter",
                      "cursor is not one this list gave (pass next_cursor as it came, with the "
                      "same token and filters).");
        return;
    }
    char cursor[CURSOR_MAX];
    struct json_out w;
    if (page_begin(resp, th, &q, &page, s, cursor, &w)) return;
    page_games_json(&w, &page);
    json_out_kint(&w, "my_turn_count", page.my_turn_count);
    json_out_kstring(&w, "next_cursor", cursor[0] ? cursor : NULL);
    json_out_end_object(&w);
    store_inbox_free(&page);
    size_t len = 0;
    char *body = json_out_take(&w, &len);
    json_out_free(&w);
    uint8_t h[AUTH_HASH_LEN];
    if (!body || auth_sha256(body, len, h)) {
        free(body);
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        return;
    }
    /* The tag of this very answer: it changes whenever anything listed changes. */
    char tag[sizeof resp->etag];
    size_t o = 0;
    tag[o++] = '"';
    for (int i = 0; o + 3 < sizeof tag; i++) {
        static const char hex[] = "0123456789abcdef";
        tag[o++] = hex[h[i] >> 4];
        tag[o++] = hex[h[i] & 15];
    }
    tag[o++] = '"';
    tag[o] = '\0';
    snprintf(resp->etag, sizeof resp->etag, "%s", tag);
    resp->cache_control = "private, no-cache";
    if (req->if_none_match && none_match(req->if_none_match, tag)) {
        free(body);
        resp->status = 304;
        return;
    }
    api_reply_take(resp, 200, "application/json", body);
    resp->len = len;
}

void routes_player_games_public(const struct api_request *req, struct api_response *resp,
                                const char *id)
{
    /* A public list (0025): no token; finished games only, in the order of the player's own
     * list (the most recently ended first); its cursors signed as the player's own list's,
     * for a key of their own (the hash of the id under a label of its own). */
    if (!id || !auth_uuid_valid(id)) {
        problem_reply(resp, 404, "not_found", "There is no player with this id.");
        return;
    }
    const char *status = api_query_get(req, "status");
    if (status && strcmp(status, "finished") != 0) {
        problem_reply(resp, 400, "invalid_parameter",
                      "status must be finished: the public list shows finished games only.");
        return;
    }
    if (api_query_get(req, "my_turn")) {
        problem_reply(resp, 400, "invalid_parameter",
                      "my_turn belongs to the player's own list (GET /v1/players/me/games).");
        return;
    }
    struct store_inbox_query q;
    struct store_inbox_key after;
    struct cursor cur;
    const char *bad = inbox_query(req, &q, &after, &cur);
    if (bad) {
        problem_reply(resp, 400, "invalid_parameter", bad);
        return;
    }
    q.status = "finished";
    char label[64 + AUTH_UUID_LEN];
    int ll = snprintf(label, sizeof label, "tilehall public games\n%s", id);
    uint8_t th[AUTH_HASH_LEN];
    if (auth_sha256(label, (size_t)ll, th)) {
        problem_reply(resp, 500, "internal_error", "The cursor's key could not be made.");
        return;
    }
    enum store_status s = STORE_OK;
    if (cursor_forged(th, &q, &cur, &s)) {
        problem_reply(resp, 400, "invalid_parameter",
                      "cursor is not one this list gave (pass next_cursor as it came).");
        return;
    }
    struct store_person p;
    struct store_inbox_page page = {0};
    if (s == STORE_OK) s = store_player_games_page(id, &q, &p, &page);
    if (s == STORE_NOT_FOUND) {
        problem_reply(resp, 404, "not_found", "There is no player with this id.");
        return;
    }
    char cursor[CURSOR_MAX];
    struct json_out w;
    if (page_begin(resp, th, &q, &page, s, cursor, &w)) return;
    json_out_kstring(&w, "player", p.id);
    json_out_kstring(&w, "name", p.name);
    page_games_json(&w, &page);
    json_out_kstring(&w, "next_cursor", cursor[0] ? cursor : NULL);
    json_out_end_object(&w);
    store_inbox_free(&page);
    api_reply_out(resp, 200, &w);
}

/* The Idempotency-Key scope of person `id`'s webhook. */
static void hook_scope(const char *id, char out[IDEM_SCOPE_MAX])
{
    snprintf(out, IDEM_SCOPE_MAX, "p:%s/webhook", id);
}

void routes_player_webhook_set(const struct api_request *req, struct api_response *resp,
                               const char *arg)
{
    (void)arg;
    struct store_person p;
    if (routes_player_auth(req, resp, &p)) return;
    char *url = NULL, *stored = NULL, format[STORE_HOOK_FORMAT_MAX];
    char scope[IDEM_SCOPE_MAX];
    struct idem idem;
    hook_scope(p.id, scope);
    if (routes_webhook_url_read(req, resp, &url, format)) goto out;
    if (idem_begin(req, scope, &idem, resp)) goto out;
    /* What an idempotent repeat gets: the answer without the secret, shown only once. */
    struct json_out w;
    json_out_init(&w);
    json_out_begin_object(&w);
    json_out_kstring(&w, "url", url);
    json_out_end_object(&w);
    if (!(stored = json_out_take(&w, NULL))) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        goto out;
    }
    char secret[WEBHOOK_SECRET_LEN + 1], std_secret[WEBHOOK_STD_SECRET_LEN + 1];
    if (routes_webhook_secrets_reply(resp, url, secret, std_secret)) goto out;
    if (idem.active) idem_remember(&idem, req, resp, stored);
    enum store_status s =
        store_person_hook_set(p.id, url, secret, format, idem.active ? &idem.rec : NULL);
    /* The same key may have raced us and won: answered as a repeat would be. */
    if (idem_finish(req, scope, &idem, resp, s)) goto out;
    log_kv(LOG_INFO, "player webhook set", "player", p.id, NULL);
out:
    free(url);
    free(stored);
}

void routes_player_webhook_get(const struct api_request *req, struct api_response *resp,
                               const char *arg)
{
    (void)arg;
    struct store_person p;
    if (routes_player_auth(req, resp, &p)) return;
    struct store_person_hook_state *st = malloc(sizeof *st);
    enum store_status s = st ? store_person_hook_get(p.id, st) : STORE_ERROR;
    if (s == STORE_NOT_FOUND) {
        problem_reply(resp, 404, "not_found", "This player has no webhook.");
    } else if (s != STORE_OK) {
        problem_store(resp, s);
    } else {
        struct json_out w;
        json_out_init(&w);
        routes_webhook_state_json(&w, &st->w, st->games, st->error_game);
        api_reply_out(resp, 200, &w);
    }
    free(st);
}

void routes_player_webhook_delete(const struct api_request *req, struct api_response *resp,
                                  const char *arg)
{
    (void)arg;
    struct store_person p;
    if (routes_player_auth(req, resp, &p)) return;
    int deleted = 0;
    enum store_status s = store_person_hook_delete(p.id, &deleted);
    if (s != STORE_OK) {
        problem_store(resp, s);
    } else if (!deleted) {
        problem_reply(resp, 404, "not_found", "This player has no webhook.");
    } else {
        resp->status = 204;
        log_kv(LOG_INFO, "player webhook removed", "player", p.id, NULL);
    }
}
