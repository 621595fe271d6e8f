/* json_out.h: a JSON writer into one growing buffer (the hot answers: games, events, turns). */
#ifndef API_JSON_OUT_H
#define API_JSON_OUT_H

#include <stddef.h>

#include "nodiscard.h"
#include "buf.h"

/*
 * The largest document a writer holds. Answers stay far below it: random games of every
 * ruleset answer 30 KiB at most; the bound of the largest, the legal placements of a turn
 * (CC_MAX_PLACEMENTS of a few hundred bytes each, withdrawals of Discovery included), is
 * about 2 MiB, a page of events (1000) well under 1 MiB. Past it, as after an allocation
 * failure, json_out_take() returns NULL: the answer is a 500 problem, never a cut document.
 */
#define JSON_OUT_MAX (16u << 20)

/*
 * A document being written, compact as cJSON_PrintUnformatted() writes it. Commas are
 * placed by the writer: call json_out_key() before each member of an object, nothing
 * before each element of an array. After an allocation failure, or once the document
 * would pass JSON_OUT_MAX, every call does nothing and json_out_take() returns NULL.
 */
struct json_out {
    struct buf buf; /* the text, at most JSON_OUT_MAX bytes; remembers a failure */
    int comma;      /* 1 when the next member or element needs a comma before it */
};

/* An empty writer (no allocation yet). */
void json_out_init(struct json_out *o);

/* Frees what `o` holds and empties it; `o` may be reused. */
void json_out_free(struct json_out *o);

/*
 * Takes the document: a malloc'd NUL-terminated string of *len bytes (len may be NULL)
 * that the caller frees, or NULL after an allocation failure or past JSON_OUT_MAX. `o` is
 * empty afterwards.
 */
char *json_out_take(struct json_out *o, size_t *len) NODISCARD;

void json_out_begin_object(struct json_out *o); /* "{" */
void json_out_end_object(struct json_out *o);   /* "}" */
void json_out_begin_array(struct json_out *o);  /* "[" */
void json_out_end_array(struct json_out *o);    /* "]" */

/* The name of the next member of the open object: `"key":` (keys are not escaped: plain
 * ASCII names of the API). */
void json_out_key(struct json_out *o, const char *key);

void json_out_int(struct json_out *o, long long v);      /* a number without fraction */
void json_out_string(struct json_out *o, const char *s); /* a string, escaped; NULL: null */
void json_out_null(struct json_out *o);
void json_out_bool(struct json_out *o, int v);

/* Makes room for `n` more bytes at once, for a writer that knows its document is large (a
 * failure is remembered as any write's is). */
void json_out_reserve(struct json_out *o, size_t n);

/* `len` bytes of JSON text written as one value (an object, an array ... made elsewhere). */
void json_out_raw(struct json_out *o, const char *json, size_t len);

/* The bytes written so far: where a piece about to be written starts (json_out_repeat). */
size_t json_out_len(const struct json_out *o);

/* Writes again the `len` bytes written from `from` on (json_out_len() before them): a piece
 * that ended with a value, so that what follows it needs a comma. */
void json_out_repeat(struct json_out *o, size_t from, size_t len);

/* A member: json_out_key() then the value. */
void json_out_kint(struct json_out *o, const char *key, long long v);
/* A member whose value is `v` when `present`, else null (a seat that is none, a status that
 * never came). */
void json_out_kint_or_null(struct json_out *o, const char *key, int present, long long v);
void json_out_kstring(struct json_out *o, const char *key, const char *s);

#endif
