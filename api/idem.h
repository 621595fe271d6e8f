/* idem.h: Idempotency-Key replays, If-Match preconditions of actions, If-None-Match of reads. */
#ifndef API_IDEM_H
#define API_IDEM_H

#include "nodiscard.h"
#include "req.h"
#include "store.h"

#define IDEM_SCOPE_MAX 48 /* "<uuid>/<seat>" */

/* The idempotency state of one POST. */
struct idem {
    int active;                 /* 1 when the request carries an Idempotency-Key */
    char scope[IDEM_SCOPE_MAX]; /* "create" or "<game id>/<seat>" */
    struct store_idem rec;      /* what to remember with the answer (filled by idem_remember) */
};

/*
 * Looks at the request's Idempotency-Key for `scope`. Returns 0 when the request must
 * run (out->active says whether to remember the answer), or 1 after answering: 400
 * invalid_parameter for a malformed key, the first answer again for a repeat, 409
 * idempotency_key_reused for the key with another body, 503 when storage is down.
 */
int idem_begin(const struct api_request *req, const char *scope, struct idem *out,
               struct api_response *resp) NODISCARD;

/*
 * After a keyed request was refused (it lost a race or found the game moved on): when
 * another request with the same key, in flight at the same time, has stored its answer
 * since, replaces `resp` with that answer (the refusal was only the sign of the race) and
 * returns 1; else leaves `resp` and returns 0. So concurrent repeats of one key all get
 * the first answer, however they interleave: the answer is stored in the transaction of
 * the action it answers, so a game state that shows the action has its answer visible.
 */
int idem_replay_if_done(const struct api_request *req, const char *scope,
                        struct api_response *resp);

/*
 * Fills out->rec from the answer `resp` (its status, Location, ETag) and `body` (the
 * body to remember: for a new game, without the tokens). Strings are borrowed.
 */
void idem_remember(struct idem *out, const struct api_request *req, const struct api_response *resp,
                   const char *body);

/*
 * Checks If-Match against `version`. Returns 0 when the request may go on, or 1 after
 * answering 412 version_mismatch (stale) or 400 invalid_parameter (malformed).
 */
int idem_if_match(const struct api_request *req, int version, struct api_response *resp) NODISCARD;

/*
 * Checks If-None-Match (a list of entity tags, weakly compared, or "*") of a read against
 * `version`. Returns 1 after answering 304 Not Modified (with the ETag, no body) when one
 * of them names it, else 0 (also for a malformed header, which is ignored).
 */
int idem_if_none_match(const struct api_request *req, int version,
                       struct api_response *resp) NODISCARD;

#endif
