/* problem.c: JSON and problem+json answers; engine and storage statuses as HTTP. */
#include "problem.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "game.h"
#include "json_out.h"

#define PROBLEM_TYPE_BASE "https://tilehall.dev/problems/"

/* The reason phrase of the statuses the API uses. */
static const char *status_title(int status)
{
    switch (status) {
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 412:
        return "Precondition Failed";
    case 413:
        return "Content Too Large";
    case 414:
        return "URI Too Long";
    case 415:
        return "Unsupported Media Type";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 503:
        return "Service Unavailable";
    default:
        return "Internal Server Error";
    }
}

void problem_reply(struct api_response *resp, int status, const char *code, const char *detail)
{
    char type[128];
    snprintf(type, sizeof type, PROBLEM_TYPE_BASE "%s", code);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", type);
    cJSON_AddStringToObject(o, "title", status_title(status));
    cJSON_AddNumberToObject(o, "status", status);
    cJSON_AddStringToObject(o, "detail", detail ? detail : status_title(status));
    cJSON_AddStringToObject(o, "code", code);
    char *body = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    api_reply_take(resp, status, "application/problem+json", body);
}

int problem_http_status(enum cc_status s)
{
    switch (s) {
    case CC_OK:
        return 200;
    case CC_ERR_BAD_PLAYER_COUNT:
    case CC_ERR_BAD_OPTION:
    case CC_ERR_UNKNOWN_TILE:
    case CC_ERR_DECK_TOO_LONG:
    case CC_ERR_BAD_RULESET:
    case CC_ERR_RIVER_TILE_WITHOUT_RIVER:
    case CC_ERR_BAD_ROTATION:
    case CC_ERR_BAD_LOCATION:
    case CC_ERR_FOLLOWUP_NOT_IN_RULESET:
    case CC_ERR_TILE_REQUIRED:
    case CC_ERR_INCOMPATIBLE_OPTIONS:
    case CC_ERR_TILE_NOT_IN_GAME:
    case CC_ERR_FIGURE_NOT_IN_GAME:
        return 400;
    case CC_ERR_NOT_YOUR_TURN:
        return 403;
    case CC_ERR_CORRUPT:
    case CC_STATUS_COUNT:
        return 500;
    default:
        return 409;
    }
}

void problem_engine(struct api_response *resp, enum cc_status s)
{
    problem_engine_figure(resp, s, CC_PIECE_FOLLOWER);
}

void problem_engine_figure(struct api_response *resp, enum cc_status s, unsigned figure)
{
    /* The expansions' refusals under the contract's codes (api.md, "Expansions of
     * classic"), with the engine's words for the detail. */
    int status = problem_http_status(s);
    const char *code = cc_status_name(s);
    bool own_rule = figure == CC_PIECE_BUILDER || figure == CC_PIECE_PIG;
    switch (s) {
    case CC_ERR_TILE_NOT_IN_GAME:
        status = 400;
        code = cc_status_name(CC_ERR_UNKNOWN_TILE);
        break;
    case CC_ERR_FIGURE_NOT_IN_GAME:
        status = 400;
        code = "unknown_figure";
        break;
    case CC_ERR_NO_FIGURE_LEFT:
        code = cc_status_name(CC_ERR_NO_FOLLOWERS_LEFT);
        break;
    case CC_ERR_NO_OWN_FOLLOWER:
    case CC_ERR_FEATURE_COMPLETED:
        code = "figure_not_allowed";
        break;
    case CC_ERR_NOT_ALLOWED_HERE: /* a builder off roads and cities, a pig off fields */
        if (own_rule) code = "figure_not_allowed";
        break;
    default:
        break;
    }
    problem_reply(resp, status, code, cc_status_text(s));
}

void problem_unavailable(struct api_response *resp)
{
    problem_reply(resp, 503, "database_unavailable",
                  "The database cannot be reached right now; retry shortly.");
    resp->retry_after = 2;
}

void problem_store(struct api_response *resp, enum store_status s)
{
    switch (s) {
    case STORE_NOT_FOUND:
        problem_reply(resp, 404, "not_found", "There is no game with this id.");
        break;
    case STORE_CONFLICT:
        problem_reply(resp, 412, "version_mismatch",
                      "The game moved on while this action was applied; reload it and retry.");
        break;
    case STORE_UNAVAILABLE:
        problem_unavailable(resp);
        break;
    default:
        problem_reply(resp, 500, "internal_error", "The game could not be read or stored.");
        break;
    }
}

int problem_store_missing(struct api_response *resp, enum store_status s, const char *missing)
{
    if (s == STORE_OK) return 0;
    if (s == STORE_NOT_FOUND)
        problem_reply(resp, 404, "not_found", missing);
    else
        problem_store(resp, s);
    return 1;
}

void api_reply_json(struct api_response *resp, int status, cJSON *o)
{
    char *body = o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    if (!body)
        problem_reply(resp, 500, "internal_error", "The answer could not be encoded.");
    else
        api_reply_take(resp, status, "application/json", body);
}

void api_reply_out(struct api_response *resp, int status, struct json_out *o)
{
    size_t len;
    char *body = json_out_take(o, &len);
    if (!body) {
        problem_reply(resp, 500, "internal_error", "The answer could not be encoded.");
        return;
    }
    api_reply_take(resp, status, "application/json", body);
    resp->len = len;
}

int api_reply_begin(struct api_response *resp, enum store_status s, struct json_out *w)
{
    if (s != STORE_OK) {
        problem_store(resp, s);
        return 1;
    }
    json_out_init(w);
    json_out_begin_object(w);
    return 0;
}

int api_reply_raw_member(struct api_response *resp, enum store_status s, const char *key,
                         char *json)
{
    struct json_out w;
    if (api_reply_begin(resp, s, &w)) {
        free(json);
        return 1;
    }
    json_out_key(&w, key);
    json_out_raw(&w, json, strlen(json));
    json_out_end_object(&w);
    free(json);
    api_reply_out(resp, 200, &w);
    return 0;
}
