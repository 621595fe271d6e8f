# benchpng.mk: `make bench-png`, what a board.png costs (tests/bench/png_bench.c): the SVG
# of a finished classic game rendered by librsvg at widths 600, 1200 and 2400 (ms per
# picture), and a cached answer, then a game with both expansions at 600 and 1200; it writes
# the first 1200 px picture to build/bench-board.png.
# `make bench` runs it too.

BENCH_PNG_BIN := $(BUILD)/bench-png
$(BENCH_PNG_BIN): tests/bench/png_bench.c $(RANDPLAY) $(API_LIB) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(API_INC) -Icore -Itests/unit $(PKG_CFLAGS) tests/bench/png_bench.c $(RANDPLAY) \
		$(API_LIB) $(CORE_LIB) \
		$(PKG_LIBS) -lm -o $@

.PHONY: bench-png
bench-png: $(BENCH_PNG_BIN)
	$(BENCH_PNG_BIN) 10 $(BUILD)/bench-board.png
