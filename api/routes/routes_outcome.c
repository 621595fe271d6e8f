/* routes_outcome.c: the game service's outcomes as HTTP answers -- see routes.h. */
#include "game/service.h"
#include "game_answers.h"
#include "problem.h"
#include "routes.h"

void routes_game_outcome(struct api_response *resp, int outcome, const struct game_result *r)
{
    switch ((enum game_outcome)outcome) {
    case GAME_COMMITTED:
    case GAME_PRECONDITION_FAILED:
        break;
    case GAME_REFUSED:
        problem_engine_figure(resp, r->refusal, r->figure);
        break;
    case GAME_NOT_ACTIVE:
        games_not_active_answer(resp, r->state);
        break;
    case GAME_TURN_TIMED_OUT:
        problem_reply(resp, 409, "turn_timed_out",
                      "The turn's time ran out: the server plays or resigns for the seat.");
        break;
    case GAME_CONFLICT:
    case GAME_SEEKS_TAKEN: /* (only the matchmaker creates with seeks) */
    case GAME_DUPLICATE:
    case GAME_STORE_FAILED:
        problem_store(resp, outcome != GAME_DUPLICATE && outcome != GAME_STORE_FAILED
                                ? STORE_CONFLICT
                            : outcome == GAME_DUPLICATE ? STORE_DUPLICATE
                                                        : r->store);
        break;
    case GAME_LOAD_FAILED:
    case GAME_CORRUPT:
    case GAME_NO_MEMORY:
    case GAME_PENDING: /* (never answered: the request waits for the commit) */
        games_fail_answer(resp, outcome == GAME_CORRUPT     ? GAMES_CORRUPT
                                : outcome == GAME_NO_MEMORY ? GAMES_NO_MEMORY
                                                            : r->load);
        break;
    case GAME_RATE_LIMITED:
        problem_reply(resp, 429, "rate_limited",
                      "Too many creations from this address; retry after Retry-After seconds.");
        resp->retry_after = r->retry_after;
        break;
    }
}
