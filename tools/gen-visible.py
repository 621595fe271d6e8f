#!/usr/bin/env python3
"""Writes api/utf8_visible.inc: the code points that count as visible in a name (utf8.h,
utf8_visible): Unicode's general categories L, N, P and S (letters, numbers, punctuation,
symbols), less the letters and symbols that show nothing: U+115F, U+1160, U+3164, U+FFA0
(Hangul fillers), U+2800 (braille pattern blank) and U+FFFC (object replacement character).
Marks (M), separators (Z), controls, format, private-use and unassigned code points are not
visible. From Python's unicodedata (its Unicode version is named in the file).
Usage: tools/gen-visible.py > api/utf8_visible.inc"""
import unicodedata

BLANK = {0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0xFFFC}

ranges = []
for cp in range(0x110000):
    if unicodedata.category(chr(cp))[0] not in "LNPS" or cp in BLANK:
        continue
    if ranges and ranges[-1][1] == cp - 1:
        ranges[-1][1] = cp
    else:
        ranges.append([cp, cp])

print("/* utf8_visible.inc: the visible code points of names (utf8_visible), as ranges in order:")
print(" * Unicode %s's categories L, N, P and S less U+115F, U+1160, U+3164, U+FFA0, U+2800 and"
      % unicodedata.unidata_version)
print(" * U+FFFC. Made by tools/gen-visible.py: do not edit. */")
row = []
for lo, hi in ranges:
    row.append("{0x%X, 0x%X}," % (lo, hi))
    if len(row) == 4:
        print("    " + " ".join(row))
        row = []
if row:
    print("    " + " ".join(row))
