/* problem.h: answers: JSON documents, RFC 9457 problem details with a stable `code`, and
 * engine and storage statuses as HTTP (the one place either is mapped). */
#ifndef API_PROBLEM_H
#define API_PROBLEM_H

#include "req.h"
#include "status.h"
#include "store.h"

/*
 * Answers `status` with a problem+json body {"type","title","status","detail","code"}.
 * `code` is the stable snake_case word clients branch on; `detail` a sentence (may be
 * NULL: the title is used). Replaces any body `resp` had.
 */
void problem_reply(struct api_response *resp, int status, const char *code, const char *detail);

/* The HTTP status an engine status maps to (400 setup, 403 turn, 409 illegal, 500 corrupt). */
int problem_http_status(enum cc_status s);

/* Answers the engine status `s` (not CC_OK) as a problem, code cc_status_name(s). */
void problem_engine(struct api_response *resp, enum cc_status s);

/* problem_engine() of a refused deployment of `figure` (enum cc_piece_kind): the
 * expansions' refusals answer with the contract's codes (unknown_tile, unknown_figure,
 * no_followers_left, figure_not_allowed). */
void problem_engine_figure(struct api_response *resp, enum cc_status s, unsigned figure);

/* Answers 503 database_unavailable with Retry-After. */
void problem_unavailable(struct api_response *resp);

/*
 * Answers the storage status `s` (not STORE_OK) of a request on one game: 404 not_found
 * (no such game) for STORE_NOT_FOUND, 412 version_mismatch for STORE_CONFLICT (the game
 * moved on), 503 database_unavailable for STORE_UNAVAILABLE, else 500 internal_error.
 */
void problem_store(struct api_response *resp, enum store_status s);

/*
 * Answers the storage status `s` of a request on something other than a game: nothing for
 * STORE_OK (returns 0); else 404 not_found with the detail `missing` for STORE_NOT_FOUND, or
 * as problem_store, and returns 1.
 */
int problem_store_missing(struct api_response *resp, enum store_status s, const char *missing);

struct cJSON;

/*
 * Answers `o` (taken: deleted here) printed as application/json with `status`; 500
 * internal_error when `o` is NULL or printing fails.
 */
void api_reply_json(struct api_response *resp, int status, struct cJSON *o);

struct json_out;

/*
 * Answers the document of `o` (taken: `o` is empty afterwards) as application/json with
 * `status`; 500 internal_error when writing it ran out of memory.
 */
void api_reply_out(struct api_response *resp, int status, struct json_out *o);

/*
 * The step every answer read from the database starts with: answers the problem of `s`
 * (problem_store) unless it is STORE_OK, else starts `w` as a JSON object. Returns 1 after
 * answering, else 0 (then finish `w` and answer it with api_reply_out).
 */
int api_reply_begin(struct api_response *resp, enum store_status s, struct json_out *w);

/*
 * Answers the problem of `s` unless it is STORE_OK, else 200 {"<key>": <json>}: `json` is
 * a JSON document the database built (taken: freed here either way). Returns 0 when it
 * answered 200, else 1.
 */
int api_reply_raw_member(struct api_response *resp, enum store_status s, const char *key,
                         char *json);

#endif
