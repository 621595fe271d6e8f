/* query_args.c: ?after= and ?wait= as the event and chat routes read them -- see
 * query_args.h. */
#include "query_args.h"

#include <limits.h>
#include <string.h>

#include "auth.h"
#include "params.h"
#include "problem.h"

int query_uint(const struct api_request *req, const char *name, long max, long *out)
{
    size_t seen = 0;
    for (size_t i = 0; i < req->nquery; i++) seen += strcmp(req->query[i].name, name) == 0;
    if (req->query_overflow || seen > 1) return -1;
    return params_uint(api_query_get(req, name), max, out);
}

int query_game_id(struct api_response *resp, const char *id)
{
    if (auth_uuid_valid(id)) return 0;
    problem_reply(resp, 404, "not_found", "There is no game with this id.");
    return 1;
}

int query_after_wait(const struct api_request *req, struct api_response *resp, long *after,
                     long *wait, long max_wait)
{
    if (query_uint(req, "after", INT_MAX, after)) {
        problem_reply(resp, 400, "invalid_parameter",
                      "after must be one integer of 0 or more (and 16 parameters at most).");
        return 1;
    }
    if (wait && query_uint(req, "wait", max_wait, wait)) {
        problem_reply(resp, 400, "invalid_parameter",
                      "wait must be one integer from 0 to 60 (and 16 parameters at most).");
        return 1;
    }
    return 0;
}
