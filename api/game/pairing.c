/* pairing.c: swiss, round robin and knockout pairings (the rules are in pairing.h). */
#include "pairing.h"

#include <string.h>

/* What the games so far say about the entrants. */
struct past {
    unsigned char met[TOURNEY_MAX_PLAYERS][TOURNEY_MAX_PLAYERS]; /* games two shared (max 255) */
    int firsts[TOURNEY_MAX_PLAYERS];                             /* games it moved first in */
    int byes[TOURNEY_MAX_PLAYERS];                               /* byes received */
};

/* Checks history (entrants in range; ended unless a bye) and counts it into *p: 0 or -1. */
static int past_read(struct past *p, int n, const struct tourney_game *history, int nhistory)
{
    memset(p, 0, sizeof *p);
    if (nhistory < 0 || (nhistory > 0 && !history)) return -1;
    for (int k = 0; k < nhistory; k++) {
        const struct tourney_game *g = &history[k];
        if (g->nseats < 1 || g->nseats > TOURNEY_MAX_SEATS) return -1;
        if (g->nseats > 1 && (!g->ended || g->first_seat < 0 || g->first_seat >= g->nseats))
            return -1;
        for (int s = 0; s < g->nseats; s++)
            if (g->player[s] < 0 || g->player[s] >= n) return -1;
        if (g->nseats == 1) {
            p->byes[g->player[0]]++;
            continue;
        }
        p->firsts[g->player[g->first_seat]]++;
        for (int s = 0; s < g->nseats; s++)
            for (int o = 0; o < g->nseats; o++)
                if (o != s && p->met[g->player[s]][g->player[o]] < 255)
                    p->met[g->player[s]][g->player[o]]++;
    }
    return 0;
}

/* The table sizes of `a` players at up to k a table (no bye: see pairing.h) into sizes[],
 * larger first; returns how many tables. */
static int table_sizes(int a, int k, int *sizes)
{
    if (a < 2) return 0;
    int t = (a + k - 1) / k, base = a / t, extra = a % t;
    for (int i = 0; i < t; i++) sizes[i] = base + (i < extra);
    return t;
}

/* Puts the seats of g in order: fewest first moves so far, then seed. */
static void seat_order(struct tourney_game *g, const struct past *p)
{
    for (int i = 1; i < g->nseats; i++) {
        int x = g->player[i], j = i;
        while (j > 0 && (p->firsts[x] < p->firsts[g->player[j - 1]] ||
                         (p->firsts[x] == p->firsts[g->player[j - 1]] && x < g->player[j - 1]))) {
            g->player[j] = g->player[j - 1];
            j--;
        }
        g->player[j] = x;
    }
}

/* Appends a table of `size` players to out (not ended), seated by seat_order. */
static void add_table(struct tourney_round *out, const int *players, int size, const struct past *p)
{
    struct tourney_game *g = &out->game[out->ngames++];
    memset(g, 0, sizeof *g);
    g->nseats = size;
    for (int i = 0; i < size; i++) g->player[i] = players[i];
    seat_order(g, p);
}

static int check_common(int n, const unsigned char *active, int per_game, struct tourney_round *out)
{
    if (n < 1 || n > TOURNEY_MAX_PLAYERS || !active || !out) return -1;
    if (per_game < 2 || per_game > TOURNEY_MAX_SEATS) return -1;
    out->ngames = 0;
    return 0;
}

/* ---- swiss ---- */

/* The depth-first search of a swiss round's tables (pairing.h). */
struct swiss_search {
    const struct past *past;                             /* who met whom */
    int m;                                               /* players to seat */
    const int *order;                                    /* them, best first */
    int ntables;                                         /* tables */
    const int *sizes;                                    /* their sizes */
    unsigned char used[TOURNEY_MAX_PLAYERS];             /* by position in order: seated */
    int table[TOURNEY_MAX_PLAYERS];                      /* by position in order: its table */
    int members[TOURNEY_MAX_PLAYERS][TOURNEY_MAX_SEATS]; /* each table's (positions) */
    int allowed;                                         /* repeated pairs allowed */
    long steps;                                          /* steps left */
};

/* Repeated pairs if the player at position `pos` joins the first j members of table t. */
static int repeats_with(const struct swiss_search *s, int t, int pos, int j)
{
    int r = 0;
    for (int i = 0; i < j; i++) r += s->past->met[s->order[pos]][s->order[s->members[t][i]]] > 0;
    return r;
}

/* Fills table t from member j on (candidates from position `from`), `rep` repeats so far:
 * 1 found (s->table set), 0 none, -1 out of steps. */
static int swiss_fill(struct swiss_search *s, int t, int j, int from, int rep)
{
    if (t == s->ntables) return 1;
    if (j == s->sizes[t]) return swiss_fill(s, t + 1, 0, 0, rep);
    if (j == 0) {
        int head = 0;
        while (head < s->m && s->used[head]) head++;
        if (head == s->m) return 0;
        s->used[head] = 1;
        s->members[t][0] = head;
        s->table[head] = t;
        int r = swiss_fill(s, t, 1, head + 1, rep);
        s->used[head] = 0;
        return r;
    }
    for (int pos = from; pos < s->m; pos++) {
        if (s->used[pos]) continue;
        int add = repeats_with(s, t, pos, j);
        if (rep + add > s->allowed) continue;
        if (--s->steps < 0) return -1;
        s->used[pos] = 1;
        s->members[t][j] = pos;
        s->table[pos] = t;
        int r = swiss_fill(s, t, j + 1, pos + 1, rep + add);
        s->used[pos] = 0;
        if (r != 0) return r;
    }
    return 0;
}

/* Seats order[m] at tables of sizes[ntables], fewest repeats first, into out. */
static int swiss_tables(const struct past *p, const int *order, int m, const int *sizes,
                        int ntables, int allowed, struct tourney_round *out)
{
    struct swiss_search s = {.past = p,
                             .m = m,
                             .order = order,
                             .ntables = ntables,
                             .sizes = sizes,
                             .allowed = allowed,
                             .steps = PAIRING_SEARCH_STEPS};
    memset(s.used, 0, sizeof s.used);
    int found = swiss_fill(&s, 0, 0, 0, 0);
    if (found != 1) return 0;
    for (int t = 0; t < ntables; t++) {
        int players[TOURNEY_MAX_SEATS], c = 0;
        for (int pos = 0; pos < m; pos++)
            if (s.table[pos] == t) players[c++] = order[pos];
        add_table(out, players, c, p);
    }
    return 1;
}

int pairing_swiss(int n, const unsigned char *active, const struct tourney_game *history,
                  int nhistory, int per_game, struct tourney_round *out)
{
    if (check_common(n, active, per_game, out) != 0) return -1;
    struct past p;
    if (past_read(&p, n, history, nhistory) != 0) return -1;
    struct tourney_standing st[TOURNEY_MAX_PLAYERS];
    if (tourney_standings(n, history, nhistory, 0, st) != 0) return -1;
    /* Order: points, then seed (the standings' other keys do not pair). */
    int points[TOURNEY_MAX_PLAYERS];
    for (int i = 0; i < n; i++) points[st[i].player] = st[i].points;
    int order[TOURNEY_MAX_PLAYERS], m = 0;
    for (int i = 0; i < n; i++) {
        if (!active[i]) continue;
        int j = m++;
        while (j > 0 && points[i] > points[order[j - 1]]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    if (m < 2) return 0;
    int sizes[TOURNEY_MAX_PLAYERS];
    if (per_game > 2 || m % 2 == 0) {
        int ntables = table_sizes(m, per_game, sizes);
        for (int allowed = 0;; allowed++)
            if (swiss_tables(&p, order, m, sizes, ntables, allowed, out)) return 0;
    }
    /* Two a table and one over: the bye to the fewest byes, the lowest in the order. */
    int fewest = p.byes[order[0]];
    for (int i = 1; i < m; i++)
        if (p.byes[order[i]] < fewest) fewest = p.byes[order[i]];
    int ntables = (m - 1) / 2;
    for (int i = 0; i < ntables; i++) sizes[i] = 2;
    for (int allowed = 0;; allowed++) {
        for (int cand = m - 1; cand >= 0; cand--) {
            if (p.byes[order[cand]] != fewest) continue;
            int rest[TOURNEY_MAX_PLAYERS], r = 0;
            for (int i = 0; i < m; i++)
                if (i != cand) rest[r++] = order[i];
            out->ngames = 0;
            if (!swiss_tables(&p, rest, r, sizes, ntables, allowed, out)) continue;
            add_table(out, &order[cand], 1, &p);
            return 0;
        }
    }
}

/* ---- round robin ---- */

/* Round `round` of the circle method over m (even) places into pairs[m/2][2]. */
static void circle_round(int m, int round, int pairs[][2])
{
    int rot = m - 1;
    pairs[0][0] = round % rot;
    pairs[0][1] = m - 1;
    for (int i = 1; i < m / 2; i++) {
        pairs[i][0] = (round + i) % rot;
        pairs[i][1] = (round - i + rot) % rot;
    }
}

/* What seating a and b at one table costs: a pair not met yet earns much (every pair must
 * meet), a repeat costs the square of the games they shared (repeats spread evenly). */
static int pair_cost(const struct past *p, int a, int b)
{
    return p->met[a][b] ? p->met[a][b] * p->met[a][b] : -1000;
}

/* The cost of player x at table g, the seat `skip` left out. */
static int seat_cost(const struct past *p, const struct tourney_game *g, int x, int skip)
{
    int c = 0;
    for (int s = 0; s < g->nseats; s++)
        if (s != skip) c += pair_cost(p, x, g->player[s]);
    return c;
}

/* Swaps players between tables while a swap lowers the round's cost (pair_cost), first
 * improving swap first: ends, since every swap lowers a whole number. */
static void improve_tables(const struct past *p, struct tourney_round *r)
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (int t1 = 0; t1 < r->ngames; t1++)
            for (int t2 = t1 + 1; t2 < r->ngames; t2++) {
                struct tourney_game *a = &r->game[t1], *b = &r->game[t2];
                for (int s1 = 0; s1 < a->nseats; s1++)
                    for (int s2 = 0; s2 < b->nseats; s2++) {
                        int x = a->player[s1], y = b->player[s2];
                        int before = seat_cost(p, a, x, s1) + seat_cost(p, b, y, s2);
                        int after = seat_cost(p, a, y, s1) + seat_cost(p, b, x, s2);
                        if (after >= before) continue;
                        a->player[s1] = y;
                        b->player[s2] = x;
                        changed = 1;
                    }
            }
    }
}

/* The cost of a round's tables (the sum of pair_cost over each table's pairs). */
static int round_cost(const struct past *p, const struct tourney_round *r)
{
    int c = 0;
    for (int t = 0; t < r->ngames; t++)
        for (int s = 0; s < r->game[t].nseats; s++)
            c += seat_cost(p, &r->game[t], r->game[t].player[s], s);
    return c / 2;
}

/* One greedy round (pairing.h) of n players at tables of sizes[ntables], players counted
 * from `start` on ties, into *out. */
static void build_round(const struct past *p, int n, const int *sizes, int ntables, int start,
                        struct tourney_round *out)
{
    unsigned char seated[TOURNEY_MAX_PLAYERS] = {0};
    int unmet[TOURNEY_MAX_PLAYERS];
    for (int i = 0; i < n; i++) {
        unmet[i] = 0;
        for (int j = 0; j < n; j++) unmet[i] += j != i && !p->met[i][j];
    }
    out->ngames = 0;
    for (int t = 0; t < ntables; t++) {
        int table[TOURNEY_MAX_SEATS], c = 0;
        for (int j = 0; j < sizes[t]; j++) {
            int best = -1, best_again = 0;
            for (int i = 0; i < n; i++) {
                int q = (start + i) % n;
                if (seated[q]) continue;
                int again = 0;
                for (int x = 0; x < c; x++) again += p->met[q][table[x]] > 0;
                if (best < 0 || again < best_again ||
                    (again == best_again && unmet[q] > unmet[best])) {
                    best = q;
                    best_again = again;
                }
            }
            seated[best] = 1;
            table[c++] = best;
        }
        add_table(out, table, c, p);
    }
}

/* The greedy schedule of n entrants at k (3 or 4) a table: plays rounds 0..upto into *out
 * (the last one's tables), or with upto < 0 until every pair met; returns the rounds
 * played, or -1 past PAIRING_MAX_RR_ROUNDS. */
static int greedy_schedule(int n, int k, int upto, struct past *p, struct tourney_round *out)
{
    struct tourney_round trial;
    memset(p, 0, sizeof *p);
    int sizes[TOURNEY_MAX_PLAYERS];
    int ntables = table_sizes(n, k, sizes);
    int pairs_left = n * (n - 1) / 2;
    for (int round = 0; round < PAIRING_MAX_RR_ROUNDS; round++) {
        if (upto < 0 && pairs_left == 0) return round;
        /* Greedy from each of the first few players as the first head, each improved by
         * swaps: the cheapest wins (the earlier start on a tie). */
        int best_cost = -1;
        for (int start = 0; start < n && start < PAIRING_RR_STARTS; start++) {
            struct tourney_round *r = best_cost < 0 ? out : &trial;
            build_round(p, n, sizes, ntables, start, r);
            improve_tables(p, r);
            int cost = round_cost(p, r);
            if (best_cost < 0 || cost < best_cost) {
                if (r != out) *out = *r;
                best_cost = cost;
            }
        }
        for (int t = 0; t < out->ngames; t++) {
            seat_order(&out->game[t], p);
            p->firsts[out->game[t].player[0]]++;
        }
        for (int t = 0; t < out->ngames; t++) {
            const struct tourney_game *g = &out->game[t];
            for (int s = 0; s < g->nseats; s++)
                for (int o = 0; o < g->nseats; o++) {
                    int a = g->player[s], b = g->player[o];
                    if (o == s) continue;
                    if (!p->met[a][b] && a < b) pairs_left--;
                    p->met[a][b]++;
                }
        }
        if (round == upto) return round + 1;
    }
    return -1;
}

int pairing_round_robin_rounds(int n, int per_game)
{
    if (n < 2 || n > TOURNEY_MAX_PLAYERS || per_game < 2 || per_game > TOURNEY_MAX_SEATS) return -1;
    if (per_game == 2) {
        int rounds = n % 2 ? n : n - 1;
        return rounds <= PAIRING_MAX_RR_ROUNDS ? rounds : -1;
    }
    struct past p;
    struct tourney_round r;
    return greedy_schedule(n, per_game, -1, &p, &r);
}

int pairing_round_robin(int n, const unsigned char *active, int per_game, int round,
                        struct tourney_round *out)
{
    if (check_common(n, active, per_game, out) != 0) return -1;
    int rounds = pairing_round_robin_rounds(n, per_game);
    if (rounds < 0 || round < 0 || round >= rounds) return -1;
    struct past p;
    struct tourney_round full;
    if (per_game == 2) {
        /* Seats alternate by round (the first mover goes round); a bye where the partner is
         * the odd place out or has left. */
        memset(&p, 0, sizeof p);
        int m = n % 2 ? n + 1 : n;
        int pairs[TOURNEY_MAX_PLAYERS / 2 + 1][2];
        circle_round(m, round, pairs);
        full.ngames = 0;
        for (int i = 0; i < m / 2; i++) {
            int a = pairs[i][(round + i) % 2], b = pairs[i][(round + i + 1) % 2];
            struct tourney_game *g = &full.game[full.ngames++];
            memset(g, 0, sizeof *g);
            g->nseats = 2;
            g->player[0] = a;
            g->player[1] = b;
        }
    } else if (greedy_schedule(n, per_game, round, &p, &full) != round + 1) {
        return -1;
    }
    /* The inactive (and the circle's extra place, n) leave their seats. */
    for (int t = 0; t < full.ngames; t++) {
        const struct tourney_game *g = &full.game[t];
        struct tourney_game *o = &out->game[out->ngames];
        memset(o, 0, sizeof *o);
        for (int s = 0; s < g->nseats; s++)
            if (g->player[s] < n && active[g->player[s]]) o->player[o->nseats++] = g->player[s];
        if (o->nseats > 0) out->ngames++;
    }
    return 0;
}

/* ---- knockout ---- */

int pairing_knockout(int n, const unsigned char *active, const struct tourney_game *history,
                     int nhistory, int per_game, struct tourney_round *out, int *champion)
{
    if (champion) *champion = -1;
    if (check_common(n, active, per_game, out) != 0) return -1;
    struct past p;
    if (past_read(&p, n, history, nhistory) != 0) return -1;
    unsigned char lost[TOURNEY_MAX_PLAYERS] = {0};
    for (int k = 0; k < nhistory; k++) {
        const struct tourney_game *g = &history[k];
        int w = tourney_knockout_winner(g);
        if (w < 0) return -1;
        for (int s = 0; s < g->nseats; s++)
            if (s != w) lost[g->player[s]] = 1;
    }
    int field[TOURNEY_MAX_PLAYERS], m = 0;
    for (int i = 0; i < n; i++)
        if (active[i] && !lost[i]) field[m++] = i;
    if (m <= 1) {
        if (champion && m == 1) *champion = field[0];
        return 0;
    }
    int bracket = 1;
    while (bracket < m) bracket *= per_game;
    int slots = bracket / per_game, base = m / slots, extra = m % slots;
    int size[TOURNEY_MAX_PLAYERS], filled[TOURNEY_MAX_PLAYERS];
    int table[TOURNEY_MAX_PLAYERS][TOURNEY_MAX_SEATS];
    for (int i = 0; i < slots; i++) {
        size[i] = base + (i >= slots - extra);
        table[i][0] = field[i];
        filled[i] = 1;
    }
    int next = slots;
    for (int row = 1; next < m; row++) {
        for (int j = 0; j < slots && next < m; j++) {
            int i = row % 2 ? slots - 1 - j : j;
            if (size[i] > row) table[i][filled[i]++] = field[next++];
        }
    }
    for (int i = 0; i < slots; i++) add_table(out, table[i], filled[i], &p);
    return 0;
}
