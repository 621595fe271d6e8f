# core.mk: the engine library, its generated catalogue data, unit tests and benchmark.
# One set of rules for every variant: objects in $(BUILD)/obj, flags from SANITIZE
# (see the Makefile).

CORE_SRCS   := $(wildcard core/*.c)
# Every catalogue: a ruleset's base set or an expansion's set (tools/tilegen.c orders them).
TILESETS    := $(wildcard core/tilesets/*.tiles)
GEN_DIR     := $(BUILD)/gen
TILEGEN     := $(BUILD)/tilegen
TILES_DATA  := $(GEN_DIR)/tilesets_data.c

CORE_OBJS   := $(CORE_SRCS:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/tilesets_data.o
CORE_LIB    := $(BUILD)/libcore.a

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Icore -MMD -MP -c $< -o $@
$(BUILD)/obj/gen/%.o: $(GEN_DIR)/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Icore -c $< -o $@

# The catalogues are parsed at build time by the same parser the tests use, and
# compiled in as constant data: the engine never parses text while it plays. The tool
# itself is a plain program in every variant.
$(TILEGEN): tools/tilegen.c core/tileparse.c core/tilenames.c core/tiles.h
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -Icore tools/tilegen.c core/tileparse.c core/tilenames.c -o $@
$(TILES_DATA): $(TILEGEN) $(TILESETS)
	@mkdir -p $(dir $@)
	$(TILEGEN) $(TILESETS) > $@.tmp && mv $@.tmp $@

$(CORE_LIB): $(CORE_OBJS)
	rm -f $@ && ar rcs $@ $^

# Unit tests (Criterion), golden scoring cases included.
UNIT_SRCS := $(wildcard tests/unit/*.c)
RANDPLAY  := tests/unit/randplay.c
UNIT_BIN  := $(BUILD)/unit-tests
$(UNIT_BIN): $(UNIT_SRCS) $(CORE_LIB) $(wildcard tests/unit/*.h)
	$(CC) $(ALL_CFLAGS) -Icore -Itests/unit $(UNIT_SRCS) $(CORE_LIB) -lcriterion -o $@

BENCH_BIN := $(BUILD)/bench-engine
$(BENCH_BIN): tests/bench/engine_bench.c $(RANDPLAY) $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -O3 -Icore -Itests/unit tests/bench/engine_bench.c $(RANDPLAY) $(CORE_LIB) -o $@

# make bench-analysis: whole 2-player classic games reviewed move by move (core/bot_analysis.h),
# CPU seconds a game against the target of 10 (issue 31, item 3), the load beside.
BENCH_ANALYSIS_BIN := $(BUILD)/bench-analysis
$(BENCH_ANALYSIS_BIN): tests/bench/analysis_bench.c $(RANDPLAY) $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) -O3 -Icore -Itests/unit tests/bench/analysis_bench.c $(RANDPLAY) \
		$(CORE_LIB) -o $@

.PHONY: core test-unit bench-engine bench-analysis
all: $(CORE_LIB)
core: $(CORE_LIB)

# Criterion forks per test; the golden and signature tests read tests/golden from the
# checkout, so run from the top folder. `make SANITIZE=address test-unit` (test-unit-san)
# runs them with ASan+UBSan.
test-unit: $(UNIT_BIN)
	$(SAN_ENV) $(SAN_RUN) $(UNIT_BIN) --jobs=2

bench-engine: $(BENCH_BIN)
	$(BENCH_BIN)

bench-analysis: $(BENCH_ANALYSIS_BIN)
	$(BENCH_ANALYSIS_BIN)

-include $(CORE_OBJS:.o=.d)
