/* tourney.c: a tournament's rows given to the pure pairing and standings -- see tourney.h. */
#include "tourney.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"

int tourney_history(const struct store_tourney *t, int before, struct tourney_game *games)
{
    int n = 0;
    for (int i = 0; i < t->ntables; i++) {
        const struct store_tourney_table *x = &t->tables[i];
        if (before && x->round >= before) continue;
        struct tourney_game *g = &games[n++];
        memset(g, 0, sizeof *g);
        g->nseats = x->nseats;
        g->ended = x->nseats == 1 || x->ended;
        for (int s = 0; s < x->nseats; s++) {
            g->player[s] = x->seat[s];
            g->score[s] = x->score[s];
            g->out_at[s] = x->out_at[s];
        }
        g->first_seat = 0;
    }
    return n;
}

/* 1 for each entrant still in (it never left) into active[t->n]. */
static void active_of(const struct store_tourney *t, unsigned char *active)
{
    for (int i = 0; i < t->n; i++) active[i] = t->entrants[i].left_round == 0;
}

int tourney_pair(const struct store_tourney *t, int round, struct tourney_round *out)
{
    if (t->n < 1 || t->n > TOURNEY_MAX_PLAYERS || round < 1) return -1;
    unsigned char active[TOURNEY_MAX_PLAYERS];
    active_of(t, active);
    struct tourney_game *hist = calloc((size_t)t->ntables + 1, sizeof *hist);
    if (!hist) return -1;
    int nh = tourney_history(t, round, hist), rc = -1;
    memset(out, 0, sizeof *out);
    if (strcmp(t->format, "swiss") == 0) {
        rc =
            round > t->rounds ? 1 : pairing_swiss(t->n, active, hist, nh, t->players_per_game, out);
    } else if (strcmp(t->format, "round_robin") == 0) {
        int total = pairing_round_robin_rounds(t->n, t->players_per_game);
        rc = total < 0 ? -1
             : round > total
                 ? 1
                 : pairing_round_robin(t->n, active, t->players_per_game, round - 1, out);
    } else if (strcmp(t->format, "knockout") == 0) {
        int champion = -1;
        rc = pairing_knockout(t->n, active, hist, nh, t->players_per_game, out, &champion);
    }
    free(hist);
    if (rc != 0) return rc;
    /* A round of byes only (one entrant left in): nothing to play. */
    for (int i = 0; i < out->ngames; i++)
        if (out->game[i].nseats > 1) return 0;
    return 1;
}

/* Twelfths `v` as a JSON number (4 decimals at most). */
static void points(struct json_out *w, const char *key, int v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.10g", round((double)v / TOURNEY_POINT * 10000.0) / 10000.0);
    json_out_key(w, key);
    json_out_raw(w, buf, strlen(buf));
}

char *tourney_standings_json(const struct store_tourney *t)
{
    if (t->n < 1 || t->n > TOURNEY_MAX_PLAYERS) return NULL;
    struct tourney_game *games = calloc((size_t)t->ntables + 1, sizeof *games);
    struct tourney_standing *st = calloc((size_t)t->n, sizeof *st);
    char *json = NULL;
    if (!games || !st) goto out;
    int ng = tourney_history(t, 0, games);
    if (tourney_standings(t->n, games, ng, strcmp(t->format, "knockout") == 0, st)) goto out;
    struct json_out w;
    json_out_init(&w);
    json_out_begin_array(&w);
    for (int i = 0; i < t->n; i++) {
        const struct store_tourney_entrant *e = &t->entrants[st[i].player];
        json_out_begin_object(&w);
        json_out_kint(&w, "rank", st[i].rank);
        json_out_kstring(&w, "player", e->id);
        json_out_kstring(&w, "name", e->name);
        points(&w, "points", st[i].points);
        points(&w, "buchholz", st[i].buchholz);
        json_out_kint(&w, "score_sum", st[i].scores);
        json_out_kint(&w, "games", st[i].games);
        json_out_kint(&w, "byes", st[i].byes);
        if (strcmp(t->format, "knockout") == 0) json_out_kint(&w, "rounds_won", st[i].reached);
        json_out_kint_or_null(&w, "left_round", e->left_round > 0, e->left_round);
        json_out_end_object(&w);
    }
    json_out_end_array(&w);
    json = json_out_take(&w, NULL);
    json_out_free(&w);
out:
    free(games);
    free(st);
    return json;
}
