# tilehall: a Carcassonne-family rules server. `make run` and `make test` do all the set-up.
# Each part of the build lives in its own file under mk/; this file ties them together.
#
# One set of rules builds every variant (Redis's pattern): SANITIZE= picks the
# instrumentation, BUILD= the folder its objects and programs go to, so variants never
# share an object.
#   make                      the plain build in build/ (build/tilehall, build/libcore.a ...)
#   make SANITIZE=address     ASan+UBSan in build/address/ (build/address/tilehall ...)
#   make SANITIZE=thread      ThreadSanitizer in build/thread/
# BUILD_ROOT (build) holds them all; BUILD defaults to BUILD_ROOT/SANITIZE.

CC         ?= cc
SANITIZE   ?=
BUILD_ROOT ?= build
BUILD      ?= $(BUILD_ROOT)$(if $(SANITIZE),/$(SANITIZE))
OPT        ?= -O2
CSTD       := -std=c11 -D_DEFAULT_SOURCE
WARN       := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wvla
CFLAGS     ?= $(OPT) -g

# SAN_FLAGS go to every compile and link of the build; SAN_ENV before every run of its
# programs (the unit tests and the servers of the integration tests).
ifeq ($(SANITIZE),)
SAN_FLAGS :=
SAN_ENV   :=
else ifeq ($(SANITIZE),address)
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# tests/lsan.supp: leaks kept on purpose inside libraries (fontconfig), each explained there.
# handle_abort: an abort() (an assertion, a library's panic) prints its stack to the log too.
SAN_ENV   := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:handle_abort=1 UBSAN_OPTIONS=print_stacktrace=1 \
             LSAN_OPTIONS=suppressions=$(abspath tests/lsan.supp)
else ifeq ($(SANITIZE),thread)
# Every report goes to $(BUILD)/tsan.PID as well as making the process exit 66 at its end
# (the itest runner fails on a server's nonzero exit status; test-itest fails on any such
# file). tests/tsan.supp holds only reports verified to lie inside uninstrumented libraries.
SAN_FLAGS := -fsanitize=thread -fno-omit-frame-pointer
TSAN_LOG   = $(BUILD)/tsan
SAN_ENV    = TSAN_OPTIONS="halt_on_error=0 exitcode=66 second_deadlock_stack=1 history_size=4 \
             log_path=$(abspath $(TSAN_LOG)) suppressions=$(abspath tests/tsan.supp)"
# The ThreadSanitizer of GCC 12 and clang 14 maps its shadow memory at fixed places and
# dies ("unexpected memory mapping") when the kernel randomises mmap with more than 28
# bits (vm.mmap_rnd_bits 32 on some newer kernels): there SAN_RUN runs the program with
# address randomisation off (setarch -R, inherited by the servers the itest runner starts).
SAN_RUN    = $$(if [ "$$(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo 0)" -gt 28 ]; \
             then echo setarch $$(uname -m) -R; fi)
else
$(error SANITIZE=$(SANITIZE): use SANITIZE=address, SANITIZE=thread or none)
endif
ALL_CFLAGS  = $(CSTD) $(WARN) $(CFLAGS) $(SAN_FLAGS) $(EXTRA_CFLAGS)
# Build tools and test drivers that run on the side (tilegen) get no instrumentation.
HOST_CFLAGS = $(CSTD) $(WARN) $(CFLAGS) $(EXTRA_CFLAGS)

# The libraries the service and its tests use, as pkg-config knows them (asked once, when
# first needed, so `make deps` can install pkg-config first).
PKGS        := libmicrohttpd libcjson libpq libcurl libcrypto librsvg-2.0
pkgconf      = $(if $(filter PKG_CONFIG_FAILED,$(1)),$(error pkg-config does not know all of \
               $(PKGS): run `make deps` as root),$(1))
PKG_CFLAGS   = $(eval PKG_CFLAGS := $(call pkgconf,$(shell pkg-config --cflags $(PKGS) \
               2>/dev/null || echo PKG_CONFIG_FAILED)))$(PKG_CFLAGS)
PKG_LIBS     = $(eval PKG_LIBS := $(call pkgconf,$(shell pkg-config --libs $(PKGS) \
               2>/dev/null || echo PKG_CONFIG_FAILED)) -lpthread)$(PKG_LIBS)

# Sub-makes of one variant, each in its own folder whatever SANITIZE/BUILD this make has.
MAKE_PLAIN   = $(MAKE) --no-print-directory SANITIZE= BUILD=$(BUILD_ROOT)
MAKE_ADDRESS = $(MAKE) --no-print-directory SANITIZE=address BUILD=$(BUILD_ROOT)/address
MAKE_THREAD  = $(MAKE) --no-print-directory SANITIZE=thread BUILD=$(BUILD_ROOT)/thread

.PHONY: all run test bench lint format clean deps FORCE
all:

include mk/deps.mk
include mk/core.mk
include mk/ai.mk
include mk/api.mk
include mk/spec.mk
include mk/apitest.mk
include mk/bot.mk
include mk/browser.mk
include mk/web.mk
include mk/image.mk
include mk/soak.mk
include mk/failover.mk
include mk/benchjson.mk
include mk/benchpng.mk
include mk/fuzz.mk

# make test: the whole suite from a fresh machine: packages (as root), the format, SQL and
# include checks (lint-c), the spec checks, short fuzz runs, then builds, a throwaway
# PostgreSQL, the service's and the engine's unit tests (plain and ASan+UBSan), the
# integration tests against the ASan+UBSan server, the ThreadSanitizer server and the
# normal server (through the spec proxy), deliveries checked by the Standard Webhooks
# library (test-webhook-std), CORS in headless Chromium (mk/browser.mk), a short soak
# (mk/soak.mk), a failover to a synchronous standby with its negative control
# (mk/failover.mk), a failover by pg_auto_failover (test-ha, one round, mk/failover.mk),
# and last whole games played by examples/bot.sh. Each stage is timed
# (scripts/stage.sh): "stage NAME: 12.3 s" after it, and a table of every stage's time
# and the total at the end (also when a stage failed), kept in build/test-stages.txt.
TEST_STAGES = $(BUILD_ROOT)/test-stages.txt
# The stages in order: a target, with @address or @thread for that sanitizer's variant (the
# plain build otherwise); named "target" or "target (variant)" in the times.
TEST_STAGE_LIST = lint-c test-spec test-fuzz test-api-unit test-api-unit@address test-api-db \
                  test-unit test-unit@address test-itest-all \
                  test-webhook-std test-browser test-web test-soak test-failover test-ha test-bot
stage_target  = $(firstword $(subst @, ,$(1)))
stage_variant = $(word 2,$(subst @, ,$(1)))
# Each stage's make builds what it needs with TEST_JOBS (2) compilers at once (CI runs a
# plain `make test`, which would otherwise compile the three variants, the fuzzers and the
# tests one file at a time), unless this make was given -j itself (its job slots then go
# to the stages).
TEST_JOBS    ?= 2
stage_jobs    = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(TEST_JOBS))
stage_make    = $(if $(filter address,$(1)),$(MAKE_ADDRESS),$(if $(filter thread,$(1)),$(MAKE_THREAD),$(MAKE_PLAIN))) $(stage_jobs)
# One stage (scripts/stage.sh run), stopping `make test` when it fails.
test_stage    = scripts/stage.sh run $(TEST_STAGES) "$(call stage_target,$(1))$(if \
                $(call stage_variant,$(1)), ($(call stage_variant,$(1))))" \
                $(call stage_make,$(call stage_variant,$(1))) $(call stage_target,$(1))
test: deps
	@scripts/stage.sh begin $(TEST_STAGES)
	@$(foreach s,$(TEST_STAGE_LIST),$(call test_stage,$(s)) &&) true
	@scripts/stage.sh end $(TEST_STAGES)

# The sanitizer variants under their old names.
.PHONY: test-unit-san test-api-unit-san test-itest-san test-itest-tsan api-san api-tsan
test-unit-san:
	$(MAKE_ADDRESS) test-unit
test-api-unit-san:
	$(MAKE_ADDRESS) test-api-unit
test-itest-san:
	$(MAKE_ADDRESS) test-itest
test-itest-tsan:
	$(MAKE_THREAD) test-itest
api-san:
	$(MAKE_ADDRESS) api
api-tsan:
	$(MAKE_THREAD) api

clean:
	rm -rf $(BUILD_ROOT) $(BUILD)

# make format: clang-format (the repo's .clang-format) over every C file in place.
# make lint-c: the same as a check (nothing changed, every difference an error), the SQL
# check (only parameterised statements reach libpq) and scripts/check-c.js (no banned
# function, the engine without I/O, libpq and libmicrohttpd each behind its own files);
# make lint adds the spec's lint (Redocly, Spectral) and the generated client types
# (spec-types).
C_FILES = $(shell git ls-files '*.c' '*.h' 2>/dev/null)
.PHONY: lint-c
format:
	clang-format -i $(C_FILES)
lint-c:
	@clang-format --dry-run --Werror $(C_FILES)
	@echo "lint-c: $(words $(C_FILES)) C files as .clang-format says"
	@node scripts/check-sql.js
	@node scripts/check-c.js
lint: lint-c spec-lint spec-types
