/* utf8.h: UTF-8 (RFC 3629) checks for what comes in, cuts on character boundaries, the
 * characters refused in names, and JSON string escaping that never writes invalid bytes. */
#ifndef API_UTF8_H
#define API_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * Decodes the character at `s` (at most `left` bytes). Returns its length in bytes (1 to
 * 4) with the code point in *cp, or 0 when the bytes there are not UTF-8: a stray
 * continuation byte, a lead byte of 0xC0, 0xC1 or 0xF5 and above, an overlong form, a
 * UTF-16 surrogate (U+D800 to U+DFFF) encoded as UTF-8, a code point above U+10FFFF, or a
 * sequence cut short (by `left` or by a byte that does not continue it). `left` 0 is 0.
 */
size_t utf8_next(const char *s, size_t left, uint32_t *cp);

/* 1 when the `len` bytes at `s` are all UTF-8 (NUL bytes are UTF-8: U+0000), else 0. */
int utf8_valid(const char *s, size_t len);

/*
 * Bytes of the longest prefix of the NUL-terminated `s` that is at most `max` bytes, whole
 * characters of UTF-8 only: it stops before a character that would not fit and before the
 * first byte that is not UTF-8. As an int, for printf's "%.*s" (max above INT_MAX is
 * INT_MAX): printf("%.*s", utf8_fit(s, 40), s) prints at most 40 bytes and never half a
 * character nor an invalid byte.
 */
int utf8_fit(const char *s, size_t max);

/*
 * 1 when `cp` is refused in names: a control or format character, or a line or paragraph
 * separator (Unicode's general categories Cc, Cf, Zl and Zp): U+0000-U+001F, U+007F-U+009F
 * (C0, DEL, C1), U+00AD, U+0600-U+0605, U+061C, U+06DD, U+070F, U+0890-U+0891, U+08E2,
 * U+180E, U+200B-U+200F (zero-width space, non-joiner, joiner; LRM, RLM), U+2028-U+202E
 * (separators; bidirectional embeddings and overrides), U+2060-U+206F (word joiner,
 * invisible operators, bidirectional isolates), U+FEFF, U+FFF9-U+FFFB, U+110BD, U+110CD,
 * U+13430-U+1343F, U+1BCA0-U+1BCA3, U+1D173-U+1D17A, U+E0000-U+E007F (tags). Else 0.
 */
int utf8_refused_in_name(uint32_t cp);

/*
 * 1 when `cp` is visible: a letter, number, punctuation or symbol (Unicode's general
 * categories L, N, P and S, Unicode 14.0) other than those that show nothing: U+115F, U+1160,
 * U+3164 and U+FFA0 (Hangul fillers), U+2800 (braille pattern blank) and U+FFFC (object
 * replacement character). Spaces, marks (combining characters, U+034F), controls, format,
 * private-use and unassigned code points are not. Else 0.
 */
int utf8_visible(uint32_t cp);

/*
 * 1 when `cp` shows as blank space: a space separator (category Zs: U+0020, U+00A0, U+1680,
 * U+2000-U+200A, U+202F, U+205F, U+3000) or a blank letter or symbol (U+115F, U+1160,
 * U+2800, U+3164, U+FFA0). Else 0.
 */
int utf8_space(uint32_t cp);

/*
 * Writes the NUL-terminated `s` as the inside of a JSON string (no quotes) to `out`
 * (`cap` bytes), as much as fits whole: '"' and '\' escaped, C0 controls as \u00XX, every
 * byte that is not UTF-8 as \ufffd (U+FFFD, the replacement character); so what it writes
 * is always valid UTF-8 JSON. Stops before an escape or character that would not fit
 * (nothing is cut in half). Returns the bytes written (no NUL is written), and sets *used
 * to the bytes of `s` consumed (strlen(s) when all of it fit).
 */
size_t utf8_json_escape(const char *s, char *out, size_t cap, size_t *used);

#endif
