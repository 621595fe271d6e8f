/* main.c: tilehall's entry point: configuration, migrations, serving until a signal. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "board_png.h"
#include "bots.h"
#include "clocks.h"
#include "cfg.h"
#include "games.h"
#include "http.h"
#include "jobs.h"
#include "live.h"
#include "log.h"
#include "migrate.h"
#include "retention.h"
#include "routes.h"
#include "store.h"
#include "webhook.h"

#include <curl/curl.h>

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
    if (games_init(cfg.game_cache)) goto out_store;
    if (routes_ops_init(&cfg)) goto out_games;
    routes_live_config(&cfg);
    live_set_event_hook(webhook_kick);     /* another server's commit, watched */
    store_set_delivery_hook(webhook_kick); /* this server's commit of a game with a webhook */
    if (live_start(&cfg)) goto out_ops;
    if (webhook_start(&cfg)) goto out_live;
    store_set_job_hook(jobs_kick); /* this server's commit that made a job due */
    if (bots_init() || clocks_init() || retention_init(&cfg) || jobs_start(&cfg)) goto out_webhook;
    if (http_start(&cfg)) goto out_jobs;
    int sig = 0;
    sigwait(&sigs, &sig);
    log_kv(LOG_INFO, "stopping", "signal", sig == SIGINT ? "SIGINT" : "SIGTERM", NULL);
    http_stop();
    rc = 0;
out_jobs:
    jobs_stop();
out_webhook:
    webhook_stop();
out_live:
    live_stop();
out_ops:
    routes_ops_free();
out_games:
    games_shutdown();
    board_png_shutdown();
out_store:
    store_shutdown();
out_curl:
    curl_global_cleanup();
    log_kv(LOG_INFO, "stopped", NULL);
    return rc;
}
