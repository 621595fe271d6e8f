/* fuzz_tiles.c: libFuzzer harness for the catalogue notation parser (any bytes, any
 * ruleset): it must never crash, and a catalogue it accepts must be self-consistent. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tiles.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct cc_tileset ts;
    if (size < 1) return 0;
    enum cc_ruleset r = (enum cc_ruleset)(data[0] % CC_RULESET_COUNT);
    int line = 0;
    if (cc_tileset_parse(&ts, r, (const char *)data + 1, size - 1, &line) != CC_PARSE_OK) return 0;
    /* Accepted: every location of every rotation belongs to a feature of the tile. */
    for (int i = 0; i < ts.ntypes; i++)
        for (int rot = 0; rot < 4; rot++)
            for (int loc = 0; loc < 12; loc++)
                if (ts.types[i].slot_feature[rot][loc] >= ts.types[i].nfeatures) abort();
    return 0;
}
