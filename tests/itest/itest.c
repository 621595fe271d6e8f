/* itest.c: the runner: starts the server (a server per worker), runs every test, prints "N passed,
 * M failed". */
#include "itest.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "tests.h"

char itest_failure[512];

static const char *proxy_log(void);

/* Waits up to `ms` for the port in `path` (written whole by the server once it listens);
 * the port, 0 when `pid` exited first or the time ran out. */
static int port_from_file(const char *path, pid_t pid, int ms)
{
    for (int waited = 0; waited < ms; waited += 20) {
        FILE *f = fopen(path, "r");
        if (f) {
            char line[16] = "";
            int ok = fgets(line, sizeof line, f) != NULL;
            fclose(f);
            long port = ok ? strtol(line, NULL, 10) : 0;
            if (port > 0 && port < 65536) return (int)port;
        }
        if (waitpid(pid, NULL, WNOHANG) == pid) return 0;
        usleep(20000);
    }
    return 0;
}

pid_t itest_spawn_server(int *port, const char *log, const char *const *env)
{
    const char *bin = getenv("TILEHALL_BIN");
    if (!bin) bin = "build/tilehall";
    static int spawned;
    char port_file[128];
    snprintf(port_file, sizeof port_file, "/tmp/itest-port.%ld.%d", (long)getpid(), ++spawned);
    /* A fixed port (a restart) may be someone's for a moment (the source port of another
     * program's connection): the server then exits at once, and is started again. */
    int tries = *port ? 50 : 1;
    for (int t = 0; t < tries; t++) {
        if (t) usleep(100000);
        remove(port_file);
        char want[16];
        snprintf(want, sizeof want, "%d", *port);
        pid_t pid = fork();
        if (pid < 0) return -1;
        if (pid == 0) {
            FILE *f = fopen(log, "a");
            if (f) {
                dup2(fileno(f), 2);
                dup2(fileno(f), 1);
            }
            setenv("PORT", want, 1);
            setenv("PORT_FILE", port_file, 1);
            if (!getenv("THREADS")) setenv("THREADS", "4", 1);
            if (!getenv("LOG_LEVEL")) setenv("LOG_LEVEL", "warn", 1);
            for (size_t i = 0; env && env[i]; i++) putenv((char *)env[i]);
            execl(bin, bin, (char *)NULL);
            _exit(127);
        }
        /* A sanitizer build takes seconds to connect and migrate before it listens. */
        int got = port_from_file(port_file, pid, 60000);
        remove(port_file);
        if (got > 0) {
            *port = got;
            return pid;
        }
        int status;
        if (waitpid(pid, &status, WNOHANG) == 0) { /* neither listening nor gone: give up */
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -1;
        }
    }
    return -1;
}

int server_start(struct server *s)
{
    return server_start_proxied(s, 0);
}

/* Starts scripts/spec-proxy.sh in front of `s`, on a port the kernel gives it; 0 or -1. */
static int proxy_start(struct server *s)
{
    char cmd[512], line[64] = "";
    snprintf(cmd, sizeof cmd, "scripts/spec-proxy.sh 0 %s %s", s->direct, proxy_log());
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    if (!fgets(line, sizeof line, p)) line[0] = '\0';
    int rc = pclose(p);
    /* "PID PORT" */
    char *end = NULL;
    long pid = strtol(line, &end, 10), port = end ? strtol(end, NULL, 10) : 0;
    if (rc != 0 || pid <= 0 || pid > 99999999 || port <= 0 || port > 65535) {
        s->proxy_port = 0;
        s->proxy_pid[0] = '\0';
        return -1;
    }
    snprintf(s->proxy_pid, sizeof s->proxy_pid, "%d", (int)pid);
    s->proxy_port = (int)port;
    snprintf(s->base, sizeof s->base, "http://127.0.0.1:%d", s->proxy_port);
    return 0;
}

void proxy_stop(struct server *s)
{
    if (!s->proxy_pid[0]) return;
    pid_t pid = (pid_t)strtol(s->proxy_pid, NULL, 10);
    if (pid > 0) kill(pid, SIGTERM);
    s->proxy_pid[0] = '\0';
    s->proxy_port = 0;
    snprintf(s->base, sizeof s->base, "%s", s->direct);
}

int itest_wait_answer(const char *base, const char *path, pid_t pid, int tries, long poll_us)
{
    struct server probe = {0};
    snprintf(probe.base, sizeof probe.base, "%s", base);
    for (int i = 0; i < tries; i++) {
        struct resp r;
        http(&probe, "GET", path, NULL, NULL, &r);
        long st = r.status;
        resp_free(&r);
        if (st == 200) return 0;
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid) return -1;
        usleep((useconds_t)poll_us);
    }
    return -2;
}

int server_start_proxied(struct server *s, int proxied)
{
    if (!s->port) {
        s->proxy_port = 0;
        s->proxy_pid[0] = '\0';
    }
    snprintf(s->log, sizeof s->log, "%s", itest_server_log());
    s->pid = itest_spawn_server(&s->port, s->log, NULL);
    if (s->pid < 0) return -1;
    snprintf(s->direct, sizeof s->direct, "http://127.0.0.1:%d", s->port);
    if (!s->proxy_port) snprintf(s->base, sizeof s->base, "%s", s->direct);
    if (itest_wait_answer(s->direct, "/healthz", s->pid, 200, 50000) != 0) return -1;
    const char *spec = getenv("ITEST_SPEC_PROXY"); /* "" (ITEST_PROXY=): none */
    if (proxied && spec && *spec && !s->proxy_port && proxy_start(s)) {
        fprintf(stderr, "itest: the spec proxy did not start\n");
        return -1;
    }
    return 0;
}

int itest_terminate(pid_t pid, long limit_ms, long poll_us)
{
    kill(pid, SIGTERM);
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int status = 0;
    do {
        if (waitpid(pid, &status, WNOHANG) == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        usleep((useconds_t)poll_us);
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while ((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000 < limit_ms);
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return 255;
}

/* Prints the last `lines` lines of the file `path`, each after "  log| ". */
static void print_tail(const char *path, int lines)
{
    FILE *f = fopen(path, "r");
    if (!f) return;
    /* The last 64 KiB hold far more than a sanitizer's or abort's report. */
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : 0;
    fseek(f, size > 65536 ? size - 65536 : 0, SEEK_SET);
    char *text = malloc(65537); /* not static: servers may be stopped from several threads */
    size_t n = text ? fread(text, 1, 65536, f) : 0;
    fclose(f);
    if (!text) return;
    text[n] = '\0';
    const char *from = text + n;
    for (int seen = 0; from > text && seen < lines;)
        if (*--from == '\n' && from + 1 < text + n) seen++;
    if (*from == '\n') from++;
    while (*from) {
        size_t len = strcspn(from, "\n");
        printf("  log| %.*s\n", (int)len, from);
        from += len + (from[len] == '\n');
    }
    free(text);
}

int server_stop(struct server *s)
{
    if (s->pid <= 0) return -1;
    int status = itest_terminate(s->pid, 15000, 50000);
    s->pid = 0;
    /* A server that did not exit cleanly (a sanitizer's report, an abort): its last words,
     * so that a failure on CI, where the log is gone afterwards, shows its cause. */
    if (status != 0 && s->log[0]) {
        printf("  server %s exited with status %d; the end of %s:\n", s->direct, status, s->log);
        print_tail(s->log, 40);
    }
    return status;
}

void http(const struct server *srv, const char *method, const char *path, const char *body,
          const char *const *headers, struct resp *r)
{
    memset(r, 0, sizeof *r);
    CURL *c = curl_easy_init();
    if (!c) return;
    char url[512];
    snprintf(url, sizeof url, "%s%s", srv->base, path);
    struct curl_slist *hl = resp_headers(headers, body != NULL);
    resp_request(c, url, method, body, hl);
    if (strcmp(method, "HEAD") == 0) curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
    resp_capture(c, resp_on_body, resp_on_header, r, 90000);
    resp_perform(c, r);
    curl_slist_free_all(hl);
    curl_easy_cleanup(c);
    resp_parse(r);
}

const cJSON *jget(const cJSON *j, const char *path)
{
    const cJSON *cur = j;
    const char *p = path;
    while (cur && *p) {
        char part[64];
        size_t n = strcspn(p, ".");
        if (n >= sizeof part) return NULL;
        memcpy(part, p, n);
        part[n] = '\0';
        p += n + (p[n] == '.');
        if (cJSON_IsArray(cur) && isdigit((unsigned char)part[0]))
            cur = cJSON_GetArrayItem(cur, (int)strtol(part, NULL, 10));
        else
            cur = cJSON_GetObjectItemCaseSensitive(cur, part);
    }
    return cur;
}

cJSON *game_events(const struct server *srv, const char *id)
{
    cJSON *all = cJSON_CreateArray();
    int after = 0;
    for (;;) {
        char path[160];
        snprintf(path, sizeof path, "/v1/games/%s/events?after=%d", id, after);
        struct resp r;
        http(srv, "GET", path, NULL, NULL, &r);
        cJSON *evs = r.status == 200 ? cJSON_DetachItemFromObject(r.json, "events") : NULL;
        resp_free(&r);
        if (!evs) {
            cJSON_Delete(all);
            return NULL;
        }
        int n = cJSON_GetArraySize(evs);
        while (cJSON_GetArraySize(evs) > 0) {
            cJSON *e = cJSON_DetachItemFromArray(evs, 0);
            after = (int)jnum(e, "seq");
            cJSON_AddItemToArray(all, e);
        }
        cJSON_Delete(evs);
        if (n == 0) return all;
    }
}

double jnum(const cJSON *j, const char *path)
{
    const cJSON *v = jget(j, path);
    return cJSON_IsNumber(v) ? v->valuedouble : -999999;
}

const char *jstr(const cJSON *j, const char *path)
{
    const cJSON *v = jget(j, path);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* Kills every child process of the runner but `keep`'s server and its proxy: servers a test
 * started and left running because a CHECK failed before its stop. Such a server would go
 * on claiming jobs and deadlines on the shared database and fail the tests after it.
 * Returns how many were killed. */
static int reap_strays(const struct server *keep)
{
    pid_t self = getpid(),
          proxy = keep->proxy_pid[0] ? (pid_t)strtol(keep->proxy_pid, NULL, 10) : 0;
    int killed = 0;
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0 || pid == keep->pid || pid == proxy) continue;
        char path[64], stat[512];
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        size_t n = fread(stat, 1, sizeof stat - 1, f);
        fclose(f);
        stat[n] = '\0';
        /* "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after
         * the last ')'. */
        char *close_paren = strrchr(stat, ')');
        char state;
        long ppid;
        if (!close_paren || sscanf(close_paren + 1, " %c %ld", &state, &ppid) != 2) continue;
        if (ppid != self) continue;
        kill((pid_t)pid, SIGKILL);
        waitpid((pid_t)pid, NULL, 0);
        printf("  killed process %ld, left running by the test\n", pid);
        killed++;
    }
    if (d) closedir(d);
    return killed;
}

const char *itest_server_log(void)
{
    const char *log = getenv("ITEST_SERVER_LOG");
    return log && *log ? log : "build/itest-server.log";
}

/* Where the spec proxies of this worker log (ITEST_PROXY_LOG, set per worker by main). */
static const char *proxy_log(void)
{
    const char *log = getenv("ITEST_PROXY_LOG");
    return log && *log ? log : "build/spec-proxy-itest.log";
}

/* What the workers share (mapped before the fork): the next test of the queue and the
 * counts of results. */
struct itest_shared {
    atomic_size_t next; /* the next place in the queue to take */
    atomic_int passed;  /* results so far, of every worker */
    atomic_int failed;
};

/* Runs one test on `srv` and counts its result; 0, or -1 when the server is gone and
 * could not be started again. */
static int run_one(const struct itest *t, struct server *srv, struct itest_shared *sh)
{
    itest_failure[0] = '\0';
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    t->fn(srv);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
    if (itest_failure[0]) {
        atomic_fetch_add(&sh->failed, 1);
        printf("FAIL %s (%ld ms): %s\n", t->name, ms, itest_failure);
    } else {
        atomic_fetch_add(&sh->passed, 1);
        printf("ok   %s (%ld ms)\n", t->name, ms);
    }
    (void)reap_strays(srv);
    if (srv->pid == 0) /* a test stopped it and failed to bring it back */
        return server_start_proxied(srv, 1);
    return 0;
}

/* Stops the server of a worker: a spec violation in its proxy's log or a nonzero exit
 * status (a sanitizer report) fails the run even where no test looked. */
static void worker_stop(struct server *srv, struct itest_shared *sh)
{
    if (srv->proxy_pid[0]) {
        proxy_stop(srv);
        FILE *f = fopen(proxy_log(), "r");
        char line[1024];
        int violations = 0;
        while (f && fgets(line, sizeof line, f)) {
            if (strncmp(line, "spec-proxy: VIOLATION", 21) != 0) continue;
            if (violations++ < 10) printf("  %.300s", line);
        }
        if (f) fclose(f);
        if (violations) {
            atomic_fetch_add(&sh->failed, 1);
            printf("FAIL %d answers broke openapi.yaml (%s)\n", violations, proxy_log());
        } else {
            atomic_fetch_add(&sh->passed, 1);
            printf("ok   every answer conformed to openapi.yaml (spec proxy, %s)\n", proxy_log());
        }
    }
    int code = server_stop(srv);
    if (code != 0) {
        atomic_fetch_add(&sh->failed, 1);
        printf("FAIL server exit status %d at the end (sanitizer report in %s?)\n", code,
               itest_server_log());
    } else {
        atomic_fetch_add(&sh->passed, 1);
        printf("ok   server stopped cleanly\n");
    }
}

/* A worker: a server of its own, then the tests of `queue` (`n` indices of itest_tests)
 * taken one by one from the shared place `sh->next` until none is left, then its stop. */
static int worker(const size_t *queue, size_t n, struct itest_shared *sh)
{
    struct server srv = {0};
    if (server_start_proxied(&srv, 1)) {
        fprintf(stderr, "itest: the server did not start (see %s)\n", itest_server_log());
        atomic_fetch_add(&sh->failed, 1);
        return -1;
    }
    for (;;) {
        size_t at = atomic_fetch_add(&sh->next, 1);
        if (at >= n || run_one(&itest_tests[queue[at]], &srv, sh)) break;
    }
    worker_stop(&srv, sh);
    return 0;
}

/* Gives this process worker `k`'s database (DATABASE_URL, ITEST_DATABASE_URL_<k+1> for
 * k > 0), server log and spec proxy log (".w<k+1>" added for k > 0); 0, or -1 when its
 * database is not given. */
static int worker_env(int k)
{
    if (k == 0) return 0;
    char name[64], value[1024];
    snprintf(name, sizeof name, "ITEST_DATABASE_URL_%d", k + 1);
    const char *url = getenv(name);
    if (!url || !*url) {
        fprintf(stderr, "itest: %s is not set (ITEST_JOBS > 1; use make test-itest)\n", name);
        return -1;
    }
    setenv("DATABASE_URL", url, 1);
    snprintf(value, sizeof value, "%s.w%d", itest_server_log(), k + 1);
    setenv("ITEST_SERVER_LOG", value, 1);
    snprintf(value, sizeof value, "%s.w%d", proxy_log(), k + 1);
    setenv("ITEST_PROXY_LOG", value, 1);
    return 0;
}

/*
 * itest [WORD]: the tests whose title holds WORD (all without it). With ITEST_JOBS=N (1 by
 * default) the tests run in N worker processes, each with a server and a database of its
 * own (DATABASE_URL, ITEST_DATABASE_URL_2 ...), each taking the next test not yet taken;
 * the ITEST_SOLO tests run first, one by one, with no other test beside them.
 */
/* 1 when test name `name` holds one of the '|'-separated parts of `filter` (ITEST_FILTER). */
static int name_matches(const char *name, const char *filter)
{
    for (const char *part = filter;;) {
        const char *bar = strchr(part, '|');
        size_t len = bar ? (size_t)(bar - part) : strlen(part);
        char one[256];
        if (len < sizeof one) {
            memcpy(one, part, len);
            one[len] = '\0';
            if (strstr(name, one)) return 1;
        }
        if (!bar) return 0;
        part = bar + 1;
    }
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (!getenv("DATABASE_URL")) {
        fprintf(stderr, "itest: DATABASE_URL is not set (use make test-itest)\n");
        return 2;
    }
    long jobs = strtol(getenv("ITEST_JOBS") ? getenv("ITEST_JOBS") : "1", NULL, 10);
    if (jobs < 1 || jobs > 8) jobs = 1;
    curl_global_init(CURL_GLOBAL_ALL);
    signal(SIGPIPE, SIG_IGN);
    struct itest_shared *sh =
        mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    size_t *solo = calloc(itest_ntests + 1, sizeof *solo),
           *rest = calloc(itest_ntests + 1, sizeof *rest);
    if (sh == MAP_FAILED || !solo || !rest) return 2;
    size_t nsolo = 0, nrest = 0;
    for (size_t i = 0; i < itest_ntests; i++) {
        if (argc > 1 && !name_matches(itest_tests[i].name, argv[1])) continue;
        if (jobs > 1 && itest_tests[i].solo)
            solo[nsolo++] = i;
        else
            rest[nrest++] = i;
    }
    if (jobs > 1 && (long)nrest < jobs) jobs = nrest > 1 ? (long)nrest : 1;
    if (jobs == 1) { /* no worker beside another: every test in file order */
        nsolo = nrest = 0;
        for (size_t i = 0; i < itest_ntests; i++)
            if (argc <= 1 || name_matches(itest_tests[i].name, argv[1])) rest[nrest++] = i;
    }
    atomic_init(&sh->next, 0);
    atomic_init(&sh->passed, 0);
    atomic_init(&sh->failed, 0);
    int status = 0;
    if (nsolo) { /* a spec proxy log of its own, apart from the first worker's */
        char saved[512], solo_log[528];
        snprintf(saved, sizeof saved, "%s", proxy_log());
        snprintf(solo_log, sizeof solo_log, "%s.solo", saved);
        setenv("ITEST_PROXY_LOG", solo_log, 1);
        if (worker(solo, nsolo, sh)) status = 2;
        setenv("ITEST_PROXY_LOG", saved, 1);
    }
    if (jobs == 1) {
        atomic_store(&sh->next, 0);
        if (worker(rest, nrest, sh)) status = 2;
    } else if (nrest) {
        atomic_store(&sh->next, 0);
        pid_t kids[8];
        int nkids = 0;
        for (int k = 0; k < jobs; k++) {
            pid_t pid = fork();
            if (pid == 0) _exit(worker_env(k) || worker(rest, nrest, sh) ? 2 : 0);
            if (pid > 0) kids[nkids++] = pid;
        }
        for (int k = 0; k < nkids; k++) {
            int st = 0;
            if (waitpid(kids[k], &st, 0) != kids[k] || !WIFEXITED(st) || WEXITSTATUS(st))
                status = 2;
        }
        if (nkids < jobs) status = 2;
    }
    curl_global_cleanup();
    int passed = atomic_load(&sh->passed), failed = atomic_load(&sh->failed);
    printf("%d passed, %d failed\n", passed, failed);
    return failed || status ? 1 : 0;
}
