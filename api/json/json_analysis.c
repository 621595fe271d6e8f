/* json_analysis.c: the body of GET /v1/games/{id}/analysis -- see json_analysis.h. */
#include "json_analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json_game.h"

/* `v` points as a JSON number, two decimals (-0 written 0). */
static void kpoints(struct json_out *o, const char *key, double v)
{
    char buf[32];
    double r = round(v * 100) / 100;
    snprintf(buf, sizeof buf, "%.2f", r == 0 ? 0.0 : r);
    json_out_key(o, key);
    json_out_raw(o, buf, strlen(buf));
}

static void placement(struct json_out *o, const struct cc_game *g, const struct json_review *m)
{
    json_out_begin_object(o);
    json_out_kint(o, "turn", m->turn);
    json_out_kint(o, "seat", m->r.seat);
    json_out_kint(o, "x", m->x);
    json_out_kint(o, "y", m->y);
    kpoints(o, "played_margin", m->r.played);
    kpoints(o, "best_margin", m->r.best);
    kpoints(o, "loss", m->r.loss);
    json_out_kstring(o, "label", cc_move_label_name((enum cc_move_label)m->r.label));
    json_out_key(o, "best");
    json_placement_body(o, g, &m->r.best_move);
    json_out_end_object(o);
}

static void seat(struct json_out *o, const struct json_analysis_src *src, int s)
{
    unsigned n = 0, labels[CC_MOVE_LABEL_COUNT] = {0};
    double loss = 0;
    for (int i = 0; i < src->nmoves; i++) {
        if (src->moves[i].r.seat != s) continue;
        n++;
        loss += src->moves[i].r.loss;
        labels[src->moves[i].r.label]++;
    }
    json_out_begin_object(o);
    json_out_kint(o, "seat", s);
    json_out_kint(o, "placements", n);
    kpoints(o, "average_loss", n ? loss / n : 0);
    json_out_key(o, "labels");
    json_out_begin_object(o);
    for (unsigned l = 0; l < CC_MOVE_LABEL_COUNT; l++)
        json_out_kint(o, cc_move_label_name((enum cc_move_label)l), labels[l]);
    json_out_end_object(o);
    json_out_end_object(o);
}

void json_analysis_write(struct json_out *o, const struct json_analysis_src *src)
{
    json_out_begin_object(o);
    json_out_kstring(o, "game", src->id);
    json_out_kint(o, "iterations", src->budget.iterations);
    json_out_kint(o, "deals", src->budget.deals);
    json_out_key(o, "thresholds");
    json_out_begin_object(o);
    kpoints(o, "good", CC_LOSS_GOOD);
    kpoints(o, "inaccuracy", CC_LOSS_INACCURACY);
    kpoints(o, "mistake", CC_LOSS_MISTAKE);
    kpoints(o, "blunder", CC_LOSS_BLUNDER);
    json_out_end_object(o);
    json_out_key(o, "placements");
    json_out_begin_array(o);
    for (int i = 0; i < src->nmoves; i++) placement(o, src->created, &src->moves[i]);
    json_out_end_array(o);
    json_out_key(o, "seats");
    json_out_begin_array(o);
    for (int s = 0; s < src->nplayers; s++) seat(o, src, s);
    json_out_end_array(o);
    json_out_end_object(o);
}
