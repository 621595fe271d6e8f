# core.mk: the engine library, its generated catalogue data, unit tests and benchmark.

CORE_SRCS   := $(wildcard core/*.c)
TILESETS    := core/tilesets/classic.tiles core/tilesets/river.tiles \
               $(wildcard core/tilesets/hills.tiles) $(wildcard core/tilesets/discovery.tiles)
GEN_DIR     := $(BUILD)/gen
TILEGEN     := $(BUILD)/tilegen
TILES_DATA  := $(GEN_DIR)/tilesets_data.c

# Objects of the normal and the sanitizer build.
CORE_OBJS     := $(CORE_SRCS:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/tilesets_data.o
CORE_SAN_OBJS := $(CORE_SRCS:%.c=$(BUILD)/san/%.o) $(BUILD)/san/gen/tilesets_data.o
CORE_LIB      := $(BUILD)/libcore.a
CORE_SAN_LIB  := $(BUILD)/libcore-san.a

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Icore -MMD -MP -c $< -o $@
$(BUILD)/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -Icore -MMD -MP -c $< -o $@
$(BUILD)/obj/gen/%.o: $(GEN_DIR)/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Icore -c $< -o $@
$(BUILD)/san/gen/%.o: $(GEN_DIR)/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -Icore -c $< -o $@

# The catalogues are parsed at build time by the same parser the tests use, and
# compiled in as constant data: the engine never parses text while it plays.
$(TILEGEN): tools/tilegen.c core/tileparse.c core/tilenames.c core/tiles.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Icore tools/tilegen.c core/tileparse.c core/tilenames.c -o $@
$(TILES_DATA): $(TILEGEN) $(TILESETS)
	@mkdir -p $(dir $@)
	$(TILEGEN) $(TILESETS) > $@.tmp && mv $@.tmp $@

$(CORE_LIB): $(CORE_OBJS)
	rm -f $@ && ar rcs $@ $^
$(CORE_SAN_LIB): $(CORE_SAN_OBJS)
	rm -f $@ && ar rcs $@ $^

# Unit tests (Criterion), golden scoring cases included.
UNIT_SRCS := $(wildcard tests/unit/*.c)
RANDPLAY  := tests/unit/randplay.c
UNIT_BIN  := $(BUILD)/unit-tests
UNIT_SAN_BIN := $(BUILD)/unit-tests-san
$(UNIT_BIN): $(UNIT_SRCS) $(CORE_LIB) $(wildcard tests/unit/*.h)
	$(CC) $(ALL_CFLAGS) -Icore -Itests/unit $(UNIT_SRCS) $(CORE_LIB) -lcriterion -o $@
$(UNIT_SAN_BIN): $(UNIT_SRCS) $(CORE_SAN_LIB) $(wildcard tests/unit/*.h)
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -Icore -Itests/unit $(UNIT_SRCS) $(CORE_SAN_LIB) -lcriterion -o $@

BENCH_BIN := $(BUILD)/bench-engine
$(BENCH_BIN): tests/bench/engine_bench.c $(RANDPLAY) $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -O3 -Icore -Itests/unit tests/bench/engine_bench.c $(RANDPLAY) $(CORE_LIB) -o $@

.PHONY: core test-unit test-unit-san bench-engine
all: $(CORE_LIB)
core: $(CORE_LIB)

# Criterion forks per test; the golden and signature tests read tests/golden from the
# checkout, so run from the top folder.
test-unit: $(UNIT_BIN)
	$(UNIT_BIN) --jobs=2
test-unit-san: $(UNIT_SAN_BIN)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 $(UNIT_SAN_BIN) --jobs=2

bench-engine: $(BENCH_BIN)
	$(BENCH_BIN)

-include $(CORE_OBJS:.o=.d) $(CORE_SAN_OBJS:.o=.d)
