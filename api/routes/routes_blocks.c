/* routes_blocks.c: a player's blocks (issue 28): POST|DELETE /v1/players/me/blocks/{player_id}
 * and GET /v1/players/me/blocks, with the player's token. A blocked player's chat messages
 * are not shown to the blocker (others still see them: routes_chat.c), and the matchmaker
 * never pairs the two (store_blocks_among). Blocks are between players: a named seat has
 * no player id to block. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "idem.h"
#include "json_out.h"
#include "log.h"
#include "problem.h"
#include "routes.h"
#include "store.h"
#include "store_chat.h"
#include "store_people.h"

void routes_blocks_list(const struct api_request *req, struct api_response *resp, const char *arg)
{
    (void)arg;
    struct store_person me;
    if (routes_player_auth(req, resp, &me)) return;
    char *json = NULL;
    enum store_status s = store_blocks_list(me.id, &json);
    (void)api_reply_raw_member(resp, s, "blocks", json);
}

/* A block's answer: 201 when it blocked `id` now, 200 when the block stood already. */
static void block_answer(struct api_response *resp, const char *id, int changed)
{
    struct json_out w;
    json_out_init(&w);
    json_out_begin_object(&w);
    json_out_kstring(&w, "player", id);
    json_out_key(&w, "blocked");
    json_out_bool(&w, 1);
    json_out_end_object(&w);
    api_reply_out(resp, changed ? 201 : 200, &w);
}

/* A keyed block (Idempotency-Key, the player's own): its answer, made in the block's
 * transaction and kept there for the key's repeats (store_keyed). */
struct block_ctx {
    const struct api_request *req;
    struct api_response *resp;
    struct idem *idem;
    const char *id;
};

static int block_keyed(void *arg, int changed, const struct store_idem **keep)
{
    struct block_ctx *x = arg;
    free(x->resp->body);
    memset(x->resp, 0, sizeof *x->resp);
    block_answer(x->resp, x->id, changed);
    return idem_keep(x->idem, x->req, x->resp, changed ? 201 : 200, keep);
}

/* POST (on) or DELETE (off) of a block of player `id` by the request's player. */
static void block_set(const struct api_request *req, struct api_response *resp, const char *id,
                      int on)
{
    struct store_person me;
    if (routes_player_auth(req, resp, &me)) return;
    if (on && routes_body_not_empty(req, resp)) return;
    if (!id || !auth_uuid_valid(id)) {
        problem_reply(resp, 404, "not_found", "There is no player with this id.");
        return;
    }
    if (strcmp(id, me.id) == 0) {
        problem_reply(resp, 400, "cannot_block_self", "A player cannot block itself.");
        return;
    }
    int changed = 0;
    if (!on) { /* removed, or there was none: either way it is gone (a DELETE takes no key) */
        enum store_status s = store_block_set(me.id, id, 0, &changed, NULL, NULL);
        if (problem_store_missing(resp, s, "There is no player with this id.")) return;
        if (changed) log_kv(LOG_INFO, "player unblocked", "by", me.id, NULL);
        resp->status = 204;
        return;
    }
    /* An Idempotency-Key, the player's own (api.md: any POST): a repeat gets the first
     * answer (201 when that one blocked), the key with another request 409. */
    char scope[IDEM_SCOPE_MAX];
    snprintf(scope, sizeof scope, "blocks/%s", me.id);
    struct idem idem;
    if (idem_begin(req, scope, &idem, resp)) return;
    struct block_ctx x = {req, resp, &idem, id};
    enum store_status s =
        store_block_set(me.id, id, 1, &changed, idem.active ? block_keyed : NULL, &x);
    if (s == STORE_NOT_FOUND) { /* refused before any answer was made: the key stays free */
        problem_reply(resp, 404, "not_found", "There is no player with this id.");
        return;
    }
    if (idem_finish(req, scope, &idem, resp, s)) return;
    if (changed) log_kv(LOG_INFO, "player blocked", "by", me.id, NULL);
    if (!idem.active) block_answer(resp, id, changed); /* else made in the transaction */
}

void routes_block_add(const struct api_request *req, struct api_response *resp, const char *id)
{
    block_set(req, resp, id, 1);
}

void routes_block_delete(const struct api_request *req, struct api_response *resp, const char *id)
{
    block_set(req, resp, id, 0);
}
