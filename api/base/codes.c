/* codes.c: the service's own problem codes, the one list (see codes.h). A new code is one
 * line in SERVICE_CODES below and one in openapi.yaml's ErrorCode; `make test-spec` fails
 * until both agree and every code literal in api/ is listed. */
#include "codes.h"

#include <string.h>

#include "status.h"

/* scripts/spec-check.js reads the strings between the BEGIN and END lines. */
static const char *const SERVICE_CODES[] = {
    /* BEGIN service codes */
    /* bodies, parameters, framing (api/json_in.c, api/params.c, api/http.c) */
    "invalid_json", "unknown_field", "invalid_body", "invalid_parameter", "body_too_large",
    "unsupported_media_type", "request_timeout", "headers_too_large", "uri_too_long",
    "invalid_path", "invalid_framing",
    /* tokens, routes, versions, idempotency */
    "missing_token", "unknown_token", "not_found", "method_not_allowed", "version_mismatch",
    "version_not_found", "idempotency_key_reused", "idempotency_key_too_short",
    /* limits and availability */
    "rate_limited", "too_many_streams", "render_busy", "database_unavailable", "draining",
    "internal_error",
    /* webhooks */
    "invalid_webhook_url", "invalid_webhook_format",
    /* computer players and hints (issue 13) */
    "unknown_bot_level", "invalid_think_ms", "hints_disabled", "hints_busy",
    /* open seats, joins, abort (issue 11) */
    "game_not_active", "game_not_finished", "invite_not_found", "already_seated",
    "too_late_to_abort",
    /* clocks (issue 12) */
    "invalid_clock", "invalid_turn_seconds", "invalid_bank_seconds", "invalid_on_timeout",
    "turn_timed_out",
    /* export and replay (issue 16) */
    "replay_invalid", "replay_incomplete", "replay_mismatch", "replay_deck_mismatch",
    "replay_unsupported_format",
    /* ratings (issue 25) */
    "unrated_setup",
    /* talk, blocks and the operator (issue 28) */
    "invalid_chat_text", "chat_rate_limited", "cannot_block_self", "player_suspended",
    /* play now: seeks (issue 26) */
    "too_many_seeks", "not_seek_owner", "seek_not_waiting", "invalid_rating_range",
    "invalid_bot_after_seconds",
    /* the expansions of classic (issue 24): the contract's words for engine refusals */
    "unknown_figure", "figure_not_allowed",
    /* tournaments (issue 27) */
    "tournament_not_open", "tournament_full", "not_organiser", "tournament_too_few",
    /* the lobby (issue 30): a seat taken by its number */
    "invite_required", "seat_taken",
    /* END service codes */
};

#define NSERVICE (sizeof SERVICE_CODES / sizeof SERVICE_CODES[0])

int api_code_known(const char *code)
{
    if (!code) return 0;
    for (size_t i = 0; i < NSERVICE; i++)
        if (strcmp(code, SERVICE_CODES[i]) == 0) return 1;
    for (int s = CC_OK + 1; s < CC_STATUS_COUNT; s++)
        if (strcmp(code, cc_status_name((enum cc_status)s)) == 0) return 1;
    return 0;
}

size_t api_service_code_count(void)
{
    return NSERVICE;
}

const char *api_service_code(size_t i)
{
    return i < NSERVICE ? SERVICE_CODES[i] : NULL;
}
