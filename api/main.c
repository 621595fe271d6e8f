/* main.c: tilehall's entry point: configuration, migrations, serving until a signal. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "board_cache.h"
#include "board_png.h"
#include "analysis_run.h"
#include "bots.h"
#include "clocks.h"
#include "cfg.h"
#include "games.h"
#include "http.h"
#include "jobs.h"
#include "live.h"
#include "log.h"
#include "metrics.h"
#include "migrate.h"
#include "mono.h"
#include "matchmaker.h"
#include "tourney_run.h"
#include "tourney_sweep.h"
#include "retention.h"
#include "router.h"
#include "routes.h"
#include "store.h"
#include "suspension.h"
#include "webhook.h"
#include "store_games.h"
#include "store_jobs.h"
#include "store_seeks.h"

#include <curl/curl.h>

/*
 * The drain after SIGTERM or SIGINT (`sig`): no new connections, jobs or deliveries; what
 * is in progress (requests, event streams ending, a computer player's or a clock's job,
 * webhook attempts in flight) goes on until it is done, DRAIN_TIMEOUT ran out, or another
 * signal of `sigs` came.
 */
static void drain(const struct cfg *cfg, const sigset_t *sigs, int sig)
{
    long long t0 = mono_ms(), end = t0 + cfg->drain_timeout_ms;
    http_drain();
    jobs_drain();
    webhook_drain();
    char reqs[16], jobs[16], hooks[16], ms[24];
    snprintf(reqs, sizeof reqs, "%d", http_in_progress());
    snprintf(jobs, sizeof jobs, "%ld", metrics_gauge(METRICS_JOBS_RUNNING));
    snprintf(hooks, sizeof hooks, "%d", webhook_in_flight());
    log_kv(LOG_INFO, "draining", "signal", sig == SIGINT ? "SIGINT" : "SIGTERM", "requests", reqs,
           "jobs", jobs, "webhooks", hooks, NULL);
    http_stop_listening();
    const char *why = "done";
    for (;;) {
        int r = http_in_progress(), j = jobs_busy(), w = webhook_in_flight();
        snprintf(reqs, sizeof reqs, "%d", r);
        snprintf(jobs, sizeof jobs, "%d", j);
        snprintf(hooks, sizeof hooks, "%d", w);
        if (!r && !j && !w) break;
        if (mono_ms() >= end) {
            why = "DRAIN_TIMEOUT";
            break;
        }
        struct timespec tick = {0, 10 * 1000000L};
        if (sigtimedwait(sigs, NULL, &tick) > 0) {
            why = "second signal";
            break;
        }
    }
    snprintf(ms, sizeof ms, "%lld", mono_ms() - t0);
    log_kv(strcmp(why, "done") == 0 ? LOG_INFO : LOG_WARN, "drained", "ended_by", why, "ms", ms,
           "requests_left", reqs, "jobs_left", jobs, "webhooks_left", hooks, NULL);
}

/*
 * Writes `port` and a newline to `path` whole (a file beside it renamed over it), so that
 * whoever started the server with PORT=0 reads the port the kernel gave, and only once
 * the server listens on it. 0, or -1 after logging why.
 */
static int port_file_write(const char *path, int port)
{
    char tmp[4096];
    int n = snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    FILE *f = n > 0 && (size_t)n < sizeof tmp ? fopen(tmp, "w") : NULL;
    int ok = f && fprintf(f, "%d\n", port) > 0;
    if (f && fclose(f) != 0) ok = 0;
    if (ok && rename(tmp, path) != 0) ok = 0;
    if (!ok) {
        if (f) remove(tmp);
        log_kv(LOG_ERROR, "cannot write PORT_FILE", "path", path, NULL);
        return -1;
    }
    return 0;
}

int main(void)
{
    struct cfg cfg;
    char err[256];
    if (cfg_load(&cfg, err, sizeof err)) {
        log_kv(LOG_ERROR, "bad configuration", "error", err, NULL);
        return 2;
    }
    /* Signals are taken by sigwait below; every thread started from here inherits the mask. */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    signal(SIGPIPE, SIG_IGN);

    int rc = 1;
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return 1; /* before any thread */
    if (store_init(cfg.database_url)) goto out_curl;
    if (migrate_run(cfg.migrations_dir)) goto out_store;
    if (games_init(cfg.game_cache, cfg.commit_threads)) goto out_store;
    board_cache_init(cfg.leaderboard_cache_ms);
    store_seeks_set_lapse(cfg.seek_lapse_s);
    if (routes_ops_init(&cfg)) goto out_games;
    if (routes_web_init(&cfg)) goto out_ops;
    routes_live_config(&cfg);
    routes_admin_config(&cfg);
    routes_hint_config(&cfg);
    board_png_set_wait(cfg.png_wait_ms);
    live_set_event_hook(webhook_kick);     /* another server's commit, watched */
    store_set_delivery_hook(webhook_kick); /* this server's commit of a game with a webhook */
    if (live_start(&cfg)) goto out_ops;
    if (webhook_start(&cfg)) goto out_live;
    store_set_job_hook(jobs_kick); /* this server's commit that made a job due */
    if (bots_init() || clocks_init() || suspension_init() || retention_init(&cfg) ||
        matchmaker_init() || tourney_run_init() || tourney_sweep_init() ||
        analysis_run_init(&cfg) || jobs_start(&cfg))
        goto out_webhook;
    static const struct http_app app = {.handle = api_handle, .route_template = api_route_template};
    if (http_start(&cfg, &app)) goto out_jobs;
    if (cfg.port_file && port_file_write(cfg.port_file, http_port())) {
        http_stop();
        goto out_jobs;
    }
    int sig = 0;
    sigwait(&sigs, &sig);
    drain(&cfg, &sigs, sig);
    http_stop();
    rc = 0;
out_jobs:
    jobs_stop();
out_webhook:
    webhook_stop();
out_live:
    live_stop();
out_ops:
    routes_web_free();
    routes_ops_free();
out_games:
    games_shutdown();
    board_cache_shutdown();
    board_png_shutdown();
out_store:
    store_shutdown();
out_curl:
    curl_global_cleanup();
    log_kv(LOG_INFO, "stopped", NULL);
    return rc;
}
