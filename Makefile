# tilehall: a Carcassonne-family rules server. `make run` and `make test` do all the set-up.
# Each part of the build lives in its own file under mk/; this file ties them together.

CC       ?= cc
BUILD    ?= build
OPT      ?= -O2
CSTD     := -std=c11 -D_DEFAULT_SOURCE
WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wvla
CFLAGS   ?= $(OPT) -g
ALL_CFLAGS = $(CSTD) $(WARN) $(CFLAGS) $(EXTRA_CFLAGS)
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

.PHONY: all run test bench lint format clean deps
all:

include mk/deps.mk
include mk/core.mk
-include mk/api.mk
-include mk/spec.mk
-include mk/apitest.mk
-include mk/bot.mk
-include mk/soak.mk
-include mk/benchjson.mk
include mk/fuzz.mk

# make test: the whole suite from a fresh machine: packages (as root), the format and SQL
# checks (lint-c), builds, a throwaway PostgreSQL, the spec checks, the service's and the engine's unit tests (plain and
# ASan+UBSan), the integration tests against the ASan+UBSan server and against the normal
# server, a short soak (mk/soak.mk), and last whole games played by examples/bot.sh (its
# summary line "N passed, 0 failed" ends the output).
test: deps
	$(MAKE) --no-print-directory lint-c
	@if $(MAKE) -n test-spec >/dev/null 2>&1; then $(MAKE) --no-print-directory test-spec; fi
	@if $(MAKE) -n test-fuzz >/dev/null 2>&1; then $(MAKE) --no-print-directory test-fuzz; fi
	$(MAKE) --no-print-directory test-api-unit
	$(MAKE) --no-print-directory test-unit
	$(MAKE) --no-print-directory test-unit-san
	$(MAKE) --no-print-directory test-itest-san
	$(MAKE) --no-print-directory test-itest
	$(MAKE) --no-print-directory test-soak
	$(MAKE) --no-print-directory test-bot

clean:
	rm -rf $(BUILD)

# make format: clang-format (the repo's .clang-format) over every C file in place.
# make lint: the same as a check (nothing changed, every difference an error), the SQL
# check (only parameterised statements reach libpq) and the spec's lint.
C_FILES = $(shell git ls-files '*.c' '*.h' 2>/dev/null)
.PHONY: lint-c
format:
	clang-format -i $(C_FILES)
lint-c:
	@clang-format --dry-run --Werror $(C_FILES)
	@echo "lint-c: $(words $(C_FILES)) C files as .clang-format says"
	@node scripts/check-sql.js
lint: lint-c
	@if $(MAKE) -n spec-lint >/dev/null 2>&1; then $(MAKE) --no-print-directory spec-lint; fi
