/* t_inbox.c: a player's games and a player's webhook (issue 11, items 5 and 6): the list's
 * order (the player's turn first, then the most recently changed), its filters, paging
 * through more games than a page holds without duplicates or gaps, my_turn_count, the
 * entries' fields, ETag and 304, nobody else's games; the seats' names as the games have
 * them, also after a join by name and a join that binds a player; the webhook delivered for two
 * games of the player (one created before it was set, one after), signed as a game's, naming its
 * game, and nothing of a game where the player holds no seat; removing it. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "hook.h"
#include "tests.h"

/* A short game: the start tile and eight tiles. */
#define INBOX_DECK  "\"start\":\"D\",\"deck\":[\"K\",\"D\",\"E\",\"U\",\"V\",\"B\",\"A\",\"L\"]"
#define INBOX_GAMES 7 /* Ann's games in the list test */

/* A game with seat 0 bound to `p` ({"player": "me"}) and seat 1 "Zed" (`extra` adds members
 * to the body, e.g. the deck) into `g`: seat 0 acts with the player token. 0 or -1. */
static int my_game(const struct server *srv, const struct person *p, const char *extra,
                   struct game *g, char *why, size_t cap)
{
    char body[512];
    snprintf(body, sizeof body, "{\"players\":[{\"player\":\"me\"},{\"name\":\"Zed\"}],%s}", extra);
    const char *h[] = {p->auth, NULL};
    struct resp r;
    http(srv, "POST", "/v1/games", body, h, &r);
    int rc = -1;
    memset(g, 0, sizeof *g);
    if (r.status == 201) {
        snprintf(g->id, sizeof g->id, "%s", jstr(r.json, "id"));
        g->nplayers = 2;
        snprintf(g->auth[0], sizeof g->auth[0], "%s", p->auth);
        snprintf(g->token[1], sizeof g->token[1], "%s", jstr(r.json, "players.1.token"));
        snprintf(g->auth[1], sizeof g->auth[1], "Authorization: Bearer %s", g->token[1]);
        rc = 0;
    } else {
        snprintf(why, cap, "create: %ld %.200s", r.status, r.body);
    }
    resp_free(&r);
    return rc;
}

/* GET /v1/players/me/games`query` as `p` (header `extra` too, may be NULL) into `r`. */
static void list(const struct server *srv, const struct person *p, const char *query,
                 const char *extra, struct resp *r)
{
    char path[600];
    snprintf(path, sizeof path, "/v1/players/me/games%.500s", query);
    const char *h[] = {p ? p->auth : extra, p ? extra : NULL, NULL};
    http(srv, "GET", path, NULL, h, r);
}

/* The ids of the entries of list answer `j`, joined by ",", appended to `out`. */
static void ids_of(const cJSON *j, char *out, size_t cap)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, jget(j, "games"))
    {
        size_t n = strlen(out);
        snprintf(out + n, cap - n, "%s%s", out[0] ? "," : "", jstr(e, "id"));
    }
}

/* The whole list for `query` (which begins with "?"), page by page with limit `limit`: the
 * ids joined by "," into `out`; the pages into *pages. 0, or -1 with why. */
static int list_all(const struct server *srv, const struct person *p, const char *query, int limit,
                    char *out, size_t cap, int *pages, char *why, size_t wcap)
{
    char cursor[256] = "";
    out[0] = '\0';
    *pages = 0;
    for (int i = 0; i < 50; i++) {
        char q[512];
        snprintf(q, sizeof q, "%s%slimit=%d%s%s", query, query[0] ? "&" : "?", limit,
                 cursor[0] ? "&cursor=" : "", cursor);
        struct resp r;
        list(srv, p, q, NULL, &r);
        if (r.status != 200 || cJSON_GetArraySize(jget(r.json, "games")) > limit) {
            snprintf(why, wcap, "GET %.150s: %ld %.200s", q, r.status, r.body);
            resp_free(&r);
            return -1;
        }
        ids_of(r.json, out, cap);
        (*pages)++;
        const cJSON *next = jget(r.json, "next_cursor");
        int more = cJSON_IsString(next);
        if (more) snprintf(cursor, sizeof cursor, "%s", next->valuestring);
        resp_free(&r);
        if (!more) return 0;
    }
    snprintf(why, wcap, "more than 50 pages");
    return -1;
}

/* The ids of games[] at the indexes `order` (n of them), joined by ",". */
static void expect_ids(const struct game *games, const int *order, int n, char *out, size_t cap)
{
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "%s%s", i ? "," : "", games[order[i]].id);
    }
}

/* POSTs /v1/games/{id}/draw as seat `seat` of `g`: the status. */
static long draw(const struct server *srv, const struct game *g, int seat)
{
    struct resp r;
    game_post(srv, g, seat, "draw", NULL, &r);
    long st = r.status;
    resp_free(&r);
    return st;
}

/* `in` as base64url without padding into `out` (cap bytes): OpenSSL's base64, its alphabet
 * turned into base64url's. */
static void b64url(const char *in, char *out, size_t cap)
{
    size_t n = strlen(in);
    out[0] = '\0';
    if (4 * ((n + 2) / 3) + 1 > cap) return;
    int len = EVP_EncodeBlock((unsigned char *)out, (const unsigned char *)in, (int)n);
    while (len > 0 && out[len - 1] == '=') len--;
    out[len] = '\0';
    for (char *c = out; *c; c++) *c = *c == '+' ? '-' : *c == '/' ? '_' : *c;
}

/* The status and problem code of GET /v1/players/me/games`query` as `p`. */
static long list_code(const struct server *srv, const struct person *p, const char *query,
                      char *code, size_t cap)
{
    struct resp r;
    list(srv, p, query, NULL, &r);
    return resp_done(&r, code, cap); /* only a problem has a code */
}

ITEST(test_inbox_list,
      "inbox: my games in order (my turn, then changed last), filters, pages, ETag, nobody else's")
{
    char why[400] = "", code[64];
    struct person ann, bob, cy;
    CHECK(person_new(srv, "Ann", &ann, why, sizeof why) == 0, "%s", why);
    CHECK(person_new(srv, "Bob", &bob, why, sizeof why) == 0, "%s", why);
    CHECK(person_new(srv, "Cy", &cy, why, sizeof why) == 0, "%s", why);
    struct game g[INBOX_GAMES], b[2], fin;
    for (int i = 0; i < INBOX_GAMES; i++)
        CHECK(my_game(srv, &ann, INBOX_DECK, &g[i], why, sizeof why) == 0, "%s", why);
    for (int i = 0; i < 2; i++)
        CHECK(my_game(srv, &bob, INBOX_DECK, &b[i], why, sizeof why) == 0, "%s", why);
    /* Ann plays a whole turn in games 1, 3 and 5 (in that order): Zed's turn there. */
    for (int i = 1; i < INBOX_GAMES; i += 2)
        CHECK(play_turn(srv, &g[i], 0, why, sizeof why) == 0, "Ann's turn in game %d: %s", i, why);
    /* Then Zed draws in game 1: changed last of those, still not Ann's turn. */
    CHECK(draw(srv, &g[1], 1) == 200, "Zed's draw in game 1");
    /* Ann's turn first (the most recently changed first: 6, 4, 2, 0), then the others
     * (1, 5, 3). */
    static const int order[INBOX_GAMES] = {6, 4, 2, 0, 1, 5, 3};
    char want[1024], got[1024];
    expect_ids(g, order, INBOX_GAMES, want, sizeof want);
    struct resp r;
    list(srv, &ann, "", NULL, &r);
    CHECK(r.status == 200, "GET /v1/players/me/games: %ld %.200s", r.status, r.body);
    got[0] = '\0';
    ids_of(r.json, got, sizeof got);
    long turns = (long)jnum(r.json, "my_turn_count");
    int next_null = cJSON_IsNull(jget(r.json, "next_cursor"));
    char etag[64];
    snprintf(etag, sizeof etag, "%s", r.etag);
    /* An entry: game 6 (Ann's turn, seat 0 to draw) and game 3 (Zed to draw). */
    const cJSON *e0 = jget(r.json, "games.0"), *e6 = jget(r.json, "games.6");
    int fields_ok = e0 && e6 && strcmp(jstr(e0, "ruleset"), "classic") == 0 &&
                    strcmp(jstr(e0, "status"), "active") == 0 && jnum(e0, "seat") == 0 &&
                    cJSON_IsTrue(jget(e0, "my_turn")) && jnum(e0, "turn.number") == 1 &&
                    jnum(e0, "turn.seat") == 0 && strcmp(jstr(e0, "turn.phase"), "draw") == 0 &&
                    cJSON_IsNull(jget(e0, "deadline")) && strlen(jstr(e0, "updated_at")) >= 20 &&
                    jnum(e0, "version") == 1 && strcmp(jstr(e0, "players.0.name"), "Ann") == 0 &&
                    strcmp(jstr(e0, "players.1.name"), "Zed") == 0 &&
                    jnum(e0, "players.0.score") == 0 && cJSON_IsFalse(jget(e6, "my_turn")) &&
                    jnum(e6, "turn.number") == 2 && jnum(e6, "turn.seat") == 1 &&
                    strcmp(jstr(e6, "turn.phase"), "draw") == 0 && jnum(e6, "players.1.seat") == 1;
    char e0_text[600] = "";
    char *e0_json = e0 ? cJSON_PrintUnformatted(e0) : NULL;
    snprintf(e0_text, sizeof e0_text, "%.590s", e0_json ? e0_json : "");
    free(e0_json);
    resp_free(&r);
    CHECK(strcmp(got, want) == 0, "the list's order:\n  got  %s\n  want %s", got, want);
    CHECK(turns == 4, "my_turn_count %ld, not 4", turns);
    CHECK(next_null, "a list shorter than a page has a next_cursor");
    CHECK(fields_ok, "the entries' fields: %s", e0_text);
    CHECK(etag[0] == '"', "no ETag");

    /* 304 while nothing in it changed; 200 with another tag once a game moved. */
    char inm[128];
    snprintf(inm, sizeof inm, "If-None-Match: %s", etag);
    list(srv, &ann, "", inm, &r);
    long st304 = r.status;
    size_t len304 = r.len;
    resp_free(&r);
    CHECK(st304 == 304 && len304 == 0, "If-None-Match with the list's tag: %ld", st304);
    snprintf(inm, sizeof inm, "If-None-Match: W/%s, \"other\"", etag);
    list(srv, &ann, "", inm, &r);
    st304 = r.status;
    resp_free(&r);
    CHECK(st304 == 304, "If-None-Match with the weak tag in a list: %ld", st304);
    CHECK(draw(srv, &g[3], 1) == 200, "Zed's draw in game 3");
    snprintf(inm, sizeof inm, "If-None-Match: %s", etag);
    list(srv, &ann, "", inm, &r);
    long st200 = r.status;
    int new_tag = r.etag[0] && strcmp(r.etag, etag) != 0;
    got[0] = '\0';
    ids_of(r.json, got, sizeof got);
    resp_free(&r);
    CHECK(st200 == 200 && new_tag, "after a move the tag %s answered %ld", etag, st200);
    static const int order2[INBOX_GAMES] = {6, 4, 2, 0, 3, 1, 5};
    expect_ids(g, order2, INBOX_GAMES, want, sizeof want);
    CHECK(strcmp(got, want) == 0, "the order after game 3 moved:\n  got  %s\n  want %s", got, want);

    /* Pages of 3, 2 and 1: every game once, in the same order, the last page without a
     * cursor. */
    static const int limits[] = {3, 2, 1, 7};
    static const int npages[] = {3, 4, 7, 1};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        int pages = 0;
        CHECK(list_all(srv, &ann, "", limits[i], got, sizeof got, &pages, why, sizeof why) == 0,
              "%s", why);
        CHECK(strcmp(got, want) == 0 && pages == npages[i],
              "paged by %d: %d pages\n  got  %s\n  want %s", limits[i], pages, got, want);
    }
    /* Filters, paged too. */
    int pages = 0;
    static const int mine[] = {6, 4, 2, 0}, theirs[] = {3, 1, 5};
    CHECK(list_all(srv, &ann, "?my_turn=true", 3, got, sizeof got, &pages, why, sizeof why) == 0,
          "%s", why);
    expect_ids(g, mine, 4, want, sizeof want);
    CHECK(strcmp(got, want) == 0 && pages == 2, "my_turn=true:\n  got  %s\n  want %s", got, want);
    CHECK(list_all(srv, &ann, "?my_turn=false", 2, got, sizeof got, &pages, why, sizeof why) == 0,
          "%s", why);
    expect_ids(g, theirs, 3, want, sizeof want);
    CHECK(strcmp(got, want) == 0, "my_turn=false:\n  got  %s\n  want %s", got, want);
    CHECK(list_all(srv, &ann, "?status=active&my_turn=true", 3, got, sizeof got, &pages, why,
                   sizeof why) == 0,
          "%s", why);
    expect_ids(g, mine, 4, want, sizeof want);
    CHECK(strcmp(got, want) == 0, "status=active&my_turn=true:\n  got  %s\n  want %s", got, want);
    static const char *const empty[] = {"?status=finished", "?status=waiting", "?status=aborted"};
    for (size_t i = 0; i < 3; i++) {
        CHECK(list_all(srv, &ann, empty[i], 5, got, sizeof got, &pages, why, sizeof why) == 0, "%s",
              why);
        CHECK(got[0] == '\0', "%s lists %s", empty[i], got);
    }
    /* A finished game (a deck of one tile): listed under finished, never Ann's turn. */
    CHECK(my_game(srv, &ann, "\"start\":\"D\",\"deck\":[\"K\"]", &fin, why, sizeof why) == 0, "%s",
          why);
    CHECK(play_turn(srv, &fin, 0, why, sizeof why) == 1, "the one-tile game did not end: %s", why);
    CHECK(list_all(srv, &ann, "?status=finished", 5, got, sizeof got, &pages, why, sizeof why) == 0,
          "%s", why);
    CHECK(strcmp(got, fin.id) == 0, "status=finished lists \"%s\", not the finished game", got);
    list(srv, &ann, "?limit=1", NULL, &r);
    int fin_first =
        strcmp(jstr(r.json, "games.0.id"), g[6].id) == 0 && jnum(r.json, "my_turn_count") == 4;
    resp_free(&r);
    CHECK(fin_first, "the finished game (changed last) came before a game of Ann's turn");
    list(srv, &ann, "?status=finished", NULL, &r);
    int fin_ok = strcmp(jstr(r.json, "games.0.status"), "finished") == 0 &&
                 cJSON_IsFalse(jget(r.json, "games.0.my_turn")) &&
                 strcmp(jstr(r.json, "games.0.turn.phase"), "finished") == 0 &&
                 cJSON_IsNull(jget(r.json, "games.0.turn.seat"));
    resp_free(&r);
    CHECK(fin_ok, "the finished game's entry");

    /* Nobody else's games: Bob sees his two, Cy none. */
    CHECK(list_all(srv, &bob, "", 50, got, sizeof got, &pages, why, sizeof why) == 0, "%s", why);
    snprintf(want, sizeof want, "%s,%s", b[1].id, b[0].id);
    CHECK(strcmp(got, want) == 0, "Bob's list:\n  got  %s\n  want %s", got, want);
    list(srv, &cy, "", NULL, &r);
    int cy_ok = r.status == 200 && cJSON_GetArraySize(jget(r.json, "games")) == 0 &&
                jnum(r.json, "my_turn_count") == 0;
    resp_free(&r);
    CHECK(cy_ok, "Cy's list is not empty");

    /* Refusals. */
    static const char *const bad[] = {"?status=playing",  "?status=",   "?my_turn=yes",
                                      "?limit=0",         "?limit=101", "?limit=-1",
                                      "?limit=x",         "?cursor=x",  "?cursor=%21%21",
                                      "?cursor=MC4xLjIu", "?cursor="};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        long st = list_code(srv, &ann, bad[i], code, sizeof code);
        CHECK(st == 400 && strcmp(code, "invalid_parameter") == 0, "%s: %ld %s", bad[i], st, code);
    }
    /* Issue 29, item 14: a parameter twice; a cursor the list did not give, though well
     * formed (keys of one of Ann's games, with and without a MAC, a MAC altered), and one
     * it gave, but to Bob, or with other filters. */
    list(srv, &ann, "?limit=1", NULL, &r);
    char given[256];
    snprintf(given, sizeof given, "%s", jstr(r.json, "next_cursor"));
    resp_free(&r);
    CHECK(strchr(given, '.'), "no next_cursor of the form keys.mac: \"%s\"", given);
    char keys[160], keys64[240], forged[5][300];
    snprintf(keys, sizeof keys, "1.9223372036854775807.-1.%s", g[0].id);
    b64url(keys, keys64, sizeof keys64);
    snprintf(forged[0], sizeof forged[0], "?cursor=%s", keys64);
    snprintf(forged[1], sizeof forged[1], "?cursor=%s.AAAAAAAAAAAAAAAAAAAAAA", keys64);
    snprintf(forged[2], sizeof forged[2], "?cursor=%.*s.AAAAAAAAAAAAAAAAAAAAAA",
             (int)(strchr(given, '.') - given), given);
    snprintf(forged[3], sizeof forged[3], "?cursor=%s&status=active", given);
    snprintf(forged[4], sizeof forged[4], "?my_turn=true&cursor=%s", given);
    const char *const twice[] = {"?limit=5&limit=6", "?my_turn=true&my_turn=false",
                                 "?status=active&status=active"};
    for (size_t i = 0; i < 3 + 5; i++) {
        const char *q = i < 3 ? twice[i] : forged[i - 3];
        long st = list_code(srv, &ann, q, code, sizeof code);
        CHECK(st == 400 && strcmp(code, "invalid_parameter") == 0, "%s: %ld %s", q, st, code);
    }
    char given_q[300];
    snprintf(given_q, sizeof given_q, "?cursor=%s", given);
    long bob_st = list_code(srv, &bob, given_q, code, sizeof code);
    CHECK(bob_st == 400 && strcmp(code, "invalid_parameter") == 0, "Ann's cursor used by Bob: %ld",
          bob_st);
    CHECK(list_code(srv, &ann, given_q, code, sizeof code) == 200, "the cursor given: %s", code);
    list(srv, NULL, "", NULL, &r);
    long st = resp_done(&r, code, sizeof code);
    CHECK(st == 401 && strcmp(code, "missing_token") == 0, "no token: %ld %s", st, code);
    list(srv, NULL, "", g[0].auth[1], &r);
    st = resp_done(&r, code, sizeof code);
    CHECK(st == 401 && strcmp(code, "unknown_token") == 0, "a seat's token: %ld %s", st, code);
}

/* POST `body` to `path` with header `h` (NULL: none): the status, the answer in `r`. */
static long post_json(const struct server *srv, const char *path, const char *body, const char *h,
                      struct resp *r)
{
    const char *hs[] = {h, NULL};
    http(srv, "POST", path, body, h ? hs : NULL, r);
    return r->status;
}

/* The names of the seats of list answer `j`'s entry for game `id`, joined by ",". */
static void names_of(const cJSON *j, const char *id, char *out, size_t cap)
{
    out[0] = '\0';
    const cJSON *e;
    cJSON_ArrayForEach(e, jget(j, "games"))
    {
        if (strcmp(jstr(e, "id"), id) != 0) continue;
        const cJSON *pl;
        cJSON_ArrayForEach(pl, jget(e, "players"))
        {
            size_t n = strlen(out);
            snprintf(out + n, cap - n, "%s%s", n ? "," : "", jstr(pl, "name"));
        }
    }
}

ITEST(test_inbox_names, "inbox: the list names the seats as the game does, also after joins")
{
    char why[400] = "", names[256], path[160], body[256];
    struct person ann, cy;
    CHECK(person_new(srv, "Ann", &ann, why, sizeof why) == 0, "%s", why);
    CHECK(person_new(srv, "Cy", &cy, why, sizeof why) == 0, "%s", why);
    /* Ann's game with an open seat: the list names it as the game does, then the name its
     * joiner took. */
    struct resp r;
    long st = post_json(srv, "/v1/games", "{\"players\":[{\"player\":\"me\"},{\"open\":true}]}",
                        ann.auth, &r);
    char id[64], invite[128];
    snprintf(id, sizeof id, "%s", st == 201 ? jstr(r.json, "id") : "");
    snprintf(invite, sizeof invite, "%s", st == 201 ? jstr(r.json, "players.1.invite") : "");
    char open_name[64];
    snprintf(open_name, sizeof open_name, "%s", st == 201 ? jstr(r.json, "players.1.name") : "");
    resp_free(&r);
    CHECK(st == 201 && invite[0], "create with an open seat: %ld", st);
    list(srv, &ann, "", NULL, &r);
    names_of(r.json, id, names, sizeof names);
    resp_free(&r);
    char want[160];
    snprintf(want, sizeof want, "Ann,%s", open_name);
    CHECK(strcmp(names, want) == 0, "before the join: %s, not %s", names, want);
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    snprintf(body, sizeof body, "{\"invite\":\"%s\",\"name\":\"Joe\"}", invite);
    st = post_json(srv, path, body, NULL, &r);
    resp_free(&r);
    CHECK(st == 200 || st == 201, "join as Joe: %ld", st);
    list(srv, &ann, "", NULL, &r);
    names_of(r.json, id, names, sizeof names);
    resp_free(&r);
    CHECK(strcmp(names, "Ann,Joe") == 0, "after the join: %s", names);
    /* Cy takes the open seat of a game nobody listed before: it is in Cy's list, named. */
    st =
        post_json(srv, "/v1/games", "{\"players\":[{\"name\":\"Dee\"},{\"open\":true}]}", NULL, &r);
    snprintf(id, sizeof id, "%s", st == 201 ? jstr(r.json, "id") : "");
    snprintf(invite, sizeof invite, "%s", st == 201 ? jstr(r.json, "players.1.invite") : "");
    resp_free(&r);
    CHECK(st == 201 && invite[0], "anonymous create with an open seat: %ld", st);
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    snprintf(body, sizeof body, "{\"invite\":\"%s\"}", invite);
    st = post_json(srv, path, body, cy.auth, &r);
    resp_free(&r);
    CHECK(st == 200 || st == 201, "join as Cy: %ld", st);
    list(srv, &cy, "", NULL, &r);
    names_of(r.json, id, names, sizeof names);
    int seat = (int)jnum(r.json, "games.0.seat");
    resp_free(&r);
    CHECK(strcmp(names, "Dee,Cy") == 0 && seat == 1, "Cy's list: %s, seat %d", names, seat);
}

/* Requests received for game `id` (its X-Tilehall-Delivery "<id>:<seq>"), or all with NULL. */
static int received(struct listener *l, const char *id)
{
    pthread_mutex_lock(&l->lock);
    int n = 0;
    for (int i = 0; i < l->n; i++) n += !id || strncmp(l->req[i].delivery, id, strlen(id)) == 0;
    pthread_mutex_unlock(&l->lock);
    return n;
}

/* Waits up to `ms` until the receiver has `n` requests for game `id`; 1 if so. */
static int wait_received(struct listener *l, const char *id, int n, long ms)
{
    for (long t = 0; t <= ms; t += 20) {
        if (received(l, id) >= n) return 1;
        usleep(20000);
    }
    return 0;
}

/* The number of events of game `id`, or -1. */
static int events_of(const struct server *srv, const char *id)
{
    cJSON *ev = game_events(srv, id);
    int n = ev ? cJSON_GetArraySize(ev) : -1;
    cJSON_Delete(ev);
    return n;
}

/*
 * Checks the receiver's requests for game `id`: events `from` .. `to` in order, each once,
 * each body {"game": id, "event": {"seq": ...}}, signed with `secret` (X-Tilehall-Signature
 * and the Standard Webhooks headers). 0, or -1 with why.
 */
static int check_game(struct listener *l, const char *id, int from, int to, const char *secret,
                      char *why, size_t cap)
{
    int seq = from, rc = 0;
    pthread_mutex_lock(&l->lock);
    for (int i = 0; i < l->n && rc == 0; i++) {
        const struct hook_req *r = &l->req[i];
        if (strncmp(r->delivery, id, strlen(id)) != 0) continue;
        cJSON *b = cJSON_Parse(r->body);
        char want[128];
        snprintf(want, sizeof want, "%s:%d", id, seq);
        unsigned char mac[EVP_MAX_MD_SIZE];
        unsigned int n = 0;
        char hex[2 * EVP_MAX_MD_SIZE + 8] = "sha256=";
        if (HMAC(EVP_sha256(), secret, (int)strlen(secret), (const unsigned char *)r->body,
                 strlen(r->body), mac, &n))
            for (unsigned k = 0; k < n; k++) snprintf(hex + 7 + 2 * k, 3, "%02x", mac[k]);
        if (strcmp(r->delivery, want) != 0 || strcmp(jstr(b, "game"), id) != 0 ||
            jnum(b, "event.seq") != seq || strcmp(hex, r->sig) != 0 || !r->wid[0] ||
            strncmp(r->wsig, "v1,", 3) != 0) {
            snprintf(why, cap, "delivery %s (want %s): game \"%s\", signature %s, webhook-id %s",
                     r->delivery, want, jstr(b, "game"), strcmp(hex, r->sig) ? "wrong" : "ok",
                     r->wid);
            rc = -1;
        }
        cJSON_Delete(b);
        seq++;
    }
    pthread_mutex_unlock(&l->lock);
    if (rc == 0 && seq != to + 1) {
        snprintf(why, cap, "game %s: events %d .. %d delivered, not %d .. %d", id, from, seq - 1,
                 from, to);
        rc = -1;
    }
    return rc;
}

/* POST|GET|DELETE /v1/players/me/webhook as `p` (body for POST) into `r`. */
static void hook(const struct server *srv, const struct person *p, const char *method,
                 const char *body, struct resp *r)
{
    const char *h[] = {p->auth, NULL};
    http(srv, method, "/v1/players/me/webhook", body, h, r);
}

ITEST(test_inbox_webhook,
      "inbox: the player's webhook delivers two games' events, signed, each naming its game")
{
    char why[400] = "";
    struct person ann, bob;
    CHECK(person_new(srv, "Ann", &ann, why, sizeof why) == 0, "%s", why);
    CHECK(person_new(srv, "Bob", &bob, why, sizeof why) == 0, "%s", why);
    struct resp r;
    hook(srv, &ann, "GET", NULL, &r);
    long st = r.status;
    resp_free(&r);
    CHECK(st == 404, "GET before any webhook: %ld", st);
    struct game g1, g2, other;
    CHECK(my_game(srv, &ann, INBOX_DECK, &g1, why, sizeof why) == 0, "%s", why);
    CHECK(my_game(srv, &bob, INBOX_DECK, &other, why, sizeof why) == 0, "%s", why);
    int before = events_of(srv, g1.id);
    CHECK(before > 0, "no events of game 1");

    /* Refusals: nothing set. */
    hook(srv, &ann, "POST", "{\"url\":\"ftp://127.0.0.1/x\"}", &r);
    char code[64];
    st = resp_done(&r, code, sizeof code);
    CHECK(st == 400 && strcmp(code, "invalid_webhook_url") == 0, "an ftp URL: %ld %s", st, code);
    hook(srv, &ann, "POST", "{\"url\":1}", &r);
    st = r.status;
    resp_free(&r);
    CHECK(st == 400, "a URL that is a number: %ld", st);
    const char *seat_token[] = {g1.auth[1], NULL};
    http(srv, "POST", "/v1/players/me/webhook", "{\"url\":\"http://127.0.9.9:9/\"}", seat_token,
         &r);
    st = resp_done(&r, code, sizeof code);
    CHECK(st == 401 && strcmp(code, "unknown_token") == 0, "a seat's token: %ld %s", st, code);
    hook(srv, &ann, "GET", NULL, &r);
    st = r.status;
    resp_free(&r);
    CHECK(st == 404, "GET after the refusals: %ld", st);

    struct listener *l = listener_start();
    CHECK(l, "no receiver");
    char body[160], secret[96] = "";
    snprintf(body, sizeof body, "{\"url\":\"http://127.0.0.1:%d/ann\"}", l->port);
    hook(srv, &ann, "POST", body, &r);
    st = r.status;
    snprintf(secret, sizeof secret, "%s", jstr(r.json, "secret"));
    int std_ok = strncmp(jstr(r.json, "standard_secret"), "whsec_", 6) == 0;
    resp_free(&r);
    if (st != 200 || !secret[0] || !std_ok) listener_stop(l);
    CHECK(st == 200 && secret[0] && std_ok, "POST /v1/players/me/webhook: %ld", st);

    /* Game 2 is created after: all its events; game 1 those after the webhook was set. */
    int rc = my_game(srv, &ann, INBOX_DECK, &g2, why, sizeof why);
    if (rc == 0 && play_turn(srv, &g1, 0, why, sizeof why) < 0) rc = -1;
    if (rc == 0 && play_turn(srv, &g2, 0, why, sizeof why) < 0) rc = -1;
    if (rc == 0 && play_turn(srv, &g1, 0, why, sizeof why) < 0) rc = -1; /* Zed's turn */
    if (rc == 0 && play_turn(srv, &other, 0, why, sizeof why) < 0) rc = -1;
    int n1 = rc == 0 ? events_of(srv, g1.id) : -1, n2 = rc == 0 ? events_of(srv, g2.id) : -1;
    int got1 = rc == 0 && wait_received(l, g1.id, n1 - before, 5000);
    int got2 = rc == 0 && wait_received(l, g2.id, n2, 5000);
    int r1 = received(l, g1.id), r2 = received(l, g2.id);
    usleep(300000); /* time for a wrong delivery to show */
    int c1 = got1 ? check_game(l, g1.id, before + 1, n1, secret, why, sizeof why) : -1;
    int c2 = c1 == 0 && got2 ? check_game(l, g2.id, 1, n2, secret, why, sizeof why) : -1;
    int strays = received(l, other.id);
    hook(srv, &ann, "GET", NULL, &r);
    long gst = r.status;
    int state_ok = gst == 200 && jnum(r.json, "games") == 2 &&
                   jnum(r.json, "delivered") == (n1 - before) + n2 &&
                   jnum(r.json, "pending") == 0 && jnum(r.json, "failed") == 0 &&
                   cJSON_IsNull(jget(r.json, "last_error")) && !jget(r.json, "secret");
    char state[300];
    snprintf(state, sizeof state, "%.290s", r.body ? r.body : "");
    resp_free(&r);
    /* Bob's webhook state is his own: none. */
    hook(srv, &bob, "GET", NULL, &r);
    long bob_st = r.status;
    resp_free(&r);
    /* Removed: no more deliveries; removed twice: 404. */
    hook(srv, &ann, "DELETE", NULL, &r);
    long del = r.status;
    resp_free(&r);
    hook(srv, &ann, "DELETE", NULL, &r);
    long del2 = r.status;
    resp_free(&r);
    int total = received(l, NULL);
    if (rc == 0 && play_turn(srv, &g2, 0, why, sizeof why) < 0) rc = -1;
    usleep(400000);
    int after = received(l, NULL);
    hook(srv, &ann, "GET", NULL, &r);
    long gone = r.status;
    resp_free(&r);
    listener_stop(l);
    CHECK(rc == 0, "%s", why);
    CHECK(got1 && got2, "deliveries: game 1 %d of %d, game 2 %d of %d", r1, n1 - before, r2, n2);
    CHECK(c1 == 0 && c2 == 0, "%s", why);
    CHECK(strays == 0, "%d deliveries of a game where Ann holds no seat", strays);
    CHECK(state_ok, "GET /v1/players/me/webhook: %ld %s", gst, state);
    CHECK(bob_st == 404, "Bob's webhook: %ld", bob_st);
    CHECK(del == 204 && del2 == 404, "DELETE: %ld, then %ld", del, del2);
    CHECK(after == total, "%d deliveries after the webhook was removed", after - total);
    CHECK(gone == 404, "GET after DELETE: %ld", gone);
}
