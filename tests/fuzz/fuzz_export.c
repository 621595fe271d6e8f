/* fuzz_export.c: libFuzzer harness for the reader of exports (api/json/json_export_in.c), as a
 * replay's body reaches it: the input is the body, parsed with the replay's bounds
 * (json_in_parse), and its "replay" member read. A refusal must name a code of the one list
 * (api_code_known(), api/base/codes.c) and a detail
 * (valid UTF-8) and, inside the actions, an index among them; an export taken must be a
 * setup the engine takes or refuses with a setup status, and its actions, each accepted or
 * refused by the engine, must never break the game (cc_game_check after each). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "codes.h"
#include "json_export.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct json_export x;
    static struct cc_game g;
    char *body = malloc(size + 1);
    if (!body) return 0;
    memcpy(body, data, size);
    body[size] = '\0';
    struct json_err err;
    memset(&err, 0, sizeof err);
    cJSON *root = json_in_parse(body, size, JSON_EXPORT_MAX_VALUES, &err);
    free(body);
    if (!root) {
        if (!api_code_known(err.code) || !err.detail[0] ||
            !utf8_valid(err.detail, strlen(err.detail)))
            abort();
        return 0;
    }
    int index = -2;
    const cJSON *doc = cJSON_GetObjectItemCaseSensitive(root, "replay");
    if (json_export_read(doc, &x, &err, &index)) {
        if (!api_code_known(err.code) || !memchr(err.detail, '\0', sizeof err.detail) ||
            !err.detail[0] || !utf8_valid(err.detail, strlen(err.detail)))
            abort();
        const cJSON *actions = cJSON_GetObjectItemCaseSensitive(doc, "actions");
        if (index < -1 ||
            (index >= 0 && (!cJSON_IsArray(actions) || index > cJSON_GetArraySize(actions))))
            abort();
        cJSON_Delete(root);
        return 0;
    }
    cJSON_Delete(root);
    if (index != -1 || x.nactions < 0 || x.nactions > JSON_EXPORT_MAX_ACTIONS || x.deck_len < 0 ||
        x.deck_len > CC_MAX_DECK)
        abort();
    if (cc_game_new(&g, &x.in.setup, NULL) != CC_OK) return 0;
    for (int i = 0; i < x.nactions; i++) {
        if (x.actions[i].join) continue;
        (void)cc_game_apply(&g, &x.actions[i].a, NULL);
        if (cc_game_check(&g) != CC_OK) abort();
    }
    return 0;
}
