# benchjson.mk: `make bench-json`, the CPU time the body decoder (api/json/json_in.c) spends on
# the worst bodies a client may send before it is authenticated (tests/bench/json_bench.c);
# `make bench` runs it too.

BENCH_JSON_BIN := $(BUILD)/bench-json
$(BENCH_JSON_BIN): tests/bench/json_bench.c api/json/json_in.c api/json/json_options.c api/game/rulesets.c api/base/utf8.c api/base/codes.c $(wildcard api/*/*.h) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(API_INC) -Icore $(PKG_CFLAGS) tests/bench/json_bench.c api/json/json_in.c api/json/json_options.c api/game/rulesets.c api/base/utf8.c api/base/codes.c $(CORE_LIB) \
		$(PKG_LIBS) -lm -o $@

.PHONY: bench-json
bench-json: $(BENCH_JSON_BIN)
	$(BENCH_JSON_BIN)
