/* standings.c: a tournament game's points, a knockout game's winner and the standings. */
#include "standings.h"

#include <string.h>

#include "ratings.h"

/* The places of ended game `g` (0 best, as ratings_finishing_order), or -1. */
static int game_places(const struct tourney_game *g, int places[TOURNEY_MAX_SEATS])
{
    if (!g->ended || g->nseats < 2 || g->nseats > TOURNEY_MAX_SEATS) return -1;
    struct ratings_seat_end ends[TOURNEY_MAX_SEATS];
    for (int i = 0; i < g->nseats; i++)
        ends[i] = (struct ratings_seat_end){g->score[i], g->out_at[i]};
    return ratings_finishing_order(g->nseats, ends, places);
}

int tourney_game_points(struct tourney_game *g)
{
    if (g->nseats == 1) {
        g->points[0] = TOURNEY_POINT;
        return 0;
    }
    int places[TOURNEY_MAX_SEATS];
    if (game_places(g, places) != 0) return -1;
    int n = g->nseats;
    for (int i = 0; i < n; i++) {
        int shared = 0;
        for (int j = 0; j < n; j++) shared += places[j] == places[i];
        /* Ranks first..last (from 1) share: their mean (N - rank) / (N - 1), in twelfths;
         * 6 (2N - first - last) / (N - 1) is whole for N = 2, 3, 4. */
        int first = places[i] + 1, last = places[i] + shared;
        g->points[i] = TOURNEY_POINT / 2 * (2 * n - first - last) / (n - 1);
    }
    return 0;
}

int tourney_knockout_winner(const struct tourney_game *g)
{
    if (g->nseats == 1) return 0;
    int places[TOURNEY_MAX_SEATS];
    if (game_places(g, places) != 0) return -1;
    int n = g->nseats, best = -1;
    for (int i = 0; i < n; i++) {
        if (best < 0 || places[i] < places[best]) {
            best = i;
            continue;
        }
        if (places[i] > places[best]) continue;
        if (g->score[i] != g->score[best]) {
            if (g->score[i] > g->score[best]) best = i;
            continue;
        }
        /* The seat whose turn comes later after the first mover wins the tie. */
        int turn_i = (i - g->first_seat + n) % n, turn_best = (best - g->first_seat + n) % n;
        if (turn_i > turn_best) best = i;
    }
    return best;
}

/* 1 when standing a comes before b. */
static int before(const struct tourney_standing *a, const struct tourney_standing *b)
{
    if (a->reached != b->reached) return a->reached > b->reached;
    if (a->points != b->points) return a->points > b->points;
    if (a->buchholz != b->buchholz) return a->buchholz > b->buchholz;
    if (a->scores != b->scores) return a->scores > b->scores;
    return a->player < b->player;
}

/* 1 when a and b share a rank (equal on every key but the seed). */
static int same_rank(const struct tourney_standing *a, const struct tourney_standing *b)
{
    return a->reached == b->reached && a->points == b->points && a->buchholz == b->buchholz &&
           a->scores == b->scores;
}

int tourney_standings(int n, const struct tourney_game *games, int ngames, int knockout,
                      struct tourney_standing *out)
{
    if (n < 1 || n > TOURNEY_MAX_PLAYERS || ngames < 0) return -1;
    for (int i = 0; i < n; i++) out[i] = (struct tourney_standing){.player = i};
    for (int k = 0; k < ngames; k++) {
        const struct tourney_game *g = &games[k];
        if (g->nseats < 1 || g->nseats > TOURNEY_MAX_SEATS) return -1;
        for (int s = 0; s < g->nseats; s++)
            if (g->player[s] < 0 || g->player[s] >= n) return -1;
    }
    /* Points, scores and rounds reached first; Buchholz needs every opponent's points. */
    for (int k = 0; k < ngames; k++) {
        struct tourney_game g = games[k];
        if (g.nseats > 1 && !g.ended) continue;
        if (tourney_game_points(&g) != 0) return -1;
        int winner = knockout ? tourney_knockout_winner(&g) : -1;
        for (int s = 0; s < g.nseats; s++) {
            struct tourney_standing *st = &out[g.player[s]];
            st->points += g.points[s];
            if (g.nseats == 1) {
                st->byes++;
            } else {
                st->games++;
                st->scores += g.score[s];
            }
            if (s == winner) st->reached++;
        }
    }
    for (int k = 0; k < ngames; k++) {
        const struct tourney_game *g = &games[k];
        if (g->nseats < 2 || !g->ended) continue;
        for (int s = 0; s < g->nseats; s++)
            for (int o = 0; o < g->nseats; o++)
                if (o != s) out[g->player[s]].buchholz += out[g->player[o]].points;
    }
    /* Insertion sort: stable, and n is small. */
    for (int i = 1; i < n; i++) {
        struct tourney_standing x = out[i];
        int j = i;
        while (j > 0 && before(&x, &out[j - 1])) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = x;
    }
    for (int i = 0; i < n; i++)
        out[i].rank = i > 0 && same_rank(&out[i], &out[i - 1]) ? out[i - 1].rank : i + 1;
    return 0;
}
