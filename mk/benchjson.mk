# benchjson.mk: `make bench-json`, the CPU time the body decoder (api/json_in.c) spends on
# the worst bodies a client may send before it is authenticated (tests/bench/json_bench.c);
# `make bench` runs it too.

BENCH_JSON_BIN := $(BUILD)/bench-json
$(BENCH_JSON_BIN): tests/bench/json_bench.c api/json_in.c api/utf8.c $(wildcard api/*.h) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Iapi -Icore $(PKG_CFLAGS) tests/bench/json_bench.c api/json_in.c api/utf8.c $(CORE_LIB) \
		$(PKG_LIBS) -lm -o $@

.PHONY: bench-json
bench-json: $(BENCH_JSON_BIN)
	$(BENCH_JSON_BIN)
