# api.mk: the service (api/), its integration tests (tests/itest/), `make run` and the
# throwaway PostgreSQL the two use.

# Every api/ source (folders under api/ included: api/ratings/ ...) but main.c goes into libapi.a: the
# server links it with main.o, the api unit tests (mk/apitest.mk) with their own main, and
# the linker takes from it only the modules each needs.
API_SRCS     := $(wildcard api/*.c api/*/*.c)
API_MAIN     := api/main.c
API_OBJS     := $(API_SRCS:%.c=$(BUILD)/obj/%.o)
API_LIB_OBJS := $(filter-out $(API_MAIN:%.c=$(BUILD)/obj/%.o),$(API_OBJS))
API_LIB      := $(BUILD)/libapi.a
API_BIN      := $(BUILD)/tilehall
# api/ is in folders by layer (docs/internals.md); headers are included by their bare name,
# so every folder is on the include path.
API_DIRS     := $(sort $(patsubst %/,%,$(dir $(wildcard api/*/*.h))))
API_INC      := -Iapi $(addprefix -I,$(API_DIRS))
API_CFLAGS    = $(API_INC) -Icore $(PKG_CFLAGS)

$(BUILD)/obj/api/%.o: api/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(API_CFLAGS) -MMD -MP -c $< -o $@

$(API_LIB): $(API_LIB_OBJS)
	rm -f $@ && ar rcs $@ $^
$(API_BIN): $(API_MAIN:%.c=$(BUILD)/obj/%.o) $(API_LIB) $(CORE_LIB)
	$(CC) $(ALL_CFLAGS) $^ $(PKG_LIBS) -o $@

# Integration tests: a plain C runner (libcurl + cJSON) that starts the real server. It
# reads the database itself (libpq) and replays stored games with the engine (libcore.a).
# It is a test driver, not under test: a sanitizer build runs the plain build's runner
# against its own server.
# A test is one function defined with ITEST(fn, "title") in any tests/itest/t_*.c (see
# tests/itest/tests.h): tests/itest/list.awk makes the table of them (files in name order,
# tests in file order), so a new test or a new file needs no other edit.
ITEST_FILES := $(sort $(wildcard tests/itest/t_*.c))
ITEST_LIST  := $(GEN_DIR)/itest_list.c
ITEST_SRCS  := $(wildcard tests/itest/*.c) $(wildcard tests/common/*.c)
ifeq ($(SANITIZE),)
ITEST_BIN  := $(BUILD)/itest
$(ITEST_LIST): $(ITEST_FILES) tests/itest/list.awk
	@mkdir -p $(dir $@)
	awk -f tests/itest/list.awk $(ITEST_FILES) > $@.tmp && mv $@.tmp $@
$(ITEST_BIN): $(ITEST_SRCS) $(ITEST_LIST) $(wildcard tests/itest/*.h tests/common/*.h) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/itest -Itests/common -Icore $(PKG_CFLAGS) $(ITEST_SRCS) \
		$(ITEST_LIST) $(CORE_LIB) $(PKG_LIBS) -o $@
else
ITEST_BIN  := $(BUILD_ROOT)/itest
$(ITEST_BIN): FORCE
	@$(MAKE_PLAIN) $@
endif

.PHONY: api pg-start pg-stop test-itest
all: $(API_BIN)
api: $(API_BIN)

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
# All the tests' clients are 127.0.0.1, dozens at once: no per-address connection limit
# (the attack tests of t_attack.c start servers with the default).
ITEST_ENV += MAX_CONNECTIONS_PER_IP=0
# Live updates and webhooks, quick for the tests: heartbeats every second, retries after
# 100 ms, and webhooks may reach the test's listener on 127.0.0.1.
ITEST_ENV += SSE_HEARTBEAT=1 WEBHOOK_ALLOW_PRIVATE=1 WEBHOOK_BACKOFF_MS=100 WEBHOOK_POLL_MS=100
# Chat apps' messages link the board under PUBLIC_URL (api/jobs/webhook_apps.c, t_chatapps.c).
ITEST_ENV += PUBLIC_URL=http://tiles.test
# The analysis of finished games at a small budget (t_analysis.c): seconds, not minutes,
# under the sanitizers too.
ITEST_ENV += ANALYSIS_ITERATIONS=20 ANALYSIS_DEALS=4
# The plain run sends every request through the spec's validating proxy (mk/spec.mk), so
# any answer that breaks openapi.yaml fails its test; the sanitizer runs go direct.
ITEST_PROXY := $(if $(SANITIZE),,1)
# Each variant has its own database and server log: build/itest-server.log,
# build/address/itest-server.log, build/thread/itest-server.log. The ThreadSanitizer run
# fails on any report file a server left (see TSAN_LOG in the Makefile), whatever the
# tests said.
# The tests run in ITEST_JOBS (2) workers, each with a server and a database of its own
# (ITEST_DB, then ITEST_DB_2 ...: ITEST_DATABASE_URL_2 ...), the next test going to the
# first worker free; the tests that stop or restart PostgreSQL (ITEST_SOLO) run before,
# alone. Worker N's logs end in .wN (build/itest-server.log.w2 ...). ITEST_JOBS=1: one
# server, the tests in file order. Whatever the run leaves running (a runner that crashed
# leaves its servers and proxies) is killed after it, or when make is interrupted:
# scripts/reap-marked.sh, by the marker TILEHALL_ITEST_RUN that they inherit.
ITEST_DB   := tilehall_itest$(if $(SANITIZE),_$(SANITIZE))
ITEST_JOBS ?= 2
test-itest: $(API_BIN) $(ITEST_BIN) $(if $(ITEST_PROXY),spec-deps)
	@rm -f $(BUILD)/itest-server.log* $(BUILD)/spec-proxy-itest.log* $(if $(TSAN_LOG),$(TSAN_LOG).*)
	@url=$$(scripts/pg-start.sh --fast --fresh $(ITEST_DB)) || exit 1; status=0; \
	run=itest-$$$$-$$(date +%s%N); \
	trap 'scripts/reap-marked.sh TILEHALL_ITEST_RUN "$$run"; exit 130' INT TERM; \
	for k in $$(seq 2 $(ITEST_JOBS)); do \
		u=$$(scripts/pg-start.sh --fast --fresh $(ITEST_DB)_$$k) || exit 1; \
		export ITEST_DATABASE_URL_$$k="$$u"; \
	done; \
	$(ITEST_ENV) $(SAN_ENV) $(if $(SANITIZE),TILEHALL_SAN=$(SANITIZE)) ITEST_JOBS=$(ITEST_JOBS) \
		$(if $(ITEST_PROXY),ITEST_SPEC_PROXY=1 ITEST_PROXY_LOG=$(BUILD)/spec-proxy-itest.log) \
		ITEST_SERVER_LOG=$(BUILD)/itest-server.log \
		TILEHALL_BIN=$(API_BIN) DATABASE_URL="$$url" TILEHALL_ITEST_RUN="$$run" $(SAN_RUN) $(ITEST_BIN) $(if $(ITEST_FILTER),"$(ITEST_FILTER)") || status=$$?; \
	scripts/reap-marked.sh TILEHALL_ITEST_RUN "$$run"; \
	$(if $(TSAN_LOG),if ls $(TSAN_LOG).* >/dev/null 2>&1; then cat $(TSAN_LOG).*; \
		echo "FAIL ThreadSanitizer reports: $$(ls $(TSAN_LOG).* | tr '\n' ' ')"; status=1; \
	else echo "ok   no ThreadSanitizer report"; fi;) exit $$status

# make test-itest-all (a stage of make test): the three runs above (AddressSanitizer,
# ThreadSanitizer, plain through the spec proxy) at once, each on a cluster of its own
# (scripts/itest-all.sh), the three servers and the test runner built first, one after
# another (the sanitizer runs' make would otherwise build the runner three times at once).
.PHONY: test-itest-all
test-itest-all:
	@$(MAKE_PLAIN) $(stage_jobs) $(BUILD_ROOT)/tilehall $(BUILD_ROOT)/itest spec-deps
	@$(MAKE_ADDRESS) $(stage_jobs) $(BUILD_ROOT)/address/tilehall
	@$(MAKE_THREAD) $(stage_jobs) $(BUILD_ROOT)/thread/tilehall
	@BUILD_ROOT=$(BUILD_ROOT) MAKE="$(MAKE)" scripts/itest-all.sh

# make test-webhook-std: deliveries checked by the `standardwebhooks` npm library's own
# verifier (tests/webhook/std.test.js: the real server on a fresh database, a receiver on
# 127.0.0.1, a game with two webhooks, a turn, a retry).
.PHONY: test-webhook-std
test-webhook-std: $(API_BIN) spec-deps
	@$(SAN_ENV) TILEHALL_BIN=$(API_BIN) STDWH_SERVER_LOG=$(BUILD)/webhook-std-server.log \
		node --test tests/webhook/

-include $(API_OBJS:.o=.d)

# make bench-http: the HTTP benchmark (scripts/bench-http.sh): a throwaway PostgreSQL, the
# server, wrk loads of /healthz, a game's GET and whole turns; `make bench` runs it after
# the engine's, the body decoder's and the board.png benchmarks.
# make bench-inbox: "my games" (scripts/bench-inbox.sh): 100,000 games, one player holding
# 1,000 of them, p50/p99 of its list over HTTP (target: p99 under 5 ms).
# make bench-retention: retention (scripts/bench-retention.sh; not in make bench, it takes
# about half an hour on 2 cores): the size of a finished game of each ruleset (rows and
# bytes), 100,000 old finished games deleted by a second server while the first plays
# turns, the committed turn rate without and during the deletion, and how long it took.
# make backup-check: a pg_dump restored into a new database is the whole service's state
# (scripts/backup-check.sh: the same game and ETag, tokens, an idempotent answer, a player's
# list and a webhook after the restore; docs/operations.md).
# make bench-seeks: play now under load (scripts/bench-seeks.sh; not in make test, about two
# minutes): 1,000 players seeking at once on two servers in groups of 2 to 4, p50/p95 from a
# game's last seek to its game reaching the seekers, CPU per game made, and the committed
# turns/s of other games during a seek round against a run without one.
# Each of the five runs its script, scripts/NAME.sh, once the server is built.
API_SCRIPTS := bench-http bench-inbox bench-retention backup-check bench-seeks
.PHONY: $(API_SCRIPTS)
$(API_SCRIPTS): $(API_BIN)
	scripts/$@.sh

# make test-reconnect: the long form of the reconnect test (tests/itest/t_reconnect.c; not in
# make test, which restarts PostgreSQL 5 times in each of its three integration runs):
# 20 restarts under load, the plain server on its own (about 70 s).
.PHONY: test-reconnect
test-reconnect:
	RECONNECT_RESTARTS=$${RECONNECT_RESTARTS:-20} $(MAKE_PLAIN) test-itest ITEST_PROXY= \
		ITEST_FILTER="PostgreSQL restarted"

# make bench-clocks: the long-form measurement of clocks (issue 12; not in make test): 50
# games nobody plays, 250 timeouts, how late after each deadline the server acted (p50/p99),
# the integration test test_clocks_bench on a fresh database.
.PHONY: bench-clocks
bench-clocks:
	CLOCKS_BENCH=1 $(MAKE_PLAIN) test-itest ITEST_PROXY= ITEST_FILTER=clocks_bench
# make bench-ratings: the calibration of the ratings (tests/bench/ratings_bench.c over
# api/ratings/calibration.c): 2,000 players with hidden strengths, 50,000 rated 2- and
# 4-seat games through the production update; Spearman of hidden and estimated strength,
# predicted against observed by decile, the 4-seat order against chance. A few seconds;
# tests/api/ratings_test.c runs a short form in test-api-unit. Then the leaderboard's HTTP
# latency (scripts/bench-leaderboard.sh): 1,000,000 rating rows loaded with generate_series
# into a throwaway PostgreSQL, p50/p99 of GET /v1/leaderboards/{pool} (first page, a deep
# cursor, with bots) under wrk, with the server's page cache and without it (target: p99
# under 20 ms as shipped; about two minutes). Then committed turns with ratings on
# (scripts/bench-rated-turns.sh): whole games played to their end, alternating runs of
# unrated and rated games in one server (ABBA rounds), turns/s of each and their ratio
# (about a minute).
BENCH_RATINGS_BIN := $(BUILD)/bench-ratings
$(BENCH_RATINGS_BIN): tests/bench/ratings_bench.c $(API_LIB) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(API_INC) -Icore tests/bench/ratings_bench.c $(API_LIB) $(CORE_LIB) -lm -o $@
.PHONY: bench-ratings
bench-ratings: $(BENCH_RATINGS_BIN) $(API_BIN)
	$(BENCH_RATINGS_BIN)
	scripts/bench-leaderboard.sh
	scripts/bench-rated-turns.sh

# make bench-tournament (scripts/bench-tournament.sh; not in make test): a swiss of 128
# players over 7 rounds through the HTTP API on two servers, then a knockout of its top 8,
# every game played move by move by the server's computer player for the seat to move; the
# wall times, each round change's time from the last game to the next pairing (target:
# under 1 s), and the invariants.
.PHONY: bench-tournament
bench-tournament: $(API_BIN)
	scripts/bench-tournament.sh

bench: deps
	$(MAKE_PLAIN) bench-engine
	$(MAKE_PLAIN) bench-json
	$(MAKE_PLAIN) bench-png
	$(MAKE_PLAIN) bench-http
	$(MAKE_PLAIN) bench-inbox
