/* webhook_apps.h: a delivery as a chat app's incoming webhook reads it (a webhook whose
 * format is "discord" or "slack", migrations/0028), for webhook.c's workers.
 *
 * Such a webhook gets a message a person reads, only for what a person wants to see:
 *   - the game started (game_started, or game_created of a game without open seats):
 *     "The game has started: Ann, Bob. Ann, it is your turn."
 *   - a turn to play: the last event of a commit after which a person's seat is to begin a
 *     turn (phase draw, or place without a draw before it), sent only while the game still
 *     stands at that version (a late delivery of a turn already played sends nothing):
 *     "Ann, it is your turn (turn 7)."
 *   - a deadline near (deadline_near): "Ann, your time for turn 7 runs out in 5 minutes."
 *   - the game over (game_finished): "The game is over: Ann 34, Bob 27."
 *   - a chat message: "Ann: <text>" (a message hidden by the operator before its delivery
 *     sends nothing).
 *   - a tournament's round started (round_started, to a player's webhook: 0034):
 *     "Round 2 of Spring Swiss has started. Your game: <PUBLIC_URL>/#/game/<id>" (the link
 *     only when PUBLIC_URL is set), or "... You have a bye."
 *   - a tournament over (tournament_finished): "Spring Swiss is over: 1. Ann (3), 2. Bob
 *     (2.5), 3. Cid (2)." (the first three of the standings, their points).
 * A seat's webhook gets the turns and deadlines of its seat only, a player's webhook those
 * of the player's seats, the creator's webhook every one; the rest goes to all of them.
 * Every other event is delivered with nothing sent (webhook.c records it as delivered).
 *
 * Discord (its "Execute Webhook"): multipart/form-data with the part "payload_json"
 * {"content", "allowed_mentions": {"parse": []}, "attachments": [{"id": 0, "filename":
 * "board.png", "description"}]} and the part "files[0]", the board as a PNG
 * (WEBHOOK_APP_PNG_WIDTH pixels wide), for every message but chat and deadlines, which are
 * JSON {"content", "allowed_mentions"}. The content escapes Discord's markdown, and no name
 * or text can ping anybody (no mention is parsed).
 * Slack (an incoming webhook): JSON {"text": <the fallback, &, < and > escaped>, "blocks":
 * [{"type": "section", "text": {"type": "plain_text", "text"}}, and, when PUBLIC_URL is set,
 * {"type": "image", "image_url": "<PUBLIC_URL>/v1/games/<id>/board.png?version=<v>&width=
 * 800", "alt_text"}]}.
 */
#ifndef API_WEBHOOK_APPS_H
#define API_WEBHOOK_APPS_H

#include <stddef.h>

#include "nodiscard.h"
#include "store_webhooks.h"

#define WEBHOOK_APP_PNG_WIDTH   800  /* the board picture's width in Discord messages */
#define WEBHOOK_APP_TEXT_MAX    1900 /* bytes of a message's text at most (Discord: 2000) */
#define WEBHOOK_APP_NOTHING     1    /* webhook_app_request(): nothing to send */
#define WEBHOOK_APP_UNAVAILABLE (-2) /* webhook_app_request(): try again later */

/* A request's body for a chat app. */
struct webhook_app_request {
    char *body;            /* malloc'd (binary for Discord's multipart) */
    size_t len;            /* its bytes */
    char content_type[96]; /* its Content-Type */
};

/* Sets the server's public URL (cfg.public_url, "" for none) before the workers start. */
void webhook_apps_set_public_url(const char *url);

/*
 * The request of delivery `d` (format "discord" or "slack") into `out`: 0, or
 * WEBHOOK_APP_NOTHING when there is nothing to send for it, WEBHOOK_APP_UNAVAILABLE when the
 * game cannot be read now (no database) or Discord's picture finds every render slot of
 * board.png taken (board_png_begin(); the deliveries take one slot at most), -1 when it
 * cannot be built (no memory, a picture not drawn). Thread-safe.
 */
int webhook_app_request(const struct store_delivery *d, struct webhook_app_request *out) NODISCARD;

/* Frees a request's body; `r` may be NULL. */
void webhook_app_request_free(struct webhook_app_request *r);

#endif
