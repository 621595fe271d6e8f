# apitest.mk: unit tests of the service's pure modules (tests/api/, Criterion), built with
# the engine and the random player of tests/unit/, run plain and with ASan+UBSan.
# The tests check documents with xmllint (libxml2-utils, in mk/deps.mk).

APITEST_SRCS    := $(wildcard tests/api/*.c)
APITEST_MODS    := api/board_svg.c api/ratelimit.c api/netaddr.c
APITEST_DEPS    := $(APITEST_SRCS) $(APITEST_MODS) $(APITEST_MODS:.c=.h) $(RANDPLAY) \
                   $(wildcard tests/unit/*.h)
APITEST_BIN     := $(BUILD)/api-unit-tests
APITEST_SAN_BIN := $(BUILD)/api-unit-tests-san
APITEST_FLAGS   := -Iapi -Icore -Itests/unit

$(APITEST_BIN): $(APITEST_DEPS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(APITEST_FLAGS) $(APITEST_SRCS) $(APITEST_MODS) $(RANDPLAY) $(CORE_LIB) \
		-lcriterion -o $@
$(APITEST_SAN_BIN): $(APITEST_DEPS) $(CORE_SAN_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) $(APITEST_FLAGS) $(APITEST_SRCS) $(APITEST_MODS) $(RANDPLAY) \
		$(CORE_SAN_LIB) -lcriterion -o $@

.PHONY: test-api-unit
test-api-unit: $(APITEST_BIN) $(APITEST_SAN_BIN)
	$(APITEST_BIN) --jobs=2
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 $(APITEST_SAN_BIN) --jobs=2
