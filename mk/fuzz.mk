# fuzz.mk: libFuzzer harnesses (clang, ASan + UBSan) for every decoder; `make fuzz` runs
# each for FUZZ_SECONDS, `make test-fuzz` for a short fixed time (FUZZ_SHORT, 10 s) from the
# committed corpus.

FUZZ_CC       ?= clang
FUZZ_SECONDS  ?= 300
FUZZ_SHORT    ?= 10
FUZZ_FLAGS    := -std=c11 -D_DEFAULT_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
                 -fno-sanitize-recover=undefined -Icore
FUZZ_CORE     := $(CORE_SRCS) $(TILES_DATA)
CORE_FUZZERS  := tiles snapshot
# The service's decoders: request bodies (api/json/json_in.c) and query strings and headers
# (api/http/params.c, auth_bearer, api_query_get), each linked with only the api files it needs.
API_FUZZERS   := json_in params export
FUZZ_API_json_in := api/json/json_in.c api/json/json_chat.c api/json/json_options.c api/game/rulesets.c api/base/utf8.c api/base/codes.c
FUZZ_API_export  := api/json/json_export_in.c api/json/json_in.c api/json/json_options.c api/game/rulesets.c api/base/utf8.c api/base/codes.c
FUZZ_API_params  := api/http/params.c api/base/auth.c api/base/req.c api/base/mono.c api/base/json_out.c api/base/buf.c api/http/problem.c
FUZZ_API_LIBS  = $(PKG_LIBS)
FUZZERS       := $(CORE_FUZZERS) $(API_FUZZERS)
FUZZ_BINS     := $(FUZZERS:%=$(BUILD)/fuzz/fuzz_%)

$(CORE_FUZZERS:%=$(BUILD)/fuzz/fuzz_%): $(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_CORE) \
		$(wildcard core/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $< $(FUZZ_CORE) -o $@

.SECONDEXPANSION:
$(API_FUZZERS:%=$(BUILD)/fuzz/fuzz_%): $(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_CORE) \
		$$(FUZZ_API_$$*) $(wildcard core/*.h api/*/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(API_INC) $(PKG_CFLAGS) $< $(FUZZ_API_$*) $(FUZZ_CORE) $(FUZZ_API_LIBS) -o $@

.PHONY: fuzz test-fuzz fuzz-build
fuzz-build: $(FUZZ_BINS)

fuzz: $(FUZZ_BINS)
	@for f in $(FUZZERS); do scripts/fuzz-run.sh $(BUILD)/fuzz $$f $(FUZZ_SECONDS) || exit 1; done

# The short runs go FUZZ_JOBS (2) at a time: each harness is one process on one core, and
# each writes only its own files (scripts/fuzz-run.sh); any finding fails the target.
FUZZ_JOBS     ?= 2
test-fuzz: $(FUZZ_BINS)
	@printf '%s\n' $(FUZZERS) | xargs -P $(FUZZ_JOBS) -I{} scripts/fuzz-run.sh $(BUILD)/fuzz {} $(FUZZ_SHORT)
