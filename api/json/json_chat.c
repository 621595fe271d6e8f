/* json_chat.c: the bodies of talk: a chat message ({"text"}), checked by the rules the
 * service applies to names (utf8.h), line feeds allowed. */
#include <string.h>

#include <cJSON.h>

#include "json_in.h"
#include "utf8.h"

int json_in_chat(const char *body, size_t len, char text[JSON_CHAT_TEXT_BYTES + 1],
                 struct json_err *err)
{
    cJSON *root = json_in_parse(body, len, 1000, err);
    if (!root) return -1;
    int rc = -1;
    static const char *const allowed[] = {"text", NULL};
    if (json_check_fields(root, allowed, "", err)) goto out;
    const cJSON *t = json_need(root, "text", cJSON_IsString, "a string", err);
    if (!t) goto out;
    const char *s = t->valuestring;
    size_t n = strlen(s), i = 0;
    int chars = 0, visible = 0;
    while (i < n) {
        uint32_t cp;
        size_t k = utf8_next(s + i, n - i, &cp);
        if (k == 0) { /* the parser checked the body: cannot happen, but never store it */
            json_fail(err, "invalid_chat_text", "\"text\" is not UTF-8.");
            goto out;
        }
        /* A line feed ends a line; every other control or format character (bidirectional
         * overrides, zero-width characters ...) is refused, as in names. */
        if (cp != '\n' && utf8_refused_in_name(cp)) {
            json_fail(err, "invalid_chat_text",
                      "\"text\" holds U+%04X: a message holds no control, format or "
                      "bidirectional characters (line feeds are allowed).",
                      (unsigned)cp);
            goto out;
        }
        visible |= utf8_visible(cp);
        i += k;
        chars++;
    }
    if (chars > JSON_CHAT_TEXT_CHARS || n > JSON_CHAT_TEXT_BYTES) {
        json_fail(err, "invalid_chat_text", "\"text\" holds %d characters: 500 at most.", chars);
        goto out;
    }
    if (!visible) {
        json_fail(err, "invalid_chat_text",
                  "\"text\" must hold a visible character (a letter, number, punctuation or "
                  "symbol).");
        goto out;
    }
    memcpy(text, s, n + 1);
    rc = 0;
out:
    cJSON_Delete(root);
    return rc;
}
