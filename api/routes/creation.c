/* creation.c: what the routes that create a row of their own share (a seek, a tournament):
 * the answer to a body refused by its decoder, and the new row's id; and the refusal of a
 * body where an action takes none. */
#include "json_in.h"
#include "problem.h"
#include "routes.h"

#include <string.h>

void routes_body_refused(struct api_response *resp, const struct json_err *err)
{
    /* A decoder that ran out of memory says internal_error: the server's failure, not the
     * body's. */
    problem_reply(resp, strcmp(err->code, "internal_error") == 0 ? 500 : 400, err->code,
                  err->detail);
}

int routes_body_not_empty(const struct api_request *req, struct api_response *resp)
{
    struct json_err err;
    if (!json_in_empty(req->body, req->body_len, &err)) return 0;
    problem_reply(resp, 400, err.code, err.detail);
    return 1;
}

int routes_new_id(struct api_response *resp, char id[AUTH_UUID_LEN + 1])
{
    if (!auth_uuid_new(id)) return 0;
    problem_reply(resp, 500, "internal_error", "No id could be drawn.");
    return 1;
}
