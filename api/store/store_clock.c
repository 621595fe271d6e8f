/* store_clock.c: a game's clock in its stored form (games.clock, 0011) -- see store.h; how
 * clocks move on is api/clocks.c's. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "store.h"
#include "store_games.h"

/* The number member `key` of `o`, or `dflt`. */
static double num(const cJSON *o, const char *key, double dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

int store_clock_decode(const char *txt, size_t len, struct store_clock *out)
{
    memset(out, 0, sizeof *out);
    cJSON *j = cJSON_ParseWithLength(txt, len);
    if (!cJSON_IsObject(j)) {
        cJSON_Delete(j);
        return -1;
    }
    out->turn_seconds = (int)num(j, "turn_seconds", 0);
    out->initial_seconds = (int)num(j, "initial_seconds", 0);
    out->increment_seconds = (int)num(j, "increment_seconds", 0);
    out->kind = out->turn_seconds > 0 ? STORE_CLOCK_TURN : STORE_CLOCK_BANK;
    const cJSON *ot = cJSON_GetObjectItemCaseSensitive(j, "on_timeout");
    out->resign = cJSON_IsString(ot) && strcmp(ot->valuestring, "resign") == 0;
    out->turn_start_ms = (long long)num(j, "turn_start_ms", 0);
    out->deadline_ms = (long long)num(j, "deadline_ms", 0);
    out->turn_seat = (int)num(j, "turn_seat", 0);
    out->turn_no = (int)num(j, "turn_no", 0);
    out->timed_out = (int)num(j, "timed_out", 0);
    out->near_sent = (int)num(j, "near_sent", 0);
    out->ended_by_timeout = (int)num(j, "ended_by_timeout", 0);
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(j, "bank_ms");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "timeouts");
    for (int s = 0; s < CC_MAX_PLAYERS; s++) {
        const cJSON *bv = cJSON_GetArrayItem(b, s), *tv = cJSON_GetArrayItem(t, s);
        out->bank_ms[s] = cJSON_IsNumber(bv) ? (long long)bv->valuedouble : 0;
        out->timeouts[s] = cJSON_IsNumber(tv) ? (int)tv->valuedouble : 0;
    }
    cJSON_Delete(j);
    return out->kind == STORE_CLOCK_BANK && out->initial_seconds <= 0 ? -1 : 0;
}

const char *store_clock_encode(const struct store_clock *c, char *buf, size_t cap)
{
    size_t o = 0;
    int w;
#define PUT(...)                                                                                   \
    do {                                                                                           \
        w = snprintf(buf + o, o < cap ? cap - o : 0, __VA_ARGS__);                                 \
        if (w > 0) o += (size_t)w;                                                                 \
    } while (0)
    if (c->kind == STORE_CLOCK_TURN)
        PUT("{\"turn_seconds\":%d", c->turn_seconds);
    else
        PUT("{\"initial_seconds\":%d,\"increment_seconds\":%d", c->initial_seconds,
            c->increment_seconds);
    PUT(",\"on_timeout\":\"%s\",\"turn_start_ms\":%lld,\"deadline_ms\":%lld,\"turn_seat\":%d,"
        "\"turn_no\":%d,\"timed_out\":%d,\"near_sent\":%d,\"ended_by_timeout\":%d,\"bank_ms\":[",
        c->resign ? "resign" : "autoplay", c->turn_start_ms, c->deadline_ms, c->turn_seat,
        c->turn_no, c->timed_out, c->near_sent, c->ended_by_timeout);
    for (int s = 0; s < CC_MAX_PLAYERS; s++) PUT("%s%lld", s ? "," : "", c->bank_ms[s]);
    PUT("],\"timeouts\":[");
    for (int s = 0; s < CC_MAX_PLAYERS; s++) PUT("%s%d", s ? "," : "", c->timeouts[s]);
    PUT("]}");
#undef PUT
    if (o >= cap && cap) buf[cap - 1] = '\0';
    return buf;
}
