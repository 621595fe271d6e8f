/* t_webhook.c: webhooks against a listener on 127.0.0.1: signatures, order, retries with
 * backoff, giving up, the delivery state, two servers sharing the work, private addresses,
 * whose webhook a seat may change (its own only), the migration of the old rows. */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "hard.h"
#include "hook.h"
#include "tests.h"

/* 1 when `sig` is "sha256=" + the hex HMAC-SHA256 of `body` under `secret`. */
static int signature_ok(const char *secret, const char *body, const char *sig)
{
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!HMAC(EVP_sha256(), secret, (int)strlen(secret), (const unsigned char *)body, strlen(body),
              mac, &n))
        return 0;
    char hex[2 * EVP_MAX_MD_SIZE + 8] = "sha256=";
    for (unsigned i = 0; i < n; i++) snprintf(hex + 7 + 2 * i, 3, "%02x", mac[i]);
    return strcmp(hex, sig) == 0;
}

/* 1 when `r` carries the Standard Webhooks headers: an id, the timestamp of
 * X-Tilehall-Timestamp, and "v1," + the base64 HMAC-SHA256 of "<id>.<timestamp>.<body>" under
 * the secret's bytes. */
static int std_signature_ok(const char *secret, const struct hook_req *r)
{
    if (!r->wid[0] || !r->wts[0] || strcmp(r->wts, r->ts) != 0) return 0;
    size_t blen = strlen(r->body), hlen = strlen(r->wid) + strlen(r->wts) + 2;
    char *msg = malloc(hlen + blen + 1);
    if (!msg) return 0;
    snprintf(msg, hlen + blen + 1, "%s.%s.%s", r->wid, r->wts, r->body);
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    unsigned char b64[64] = "";
    int ok = HMAC(EVP_sha256(), secret, (int)strlen(secret), (const unsigned char *)msg,
                  hlen + blen, mac, &n) != NULL &&
             n == 32 && EVP_EncodeBlock(b64, mac, 32) == 44;
    free(msg);
    return ok && strncmp(r->wsig, "v1,", 3) == 0 && strcmp(r->wsig + 3, (char *)b64) == 0;
}

/*
 * Checks the 2xx-answered requests of `l` from index `from`: they deliver the events of
 * game `id` from seq `first` in order, each once, signed with `secret`, with the headers.
 * Returns how many it checked, or -1 (with why).
 */
static int check_deliveries(struct listener *l, int from, const char *id, const cJSON *evs,
                            int first, const char *secret, const char *path, char *why, size_t cap)
{
    pthread_mutex_lock(&l->lock);
    int seq = first, rc = 0;
    long long now = (long long)time(NULL);
    for (int i = from; i < l->n && rc == 0; i++) {
        const struct hook_req *r = &l->req[i];
        if (r->answered / 100 != 2) continue;
        char want[96];
        snprintf(want, sizeof want, "%s:%d", id, seq);
        cJSON *b = cJSON_Parse(r->body);
        const cJSON *e = cJSON_GetArrayItem(evs, seq - 1);
        long long ts = strtoll(r->ts, NULL, 10);
        if (strcmp(r->delivery, want) != 0)
            snprintf(why, cap, "request %d delivers %s, not %s", i, r->delivery, want), rc = -1;
        else if (!signature_ok(secret, r->body, r->sig))
            snprintf(why, cap, "request %d: bad signature %s", i, r->sig), rc = -1;
        else if (!std_signature_ok(secret, r))
            snprintf(why, cap, "request %d: Standard Webhooks headers id %s timestamp %s sig %s", i,
                     r->wid, r->wts, r->wsig),
                rc = -1;
        else if (!e || !cJSON_Compare(jget(b, "event"), e, 1) || strcmp(jstr(b, "game"), id) != 0 ||
                 strcmp(r->event, jstr(e, "type")) != 0)
            snprintf(why, cap, "request %d: body %.200s", i, r->body), rc = -1;
        else if (jnum(b, "timestamp") != (double)ts || ts < now - 120 || ts > now + 5)
            snprintf(why, cap, "request %d: timestamp %s", i, r->ts), rc = -1;
        else if (strncmp(r->ctype, "application/json", 16) != 0 || r->attempt < 1 ||
                 (path && strcmp(r->path, path) != 0))
            snprintf(why, cap, "request %d: %s %s attempt %d", i, r->path, r->ctype, r->attempt),
                rc = -1;
        cJSON_Delete(b);
        seq++;
    }
    pthread_mutex_unlock(&l->lock);
    return rc ? -1 : seq - first;
}

/* The webhook state of game `g` as seat `seat` sees it (caller deletes), or NULL. */
static cJSON *hook_state(const struct server *srv, const struct game *g, int seat, long *status)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/webhook", g->id);
    const char *h[] = {seat >= 0 ? g->auth[seat] : NULL, NULL};
    return get_json_as(srv, path, h, status);
}

/*
 * The creator's webhook of game `game` and how its deliveries stand, read from database
 * `db` (NULL: DATABASE_URL) in the shape GET .../webhook answers (caller deletes), or NULL.
 * No seat's token reads the creator's webhook, so the tests look at its rows.
 */
static cJSON *creator_state(const char *db, const char *game)
{
    static const char sql[] =
        "SELECT json_build_object('url', w.url, 'since', to_char(w.updated_at AT TIME ZONE "
        "'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), 'delivered', d.delivered, 'delivered_up_to', "
        "(SELECT max(seq) FROM webhook_deliveries x WHERE x.webhook_id = w.id AND "
        "(x.delivered_at IS NOT NULL OR x.gave_up) AND x.seq < coalesce(d.first_pending, "
        "2147483647)), 'pending', d.pending, 'failed', d.gave_up, 'failed_attempts', "
        "w.failed_attempts, 'last_error', CASE WHEN w.last_error IS NOT NULL THEN "
        "json_build_object('seq', w.last_error_seq, 'status', w.last_error_status, 'error', "
        "w.last_error, 'at', to_char(w.last_error_at AT TIME ZONE 'UTC', "
        "'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')) END)::text FROM webhooks w, LATERAL (SELECT "
        "count(*) FILTER (WHERE delivered_at IS NOT NULL) AS delivered, count(*) FILTER (WHERE "
        "delivered_at IS NULL AND NOT gave_up) AS pending, count(*) FILTER (WHERE gave_up) AS "
        "gave_up, min(seq) FILTER (WHERE delivered_at IS NULL AND NOT gave_up) AS first_pending "
        "FROM webhook_deliveries WHERE webhook_id = w.id) d WHERE w.game_id = $1::uuid AND "
        "w.owner = 'creator'";
    const char *url = db ? db : getenv("DATABASE_URL");
    if (!url) return NULL;
    PGconn *pg = PQconnectdb(url);
    cJSON *j = NULL;
    if (PQstatus(pg) == CONNECTION_OK) {
        const char *vals[1] = {game};
        PGresult *res = PQexecParams(pg, sql, 1, NULL, vals, NULL, NULL, 0);
        if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
            j = cJSON_Parse(PQgetvalue(res, 0, 0));
        PQclear(res);
    }
    PQfinish(pg);
    return j;
}

/*
 * Waits up to `ms` until the state of a webhook of `g` has `pending` 0 and `field` >= `n`:
 * seat `seat`'s as GET .../webhook answers it, or (seat < 0) the creator's from database
 * `db` (creator_state). Returns the last state read (caller deletes), or NULL.
 */
static cJSON *wait_state(const struct server *srv, const struct game *g, int seat, const char *db,
                         const char *field, int n, long ms)
{
    cJSON *j = NULL;
    for (long t = 0; t <= ms; t += 50) {
        long st;
        cJSON_Delete(j);
        j = seat >= 0 ? hook_state(srv, g, seat, &st) : creator_state(db, g->id);
        if (j && jnum(j, "pending") == 0 && jnum(j, field) >= n) return j;
        usleep(50000);
    }
    return j;
}

#define HOOK_DECK                                                                                  \
    "\"start\":\"D\",\"deck\":[\"K\",\"D\",\"E\",\"U\",\"V\",\"B\",\"A\",\"L\",\"K\",\"D\",\"E\"," \
    "\"U\",\"V\",\"B\",\"A\",\"L\",\"E\",\"U\",\"V\",\"B\",\"A\",\"L\"]"

/* Creates a game of two whose webhook is `url`; its secret into `secret`. 0 or -1. */
static int hook_game(const struct server *srv, const char *url, struct game *g, char *secret,
                     char *why, size_t cap)
{
    char body[1024];
    snprintf(
        body, sizeof body,
        "{\"ruleset\":\"classic\",\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}]," HOOK_DECK
        ",\"webhook\":{\"url\":\"%s\"}}",
        url);
    struct resp r;
    http(srv, "POST", "/v1/games", body, NULL, &r);
    int rc = -1;
    if (r.status != 201 || strcmp(jstr(r.json, "webhook.url"), url) != 0 ||
        strlen(jstr(r.json, "webhook.secret")) != 43 ||
        strlen(jstr(r.json, "webhook.standard_secret")) != 66 ||
        strncmp(jstr(r.json, "webhook.standard_secret"), "whsec_", 6) != 0) {
        snprintf(why, cap, "create with a webhook: %ld %.300s", r.status, r.body);
    } else {
        memset(g, 0, sizeof *g);
        snprintf(g->id, sizeof g->id, "%s", jstr(r.json, "id"));
        g->nplayers = 2;
        for (int s = 0; s < 2; s++) {
            snprintf(g->token[s], sizeof g->token[s], "%s",
                     jstr(cJSON_GetArrayItem(jget(r.json, "players"), s), "token"));
            snprintf(g->auth[s], sizeof g->auth[s], "Authorization: Bearer %s", g->token[s]);
        }
        snprintf(secret, 64, "%s", jstr(r.json, "webhook.secret"));
        rc = 0;
    }
    resp_free(&r);
    return rc;
}

/* POST /v1/games/{id}/webhook as `seat` with `body` (extra header `extra` or NULL). */
static void hook_post(const struct server *srv, const struct game *g, int seat, const char *body,
                      const char *extra, struct resp *r)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/webhook", g->id);
    const char *h[] = {seat >= 0 ? g->auth[seat] : "X-None: 1", extra, NULL};
    http(srv, "POST", path, body, h, r);
}

/* DELETE /v1/games/{id}/webhook as `seat` (-1: without a token): the status. */
static long hook_delete(const struct server *srv, const struct game *g, int seat)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/webhook", g->id);
    const char *h[] = {seat >= 0 ? g->auth[seat] : NULL, NULL};
    struct resp r;
    http(srv, "DELETE", path, NULL, h, &r);
    long st = r.status;
    if (st == 404 && strcmp(problem_code(&r), "not_found") != 0) st = -404;
    resp_free(&r);
    return st;
}

/* Sets seat `seat`'s webhook of `g` to `url` (extra header `extra` or NULL): 0 with its new
 * secret in `secret` (64 bytes), or -1 with why. */
static int seat_hook(const struct server *srv, const struct game *g, int seat, const char *url,
                     const char *extra, char *secret, char *why, size_t cap)
{
    char body[256];
    snprintf(body, sizeof body, "{\"url\":\"%s\"}", url);
    struct resp r;
    hook_post(srv, g, seat, body, extra, &r);
    int ok = r.status == 200 && strcmp(jstr(r.json, "url"), url) == 0 &&
             strlen(jstr(r.json, "secret")) == 43;
    if (ok)
        snprintf(secret, 64, "%s", jstr(r.json, "secret"));
    else
        snprintf(why, cap, "seat %d sets %s: %ld %.200s", seat, url, r.status, r.body);
    resp_free(&r);
    return ok ? 0 : -1;
}

/* 1 when the state `s` of a webhook says: `url`, `n` events delivered up to seq `upto`,
 * none waiting or failed, no secret. */
static int state_clean(const cJSON *s, const char *url, int n, int upto)
{
    return s && strcmp(jstr(s, "url"), url) == 0 && jnum(s, "delivered") == n &&
           jnum(s, "delivered_up_to") == upto && jnum(s, "pending") == 0 &&
           jnum(s, "failed") == 0 && jnum(s, "failed_attempts") == 0 &&
           cJSON_IsNull(jget(s, "last_error")) && !jget(s, "secret");
}

/* In test_webhooks: the first failed expectation goes to `why` (the test cleans up once). */
#define EXPECT(cond, ...)                                                                          \
    do {                                                                                           \
        if (ok && !(cond)) {                                                                       \
            ok = 0;                                                                                \
            snprintf(why, sizeof why, __VA_ARGS__);                                                \
        }                                                                                          \
    } while (0)

/*
 * Webhooks of one game: the creator's (at creation) and one per seat, each getting every
 * event, in order, signed with its own secret. A seat reads, replaces and removes only its
 * own: never the other seat's, never the creator's (not even shown to it); the secret is
 * shown once, not in an idempotent repeat (of the webhook's POST, nor of the creation).
 */
ITEST(test_webhooks, "webhooks: signed deliveries in order, state, replace, remove; one per seat, "
                     "each seat's own only, the creator's out of their reach")
{
    struct listener *l = listener_start(), *l0 = listener_start(), *l1 = listener_start();
    char url[128], url0[128], url1[128], url1b[128], why[400] = "", tmp[400] = "";
    char secret[64] = "", secret0[64] = "", secret1[64] = "", secret1b[64] = "";
    int ok = l && l0 && l1;
    snprintf(why, sizeof why, "no listeners");
    struct game g;
    cJSON *evs = NULL;
    int n = 0;
    if (ok) {
        snprintf(url, sizeof url, "http://127.0.0.1:%d/hook", l->port);
        snprintf(url0, sizeof url0, "http://127.0.0.1:%d/hook0", l0->port);
        snprintf(url1, sizeof url1, "http://127.0.0.1:%d/hook1", l1->port);
        snprintf(url1b, sizeof url1b, "http://127.0.0.1:%d/hook1b", l1->port);
        EXPECT(hook_game(srv, url, &g, secret, tmp, sizeof tmp) == 0, "%s", tmp);
    }
    for (int i = 0; ok && i < 3; i++)
        EXPECT(play_turn(srv, &g, 1, tmp, sizeof tmp) >= 0, "%s", tmp);
    if (ok) {
        evs = game_events(srv, g.id);
        n = cJSON_GetArraySize(evs);
        int all = listener_wait_ok(l, n, 5000);
        EXPECT(all, "%d of %d events delivered", listener_count(l), n);
    }
    if (ok) {
        int checked = check_deliveries(l, 0, g.id, evs, 1, secret, "/hook", tmp, sizeof tmp);
        EXPECT(checked == n, "%s", tmp);
        EXPECT(listener_count(l) == n, "%d deliveries more than events", listener_count(l) - n);
    }

    /* The creator's webhook: its state (read from the database), shown to no seat. */
    long st0 = 0, st1 = 0, st_none = 0;
    if (ok) {
        cJSON *s = wait_state(srv, &g, -1, NULL, "delivered", n, 3000);
        char *txt = s ? cJSON_PrintUnformatted(s) : NULL;
        EXPECT(state_clean(s, url, n, n), "the creator's state: %.300s", txt ? txt : "(none)");
        free(txt);
        cJSON_Delete(s);
        cJSON_Delete(hook_state(srv, &g, 0, &st0));
        cJSON_Delete(hook_state(srv, &g, 1, &st1));
        cJSON_Delete(hook_state(srv, &g, -1, &st_none));
        EXPECT(st0 == 404 && st1 == 404 && st_none == 401,
               "GET with only the creator's webhook: seat 0 %ld, seat 1 %ld, no token %ld", st0,
               st1, st_none);
        long del = hook_delete(srv, &g, 0);
        EXPECT(del == 404, "seat 0 deletes with only the creator's webhook: %ld", del);
    }

    /* Each seat sets its own, seat 1 with an Idempotency-Key: the repeat is the first
     * answer, its secret included (sealed under the key and the seat's token). */
    struct resp r;
    if (ok)
        EXPECT(seat_hook(srv, &g, 1, url1, "Idempotency-Key: hook-1", secret1, tmp, sizeof tmp) ==
                       0 &&
                   strcmp(secret1, secret) != 0,
               "%s", tmp);
    if (ok) {
        char body[256];
        snprintf(body, sizeof body, "{\"url\":\"%s\"}", url1);
        hook_post(srv, &g, 1, body, "Idempotency-Key: hook-1", &r);
        EXPECT(r.status == 200 && strcmp(jstr(r.json, "url"), url1) == 0 &&
                   strcmp(jstr(r.json, "secret"), secret1) == 0 && jget(r.json, "standard_secret"),
               "an idempotent repeat: %ld %.200s", r.status, r.body);
        resp_free(&r);
        EXPECT(seat_hook(srv, &g, 0, url0, NULL, secret0, tmp, sizeof tmp) == 0 &&
                   strcmp(secret0, secret1) != 0,
               "%s", tmp);
    }
    /* Each seat sees its own only. */
    if (ok) {
        cJSON *s0 = hook_state(srv, &g, 0, &st0), *s1 = hook_state(srv, &g, 1, &st1);
        EXPECT(s0 && s1 && strcmp(jstr(s0, "url"), url0) == 0 &&
                   strcmp(jstr(s1, "url"), url1) == 0 && !jget(s0, "secret") &&
                   !jget(s1, "secret") && jnum(s0, "delivered") == 0 &&
                   cJSON_IsNull(jget(s0, "delivered_up_to")),
               "GET as seat 0: %ld %s, seat 1: %ld %s", st0, jstr(s0, "url"), st1, jstr(s1, "url"));
        cJSON_Delete(s0);
        cJSON_Delete(s1);
    }

    /* A turn: every webhook gets every new event, each signed with its own secret. */
    int n2 = n;
    if (ok) EXPECT(play_turn(srv, &g, 0, tmp, sizeof tmp) >= 0, "%s", tmp);
    if (ok) {
        cJSON_Delete(evs);
        evs = game_events(srv, g.id);
        n2 = cJSON_GetArraySize(evs);
        int all = listener_wait_ok(l, n2, 5000) && listener_wait_ok(l0, n2 - n, 5000) &&
                  listener_wait_ok(l1, n2 - n, 5000);
        EXPECT(all, "after the seats set theirs: %d, %d, %d of %d events", listener_count(l),
               listener_count(l0), listener_count(l1), n2);
    }
    if (ok) {
        int c = check_deliveries(l, 0, g.id, evs, 1, secret, "/hook", tmp, sizeof tmp);
        EXPECT(c == n2, "the creator's: %s", tmp);
        int c0 = check_deliveries(l0, 0, g.id, evs, n + 1, secret0, "/hook0", tmp, sizeof tmp);
        EXPECT(c0 == n2 - n, "seat 0's: %s", tmp);
        int c1 = check_deliveries(l1, 0, g.id, evs, n + 1, secret1, "/hook1", tmp, sizeof tmp);
        EXPECT(c1 == n2 - n, "seat 1's: %s", tmp);
        cJSON *s0 = wait_state(srv, &g, 0, NULL, "delivered", n2 - n, 3000);
        cJSON *s1 = wait_state(srv, &g, 1, NULL, "delivered", n2 - n, 3000);
        char *t0 = s0 ? cJSON_PrintUnformatted(s0) : NULL;
        EXPECT(state_clean(s0, url0, n2 - n, n2) && state_clean(s1, url1, n2 - n, n2),
               "the seats' states: %.300s", t0 ? t0 : "(none)");
        free(t0);
        cJSON_Delete(s0);
        cJSON_Delete(s1);
    }

    /* Seat 1 replaces its own (a new secret): seat 0's stays as it was. */
    if (ok)
        EXPECT(seat_hook(srv, &g, 1, url1b, NULL, secret1b, tmp, sizeof tmp) == 0 &&
                   strcmp(secret1b, secret1) != 0,
               "%s", tmp);
    if (ok) {
        cJSON *s0 = hook_state(srv, &g, 0, &st0);
        EXPECT(s0 && strcmp(jstr(s0, "url"), url0) == 0, "seat 0's after seat 1 replaced: %s",
               jstr(s0, "url"));
        cJSON_Delete(s0);
    }

    /* Refusals. */
    static const struct {
        const char *body;
        long status;
        const char *code;
    } bad[] = {
        {"{\"url\":\"ftp://127.0.0.1/x\"}", 400, "invalid_webhook_url"},
        {"{\"url\":\"file:///etc/passwd\"}", 400, "invalid_webhook_url"},
        {"{\"url\":\"http://\"}", 400, "invalid_webhook_url"},
        {"{\"url\":\"http://a b/\"}", 400, "invalid_webhook_url"},
        {"{\"url\":\"\"}", 400, "invalid_webhook_url"},
        {"{\"url\":5}", 400, "invalid_body"},
        {"{}", 400, "invalid_body"},
        {"{\"url\":\"http://x/\",\"secret\":\"s\"}", 400, "unknown_field"},
        {"[", 400, "invalid_json"},
    };
    for (size_t i = 0; ok && i < sizeof bad / sizeof bad[0]; i++) {
        hook_post(srv, &g, 0, bad[i].body, NULL, &r);
        EXPECT(r.status == bad[i].status && strcmp(problem_code(&r), bad[i].code) == 0,
               "%s -> %ld %.150s", bad[i].body, r.status, r.body);
        resp_free(&r);
    }
    if (ok) {
        char body[256];
        snprintf(body, sizeof body, "{\"url\":\"%s\"}", url0);
        hook_post(srv, &g, -1, body, NULL, &r);
        long no_token = r.status;
        resp_free(&r);
        hook_post(srv, &g, 0, body, "If-Match: \"1\"", &r);
        long stale = r.status;
        resp_free(&r);
        EXPECT(no_token == 401 && stale == 412, "without a token %ld, stale If-Match %ld", no_token,
               stale);
        static const struct create_refusal bad_hooks[] = {
            {"{\"url\":\"gopher://x\"}", "invalid_webhook_url"},
            {"{\"uri\":\"http://x/\"}", "unknown_field"},
        };
        expect_create_refusals(srv,
                               "{\"ruleset\":\"classic\",\"players\":[{\"name\":\"A\"},{\"name\":"
                               "\"B\"}],\"webhook\":%s}",
                               bad_hooks, 2);
        EXPECT(!itest_failure[0], "create with a bad webhook: %.300s", itest_failure);
    }

    /* Seat 1 removes its own: 204, then 404; seat 0's and the creator's go on. */
    int b = 0, b0 = 0, b1 = 0;
    if (ok) {
        long del1 = hook_delete(srv, &g, 1), del2 = hook_delete(srv, &g, 1);
        long del_anon = hook_delete(srv, &g, -1);
        cJSON_Delete(hook_state(srv, &g, 1, &st1));
        cJSON *s0 = hook_state(srv, &g, 0, &st0);
        EXPECT(del1 == 204 && del2 == 404 && del_anon == 401 && st1 == 404 && st0 == 200 &&
                   strcmp(jstr(s0, "url"), url0) == 0,
               "seat 1's DELETE: %ld, again %ld, without a token %ld; then GET as seat 1 %ld, "
               "as seat 0 %ld %s",
               del1, del2, del_anon, st1, st0, jstr(s0, "url"));
        cJSON_Delete(s0);
        b = listener_count(l), b0 = listener_count(l0), b1 = listener_count(l1);
        EXPECT(play_turn(srv, &g, 0, tmp, sizeof tmp) >= 0, "%s", tmp);
    }
    int n3 = n2;
    if (ok) {
        cJSON_Delete(evs);
        evs = game_events(srv, g.id);
        n3 = cJSON_GetArraySize(evs);
        int all = listener_wait_ok(l, n3, 5000) && listener_wait_ok(l0, n3 - n, 5000);
        usleep(300000); /* one for seat 1 would come now */
        EXPECT(all && listener_count(l1) == b1,
               "after seat 1's DELETE: the creator's %d of %d, seat 0's %d, seat 1's %d more",
               listener_count(l), n3, listener_count(l0), listener_count(l1) - b1);
    }
    if (ok) {
        int c = check_deliveries(l, b, g.id, evs, n2 + 1, secret, "/hook", tmp, sizeof tmp);
        EXPECT(c == n3 - n2, "the creator's after seat 1's DELETE: %s", tmp);
        int c0 = check_deliveries(l0, b0, g.id, evs, n2 + 1, secret0, "/hook0", tmp, sizeof tmp);
        EXPECT(c0 == n3 - n2, "seat 0's after seat 1's DELETE: %s", tmp);
    }

    /* Seat 0 removes its own: the creator's still gets every event. */
    if (ok) {
        long del = hook_delete(srv, &g, 0), again = hook_delete(srv, &g, 0);
        EXPECT(del == 204 && again == 404, "seat 0's DELETE: %ld, again %ld", del, again);
        b = listener_count(l), b0 = listener_count(l0);
        EXPECT(play_turn(srv, &g, 0, tmp, sizeof tmp) >= 0, "%s", tmp);
    }
    if (ok) {
        cJSON_Delete(evs);
        evs = game_events(srv, g.id);
        int n4 = cJSON_GetArraySize(evs);
        int all = listener_wait_ok(l, n4, 5000);
        usleep(300000);
        int c =
            all ? check_deliveries(l, b, g.id, evs, n3 + 1, secret, "/hook", tmp, sizeof tmp) : -1;
        EXPECT(c == n4 - n3 && listener_count(l0) == b0 && listener_count(l1) == b1,
               "after both seats' DELETE: the creator's %d of %d (%s), seat 0's %d more, seat "
               "1's %d more",
               c, n4 - n3, tmp, listener_count(l0) - b0, listener_count(l1) - b1);
        cJSON *s = wait_state(srv, &g, -1, NULL, "delivered", n4, 3000);
        EXPECT(state_clean(s, url, n4, n4), "the creator's state at the end");
        cJSON_Delete(s);
    }

    /* A creation repeated with its Idempotency-Key: the first answer, tokens and secret. */
    if (ok) {
        char key[128], body[1024];
        snprintf(key, sizeof key, "Idempotency-Key: hooks-%s", g.id);
        snprintf(body, sizeof body,
                 "{\"ruleset\":\"classic\",\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],"
                 "\"webhook\":{\"url\":\"%s\"}}",
                 url);
        const char *h[] = {key, NULL};
        http(srv, "POST", "/v1/games", body, h, &r);
        char first[64], *first_body = strdup(r.body ? r.body : "");
        snprintf(first, sizeof first, "%s", jstr(r.json, "webhook.secret"));
        long st = r.status;
        resp_free(&r);
        http(srv, "POST", "/v1/games", body, h, &r);
        EXPECT(st == 201 && strlen(first) == 43 && r.status == 201 && first_body &&
                   strcmp(r.body, first_body) == 0,
               "creation %ld, its repeat %ld %.300s", st, r.status, r.body);
        free(first_body);
        resp_free(&r);
    }
    cJSON_Delete(evs);
    listener_stop(l);
    listener_stop(l0);
    listener_stop(l1);
    CHECK(ok, "%s", why);
}

/* On a database of its own: the other servers of the tests have their own retry settings,
 * and their workers would take part of these deliveries. */
ITEST(test_webhook_retries, "webhooks: retries with backoff, giving up, never delaying a move")
{
    (void)srv;
    char db[512];
    const char *env[] = {"WEBHOOK_MAX_ATTEMPTS=3", "WEBHOOK_BACKOFF_MS=50", "WEBHOOK_POLL_MS=50",
                         "WEBHOOK_TIMEOUT_MS=3000", NULL};
    struct server s;
    CHECK(hard_server_own_db(&s, "tilehall_itest_retries", env, 1, db, sizeof db) == 0,
          "the server on a database of its own did not start");
    struct listener *l = listener_start();
    char url[128], why[400] = "", secret[64];
    int rc = l ? 0 : -1;
    struct game g;
    if (l) {
        l->fail_first = 2; /* game_created: 500, 500, then 200 */
        snprintf(url, sizeof url, "http://127.0.0.1:%d/h", l->port);
        rc = hook_game(&s, url, &g, secret, why, sizeof why);
    }
    int first = rc == 0 && listener_wait_ok(l, 1, 5000);
    int attempts_ok = 0;
    if (first) {
        pthread_mutex_lock(&l->lock);
        attempts_ok =
            l->n == 3 && l->req[0].attempt == 1 && l->req[1].attempt == 2 &&
            l->req[2].attempt == 3 && l->req[0].answered == 500 && l->req[2].answered == 200 &&
            signature_ok(secret, l->req[0].body, l->req[0].sig) &&
            signature_ok(secret, l->req[2].body, l->req[2].sig) &&
            strcmp(l->req[0].delivery, l->req[2].delivery) == 0 &&
            std_signature_ok(secret, &l->req[0]) && std_signature_ok(secret, &l->req[2]) &&
            strcmp(l->req[0].wid, l->req[1].wid) == 0 && strcmp(l->req[0].wid, l->req[2].wid) == 0;
        pthread_mutex_unlock(&l->lock);
    }
    /* The creator's webhook: its state read from the database (no seat's token shows it). */
    cJSON *st = first ? wait_state(&s, &g, -1, db, "delivered", 1, 3000) : NULL;
    int state_ok = st && jnum(st, "failed_attempts") == 2 && jnum(st, "delivered") == 1 &&
                   jnum(st, "last_error.seq") == 1 && jnum(st, "last_error.status") == 500 &&
                   strcmp(jstr(st, "last_error.error"), "HTTP 500") == 0 &&
                   strlen(jstr(st, "last_error.at")) == 20;
    cJSON_Delete(st);

    /* Always 503: each event is given up after 3 attempts, in order, and counts as done. */
    int gave_up = 0;
    if (l && state_ok) {
        pthread_mutex_lock(&l->lock);
        l->status = 503;
        pthread_mutex_unlock(&l->lock);
        rc = play_turn(&s, &g, 0, why, sizeof why) < 0 ? -1 : 0;
        int v = game_version(&s, &g);
        cJSON *evs = game_events(&s, g.id);
        int n = cJSON_GetArraySize(evs);
        cJSON_Delete(evs);
        st = wait_state(&s, &g, -1, db, "failed", n - 1, 8000);
        gave_up = rc == 0 && v > 0 && st && jnum(st, "failed") == n - 1 &&
                  jnum(st, "delivered_up_to") == n && jnum(st, "pending") == 0 &&
                  jnum(st, "last_error.status") == 503;
        if (!gave_up) {
            char *t = st ? cJSON_PrintUnformatted(st) : NULL;
            snprintf(why, sizeof why, "%d events: %.300s", n, t ? t : "(none)");
            free(t);
        }
        cJSON_Delete(st);
    }

    /* A listener that takes 2.5 s to answer (under WEBHOOK_TIMEOUT_MS): moves are answered
     * at once all the same (a turn behind the delivery would take 2.5 s; a sanitizer's
     * server on a busy machine may take most of a second anyway). */
    long long slowest = -1;
    if (l && gave_up) {
        pthread_mutex_lock(&l->lock);
        l->status = 0;
        l->delay_ms = 2500;
        pthread_mutex_unlock(&l->lock);
        slowest = 0;
        for (int i = 0; i < 2; i++) {
            long long t0 = hard_now_ms();
            if (play_turn(&s, &g, 0, why, sizeof why) < 0) {
                rc = -1;
                break;
            }
            if (hard_now_ms() - t0 > slowest) slowest = hard_now_ms() - t0;
        }
    }
    int code = hard_server_stop(&s); /* with a delivery in flight: it is cut short */
    listener_stop(l);
    CHECK(l, "no listener");
    CHECK(rc == 0, "%s", why);
    CHECK(first && attempts_ok,
          "retries of game_created: delivered %d, attempts (and one webhook-id) as expected %d",
          first, attempts_ok);
    CHECK(state_ok, "the state after two failed attempts");
    CHECK(gave_up, "giving up: %s", why);
    long long bound = hard_san_ms(1000, 2000);
    CHECK(slowest >= 0 && slowest < bound, "a turn took %lld ms with a slow webhook", slowest);
    CHECK(code == 0, "the server exited with %d", code);
}

ITEST(test_webhook_servers, "webhooks: two servers share the deliveries, each once")
{
    struct server two;
    CHECK(hard_server_start(&two, NULL, 0) == 0, "the second server did not start");
    struct listener *l = listener_start();
    char url[128], why[400] = "", secret[64];
    struct game g;
    int rc = l ? 0 : -1;
    if (l) {
        snprintf(url, sizeof url, "http://127.0.0.1:%d/x", l->port);
        rc = hook_game(srv, url, &g, secret, why, sizeof why);
    }
    for (int i = 0; rc == 0 && i < 8; i++)
        if (play_turn(i % 2 ? srv : &two, &g, 1, why, sizeof why) < 0) rc = -1;
    cJSON *evs = rc == 0 ? game_events(srv, g.id) : NULL;
    int n = cJSON_GetArraySize(evs);
    int all = rc == 0 && listener_wait_ok(l, n, 8000);
    usleep(300000); /* a duplicate would come now */
    int checked = all ? check_deliveries(l, 0, g.id, evs, 1, secret, "/x", why, sizeof why) : -1;
    int total = l ? listener_count(l) : 0;
    cJSON_Delete(evs);
    listener_stop(l);
    int code = hard_server_stop(&two);
    CHECK(rc == 0, "%s", why);
    CHECK(all && checked == n && total == n, "%d requests for %d events, %d checked: %s", total, n,
          checked, why);
    CHECK(code == 0, "the second server exited with %d", code);
}

/*
 * A server without WEBHOOK_ALLOW_PRIVATE refuses private addresses: IP literals when the
 * URL is set, names when they resolve to one (at each connection). On a database of its
 * own, so that no other server's workers (which the tests allow) deliver for it.
 */
ITEST(test_webhook_private, "webhooks: private addresses refused unless allowed")
{
    (void)srv;
    char db[512];
    const char *env[] = {"WEBHOOK_ALLOW_PRIVATE=0", "WEBHOOK_MAX_ATTEMPTS=1", NULL};
    struct server s;
    CHECK(hard_server_own_db(&s, "tilehall_itest_private", env, 1, db, sizeof db) == 0,
          "the server on a database of its own did not start");
    struct listener *l = listener_start();
    char url[128], why[400] = "", secret[64], got_lit[300] = "";
    struct game g;
    int rc = l ? 0 : -1, literals = 0;
    /* The last: an address of this host's own (not loopback), when it has one. */
    static const char *const lits[] = {"http://127.0.0.1:%d/x",
                                       "http://[::1]:%d/x",
                                       "http://10.1.2.3:%d/x",
                                       "https://192.168.0.1:%d/",
                                       "http://169.254.169.254:%d/latest",
                                       "http://[::127.0.0.1]:%d/",
                                       "http://[::ffff:127.0.0.1]:%d/",
                                       "http://[::ffff:0:127.0.0.1]:%d/",
                                       "http://[64:ff9b::a9fe:a9fe]:%d/",
                                       "http://[2002:7f00:1::1]:%d/",
                                       "http://[fec0::1]:%d/",
                                       "http://192.0.0.8:%d/",
                                       "http://198.18.0.1:%d/",
                                       "http://198.19.255.255:%d/",
                                       "http://100.64.0.1:%d/",
                                       "http://0.0.0.0:%d/",
                                       "http://%s:%d/"};
    size_t nlits = sizeof lits / sizeof lits[0];
    char own[INET_ADDRSTRLEN] = "";
    struct ifaddrs *ifs = NULL;
    if (getifaddrs(&ifs) == 0) {
        for (const struct ifaddrs *i = ifs; i && !own[0]; i = i->ifa_next) {
            if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET) continue;
            const struct in_addr *a = &((const struct sockaddr_in *)i->ifa_addr)->sin_addr;
            if ((ntohl(a->s_addr) >> 24) != 127) inet_ntop(AF_INET, a, own, sizeof own);
        }
        freeifaddrs(ifs);
    }
    if (!own[0]) nlits--;
    for (size_t i = 0; l && i < nlits; i++) {
        char u[96], body[512];
        if (i == sizeof lits / sizeof lits[0] - 1)
            snprintf(u, sizeof u, lits[i], own, l->port);
        else
            snprintf(u, sizeof u, lits[i], l->port);
        snprintf(body, sizeof body,
                 "{\"ruleset\":\"classic\",\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],"
                 "\"webhook\":{\"url\":\"%s\"}}",
                 u);
        struct resp r;
        http(&s, "POST", "/v1/games", body, NULL, &r);
        if (r.status == 400 && strcmp(problem_code(&r), "invalid_webhook_url") == 0)
            literals++;
        else
            snprintf(got_lit, sizeof got_lit, "%s: %ld %.200s", u, r.status, r.body);
        resp_free(&r);
    }
    if (l) {
        snprintf(url, sizeof url, "http://localhost:%d/x", l->port);
        rc = hook_game(&s, url, &g, secret, why, sizeof why);
    }
    /* The creator's webhook: its state read from the database (no seat's token shows it). */
    cJSON *st = rc == 0 ? wait_state(&s, &g, -1, db, "failed", 1, 5000) : NULL;
    int refused = st && jnum(st, "failed") == 1 && jnum(st, "delivered") == 0 &&
                  cJSON_IsNull(jget(st, "last_error.status")) &&
                  strcmp(jstr(st, "last_error.error"), "no public address") == 0;
    char *t = st ? cJSON_PrintUnformatted(st) : NULL;
    char state[320];
    snprintf(state, sizeof state, "%.300s", t ? t : "(none)");
    free(t);
    cJSON_Delete(st);
    /* A seat's webhook to the same name: what the seat reads is as generic. */
    int seat_refused = 0;
    char seat_state[320] = "(none)";
    if (rc == 0 && refused) {
        char seat_secret[64];
        snprintf(url, sizeof url, "http://localhost:%d/seat", l->port);
        rc = seat_hook(&s, &g, 0, url, NULL, seat_secret, why, sizeof why);
        if (rc == 0 && play_turn(&s, &g, 0, why, sizeof why) < 0) rc = -1;
        st = rc == 0 ? wait_state(&s, &g, 0, NULL, "failed", 1, 5000) : NULL;
        seat_refused = st && jnum(st, "failed") >= 1 && jnum(st, "delivered") == 0 &&
                       cJSON_IsNull(jget(st, "last_error.status")) &&
                       strcmp(jstr(st, "last_error.error"), "no public address") == 0;
        t = st ? cJSON_PrintUnformatted(st) : NULL;
        snprintf(seat_state, sizeof seat_state, "%.300s", t ? t : "(none)");
        free(t);
        cJSON_Delete(st);
    }
    int got = l ? listener_count(l) : -1;
    listener_stop(l);
    int code = hard_server_stop(&s);
    CHECK(l, "no listener");
    CHECK(literals == (int)nlits, "IP literals refused: %d of %zu: %s", literals, nlits, got_lit);
    CHECK(rc == 0, "%s", why);
    CHECK(refused && got == 0, "a webhook to localhost: %d requests arrived; state %s", got, state);
    CHECK(seat_refused, "a seat's webhook to localhost: state %s", seat_state);
    CHECK(code == 0, "the server exited with %d", code);
}

/* A server of the tarpit tests, on a fresh database `name` of its own (its URL into `db`,
 * `cap` bytes): a delivery given up after 10 s, at most 4 of one host's at once, a host
 * skipped for 20 s after 3 failures in a row, and the setting `extra`. 0 or -1. */
static int tarpit_server(struct server *s, const char *name, const char *extra, char *db,
                         size_t cap)
{
    const char *env[] = {"WEBHOOK_TIMEOUT_MS=10000",
                         "WEBHOOK_PER_HOST=4",
                         "WEBHOOK_BREAKER_FAILURES=3",
                         "WEBHOOK_BREAKER_MS=20000",
                         extra,
                         NULL};
    return hard_server_own_db(s, name, env, 1, db, cap);
}

#define TARPIT_MAX   128  /* listeners of a tarpit */
#define TARPIT_CONNS 1024 /* connections it holds at most (more are closed at once) */

/* Receivers that never answer: listeners on 127.0.<net>.1, .2, ... that accept every
 * connection and then hold it without a word (hold), or close it at once (!hold). */
struct tarpit {
    int n;                     /* listeners */
    int fd[TARPIT_MAX];        /* their sockets */
    int port[TARPIT_MAX];      /* and ports */
    char ip[TARPIT_MAX][16];   /* and addresses */
    int hold;                  /* 1: hold connections; 0: close them on accept */
    pthread_t thread;          /* the poll loop */
    atomic_int stop;           /* 1: end */
    pthread_mutex_t lock;      /* guards what follows */
    int conn[TARPIT_CONNS];    /* connections held */
    int conn_of[TARPIT_CONNS]; /* the listener of each */
    int nconn;                 /* how many */
    int open[TARPIT_MAX];      /* connections open now, per listener */
    int peak[TARPIT_MAX];      /* open at once at most */
    int total[TARPIT_MAX];     /* accepted in all */
};

static void *tarpit_main(void *p)
{
    struct tarpit *t = p;
    static __thread struct pollfd pf[TARPIT_MAX + TARPIT_CONNS];
    while (!atomic_load(&t->stop)) {
        pthread_mutex_lock(&t->lock);
        int np = 0;
        for (int i = 0; i < t->n; i++) pf[np++] = (struct pollfd){t->fd[i], POLLIN, 0};
        for (int i = 0; i < t->nconn; i++) pf[np++] = (struct pollfd){t->conn[i], POLLIN, 0};
        pthread_mutex_unlock(&t->lock);
        if (poll(pf, (nfds_t)np, 100) <= 0) continue;
        pthread_mutex_lock(&t->lock);
        for (int i = 0; i < t->n; i++) {
            if (!(pf[i].revents & POLLIN)) continue;
            int c = accept(t->fd[i], NULL, NULL);
            if (c < 0) continue;
            t->total[i]++;
            if (!t->hold || t->nconn == TARPIT_CONNS) {
                close(c);
                continue;
            }
            t->conn[t->nconn] = c;
            t->conn_of[t->nconn++] = i;
            if (++t->open[i] > t->peak[i]) t->peak[i] = t->open[i];
        }
        /* Connections of this round (pf[t->n ..]) that the client closed; the request
         * bytes are read and dropped. Held ones arrived after the poll are kept for later. */
        for (int k = np - 1; k >= t->n; k--) {
            if (!(pf[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            char buf[4096];
            ssize_t r = read(pf[k].fd, buf, sizeof buf);
            if (r > 0) continue;
            int j = k - t->n;
            close(t->conn[j]);
            t->open[t->conn_of[j]]--;
            t->nconn--;
            t->conn[j] = t->conn[t->nconn];
            t->conn_of[j] = t->conn_of[t->nconn];
        }
        pthread_mutex_unlock(&t->lock);
    }
    return NULL;
}

static void tarpit_stop(struct tarpit *t)
{
    if (!t) return;
    if (t->thread) {
        atomic_store(&t->stop, 1);
        pthread_join(t->thread, NULL);
    }
    for (int i = 0; i < t->nconn; i++) close(t->conn[i]);
    for (int i = 0; i < t->n; i++) close(t->fd[i]);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

/* Starts `n` tarpit listeners on 127.0.<net>.1 ... .n (loopback: all of 127/8 is local);
 * NULL on failure. */
static struct tarpit *tarpit_start(int net, int n, int hold)
{
    struct tarpit *t = calloc(1, sizeof *t);
    if (!t || n > TARPIT_MAX || n > 254) {
        free(t);
        return NULL;
    }
    pthread_mutex_init(&t->lock, NULL);
    t->hold = hold;
    for (int i = 0; i < n; i++) {
        snprintf(t->ip[i], sizeof t->ip[i], "127.0.%d.%d", net, i + 1);
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in a = {0};
        a.sin_family = AF_INET;
        socklen_t alen = sizeof a;
        if (fd < 0 || inet_pton(AF_INET, t->ip[i], &a.sin_addr) != 1 ||
            bind(fd, (struct sockaddr *)&a, sizeof a) ||
            getsockname(fd, (struct sockaddr *)&a, &alen) || listen(fd, 64)) {
            if (fd >= 0) close(fd);
            tarpit_stop(t);
            return NULL;
        }
        t->fd[i] = fd;
        t->port[i] = ntohs(a.sin_port);
        t->n++;
    }
    if (pthread_create(&t->thread, NULL, tarpit_main, t) != 0) {
        t->thread = 0;
        tarpit_stop(t);
        return NULL;
    }
    return t;
}

/* Reads listener `i` of the tarpit: connections open at once at most, accepted in all. */
static void tarpit_counts(struct tarpit *t, int i, int *peak, int *total)
{
    pthread_mutex_lock(&t->lock);
    *peak = t->peak[i];
    *total = t->total[i];
    pthread_mutex_unlock(&t->lock);
}

/* hook_game(), again after a second while creation is rate limited (429, for up to 2
 * minutes in all); *sent_ms (if not NULL) gets when the request that made it was sent. */
static int hook_game_patient(const struct server *s, const char *url, struct game *g, char *secret,
                             long long *sent_ms, char *why, size_t cap)
{
    for (int tries = 0;; tries++) {
        long long t0 = hard_now_ms();
        if (hook_game(s, url, g, secret, why, cap) == 0) {
            if (sent_ms) *sent_ms = t0;
            return 0;
        }
        if (tries >= 120 || !strstr(why, "create with a webhook: 429")) return -1;
        sleep(1);
    }
}

/* Creates `n` games whose webhook is `url`. 0, or -1 with why. */
static int hook_games(const struct server *s, const char *url, int n, char *why, size_t cap)
{
    for (int i = 0; i < n; i++) {
        struct game g;
        char secret[64];
        if (hook_game_patient(s, url, &g, secret, NULL, why, cap)) return -1;
    }
    return 0;
}

/* Creates a game with its webhook on `l` and measures how long its first delivery (its
 * game_created) takes to arrive: ms, or -1 when nothing came within `wait_ms`. */
static long long healthy_delay(const struct server *s, struct listener *l, long wait_ms, char *why,
                               size_t cap)
{
    char url[128], secret[64];
    struct game g;
    snprintf(url, sizeof url, "http://127.0.0.1:%d/healthy", l->port);
    int before = 0;
    pthread_mutex_lock(&l->lock);
    for (int i = 0; i < l->n; i++) before += l->req[i].answered / 100 == 2;
    pthread_mutex_unlock(&l->lock);
    long long t0;
    if (hook_game_patient(s, url, &g, secret, &t0, why, cap)) return -1;
    for (;;) {
        if (listener_wait_ok(l, before + 1, 0)) return hard_now_ms() - t0;
        if (hard_now_ms() - t0 > wait_ms) return -1;
        usleep(5000);
    }
}

/*
 * Head-of-line blocking: ITEST_TARPITS (100) games whose receivers (one host each) accept
 * and never answer, then a game whose receiver answers at once: its first delivery comes
 * within 2 s (before the multi interface it waited for the tarpits' 10 s timeouts, two at
 * a time). Then 12 games on one such host: at most WEBHOOK_PER_HOST (4) of their
 * deliveries are in flight at once; and 12 games on a host that closes every connection:
 * after WEBHOOK_BREAKER_FAILURES (3) failures in a row the host is skipped (its deliveries
 * rescheduled), so that it sees a few connections, not one per retry. On a database of
 * its own (the main server's workers would take part of these deliveries).
 */
ITEST(test_webhook_tarpits, "webhooks: receivers that never answer delay no other game (tarpits)")
{
    (void)srv;
    int ntar = (int)hard_knob("ITEST_TARPITS", 100);
    long wait_ms = hard_knob("ITEST_TARPIT_WAIT_MS", 20000);
    char db[512];
    struct server s;
    CHECK(tarpit_server(&s, "tilehall_itest_tarpits", "WEBHOOK_MAX_ATTEMPTS=8", db, sizeof db) == 0,
          "the server on a database of its own did not start");
    struct tarpit *many = tarpit_start(1, ntar, 1);
    struct tarpit *one = tarpit_start(2, 1, 1);
    struct tarpit *shut = tarpit_start(3, 1, 0);
    struct listener *l = listener_start();
    char url[128], why[400] = "";
    int rc = many && one && shut && l ? 0 : -1;
    snprintf(why, sizeof why, "no tarpits or listener");
    for (int i = 0; rc == 0 && i < ntar; i++) {
        snprintf(url, sizeof url, "http://%s:%d/tarpit", many->ip[i], many->port[i]);
        rc = hook_games(&s, url, 1, why, sizeof why);
    }
    long long delay = rc == 0 ? healthy_delay(&s, l, wait_ms, why, sizeof why) : -1;
    printf("  webhooks: the healthy game's first delivery came after %lld ms, behind %d "
           "receivers that never answer\n",
           delay, ntar);

    /* 12 games on one host that never answers: 4 connections at once at most. */
    int peak = 0, total = 0;
    if (rc == 0 && delay >= 0) {
        snprintf(url, sizeof url, "http://%s:%d/one", one->ip[0], one->port[0]);
        rc = hook_games(&s, url, 12, why, sizeof why);
        usleep(1500000);
        tarpit_counts(one, 0, &peak, &total);
    }
    /* 12 games on a host that closes every connection: the breaker opens after 3. */
    int shut_peak = 0, shut_total = 0;
    long long delay2 = -1;
    if (rc == 0 && delay >= 0) {
        snprintf(url, sizeof url, "http://%s:%d/shut", shut->ip[0], shut->port[0]);
        rc = hook_games(&s, url, 12, why, sizeof why);
        usleep(2000000);
        tarpit_counts(shut, 0, &shut_peak, &shut_total);
        delay2 = rc == 0 ? healthy_delay(&s, l, wait_ms, why, sizeof why) : -1;
        printf("  webhooks: one host, 12 games: %d connections at once at most; a host that "
               "closes them: %d connections in 2 s; then a healthy game's delivery after "
               "%lld ms\n",
               peak, shut_total, delay2);
    }
    int code = hard_server_stop(&s);
    tarpit_stop(many);
    tarpit_stop(one);
    tarpit_stop(shut);
    listener_stop(l);
    CHECK(rc == 0, "%s", why);
    CHECK(delay >= 0 && delay < 2000, "the healthy game's first delivery: %lld ms (goal < 2000)",
          delay);
    CHECK(total >= 4 && peak <= 4, "one host: %d connections at once (at most 4), %d in all", peak,
          total);
    CHECK(shut_total >= 3 && shut_total <= 7,
          "a host that closes connections got %d of them in 2 s (breaker after 3)", shut_total);
    CHECK(delay2 >= 0 && delay2 < 2000, "the second healthy delivery: %lld ms", delay2);
    CHECK(code == 0, "the server exited with %d", code);
}

/*
 * The circuit breaker, closed again: a receiver that closes every connection unanswered
 * opens it after WEBHOOK_BREAKER_FAILURES (2) attempts; its other games' deliveries wait
 * without being attempted; once it answers again, the first try after WEBHOOK_BREAKER_MS
 * (3 s) closes the breaker and every game's event arrives, those that waited as their
 * first attempt. On a database of its own.
 */
ITEST(test_webhook_breaker,
      "webhooks: a failing host is skipped (circuit breaker), then served again")
{
    (void)srv;
    char db[512];
    const char *env[] = {"WEBHOOK_PER_HOST=1", "WEBHOOK_BREAKER_FAILURES=2",
                         "WEBHOOK_BREAKER_MS=3000", "WEBHOOK_MAX_ATTEMPTS=20", NULL};
    struct server s;
    CHECK(hard_server_own_db(&s, "tilehall_itest_breaker", env, 1, db, sizeof db) == 0,
          "the server on a database of its own did not start");
    struct listener *l = listener_start();
    char url[128], why[400] = "";
    int rc = l ? 0 : -1, early = -1, arrived = 0, firsts = 0, n = 0;
    snprintf(why, sizeof why, "no listener");
    if (l) {
        l->close_all = 1;
        snprintf(url, sizeof url, "http://127.0.0.1:%d/b", l->port);
        rc = hook_games(&s, url, 6, why, sizeof why);
    }
    if (rc == 0) {
        usleep(700000); /* the breaker is open after 2 connections, for 3 s */
        pthread_mutex_lock(&l->lock);
        early = l->accepted;
        l->close_all = 0;
        pthread_mutex_unlock(&l->lock);
        arrived = listener_wait_ok(l, 6, 10000);
        pthread_mutex_lock(&l->lock);
        n = l->n;
        for (int i = 0; i < l->n; i++) firsts += l->req[i].attempt == 1;
        pthread_mutex_unlock(&l->lock);
    }
    int code = hard_server_stop(&s);
    listener_stop(l);
    printf("  webhooks: breaker: %d connections before it opened; then %d requests, %d of "
           "them first attempts\n",
           early, n, firsts);
    CHECK(rc == 0, "%s", why);
    CHECK(early >= 2 && early <= 3, "%d connections to a closing host (breaker after 2)", early);
    CHECK(arrived && n == 6 && firsts >= 3, "after it answered: %d requests, %d first attempts", n,
          firsts);
    CHECK(code == 0, "the server exited with %d", code);
}

/* Runs the psql script `sql` on database `db` in one transaction, with psql variable
 * game=`game`. 0 or -1. */
int psql_run(const char *db, const char *game, const char *sql)
{
    char file[] = "/tmp/tilehall-itest-sqlXXXXXX";
    int fd = mkstemp(file);
    if (fd < 0) return -1;
    size_t len = strlen(sql);
    int rc = write(fd, sql, len) == (ssize_t)len ? 0 : -1;
    close(fd);
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "psql '%s' -X -q -v ON_ERROR_STOP=1 -v game=%s -1 -f %s >/dev/null 2>&1", db, game,
             file);
    if (rc == 0 && (strchr(db, '\'') || system(cmd) != 0)) rc = -1;
    unlink(file);
    return rc;
}

/*
 * The migration to several webhooks per game (0006): a database whose game has a webhook
 * in the shape of before (one per game, any seat's: migrations 0003 and 0005, the last
 * event still due) is migrated by the next server; that webhook is then the creator's:
 * the event still due arrives, and so does every later one, signed with the same secret;
 * no seat sees or removes it. The old shape is made from the old migration files on a
 * database of its own: a server makes the game, then its webhook rows are dropped and made
 * again as 0003 and 0005 made them.
 */
ITEST(test_webhook_migration,
      "webhooks: the migration to one per owner keeps a game's deliveries (the creator's)")
{
    (void)srv;
    char db[512];
    struct server s;
    CHECK(hard_server_own_db(&s, "tilehall_itest_hookmig", NULL, 1, db, sizeof db) == 0,
          "the server on a database of its own did not start");
    struct listener *l = listener_start();
    char url[128], why[400] = "no listener", secret[64];
    struct game g;
    int rc = l ? 0 : -1, n = 0;
    if (l) {
        snprintf(url, sizeof url, "http://127.0.0.1:%d/old", l->port);
        rc = hook_game(&s, url, &g, secret, why, sizeof why);
    }
    if (rc == 0 && play_turn(&s, &g, 0, why, sizeof why) < 0) rc = -1;
    cJSON *evs = rc == 0 ? game_events(&s, g.id) : NULL;
    n = cJSON_GetArraySize(evs);
    if (rc == 0 && !listener_wait_ok(l, n, 5000)) {
        snprintf(why, sizeof why, "%d of %d events delivered before", listener_count(l), n);
        rc = -1;
    }
    int code1 = hard_server_stop(&s);
    /* Back to the shape of before 0006, the last event due again (and before 0028 and 0034,
     * which build on 0006's tables: run again after it). */
    static const char downgrade[] =
        "CREATE TEMP TABLE keep AS SELECT game_id, url, secret FROM webhooks;\n"
        "DROP TABLE webhook_deliveries;\n"
        "DROP TABLE webhooks;\n"
        "ALTER TABLE people DROP COLUMN webhook_format;\n"
        "DROP FUNCTION tournament_event_put(uuid, text, jsonb);\n"
        "DELETE FROM schema_migrations WHERE version IN (6, 28, 34);\n"
        "\\i migrations/0003_webhooks.sql\n"
        "\\i migrations/0005_webhook_hosts.sql\n"
        "INSERT INTO webhooks (game_id, url, secret) SELECT game_id, url, secret FROM keep;\n"
        "INSERT INTO webhook_deliveries (game_id, seq, attempts, delivered_at, last_status) "
        "SELECT game_id, seq, 1, now(), 200 FROM events WHERE game_id = :'game' "
        "AND seq < (SELECT max(seq) FROM events WHERE game_id = :'game');\n"
        "INSERT INTO webhook_deliveries (game_id, seq) SELECT game_id, max(seq) FROM events "
        "WHERE game_id = :'game' GROUP BY game_id;\n";
    if (rc == 0 && psql_run(db, g.id, downgrade)) {
        snprintf(why, sizeof why, "the old shape could not be made (psql)");
        rc = -1;
    }
    long delivered = -1;
    int before = l ? listener_count(l) : 0, again = 0, later = 0, checked = -1;
    long st0 = 0, del0 = 0;
    if (rc == 0 && hard_server_on_db(&s, db, NULL, 1) != 0) {
        snprintf(why, sizeof why, "the server did not start on the old shape");
        rc = -1;
    } else if (rc == 0) {
        /* Migrated: the event still due arrives again, with the secret of before. */
        again = listener_wait_ok(l, n + 1, 5000);
        cJSON *st = wait_state(&s, &g, -1, db, "delivered", n, 3000);
        delivered = st ? (long)jnum(st, "delivered") : -1;
        cJSON_Delete(st);
        cJSON_Delete(hook_state(&s, &g, 0, &st0));
        del0 = hook_delete(&s, &g, 0);
        if (play_turn(&s, &g, 0, why, sizeof why) < 0) rc = -1;
        cJSON_Delete(evs);
        evs = rc == 0 ? game_events(&s, g.id) : NULL;
        int n2 = cJSON_GetArraySize(evs);
        later = rc == 0 && listener_wait_ok(l, n2 + 1, 5000);
        checked = later ? check_deliveries(l, before + 1, g.id, evs, n + 1, secret, "/old", why,
                                           sizeof why)
                        : -1;
        if (checked == n2 - n) checked = 1;
        int again_ok = 0;
        pthread_mutex_lock(&l->lock);
        if (l->n > before) {
            char want[96];
            snprintf(want, sizeof want, "%s:%d", g.id, n);
            again_ok = strcmp(l->req[before].delivery, want) == 0 &&
                       signature_ok(secret, l->req[before].body, l->req[before].sig);
        }
        pthread_mutex_unlock(&l->lock);
        again = again && again_ok;
        int code2 = hard_server_stop(&s);
        if (code2 != 0) {
            snprintf(why, sizeof why, "the server on the migrated database exited with %d", code2);
            rc = -1;
        }
    }
    cJSON_Delete(evs);
    listener_stop(l);
    CHECK(code1 == 0, "the first server exited with %d", code1);
    CHECK(rc == 0, "%s", why);
    CHECK(again, "the event due at the migration was not delivered again, signed as before");
    CHECK(delivered == n, "the creator's webhook after the migration: %ld delivered of %d",
          delivered, n);
    CHECK(st0 == 404 && del0 == 404, "the migrated webhook to seat 0: GET %ld, DELETE %ld", st0,
          del0);
    CHECK(later && checked == 1, "later events after the migration: %s", why);
}

enum { SPELLINGS = 40 /* host names of one tarpit address */ };

/*
 * Many host names, one address (issue 29, finding 9: 300 tarpit host names delayed a
 * healthy game's first delivery 7-8 s): SPELLINGS games whose webhooks name one receiver
 * that never answers, each by a host name of its own (the spellings of one IPv4 address:
 * "127.0.4.1", "127.00.4.1", "0x7f.0.04.1" ... all dial 127.0.4.1), on a server of
 * WEBHOOK_IN_FLIGHT=16 slots. The per-host limit (WEBHOOK_PER_HOST=4) and breaker hold per
 * address dialled: the receiver sees at most 4 connections at once, and a healthy game's
 * first delivery does not wait for the tarpit's timeouts. On a database of its own.
 */
ITEST(test_webhook_one_address,
      "webhooks: many host names of one address share its limit and breaker")
{
    (void)srv;
    long wait_ms = hard_knob("ITEST_TARPIT_WAIT_MS", 20000);
    char db[512];
    struct server s;
    CHECK(tarpit_server(&s, "tilehall_itest_spellings", "WEBHOOK_IN_FLIGHT=16", db, sizeof db) == 0,
          "the server on a database of its own did not start");
    struct tarpit *t = tarpit_start(4, 1, 1);
    struct listener *l = listener_start();
    char url[160], why[400] = "";
    int rc = t && l ? 0 : -1;
    snprintf(why, sizeof why, "no tarpit or listener");
    /* The spellings of 127.0.4.1: each part in decimal, with leading zeros, or in hex. */
    static const char *const a[] = {"127", "0x7f", "0177"};
    static const char *const b[] = {"0", "00", "000", "0x0"};
    static const char *const c[] = {"4", "04", "004", "0x4"};
    static const char *const d[] = {"1", "01", "001", "0x1"};
    int made = 0;
    for (int i = 0; rc == 0 && made < SPELLINGS && i < 3 * 4 * 4 * 4; i++, made++) {
        snprintf(url, sizeof url, "http://%s.%s.%s.%s:%d/spelling", a[i % 3], b[i / 3 % 4],
                 c[i / 12 % 4], d[i / 48 % 4], t->port[0]);
        rc = hook_games(&s, url, 1, why, sizeof why);
    }
    usleep(500000);
    long long delay = rc == 0 ? healthy_delay(&s, l, wait_ms, why, sizeof why) : -1;
    int peak = 0, total = 0;
    if (t) tarpit_counts(t, 0, &peak, &total);
    printf("  webhooks: %d host names of one address that never answers: %d connections at "
           "once at most (%d in all); a healthy game's first delivery after %lld ms\n",
           made, peak, total, delay);
    int code = hard_server_stop(&s);
    tarpit_stop(t);
    listener_stop(l);
    CHECK(rc == 0, "%s", why);
    CHECK(peak <= 4 && total >= 1, "one address: %d connections at once (at most 4), %d in all",
          peak, total);
    CHECK(delay >= 0 && delay < 2000, "the healthy game's first delivery: %lld ms (goal < 2000)",
          delay);
    CHECK(code == 0, "the server exited with %d", code);
}
