# ai.mk: `make bench-ai`, the strength of the computer players (core/bot.h): seat-swapped
# pairs of 2-player games on the same decks, greedy against random, per ruleset
# (tests/bench/ai_bench.c). A benchmark, not a test; 200 pairs take 15 s on a quiet core,
# `make bench-ai AI_PAIRS=500` plays more.

AI_PAIRS     ?= 200
BENCH_AI_BIN := $(BUILD)/bench-ai
$(BENCH_AI_BIN): tests/bench/ai_bench.c $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Icore tests/bench/ai_bench.c $(CORE_LIB) -lm -o $@

.PHONY: bench-ai
bench-ai: $(BENCH_AI_BIN)
	$(BENCH_AI_BIN) $(AI_PAIRS)
