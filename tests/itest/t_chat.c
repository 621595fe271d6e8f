/* t_chat.c: talk, blocks and the operator (issue 28): a game's chat (post, read, the long
 * poll woken by a message on another server, the stream), every limit and refusal (length,
 * controls, rate, wrong token, spectators of a private chat), the version and ETag never
 * moved by a message, blocks (hidden for the blocker only), reports and the operator
 * (without or with a wrong token, hide, suspend and reinstate, every action logged with
 * its request id), a suspended player's seats (played by the clock's timeout rule, or
 * resigned), and the export with the messages. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "db.h"
#include "hard.h"
#include "tests.h"

#define ADMIN_TOKEN "itest-operator-token-0123456789abcdef"
#define ADMIN_AUTH  "Authorization: Bearer " ADMIN_TOKEN

/* Two named seats: the simplest game with a private chat. */
#define CHAT_GAME "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}]}"

/* `method` `path` with `body` (or none) and the header line `auth` (or none) into `r`;
 * returns the status. */
static long req(const struct server *srv, const char *method, const char *path, const char *body,
                const char *auth, struct resp *r)
{
    const char *h[] = {auth, NULL};
    http(srv, method, path, body, auth ? h : NULL, r);
    return r->status;
}

/* POST /v1/games/{id}/chat with `body` as `auth`: the status, and the problem's code (or
 * "") into `code`. */
static long post_chat(const struct server *srv, const char *id, const char *body, const char *auth,
                      char *code, size_t cap)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/chat", id);
    struct resp r;
    long st = req(srv, "POST", path, body, auth, &r);
    snprintf(code, cap, "%s", st >= 400 ? problem_code(&r) : "");
    resp_free(&r);
    return st;
}

/* GET /v1/games/{id}/chat?<query> as `auth` into `r`; the status. */
static long get_chat(const struct server *srv, const char *id, const char *query, const char *auth,
                     struct resp *r)
{
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s/chat%s%s", id, query[0] ? "?" : "", query);
    return req(srv, "GET", path, NULL, auth, r);
}

/* Messages stored for game `id`. */
static long stored_messages(const char *id)
{
    const char *v[] = {id};
    return db_scalar_params("SELECT count(*) FROM chat_messages WHERE game_id = $1::uuid", 1, v);
}

ITEST(test_chat_post_read, "chat: post and read, the sender's seat and name, version and ETag kept")
{
    struct game g;
    NEW_GAME(&g, CHAT_GAME);
    char path[160], code[64];
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    struct resp r;
    req(srv, "GET", path, NULL, NULL, &r);
    char etag[64];
    snprintf(etag, sizeof etag, "%s", r.etag);
    int version = (int)jnum(r.json, "version");
    char chat[16];
    snprintf(chat, sizeof chat, "%s", jstr(r.json, "chat"));
    resp_free(&r);
    CHECK(strcmp(chat, "private") == 0, "the state says chat %s, not private", chat);
    long events = db_scalar_params("SELECT count(*) FROM events WHERE game_id = $1::uuid", 1,
                                   (const char *[]){g.id});

    /* A line feed is allowed; the answer is the message with its seq, seat and name. */
    snprintf(path, sizeof path, "/v1/games/%s/chat", g.id);
    long st =
        req(srv, "POST", path, "{\"text\":\"Hello\\nthere \xf0\x9f\x8e\xb2\"}", g.auth[0], &r);
    int seq = (int)jnum(r.json, "seq"), seat = (int)jnum(r.json, "seat");
    char name[32], text[64], at[40];
    snprintf(name, sizeof name, "%s", jstr(r.json, "name"));
    snprintf(text, sizeof text, "%s", jstr(r.json, "text"));
    snprintf(at, sizeof at, "%s", jstr(r.json, "at"));
    resp_free(&r);
    CHECK(st == 201, "POST chat: %ld", st);
    CHECK(seq == 1 && seat == 0 && strcmp(name, "Ann") == 0, "seq %d seat %d name %s", seq, seat,
          name);
    CHECK(strcmp(text, "Hello\nthere \xf0\x9f\x8e\xb2") == 0, "text %s", text);
    CHECK(strlen(at) == 24 && at[23] == 'Z', "at %s", at);
    CHECK(post_chat(srv, g.id, "{\"text\":\"Hi Ann\"}", g.auth[1], code, sizeof code) == 201,
          "Bob's message: %s", code);

    /* The game is as it was: version, ETag, events. */
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    req(srv, "GET", path, NULL, NULL, &r);
    int same = strcmp(r.etag, etag) == 0 && (int)jnum(r.json, "version") == version;
    resp_free(&r);
    CHECK(same, "a message moved the game's version or ETag");
    CHECK(db_scalar_params("SELECT count(*) FROM events WHERE game_id = $1::uuid", 1,
                           (const char *[]){g.id}) == events,
          "a message wrote an event");

    /* Both seats read both messages, oldest first; after= pages. */
    st = get_chat(srv, g.id, "", g.auth[1], &r);
    int n = cJSON_GetArraySize(jget(r.json, "messages"));
    int ok = n == 2 && jnum(r.json, "messages.0.seq") == 1 &&
             jnum(r.json, "messages.1.seat") == 1 &&
             strcmp(jstr(r.json, "messages.1.name"), "Bob") == 0 && jnum(r.json, "last_seq") == 2 &&
             strcmp(jstr(r.json, "chat"), "private") == 0 &&
             cJSON_IsFalse(jget(r.json, "messages.0.hidden")) &&
             cJSON_IsNull(jget(r.json, "messages.0.player"));
    resp_free(&r);
    CHECK(st == 200 && ok, "GET chat: %ld, %d messages", st, n);
    st = get_chat(srv, g.id, "after=1", g.auth[0], &r);
    ok = cJSON_GetArraySize(jget(r.json, "messages")) == 1 &&
         strcmp(jstr(r.json, "messages.0.text"), "Hi Ann") == 0;
    resp_free(&r);
    CHECK(st == 200 && ok, "GET chat?after=1: %ld", st);
    /* A long poll with nothing new answers at its deadline, empty. */
    long long t0 = hard_now_ms();
    st = get_chat(srv, g.id, "after=2&wait=1", g.auth[0], &r);
    long long waited = hard_now_ms() - t0;
    ok = cJSON_GetArraySize(jget(r.json, "messages")) == 0 && jnum(r.json, "last_seq") == 2;
    resp_free(&r);
    CHECK(st == 200 && ok && waited >= 900, "an idle long poll: %ld after %lld ms", st, waited);
}

ITEST(test_chat_refusals, "chat: refusals (length, controls, bidi, blank, tokens, spectators)")
{
    struct game g, other;
    NEW_GAME(&g, CHAT_GAME);
    NEW_GAME(&other, CHAT_GAME);
    char code[64], body[2400];
    /* 500 characters of four bytes each: the most a message holds. */
    size_t o = (size_t)snprintf(body, sizeof body, "{\"text\":\"");
    for (int i = 0; i < 500; i++, o += 4) memcpy(body + o, "\xf0\x9f\x8e\xb2", 4);
    snprintf(body + o, sizeof body - o, "\"}");
    CHECK(post_chat(srv, g.id, body, g.auth[0], code, sizeof code) == 201,
          "500 characters refused: %s", code);
    /* 501 ASCII characters. */
    o = (size_t)snprintf(body, sizeof body, "{\"text\":\"");
    for (int i = 0; i < 501; i++) body[o++] = 'a';
    snprintf(body + o, sizeof body - o, "\"}");
    struct {
        const char *body; /* what is sent */
        long status;      /* what it answers */
        const char *code; /* with this code */
    } bad[] = {
        {body, 400, "invalid_chat_text"},
        {"{\"text\":\"bell \\u0007\"}", 400, "invalid_chat_text"},
        {"{\"text\":\"tab\\tbed\"}", 400, "invalid_chat_text"},
        {"{\"text\":\"cr\\r\\n\"}", 400, "invalid_chat_text"},
        {"{\"text\":\"abc \xe2\x80\xae cba\"}", 400, "invalid_chat_text"},  /* U+202E override */
        {"{\"text\":\"a\xe2\x81\xa6 b\"}", 400, "invalid_chat_text"},       /* U+2066 isolate */
        {"{\"text\":\"zero\xe2\x80\x8bwidth\"}", 400, "invalid_chat_text"}, /* U+200B */
        {"{\"text\":\"   \\n  \"}", 400, "invalid_chat_text"},
        {"{\"text\":\"\"}", 400, "invalid_chat_text"},
        {"{\"text\":5}", 400, "invalid_body"},
        {"{}", 400, "invalid_body"},
        {"{\"text\":\"hi\",\"to\":1}", 400, "unknown_field"},
        {"[\"hi\"]", 400, "invalid_json"},
        {"{\"text\":\"a\\u0000b\"}", 400, "invalid_json"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        long st = post_chat(srv, g.id, bad[i].body, g.auth[0], code, sizeof code);
        CHECK(st == bad[i].status && strcmp(code, bad[i].code) == 0, "%.60s: %ld %s, not %ld %s",
              bad[i].body, st, code, bad[i].status, bad[i].code);
    }
    /* Tokens: none, another game's, nonsense. */
    CHECK(post_chat(srv, g.id, "{\"text\":\"hi\"}", NULL, code, sizeof code) == 401 &&
              strcmp(code, "missing_token") == 0,
          "no token: %s", code);
    CHECK(post_chat(srv, g.id, "{\"text\":\"hi\"}", other.auth[0], code, sizeof code) == 401 &&
              strcmp(code, "unknown_token") == 0,
          "another game's token: %s", code);
    CHECK(post_chat(srv, "00000000-0000-4000-8000-000000000000", "{\"text\":\"hi\"}", g.auth[0],
                    code, sizeof code) == 404,
          "no such game: %s", code);
    CHECK(stored_messages(g.id) == 1, "refused messages were stored");
    /* Spectators of a private chat: no token, another game's token. */
    struct resp r;
    long st = get_chat(srv, g.id, "", NULL, &r);
    snprintf(code, sizeof code, "%s", problem_code(&r));
    resp_free(&r);
    CHECK(st == 401 && strcmp(code, "missing_token") == 0, "a spectator read: %ld %s", st, code);
    st = get_chat(srv, g.id, "", other.auth[1], &r);
    snprintf(code, sizeof code, "%s", problem_code(&r));
    resp_free(&r);
    CHECK(st == 401 && strcmp(code, "unknown_token") == 0, "another game's seat read: %ld %s", st,
          code);
    st = get_chat(srv, g.id, "after=-1", g.auth[0], &r);
    resp_free(&r);
    CHECK(st == 400, "after=-1: %ld", st);
    st = get_chat(srv, g.id, "wait=61", g.auth[0], &r);
    resp_free(&r);
    CHECK(st == 400, "wait=61: %ld", st);
    /* A message is no action of the game: the game's Allow is unchanged, PUT is 405. */
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/chat", g.id);
    st = req(srv, "PUT", path, "{}", g.auth[0], &r);
    resp_free(&r);
    CHECK(st == 405, "PUT chat: %ld", st);
}

ITEST(test_chat_rate, "chat: 5 messages per 10 s per seat, then 429 with Retry-After")
{
    struct game g;
    NEW_GAME(&g, CHAT_GAME);
    char code[64];
    for (int i = 0; i < 5; i++)
        CHECK(post_chat(srv, g.id, "{\"text\":\"spam\"}", g.auth[0], code, sizeof code) == 201,
              "message %d: %s", i + 1, code);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/chat", g.id);
    struct resp r;
    long st = req(srv, "POST", path, "{\"text\":\"spam\"}", g.auth[0], &r);
    snprintf(code, sizeof code, "%s", problem_code(&r));
    int retry = (int)strtol(r.retry_after, NULL, 10);
    resp_free(&r);
    CHECK(st == 429 && strcmp(code, "chat_rate_limited") == 0, "the 6th: %ld %s", st, code);
    CHECK(retry >= 1 && retry <= 10, "Retry-After %d", retry);
    /* The other seat has its own five. */
    CHECK(post_chat(srv, g.id, "{\"text\":\"me too\"}", g.auth[1], code, sizeof code) == 201,
          "the other seat: %s", code);
    CHECK(stored_messages(g.id) == 6, "%ld messages stored, not 6", stored_messages(g.id));
    /* After Retry-After, the seat may talk again. */
    sleep((unsigned)retry);
    usleep(200000);
    CHECK(post_chat(srv, g.id, "{\"text\":\"again\"}", g.auth[0], code, sizeof code) == 201,
          "after Retry-After: %s", code);
}

/* A long poll on another server (a thread). */
struct poll_arg {
    const struct server *srv; /* where */
    char path[256];           /* what */
    char auth[160];           /* as whom, or "" */
    struct resp r;            /* the answer */
    long long ms;             /* when it came */
};

static void *poll_main(void *p)
{
    struct poll_arg *a = p;
    const char *h[] = {a->auth, NULL};
    http(a->srv, "GET", a->path, NULL, a->auth[0] ? h : NULL, &a->r);
    a->ms = hard_now_ms();
    return NULL;
}

ITEST(test_chat_public_across_servers,
      "chat: public chat read by anyone; long poll woken by a message on another server")
{
    const char *env[] = {"LIVE_FALLBACK_MS=60000", "REQUEST_TIMEOUT=1", NULL};
    struct game g;
    NEW_GAME(&g, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"chat\":\"public\"}");
    char code[64];
    CHECK(post_chat(srv, g.id, "{\"text\":\"gl hf\"}", g.auth[1], code, sizeof code) == 201,
          "post: %s", code);
    struct resp r;
    long st = get_chat(srv, g.id, "", NULL, &r);
    int ok = cJSON_GetArraySize(jget(r.json, "messages")) == 1 &&
             strcmp(jstr(r.json, "chat"), "public") == 0;
    resp_free(&r);
    CHECK(st == 200 && ok, "a spectator of a public chat: %ld", st);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    req(srv, "GET", path, NULL, NULL, &r);
    ok = strcmp(jstr(r.json, "chat"), "public") == 0;
    resp_free(&r);
    CHECK(ok, "the state does not say chat public");
    /* Posting stays the seats': a spectator cannot. */
    CHECK(post_chat(srv, g.id, "{\"text\":\"hi\"}", NULL, code, sizeof code) == 401,
          "a spectator posted: %s", code);

    struct server two;
    CHECK(hard_server_start(&two, env, 0) == 0, "the second server did not start");
    struct poll_arg a = {.srv = &two};
    snprintf(a.path, sizeof a.path, "/v1/games/%s/chat?after=1&wait=30", g.id);
    pthread_t t;
    int started = pthread_create(&t, NULL, poll_main, &a) == 0;
    usleep(1500000); /* it waits now, longer than REQUEST_TIMEOUT */
    long long t0 = hard_now_ms();
    long posted = post_chat(srv, g.id, "{\"text\":\"wake up\"}", g.auth[0], code, sizeof code);
    if (started) pthread_join(t, NULL);
    int stopped = hard_server_stop(&two);
    long long poll_ms = a.ms - t0;
    ok = a.r.status == 200 && jnum(a.r.json, "messages.0.seq") == 2 &&
         strcmp(jstr(a.r.json, "messages.0.text"), "wake up") == 0;
    char got[240];
    snprintf(got, sizeof got, "%ld %.200s", a.r.status, a.r.body ? a.r.body : "");
    resp_free(&a.r);
    CHECK(posted == 201, "post: %s", code);
    CHECK(started && ok, "long poll: %s", got);
    /* Without the notification it would answer at its deadline, 30 s on (the fallback
     * recheck is a minute away): 5 s leaves room for a loaded machine. */
    CHECK(poll_ms < 5000, "the long poll on the other server answered %lld ms after the post",
          poll_ms);
    printf("     chat long poll woken on the other server %lld ms after the post\n", poll_ms);
    CHECK(stopped == 0, "the second server exited with %d", stopped);
}

/* GET `path` of `srv` as a stream for `ms` milliseconds (the transfer is then cut): the body
 * received into `r` (r->status the answer's). */
static void stream_for(const struct server *srv, const char *path, const char *auth, long ms,
                       struct resp *r)
{
    memset(r, 0, sizeof *r);
    CURL *h = curl_easy_init();
    if (!h) return;
    char url[512];
    snprintf(url, sizeof url, "%s%s", srv->direct, path);
    const char *lines[] = {"Accept: text/event-stream", auth, NULL};
    struct curl_slist *hl = resp_headers(lines, 0);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hl);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, ms);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, resp_on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, r);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, resp_on_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, r);
    curl_easy_perform(h);
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &r->status);
    curl_easy_cleanup(h);
    curl_slist_free_all(hl);
}

ITEST(test_chat_stream, "chat: the stream (/chat/stream) sends each message as chat_message")
{
    struct game g;
    NEW_GAME(&g, CHAT_GAME);
    char code[64];
    CHECK(post_chat(srv, g.id, "{\"text\":\"one\"}", g.auth[0], code, sizeof code) == 201, "%s",
          code);
    CHECK(post_chat(srv, g.id, "{\"text\":\"two\\nlines\"}", g.auth[1], code, sizeof code) == 201,
          "%s", code);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/chat/stream", g.id);
    struct resp r;
    stream_for(srv, path, g.auth[1], 4000, &r); /* read 4 s: a sanitizer's server is slow */
    int ok = r.status == 200 && r.body && strstr(r.body, "id: 1\nevent: chat_message\ndata: {") &&
             strstr(r.body, "id: 2\nevent: chat_message\n") && strstr(r.body, "\"two\\nlines\"");
    char got[300];
    snprintf(got, sizeof got, "%ld %.280s", r.status, r.body ? r.body : "");
    resp_free(&r);
    CHECK(ok, "the stream: %s", got);
    /* A private chat's stream is the seats'. */
    stream_for(srv, path, NULL, 5000, &r); /* a 401 ends it at once */
    long st = r.status;
    resp_free(&r);
    CHECK(st == 401, "a spectator's stream of a private chat: %ld", st);
}

/* Creates a game of `owner` (its seat 0) with `n` - 1 open seats taken by the player tokens
 * `joiners`, and `extra` members ("" or ",\"clock\":{...}"); its id into `id`. 0 or -1. */
static int bound_game(const struct server *srv, const struct person *owner,
                      const struct person *const *joiners, int n, const char *extra, char *id,
                      char *why, size_t cap)
{
    char body[400];
    size_t o = (size_t)snprintf(body, sizeof body, "{\"players\":[{\"player\":\"me\"}");
    for (int i = 1; i < n; i++)
        o += (size_t)snprintf(body + o, sizeof body - o, ",{\"open\":true}");
    snprintf(body + o, sizeof body - o, "]%s}", extra);
    struct resp r;
    long st = req(srv, "POST", "/v1/games", body, owner->auth, &r);
    char invites[4][128];
    snprintf(id, 64, "%s", st == 201 ? jstr(r.json, "id") : "");
    for (int i = 1; i < n; i++) {
        char key[32];
        snprintf(key, sizeof key, "players.%d.invite", i);
        snprintf(invites[i], sizeof invites[i], "%s", jstr(r.json, key));
    }
    resp_free(&r);
    if (st != 201) {
        snprintf(why, cap, "create: %ld", st);
        return -1;
    }
    for (int i = 1; i < n; i++) {
        char path[160], jb[200];
        snprintf(path, sizeof path, "/v1/games/%s/join", id);
        snprintf(jb, sizeof jb, "{\"invite\":\"%s\"}", invites[i]);
        st = req(srv, "POST", path, jb, joiners[i - 1]->auth, &r);
        resp_free(&r);
        if (st != 200 && st != 201) {
            snprintf(why, cap, "join %d: %ld", i, st);
            return -1;
        }
    }
    return 0;
}

/* The texts of the messages `auth` reads in game `id`, joined by '|', into `out`. */
static long texts(const struct server *srv, const char *id, const char *auth, char *out, size_t cap)
{
    struct resp r;
    long st = get_chat(srv, id, "", auth, &r);
    size_t o = 0;
    out[0] = '\0';
    const cJSON *m;
    cJSON_ArrayForEach(m, jget(r.json, "messages"))
    {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(m, "text");
        o += (size_t)snprintf(out + o, o < cap ? cap - o : 0, "%s%s", o ? "|" : "",
                              cJSON_IsString(t) ? t->valuestring : "(hidden)");
    }
    resp_free(&r);
    return st;
}

ITEST(test_chat_blocks, "blocks: a blocked player's messages hidden for the blocker only")
{
    char why[300], id[64], got[256], code[64], path[200];
    struct person ann, bob, cat;
    CHECK(person_new(srv, "Ann", &ann, why, sizeof why) == 0, "%s", why);
    CHECK(person_new(srv, "Bob", &bob, why, sizeof why) == 0, "%s", why);
    CHECK(person_new(srv, "Cat", &cat, why, sizeof why) == 0, "%s", why);
    const struct person *joiners[] = {&bob, &cat};
    CHECK(bound_game(srv, &ann, joiners, 3, "", id, why, sizeof why) == 0, "%s", why);
    CHECK(post_chat(srv, id, "{\"text\":\"from Bob\"}", bob.auth, code, sizeof code) == 201, "%s",
          code);
    CHECK(post_chat(srv, id, "{\"text\":\"from Cat\"}", cat.auth, code, sizeof code) == 201, "%s",
          code);
    struct resp r;
    get_chat(srv, id, "", ann.auth, &r);
    int player_ok = strcmp(jstr(r.json, "messages.0.player"), bob.id) == 0;
    resp_free(&r);
    CHECK(player_ok, "a bound seat's message does not name its player");

    /* Ann blocks Bob: Ann no longer sees Bob's message, Cat still does. */
    snprintf(path, sizeof path, "/v1/players/me/blocks/%s", bob.id);
    long st = req(srv, "POST", path, NULL, ann.auth, &r);
    resp_free(&r);
    CHECK(st == 201, "block: %ld", st);
    st = req(srv, "POST", path, NULL, ann.auth, &r);
    resp_free(&r);
    CHECK(st == 200, "block again: %ld", st);
    CHECK(texts(srv, id, ann.auth, got, sizeof got) == 200 && strcmp(got, "from Cat") == 0,
          "the blocker reads %s", got);
    CHECK(texts(srv, id, cat.auth, got, sizeof got) == 200 && strcmp(got, "from Bob|from Cat") == 0,
          "a third player reads %s", got);
    CHECK(texts(srv, id, bob.auth, got, sizeof got) == 200 && strcmp(got, "from Bob|from Cat") == 0,
          "the blocked player reads %s", got);
    /* The cursor passes over what the blocker does not see. */
    get_chat(srv, id, "", ann.auth, &r);
    int last = (int)jnum(r.json, "last_seq");
    resp_free(&r);
    CHECK(last == 2, "last_seq %d", last);
    /* Blocked either way for the matchmaker (store_blocks_among reads the same rows). */
    const char *pair[] = {ann.id, bob.id};
    CHECK(db_scalar_params("SELECT count(*) FROM blocks WHERE blocker = $1::uuid AND blocked = "
                           "$2::uuid",
                           2, pair) == 1,
          "the block is not stored");
    st = req(srv, "GET", "/v1/players/me/blocks", NULL, ann.auth, &r);
    int listed = cJSON_GetArraySize(jget(r.json, "blocks")) == 1 &&
                 strcmp(jstr(r.json, "blocks.0.player"), bob.id) == 0 &&
                 strcmp(jstr(r.json, "blocks.0.name"), "Bob") == 0;
    resp_free(&r);
    CHECK(st == 200 && listed, "the list of blocks: %ld", st);

    /* Refusals: oneself, nobody, no token, a seat's token (blocks are players'). */
    snprintf(path, sizeof path, "/v1/players/me/blocks/%s", ann.id);
    st = req(srv, "POST", path, NULL, ann.auth, &r);
    snprintf(code, sizeof code, "%s", problem_code(&r));
    resp_free(&r);
    CHECK(st == 400 && strcmp(code, "cannot_block_self") == 0, "block oneself: %ld %s", st, code);
    st = req(srv, "POST", "/v1/players/me/blocks/00000000-0000-4000-8000-000000000000", NULL,
             ann.auth, &r);
    resp_free(&r);
    CHECK(st == 404, "block nobody: %ld", st);
    st = req(srv, "POST", "/v1/players/me/blocks/not-a-uuid", NULL, ann.auth, &r);
    resp_free(&r);
    CHECK(st == 404, "block a malformed id: %ld", st);
    snprintf(path, sizeof path, "/v1/players/me/blocks/%s", cat.id);
    st = req(srv, "POST", path, NULL, NULL, &r);
    resp_free(&r);
    CHECK(st == 401, "block without a token: %ld", st);
    st = req(srv, "POST", path, "{\"why\":1}", ann.auth, &r);
    snprintf(code, sizeof code, "%s", problem_code(&r));
    resp_free(&r);
    CHECK(st == 400 && strcmp(code, "unknown_field") == 0, "a body: %ld %s", st, code);

    /* Unblocked: Ann sees Bob again. */
    snprintf(path, sizeof path, "/v1/players/me/blocks/%s", bob.id);
    st = req(srv, "DELETE", path, NULL, ann.auth, &r);
    resp_free(&r);
    CHECK(st == 204, "unblock: %ld", st);
    CHECK(texts(srv, id, ann.auth, got, sizeof got) == 200 && strcmp(got, "from Bob|from Cat") == 0,
          "after the unblock the blocker reads %s", got);
}

/* POST `path` with no body as `auth` with Idempotency-Key `key`: its status, its problem code
 * into code[64] ("" for none). */
static long keyed_post(const struct server *srv, const char *path, const char *auth,
                       const char *key, char code[64])
{
    char kh[96];
    snprintf(kh, sizeof kh, "Idempotency-Key: %s", key);
    const char *h[3] = {auth, kh, NULL};
    struct resp r;
    http(srv, "POST", path, NULL, h, &r);
    long st = r.status;
    snprintf(code, 64, "%s", st >= 400 ? problem_code(&r) : "");
    resp_free(&r);
    return st;
}

ITEST(test_chat_keyed, "blocks and reports: a keyed repeat gets the first answer (201), the "
                       "key with another request 409 and nothing done")
{
    struct person ann, bob, cat;
    char why[300], id[64], code[64], path[200], other[200];
    CHECK(person_new(srv, "Keyed Ann", &ann, why, sizeof why) == 0 &&
              person_new(srv, "Keyed Bob", &bob, why, sizeof why) == 0 &&
              person_new(srv, "Keyed Cat", &cat, why, sizeof why) == 0,
          "%s", why);
    const struct person *joiners[] = {&bob};
    CHECK(bound_game(srv, &ann, joiners, 2, "", id, why, sizeof why) == 0, "%s", why);
    CHECK(post_chat(srv, id, "{\"text\":\"keyed hello\"}", bob.auth, code, sizeof code) == 201,
          "%s", code);

    /* Ann blocks Cat with a key, twice: 201 both times (the first answer), then 200 without
     * one; the key on blocking Bob: 409, and Bob is not blocked. */
    snprintf(path, sizeof path, "/v1/players/me/blocks/%s", cat.id);
    CHECK(hard_keyed_twice(srv, path, ann.auth, "block-1", 201, why, sizeof why), "%s", why);
    struct resp r;
    long again = req(srv, "POST", path, NULL, ann.auth, &r);
    resp_free(&r);
    CHECK(again == 200, "unkeyed block again: %ld", again);
    snprintf(other, sizeof other, "/v1/players/me/blocks/%s", bob.id);
    long st = keyed_post(srv, other, ann.auth, "block-1", code);
    CHECK(st == 409 && strcmp(code, "idempotency_key_reused") == 0,
          "the key on another block: %ld %s", st, code);
    const char *pair[] = {ann.id, bob.id};
    CHECK(db_scalar_params("SELECT count(*) FROM blocks WHERE blocker = $1::uuid AND blocked = "
                           "$2::uuid",
                           2, pair) == 0,
          "the refused keyed block was stored");
    /* Another player's key of the same name is its own. */
    CHECK(hard_keyed_twice(srv, path, bob.auth, "block-1", 201, why, sizeof why), "%s", why);

    /* Ann's seat reports Bob's message with a key, twice: 201 both; then 200 without one;
     * the key on a report of another message: 409 (not 404), and nothing reported. */
    snprintf(path, sizeof path, "/v1/games/%s/chat/1/report", id);
    CHECK(hard_keyed_twice(srv, path, ann.auth, "report-1", 201, why, sizeof why), "%s", why);
    again = req(srv, "POST", path, NULL, ann.auth, &r);
    resp_free(&r);
    CHECK(again == 200, "unkeyed report again: %ld", again);
    snprintf(other, sizeof other, "/v1/games/%s/chat/9/report", id);
    st = keyed_post(srv, other, ann.auth, "report-1", code);
    CHECK(st == 409 && strcmp(code, "idempotency_key_reused") == 0,
          "the key on another report: %ld %s", st, code);
    CHECK(db_scalar_id("SELECT count(*) FROM chat_reports WHERE game_id = $1::uuid", id) == 1,
          "reports stored: not one");
    /* A refused keyed report (no such message) binds no key: the same key then reports. */
    st = keyed_post(srv, other, bob.auth, "report-2", code);
    CHECK(st == 404, "a keyed report of no message: %ld %s", st, code);
    CHECK(hard_keyed_twice(srv, path, bob.auth, "report-2", 201, why, sizeof why), "%s", why);
}

/* Lines of the server log holding every one of the NULL-terminated `needles`. */
static int log_lines_with(const char *const *needles)
{
    FILE *f = fopen(itest_server_log(), "r");
    if (!f) return 0;
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        int all = line[0] == '{';
        for (int i = 0; all && needles[i]; i++) all = strstr(line, needles[i]) != NULL;
        n += all;
    }
    fclose(f);
    return n;
}

/* A server of its own (settings `env`, behind the proxy) with Ann and Bob, players; on
 * failure (why says it) nothing left running. */
static int server_with_ann_and_bob(struct server *s, const char *const *env, struct person *ann,
                                   struct person *bob, char *why, size_t cap)
{
    if (hard_server_start(s, env, 1) != 0) {
        snprintf(why, cap, "the server did not start");
        return -1;
    }
    if (person_new(s, "Ann", ann, why, cap) || person_new(s, "Bob", bob, why, cap)) {
        hard_server_stop(s);
        return -1;
    }
    return 0;
}

/* The entries of the operator's list `list` ({"reports": [...]}) of game `game`: the first
 * (NULL for none), and how many. */
static const cJSON *game_report(const cJSON *list, const char *game)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, jget(list, "reports"))
    {
        if (strcmp(jstr(e, "game"), game) == 0) return e;
    }
    return NULL;
}

static int report_count(const cJSON *list, const char *game)
{
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, jget(list, "reports")) n += strcmp(jstr(e, "game"), game) == 0;
    return n;
}

ITEST(test_chat_operator, "operator: reports, hide, suspend and reinstate; 401 without its token")
{
    const char *env[] = {"ADMIN_TOKEN=" ADMIN_TOKEN, "LOG_LEVEL=info", NULL};
    /* No operator on a server without ADMIN_TOKEN. */
    struct resp r;
    long st = req(srv, "GET", "/v1/admin/reports", NULL, ADMIN_AUTH, &r);
    resp_free(&r);
    CHECK(st == 404, "a server without ADMIN_TOKEN answered %ld", st);
    struct server s;
    char why[300], id[64], code[64], path[200], got[256];
    struct person ann, bob;
    CHECK(server_with_ann_and_bob(&s, env, &ann, &bob, why, sizeof why) == 0, "%s", why);
    const struct person *joiners[] = {&bob};
    if (bound_game(&s, &ann, joiners, 2, "", id, why, sizeof why)) {
        hard_server_stop(&s);
        CHECK(0, "%s", why);
    }
    for (int i = 0; i < 3; i++) {
        char body[64];
        snprintf(body, sizeof body, "{\"text\":\"line %d\"}", i + 1);
        post_chat(&s, id, body, i == 1 ? bob.auth : ann.auth, code, sizeof code);
    }
    /* Ann reports Bob's message (seq 2): 201, a repeat 200; no such message 404; no token. */
    snprintf(path, sizeof path, "/v1/games/%s/chat/2/report", id);
    long rep1 = req(&s, "POST", path, NULL, ann.auth, &r);
    resp_free(&r);
    long rep2 = req(&s, "POST", path, NULL, ann.auth, &r);
    resp_free(&r);
    long rep_anon = req(&s, "POST", path, NULL, NULL, &r);
    resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/chat/9/report", id);
    long rep_none = req(&s, "POST", path, NULL, ann.auth, &r);
    resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/chat/0/report", id);
    long rep_zero = req(&s, "POST", path, NULL, ann.auth, &r);
    resp_free(&r);

    /* The operator's list: without a token, with a wrong one, with the right one. */
    long no_tok = req(&s, "GET", "/v1/admin/reports", NULL, NULL, &r);
    char no_code[64];
    snprintf(no_code, sizeof no_code, "%s", problem_code(&r));
    resp_free(&r);
    long wrong = req(&s, "GET", "/v1/admin/reports", NULL, "Authorization: Bearer wrong", &r);
    resp_free(&r);
    long seat_tok = req(&s, "GET", "/v1/admin/reports", NULL, ann.auth, &r);
    resp_free(&r);
    const char *rid_h[] = {ADMIN_AUTH, "X-Request-Id: itest-operator-list", NULL};
    http(&s, "GET", "/v1/admin/reports", NULL, rid_h, &r);
    long list_st = r.status;
    /* The database is shared with the other tests, which report messages of their own
     * games: this game's entry is the one looked at. */
    const cJSON *mine = game_report(r.json, id);
    int listed = mine && report_count(r.json, id) == 1 && jnum(mine, "seq") == 2 &&
                 jnum(mine, "reports") == 1 && strcmp(jstr(mine, "message.text"), "line 2") == 0 &&
                 strcmp(jstr(mine, "message.player"), bob.id) == 0 &&
                 cJSON_GetArraySize(jget(mine, "context")) == 3;
    resp_free(&r);

    /* Hide: hidden for everyone, kept for the record, the report closed. */
    snprintf(path, sizeof path, "/v1/admin/games/%s/chat/2/hide", id);
    long hide_anon = req(&s, "POST", path, NULL, NULL, &r);
    resp_free(&r);
    const char *hide_h[] = {ADMIN_AUTH, "X-Request-Id: itest-operator-hide",
                            "Idempotency-Key: hide-2", NULL};
    http(&s, "POST", path, NULL, hide_h, &r);
    long hide_st = r.status;
    char hide_body[300];
    snprintf(hide_body, sizeof hide_body, "%s", r.body ? r.body : "");
    resp_free(&r);
    /* The operator's key: a repeat gets the first answer; on another message, 409. */
    http(&s, "POST", path, NULL, hide_h, &r);
    int hide_again = r.status == 200 && r.body && strcmp(r.body, hide_body) == 0;
    resp_free(&r);
    snprintf(path, sizeof path, "/v1/admin/games/%s/chat/7/hide", id);
    http(&s, "POST", path, NULL, hide_h, &r);
    long hide_reused = r.status;
    char hide_reused_code[64];
    snprintf(hide_reused_code, sizeof hide_reused_code, "%s", problem_code(&r));
    resp_free(&r);
    long hide_none = req(&s, "POST", path, NULL, ADMIN_AUTH, &r);
    resp_free(&r);
    long bob_reads = texts(&s, id, bob.auth, got, sizeof got);
    const char *v[] = {id};
    long kept = db_scalar_params("SELECT count(*) FROM chat_messages WHERE game_id = $1::uuid "
                                 "AND seq = 2 AND hidden AND body = 'line 2'",
                                 1, v);
    req(&s, "GET", "/v1/admin/reports", NULL, ADMIN_AUTH, &r);
    int open_after = report_count(r.json, id);
    resp_free(&r);

    /* Bob waits in a seek (a correspondence clock no other test seeks: nobody pairs it) and
     * has joined Ann's open tournament: the suspension withdraws both. */
    char seek[64] = "", cup[64] = "";
    long seek_st = req(&s, "POST", "/v1/seeks",
                       "{\"players\":2,\"clock\":{\"turn_seconds\":86417}}", bob.auth, &r);
    snprintf(seek, sizeof seek, "%s", jstr(r.json, "id"));
    resp_free(&r);
    long cup_st =
        req(&s, "POST", "/v1/tournaments",
            "{\"name\":\"Cup\",\"format\":\"knockout\",\"players_per_game\":2}", ann.auth, &r);
    snprintf(cup, sizeof cup, "%s", jstr(r.json, "id"));
    resp_free(&r);
    snprintf(path, sizeof path, "/v1/tournaments/%s/join", cup);
    long join_st = req(&s, "POST", path, NULL, bob.auth, &r);
    resp_free(&r);
    const char *bob_cup[] = {cup, bob.id};
    long entered = db_scalar_params("SELECT count(*) FROM tournament_entrants WHERE "
                                    "tournament_id = $1::uuid AND person_id = $2::uuid",
                                    2, bob_cup);

    /* Suspend Bob: his token is refused everywhere, then accepted once reinstated. */
    snprintf(path, sizeof path, "/v1/admin/players/%s/suspend", bob.id);
    long sus_wrong = req(&s, "POST", path, NULL, "Authorization: Bearer " ADMIN_TOKEN "x", &r);
    resp_free(&r);
    const char *sus_h[] = {ADMIN_AUTH, "X-Request-Id: itest-operator-suspend",
                           "Idempotency-Key: suspend-bob", NULL};
    http(&s, "POST", path, NULL, sus_h, &r);
    long sus_st = r.status;
    resp_free(&r);
    /* The suspension's key on a reinstatement: 409, and Bob stays suspended (below). */
    snprintf(path, sizeof path, "/v1/admin/players/%s/reinstate", bob.id);
    http(&s, "POST", path, NULL, sus_h, &r);
    long rein_reused = r.status;
    resp_free(&r);
    long seek_left = db_scalar_id("SELECT count(*) FROM seeks WHERE id = $1::uuid AND status = "
                                  "'cancelled' AND ended_at IS NOT NULL",
                                  seek);
    long still_entered = db_scalar_params("SELECT count(*) FROM tournament_entrants WHERE "
                                          "tournament_id = $1::uuid AND person_id = $2::uuid",
                                          2, bob_cup);
    long me_sus = req(&s, "GET", "/v1/players/me", NULL, bob.auth, &r);
    char me_code[64];
    snprintf(me_code, sizeof me_code, "%s", problem_code(&r));
    resp_free(&r);
    char chat_code[64];
    long chat_sus =
        post_chat(&s, id, "{\"text\":\"let me in\"}", bob.auth, chat_code, sizeof chat_code);
    long list_sus = req(&s, "GET", "/v1/players/me/games", NULL, bob.auth, &r);
    resp_free(&r);
    long blocks_sus = req(&s, "GET", "/v1/players/me/blocks", NULL, bob.auth, &r);
    resp_free(&r);
    snprintf(path, sizeof path, "/v1/admin/players/%s/reinstate", bob.id);
    const char *rein_h[] = {ADMIN_AUTH, "X-Request-Id: itest-operator-reinstate", NULL};
    http(&s, "POST", path, NULL, rein_h, &r);
    long rein_st = r.status;
    resp_free(&r);
    long me_back = req(&s, "GET", "/v1/players/me", NULL, bob.auth, &r);
    resp_free(&r);
    long chat_back = post_chat(&s, id, "{\"text\":\"back\"}", bob.auth, code, sizeof code);
    long sus_nobody =
        req(&s, "POST", "/v1/admin/players/00000000-0000-4000-8000-000000000000/suspend", NULL,
            ADMIN_AUTH, &r);
    resp_free(&r);
    int stopped = hard_server_stop(&s);

    CHECK(rep1 == 201 && rep2 == 200, "report: %ld, again %ld", rep1, rep2);
    CHECK(rep_anon == 401 && rep_none == 404 && rep_zero == 404,
          "report without a token %ld, of no message %ld, seq 0 %ld", rep_anon, rep_none, rep_zero);
    CHECK(no_tok == 401 && strcmp(no_code, "missing_token") == 0, "reports without a token: %ld %s",
          no_tok, no_code);
    CHECK(wrong == 401 && seat_tok == 401, "a wrong token %ld, a player's token %ld", wrong,
          seat_tok);
    CHECK(list_st == 200 && listed, "the operator's list: %ld", list_st);
    CHECK(hide_anon == 401 && hide_st == 200 && hide_none == 404,
          "hide without a token %ld, hide %ld, hide no message %ld", hide_anon, hide_st, hide_none);
    CHECK(hide_again, "a keyed hide repeated did not get the first answer");
    CHECK(hide_reused == 409 && strcmp(hide_reused_code, "idempotency_key_reused") == 0,
          "the hide's key on another message: %ld %s", hide_reused, hide_reused_code);
    CHECK(rein_reused == 409, "the suspension's key on a reinstatement: %ld", rein_reused);
    CHECK(bob_reads == 200 && strcmp(got, "line 1|(hidden)|line 3") == 0, "after hiding: %s", got);
    CHECK(kept == 1, "the hidden message is not kept for the record");
    CHECK(open_after == 0, "%d reports still open after the hide", open_after);
    CHECK(sus_wrong == 401 && sus_st == 200, "suspend with a wrong token %ld, suspend %ld",
          sus_wrong, sus_st);
    CHECK(seek_st == 201 && cup_st == 201 && join_st == 201 && entered == 1,
          "Bob's seek %ld, Ann's tournament %ld, Bob joins %ld (%ld entries)", seek_st, cup_st,
          join_st, entered);
    CHECK(seek_left == 1 && still_entered == 0,
          "the suspension left Bob's seek waiting (%ld cancelled) or his entry (%ld)", seek_left,
          still_entered);
    CHECK(me_sus == 403 && strcmp(me_code, "player_suspended") == 0, "suspended me: %ld %s", me_sus,
          me_code);
    CHECK(chat_sus == 403 && strcmp(chat_code, "player_suspended") == 0,
          "a suspended player's message: %ld %s", chat_sus, chat_code);
    CHECK(list_sus == 403 && blocks_sus == 403, "suspended: my games %ld, blocks %ld", list_sus,
          blocks_sus);
    CHECK(rein_st == 200 && me_back == 200 && chat_back == 201,
          "reinstate %ld, then me %ld, a message %ld", rein_st, me_back, chat_back);
    CHECK(sus_nobody == 404, "suspend nobody: %ld", sus_nobody);
    CHECK(stopped == 0, "the server exited with %d", stopped);
    /* Every operator action is one JSON line with the operator's request id; the token is in
     * no line. */
    const char *list_l[] = {"\"msg\":\"operator action\"", "\"request_id\":\"itest-operator-list\"",
                            "\"action\":\"list_reports\"", NULL};
    const char *hide_l[] = {"\"msg\":\"operator action\"", "\"request_id\":\"itest-operator-hide\"",
                            "\"action\":\"hide_message\"", NULL};
    const char *sus_l[] = {"\"msg\":\"operator action\"",
                           "\"request_id\":\"itest-operator-suspend\"", "\"action\":\"suspend\"",
                           NULL};
    const char *rein_l[] = {"\"msg\":\"operator action\"",
                            "\"request_id\":\"itest-operator-reinstate\"",
                            "\"action\":\"reinstate\"", NULL};
    const char *secret_l[] = {ADMIN_TOKEN, NULL};
    CHECK(log_lines_with(list_l) == 1 && log_lines_with(hide_l) == 1 &&
              log_lines_with(sus_l) == 1 && log_lines_with(rein_l) == 1,
          "the operator's actions are not each one log line with its request id");
    CHECK(log_lines_with(secret_l) == 0, "the operator's token is in the log");
}

/* Events of game `id` of type `type`. */
static long events_of(const char *id, const char *type)
{
    const char *v[] = {id, type};
    return db_scalar_params("SELECT count(*) FROM events WHERE game_id = $1::uuid AND type = $2", 2,
                            v);
}

/* Waits up to `ms` for `sql` (parameter $1 = `id`) to count at least `want`. */
static long wait_count(const char *sql, const char *id, long want, long ms)
{
    long n = -1;
    const char *v[] = {id};
    for (long t = 0; t <= ms; t += 50) {
        n = db_scalar_params(sql, 1, v);
        if (n >= want) break;
        usleep(50000);
    }
    return n;
}

ITEST(test_chat_suspension_seats,
      "suspension: seats played by the clock's timeout rule, resigned without a clock; export")
{
    (void)srv;
    const char *env[] = {"ADMIN_TOKEN=" ADMIN_TOKEN, NULL};
    struct server s;
    char why[300], clocked[64], plain[64], code[64], path[200];
    struct person ann, bob;
    CHECK(server_with_ann_and_bob(&s, env, &ann, &bob, why, sizeof why) == 0, "%s", why);
    const struct person *joiners[] = {&bob};
    /* A day a turn: without the suspension nothing would time out during the test. */
    int rc = bound_game(&s, &ann, joiners, 2, ",\"clock\":{\"turn_seconds\":86400}", clocked, why,
                        sizeof why);
    if (!rc) rc = bound_game(&s, &ann, joiners, 2, "", plain, why, sizeof why);
    if (rc) {
        hard_server_stop(&s);
        CHECK(0, "%s", why);
    }
    post_chat(&s, plain, "{\"text\":\"good luck\"}", bob.auth, code, sizeof code);
    /* Ann (seat 0, to move in the clocked game) is suspended: her turn is played at once. */
    struct resp r;
    snprintf(path, sizeof path, "/v1/admin/players/%s/suspend", ann.id);
    long sus = req(&s, "POST", path, NULL, ADMIN_AUTH, &r);
    int games = (int)jnum(r.json, "games");
    resp_free(&r);
    long timed = wait_count("SELECT count(*) FROM events WHERE game_id = $1::uuid AND type = "
                            "'turn_timed_out'",
                            clocked, 1, 15000);
    long bobs_turn = wait_count("SELECT count(*) FROM games WHERE id = $1::uuid AND turn_seat = 1",
                                clocked, 1, 15000);
    long placed1 = events_of(clocked, "tile_placed");
    /* Bob plays his turn; the turn comes back to Ann's seat and is played again at once. */
    struct game g = {.nplayers = 2};
    snprintf(g.id, sizeof g.id, "%s", clocked);
    snprintf(g.auth[1], sizeof g.auth[1], "%s", bob.auth);
    snprintf(g.auth[0], sizeof g.auth[0], "%s", bob.auth); /* never Ann's turn here */
    int played = play_turn(&s, &g, 0, why, sizeof why);
    long timed2 = wait_count("SELECT count(*) FROM events WHERE game_id = $1::uuid AND type = "
                             "'turn_timed_out'",
                             clocked, 2, 15000);
    /* Without a clock, the suspended player's seat resigns: two seats, Bob wins. */
    long resigned = wait_count("SELECT count(*) FROM games WHERE id = $1::uuid AND status = "
                               "'finished'",
                               plain, 1, 15000);
    snprintf(path, sizeof path, "/v1/games/%s", plain);
    req(&s, "GET", path, NULL, NULL, &r);
    char result[32];
    snprintf(result, sizeof result, "%s", jstr(r.json, "result"));
    resp_free(&r);
    /* The finished game's export has its messages. */
    snprintf(path, sizeof path, "/v1/games/%s/export", plain);
    long xst = req(&s, "GET", path, NULL, NULL, &r);
    int exported = cJSON_GetArraySize(jget(r.json, "chat_messages")) == 1 &&
                   strcmp(jstr(r.json, "chat_messages.0.text"), "good luck") == 0 &&
                   strcmp(jstr(r.json, "chat_messages.0.name"), "Bob") == 0 &&
                   strcmp(jstr(r.json, "chat"), "private") == 0;
    /* ... and a replay of it reads past them (a replay plays actions, not talk). */
    char *replay = NULL;
    if (r.json) {
        cJSON *body = cJSON_CreateObject();
        cJSON_AddItemToObject(body, "replay", cJSON_Duplicate(r.json, 1));
        replay = cJSON_PrintUnformatted(body);
        cJSON_Delete(body);
    }
    resp_free(&r);
    long rst = replay ? req(&s, "POST", "/v1/games", replay, NULL, &r) : 0;
    if (replay) resp_free(&r);
    free(replay);
    int stopped = hard_server_stop(&s);
    CHECK(sus == 200 && games == 2, "suspend: %ld, %d games", sus, games);
    CHECK(timed >= 1 && bobs_turn == 1 && placed1 >= 1,
          "the suspended seat's turn was not played (%ld timeouts)", timed);
    CHECK(played >= 0, "Bob's turn: %s", why);
    CHECK(timed2 >= 2, "the suspended seat's next turn was not played (%ld timeouts)", timed2);
    CHECK(resigned == 1 && strcmp(result, "resignation") == 0,
          "the game without a clock: finished %ld, result %s", resigned, result);
    CHECK(xst == 200 && exported, "the export: %ld, without its messages", xst);
    CHECK(rst == 201, "the export replayed: %ld", rst);
    CHECK(stopped == 0, "the server exited with %d", stopped);
}

ITEST(test_chat_retention, "chat: retention deletes a game's messages and reports with it")
{
    HARD_SERVER(s, 1, "RETENTION_DAYS=1", "RETENTION_INTERVAL=1", "JOBS_POLL_MS=50");
    char why[300], code[64], path[200];
    struct game g;
    int rc = game_new(&s, CHAT_GAME, &g, why, sizeof why);
    long posted = 0, reported = 0, aborted = 0;
    if (rc == 0) {
        posted = post_chat(&s, g.id, "{\"text\":\"bye\"}", g.auth[0], code, sizeof code);
        struct resp r;
        snprintf(path, sizeof path, "/v1/games/%s/chat/1/report", g.id);
        reported = req(&s, "POST", path, NULL, g.auth[1], &r);
        resp_free(&r);
        snprintf(path, sizeof path, "/v1/games/%s/abort", g.id);
        aborted = req(&s, "POST", path, NULL, g.auth[0], &r);
        resp_free(&r);
    }
    const char *v[] = {g.id};
    long before = db_scalar_params("SELECT (SELECT count(*) FROM chat_messages WHERE game_id = "
                                   "$1::uuid) + (SELECT count(*) FROM chat_reports WHERE game_id "
                                   "= $1::uuid)",
                                   1, v);
    /* Ended two days ago: the next sweep deletes it with everything of it. */
    db_scalar_params("WITH u AS (UPDATE games SET ended_at = now() - interval '2 days' WHERE id = "
                     "$1::uuid RETURNING 1) SELECT count(*) FROM u",
                     1, v);
    /* The run's own server (srv) shares the database and runs the same one retention job
     * without RETENTION_DAYS: claiming it first, it swept nothing and planned it a minute
     * on (RETENTION_INTERVAL's default), which the wait below barely outlasts (a CI run
     * failed so after 111 s). Paused meanwhile, it leaves the job to s. */
    kill(srv->pid, SIGSTOP);
    db_scalar("WITH u AS (UPDATE jobs SET due_at = now(), claimed_until = now() WHERE kind = "
              "'retention' RETURNING 1) SELECT count(*) FROM u");
    /* The sweep deletes the oldest ended games first, in batches: on a shared test database
     * other old games may come first; wait for ours, up to a minute. */
    long games = 1;
    for (int i = 0; i < 600 && games != 0; i++) {
        games = db_scalar_params("SELECT count(*) FROM games WHERE id = $1::uuid", 1, v);
        if (games) usleep(100000);
    }
    kill(srv->pid, SIGCONT);
    long after = db_scalar_params("SELECT (SELECT count(*) FROM chat_messages WHERE game_id = "
                                  "$1::uuid) + (SELECT count(*) FROM chat_reports WHERE game_id "
                                  "= $1::uuid)",
                                  1, v);
    int stopped = hard_server_stop(&s);
    CHECK(rc == 0, "%s", why);
    CHECK(posted == 201 && reported == 201 && aborted == 200, "post %ld, report %ld, abort %ld",
          posted, reported, aborted);
    CHECK(before == 2, "%ld rows of talk before the sweep, not 2", before);
    CHECK(games == 0, "the sweep did not delete the game");
    CHECK(after == 0, "%ld rows of talk left after the game was deleted", after);
    CHECK(stopped == 0, "the server exited with %d", stopped);
}
