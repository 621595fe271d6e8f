/* json_game.c: encodes engine structures as the API's JSON (through json_out, no tree). */
#include "json_game.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clocks.h"
#include "glicko2.h"
#include "options.h"
#include "rulesets.h"
#include "store_games.h"

static const char *const side_names[4] = {"N", "E", "S", "W"};

/* What the API says of `g`'s ruleset (api/rulesets.c): which members its state has. */
static const struct api_ruleset_info *ruleset_info(const struct cc_game *g)
{
    static const struct api_ruleset_info none = {0};
    const struct api_ruleset_info *info = api_ruleset_info((enum cc_ruleset)g->ruleset);
    return info ? info : &none;
}

const char *json_tile_id(const struct cc_game *g, unsigned t)
{
    const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)g->ruleset);
    return ts && t < ts->ntypes ? ts->types[t].id : NULL;
}

const char *json_status(const struct cc_game *g)
{
    return g->phase == CC_PHASE_FINISHED ? "finished" : "active";
}

const char *json_result(const struct cc_game *g)
{
    switch (cc_game_result(g)) {
    case CC_RESULT_COMPLETED:
        return "completed";
    case CC_RESULT_RESIGNATION:
        return "resignation";
    default:
        return NULL;
    }
}

void json_tile(struct json_out *o, const struct cc_game *g, unsigned t)
{
    json_out_string(o, t == CC_NO_TILE ? NULL : json_tile_id(g, t));
}

/* The tile to place in the place phase (none in the hand variant), else CC_NO_TILE. */
static unsigned drawn_tile(const struct cc_game *g)
{
    int hand = cc_game_uses_hand(g);
    return g->phase == CC_PHASE_PLACE && !hand ? g->drawn : CC_NO_TILE;
}

void json_drawn_tile(struct json_out *o, const struct cc_game *g)
{
    json_tile(o, g, drawn_tile(g));
}

/* Member `name`: the tile id `t` (or null). */
static void add_tile(struct json_out *o, const char *name, const struct cc_game *g, unsigned t)
{
    json_out_key(o, name);
    json_tile(o, g, t);
}

/* Member `name`: an array of the tile ids `types[0..n)`. */
static void add_tiles(struct json_out *o, const char *name, const struct cc_game *g,
                      const uint8_t *types, size_t n)
{
    json_out_key(o, name);
    json_out_begin_array(o);
    for (size_t i = 0; i < n; i++) {
        const char *id = json_tile_id(g, types[i]);
        json_out_string(o, id ? id : "?");
    }
    json_out_end_array(o);
}

/* Member `name`: the location names of bit mask `slots`. */
static void add_locations(struct json_out *o, const char *name, unsigned slots)
{
    json_out_key(o, name);
    json_out_begin_array(o);
    for (int l = 0; l < CC_LOC_COUNT; l++)
        if (slots & (1u << l)) json_out_string(o, cc_location_name((enum cc_location)l));
    json_out_end_array(o);
}

/* The API's name of kind `k` of a counted thing (a crop, a kind of goods). */
typedef const char *kind_name_fn(int k);

static const char *crop_name(int k)
{
    return cc_crop_name((enum cc_crop)k);
}

static const char *goods_name(int k)
{
    return cc_goods_name((enum cc_goods)k);
}

/* Member `name`: {kind: count} for each of the `n` kinds `counts` holds, named by `name_of`. */
static void add_counts(struct json_out *o, const char *name, const uint8_t *counts, int n,
                       kind_name_fn *name_of)
{
    json_out_key(o, name);
    json_out_begin_object(o);
    for (int k = 0; k < n; k++) json_out_kint(o, name_of(k), counts[k]);
    json_out_end_object(o);
}

/* Member `name`: the seats of bit mask `mask`. */
static void add_seats(struct json_out *o, const char *name, const struct cc_game *g, unsigned mask)
{
    json_out_key(o, name);
    json_out_begin_array(o);
    for (unsigned s = 0; s < g->nplayers; s++)
        if (mask & (1u << s)) json_out_int(o, s);
    json_out_end_array(o);
}

/* Whether `g`'s scoreboard has the goods column (Traders & Builders): its seats hold goods. */
static int has_goods(const struct cc_game *g)
{
    return (cc_game_columns(g) >> CC_COL_GOODS) & 1u;
}

/* Member "figure": the API's name of figure `kind`. */
static void add_figure(struct json_out *o, unsigned kind)
{
    const struct api_figure_info *f = api_figure_info((enum cc_piece_kind)kind);
    json_out_kstring(o, "figure", f ? f->name : "?");
}

/* The figures a deployment may name beyond the plain follower (and the hills' stable, its
 * own follow-up): those of the expansions. */
static int expansion_figure(unsigned kind)
{
    return kind != CC_PIECE_FOLLOWER && kind != CC_PIECE_STABLE;
}

/* Member "seat": a seat number, or null for CC_NO_SEAT. */
static void add_seat(struct json_out *o, unsigned seat)
{
    json_out_kint_or_null(o, "seat", seat != CC_NO_SEAT, seat);
}

void json_option_value(struct json_out *o, const struct cc_option_def *d, unsigned v)
{
    if (d->kind == CC_OPTION_BOOL) {
        json_out_bool(o, v != 0);
    } else if (d->kind == CC_OPTION_SET) {
        json_out_begin_array(o);
        for (unsigned k = 0; k < d->nvalues; k++)
            if (v >> k & 1u) json_out_string(o, d->values[k]);
        json_out_end_array(o);
    } else {
        json_out_string(o, d->values[v < d->nvalues ? v : d->fallback]);
    }
}

void json_options(struct json_out *o, const struct cc_game *g)
{
    /* The ruleset's rows of the options table, in its order. */
    json_out_begin_object(o);
    for (unsigned i = 0; i < CC_OPT_COUNT; i++) {
        if (!api_option_offered((enum cc_option_id)i, (enum cc_ruleset)g->ruleset)) continue;
        const struct cc_option_def *d = cc_option_def((enum cc_option_id)i);
        json_out_key(o, d->name);
        json_option_value(o, d, cc_option_get(&g->options, (enum cc_option_id)i));
    }
    json_out_end_object(o);
}

/* Member "rating": a seat's rating in the game's pool {"rating", "deviation" (aged to when
 * it was read, as a profile shows it), "provisional", "games"}. */
static void add_seat_rating(struct json_out *o, const struct store_seat_rating *r)
{
    json_out_key(o, "rating");
    json_out_begin_object(o);
    json_rating_members(o, &r->rating, r->last_rated_ms, r->read_ms, r->games);
    json_out_end_object(o);
}

void json_rating_members(struct json_out *o, const struct glicko2_rating *stored,
                         long long last_rated_ms, long long now_ms, int games)
{
    double periods = last_rated_ms ? glicko2_periods(now_ms - last_rated_ms) : 0;
    struct glicko2_rating now = glicko2_aged(stored, periods);
    json_out_kint(o, "rating", llround(now.rating));
    json_out_kint(o, "deviation", llround(now.deviation));
    json_out_key(o, "provisional");
    json_out_bool(o, glicko2_provisional(&now));
    json_out_kint(o, "games", games);
}

void json_supply(struct json_out *o, const struct cc_game *g, unsigned seat)
{
    const struct cc_player *p = &g->players[seat];
    for (unsigned k = 0; k < CC_PIECE_KIND_COUNT; k++)
        if (expansion_figure(k) && cc_figure_in_game(g, k))
            json_out_kint(o, api_figure_info((enum cc_piece_kind)k)->supply,
                          cc_supply_count(p, (enum cc_piece_kind)k));
    if (has_goods(g)) add_counts(o, "goods", p->goods, CC_GOODS_COUNT, goods_name);
}

void json_extra_turn(struct json_out *o, const struct cc_game *g)
{
    if (!cc_figure_in_game(g, CC_PIECE_BUILDER)) return;
    json_out_key(o, "extra");
    json_out_bool(o, g->extra_turn != 0 && g->phase != CC_PHASE_FINISHED);
}

/* The player objects of GET /v1/games/{id} (with `tokens`, if not NULL, as "token"), each
 * seat's player and rating (meta->seat_ratings) beside its computer player. */
static void add_players(struct json_out *o, const struct cc_game *g,
                        const struct json_game_meta *meta)
{
    const char *const *names = meta->names, *const *tokens = meta->tokens;
    const struct api_ruleset_info *info = ruleset_info(g);
    json_out_key(o, "players");
    json_out_begin_array(o);
    for (unsigned s = 0; s < g->nplayers; s++) {
        const struct cc_player *p = &g->players[s];
        json_out_begin_object(o);
        json_out_kint(o, "seat", s);
        json_out_kstring(o, "name", names[s]);
        json_out_kint(o, "score", p->score);
        json_out_kint(o, "followers", p->followers);
        if (info->stables) json_out_kint(o, "stables", p->stables);
        if (info->harvest) add_counts(o, "harvest", p->harvest, CC_CROP_COUNT, crop_name);
        json_supply(o, g, s);
        if (cc_game_uses_hand(g)) {
            json_out_key(o, "hand");
            json_out_begin_array(o);
            for (int i = 0; i < CC_HAND_SIZE; i++) {
                const char *id = p->hand[i] == CC_NO_TILE ? NULL : json_tile_id(g, p->hand[i]);
                if (id) json_out_string(o, id);
            }
            json_out_end_array(o);
        }
        if (cc_seat_resigned(g, s)) { /* only then: the answers of other games stay as they were */
            json_out_key(o, "resigned");
            json_out_bool(o, 1);
        }
        if (tokens && tokens[s]) json_out_kstring(o, "token", tokens[s]);
        if (meta->seats && meta->seats[s].bot[0]) {
            json_out_kstring(o, "bot", meta->seats[s].bot);
            json_out_kint(o, "think_ms", meta->seats[s].think_ms);
        }
        if (meta->seats && meta->seats[s].person_id[0])
            json_out_kstring(o, "player_id", meta->seats[s].person_id);
        if (meta->seats && meta->seat_ratings && meta->seats[s].rating.known)
            add_seat_rating(o, &meta->seats[s].rating);
        if (meta->open & (1u << s)) {
            json_out_key(o, "open");
            json_out_bool(o, 1);
        }
        if (meta->invite && meta->invite[s]) {
            /* An open seat's invite, shown once (create answer), and where to use it. */
            char url[160];
            snprintf(url, sizeof url, "/v1/games/%s/join?invite=%s", meta->id, meta->invite[s]);
            json_out_kstring(o, "invite", meta->invite[s]);
            json_out_kstring(o, "invite_url", url);
        }
        if (meta->clock && meta->clock->kind == STORE_CLOCK_BANK)
            json_out_kint(o, "clock_ms", clocks_bank_now(meta->clock, g, s));
        json_out_end_object(o);
    }
    json_out_end_array(o);
}

/* Member "feature": the kind of the feature piece `p` stands on (issue 14). */
static void add_piece_feature(struct json_out *o, const struct cc_game *g, const struct cc_piece *p)
{
    const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)g->ruleset);
    const struct cc_tile_type *t = ts ? &ts->types[g->board[p->tile].type] : NULL;
    const char *kind = t && p->feature < t->nfeatures
                           ? cc_kind_name((enum cc_kind)t->features[p->feature].kind)
                           : NULL;
    if (kind) json_out_kstring(o, "feature", kind);
}

/* The board: every placed tile with the pieces on it (in piece order). */
static void add_board(struct json_out *o, const struct cc_game *g)
{
    /* The pieces by tile, as lists through next[] (heads by tile), kept in piece order. */
    int8_t head[CC_MAX_BOARD], tail[CC_MAX_BOARD], next[CC_MAX_PIECES];
    for (unsigned i = 0; i < g->nboard && i < CC_MAX_BOARD; i++) head[i] = tail[i] = -1;
    for (int k = 0; k < CC_MAX_PIECES; k++) {
        const struct cc_piece *p = &g->pieces[k];
        next[k] = -1;
        if (!p->used || p->tile >= g->nboard) continue;
        if (tail[p->tile] < 0)
            head[p->tile] = (int8_t)k;
        else
            next[tail[p->tile]] = (int8_t)k;
        tail[p->tile] = (int8_t)k;
    }
    json_out_key(o, "board");
    json_out_begin_array(o);
    for (unsigned i = 0; i < g->nboard && i < CC_MAX_BOARD; i++) {
        const struct cc_placed *t = &g->board[i];
        json_out_begin_object(o);
        json_out_kint(o, "x", t->x);
        json_out_kint(o, "y", t->y);
        add_tile(o, "tile", g, t->type);
        json_out_kint(o, "rotation", t->rot * 90);
        json_out_key(o, "pieces");
        json_out_begin_array(o);
        for (int k = head[i]; k >= 0; k = next[k]) {
            const struct cc_piece *p = &g->pieces[k];
            json_out_begin_object(o);
            json_out_kint(o, "seat", p->seat);
            json_out_kstring(o, "kind", p->kind == CC_PIECE_STABLE ? "stable" : "follower");
            add_figure(o, p->kind);
            json_out_kstring(o, "location", cc_location_name((enum cc_location)p->loc));
            add_piece_feature(o, g, p);
            json_out_end_object(o);
        }
        json_out_end_array(o);
        json_out_end_object(o);
    }
    json_out_end_array(o);
}

void json_game(struct json_out *o, const struct cc_game *g, const struct json_game_meta *meta)
{
    int finished = g->phase == CC_PHASE_FINISHED;
    json_out_begin_object(o);
    json_out_kstring(o, "id", meta->id);
    json_out_kstring(o, "ruleset", cc_ruleset_name((enum cc_ruleset)g->ruleset));
    json_out_key(o, "options");
    json_options(o, g);
    json_out_kint(o, "version", meta->version);
    json_out_kstring(o, "status", meta->status ? meta->status : json_status(g));
    if (finished)
        json_out_kstring(o, "result",
                         meta->clock && meta->clock->ended_by_timeout ? "timeout" : json_result(g));
    json_out_key(o, "turn");
    json_turn(o, g);
    json_out_kint(o, "deck_remaining", cc_tiles_remaining(g));
    add_players(o, g, meta);
    if (meta->seats) {
        json_out_key(o, "hints");
        json_out_bool(o, !meta->hints_off);
        json_out_kstring(o, "chat", meta->chat_public ? "public" : "private");
        /* Either fixes the draw order: whoever joins an open seat can tell (issue 29). */
        json_out_key(o, "seed_chosen");
        json_out_bool(o, meta->seed_chosen);
        json_out_key(o, "rated");
        json_out_bool(o, meta->rated);
        json_out_key(o, "custom_deck");
        json_out_bool(o, g->custom_deck != 0);
    }
    clocks_json(o, meta->clock, g);
    add_board(o, g);
    add_tiles(o, "discarded", g, g->discarded, g->ndiscarded);
    if (cc_game_uses_hand(g)) add_tiles(o, "removed", g, g->removed, g->nremoved);
    if (ruleset_info(g)->harvest)
        add_counts(o, "harvest_supply", g->harvest_supply, CC_CROP_COUNT, crop_name);
    if (finished) {
        char seed[24];
        snprintf(seed, sizeof seed, "%" PRIu64, g->seed);
        json_out_kstring(o, "seed", seed);
        /* The hand variant's face-up removals are listed in "removed"; a custom deck
         * removes nothing, so the replayable pile is what follows them. */
        add_tiles(o, "deck", g, g->deck + g->nremoved, (size_t)(g->deck_len - g->nremoved));
    }
    json_out_end_object(o);
}

/* Member `name`: the square {"x", "y"} (a hiker's from and to). */
static void add_square(struct json_out *o, const char *name, int x, int y)
{
    json_out_key(o, name);
    json_out_begin_object(o);
    json_out_kint(o, "x", x);
    json_out_kint(o, "y", y);
    json_out_end_object(o);
}

/* Members x, y and location of an event about a piece. */
static void piece_fields(struct json_out *o, const struct cc_event *e)
{
    json_out_kint(o, "x", e->x);
    json_out_kint(o, "y", e->y);
    const char *loc = cc_location_name((enum cc_location)e->loc);
    if (loc) json_out_kstring(o, "location", loc);
}

/*
 * The members of a scoring event (feature_scored), with "returned": the pieces of the
 * CC_EV_FOLLOWER_RETURNED events ev->ev[*i + 1 ...], which it consumes (*i moves on).
 */
static void scored_fields(struct json_out *o, const struct cc_game *g, const struct cc_events *ev,
                          size_t *i)
{
    const struct cc_event *e = &ev->ev[*i];
    /* A goods majority (traders, final) is a scoring of no feature: its kind is the column,
     * "goods_kind" says which goods. */
    int goods = e->column == CC_COL_GOODS;
    const char *kind = goods ? cc_column_name(CC_COL_GOODS)
                       : e->kind < CC_KIND_COUNT
                           ? cc_kind_name((enum cc_kind)e->kind)
                           : cc_column_name((enum cc_column)(e->kind - CC_KIND_COUNT));
    if (kind) json_out_kstring(o, "kind", kind);
    const char *col = cc_column_name((enum cc_column)e->column);
    if (col) json_out_kstring(o, "column", col);
    for (int k = 0; goods && k < CC_GOODS_COUNT; k++)
        if (e->goods[k]) json_out_kstring(o, "goods_kind", cc_goods_name((enum cc_goods)k));
    /* A scoring of no one feature (the hills harvest, goods) has no place on the board. */
    if (e->kind < CC_KIND_COUNT && e->column != CC_COL_HARVEST && !goods) piece_fields(o, e);
    json_out_kint(o, "tiles", e->tiles);
    json_out_kint(o, "count", e->count);
    add_seats(o, "seats", g, e->seats);
    json_out_kint(o, "points", e->points);
    if (ruleset_info(g)->harvest) {
        int any = 0;
        for (unsigned s = 0; s < g->nplayers; s++) {
            int held = 0;
            for (int c = 0; c < CC_CROP_COUNT; c++) held |= e->tokens[s][c];
            if (!held) continue;
            if (!any) {
                json_out_key(o, "tokens");
                json_out_begin_array(o);
                any = 1;
            }
            json_out_begin_object(o);
            json_out_kint(o, "seat", s);
            json_out_key(o, "tokens");
            json_out_begin_object(o);
            for (int c = 0; c < CC_CROP_COUNT; c++)
                if (e->tokens[s][c])
                    json_out_kint(o, cc_crop_name((enum cc_crop)c), e->tokens[s][c]);
            json_out_end_object(o);
            json_out_end_object(o);
        }
        if (any) json_out_end_array(o);
    }
    json_out_key(o, "returned");
    json_out_begin_array(o);
    while (*i + 1 < ev->n && ev->ev[*i + 1].type == CC_EV_FOLLOWER_RETURNED) {
        const struct cc_event *r = &ev->ev[++*i];
        json_out_begin_object(o);
        json_out_kint(o, "seat", r->seat);
        piece_fields(o, r);
        add_figure(o, r->figure);
        json_out_end_object(o);
    }
    json_out_end_array(o);
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

/* Opens an event object numbered `seq` of `type`. */
static void begin_event(struct json_out *o, int seq, const char *type)
{
    json_out_begin_object(o);
    json_out_kint(o, "seq", seq);
    json_out_kstring(o, "type", type);
}

int json_events(struct json_out *o, const struct cc_game *g, const struct cc_events *ev,
                size_t from, int seq)
{
    return json_events_ended(o, g, ev, from, seq, json_result(g));
}

int json_events_ended(struct json_out *o, const struct cc_game *g, const struct cc_events *ev,
                      size_t from, int seq, const char *result)
{
    int n = 0;
    for (size_t i = from; i < ev->n; i++) {
        const struct cc_event *e = &ev->ev[i];
        /* The engine's per-feature final scorings are feature_scored events in the API;
         * the API's final_scored is the summary just before game_finished. */
        const char *type = e->type == CC_EV_FINAL_SCORED
                               ? cc_event_name(CC_EV_FEATURE_SCORED)
                               : cc_event_name((enum cc_event_type)e->type);
        if (e->type == CC_EV_GAME_FINISHED) {
            begin_event(o, seq + n++, cc_event_name(CC_EV_FINAL_SCORED));
            json_out_key(o, "scores");
            json_out_begin_array(o);
            for (unsigned s = 0; s < g->nplayers; s++) {
                json_out_begin_object(o);
                json_out_kint(o, "seat", s);
                json_out_kint(o, "score", g->players[s].score);
                json_out_end_object(o);
            }
            json_out_end_array(o);
            json_out_end_object(o);
        }
        begin_event(o, seq + n++, type ? type : "unknown");
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
            json_out_kint(o, "x", e->x);
            json_out_kint(o, "y", e->y);
            json_out_kint(o, "rotation", e->rot * 90);
            break;
        case CC_EV_FOLLOWER_DEPLOYED:
        case CC_EV_FOLLOWER_WITHDRAWN: {
            add_seat(o, e->seat);
            piece_fields(o, e);
            const char *kind = e->type == CC_EV_FOLLOWER_WITHDRAWN && e->kind < CC_KIND_COUNT
                                   ? cc_kind_name((enum cc_kind)e->kind)
                                   : kind_at(g, e->x, e->y, e->loc);
            if (kind) json_out_kstring(o, "kind", kind);
            if (e->type == CC_EV_FOLLOWER_DEPLOYED) add_figure(o, e->figure);
            if (e->type == CC_EV_FOLLOWER_WITHDRAWN) {
                /* What the withdrawal scored, for its owner alone. */
                const char *col = cc_column_name((enum cc_column)e->column);
                if (col) json_out_kstring(o, "column", col);
                json_out_kint(o, "tiles", e->tiles);
                json_out_kint(o, "count", e->count);
                json_out_kint(o, "points", e->points);
            }
            break;
        }
        case CC_EV_STABLE_BUILT:
            add_seat(o, e->seat);
            piece_fields(o, e);
            break;
        case CC_EV_FOLLOWER_RETURNED: /* one that follows no scoring */
            add_seat(o, e->seat);
            piece_fields(o, e);
            add_figure(o, e->figure);
            break;
        case CC_EV_HIKER_MOVED:
            add_seat(o, e->seat);
            add_square(o, "from", e->x, e->y);
            add_square(o, "to", e->x2, e->y2);
            json_out_kint(o, "tiles", e->tiles);
            json_out_kint(o, "points", e->points);
            break;
        case CC_EV_FEATURE_SCORED:
        case CC_EV_FINAL_SCORED:
            scored_fields(o, g, ev, &i);
            break;
        case CC_EV_GAME_FINISHED:
            add_seats(o, "winners", g, e->seats ? e->seats : cc_winners(g));
            if (result) json_out_kstring(o, "result", result);
            break;
        case CC_EV_SEAT_RESIGNED:
            add_seat(o, e->seat);
            add_tile(o, "returned_tile", g, e->tile); /* a drawn tile back on the pile */
            break;
        case CC_EV_PIECE_REMOVED:
            add_seat(o, e->seat);
            piece_fields(o, e);
            json_out_kstring(o, "piece", e->kind == CC_PIECE_STABLE ? "stable" : "follower");
            add_figure(o, e->kind);
            break;
        case CC_EV_GOODS_TAKEN: /* traders: the completed city (a square and location of it) */
            add_seat(o, e->seat);
            piece_fields(o, e);
            add_counts(o, "goods", e->goods, CC_GOODS_COUNT, goods_name);
            break;
        case CC_EV_EXTRA_TURN: /* traders: the builder's road or city, where the tile joined it */
            add_seat(o, e->seat);
            piece_fields(o, e);
            if (e->kind < CC_KIND_COUNT)
                json_out_kstring(o, "kind", cc_kind_name((enum cc_kind)e->kind));
            break;
        case CC_EV_COUNT:
            break;
        }
        json_out_end_object(o);
    }
    return n;
}

/* Appends to the open array the hikes of hike mask `mask` (bit 4*k+side: the seat to
 * move's k-th follower in piece order, cc_hike_origin()) as {x, y, toward}. */
/* Scratch of json_placement_list(): a copy of the game to try follow-ups on. */
struct trial {
    struct cc_game g;    /* the copy */
    struct cc_events ev; /* what the try caused */
};

/*
 * Plays placement `p` of the seat to move with follow-up `follow` (`loc`, from the piece
 * on (fx, fy)) on a copy of `g` in `t`. Returns the first event of `type` it caused, or
 * NULL when the engine refuses it (or caused none).
 */
static const struct cc_event *try_followup(const struct cc_game *g, struct trial *t,
                                           const struct cc_placement *p, enum cc_followup follow,
                                           unsigned loc, int16_t fx, int16_t fy,
                                           enum cc_event_type type)
{
    if (!t) return NULL;
    memcpy(&t->g, g, sizeof t->g);
    struct cc_action a = {.kind = CC_ACTION_PLACE,
                          .seat = g->seat,
                          .x = p->x,
                          .y = p->y,
                          .rot = p->rot,
                          .tile = cc_game_uses_hand(g) ? p->tile : CC_NO_TILE,
                          .follow = (uint8_t)follow,
                          .loc = (uint8_t)loc,
                          .fx = fx,
                          .fy = fy};
    t->ev.n = 0;
    if (cc_game_apply(&t->g, &a, &t->ev) != CC_OK) return NULL;
    for (size_t i = 0; i < t->ev.n; i++)
        if (t->ev.ev[i].type == type) return &t->ev.ev[i];
    return NULL;
}

/* The hikes of placement `p` (its mask), each with where it leads and what it scores. */
static void add_hikes(struct json_out *o, const struct cc_game *g, const struct cc_placement *p,
                      struct trial *t)
{
    unsigned mask = p->hike;
    for (unsigned k = 0; mask >> (4 * k); k++) {
        int16_t x, y;
        if (!cc_hike_origin(g, k, &x, &y)) break;
        for (unsigned side = 0; side < 4; side++) {
            if (!(mask & (1u << (4 * k + side)))) continue;
            json_out_begin_object(o);
            json_out_kint(o, "x", x);
            json_out_kint(o, "y", y);
            json_out_kstring(o, "toward", side_names[side]);
            const struct cc_event *e =
                try_followup(g, t, p, CC_FOLLOW_HIKE, side, x, y, CC_EV_HIKER_MOVED);
            if (e) {
                add_square(o, "to", e->x2, e->y2);
                json_out_kint(o, "points", e->points);
            }
            json_out_end_object(o);
        }
    }
}

/* The withdrawals after placement `p`: the seat's followers, each with the kind of its
 * feature and what withdrawing it scores. */
static void add_withdrawals(struct json_out *o, const struct cc_game *g,
                            const struct cc_placement *p, struct trial *t)
{
    for (int k = 0; k < CC_MAX_PIECES; k++) {
        const struct cc_piece *pc = &g->pieces[k];
        if (!pc->used || pc->seat != g->seat || pc->kind != CC_PIECE_FOLLOWER) continue;
        int16_t x = g->board[pc->tile].x, y = g->board[pc->tile].y;
        json_out_begin_object(o);
        json_out_kint(o, "x", x);
        json_out_kint(o, "y", y);
        json_out_kstring(o, "location", cc_location_name((enum cc_location)pc->loc));
        const struct cc_event *e =
            try_followup(g, t, p, CC_FOLLOW_WITHDRAW, pc->loc, x, y, CC_EV_FOLLOWER_WITHDRAWN);
        if (e) {
            if (e->kind < CC_KIND_COUNT)
                json_out_kstring(o, "kind", cc_kind_name((enum cc_kind)e->kind));
            json_out_kint(o, "points", e->points);
        }
        json_out_end_object(o);
    }
}

/* The locations of placement `p` where a figure of `kind` may go (the follower's masks: a
 * stable is no figure). */
static unsigned figure_locations(const struct cc_placement *p, unsigned kind)
{
    return kind == CC_PIECE_STABLE ? 0 : cc_placement_locations(p, kind);
}

/* Member "spots": each feature of placement `p` some figure may go to, once, at the first
 * of its locations, with its kind and "figures": those that may go there (a plain follower
 * first, then the expansions', the game's only). */
static void add_spots(struct json_out *o, const struct cc_game *g, const struct cc_placement *p)
{
    const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)g->ruleset);
    const struct cc_tile_type *t = ts && p->tile < ts->ntypes ? &ts->types[p->tile] : NULL;
    unsigned any = 0, at[CC_PIECE_KIND_COUNT]; /* where each kind of figure may go */
    for (unsigned k = 0; k < CC_PIECE_KIND_COUNT; k++) any |= at[k] = figure_locations(p, k);
    uint32_t seen = 0;
    json_out_key(o, "spots");
    json_out_begin_array(o);
    for (int l = 0; t && l < CC_LOC_COUNT; l++) {
        if (!(any & (1u << l))) continue;
        unsigned f = t->slot_feature[p->rot & 3][l];
        if (f >= t->nfeatures || f >= 32 || (seen & (1u << f))) continue;
        seen |= 1u << f;
        json_out_begin_object(o);
        json_out_kstring(o, "location", cc_location_name((enum cc_location)l));
        json_out_kstring(o, "kind", cc_kind_name((enum cc_kind)t->features[f].kind));
        json_out_key(o, "figures");
        json_out_begin_array(o);
        for (unsigned k = 0; k < CC_PIECE_KIND_COUNT; k++)
            if (at[k] & (1u << l)) json_out_string(o, api_figure_info((enum cc_piece_kind)k)->name);
        json_out_end_array(o);
        json_out_end_object(o);
    }
    json_out_end_array(o);
}

/* The index of the first entry of buf[0..i) on the same square with the same tile showing
 * the same edges on every side as buf[i] (a symmetric twin), or -1. */
static long same_as(const struct cc_game *g, const struct cc_placement *buf, size_t i)
{
    const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)g->ruleset);
    const struct cc_placement *p = &buf[i];
    if (!ts || p->tile >= ts->ntypes) return -1;
    const struct cc_tile_type *t = &ts->types[p->tile];
    for (size_t j = 0; j < i; j++) {
        const struct cc_placement *q = &buf[j];
        if (q->x == p->x && q->y == p->y && q->tile == p->tile &&
            t->edge_code[q->rot & 3] == t->edge_code[p->rot & 3])
            return (long)j;
    }
    return -1;
}

/* Placements whose "follower" and "spots" members were written already in a list: a
 * placement of the same tile, rotation and figures' locations (most of a list: one tile, in
 * a few rotations, on many squares) has the same bytes, copied from the first. */
#define SPOTS_SEEN_MAX 16
struct spots_seen {
    struct cc_placement p[SPOTS_SEEN_MAX];            /* what the members say (x, y, hike unused) */
    size_t from[SPOTS_SEEN_MAX], len[SPOTS_SEEN_MAX]; /* where their bytes are in the list */
    int n;                                            /* entries used */
};

/* Whether placements `a` and `b` give the same "follower" and "spots" (add_spots). */
static int same_spots(const struct cc_placement *a, const struct cc_placement *b)
{
    return a->tile == b->tile && a->rot == b->rot && a->follower == b->follower &&
           a->stable == b->stable && a->large == b->large && a->builder == b->builder &&
           a->pig == b->pig;
}

/* Members "follower" and "spots" of placement `p`: copied from an earlier placement's in
 * `seen`, else written (and noted there while it has room). */
static void add_follower_spots(struct json_out *o, const struct cc_game *g,
                               const struct cc_placement *p, struct spots_seen *seen)
{
    for (int i = 0; i < seen->n; i++)
        if (same_spots(&seen->p[i], p)) {
            json_out_repeat(o, seen->from[i], seen->len[i]);
            return;
        }
    size_t from = json_out_len(o);
    add_locations(o, "follower", p->follower);
    add_spots(o, g, p);
    if (seen->n == SPOTS_SEEN_MAX) return;
    seen->p[seen->n] = *p;
    seen->from[seen->n] = from;
    seen->len[seen->n] = json_out_len(o) - from;
    seen->n++;
}

void json_placement_list(struct json_out *o, const struct cc_game *g, struct cc_placement *buf,
                         size_t cap)
{
    struct spots_seen seen;
    seen.n = 0;
    int hand = cc_game_uses_hand(g);
    size_t n = cc_legal_placements(g, buf, cap, true);
    if (n > cap) n = cap;
    /* Hikes and withdrawals are tried on a copy to say what they score. */
    struct trial *t = NULL;
    const struct api_ruleset_info *info = ruleset_info(g);
    if (info->hikes || info->withdrawals) {
        t = malloc(sizeof *t);
        if (!t) o->buf.err = BUF_NOMEM; /* a 500, never a list without its scores */
    }
    json_out_begin_array(o);
    for (size_t i = 0; i < n; i++) {
        const struct cc_placement *p = &buf[i];
        json_out_begin_object(o);
        if (hand) add_tile(o, "tile", g, p->tile);
        json_out_kint(o, "x", p->x);
        json_out_kint(o, "y", p->y);
        json_out_kint(o, "rotation", p->rot * 90);
        long twin = same_as(g, buf, i);
        if (twin >= 0) json_out_kint(o, "same_as", twin);
        add_follower_spots(o, g, p, &seen);
        if (info->stables) add_locations(o, "stable", p->stable);
        if (info->hikes) {
            json_out_key(o, "hike");
            json_out_begin_array(o);
            add_hikes(o, g, p, t);
            json_out_end_array(o);
        }
        if (info->withdrawals) {
            json_out_key(o, "withdraw");
            json_out_begin_array(o);
            add_withdrawals(o, g, p, t);
            json_out_end_array(o);
        }
        json_out_end_object(o);
    }
    json_out_end_array(o);
    free(t);
}

void json_placements(struct json_out *o, const struct cc_game *g, struct cc_placement *buf,
                     size_t cap)
{
    json_out_begin_object(o);
    json_out_key(o, "tile");
    json_drawn_tile(o, g);
    json_out_key(o, "placements");
    json_placement_list(o, g, buf, cap);
    json_out_end_object(o);
}

/* Members "score" and "breakdown" ({column: points}) of `p` for the ruleset's columns. */
static void score_fields(struct json_out *o, const struct cc_game *g, const struct cc_player *p)
{
    json_out_kint(o, "score", p->score);
    json_out_key(o, "breakdown");
    json_out_begin_object(o);
    unsigned cols = cc_game_columns(g);
    for (int c = 0; c < CC_COL_COUNT; c++)
        if (cols & (1u << c)) json_out_kint(o, cc_column_name((enum cc_column)c), p->columns[c]);
    json_out_end_object(o);
}

void json_seats(struct json_out *o, const char *key, const struct cc_game *g,
                const char *const *names,
                void (*fields)(struct json_out *o, const struct cc_game *g, unsigned seat,
                               const void *arg),
                const void *arg)
{
    json_out_key(o, key);
    json_out_begin_array(o);
    for (unsigned s = 0; s < g->nplayers; s++) {
        json_out_begin_object(o);
        json_out_kint(o, "seat", s);
        if (names) json_out_kstring(o, "name", names[s]);
        if (fields) fields(o, g, s, arg);
        json_out_end_object(o);
    }
    json_out_end_array(o);
}

void json_created_event(struct json_out *o, const struct cc_game *g, const char *const *names)
{
    json_out_begin_object(o);
    json_out_kint(o, "seq", 1);
    json_out_kstring(o, "type", "game_created");
    json_out_kstring(o, "ruleset", cc_ruleset_name((enum cc_ruleset)g->ruleset));
    json_out_key(o, "options");
    json_options(o, g);
    json_seats(o, "players", g, names, NULL, NULL);
    json_out_end_object(o);
}

/* json_seats() fields: score_fields() of seat `seat` in the players array `arg`. */
static void seat_score(struct json_out *o, const struct cc_game *g, unsigned seat, const void *arg)
{
    const struct cc_player *players = arg;
    score_fields(o, g, &players[seat]);
}

void json_scores(struct json_out *o, const struct cc_game *g, const char *const *names)
{
    json_scores_as(o, g, names, NULL);
}

void json_scores_as(struct json_out *o, const struct cc_game *g, const char *const *names,
                    const char *status)
{
    json_out_begin_object(o);
    json_out_kstring(o, "status", status ? status : json_status(g));
    json_seats(o, "players", g, names, seat_score, g->players);
    struct cc_player proj[CC_MAX_PLAYERS];
    cc_projected_scores(g, proj);
    json_seats(o, "projected", g, NULL, seat_score, proj);
    if (g->phase == CC_PHASE_FINISHED) add_seats(o, "winners", g, cc_winners(g));
    json_out_end_object(o);
}

/* The members of placement `a` as POST /placements takes them. */
static void placement_fields(struct json_out *o, const struct cc_game *g,
                             const struct cc_action *a);

void json_action(struct json_out *o, const struct cc_game *g, const struct cc_action *a)
{
    json_out_begin_object(o);
    json_out_kstring(o, "kind",
                     a->kind == CC_ACTION_DRAW     ? "draw"
                     : a->kind == CC_ACTION_RESIGN ? "resign"
                                                   : "place");
    json_out_kint(o, "seat", a->seat);
    if (a->kind == CC_ACTION_PLACE) placement_fields(o, g, a);
    json_out_end_object(o);
}

void json_placement_body(struct json_out *o, const struct cc_game *g, const struct cc_action *a)
{
    json_out_begin_object(o);
    placement_fields(o, g, a);
    json_out_end_object(o);
}

static void placement_fields(struct json_out *o, const struct cc_game *g, const struct cc_action *a)
{
    {
        json_out_kint(o, "x", a->x);
        json_out_kint(o, "y", a->y);
        json_out_kint(o, "rotation", a->rot * 90);
        if (a->tile != CC_NO_TILE) add_tile(o, "tile", g, a->tile);
        const char *loc = cc_location_name((enum cc_location)a->loc);
        switch ((enum cc_followup)a->follow) {
        case CC_FOLLOW_NONE:
            break;
        case CC_FOLLOW_FOLLOWER:
            json_out_kstring(o, "follower", loc ? loc : "?");
            if (a->figure != CC_PIECE_FOLLOWER) add_figure(o, a->figure);
            break;
        case CC_FOLLOW_STABLE:
            json_out_kstring(o, "stable", loc ? loc : "?");
            break;
        case CC_FOLLOW_HIKE:
        case CC_FOLLOW_WITHDRAW: {
            int hike = a->follow == CC_FOLLOW_HIKE;
            json_out_key(o, hike ? "hike" : "withdraw");
            json_out_begin_object(o);
            json_out_kint(o, "x", a->fx);
            json_out_kint(o, "y", a->fy);
            if (hike)
                json_out_kstring(o, "toward", side_names[a->loc & 3]);
            else
                json_out_kstring(o, "location", loc ? loc : "?");
            json_out_end_object(o);
            break;
        }
        }
    }
}

void json_turn(struct json_out *o, const struct cc_game *g)
{
    int finished = g->phase == CC_PHASE_FINISHED;
    json_out_begin_object(o);
    json_out_kint(o, "number", g->turn);
    add_seat(o, finished ? CC_NO_SEAT : g->seat);
    json_out_kstring(o, "phase",
                     finished                     ? "finished"
                     : g->phase == CC_PHASE_PLACE ? "place"
                                                  : "draw");
    add_tile(o, "tile", g, drawn_tile(g));
    json_extra_turn(o, g);
    json_out_end_object(o);
}

char *json_with_ratings(const char *text, size_t len, const char *ratings, size_t *out_len)
{
    static const char mark[] = "\"type\":\"game_finished\"";
    const char *at = NULL;
    for (size_t i = 0; i + sizeof mark - 1 <= len && !at; i++)
        if (memcmp(text + i, mark, sizeof mark - 1) == 0) at = text + i;
    if (!at) return NULL;
    /* The event's closing brace: the first '}' at its own depth, outside strings. */
    int depth = 0, in_string = 0;
    const char *end = NULL;
    for (const char *p = at + sizeof mark - 1; p < text + len && !end; p++) {
        if (in_string) {
            if (*p == '\\')
                p++;
            else if (*p == '"')
                in_string = 0;
        } else if (*p == '"') {
            in_string = 1;
        } else if (*p == '{' || *p == '[') {
            depth++;
        } else if (*p == '}' || *p == ']') {
            if (depth == 0 && *p == '}') end = p;
            depth--;
        }
    }
    if (!end) return NULL;
    static const char member[] = ",\"ratings\":";
    size_t head = (size_t)(end - text), rl = strlen(ratings);
    size_t n = len + sizeof member - 1 + rl;
    char *out = malloc(n + 1);
    if (!out) return NULL;
    memcpy(out, text, head);
    memcpy(out + head, member, sizeof member - 1);
    memcpy(out + head + sizeof member - 1, ratings, rl);
    memcpy(out + head + sizeof member - 1 + rl, end, len - head);
    out[n] = '\0';
    *out_len = n;
    return out;
}
