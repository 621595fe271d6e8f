# spec.mk: openapi.yaml, the HTTP contract: its lint, its consistency with the engine's
# names, and the validating proxy that integration tests send their requests through.
#
#   make test-spec     npm ci (when package-lock.json changed), then
#                      - redocly lint (redocly.yaml: recommended-strict and more, every
#                        problem an error; exceptions with reasons in .redocly.lint-ignore.yaml),
#                      - spectral lint (.spectral.yaml: the spectral:oas ruleset, every
#                        warning an error),
#                      - scripts/spec-check.js (every engine status name is an ErrorCode),
#                      - tests/spec/*.test.js (the validating proxy against a stub server).
#   make spec-deps     only the npm ci.
#
# Integration tests: after `make spec-deps`, run
#   read -r pid port < <($(SPEC_PROXY) 0 http://127.0.0.1:SERVER_PORT [LOGFILE])
# (0: a port the kernel gives; it prints "PID PORT") and send every request to
# http://127.0.0.1:$port; an answer that breaks openapi.yaml comes
# back as a 500 problem of type https://stoplight.io/prism/errors#VIOLATIONS (see the
# script's header) and adds a line "spec-proxy: VIOLATION ..." to LOGFILE: fail the run if
# `grep -q '^spec-proxy: VIOLATION' LOGFILE` finds one. Stop it with `kill $pid`.
# (tests/itest/itest.c does this; docs/internals.md, "The test suite", describes it.)

NODE_MODULES  := node_modules
NPM_STAMP     := $(NODE_MODULES)/.tilehall-npm-ci
REDOCLY       := $(NODE_MODULES)/.bin/redocly
SPECTRAL      := $(NODE_MODULES)/.bin/spectral
SPEC_PROXY    := scripts/spec-proxy.sh
# Redocly CLI would otherwise try to send usage data and look for updates on every run.
REDOCLY_ENV   := REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_NOTIFICATIONS=true \
                 REDOCLY_SUPPRESS_UPDATE_NOTICE=true

.PHONY: spec-deps test-spec spec-lint spec-check test-spec-proxy spec-types

# npm ci installs exactly what package-lock.json pins (and fails if package.json and the
# lock disagree). It runs again only when either changes.
$(NPM_STAMP): package.json package-lock.json
	@command -v npm >/dev/null || { echo "npm is missing: run 'make deps' as root" >&2; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

spec-deps: $(NPM_STAMP)

spec-lint: $(NPM_STAMP)
	$(REDOCLY_ENV) $(REDOCLY) lint --format=stylish openapi.yaml
	$(SPECTRAL) lint --quiet --fail-severity=warn --ruleset .spectral.yaml openapi.yaml
	@echo "spectral: openapi.yaml clean (spectral:oas)"

# make spec-types: the TypeScript types openapi-typescript generates from openapi.yaml
# (build/client/api.d.ts; its own lint off, tests/client/redocly.yaml: the spec's lint
# is spec-lint), checked by tsc against a small client (tests/client/client.ts: options
# narrowed by ruleset, /events typed as JSON alone, one follow-up at most ...).
SPEC_TYPES := $(BUILD_ROOT)/client/api.d.ts
spec-types: $(NPM_STAMP)
	@mkdir -p $(dir $(SPEC_TYPES))
	$(NODE_MODULES)/.bin/openapi-typescript openapi.yaml --redocly tests/client/redocly.yaml \
		-o $(SPEC_TYPES)
	$(NODE_MODULES)/.bin/tsc -p tests/client/tsconfig.json
	@echo "spec-types: the generated types check with tests/client/client.ts"

spec-check: $(NPM_STAMP)
	node scripts/spec-check.js

test-spec-proxy: $(NPM_STAMP)
	node --test tests/spec/

test-spec: spec-lint spec-check test-spec-proxy
