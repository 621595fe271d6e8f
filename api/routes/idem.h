/* idem.h: Idempotency-Key replays, If-Match preconditions of actions, If-None-Match of reads. */
#ifndef API_IDEM_H
#define API_IDEM_H

#include "nodiscard.h"
#include "req.h"
#include "store.h"
#include "store_games.h"

#define IDEM_SCOPE_MAX 48 /* "<uuid>/<seat>", "create/<uuid>" */
#define IDEM_ANON_MIN  32 /* characters of an anonymous key at least (docs/clients.md: 128 bits) */

/* The idempotency state of one POST. */
struct idem {
    int active;                 /* 1 when the request carries an Idempotency-Key */
    char scope[IDEM_SCOPE_MAX]; /* "create", "create/<player id>", "<game id>/<seat>" ... */
    struct store_idem rec;      /* what to remember with the answer (filled by idem_remember) */
};

/*
 * Looks at the request's Idempotency-Key for `scope`, a scope of the caller's own: a seat
 * ("<game id>/<seat>") or a player ("<what>/<player id>"), whose token the request
 * carries (that token, never stored, is mixed into the sealing key, so a short key is
 * safe). Returns 0 when the request must run (out->active says whether to remember the
 * answer), or 1 after answering: 400 invalid_parameter for a malformed key, the first
 * answer again for a repeat (the whole answer, tokens included), 409
 * idempotency_key_reused for the key with another request (compared by method, path and
 * canonical JSON body: canon.h) or one whose answer does not open with the token sent
 * now (a player token replaced since), 503 when storage is down. Call it only once the
 * request is known to be acceptable: a refused request must not bind its key.
 */
int idem_begin(const struct api_request *req, const char *scope, struct idem *out,
               struct api_response *resp) NODISCARD;

/*
 * After the store refused to commit a keyed request as STORE_DUPLICATE (another request
 * with the same key raced it and won): drops the answer `resp` held and answers as a
 * repeat would, by idem_begin() again, whose value it returns.
 */
int idem_lost_race(const struct api_request *req, const char *scope, struct idem *out,
                   struct api_response *resp) NODISCARD;

/* idem_begin() in the scope of a seat's own keys (those of its actions, chat and webhook):
 * game `game`'s seat `seat`, written into scope[IDEM_SCOPE_MAX]. */
int idem_begin_seat(const struct api_request *req, const char *game, int seat,
                    char scope[IDEM_SCOPE_MAX], struct idem *out,
                    struct api_response *resp) NODISCARD;

/*
 * The end of a write whose answer is already in `resp` (kept for repeats) when its store
 * call returned `s`: STORE_OK keeps the answer (returns 0); a lost race (STORE_DUPLICATE
 * with the key active) answers as a repeat would (idem_lost_race); any other status (or a
 * race with no answer to repeat) replaces the answer with problem_store's. Returns 1 when
 * the answer was replaced.
 */
int idem_finish(const struct api_request *req, const char *scope, struct idem *idem,
                struct api_response *resp, enum store_status s) NODISCARD;

/*
 * idem_begin() for a scope nobody owns ("create", "players": anybody may send the key),
 * where the key alone unlocks the answer's tokens: it must be IDEM_ANON_MIN characters
 * at least (else 400 idempotency_key_too_short), and no token takes part in the sealing.
 */
int idem_begin_anonymous(const struct api_request *req, const char *scope, struct idem *out,
                         struct api_response *resp) NODISCARD;

/*
 * After a keyed request was refused (it lost a race or found the game moved on): when
 * another request with the same key, in flight at the same time, has stored its answer
 * since, replaces `resp` with that answer (the refusal was only the sign of the race) and
 * returns 1; else leaves `resp` and returns 0. So concurrent repeats of one key all get
 * the first answer, however they interleave: the answer is stored in the transaction of
 * the action it answers, so a game state that shows the action has its answer visible.
 * For scopes of a caller (idem_begin).
 */
int idem_replay_if_done(const struct api_request *req, const char *scope,
                        struct api_response *resp);

/*
 * Fills out->rec from the answer `resp` (its status, Location, ETag) and `body`: the
 * whole body of the answer, exactly as sent (tokens and secrets included), which a repeat
 * gets again; the store seals it (seal.h) and keeps nothing of it in the clear. Strings
 * are borrowed until the store call.
 */
void idem_remember(struct idem *out, const struct api_request *req, const struct api_response *resp,
                   const char *body);

/*
 * The end of a store_keyed callback (store.h) whose answer is now in `resp`: when it has
 * status `status`, remembers it (idem_remember) and points *keep at it, returning 0; else
 * returns -1 (the answer could not be made: the store rolls back).
 */
int idem_keep(struct idem *idem, const struct api_request *req, const struct api_response *resp,
              int status, const struct store_idem **keep) NODISCARD;

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
