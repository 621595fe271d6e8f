# fuzz.mk: libFuzzer harnesses (clang, ASan + UBSan) for every decoder; `make fuzz` runs
# each for FUZZ_SECONDS, `make test-fuzz` for a short fixed time from the committed corpus.

FUZZ_CC       ?= clang
FUZZ_SECONDS  ?= 300
FUZZ_SHORT    ?= 10
FUZZ_FLAGS    := -std=c11 -D_DEFAULT_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
                 -fno-sanitize-recover=undefined -Icore
FUZZ_CORE     := $(CORE_SRCS) $(TILES_DATA)
CORE_FUZZERS  := tiles snapshot
FUZZ_BINS     := $(CORE_FUZZERS:%=$(BUILD)/fuzz/fuzz_%)

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_CORE) $(wildcard core/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $< $(FUZZ_CORE) -o $@

.PHONY: fuzz test-fuzz fuzz-build
fuzz-build: $(FUZZ_BINS)

fuzz: $(FUZZ_BINS)
	@for f in $(CORE_FUZZERS); do scripts/fuzz-run.sh $(BUILD)/fuzz $$f $(FUZZ_SECONDS) || exit 1; done

test-fuzz: $(FUZZ_BINS)
	@for f in $(CORE_FUZZERS); do scripts/fuzz-run.sh $(BUILD)/fuzz $$f $(FUZZ_SHORT) || exit 1; done
