/* query_args.h: the query parameters several routes share (?after=, ?wait=), read once
 * and refused the same way everywhere. */
#ifndef API_QUERY_ARGS_H
#define API_QUERY_ARGS_H

#include "nodiscard.h"
#include "req.h"

/* Reads query parameter `name` as an integer in [0, max] (default 0). Returns 0, or -1 when
 * it is malformed, given twice, or the query had too many parameters to see them all. */
int query_uint(const struct api_request *req, const char *name, long max, long *out) NODISCARD;

/*
 * Reads ?after= (0 to INT_MAX) into *after and, when `wait` is not NULL, ?wait= (0 to
 * `max_wait`) into *wait. Returns 0, or 1 after answering 400 invalid_parameter.
 */
int query_after_wait(const struct api_request *req, struct api_response *resp, long *after,
                     long *wait, long max_wait) NODISCARD;

/* Answers 404 not_found, as for a game that is not there, unless the path's game id `id` is
 * a UUID (the form of every game id): returns 1 then, else 0. */
int query_game_id(struct api_response *resp, const char *id) NODISCARD;

#endif
