/* t_tournaments.c: tournaments while they are open (issue 27): creation by a player (the
 * settings answered back, the organiser no entrant), joins and leaves (again: no change),
 * the lists by status, max_players held under concurrent joins, no join once the tournament
 * is no longer open (a leave then withdraws an entrant: t_tourney_play.c), and the refusals
 * of bad bodies and parameters (the events' long poll and stream included). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "hard.h"
#include "tests.h"

#define SWISS_BODY                                                                                 \
    "{\"name\":\"Winter Swiss\",\"format\":\"swiss\",\"rounds\":3,\"players_per_game\":2,"         \
    "\"clock\":{\"turn_seconds\":60},\"rated\":true,\"max_players\":16,"                           \
    "\"starts_at\":\"2031-01-05T18:00:00Z\"}"

/* `method` `path` with `body` as the header line `auth` (or none) into r; the status. */
static long call(const struct server *srv, const char *method, const char *path, const char *body,
                 const char *auth, struct resp *r)
{
    const char *h[] = {auth, NULL};
    http(srv, method, path, body, auth ? h : NULL, r);
    return r->status;
}

/* The status and problem code of one request (code "" unless a problem). */
static long call_code(const struct server *srv, const char *method, const char *path,
                      const char *body, const char *auth, char code[64])
{
    struct resp r;
    long st = call(srv, method, path, body, auth, &r);
    snprintf(code, 64, "%s", st >= 400 ? problem_code(&r) : "");
    resp_free(&r);
    return st;
}

/* Checks that GET `path`, plainly and with Accept: text/event-stream, answers `status` as
 * the problem `code` (application/problem+json); `label` names it in a failure. */
static void expect_problem_get(const struct server *srv, const char *path, long status,
                               const char *code, const char *label)
{
    static const char *const sse[] = {"Accept: text/event-stream", NULL};
    for (int as_sse = 0; as_sse < 2; as_sse++) {
        struct resp r;
        http(srv, "GET", path, NULL, as_sse ? sse : NULL, &r);
        char got[64];
        snprintf(got, sizeof got, "%s", r.status >= 400 ? problem_code(&r) : "");
        int problem = strncmp(r.ctype, "application/problem+json", 24) == 0;
        long st = r.status;
        resp_free(&r);
        CHECK(st == status && strcmp(got, code) == 0 && problem, "%s%s: %ld %s %s", label,
              as_sse ? " (Accept: text/event-stream)" : "", st, got,
              problem ? "" : "(not a problem+json)");
    }
}

/* Creates a tournament of `body` as `auth`: its id into id[64]; 0 or -1. */
static int create(const struct server *srv, const char *body, const char *auth, char id[64])
{
    struct resp r;
    long st = call(srv, "POST", "/v1/tournaments", body, auth, &r);
    int ok = st == 201 && strlen(jstr(r.json, "id")) == 36;
    if (ok) snprintf(id, 64, "%s", jstr(r.json, "id"));
    resp_free(&r);
    return ok ? 0 : -1;
}

ITEST(tourney_create_join_leave, "tournaments: create, join, leave, get and list while open")
{
    char why[256], code[64];
    struct person org, ann, bob;
    CHECK(person_new(srv, "Org", &org, why, sizeof why) == 0, "%s", why);
    CHECK(person_new(srv, "Ann", &ann, why, sizeof why) == 0, "%s", why);
    CHECK(person_new(srv, "Bob", &bob, why, sizeof why) == 0, "%s", why);

    struct resp r;
    long st = call(srv, "POST", "/v1/tournaments", SWISS_BODY, org.auth, &r);
    CHECK(st == 201, "create: %ld %.200s", st, r.body);
    char id[64], path[160];
    snprintf(id, sizeof id, "%s", jstr(r.json, "id"));
    snprintf(path, sizeof path, "/v1/tournaments/%s", id);
    CHECK(strcmp(r.location, path) == 0, "Location %s", r.location);
    CHECK(strcmp(jstr(r.json, "status"), "open") == 0, "status %s", jstr(r.json, "status"));
    CHECK(strcmp(jstr(r.json, "format"), "swiss") == 0 && jnum(r.json, "rounds") == 3 &&
              jnum(r.json, "players_per_game") == 2 && jnum(r.json, "max_players") == 16 &&
              jnum(r.json, "clock.turn_seconds") == 60 &&
              strcmp(jstr(r.json, "ruleset"), "classic") == 0,
          "settings: %.300s", r.body);
    CHECK(cJSON_IsTrue(jget(r.json, "rated")), "rated");
    CHECK(strcmp(jstr(r.json, "starts_at"), "2031-01-05T18:00:00.000Z") == 0, "starts_at %s",
          jstr(r.json, "starts_at"));
    CHECK(strcmp(jstr(r.json, "organiser.id"), org.id) == 0, "organiser");
    CHECK(jnum(r.json, "entrant_count") == 0 && cJSON_GetArraySize(jget(r.json, "entrants")) == 0,
          "the organiser is no entrant: %.300s", r.body);
    resp_free(&r);

    char join[200], leave[200];
    snprintf(join, sizeof join, "%s/join", path);
    snprintf(leave, sizeof leave, "%s/leave", path);
    CHECK(call(srv, "POST", join, NULL, ann.auth, &r) == 201, "ann joins: %ld", r.status);
    resp_free(&r);
    CHECK(call(srv, "POST", join, "{}", bob.auth, &r) == 201, "bob joins: %ld", r.status);
    CHECK(jnum(r.json, "entrant_count") == 2, "two entrants: %.300s", r.body);
    resp_free(&r);
    CHECK(call(srv, "POST", join, NULL, ann.auth, &r) == 200, "ann again: %ld", r.status);
    CHECK(jnum(r.json, "entrant_count") == 2, "still two");
    resp_free(&r);

    cJSON *t = get_json(srv, path);
    CHECK(t, "GET %s", path);
    int in_order = strcmp(jstr(t, "entrants.0.player"), ann.id) == 0 &&
                   strcmp(jstr(t, "entrants.0.name"), "Ann") == 0 &&
                   strcmp(jstr(t, "entrants.1.player"), bob.id) == 0;
    cJSON_Delete(t);
    CHECK(in_order, "entrants in joining order");

    CHECK(call_code(srv, "POST", leave, NULL, ann.auth, code) == 204, "ann leaves");
    CHECK(call_code(srv, "POST", leave, NULL, ann.auth, code) == 204, "ann leaves again");
    t = get_json(srv, path);
    CHECK(t, "GET %s", path);
    int only_bob = cJSON_GetArraySize(jget(t, "entrants")) == 1 &&
                   strcmp(jstr(t, "entrants.0.player"), bob.id) == 0;
    cJSON_Delete(t);
    CHECK(only_bob, "bob alone after ann left");

    /* The lists: by status, newest first. */
    cJSON *list = get_json(srv, "/v1/tournaments?status=open&limit=100");
    CHECK(list, "the open list");
    int found = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, jget(list, "tournaments")) found |= strcmp(jstr(e, "id"), id) == 0;
    cJSON_Delete(list);
    CHECK(found, "listed as open");
    list = get_json(srv, "/v1/tournaments?status=finished");
    CHECK(list, "the finished list");
    found = 0;
    cJSON_ArrayForEach(e, jget(list, "tournaments")) found |= strcmp(jstr(e, "id"), id) == 0;
    cJSON_Delete(list);
    CHECK(!found, "not listed as finished");

    /* No longer open: neither a join nor a leave changes it. */
    CHECK(db_scalar_id("WITH u AS (UPDATE tournaments SET status = 'running' WHERE id = "
                       "$1::uuid RETURNING 1) SELECT count(*) FROM u",
                       id) == 1,
          "set running");
    CHECK(call_code(srv, "POST", join, NULL, ann.auth, code) == 409 &&
              strcmp(code, "tournament_not_open") == 0,
          "join a running one: %s", code);
    CHECK(call_code(srv, "POST", leave, NULL, ann.auth, code) == 409 &&
              strcmp(code, "tournament_not_open") == 0,
          "a non-entrant leaves a running one: %s", code);
    /* An entrant leaving after the start stays listed, out from the round running on. */
    CHECK(call_code(srv, "POST", leave, NULL, bob.auth, code) == 204, "bob leaves: %s", code);
    CHECK(db_scalar_id("SELECT count(*) FROM tournament_entrants WHERE tournament_id = $1::uuid "
                       "AND left_round = 1",
                       id) == 1,
          "bob out from round 1");
}

/* One player's join, for the concurrent joins. */
struct joiner {
    const struct server *srv; /* the server */
    const char *path;         /* the join path */
    struct person p;          /* the player */
    long status;              /* the answer's status */
};

static void *join_thread(void *arg)
{
    struct joiner *j = arg;
    struct resp r;
    j->status = call(j->srv, "POST", j->path, NULL, j->p.auth, &r);
    resp_free(&r);
    return NULL;
}

ITEST(tourney_full, "tournaments: max_players holds under concurrent joins")
{
    char why[256], id[64], code[64];
    struct person org;
    CHECK(person_new(srv, "Org", &org, why, sizeof why) == 0, "%s", why);
    CHECK(create(srv,
                 "{\"name\":\"Small knockout\",\"format\":\"knockout\",\"max_players\":3,"
                 "\"players_per_game\":2}",
                 org.auth, id) == 0,
          "create");
    char path[200];
    snprintf(path, sizeof path, "/v1/tournaments/%s/join", id);
    enum { N = 8 };
    struct joiner js[N];
    pthread_t th[N];
    for (int i = 0; i < N; i++) {
        char name[16];
        snprintf(name, sizeof name, "P%d", i);
        js[i] = (struct joiner){.srv = srv, .path = path};
        CHECK(person_new(srv, name, &js[i].p, why, sizeof why) == 0, "%s", why);
    }
    for (int i = 0; i < N; i++) CHECK(pthread_create(&th[i], NULL, join_thread, &js[i]) == 0, "t");
    int joined = 0, full = 0;
    for (int i = 0; i < N; i++) {
        pthread_join(th[i], NULL);
        joined += js[i].status == 201;
        full += js[i].status == 409;
    }
    CHECK(joined == 3 && full == N - 3, "%d joined, %d refused", joined, full);
    CHECK(db_scalar_id("SELECT count(*) FROM tournament_entrants WHERE tournament_id = $1::uuid",
                       id) == 3,
          "three entrants stored");
    struct person late;
    CHECK(person_new(srv, "Late", &late, why, sizeof why) == 0, "%s", why);
    CHECK(call_code(srv, "POST", path, NULL, late.auth, code) == 409 &&
              strcmp(code, "tournament_full") == 0,
          "a fourth: %s", code);
}

ITEST(tourney_refusals, "tournaments: bad bodies, tokens and parameters change nothing")
{
    char why[256], code[64];
    struct person org;
    CHECK(person_new(srv, "Org", &org, why, sizeof why) == 0, "%s", why);
    long before = db_scalar("SELECT count(*) FROM tournaments");
    static const struct {
        const char *body; /* the body */
        const char *code; /* the code expected (400) */
    } bad[] = {
        {"{\"name\":\"x\",\"format\":\"swiss\"}", "invalid_body"},
        {"{\"name\":\"x\",\"format\":\"knockout\",\"rounds\":2}", "invalid_body"},
        {"{\"name\":\"x\",\"format\":\"league\"}", "invalid_body"},
        {"{\"format\":\"knockout\"}", "invalid_body"},
        {"{\"name\":\"x\",\"format\":\"knockout\",\"players_per_game\":5}", "invalid_body"},
        {"{\"name\":\"x\",\"format\":\"knockout\",\"max_players\":1}", "invalid_body"},
        {"{\"name\":\"x\",\"format\":\"swiss\",\"rounds\":1e300}", "invalid_body"},
        {"{\"name\":\"x\",\"format\":\"knockout\",\"max_players\":-1e300}", "invalid_body"},
        {"{\"name\":\"x\",\"format\":\"round_robin\",\"max_players\":25}", "invalid_body"},
        {"{\"name\":\"x\",\"format\":\"knockout\",\"rated\":true}", "unrated_setup"},
        {"{\"name\":\"x\",\"format\":\"knockout\",\"starts_at\":\"tomorrow\"}", "invalid_body"},
        {"{\"name\":\"x\",\"format\":\"knockout\",\"starts_at\":\"1970-01-01T00:00:00Z\"}",
         "invalid_body"},
        {"{\"name\":\"x\",\"format\":\"knockout\",\"starts_at\":\"2031-02-30T10:00:00Z\"}",
         "invalid_body"},
        {"{\"name\":\"x\",\"format\":\"knockout\",\"clock\":{\"turn_seconds\":0}}",
         "invalid_turn_seconds"},
        {"{\"name\":\"x\",\"format\":\"knockout\",\"ruleset\":\"chess\"}", "unknown_ruleset"},
        {"{\"name\":\"x\",\"format\":\"knockout\",\"seats\":2}", "unknown_field"},
        {"[1]", "invalid_json"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        long st = call_code(srv, "POST", "/v1/tournaments", bad[i].body, org.auth, code);
        CHECK(st == 400 && strcmp(code, bad[i].code) == 0, "%s: %ld %s, want %s", bad[i].body, st,
              code, bad[i].code);
    }
    CHECK(call_code(srv, "POST", "/v1/tournaments", "{\"name\":\"x\",\"format\":\"knockout\"}",
                    NULL, code) == 401,
          "no token");
    CHECK(db_scalar("SELECT count(*) FROM tournaments") == before, "nothing stored");
    CHECK(call_code(srv, "GET", "/v1/tournaments?status=done", NULL, NULL, code) == 400 &&
              strcmp(code, "invalid_parameter") == 0,
          "status=done: %s", code);
    CHECK(call_code(srv, "GET", "/v1/tournaments?limit=0", NULL, NULL, code) == 400, "limit=0");
    CHECK(call_code(srv, "GET", "/v1/tournaments/00000000-0000-4000-8000-000000000000", NULL, NULL,
                    code) == 404,
          "unknown id");
    CHECK(call_code(srv, "POST", "/v1/tournaments/00000000-0000-4000-8000-000000000000/join", NULL,
                    org.auth, code) == 404,
          "join an unknown id");
    CHECK(call_code(srv, "POST", "/v1/tournaments/nope/join", NULL, org.auth, code) == 404,
          "join a bad id");
}

ITEST(tourney_events_refusals, "tournaments: the events' long poll and stream: 404 for no such "
                               "tournament, 400 for bad parameters, an open one's wait ends empty")
{
    char why[256], id[64], path[200];
    struct person org;
    CHECK(person_new(srv, "Org", &org, why, sizeof why) == 0, "%s", why);
    CHECK(create(srv, "{\"name\":\"Quiet\",\"format\":\"knockout\"}", org.auth, id) == 0, "create");
    static const char *const unknown[] = {
        "/v1/tournaments/00000000-0000-4000-8000-000000000000/events?wait=5",
        "/v1/tournaments/00000000-0000-4000-8000-000000000000/events/stream",
        "/v1/tournaments/nope/events?wait=5",
        "/v1/tournaments/nope/events/stream",
    };
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        expect_problem_get(srv, unknown[i], 404, "not_found", unknown[i]);
        if (itest_failure[0]) return;
    }
    static const char *const bad[] = {
        "/events?wait=61",
        "/events?wait=-1",
        "/events?wait=x",
        "/events?after=-1",
        "/events?after=x",
        "/events?after=1&after=2",
        "/events?wait=1&wait=2",
        "/events?after=2147483648",
        "/events/stream?after=-1",
        "/events/stream?after=x",
        "/events/stream?after=1&after=2",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(path, sizeof path, "/v1/tournaments/%s%s", id, bad[i]);
        expect_problem_get(srv, path, 400, "invalid_parameter", bad[i]);
        if (itest_failure[0]) return;
    }
    /* An open tournament has no event yet: a wait of 1 s ends with an empty list. */
    snprintf(path, sizeof path, "/v1/tournaments/%s/events?wait=1", id);
    struct resp r;
    long long t0 = hard_now_ms();
    long st = call(srv, "GET", path, NULL, NULL, &r);
    long long ms = hard_now_ms() - t0;
    int empty = cJSON_GetArraySize(jget(r.json, "events")) == 0 && jget(r.json, "events");
    resp_free(&r);
    CHECK(st == 200 && empty && ms >= 900 && ms < 5000,
          "wait=1 on an open tournament: %ld after %lld ms", st, ms);
}

ITEST(tourney_idempotency, "tournaments: an Idempotency-Key creates once (also raced on two "
                           "servers), a repeat gets the first answer, the key with another body "
                           "is 409")
{
    struct person org;
    char why[300];
    CHECK(person_new(srv, "Keyed organiser", &org, why, sizeof why) == 0, "%s", why);
    static const char other[] = "{\"name\":\"Other\",\"format\":\"knockout\",\"max_players\":4}";
    const char *h[3] = {org.auth, "Idempotency-Key: tourney-key-1", NULL};
    struct resp r1, r2, r3;
    http(srv, "POST", "/v1/tournaments", SWISS_BODY, h, &r1);
    http(srv, "POST", "/v1/tournaments", SWISS_BODY, h, &r2);
    http(srv, "POST", "/v1/tournaments", other, h, &r3);
    int first = r1.status == 201 && r1.body && r1.location[0] &&
                strcmp(jstr(r1.json, "name"), "Winter Swiss") == 0 &&
                cJSON_GetArraySize(jget(r1.json, "standings")) == 0;
    int same = r2.status == 201 && r1.body && r2.body && strcmp(r1.body, r2.body) == 0 &&
               strcmp(r1.location, r2.location) == 0;
    int reused = r3.status == 409 && strcmp(problem_code(&r3), "idempotency_key_reused") == 0;
    long st[3] = {r1.status, r2.status, r3.status};
    char id[64];
    snprintf(id, sizeof id, "%s", first ? jstr(r1.json, "id") : "");
    /* Without a key the answer is the same tournament read after the commit. */
    struct resp plain;
    char path[160];
    snprintf(path, sizeof path, "/v1/tournaments/%s", id);
    http(srv, "GET", path, NULL, NULL, &plain);
    int read_same =
        plain.status == 200 && plain.body && r1.body && strcmp(plain.body, r1.body) == 0;
    resp_free(&plain);
    resp_free(&r1);
    resp_free(&r2);
    resp_free(&r3);
    CHECK(first, "first: %ld, not a 201 of the tournament with a Location", st[0]);
    CHECK(same, "the repeat's answer is not the first one: %ld", st[1]);
    CHECK(reused, "the key with another body: %ld", st[2]);
    CHECK(read_same, "the keyed answer is not the tournament as read");
    CHECK(db_scalar_id("SELECT count(*) FROM tournaments WHERE organiser = $1::uuid", org.id) == 1,
          "the repeat created again");
    /* A malformed key (65 characters) is refused and binds nothing. */
    char longkey[100], code[64];
    snprintf(longkey, sizeof longkey, "Idempotency-Key: %065d", 7);
    const char *hl[3] = {org.auth, longkey, NULL};
    struct resp rl;
    http(srv, "POST", "/v1/tournaments", other, hl, &rl);
    long lst = rl.status;
    snprintf(code, sizeof code, "%s", lst >= 400 ? problem_code(&rl) : "");
    resp_free(&rl);
    CHECK(lst == 400 && strcmp(code, "invalid_parameter") == 0, "a 65-character key: %ld %s", lst,
          code);
    CHECK(db_scalar_id("SELECT count(*) FROM tournaments WHERE organiser = $1::uuid", org.id) == 1,
          "a refused key created one");
    /* The same key sent 6 times at once to two servers: one tournament, one answer for all. */
    char differs[200];
    CHECK(hard_race_key(srv, "/v1/tournaments", other, org.auth, "Idempotency-Key: tourney-key-2",
                        6, differs, sizeof differs),
          "the raced repeats' answers differ (%s)", differs);
    CHECK(db_scalar_id("SELECT count(*) FROM tournaments WHERE organiser = $1::uuid", org.id) == 2,
          "the raced key created more than once");
}

ITEST(tourney_idempotent_entries, "tournaments: a keyed join, start and leave repeated get the "
                                  "first answer (201, 200, 204), not the state's")
{
    struct person org, p, q;
    char why[300], id[64], path[200], code[64];
    CHECK(person_new(srv, "Keyed org", &org, why, sizeof why) == 0 &&
              person_new(srv, "Keyed P", &p, why, sizeof why) == 0 &&
              person_new(srv, "Keyed Q", &q, why, sizeof why) == 0,
          "%s", why);
    CHECK(create(srv,
                 "{\"name\":\"Keyed entries\",\"format\":\"swiss\",\"rounds\":1,"
                 "\"players_per_game\":2,\"max_players\":4}",
                 org.auth, id) == 0,
          "create");
    snprintf(path, sizeof path, "/v1/tournaments/%s/join", id);
    CHECK(hard_keyed_twice(srv, path, p.auth, "join-1", 201, why, sizeof why), "%s", why);
    CHECK(call_code(srv, "POST", path, NULL, p.auth, code) == 200, "unkeyed join again: %s", code);
    CHECK(call_code(srv, "POST", path, NULL, q.auth, code) == 201, "q joins: %s", code);
    /* The key of the join sent with another request (a leave): 409, and q stays in. */
    char leave[200];
    snprintf(leave, sizeof leave, "/v1/tournaments/%s/leave", id);
    const char *reuse[3] = {p.auth, "Idempotency-Key: join-1", NULL};
    struct resp r;
    http(srv, "POST", leave, NULL, reuse, &r);
    long st = r.status;
    snprintf(code, sizeof code, "%s", st >= 400 ? problem_code(&r) : "");
    resp_free(&r);
    CHECK(st == 409 && strcmp(code, "idempotency_key_reused") == 0,
          "the join's key on a leave: "
          "%ld %s",
          st, code);
    CHECK(db_scalar_id("SELECT count(*) FROM tournament_entrants WHERE tournament_id = $1::uuid",
                       id) == 2,
          "the refused leave changed the entrants");
    snprintf(path, sizeof path, "/v1/tournaments/%s/start", id);
    CHECK(hard_keyed_twice(srv, path, org.auth, "start-1", 200, why, sizeof why), "%s", why);
    CHECK(call_code(srv, "POST", path, NULL, org.auth, code) == 409 &&
              strcmp(code, "tournament_not_open") == 0,
          "unkeyed start again: %s", code);
    /* After the start: p leaves with a key twice (204 both), then without one (409). */
    CHECK(hard_keyed_twice(srv, leave, p.auth, "leave-1", 204, why, sizeof why), "%s", why);
    CHECK(call_code(srv, "POST", leave, NULL, p.auth, code) == 409, "unkeyed leave again: %s",
          code);
}
