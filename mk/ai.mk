# ai.mk: `make bench-ai`, the strength of the computer players (core/bot.h): seat-swapped
# pairs of 2-player games on the same decks, per ruleset, greedy against random and mcts
# against greedy; hard against greedy, against mcts, and in one seat of 3 or 4 against mcts
# (tests/bench/ai_bench.c). A benchmark, not a test. Variables:
#   AI_PAIRS     decks per ruleset and match (200: 400 2-player games)
#   AI_THINK_MS  mcts's and hard's thinking time a move (100; issue 31's hard lines: 250);
#                AI_ITERS an iteration bound (0: none)
#   AI_RULESET   only rulesets whose label contains it ("hills", "classic standard (farms)",
#                "inns + traders": classic with both expansions; "=discovery": that label alone)
#   AI_JOBS      worker processes (1; 2 uses both cores, each game on one)
#   AI_MATCH     comma-separated: gr, mg, hg, hm, hm3, hm4; both (gr,mg), hard (the hard
#                ones); AI_CLOCK cpu (thread CPU time, the default) or wall
#   AI_VERBOSE   1: a line on stderr for each game played (its margin), to follow a long run
# The full run (200 pairs, 100 ms, seven rulesets) thinks about 12 min of mcts time per
# ruleset: `make bench-ai AI_PAIRS=20 AI_RULESET=hills` is a quick form.

AI_PAIRS    ?= 200
AI_THINK_MS ?= 100
AI_ITERS    ?= 0
AI_RULESET  ?=
AI_JOBS     ?= 1
AI_MATCH    ?= both
AI_CLOCK    ?= cpu
AI_VERBOSE  ?=
BENCH_AI_BIN := $(BUILD)/bench-ai
$(BENCH_AI_BIN): tests/bench/ai_bench.c $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Icore tests/bench/ai_bench.c $(CORE_LIB) -lm -o $@

.PHONY: bench-ai
bench-ai: $(BENCH_AI_BIN)
	$(BENCH_AI_BIN) -p $(AI_PAIRS) -t $(AI_THINK_MS) -i $(AI_ITERS) -r '$(AI_RULESET)' \
	  -j $(AI_JOBS) -m $(AI_MATCH) -c $(AI_CLOCK) $(if $(filter 1,$(AI_VERBOSE)),-v)
