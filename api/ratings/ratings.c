/* ratings.c: the finishing order of a rated game and each seat's weighted pairwise update. */
#include "ratings.h"

#include <stdio.h>
#include <string.h>

/* 1 when seat a finished strictly above seat b. */
static int above(const struct ratings_seat_end *a, const struct ratings_seat_end *b)
{
    if (a->out_at == 0 && b->out_at == 0) return a->score > b->score;
    if (a->out_at == 0) return 1;
    if (b->out_at == 0) return 0;
    return a->out_at > b->out_at;
}

int ratings_finishing_order(int n, const struct ratings_seat_end *seats, int places[])
{
    if (n < 2 || n > RATINGS_MAX_SEATS) return -1;
    for (int i = 0; i < n; i++)
        if (seats[i].out_at < 0) return -1;
    for (int i = 0; i < n; i++) {
        int better = 0;
        for (int j = 0; j < n; j++)
            if (j != i && above(&seats[j], &seats[i])) better++;
        places[i] = better;
    }
    return 0;
}

enum ratings_outcome ratings_outcome_of(int n, const int places[], int seat)
{
    if (places[seat] != 0) return RATINGS_LOST;
    for (int j = 0; j < n; j++)
        if (j != seat && places[j] == 0) return RATINGS_DRAWN;
    return RATINGS_WON;
}

/* Rating periods from `last_ms` (0: never rated) to `now_ms`. */
static double periods_since(long long last_ms, long long now_ms)
{
    return last_ms > 0 ? glicko2_periods(now_ms - last_ms) : 0.0;
}

struct glicko2_rating ratings_seat_now(const struct ratings_seat *s, long long now_ms)
{
    return glicko2_aged(&s->rating, periods_since(s->last_rated_ms, now_ms));
}

enum glicko2_status ratings_update_game(int n, const struct ratings_seat *seats, long long now_ms,
                                        const struct glicko2_params *params,
                                        struct glicko2_rating out[])
{
    if (n < 2 || n > RATINGS_MAX_SEATS) return GLICKO2_BAD_INPUT;
    struct glicko2_rating now_rated[RATINGS_MAX_SEATS];
    for (int j = 0; j < n; j++) now_rated[j] = ratings_seat_now(&seats[j], now_ms);
    for (int i = 0; i < n; i++) {
        struct glicko2_result results[RATINGS_MAX_SEATS - 1];
        int k = 0;
        for (int j = 0; j < n; j++) {
            if (j == i) continue;
            results[k].opponent = now_rated[j];
            results[k].score = seats[i].place < seats[j].place    ? 1.0
                               : seats[i].place == seats[j].place ? 0.5
                                                                  : 0.0;
            results[k].weight = 1.0 / (double)(n - 1);
            k++;
        }
        enum glicko2_status s =
            glicko2_update(&seats[i].rating, periods_since(seats[i].last_rated_ms, now_ms), results,
                           k, params, &out[i]);
        if (s != GLICKO2_OK) return s;
    }
    return GLICKO2_OK;
}

const char *ratings_think_class(int think_ms)
{
    return think_ms < 100 ? "fast" : think_ms < 1000 ? "normal" : "slow";
}

/* 1 when `s` is 1 to 40 letters, digits, '-' or '_'. */
static int plain_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 40) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_'))
            return 0;
    }
    return 1;
}

int ratings_subject(const char *person_id, const char *bot, int think_ms,
                    char out[RATINGS_SUBJECT_MAX])
{
    if (person_id && *person_id) {
        if (!plain_name(person_id)) return -1;
        snprintf(out, RATINGS_SUBJECT_MAX, "%s", person_id);
        return 0;
    }
    if (!bot || !plain_name(bot)) return -1;
    snprintf(out, RATINGS_SUBJECT_MAX, "bot:%s:%s", bot, ratings_think_class(think_ms));
    return 0;
}
