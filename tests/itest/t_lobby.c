/* t_lobby.c: open seats with invites, joins and aborts (issue 11, item 2 and the abort of
 * item 4), in every ruleset: a game created with open seats waits (readable, not
 * playable), its seats taken by name and by player token (invite in the body or the
 * query), the last join starts it (game_started in the history, a long poll woken, a
 * webhook delivery written) and every seat plays; every refusal with its code and
 * the stored game unchanged; eight requests racing for one invite (exactly one seat
 * taken), two racing for two invites (one game_started); Idempotency-Key on a join;
 * abort while waiting, before and after every seat placed a tile, and everything on an
 * aborted game refused. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db.h"
#include "lobby.h"
#include "tests.h"

#define LOBBY_DECK "\"start\":\"D\",\"deck\":[\"K\",\"D\",\"E\",\"U\",\"V\",\"B\",\"A\",\"L\"]"

/* Creates the player `name` into `w` (person_new); 0 or -1. */
static int who_new(const struct server *srv, const char *name, struct person *w)
{
    char why[300];
    return person_new(srv, name, w, why, sizeof why);
}

/* POST /v1/games/{id}/<what> with header `h` and no body. */
static long act_on(const struct server *srv, const struct lobby *l, const char *what,
                   const char *body, const char *h, char *code, size_t cap)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/%s", l->g.id, what);
    return lobby_post(srv, path, body, h, NULL, code, cap, NULL);
}

/* The status of the game as GET shows it, into `out`. */
static void status_of(const struct server *srv, const struct lobby *l, char *out, size_t cap)
{
    cJSON *j = game_get(srv, &l->g);
    snprintf(out, cap, "%s", j ? jstr(j, "status") : "?");
    cJSON_Delete(j);
}

static const char *const rulesets[] = {"classic", "hills", "discovery"};

/* One ruleset: three seats (Ann named, an open seat, an open seat "Guest"), joined by name
 * (invite in the body) and by player token (invite in the query's invite_url), then two
 * rounds played (each seat by its seat or player token). */
static void lobby_play(struct server *srv, const char *ruleset)
{
    char why[300], code[64], body[512], st_[16];
    struct person cy;
    CHECK(who_new(srv, "Cy", &cy) == 0, "POST /v1/players failed");
    snprintf(body, sizeof body,
             "{\"ruleset\":\"%s\",\"players\":[{\"name\":\"Ann\"},{\"open\":true},{\"open\":true,"
             "\"name\":\"Guest\"}],\"seed\":11}",
             ruleset);
    struct lobby l;
    struct resp cr;
    long st = lobby_new(srv, body, NULL, &l, &cr);
    int shape = st == 201 && strcmp(jstr(cr.json, "status"), "waiting") == 0 &&
                token_shape(l.g.token[0]) && !l.g.token[1][0] && !l.g.token[2][0] &&
                token_shape(l.invite[1]) && token_shape(l.invite[2]) && !l.invite[0][0] &&
                strcmp(jstr(cr.json, "players.1.name"), "Seat 2") == 0 &&
                strcmp(jstr(cr.json, "players.2.name"), "Guest") == 0 &&
                cJSON_IsTrue(jget(cr.json, "players.1.open")) && !jget(cr.json, "players.0.open");
    char url[160];
    snprintf(url, sizeof url, "/v1/games/%s/join?invite=%s", l.g.id, l.invite[2]);
    shape = shape && strcmp(l.invite_url[2], url) == 0;
    char created[600];
    snprintf(created, sizeof created, "%.590s", cr.body ? cr.body : "");
    resp_free(&cr);
    CHECK(shape, "%s: the create answer: %ld %.300s", ruleset, st, created);
    /* The invites are stored only as hashes. */
    const char *vi[] = {l.g.id, l.invite[1], l.invite[2]};
    CHECK(db_scalar_params("SELECT count(*) FROM players WHERE game_id = $1::uuid AND "
                           "(invite_hash = sha256(convert_to($2, 'UTF8')) OR invite_hash = "
                           "sha256(convert_to($3, 'UTF8')))",
                           3, vi) == 2 &&
              db_scalar_params("SELECT count(*) FROM games WHERE id = $1::uuid AND "
                               "status = 'waiting'",
                               1, vi) == 1,
          "%s: the open seats are not stored as invite hashes of a waiting game", ruleset);
    cJSON *j = game_get(srv, &l.g);
    int read_ok = j && strcmp(jstr(j, "status"), "waiting") == 0 &&
                  cJSON_IsTrue(jget(j, "players.2.open")) && !jget(j, "players.1.invite") &&
                  !jget(j, "players.0.token");
    cJSON_Delete(j);
    CHECK(read_ok, "%s: GET of a waiting game", ruleset);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/turn", l.g.id);
    struct resp r;
    http(srv, "GET", path, NULL, NULL, &r);
    int turn_ok = r.status == 200 && strcmp(jstr(r.json, "status"), "waiting") == 0;
    resp_free(&r);
    CHECK(turn_ok, "%s: /turn of a waiting game", ruleset);
    snprintf(path, sizeof path, "/v1/games/%s/scores", l.g.id);
    http(srv, "GET", path, NULL, NULL, &r);
    int scores_ok = r.status == 200 && strcmp(jstr(r.json, "status"), "waiting") == 0;
    resp_free(&r);
    CHECK(scores_ok, "%s: /scores of a waiting game", ruleset);

    /* Not playable while waiting: 409 game_not_active, nothing changed. */
    UNCHANGED(&l, st = act_on(srv, &l, "draw", NULL, l.g.auth[0], code, sizeof code),
              "%s: a refused draw changed the game", ruleset);
    CHECK(st == 409 && strcmp(code, "game_not_active") == 0, "%s: draw while waiting: %ld %s",
          ruleset, st, code);
    UNCHANGED(&l,
              st = act_on(srv, &l, "placements", "{\"x\":0,\"y\":1,\"rotation\":0}", l.g.auth[0],
                          code, sizeof code),
              "%s: a refused placement changed the game", ruleset);
    CHECK(st == 409 && strcmp(code, "game_not_active") == 0, "%s: place while waiting: %ld %s",
          ruleset, st, code);

    /* Seat 1 by name, the invite in the body. */
    struct resp jr;
    st = lobby_join(srv, &l, l.invite[1], "Bob", NULL, code, sizeof code, &jr);
    int j1 = st == 200 && jnum(jr.json, "seat") == 1 && token_shape(jstr(jr.json, "token")) &&
             strcmp(jstr(jr.json, "status"), "waiting") == 0;
    snprintf(l.g.token[1], sizeof l.g.token[1], "%s", jstr(jr.json, "token"));
    snprintf(l.g.auth[1], sizeof l.g.auth[1], "Authorization: Bearer %s", l.g.token[1]);
    resp_free(&jr);
    CHECK(j1, "%s: Bob's join: %ld %s", ruleset, st, code);
    status_of(srv, &l, st_, sizeof st_);
    CHECK(strcmp(st_, "waiting") == 0, "%s: one seat still open, yet %s", ruleset, st_);
    /* The used invite is gone. */
    UNCHANGED(&l, st = lobby_join(srv, &l, l.invite[1], "Dee", NULL, code, sizeof code, NULL),
              "%s: a join with a used invite changed the game", ruleset);
    CHECK(st == 404 && strcmp(code, "invite_not_found") == 0, "%s: a used invite: %ld %s", ruleset,
          st, code);
    CHECK(act_on(srv, &l, "draw", NULL, l.g.auth[1], code, sizeof code) == 409,
          "%s: Bob acted while a seat is open", ruleset);

    /* Seat 2 by Cy's player token, through the invite_url (invite in the query). */
    UNCHANGED(&l, st = lobby_post(srv, l.invite_url[2], NULL, NULL, NULL, code, sizeof code, NULL),
              "%s: a join without name or token changed the game", ruleset);
    CHECK(st == 401 && strcmp(code, "missing_token") == 0, "%s: no name, no token: %ld %s", ruleset,
          st, code);
    st = lobby_post(srv, l.invite_url[2], NULL, cy.auth, NULL, code, sizeof code, &jr);
    int j2 = st == 200 && jnum(jr.json, "seat") == 2 && !jget(jr.json, "token") &&
             strcmp(jstr(jr.json, "status"), "active") == 0;
    resp_free(&jr);
    CHECK(j2, "%s: Cy's join by the invite_url: %ld %s", ruleset, st, code);
    snprintf(l.g.auth[2], sizeof l.g.auth[2], "%s", cy.auth);
    j = game_get(srv, &l.g);
    int started = j && strcmp(jstr(j, "status"), "active") == 0 &&
                  strcmp(jstr(j, "players.1.name"), "Bob") == 0 &&
                  strcmp(jstr(j, "players.2.name"), "Cy") == 0 && !jget(j, "players.2.open") &&
                  jnum(j, "turn.seat") == 0;
    cJSON_Delete(j);
    CHECK(started, "%s: the game did not start with seat 0 to move", ruleset);
    const char *vg[] = {l.g.id, cy.id};
    CHECK(db_scalar_params("SELECT count(*) FROM players WHERE game_id = $1::uuid AND seat = 2 "
                           "AND person_id = $2::uuid AND invite_hash IS NULL",
                           2, vg) == 1,
          "%s: seat 2 is not stored bound to Cy", ruleset);
    cJSON *ev = game_events(srv, l.g.id);
    int n = cJSON_GetArraySize(ev);
    int events_ok = ev && n >= 3 && strcmp(jstr(ev, "0.type"), "game_created") == 0;
    int joined = 0, start_at = -1;
    for (int i = 0; ev && i < n; i++) {
        const cJSON *e = cJSON_GetArrayItem(ev, i);
        if (strcmp(jstr(e, "type"), "seat_joined") == 0) joined++;
        if (strcmp(jstr(e, "type"), "game_started") == 0) {
            start_at = i;
            events_ok = events_ok && strcmp(jstr(e, "players.2.name"), "Cy") == 0 &&
                        strcmp(jstr(e, "players.1.name"), "Bob") == 0;
        }
    }
    cJSON_Delete(ev);
    CHECK(events_ok && joined == 2 && start_at == n - 1,
          "%s: the events: %d seat_joined, game_started at %d of %d", ruleset, joined, start_at, n);

    /* Two rounds: Ann and Bob by seat token, Cy by player token. */
    for (int turns = 0; turns < 6; turns++)
        CHECK(play_turn(srv, &l.g, turns % 2, why, sizeof why) == 0, "%s: turn %d: %s", ruleset,
              turns + 1, why);
    CHECK(db_replay_check(l.g.id, why, sizeof why) == 0, "%s: %s", ruleset, why);
    CHECK(db_scalar_params("SELECT count(DISTINCT seat) FROM actions WHERE game_id = $1::uuid "
                           "AND kind = 'place'",
                           1, vg) == 3,
          "%s: not every seat placed", ruleset);
}

ITEST(test_lobby_play,
      "lobby: open seats joined by name and player token, started, played (every ruleset)")
{
    for (size_t i = 0; i < sizeof rulesets / sizeof rulesets[0]; i++) {
        lobby_play(srv, rulesets[i]);
        if (itest_failure[0]) return;
    }
}

ITEST(test_lobby_refusals, "lobby: every refusal of a join, its code, the game unchanged")
{
    char code[64];
    struct person ann, bob;
    CHECK(who_new(srv, "Ann", &ann) == 0 && who_new(srv, "Bob", &bob) == 0, "players");
    struct lobby l;
    long st = lobby_new(
        srv, "{\"players\":[{\"player\":\"me\"},{\"open\":true},{\"open\":true}]," LOBBY_DECK "}",
        ann.auth, &l, NULL);
    CHECK(st == 201 && token_shape(l.invite[1]), "create with a me seat and open seats: %ld", st);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/join", l.g.id);
    static const char forged[] = "Zm9yZ2VkLWludml0ZS10aGF0LWlzLW5vdC1hLXJlYWwtb25lMTIz";
    struct {
        const char *body; /* NULL: lobby_join(invite, name) */
        const char *invite;
        const char *name;
        const char *h;
        long status;
        const char *code;
    } cases[] = {
        {NULL, forged, "Dee", NULL, 404, "invite_not_found"},
        {NULL, l.invite[1], NULL, ann.auth, 409, "already_seated"},
        {NULL, l.invite[1], "Dee", bob.auth, 400, "invalid_body"},
        {NULL, l.invite[1], NULL, "Authorization: Bearer nobodys-token", 401, "unknown_token"},
        {NULL, l.invite[1], NULL, NULL, 401, "missing_token"},
        {"{\"name\":\"Dee\"}", NULL, NULL, NULL, 400, "invalid_body"},
        {"{\"invite\":\"x\",\"name\":\"Dee\",\"chair\":1}", NULL, NULL, NULL, 400, "unknown_field"},
        {"{\"invite\":\"x\",\"name\":\"Dee\",\"seat\":1}", NULL, NULL, NULL, 400, "invalid_body"},
        {"{\"invite\":\"\",\"name\":\"Dee\"}", NULL, NULL, NULL, 400, "invalid_body"},
        {"{\"invite\":\"x\",\"name\":\"\"}", NULL, NULL, NULL, 400, "invalid_body"},
        {"[", NULL, NULL, NULL, 400, "invalid_json"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].body)
            UNCHANGED(&l,
                      st = lobby_post(srv, path, cases[i].body, cases[i].h, NULL, code, sizeof code,
                                      NULL),
                      "case %zu changed the game", i);
        else
            UNCHANGED(&l,
                      st = lobby_join(srv, &l, cases[i].invite, cases[i].name, cases[i].h, code,
                                      sizeof code, NULL),
                      "case %zu changed the game", i);
        CHECK(st == cases[i].status && strcmp(code, cases[i].code) == 0,
              "case %zu: %ld %s, not %ld %s", i, st, code, cases[i].status, cases[i].code);
    }
    /* The query's invite and the body's differ; given twice; no such game. */
    char q[400];
    snprintf(q, sizeof q, "%s?invite=%s", path, l.invite[2]);
    char b[200];
    snprintf(b, sizeof b, "{\"invite\":\"%s\",\"name\":\"Dee\"}", l.invite[1]);
    UNCHANGED(&l, st = lobby_post(srv, q, b, NULL, NULL, code, sizeof code, NULL),
              "two invites changed the game");
    CHECK(st == 400 && strcmp(code, "invalid_body") == 0, "two invites: %ld %s", st, code);
    snprintf(q, sizeof q, "%s?invite=%s&invite=%s", path, l.invite[2], l.invite[2]);
    UNCHANGED(&l,
              st = lobby_post(srv, q, "{\"name\":\"Dee\"}", NULL, NULL, code, sizeof code, NULL),
              "a repeated ?invite= changed the game");
    CHECK(st == 400 && strcmp(code, "invalid_parameter") == 0, "?invite= twice: %ld %s", st, code);
    st = lobby_post(srv, "/v1/games/00000000-0000-4000-8000-000000000000/join", b, NULL, NULL, code,
                    sizeof code, NULL);
    CHECK(st == 404 && strcmp(code, "not_found") == 0, "no such game: %ld %s", st, code);
    st = lobby_post(srv, "/v1/games/nope/join", b, NULL, NULL, code, sizeof code, NULL);
    CHECK(st == 404 && strcmp(code, "not_found") == 0, "a bad game id: %ld %s", st, code);
    /* An invite of another game. */
    struct lobby other;
    CHECK(lobby_new(srv, "{\"players\":[{\"name\":\"Al\"},{\"open\":true}]}", NULL, &other, NULL) ==
              201,
          "another game");
    UNCHANGED(&l, st = lobby_join(srv, &l, other.invite[1], "Dee", NULL, code, sizeof code, NULL),
              "another game's invite changed the game");
    CHECK(st == 404 && strcmp(code, "invite_not_found") == 0, "another game's invite: %ld %s", st,
          code);
    /* Bob (already holding seat 1) cannot take seat 2 as well: 409, from the stored seat. */
    CHECK(lobby_join(srv, &l, l.invite[1], NULL, bob.auth, code, sizeof code, NULL) == 200,
          "Bob's join: %s", code);
    UNCHANGED(&l, st = lobby_join(srv, &l, l.invite[2], NULL, bob.auth, code, sizeof code, NULL),
              "Bob's second join changed the game");
    CHECK(st == 409 && strcmp(code, "already_seated") == 0, "Bob's second seat: %ld %s", st, code);
    /* A bound seat acts by its player token once the game started, not before. */
    UNCHANGED(&l, st = act_on(srv, &l, "draw", NULL, ann.auth, code, sizeof code),
              "Ann's early draw changed the game");
    CHECK(st == 409 && strcmp(code, "game_not_active") == 0, "Ann's early draw: %ld %s", st, code);
    CHECK(lobby_join(srv, &l, l.invite[2], "Dee", NULL, code, sizeof code, NULL) == 200, "Dee: %s",
          code);
    CHECK(act_on(srv, &l, "draw", NULL, ann.auth, code, sizeof code) == 200, "Ann's draw: %s",
          code);
    /* A game without open seats starts as before: active, no game_started. */
    struct lobby plain;
    CHECK(lobby_new(srv, "{\"players\":[{\"name\":\"Al\"},{\"name\":\"Bo\"}]}", NULL, &plain,
                    NULL) == 201,
          "a plain game");
    CHECK(db_scalar_id("SELECT count(*) FROM events WHERE game_id = $1::uuid AND type IN "
                       "('game_started', 'seat_joined')",
                       plain.g.id) == 0 &&
              db_scalar_id("SELECT count(*) FROM games WHERE id = $1::uuid AND status = "
                           "'active'",
                           plain.g.id) == 1,
          "a game without open seats is not as before");
    UNCHANGED(&plain, st = lobby_join(srv, &plain, forged, "Dee", NULL, code, sizeof code, NULL),
              "a join of a plain game changed it");
    CHECK(st == 404 && strcmp(code, "invite_not_found") == 0, "join a plain game: %ld %s", st,
          code);
}

#define RACERS 8

ITEST(test_lobby_race,
      "lobby: eight joins racing for one invite, two for two invites, one player for two seats")
{
    struct lobby l;
    CHECK(lobby_new(srv, "{\"players\":[{\"name\":\"Ann\"},{\"open\":true}]}", NULL, &l, NULL) ==
              201,
          "create");
    struct lobby_racer rs[RACERS];
    for (int i = 0; i < RACERS; i++) {
        rs[i] = (struct lobby_racer){.srv = srv, .l = &l, .invite = l.invite[1]};
        snprintf(rs[i].name, sizeof rs[i].name, "R%d", i);
    }
    int lost = 0, winner = lobby_race(rs, RACERS, 404, "invite_not_found", &lost);
    CHECK(winner >= 0 && lost == RACERS - 1, "no one winner, %d got invite_not_found", lost);
    CHECK(lobby_won_by(srv, &l, rs[winner].name),
          "not active with the winner at seat 1, one game_started, one join stored");

    /* Two invites of one game taken at once: both seats, one game_started. */
    pthread_barrier_t go;
    pthread_t th[RACERS];
    struct lobby two;
    CHECK(lobby_new(srv, "{\"players\":[{\"name\":\"Ann\"},{\"open\":true},{\"open\":true}]}", NULL,
                    &two, NULL) == 201,
          "create");
    pthread_barrier_init(&go, NULL, 2);
    for (int i = 0; i < 2; i++) {
        rs[i] = (struct lobby_racer){.srv = srv, .l = &two, .invite = two.invite[1 + i], .go = &go};
        snprintf(rs[i].name, sizeof rs[i].name, "T%d", i);
        pthread_create(&th[i], NULL, lobby_racer_run, &rs[i]);
    }
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    pthread_barrier_destroy(&go);
    CHECK(rs[0].status == 200 && rs[1].status == 200, "two invites at once: %ld %s, %ld %s",
          rs[0].status, rs[0].code, rs[1].status, rs[1].code);
    CHECK(db_events_of(two.g.id, "game_started") == 1 &&
              db_scalar_id("SELECT count(*) FROM games WHERE id = $1::uuid AND status = "
                           "'active' AND version = 3",
                           two.g.id) == 1,
          "two joins at once: not one game_started, or not active at version 3");

    /* One player racing for two seats of one game: one seat, the other 409 already_seated
     * (never a 500 from the unique index players_person_game). */
    struct person dee;
    CHECK(who_new(srv, "Dee", &dee) == 0, "player");
    struct lobby three;
    CHECK(lobby_new(srv,
                    "{\"players\":[{\"name\":\"Ann\"},{\"open\":true},{\"open\":true},{\"open\":"
                    "true}]}",
                    NULL, &three, NULL) == 201,
          "create");
    pthread_barrier_init(&go, NULL, 2);
    for (int i = 0; i < 2; i++) {
        rs[i] = (struct lobby_racer){
            .srv = srv, .l = &three, .invite = three.invite[1 + i], .go = &go, .auth = dee.auth};
        pthread_create(&th[i], NULL, lobby_racer_run, &rs[i]);
    }
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    pthread_barrier_destroy(&go);
    int one = (rs[0].status == 200) + (rs[1].status == 200);
    int seated = (rs[0].status == 409 && strcmp(rs[0].code, "already_seated") == 0) +
                 (rs[1].status == 409 && strcmp(rs[1].code, "already_seated") == 0);
    CHECK(one == 1 && seated == 1, "one player, two seats at once: %ld %s, %ld %s", rs[0].status,
          rs[0].code, rs[1].status, rs[1].code);
    const char *v3[] = {three.g.id, dee.id};
    CHECK(db_scalar_params("SELECT count(*) FROM players WHERE game_id = $1::uuid AND person_id = "
                           "$2::uuid",
                           2, v3) == 1 &&
              db_scalar_params("SELECT count(*) FROM players WHERE game_id = $1::uuid AND "
                               "invite_hash IS NOT NULL",
                               1, v3) == 2,
          "one player, two seats at once: not one seat bound, two still open");
}

/* A long poll on the events of `l` after `after` (a thread): its answer. */
struct poller {
    const struct server *srv;
    const struct lobby *l;
    int after;
    struct resp r;
};

static void *poller_run(void *arg)
{
    struct poller *p = arg;
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s/events?after=%d&wait=20", p->l->g.id, p->after);
    http(p->srv, "GET", path, NULL, NULL, &p->r);
    return NULL;
}

ITEST(test_lobby_start_events, "lobby: game_started wakes a long poll and goes to the webhooks")
{
    char code[64];
    struct lobby l;
    CHECK(lobby_new(srv,
                    "{\"players\":[{\"name\":\"Ann\"},{\"open\":true}],\"webhook\":{\"url\":"
                    "\"http://127.0.9.9:9/lobby\"}}",
                    NULL, &l, NULL) == 201,
          "create with a webhook");
    long last = db_scalar_id("SELECT last_seq FROM games WHERE id = $1::uuid", l.g.id);
    struct poller p = {.srv = srv, .l = &l, .after = (int)last};
    pthread_t th;
    pthread_create(&th, NULL, poller_run, &p);
    struct timespec pause = {0, 300 * 1000 * 1000};
    nanosleep(&pause, NULL);
    long st = lobby_join(srv, &l, l.invite[1], "Bob", NULL, code, sizeof code, NULL);
    pthread_join(th, NULL);
    int woke = p.r.status == 200 && strcmp(jstr(p.r.json, "events.0.type"), "seat_joined") == 0 &&
               strcmp(jstr(p.r.json, "events.1.type"), "game_started") == 0;
    char got[300];
    snprintf(got, sizeof got, "%.290s", p.r.body ? p.r.body : "");
    resp_free(&p.r);
    CHECK(st == 200 && woke, "join %ld; the long poll got %s", st, got);
    CHECK(db_scalar_id("SELECT count(*) FROM webhook_deliveries d JOIN webhooks w ON w.id = "
                       "d.webhook_id JOIN events e ON e.game_id = w.game_id AND e.seq = d.seq "
                       "WHERE w.game_id = $1::uuid AND e.type = 'game_started'",
                       l.g.id) == 1,
          "no webhook delivery of game_started");
}

ITEST(test_lobby_idempotency, "lobby: Idempotency-Key of a join")
{
    char code[64];
    struct lobby l;
    CHECK(lobby_new(srv, "{\"players\":[{\"name\":\"Ann\"},{\"open\":true},{\"open\":true}]}", NULL,
                    &l, NULL) == 201,
          "create");
    char key[96];
    snprintf(key, sizeof key, "Idempotency-Key: lobby-%s", l.g.id);
    char path[160], body[200];
    snprintf(path, sizeof path, "/v1/games/%s/join", l.g.id);
    snprintf(body, sizeof body, "{\"invite\":\"%s\",\"name\":\"Bob\"}", l.invite[1]);
    struct resp a, b;
    long st = lobby_post(srv, path, body, key, NULL, code, sizeof code, &a);
    long st2 = lobby_post(srv, path, body, key, NULL, code, sizeof code, &b);
    /* The repeat is the first answer again, the seat token included (sealed, issue 11
     * item 7). */
    int same = st == 200 && st2 == 200 && jnum(a.json, "seat") == 1 && jnum(b.json, "seat") == 1 &&
               token_shape(jstr(a.json, "token")) && jstr(b.json, "token") &&
               strcmp(jstr(a.json, "token"), jstr(b.json, "token")) == 0;
    resp_free(&a);
    resp_free(&b);
    CHECK(same, "a join and its repeat (the same seat token): %ld, %ld", st, st2);
    /* An anonymous join's key unlocks a token: a short one is refused, nothing joined. */
    snprintf(body, sizeof body, "{\"invite\":\"%s\",\"name\":\"Cy\"}", l.invite[2]);
    UNCHANGED(&l,
              st = lobby_post(srv, path, body, "Idempotency-Key: short-key", NULL, code,
                              sizeof code, NULL),
              "a short anonymous key changed the game");
    CHECK(st == 400 && strcmp(code, "idempotency_key_too_short") == 0, "a short key: %ld %s", st,
          code);
    CHECK(db_scalar_id("SELECT version FROM games WHERE id = $1::uuid", l.g.id) == 2,
          "the repeat joined again");
    snprintf(body, sizeof body, "{\"invite\":\"%s\",\"name\":\"Cy\"}", l.invite[2]);
    UNCHANGED(&l, st = lobby_post(srv, path, body, key, NULL, code, sizeof code, NULL),
              "the key with another body changed the game");
    CHECK(st == 409 && strcmp(code, "idempotency_key_reused") == 0, "another body: %ld %s", st,
          code);
}

/* A two-seat game of `ruleset`, started: both seats named. */
static int started_game(const struct server *srv, const char *ruleset, struct lobby *l)
{
    char body[300];
    snprintf(body, sizeof body,
             "{\"ruleset\":\"%s\",\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"seed\":5}",
             ruleset);
    return lobby_new(srv, body, NULL, l, NULL) == 201 ? 0 : -1;
}

/* Aborts `l` with header `h`: the status, the code in `code`. */
static long abort_game(const struct server *srv, const struct lobby *l, const char *h, char *code,
                       size_t cap)
{
    return act_on(srv, l, "abort", NULL, h, code, cap);
}

/* Everything refused on the aborted game `l` (seat 0's auth `a0`), nothing changed. */
static void after_abort(struct server *srv, const struct lobby *l, const char *a0, const char *rs)
{
    char code[64];
    long st;
    char state[16];
    status_of(srv, l, state, sizeof state);
    CHECK(strcmp(state, "aborted") == 0, "%s: the status is %s", rs, state);
    UNCHANGED(l, st = abort_game(srv, l, a0, code, sizeof code), "%s: abort again changed it", rs);
    CHECK(st == 409 && strcmp(code, "game_not_active") == 0, "%s: abort again: %ld %s", rs, st,
          code);
    UNCHANGED(l, st = act_on(srv, l, "draw", NULL, a0, code, sizeof code), "%s: a draw changed it",
              rs);
    CHECK(st == 409 && strcmp(code, "game_not_active") == 0, "%s: draw: %ld %s", rs, st, code);
    UNCHANGED(l,
              st = act_on(srv, l, "placements", "{\"x\":0,\"y\":1,\"rotation\":0}", a0, code,
                          sizeof code),
              "%s: a placement changed it", rs);
    CHECK(st == 409 && strcmp(code, "game_not_active") == 0, "%s: place: %ld %s", rs, st, code);
    for (int s = 1; s < 5 && l->invite[s][0]; s++) {
        UNCHANGED(l, st = lobby_join(srv, l, l->invite[s], "Late", NULL, code, sizeof code, NULL),
                  "%s: a join changed it", rs);
        CHECK(st == 409 && strcmp(code, "game_not_active") == 0, "%s: join: %ld %s", rs, st, code);
    }
    CHECK(db_events_of(l->g.id, "game_aborted") == 1, "%s: not one game_aborted event", rs);
}

ITEST(test_lobby_abort,
      "lobby: abort while waiting, before and after every seat placed (every ruleset)")
{
    char code[64], why[300];
    long st;
    for (size_t i = 0; i < sizeof rulesets / sizeof rulesets[0]; i++) {
        const char *rs = rulesets[i];
        char body[300];
        /* Waiting: any taken seat may abort; not without a token, nor with another's. */
        snprintf(body, sizeof body,
                 "{\"ruleset\":\"%s\",\"players\":[{\"name\":\"Ann\"},{\"open\":true}]}", rs);
        struct lobby w;
        CHECK(lobby_new(srv, body, NULL, &w, NULL) == 201, "%s: create", rs);
        UNCHANGED(&w, st = abort_game(srv, &w, NULL, code, sizeof code),
                  "%s: abort without a token changed it", rs);
        CHECK(st == 401 && strcmp(code, "missing_token") == 0, "%s: no token: %ld %s", rs, st,
              code);
        UNCHANGED(&w,
                  st = abort_game(srv, &w, "Authorization: Bearer not-a-seat", code, sizeof code),
                  "%s: abort with a stranger's token changed it", rs);
        CHECK(st == 401 && strcmp(code, "unknown_token") == 0, "%s: stranger: %ld %s", rs, st,
              code);
        struct resp r;
        char path[160];
        snprintf(path, sizeof path, "/v1/games/%s/abort", w.g.id);
        const char *h[] = {w.g.auth[0], NULL};
        http(srv, "POST", path, NULL, h, &r);
        int ok = r.status == 200 && strcmp(jstr(r.json, "status"), "aborted") == 0 &&
                 strcmp(jstr(r.json, "events.0.type"), "game_aborted") == 0 &&
                 jnum(r.json, "events.0.seat") == 0;
        resp_free(&r);
        CHECK(ok, "%s: abort while waiting", rs);
        after_abort(srv, &w, w.g.auth[0], rs);
        if (itest_failure[0]) return;

        /* Active, nobody placed yet: seat 1 aborts. */
        struct lobby a;
        CHECK(started_game(srv, rs, &a) == 0, "%s: create", rs);
        st = abort_game(srv, &a, a.g.auth[1], code, sizeof code);
        CHECK(st == 200, "%s: abort before any tile: %ld %s", rs, st, code);
        after_abort(srv, &a, a.g.auth[0], rs);
        if (itest_failure[0]) return;

        /* One seat placed: still allowed (and with If-Match); every seat placed: too late. */
        struct lobby b;
        CHECK(started_game(srv, rs, &b) == 0, "%s: create", rs);
        CHECK(play_turn(srv, &b.g, 0, why, sizeof why) == 0, "%s: %s", rs, why);
        char stale[64];
        snprintf(stale, sizeof stale, "If-Match: \"%d\"", game_version(srv, &b.g) - 1);
        char *before = lobby_snapshot(srv, &b);
        char tmp[160];
        snprintf(tmp, sizeof tmp, "/v1/games/%s/abort", b.g.id);
        st = lobby_post(srv, tmp, NULL, b.g.auth[1], stale, code, sizeof code, NULL);
        char *after = lobby_snapshot(srv, &b);
        int same = before && after && strcmp(before, after) == 0;
        free(before);
        free(after);
        CHECK(st == 412 && same, "%s: a stale If-Match: %ld %s", rs, st, code);
        struct lobby c = b;
        CHECK(play_turn(srv, &c.g, 0, why, sizeof why) == 0, "%s: %s", rs, why);
        UNCHANGED(&c, st = abort_game(srv, &c, c.g.auth[0], code, sizeof code),
                  "%s: a late abort changed it", rs);
        CHECK(st == 409 && strcmp(code, "too_late_to_abort") == 0, "%s: late abort: %ld %s", rs, st,
              code);
        struct lobby d;
        CHECK(started_game(srv, rs, &d) == 0, "%s: create", rs);
        CHECK(play_turn(srv, &d.g, 0, why, sizeof why) == 0, "%s: %s", rs, why);
        st = abort_game(srv, &d, d.g.auth[0], code, sizeof code);
        CHECK(st == 200, "%s: abort after one of two seats placed: %ld %s", rs, st, code);
        after_abort(srv, &d, d.g.auth[0], rs);
        if (itest_failure[0]) return;
        CHECK(db_replay_check(d.g.id, why, sizeof why) == 0, "%s: %s", rs, why);
    }

    /* A bound seat aborts by its player token; a finished game is too late. */
    struct person ann;
    CHECK(who_new(srv, "Ann", &ann) == 0, "player");
    struct lobby m;
    CHECK(lobby_new(srv, "{\"players\":[{\"player\":\"me\"},{\"open\":true}]}", ann.auth, &m,
                    NULL) == 201,
          "create with a me seat");
    CHECK(abort_game(srv, &m, ann.auth, code, sizeof code) == 200, "abort by player token: %s",
          code);
    after_abort(srv, &m, ann.auth, "bound");
    if (itest_failure[0]) return;
    struct lobby f;
    CHECK(lobby_new(srv,
                    "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"start\":\"D\","
                    "\"deck\":[\"K\"]}",
                    NULL, &f, NULL) == 201,
          "a one-tile game");
    CHECK(play_turn(srv, &f.g, 0, why, sizeof why) == 1, "the one-tile game: %s", why);
    UNCHANGED(&f, st = abort_game(srv, &f, f.g.auth[1], code, sizeof code),
              "aborting a finished game changed it");
    CHECK(st == 409 && strcmp(code, "too_late_to_abort") == 0, "a finished game: %ld %s", st, code);
}

/* Polls GET /v1/games/{id} until its version is at least `v` (5 s at most): the state. */
static cJSON *state_at_least(const struct server *srv, const char *id, int v)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/games/%s", id);
    for (int i = 0; i < 300; i++) { /* 15 s: a sanitizer's slow lane */
        struct resp r;
        http(srv, "GET", path, NULL, NULL, &r);
        if (r.status == 200 && jnum(r.json, "version") >= v) {
            cJSON *j = r.json;
            r.json = NULL;
            resp_free(&r);
            return j;
        }
        resp_free(&r);
        struct timespec ts = {0, 50 * 1000000L};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

/*
 * A waiting game with a clock and a computer player at seat 0: nothing runs while it waits
 * (no deadline, the computer player does not move); the last join begins the clock's first
 * turn (a deadline) and the computer player plays it at once.
 */
ITEST(test_lobby_clock_and_bot,
      "lobby: a clock and a computer player wait for the last join, then run")
{
    char code[64];
    struct lobby l;
    CHECK(lobby_new(srv,
                    "{\"players\":[{\"bot\":\"greedy\",\"think_ms\":10},{\"open\":true}],"
                    "\"clock\":{\"turn_seconds\":60}," LOBBY_DECK "}",
                    NULL, &l, NULL) == 201,
          "create with a clock, a computer player and an open seat");
    struct timespec ts = {0, 400 * 1000000L};
    nanosleep(&ts, NULL); /* time for a computer player that should not move */
    cJSON *w = state_at_least(srv, l.g.id, 1);
    CHECK(w, "no state");
    int waiting = strcmp(jstr(w, "status"), "waiting") == 0 && jnum(w, "version") == 1;
    const cJSON *dl = jget(w, "deadline");
    int no_deadline = !dl || cJSON_IsNull(dl);
    cJSON_Delete(w);
    CHECK(waiting, "the waiting game moved");
    CHECK(no_deadline, "a waiting game has a deadline");
    CHECK(db_scalar_id("SELECT count(*) FROM jobs WHERE game_id = $1::uuid", l.g.id) == 0,
          "a waiting game has background jobs");
    CHECK(lobby_join(srv, &l, l.invite[1], "Bob", NULL, code, sizeof code, NULL) == 200, "join: %s",
          code);
    /* The join is version 2; the computer player's draw and placement follow. */
    cJSON *s = state_at_least(srv, l.g.id, 4);
    CHECK(s, "the computer player did not play its turn after the game started");
    int active = strcmp(jstr(s, "status"), "active") == 0 && jnum(s, "turn.seat") == 1;
    const cJSON *d2 = jget(s, "deadline");
    int has_deadline = cJSON_IsString(d2);
    cJSON_Delete(s);
    CHECK(active, "after the start the computer player's turn did not pass to seat 1");
    CHECK(has_deadline, "the started game has no deadline");
}

/* GET /v1/games/{id}?version=`v` of `l`: the body (cJSON_Delete it), or NULL unless 200. */
static cJSON *state_at(const struct server *srv, const struct lobby *l, int v)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s?version=%d", l->g.id, v);
    return get_json(srv, path);
}

/* Whether seat `s` of state `j` is open, and its name into `name`. */
static int seat_open(const cJSON *j, int s, char *name, size_t cap)
{
    const cJSON *p = cJSON_GetArrayItem(jget(j, "players"), s);
    snprintf(name, cap, "%s", p ? jstr(p, "name") : "?");
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "open"));
}

ITEST(test_lobby_past_versions,
      "lobby: ?version=N while waiting shows it waiting, its open seats open")
{
    char code[64], name[64];
    struct lobby l;
    struct resp c;
    CHECK(lobby_new(srv,
                    "{\"ruleset\":\"classic\",\"players\":[{\"name\":\"Ann\"},"
                    "{\"open\":true,\"name\":\"Guest\"},{\"open\":true}]}",
                    NULL, &l, &c) == 201,
          "create");
    int v0 = (int)jnum(c.json, "version");
    resp_free(&c);
    CHECK(lobby_join(srv, &l, l.invite[1], "Bea", NULL, code, sizeof code, NULL) == 200,
          "join 1: %s", code);
    CHECK(lobby_join(srv, &l, l.invite[2], "Cid", NULL, code, sizeof code, NULL) == 200,
          "join 2: %s", code);
    int v2 = game_version(srv, &l.g);
    CHECK(v2 == v0 + 2, "versions %d then %d", v0, v2);
    /* As created: waiting, both seats open with their placeholders. */
    cJSON *j = state_at(srv, &l, v0);
    CHECK(j, "?version=%d", v0);
    CHECK(strcmp(jstr(j, "status"), "waiting") == 0, "at %d: %s", v0, jstr(j, "status"));
    int open1 = seat_open(j, 1, name, sizeof name);
    CHECK(open1 && strcmp(name, "Guest") == 0, "at %d seat 1: open %d, %s", v0, open1, name);
    int open2 = seat_open(j, 2, name, sizeof name);
    CHECK(open2 && strcmp(name, "Seat 3") == 0, "at %d seat 2: open %d, %s", v0, open2, name);
    cJSON_Delete(j);
    /* One join later: still waiting, seat 1 taken. */
    j = state_at(srv, &l, v0 + 1);
    CHECK(j, "?version=%d", v0 + 1);
    CHECK(strcmp(jstr(j, "status"), "waiting") == 0, "at %d: %s", v0 + 1, jstr(j, "status"));
    open1 = seat_open(j, 1, name, sizeof name);
    CHECK(!open1 && strcmp(name, "Bea") == 0, "at %d seat 1: open %d, %s", v0 + 1, open1, name);
    CHECK(seat_open(j, 2, name, sizeof name), "at %d seat 2 not open", v0 + 1);
    cJSON_Delete(j);
    /* Every seat taken: active, as now. */
    j = state_at(srv, &l, v2);
    CHECK(j && strcmp(jstr(j, "status"), "active") == 0, "at %d: %s", v2,
          j ? jstr(j, "status") : "?");
    cJSON_Delete(j);
    /* A game aborted while waiting: waiting before the abort, aborted at it. */
    struct lobby w;
    CHECK(lobby_new(srv,
                    "{\"ruleset\":\"classic\",\"players\":[{\"name\":\"Ann\"},{\"open\":true}]}",
                    NULL, &w, NULL) == 201,
          "create 2");
    int w0 = game_version(srv, &w.g);
    CHECK(abort_game(srv, &w, w.g.auth[0], code, sizeof code) == 200, "abort: %s", code);
    j = state_at(srv, &w, w0);
    CHECK(j && strcmp(jstr(j, "status"), "waiting") == 0, "aborted game at %d: %s", w0,
          j ? jstr(j, "status") : "?");
    cJSON_Delete(j);
    j = state_at(srv, &w, w0 + 1);
    CHECK(j && strcmp(jstr(j, "status"), "aborted") == 0, "aborted game at %d: %s", w0 + 1,
          j ? jstr(j, "status") : "?");
    cJSON_Delete(j);
}

/* Issue 29, item 7: a seed or a deck the creator chose fixes the draw order of a game that
 * others join; the join's answer and the game's state say so (seed_chosen, custom_deck),
 * and say neither for a game of a drawn seed and the full deck. */
ITEST(test_lobby_stacked_deck_shown,
      "lobby: a chosen seed or deck is shown to whoever joins (seed_chosen, custom_deck)")
{
    static const struct {
        const char *setup; /* members of the create body after the players */
        int seed_chosen, custom_deck;
    } cases[] = {
        {"\"ruleset\":\"classic\"", 0, 0},
        {"\"seed\":42", 1, 0},
        {LOBBY_DECK, 0, 1},
        {"\"seed\":7," LOBBY_DECK, 1, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char body[512], code[64];
        snprintf(body, sizeof body, "{\"players\":[{\"name\":\"Ann\"},{\"open\":true}],%s}",
                 cases[i].setup);
        struct lobby l;
        struct resp r;
        long st = lobby_new(srv, body, NULL, &l, &r);
        int created_ok = st == 201 && cJSON_IsBool(jget(r.json, "seed_chosen")) &&
                         cJSON_IsTrue(jget(r.json, "seed_chosen")) == cases[i].seed_chosen &&
                         cJSON_IsTrue(jget(r.json, "custom_deck")) == cases[i].custom_deck;
        resp_free(&r);
        CHECK(created_ok, "%s: the create answer (%ld) does not show seed_chosen %d custom_deck %d",
              cases[i].setup, st, cases[i].seed_chosen, cases[i].custom_deck);
        char path[160];
        snprintf(path, sizeof path, "/v1/games/%s", l.g.id);
        http(srv, "GET", path, NULL, NULL, &r);
        int state_ok = r.status == 200 && cJSON_IsBool(jget(r.json, "custom_deck")) &&
                       cJSON_IsTrue(jget(r.json, "seed_chosen")) == cases[i].seed_chosen &&
                       cJSON_IsTrue(jget(r.json, "custom_deck")) == cases[i].custom_deck;
        resp_free(&r);
        CHECK(state_ok, "%s: the waiting game's state does not show seed_chosen %d custom_deck %d",
              cases[i].setup, cases[i].seed_chosen, cases[i].custom_deck);
        st = lobby_join(srv, &l, l.invite[1], "Bob", NULL, code, sizeof code, &r);
        int join_ok = st == 200 && cJSON_IsBool(jget(r.json, "seed_chosen")) &&
                      cJSON_IsBool(jget(r.json, "custom_deck")) &&
                      cJSON_IsTrue(jget(r.json, "seed_chosen")) == cases[i].seed_chosen &&
                      cJSON_IsTrue(jget(r.json, "custom_deck")) == cases[i].custom_deck;
        resp_free(&r);
        CHECK(join_ok, "%s: the join (%ld %s) does not show seed_chosen %d custom_deck %d",
              cases[i].setup, st, code, cases[i].seed_chosen, cases[i].custom_deck);
        /* Once started (the game no longer in the cache's lobby form), still shown. */
        http(srv, "GET", path, NULL, NULL, &r);
        state_ok = r.status == 200 &&
                   cJSON_IsTrue(jget(r.json, "seed_chosen")) == cases[i].seed_chosen &&
                   cJSON_IsTrue(jget(r.json, "custom_deck")) == cases[i].custom_deck &&
                   strcmp(jstr(r.json, "status"), "active") == 0;
        resp_free(&r);
        CHECK(state_ok, "%s: the started game's state", cases[i].setup);
    }
}
