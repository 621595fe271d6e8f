/* json_game.c: encodes engine structures as the API's JSON. */
#include "json_game.h"

#include <inttypes.h>
#include <stdio.h>

static const char *const side_names[4] = {"N", "E", "S", "W"};

const char *json_tile_id(const struct cc_game *g, unsigned t)
{
    const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)g->ruleset);
    return ts && t < ts->ntypes ? ts->types[t].id : NULL;
}

const char *json_status(const struct cc_game *g)
{
    return g->phase == CC_PHASE_FINISHED ? "finished" : "active";
}

/* Adds the tile id `t` (or null) as `name`. */
static void add_tile(cJSON *o, const char *name, const struct cc_game *g, unsigned t)
{
    const char *id = t == CC_NO_TILE ? NULL : json_tile_id(g, t);
    if (id)
        cJSON_AddStringToObject(o, name, id);
    else
        cJSON_AddNullToObject(o, name);
}

/* Adds an array of the tile ids `types[0..n)` as `name`. */
static void add_tiles(cJSON *o, const char *name, const struct cc_game *g, const uint8_t *types,
                      size_t n)
{
    cJSON *arr = cJSON_AddArrayToObject(o, name);
    for (size_t i = 0; arr && i < n; i++) {
        const char *id = json_tile_id(g, types[i]);
        cJSON_AddItemToArray(arr, cJSON_CreateString(id ? id : "?"));
    }
}

/* Adds the location names of bit mask `slots` as array `name`. */
static void add_locations(cJSON *o, const char *name, unsigned slots)
{
    cJSON *arr = cJSON_AddArrayToObject(o, name);
    for (int l = 0; arr && l < CC_LOC_COUNT; l++)
        if (slots & (1u << l))
            cJSON_AddItemToArray(arr, cJSON_CreateString(cc_location_name((enum cc_location)l)));
}

/* 1 in the discovery hand-of-two variant. */
static int hand_variant(const struct cc_game *g)
{
    return g->ruleset == CC_RULESET_DISCOVERY && g->options.draw == CC_DRAW_HAND;
}

/* Adds {crop: count} for every crop as `name`. */
static void add_crops(cJSON *o, const char *name, const uint8_t counts[CC_CROP_COUNT])
{
    cJSON *h = cJSON_AddObjectToObject(o, name);
    for (int c = 0; h && c < CC_CROP_COUNT; c++)
        cJSON_AddNumberToObject(h, cc_crop_name((enum cc_crop)c), counts[c]);
}

/* Adds the seats of bit mask `mask` as array `name`. */
static void add_seats(cJSON *o, const char *name, const struct cc_game *g, unsigned mask)
{
    cJSON *arr = cJSON_AddArrayToObject(o, name);
    for (unsigned s = 0; arr && s < g->nplayers; s++)
        if (mask & (1u << s)) cJSON_AddItemToArray(arr, cJSON_CreateNumber(s));
}

/* Adds a seat number, or null for CC_NO_SEAT. */
static void add_seat(cJSON *o, unsigned seat)
{
    if (seat == CC_NO_SEAT)
        cJSON_AddNullToObject(o, "seat");
    else
        cJSON_AddNumberToObject(o, "seat", seat);
}

/* The feature type under piece `p` of `g`, or NULL. */
static const struct cc_feature_type *piece_feature(const struct cc_game *g,
                                                   const struct cc_piece *p)
{
    const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)g->ruleset);
    if (!ts || p->tile >= g->nboard) return NULL;
    const struct cc_tile_type *tt = &ts->types[g->board[p->tile].type];
    return p->feature < tt->nfeatures ? &tt->features[p->feature] : NULL;
}

cJSON *json_options(const struct cc_game *g)
{
    cJSON *o = cJSON_CreateObject();
    if (g->ruleset == CC_RULESET_CLASSIC) {
        cJSON_AddStringToObject(
            o, "edition", g->options.edition == CC_EDITION_ORIGINAL ? "original" : "standard");
        cJSON_AddBoolToObject(o, "river", g->options.river != 0);
    } else if (g->ruleset == CC_RULESET_DISCOVERY) {
        cJSON_AddStringToObject(o, "draw", g->options.draw == CC_DRAW_HAND ? "hand" : "pile");
    }
    return o;
}

/* The player objects of GET /v1/games/{id}. */
static cJSON *players_json(const struct cc_game *g, const char *const *names)
{
    cJSON *arr = cJSON_CreateArray();
    for (unsigned s = 0; arr && s < g->nplayers; s++) {
        const struct cc_player *p = &g->players[s];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, o);
        cJSON_AddNumberToObject(o, "seat", s);
        cJSON_AddStringToObject(o, "name", names[s]);
        cJSON_AddNumberToObject(o, "score", p->score);
        cJSON_AddNumberToObject(o, "followers", p->followers);
        if (g->ruleset == CC_RULESET_HILLS) {
            cJSON_AddNumberToObject(o, "stables", p->stables);
            add_crops(o, "harvest", p->harvest);
        }
        if (hand_variant(g)) {
            cJSON *hand = cJSON_AddArrayToObject(o, "hand");
            for (int i = 0; hand && i < CC_HAND_SIZE; i++) {
                const char *id = p->hand[i] == CC_NO_TILE ? NULL : json_tile_id(g, p->hand[i]);
                if (id) cJSON_AddItemToArray(hand, cJSON_CreateString(id));
            }
        }
    }
    return arr;
}

/* The board: every placed tile with the pieces on it. */
static cJSON *board_json(const struct cc_game *g)
{
    cJSON *arr = cJSON_CreateArray();
    for (unsigned i = 0; arr && i < g->nboard; i++) {
        const struct cc_placed *t = &g->board[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, o);
        cJSON_AddNumberToObject(o, "x", t->x);
        cJSON_AddNumberToObject(o, "y", t->y);
        add_tile(o, "tile", g, t->type);
        cJSON_AddNumberToObject(o, "rotation", t->rot * 90);
        cJSON *pieces = cJSON_AddArrayToObject(o, "pieces");
        for (int k = 0; pieces && k < CC_MAX_PIECES; k++) {
            const struct cc_piece *p = &g->pieces[k];
            if (!p->used || p->tile != i) continue;
            cJSON *po = cJSON_CreateObject();
            cJSON_AddItemToArray(pieces, po);
            cJSON_AddNumberToObject(po, "seat", p->seat);
            cJSON_AddStringToObject(po, "kind", p->kind == CC_PIECE_STABLE ? "stable" : "follower");
            cJSON_AddStringToObject(po, "location", cc_location_name((enum cc_location)p->loc));
        }
    }
    return arr;
}

cJSON *json_game(const struct cc_game *g, const struct json_game_meta *meta)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    int finished = g->phase == CC_PHASE_FINISHED;
    cJSON_AddStringToObject(o, "id", meta->id);
    cJSON_AddStringToObject(o, "ruleset", cc_ruleset_name((enum cc_ruleset)g->ruleset));
    cJSON_AddItemToObject(o, "options", json_options(g));
    cJSON_AddNumberToObject(o, "version", meta->version);
    cJSON_AddStringToObject(o, "status", json_status(g));
    cJSON *t = cJSON_AddObjectToObject(o, "turn");
    cJSON_AddNumberToObject(t, "number", g->turn);
    if (finished)
        add_seat(t, CC_NO_SEAT);
    else
        add_seat(t, g->seat);
    cJSON_AddStringToObject(t, "phase",
                            finished                     ? "finished"
                            : g->phase == CC_PHASE_PLACE ? "place"
                                                         : "draw");
    add_tile(t, "tile", g, g->phase == CC_PHASE_PLACE && !hand_variant(g) ? g->drawn : CC_NO_TILE);
    cJSON_AddNumberToObject(o, "deck_remaining", cc_tiles_remaining(g));
    cJSON_AddItemToObject(o, "players", players_json(g, meta->names));
    cJSON_AddItemToObject(o, "board", board_json(g));
    add_tiles(o, "discarded", g, g->discarded, g->ndiscarded);
    if (hand_variant(g)) add_tiles(o, "removed", g, g->removed, g->nremoved);
    if (g->ruleset == CC_RULESET_HILLS) add_crops(o, "harvest_supply", g->harvest_supply);
    if (finished) {
        char seed[24];
        snprintf(seed, sizeof seed, "%" PRIu64, g->seed);
        cJSON_AddStringToObject(o, "seed", seed);
        add_tiles(o, "deck", g, g->deck, g->deck_len);
    }
    return o;
}

/* Adds the fields of a scoring event (feature_scored). */
static void scored_fields(cJSON *o, const struct cc_game *g, const struct cc_event *e)
{
    const char *kind = e->kind < CC_KIND_COUNT
                           ? cc_kind_name((enum cc_kind)e->kind)
                           : cc_column_name((enum cc_column)(e->kind - CC_KIND_COUNT));
    if (kind) cJSON_AddStringToObject(o, "kind", kind);
    const char *col = cc_column_name((enum cc_column)e->column);
    if (col) cJSON_AddStringToObject(o, "column", col);
    /* A scoring of no one feature (the hills harvest) has no place on the board. */
    if (e->kind < CC_KIND_COUNT && e->column != CC_COL_HARVEST) {
        cJSON_AddNumberToObject(o, "x", e->x);
        cJSON_AddNumberToObject(o, "y", e->y);
        const char *loc = cc_location_name((enum cc_location)e->loc);
        if (loc) cJSON_AddStringToObject(o, "location", loc);
    }
    cJSON_AddNumberToObject(o, "tiles", e->tiles);
    cJSON_AddNumberToObject(o, "count", e->count);
    add_seats(o, "seats", g, e->seats);
    cJSON_AddNumberToObject(o, "points", e->points);
    if (g->ruleset == CC_RULESET_HILLS) {
        cJSON *tokens = NULL;
        for (unsigned s = 0; s < g->nplayers; s++) {
            cJSON *t = NULL;
            for (int c = 0; c < CC_CROP_COUNT; c++) {
                if (!e->tokens[s][c]) continue;
                if (!tokens) tokens = cJSON_AddArrayToObject(o, "tokens");
                if (!t) {
                    cJSON *entry = cJSON_CreateObject();
                    cJSON_AddItemToArray(tokens, entry);
                    cJSON_AddNumberToObject(entry, "seat", s);
                    t = cJSON_AddObjectToObject(entry, "tokens");
                }
                cJSON_AddNumberToObject(t, cc_crop_name((enum cc_crop)c), e->tokens[s][c]);
            }
        }
    }
    cJSON_AddArrayToObject(o, "returned");
}

/* Adds x, y and location of an event about a piece. */
static void piece_fields(cJSON *o, const struct cc_event *e)
{
    cJSON_AddNumberToObject(o, "x", e->x);
    cJSON_AddNumberToObject(o, "y", e->y);
    const char *loc = cc_location_name((enum cc_location)e->loc);
    if (loc) cJSON_AddStringToObject(o, "location", loc);
}

/* The feature kind under location `loc` of the placed tile at (x, y), or NULL. */
static const char *kind_at(const struct cc_game *g, int x, int y, unsigned loc)
{
    int i = cc_board_at(g, x, y);
    const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)g->ruleset);
    if (i < 0 || !ts || loc >= CC_LOC_COUNT) return NULL;
    const struct cc_placed *p = &g->board[i];
    const struct cc_tile_type *t = &ts->types[p->type];
    unsigned f = t->slot_feature[p->rot & 3][loc];
    return f < t->nfeatures ? cc_kind_name((enum cc_kind)t->features[f].kind) : NULL;
}

/* Appends a new event object of `type` numbered `seq` to `out`. */
static cJSON *new_event(cJSON *out, int seq, const char *type)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    cJSON_AddItemToArray(out, o);
    cJSON_AddNumberToObject(o, "seq", seq);
    cJSON_AddStringToObject(o, "type", type);
    return o;
}

int json_events(const struct cc_game *g, const struct cc_events *ev, size_t from, int seq,
                cJSON *out)
{
    int n = 0;
    cJSON *last_scored = NULL;
    for (size_t i = from; i < ev->n; i++) {
        const struct cc_event *e = &ev->ev[i];
        if (e->type == CC_EV_FOLLOWER_RETURNED && last_scored) {
            cJSON *r = cJSON_CreateObject();
            cJSON_AddNumberToObject(r, "seat", e->seat);
            piece_fields(r, e);
            cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(last_scored, "returned"), r);
            continue;
        }
        /* The engine's per-feature final scorings are feature_scored events in the API;
         * the API's final_scored is the summary just before game_finished. */
        const char *type = e->type == CC_EV_FINAL_SCORED
                               ? cc_event_name(CC_EV_FEATURE_SCORED)
                               : cc_event_name((enum cc_event_type)e->type);
        if (e->type == CC_EV_GAME_FINISHED) {
            cJSON *f = new_event(out, seq + n++, cc_event_name(CC_EV_FINAL_SCORED));
            cJSON *scores = f ? cJSON_AddArrayToObject(f, "scores") : NULL;
            for (unsigned s = 0; scores && s < g->nplayers; s++) {
                cJSON *so = cJSON_CreateObject();
                cJSON_AddItemToArray(scores, so);
                cJSON_AddNumberToObject(so, "seat", s);
                cJSON_AddNumberToObject(so, "score", g->players[s].score);
            }
        }
        cJSON *o = new_event(out, seq + n++, type ? type : "unknown");
        if (!o) break;
        last_scored = NULL;
        switch ((enum cc_event_type)e->type) {
        case CC_EV_TILE_DRAWN:
        case CC_EV_TILE_DISCARDED:
        case CC_EV_HAND_DEALT:
            add_seat(o, e->seat);
            add_tile(o, "tile", g, e->tile);
            break;
        case CC_EV_TILES_REMOVED:
            add_tile(o, "tile", g, e->tile);
            break;
        case CC_EV_TILE_PLACED:
            add_seat(o, e->seat);
            add_tile(o, "tile", g, e->tile);
            cJSON_AddNumberToObject(o, "x", e->x);
            cJSON_AddNumberToObject(o, "y", e->y);
            cJSON_AddNumberToObject(o, "rotation", e->rot * 90);
            break;
        case CC_EV_FOLLOWER_DEPLOYED:
        case CC_EV_FOLLOWER_WITHDRAWN: {
            add_seat(o, e->seat);
            piece_fields(o, e);
            const char *kind = e->type == CC_EV_FOLLOWER_WITHDRAWN && e->kind < CC_KIND_COUNT
                                   ? cc_kind_name((enum cc_kind)e->kind)
                                   : kind_at(g, e->x, e->y, e->loc);
            if (kind) cJSON_AddStringToObject(o, "kind", kind);
            if (e->type == CC_EV_FOLLOWER_WITHDRAWN) {
                /* What the withdrawal scored, for its owner alone. */
                const char *col = cc_column_name((enum cc_column)e->column);
                if (col) cJSON_AddStringToObject(o, "column", col);
                cJSON_AddNumberToObject(o, "tiles", e->tiles);
                cJSON_AddNumberToObject(o, "count", e->count);
                cJSON_AddNumberToObject(o, "points", e->points);
            }
            break;
        }
        case CC_EV_STABLE_BUILT:
        case CC_EV_FOLLOWER_RETURNED:
            add_seat(o, e->seat);
            piece_fields(o, e);
            break;
        case CC_EV_HIKER_MOVED: {
            add_seat(o, e->seat);
            cJSON *f = cJSON_AddObjectToObject(o, "from");
            cJSON_AddNumberToObject(f, "x", e->x);
            cJSON_AddNumberToObject(f, "y", e->y);
            cJSON *t = cJSON_AddObjectToObject(o, "to");
            cJSON_AddNumberToObject(t, "x", e->x2);
            cJSON_AddNumberToObject(t, "y", e->y2);
            cJSON_AddNumberToObject(o, "tiles", e->tiles);
            cJSON_AddNumberToObject(o, "points", e->points);
            break;
        }
        case CC_EV_FEATURE_SCORED:
        case CC_EV_FINAL_SCORED:
            scored_fields(o, g, e);
            last_scored = o;
            break;
        case CC_EV_GAME_FINISHED:
            add_seats(o, "winners", g, e->seats ? e->seats : cc_winners(g));
            break;
        case CC_EV_COUNT:
            break;
        }
    }
    return n;
}

/* The own hikers of the seat to move, in piece order (the engine's hike bit order). */
static size_t own_hikers(const struct cc_game *g, const struct cc_piece *out[CC_MAX_PIECES])
{
    size_t n = 0;
    for (int k = 0; k < CC_MAX_PIECES; k++) {
        const struct cc_piece *p = &g->pieces[k];
        const struct cc_feature_type *f = p->used ? piece_feature(g, p) : NULL;
        if (f && p->seat == g->seat && p->kind == CC_PIECE_FOLLOWER && f->kind == CC_KIND_TRAIL)
            out[n++] = p;
    }
    return n;
}

cJSON *json_placements(const struct cc_game *g, struct cc_placement *buf, size_t cap)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    int hand = hand_variant(g);
    add_tile(o, "tile", g, g->phase == CC_PHASE_PLACE && !hand ? g->drawn : CC_NO_TILE);
    cJSON *arr = cJSON_AddArrayToObject(o, "placements");
    size_t n = cc_legal_placements(g, buf, cap, true);
    if (n > cap) n = cap;
    const struct cc_piece *hikers[CC_MAX_PIECES];
    size_t nhikers = g->ruleset == CC_RULESET_HILLS ? own_hikers(g, hikers) : 0;
    for (size_t i = 0; arr && i < n; i++) {
        const struct cc_placement *p = &buf[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, e);
        if (hand) add_tile(e, "tile", g, p->tile);
        cJSON_AddNumberToObject(e, "x", p->x);
        cJSON_AddNumberToObject(e, "y", p->y);
        cJSON_AddNumberToObject(e, "rotation", p->rot * 90);
        add_locations(e, "follower", p->follower);
        if (g->ruleset == CC_RULESET_HILLS) {
            add_locations(e, "stable", p->stable);
            cJSON *hk = cJSON_AddArrayToObject(e, "hike");
            for (size_t k = 0; hk && k < nhikers && k < 4; k++) {
                const struct cc_placed *t = &g->board[hikers[k]->tile];
                for (int side = 0; side < 4; side++) {
                    if (!(p->hike & (1u << (4 * k + (size_t)side)))) continue;
                    cJSON *h = cJSON_CreateObject();
                    cJSON_AddItemToArray(hk, h);
                    cJSON_AddNumberToObject(h, "x", t->x);
                    cJSON_AddNumberToObject(h, "y", t->y);
                    cJSON_AddStringToObject(h, "toward", side_names[side]);
                }
            }
        }
        if (g->ruleset == CC_RULESET_DISCOVERY) {
            cJSON *wd = cJSON_AddArrayToObject(e, "withdraw");
            for (int k = 0; wd && k < CC_MAX_PIECES; k++) {
                const struct cc_piece *pc = &g->pieces[k];
                if (!pc->used || pc->seat != g->seat || pc->kind != CC_PIECE_FOLLOWER) continue;
                cJSON *w = cJSON_CreateObject();
                cJSON_AddItemToArray(wd, w);
                cJSON_AddNumberToObject(w, "x", g->board[pc->tile].x);
                cJSON_AddNumberToObject(w, "y", g->board[pc->tile].y);
                cJSON_AddStringToObject(w, "location", cc_location_name((enum cc_location)pc->loc));
            }
        }
    }
    return o;
}

/* Adds {"score", "breakdown": {column: points}} of `p` for the ruleset's columns. */
static void score_fields(cJSON *o, const struct cc_game *g, const struct cc_player *p)
{
    cJSON_AddNumberToObject(o, "score", p->score);
    cJSON *b = cJSON_AddObjectToObject(o, "breakdown");
    unsigned cols = cc_ruleset_columns((enum cc_ruleset)g->ruleset);
    for (int c = 0; b && c < CC_COL_COUNT; c++)
        if (cols & (1u << c))
            cJSON_AddNumberToObject(b, cc_column_name((enum cc_column)c), p->columns[c]);
}

cJSON *json_scores(const struct cc_game *g, const char *const *names)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    cJSON_AddStringToObject(o, "status", json_status(g));
    cJSON *players = cJSON_AddArrayToObject(o, "players");
    for (unsigned s = 0; players && s < g->nplayers; s++) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddItemToArray(players, p);
        cJSON_AddNumberToObject(p, "seat", s);
        cJSON_AddStringToObject(p, "name", names[s]);
        score_fields(p, g, &g->players[s]);
    }
    struct cc_player proj[CC_MAX_PLAYERS];
    cc_projected_scores(g, proj);
    cJSON *projected = cJSON_AddArrayToObject(o, "projected");
    for (unsigned s = 0; projected && s < g->nplayers; s++) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddItemToArray(projected, p);
        cJSON_AddNumberToObject(p, "seat", s);
        score_fields(p, g, &proj[s]);
    }
    if (g->phase == CC_PHASE_FINISHED) add_seats(o, "winners", g, cc_winners(g));
    return o;
}

cJSON *json_action(const struct cc_game *g, const struct cc_action *a)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    cJSON_AddStringToObject(o, "kind", a->kind == CC_ACTION_DRAW ? "draw" : "place");
    cJSON_AddNumberToObject(o, "seat", a->seat);
    if (a->kind == CC_ACTION_DRAW) return o;
    cJSON_AddNumberToObject(o, "x", a->x);
    cJSON_AddNumberToObject(o, "y", a->y);
    cJSON_AddNumberToObject(o, "rotation", a->rot * 90);
    if (a->tile != CC_NO_TILE) add_tile(o, "tile", g, a->tile);
    const char *loc = cc_location_name((enum cc_location)a->loc);
    switch ((enum cc_followup)a->follow) {
    case CC_FOLLOW_NONE:
        break;
    case CC_FOLLOW_FOLLOWER:
        cJSON_AddStringToObject(o, "follower", loc ? loc : "?");
        break;
    case CC_FOLLOW_STABLE:
        cJSON_AddStringToObject(o, "stable", loc ? loc : "?");
        break;
    case CC_FOLLOW_HIKE:
    case CC_FOLLOW_WITHDRAW: {
        int hike = a->follow == CC_FOLLOW_HIKE;
        cJSON *f = cJSON_AddObjectToObject(o, hike ? "hike" : "withdraw");
        cJSON_AddNumberToObject(f, "x", a->fx);
        cJSON_AddNumberToObject(f, "y", a->fy);
        if (hike)
            cJSON_AddStringToObject(f, "toward", side_names[a->loc & 3]);
        else
            cJSON_AddStringToObject(f, "location", loc ? loc : "?");
        break;
    }
    }
    return o;
}
