/* routes_analysis.c: GET /v1/games/{id}/analysis: the review of every placement of a
 * finished game (core/bot_analysis.h). Never computed on an HTTP thread: the first request
 * writes the game's job (kind "analysis", api/jobs/analysis_run.c) in the statement that
 * reads, and it and later requests answer 202 with Retry-After until a worker of any
 * server has stored the body; then 200 with it (it never changes: cacheable for good). */
#include <stdio.h>
#include <stdlib.h>

#include "analysis_run.h"
#include "json_out.h"
#include "problem.h"
#include "query_args.h"
#include "replay.h"
#include "routes.h"
#include "store_analysis.h"

#define ANALYSIS_RETRY_AFTER 2 /* seconds: most games are analysed within a few */

void routes_game_analysis(const struct api_request *req, struct api_response *resp, const char *id)
{
    (void)req;
    if (query_game_id(resp, id)) return;
    enum store_analysis_state state;
    char *body;
    enum store_status s = store_analysis_get(id, analysis_lease_ms(), &state, &body);
    if (s != STORE_OK) {
        problem_store(resp, s); /* 404 for no such game */
        return;
    }
    if (state == STORE_ANALYSIS_DONE) {
        api_reply_take(resp, 200, "application/json", body);
        replay_cache_forever(resp);
        return;
    }
    if (state == STORE_ANALYSIS_NOT_FINISHED) {
        problem_reply(resp, 409, "game_not_finished",
                      "Only a finished game has an analysis: this one is not finished.");
        return;
    }
    struct json_out w;
    json_out_init(&w);
    json_out_begin_object(&w);
    json_out_kstring(&w, "game", id);
    json_out_kstring(&w, "status", "pending");
    json_out_kint(&w, "retry_after", ANALYSIS_RETRY_AFTER);
    json_out_end_object(&w);
    api_reply_out(resp, 202, &w);
    resp->retry_after = ANALYSIS_RETRY_AFTER;
    resp->cache_control = "no-store";
}
