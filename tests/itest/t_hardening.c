/* t_hardening.c: many clients racing on many games over two servers, a server killed
 * with SIGKILL under load, PostgreSQL stopped under load, the rate limit, tokens and
 * connection limits. Short by default (seconds); the knobs below make them long:
 *
 *   HARD_GAMES (20) HARD_CLIENTS (50) HARD_TURNS (3)     the race: games, clients, turns each
 *   HARD_CRASHES (1) HARD_CRASH_LOAD_MS (1500)            kill -9 rounds, load before each
 *   HARD_OUTAGE_MS (2000)                                 how long PostgreSQL stays down
 *
 * The load goes straight to the servers, not through the spec proxy: the proxy is one
 * Node process that would queue the clients one after another (so nothing would race),
 * and the second server has no proxy of its own. Their answers' statuses are checked here;
 * the conformance of each kind of answer is checked through the proxy by other tests. */
#include <errno.h>
#include <stdio.h>
#include <sys/socket.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "hard.h"
#include "load.h"
#include "tests.h"

#define LOAD_GAME "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"},{\"name\":\"C\"}],\"seed\":%d}"

/* The highest version a 2xx answer gave for game `gi`. */
static int top_version(struct load *l, int gi)
{
    int top = 1;
    pthread_mutex_lock(&l->lock);
    for (int i = 0; i < l->nwins; i++)
        if (l->wins[i].game == gi && l->wins[i].version > top) top = l->wins[i].version;
    pthread_mutex_unlock(&l->lock);
    return top;
}

/* Answers that lost a race: 403, 409 and 412. */
static long losses(const struct load *l)
{
    return l->by_status[403] + l->by_status[409] + l->by_status[412];
}

ITEST(test_race_many, "many clients race on many games over two servers; replays match")
{
    int ngames = (int)hard_knob("HARD_GAMES", 20), clients = (int)hard_knob("HARD_CLIENTS", 50);
    int turns = (int)hard_knob("HARD_TURNS", 3);
    char why[400] = "";
    struct server two;
    CHECK(hard_server_start(&two, NULL, 0) == 0, "the second server did not start");
    static struct load l;
    memset(&l, 0, sizeof l);
    l.servers[0] = srv;
    l.servers[1] = &two;
    l.nservers = 2;
    l.clients = clients;
    l.target_version = 1 + 2 * turns;
    l.if_match_every = 3; /* every third action without If-Match: the engine judges those */
    int made = load_games(&l, ngames, LOAD_GAME, why, sizeof why);
    long long t0 = hard_now_ms();
    int started = made == 0 ? load_start(&l) : -1;
    int reached = 0;
    while (started == 0 && !reached && hard_now_ms() - t0 < 300000) {
        usleep(100000);
        reached = 1;
        for (int gi = 0; gi < l.ngames && reached; gi++)
            reached = top_version(&l, gi) >= l.target_version;
    }
    load_stop(&l);
    long long ms = hard_now_ms() - t0;
    int verified = made == 0 ? load_verify(&l, 1, why, sizeof why) : -1;
    /* Either server's event feed holds every event once, in order, as many as stored. */
    for (int gi = 0; verified == 0 && gi < l.ngames; gi++) {
        struct db_game row;
        if (db_game_read(l.games[gi].id, &row, why, sizeof why)) {
            verified = -1;
            break;
        }
        for (int k = 0; k < 2 && verified == 0; k++) {
            char path[160];
            snprintf(path, sizeof path, "/v1/games/%s/events", l.games[gi].id);
            struct resp r;
            hard_send(l.servers[k], VIA_DIRECT, "GET", path, NULL, 0, NULL, &r);
            const cJSON *evs = jget(r.json, "events");
            int n = cJSON_GetArraySize(evs), ok = r.status == 200 && n == row.last_seq;
            for (int i = 0; ok && i < n; i++) ok = jnum(cJSON_GetArrayItem(evs, i), "seq") == i + 1;
            if (!ok) {
                snprintf(why, sizeof why, "game %d: server %d's feed has %d events, %d stored", gi,
                         k + 1, n, row.last_seq);
                verified = -1;
            }
            resp_free(&r);
        }
        db_game_free(&row);
    }
    printf("  race: %d clients, %d games, 2 servers: %ld requests in %lld ms, %d actions "
           "accepted, %ld lost a race (403/409/412), slowest %lld ms\n",
           clients, l.ngames, l.requests, ms, l.nwins, losses(&l), l.max_ms);
    int code = hard_server_stop(&two);
    char odd[300];
    snprintf(odd, sizeof odd, "%s", l.first_odd);
    long unanswered = l.by_status[0], lost = losses(&l);
    load_free(&l);
    CHECK(made == 0 && started == 0, "%s", why);
    CHECK(reached, "not every game reached version %d in time", 1 + 2 * turns);
    CHECK(!odd[0] && unanswered == 0, "unexpected answer: %s (%ld without an answer)", odd,
          unanswered);
    CHECK(verified == 0, "%s", why);
    CHECK(lost > 0, "no client ever lost a race: nothing raced");
    CHECK(code == 0, "the second server exited with status %d", code);
}

/* Starts a server of its own into `s` and sets `l` up (zeroed) for `clients` clients
 * against it alone, with `if_match_every` as load.h says. 0, or -1 when the server did
 * not start. */
static int own_server_load(struct server *s, struct load *l, int clients, int if_match_every)
{
    if (hard_server_start(s, NULL, 0) != 0) return -1;
    memset(l, 0, sizeof *l);
    l->servers[0] = s;
    l->nservers = 1;
    l->clients = clients;
    l->if_match_every = if_match_every;
    return 0;
}

ITEST(test_crash, "kill -9 under load: every 2xx action survives the restart")
{
    (void)srv;
    int rounds = (int)hard_knob("HARD_CRASHES", 1);
    long load_ms = hard_knob("HARD_CRASH_LOAD_MS", 1500);
    char why[400] = "";
    struct server x;
    static struct load l;
    CHECK(own_server_load(&x, &l, 24, 4) == 0, "the server to kill did not start");
    l.cutoffs_ok = 1; /* the requests in flight when the server is killed get no answer */
    /* Games enough that some are still running in the last round. */
    int ngames = 24 * rounds < LOAD_MAX_GAMES ? 24 * rounds : LOAD_MAX_GAMES;
    int rc = load_games(&l, ngames, LOAD_GAME, why, sizeof why);
    int restarted = 1;
    long accepted_before_kill = 0;
    for (int round = 0; rc == 0 && round < rounds && restarted; round++) {
        if (load_start(&l)) {
            rc = -1;
            break;
        }
        usleep((useconds_t)load_ms * 1000);
        hard_server_kill(&x); /* mid-flight: requests are being answered and committed */
        load_stop(&l);
        if (getenv("HARD_VERBOSE"))
            printf("  kill -9 round %d: %d actions accepted so far, %ld requests\n", round, l.nwins,
                   l.requests);
        accepted_before_kill = l.nwins;
        restarted = server_start(&x) == 0;
    }
    int verified = rc == 0 && restarted ? load_verify(&l, 0, why, sizeof why) : -1;
    printf("  kill -9: %d rounds of %ld ms: %d actions answered 2xx before the kills, all "
           "stored; %ld requests cut off\n",
           rounds, load_ms, l.nwins, l.by_status[0]);
    /* Every game plays on after the restart. */
    int played = 0;
    for (int gi = 0; verified == 0 && gi < l.ngames; gi++) {
        int p = play_turn(&x, &l.games[gi], 1, why, sizeof why);
        if (p < 0) break;
        played++;
    }
    char odd[300];
    snprintf(odd, sizeof odd, "%s", l.first_odd);
    ngames = l.ngames;
    load_free(&l);
    int code = x.pid ? hard_server_stop(&x) : 0;
    CHECK(rc == 0, "%s", why);
    CHECK(restarted, "the server did not start again after kill -9");
    CHECK(accepted_before_kill > 0, "no action was accepted before the kill");
    CHECK(!odd[0], "unexpected answer: %s", odd);
    CHECK(verified == 0, "%s", why);
    CHECK(played == ngames, "after the restart: %s", why);
    CHECK(code == 0, "the restarted server exited with status %d", code);
}

ITEST_SOLO(test_outage, "PostgreSQL stopped under load: 503 with Retry-After, then recovery")
{
    (void)srv;
    const char *stop, *start;
    if (hard_pg_commands("outage", &stop, &start)) return;
    long down_ms = hard_knob("HARD_OUTAGE_MS", 2000);
    char why[400] = "";
    struct server y;
    static struct load l;
    CHECK(own_server_load(&y, &l, 16, 5) == 0, "the server did not start");
    l.mixed_reads = 1;
    int rc = load_games(&l, 8, LOAD_GAME, why, sizeof why);
    if (rc == 0) rc = load_start(&l);
    usleep(800000);
    pthread_mutex_lock(&l.lock);
    long before_503 = l.by_status[503];
    pthread_mutex_unlock(&l.lock);
    int stopped = rc == 0 && system(stop) == 0;
    long long t_down = hard_now_ms();
    /* While it is down: the process answers its health check at once. */
    int healthy = 1;
    struct server direct = y;
    while (stopped && hard_now_ms() - t_down < down_ms) {
        struct resp r;
        long long t = hard_now_ms();
        http(&direct, "GET", "/healthz", NULL, NULL, &r);
        healthy &= r.status == 200 && hard_now_ms() - t < 2000;
        resp_free(&r);
        usleep(200000);
    }
    pthread_mutex_lock(&l.lock);
    long during_503 = l.by_status[503] - before_503;
    pthread_mutex_unlock(&l.lock);
    int started = system(start) == 0;
    long long t_up = hard_now_ms();
    int recovered = 0;
    while (started && !recovered && hard_now_ms() - t_up < 30000) {
        usleep(100000);
        pthread_mutex_lock(&l.lock);
        recovered = l.last_2xx_ms > t_up + 200;
        pthread_mutex_unlock(&l.lock);
    }
    long long recover_ms = hard_now_ms() - t_up;
    usleep(500000);
    load_stop(&l);
    int verified = rc == 0 && recovered ? load_verify(&l, 0, why, sizeof why) : -1;
    printf("  outage: %ld requests, %ld answered 503 (all with Retry-After: %s), slowest %lld "
           "ms, 2xx again %lld ms after PostgreSQL was back\n",
           l.requests, l.by_status[503], l.retry_after_missing ? "no" : "yes", l.max_ms,
           recover_ms);
    char odd[300];
    snprintf(odd, sizeof odd, "%s", l.first_odd);
    long unanswered = l.by_status[0], no_retry = l.retry_after_missing;
    long long slowest = l.max_ms;
    load_free(&l);
    int code = hard_server_stop(&y);
    CHECK(rc == 0, "%s", why);
    CHECK(stopped && started, "could not stop and start PostgreSQL");
    CHECK(during_503 > 0, "no 503 while PostgreSQL was down");
    CHECK(no_retry == 0, "%ld answers 503 without Retry-After", no_retry);
    CHECK(!odd[0] && unanswered == 0, "unexpected answer: %s (%ld without an answer)", odd,
          unanswered);
    CHECK(healthy, "/healthz did not answer 200 at once while the database was down");
    CHECK(slowest < 10000, "an answer took %lld ms", slowest);
    CHECK(recovered, "no 2xx within 30 s after PostgreSQL came back");
    CHECK(verified == 0, "%s", why);
    CHECK(code == 0, "the server exited with status %d", code);
}

ITEST(test_rate_limit, "rate limit: 429 with Retry-After, off by default")
{
    /* Off by default: a burst to the main server is never refused. */
    struct resp r;
    int refused = 0;
    for (int i = 0; i < 60; i++) {
        hard_send(srv, VIA_DIRECT, "GET", "/v1/rulesets", NULL, 0, NULL, &r);
        refused += r.status == 429;
        resp_free(&r);
    }
    CHECK(refused == 0, "%d answers 429 with the limit off", refused);
    HARD_SERVER(z, 1, "RATE_LIMIT=5", "RATE_BURST=10");
    int ok = 0, limited = 0, good_problem = 1, retry = 0;
    long long t0 = hard_now_ms();
    for (int i = 0; i < 30; i++) {
        http(&z, "GET", "/v1/rulesets", NULL, NULL, &r); /* through the proxy: 429 conforms */
        if (r.status == 200) ok++;
        if (r.status == 429) {
            limited++;
            retry = (int)strtol(r.retry_after, NULL, 10);
            good_problem &= strcmp(problem_code(&r), "rate_limited") == 0 &&
                            strcmp(r.ctype, "application/problem+json") == 0 && retry >= 1;
        }
        resp_free(&r);
    }
    /* The burst, and the tokens that came back meanwhile (5 a second). */
    int most = 10 + (int)((hard_now_ms() - t0) * 5 / 1000) + 1;
    /* Health checks are never limited. */
    int health = 0;
    for (int i = 0; i < 20; i++) {
        hard_send(&z, VIA_DIRECT, "GET", "/healthz", NULL, 0, NULL, &r);
        health += r.status == 200;
        resp_free(&r);
    }
    sleep((unsigned)(retry > 0 && retry < 5 ? retry : 1));
    http(&z, "GET", "/v1/rulesets", NULL, NULL, &r);
    long after_wait = r.status;
    resp_free(&r);
    int code = hard_server_stop(&z);
    CHECK(ok >= 10 && ok <= most && limited == 30 - ok && limited > 0,
          "%d answered 200 (10 to %d expected), %d 429 of 30", ok, most, limited);
    CHECK(good_problem, "a 429 was not a rate_limited problem with Retry-After");
    CHECK(health == 20, "/healthz was limited");
    CHECK(after_wait == 200, "after Retry-After: %ld", after_wait);
    CHECK(code == 0, "the server exited with status %d", code);
}

int token_shape(const char *tok)
{
    return strlen(tok) == 43 &&
           strspn(tok, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") == 43;
}

ITEST(test_security, "tokens: 256 bits, stored hashed, never logged; only parameterised SQL")
{
    (void)srv;
    /* Beside this run's server log (its worker's): make test-itest-all runs three variants
     * at once, and one fixed path shared by them let another's start empty this server's
     * log (a thread run once read 2 lines of it). */
    char log[240];
    snprintf(log, sizeof log, "%s.security", itest_server_log());
    FILE *f = fopen(log, "w");
    if (f) fclose(f);
    struct server z;
    char logenv[sizeof "ITEST_SERVER_LOG=" + 240];
    snprintf(logenv, sizeof logenv, "ITEST_SERVER_LOG=%s", log);
    const char *env[] = {"LOG_LEVEL=debug", logenv, NULL};
    CHECK(hard_server_start(&z, env, 0) == 0, "the server did not start");
    char why[400];
    struct game g[3];
    int made = 0;
    for (int i = 0; i < 3; i++)
        made += game_new(&z,
                         i == 0 ? "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"},{\"name\":"
                                  "\"C\"},{\"name\":\"D\"},{\"name\":\"E\"}],\"seed\":1}"
                                : "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}]}",
                         &g[i], why, sizeof why) == 0;
    /* Use the tokens: right, wrong, with an idempotency key, and play a little. */
    const char *wrong = "Authorization: Bearer Zm9yZ2VkLXRva2VuLXRoYXQtaXMtbm90LWEtcmVhbC1vbmU";
    struct resp r;
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/draw", g[1].id);
    const char *hw[] = {wrong, NULL};
    http(&z, "POST", path, NULL, hw, &r);
    long wrong_status = r.status;
    resp_free(&r);
    const char *hk[] = {g[1].auth[0], "Idempotency-Key: sec-1", NULL};
    http(&z, "POST", path, NULL, hk, &r);
    long right_status = r.status;
    resp_free(&r);
    int played = play_turn(&z, &g[2], 1, why, sizeof why) >= 0;
    /* A player's tokens: the first (made with an Idempotency-Key), then its replacement;
     * each used, the first once more after it was replaced. */
    char ptok[2][128] = {"", ""}, pauth[2][160], pid[64] = "";
    const char *hp[] = {"Idempotency-Key: sec-player-1-4f0e8d2b6a9c1e7f3d5b", NULL};
    http(&z, "POST", "/v1/players", "{\"name\":\"Sec\"}", hp, &r);
    snprintf(ptok[0], sizeof ptok[0], "%s", jstr(r.json, "token"));
    snprintf(pid, sizeof pid, "%s", jstr(r.json, "id"));
    resp_free(&r);
    long player_status[3] = {0, 0, 0};
    for (int k = 0; k < 2; k++) {
        snprintf(pauth[k], sizeof pauth[k], "Authorization: Bearer %s", ptok[k]);
        const char *ha[] = {pauth[k], NULL};
        http(&z, "GET", "/v1/players/me", NULL, ha, &r);
        player_status[k] = r.status;
        resp_free(&r);
        if (k == 1) break;
        http(&z, "POST", "/v1/players/me/token", NULL, ha, &r);
        snprintf(ptok[1], sizeof ptok[1], "%s", jstr(r.json, "token"));
        resp_free(&r);
    }
    const char *hold[] = {pauth[0], NULL};
    http(&z, "GET", "/v1/players/me", NULL, hold, &r);
    player_status[2] = r.status;
    resp_free(&r);
    int code = hard_server_stop(&z);
    /* Tokens: 256 random bits each, all different, stored only as their SHA-256. */
    int shapes = 1, distinct = 1, hashed = 1, nowhere = 1, logged = 0;
    char *text = NULL;
    f = fopen(log, "r");
    size_t len = 0;
    if (f) {
        fseek(f, 0, SEEK_END);
        len = (size_t)ftell(f);
        fseek(f, 0, SEEK_SET);
        text = calloc(len + 1, 1);
        if (text && fread(text, 1, len, f) != len) len = 0;
        fclose(f);
    }
    for (int i = 0; i < 3 && made == 3; i++) {
        for (int s = 0; s < g[i].nplayers; s++) {
            const char *t = g[i].token[s];
            shapes &= token_shape(t);
            for (int j = 0; j < 3; j++)
                for (int k = 0; k < g[j].nplayers; k++)
                    if ((j != i || k != s) && strcmp(t, g[j].token[k]) == 0) distinct = 0;
            char seat[16];
            snprintf(seat, sizeof seat, "%d", s);
            const char *v3[] = {g[i].id, seat, t};
            hashed &= db_scalar_params("SELECT count(*) FROM players WHERE game_id = $1::uuid AND "
                                       "seat = $2::integer AND token_hash = "
                                       "sha256(convert_to($3, 'UTF8'))",
                                       3, v3) == 1;
            nowhere &=
                db_scalar_id(
                    "SELECT (SELECT count(*) FROM events WHERE strpos(payload::text, $1) > 0) "
                    "+ (SELECT count(*) FROM actions WHERE strpos(body::text, $1) > 0) "
                    "+ (SELECT count(*) FROM idempotency WHERE strpos(body, $1) > 0 "
                    "OR position(convert_to($1, 'UTF8') in sealed) > 0) "
                    "+ (SELECT count(*) FROM games WHERE strpos(options::text, $1) > 0) "
                    "+ (SELECT count(*) FROM players WHERE strpos(name, $1) > 0)",
                    t) == 0;
            if (text && strstr(text, t)) logged = 1;
        }
    }
    for (int k = 0; k < 2; k++) {
        const char *t = ptok[k];
        shapes &= token_shape(t);
        for (int i = 0; i < 3 && made == 3; i++)
            for (int s = 0; s < g[i].nplayers; s++) distinct &= strcmp(t, g[i].token[s]) != 0;
        const char *v2[] = {pid, t};
        /* Only the current token's hash is stored. */
        hashed &= db_scalar_params("SELECT count(*) FROM people WHERE id = $1::uuid AND "
                                   "token_hash = sha256(convert_to($2, 'UTF8'))",
                                   2, v2) == (k == 1);
        nowhere &= db_scalar_id("SELECT (SELECT count(*) FROM idempotency WHERE strpos(body, "
                                "$1) > 0 OR position(convert_to($1, 'UTF8') in sealed) > 0) "
                                "+ (SELECT count(*) FROM people WHERE strpos(name, $1) > 0)",
                                t) == 0;
        if (text && strstr(text, t)) logged = 1;
    }
    distinct &= strcmp(ptok[0], ptok[1]) != 0;
    if (text && (strstr(text, wrong + 22) || strstr(text, "Bearer"))) logged = 1;
    int log_lines = 0;
    for (size_t i = 0; text && i < len; i++) log_lines += text[i] == '\n';
    free(text);
    CHECK(made == 3, "%s", why);
    CHECK(wrong_status == 401 && right_status == 200, "draws: %ld with a forged token, %ld right",
          wrong_status, right_status);
    CHECK(played, "%s", why);
    CHECK(player_status[0] == 200 && player_status[1] == 200 && player_status[2] == 401,
          "the player's tokens: %ld first, %ld replacement, %ld first after the replacement",
          player_status[0], player_status[1], player_status[2]);
    CHECK(shapes, "a token is not 43 characters of base64url (256 bits)");
    CHECK(distinct, "two tokens are the same");
    CHECK(hashed, "a stored token_hash is not the SHA-256 of the token");
    CHECK(nowhere, "a token is stored in clear somewhere");
    CHECK(log_lines > 5, "the debug log has only %d lines", log_lines);
    CHECK(!logged, "a token is in the server log (%s)", log);
    CHECK(code == 0, "the server exited with status %d", code);
    /* Only parameterised SQL in the service: checked on its source. */
    CHECK(system("node scripts/check-sql.js >/dev/null") == 0, "scripts/check-sql.js failed");
}

/* Opens `n` idle TCP connections to `s` into fds[]; returns how many opened. */
static int open_idle(const struct server *s, int *fds, int n)
{
    int opened = 0;
    while (opened < n && (fds[opened] = hard_connect(s)) >= 0) opened++;
    return opened;
}

ITEST(test_connection_limits, "connection limits, total and per address")
{
    (void)srv;
    static const char *const cases[][3] = {{"MAX_CONNECTIONS=6", "THREADS=1", NULL},
                                           {"MAX_CONNECTIONS_PER_IP=4", NULL, NULL}};
    static const int limit[] = {6, 4};
    for (int c = 0; c < 2; c++) {
        struct server z;
        CHECK(hard_server_start(&z, cases[c], 0) == 0, "%s: the server did not start", cases[c][0]);
        usleep(200000); /* the start-up health checks' connections are gone */
        int fds[16];
        int n = open_idle(&z, fds, limit[c]);
        usleep(200000);
        struct resp r;
        hard_set_timeout(1500); /* one more waits (total limit) or is closed (per address) */
        hard_send(&z, VIA_DIRECT, "GET", "/v1/rulesets", NULL, 0, NULL, &r);
        hard_set_timeout(30000);
        long full = r.status;
        resp_free(&r);
        /* The idle ones the server answered 408 and closed (shed under pressure,
         * connguard.h). */
        int shed = 0;
        for (int i = 0; i < n; i++) {
            char ch;
            ssize_t k = recv(fds[i], &ch, 1, MSG_DONTWAIT);
            shed += !(k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)); /* 408, closed */
        }
        for (int i = 0; i < n; i++) close(fds[i]);
        usleep(300000);
        hard_send(&z, VIA_DIRECT, "GET", "/v1/rulesets", NULL, 0, NULL, &r);
        long freed = r.status;
        resp_free(&r);
        int code = hard_server_stop(&z);
        CHECK(n == limit[c], "%s: opened %d connections", cases[c][0], n);
        /* The whole table (c 0): idle connections, which sent no request, are closed under
         * pressure (from 90 % of MAX_CONNECTIONS down to 75 %), so one more is served; one
         * address past its own limit (c 1) is closed at once. */
        if (c == 0)
            CHECK(full == 200 && shed >= 1 && shed <= limit[c] - limit[c] * 75 / 100 + 1,
                  "%s: with %d idle connections open, one more was answered %ld, %d idle ones "
                  "closed",
                  cases[c][0], n, full, shed);
        else
            CHECK(full == 0 && shed == 0, "%s: with %d connections open, one more was answered %ld",
                  cases[c][0], n, full);
        CHECK(freed == 200, "%s: once they closed: %ld", cases[c][0], freed);
        CHECK(code == 0, "%s: the server exited with status %d", cases[c][0], code);
    }
}
