/* json_export.c: the export of a finished game written (json_export.h); json_export_in.c
 * reads it back. */
#include "json_export.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "json_game.h"

void json_export_write(struct json_out *o, const struct json_export_src *src)
{
    const struct json_new_game *in = src->in;
    const struct cc_game *g = src->created;
    char seed[24];
    snprintf(seed, sizeof seed, "%" PRIu64, g->seed);
    json_out_begin_object(o);
    json_out_kstring(o, "format", JSON_EXPORT_FORMAT);
    json_out_kint(o, "format_version", JSON_EXPORT_VERSION);
    json_out_kstring(o, "game", src->id);
    json_out_kstring(o, "ruleset", cc_ruleset_name((enum cc_ruleset)g->ruleset));
    json_out_key(o, "options");
    json_options(o, g);
    json_out_kstring(o, "seed", seed);
    json_out_kstring(o, "start", in->start[0] ? in->start : NULL);
    json_out_key(o, "hints");
    json_out_bool(o, !in->hints_off);
    json_out_kstring(o, "chat", in->chat_public ? "public" : "private");
    json_out_key(o, "players");
    json_out_begin_array(o);
    for (unsigned s = 0; s < g->nplayers; s++) {
        json_out_begin_object(o);
        if (in->bots[s][0]) {
            json_out_kstring(o, "bot", in->bots[s]);
            json_out_kint(o, "think_ms", in->think_ms[s]);
        } else {
            json_out_kstring(o, "name", in->names[s]);
        }
        json_out_end_object(o);
    }
    json_out_end_array(o);
    json_out_key(o, "custom_deck");
    json_out_bool(o, in->setup.deck_len >= 0);
    json_out_key(o, "deck");
    json_out_begin_array(o);
    for (unsigned i = 0; i < g->deck_len; i++) json_tile(o, g, g->deck[i]);
    json_out_end_array(o);
    json_out_key(o, "actions");
    json_out_begin_array(o);
    for (int i = 0; i < src->nactions; i++) {
        const struct json_export_action *xa = &src->actions[i];
        if (xa->join) {
            json_out_begin_object(o);
            json_out_kstring(o, "kind", "join");
            json_out_kint(o, "seat", xa->a.seat);
            json_out_end_object(o);
        } else {
            json_action(o, g, &xa->a);
        }
    }
    json_out_end_array(o);
    json_out_kstring(o, "result", src->result);
    json_out_key(o, "scores");
    json_out_begin_array(o);
    for (unsigned s = 0; s < src->finished->nplayers; s++)
        json_out_int(o, src->finished->players[s].score);
    json_out_end_array(o);
    json_out_key(o, "chat_messages");
    if (src->chat_json)
        json_out_raw(o, src->chat_json, strlen(src->chat_json));
    else
        json_out_raw(o, "[]", 2);
    json_out_end_object(o);
}
