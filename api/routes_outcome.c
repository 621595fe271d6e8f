/* routes_outcome.c: the game service's outcomes as HTTP answers -- see routes.h. */
#include "game/service.h"
#include "problem.h"
#include "routes.h"

void routes_game_outcome(struct api_response *resp, int outcome, const struct game_result *r)
{
    switch ((enum game_outcome)outcome) {
    case GAME_COMMITTED:
    case GAME_PRECONDITION_FAILED:
        break;
    case GAME_REFUSED:
        problem_engine(resp, r->refusal);
        break;
    case GAME_NOT_ACTIVE:
        games_not_active_answer(resp, r->state);
        break;
    case GAME_TURN_TIMED_OUT:
        problem_reply(resp, 409, "turn_timed_out",
                      "The turn's time ran out: the server plays or resigns for the seat.");
        break;
    case GAME_CONFLICT:
        problem_store(resp, STORE_CONFLICT);
        break;
    case GAME_DUPLICATE:
        problem_store(resp, STORE_DUPLICATE);
        break;
    case GAME_LOAD_FAILED:
        games_fail_answer(resp, r->load);
        break;
    case GAME_STORE_FAILED:
        problem_store(resp, r->store);
        break;
    case GAME_RATE_LIMITED:
        problem_reply(resp, 429, "rate_limited",
                      "Too many creations from this address; retry after Retry-After seconds.");
        resp->retry_after = r->retry_after;
        break;
    case GAME_CORRUPT:
        problem_engine(resp, CC_ERR_CORRUPT);
        break;
    case GAME_NO_MEMORY:
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        break;
    }
}
