# api.mk: the service (api/), its integration tests (tests/itest/), `make run` and the
# throwaway PostgreSQL the two use.

API_SRCS     := $(wildcard api/*.c)
API_OBJS     := $(API_SRCS:%.c=$(BUILD)/obj/%.o)
API_SAN_OBJS := $(API_SRCS:%.c=$(BUILD)/san/%.o)
API_BIN      := $(BUILD)/tilehall
API_SAN_BIN  := $(BUILD)/tilehall-san
API_LIBS     := -lmicrohttpd -lcjson -lpq -lcurl -lcrypto -lpthread
API_CFLAGS   := -Iapi -Icore -I/usr/include/postgresql

$(BUILD)/obj/api/%.o: api/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(API_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/san/api/%.o: api/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) $(API_CFLAGS) -MMD -MP -c $< -o $@

$(API_BIN): $(API_OBJS) $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) $(API_OBJS) $(CORE_LIB) $(API_LIBS) -o $@
$(API_SAN_BIN): $(API_SAN_OBJS) $(CORE_SAN_LIB)
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) $(API_SAN_OBJS) $(CORE_SAN_LIB) $(API_LIBS) -o $@

# Integration tests: a plain C runner (libcurl + cJSON) that starts the real server.
ITEST_SRCS := $(wildcard tests/itest/*.c) $(wildcard tests/common/*.c)
ITEST_BIN  := $(BUILD)/itest
# It reads the database itself (libpq) and replays stored games with the engine (libcore.a).
$(ITEST_BIN): $(ITEST_SRCS) $(wildcard tests/itest/*.h tests/common/*.h) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/itest -Itests/common -Icore -I/usr/include/postgresql $(ITEST_SRCS) $(CORE_LIB) \
		-lcurl -lcjson -lpq -lcrypto -lpthread -o $@

.PHONY: api api-san pg-start pg-stop test-itest test-itest-san
all: $(API_BIN)
api: $(API_BIN)
api-san: $(API_SAN_BIN)

pg-start:
	@scripts/pg-start.sh >/dev/null
pg-stop:
	@scripts/pg-stop.sh

# make run: packages, build, a throwaway PostgreSQL unless DATABASE_URL is set, serve.
run: deps $(API_BIN)
	@url="$${DATABASE_URL:-}"; \
	if [ -z "$$url" ]; then url=$$(scripts/pg-start.sh) || exit 1; fi; \
	echo "tilehall on http://127.0.0.1:$${PORT:-8080} (database $$url)" >&2; \
	DATABASE_URL="$$url" exec $(API_BIN)

# The integration tests start the server themselves against a fresh database; one test
# stops and restarts PostgreSQL (TILEHALL_PG_STOP/START) to see 503 and the reconnect.
ITEST_ENV = TILEHALL_PG_STOP="scripts/pg-stop.sh" TILEHALL_PG_START="scripts/pg-start.sh --fast >/dev/null"
ITEST_ENV += CREATE_LIMIT_PER_MINUTE=0 # the tests create many games; t_createlimit.c tests it
# Live updates and webhooks, quick for the tests: heartbeats every second, retries after
# 100 ms, and webhooks may reach the test's listener on 127.0.0.1.
ITEST_ENV += SSE_HEARTBEAT=1 WEBHOOK_ALLOW_PRIVATE=1 WEBHOOK_BACKOFF_MS=100 WEBHOOK_POLL_MS=100
# The plain run sends every request through the spec's validating proxy (mk/spec.mk), so
# any answer that breaks openapi.yaml fails its test.
ITEST_PROXY := $(if $(wildcard scripts/spec-proxy.sh),1,)
test-itest: $(API_BIN) $(ITEST_BIN) $(if $(ITEST_PROXY),spec-deps)
	@rm -f $(BUILD)/itest-server.log $(BUILD)/spec-proxy-itest.log
	@url=$$(scripts/pg-start.sh --fast --fresh tilehall_itest) && \
	$(ITEST_ENV) ITEST_SPEC_PROXY=$(ITEST_PROXY) ITEST_SERVER_LOG=$(BUILD)/itest-server.log TILEHALL_BIN=$(API_BIN) DATABASE_URL="$$url" $(ITEST_BIN)
test-itest-san: $(API_SAN_BIN) $(ITEST_BIN)
	@rm -f $(BUILD)/itest-server-san.log
	@url=$$(scripts/pg-start.sh --fast --fresh tilehall_itest_san) && \
	$(ITEST_ENV) ITEST_SERVER_LOG=$(BUILD)/itest-server-san.log ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
	TILEHALL_BIN=$(API_SAN_BIN) TILEHALL_SAN=1 DATABASE_URL="$$url" $(ITEST_BIN)

-include $(API_OBJS:.o=.d) $(API_SAN_OBJS:.o=.d)

# make bench-http: the HTTP benchmark (scripts/bench-http.sh): a throwaway PostgreSQL, the
# server, wrk loads of /healthz, a game's GET and whole turns; `make bench` runs it after
# the engine's benchmark.
.PHONY: bench-http
bench-http: $(API_BIN)
	scripts/bench-http.sh
bench: deps
	$(MAKE) --no-print-directory bench-engine
	$(MAKE) --no-print-directory bench-json
	$(MAKE) --no-print-directory bench-http
