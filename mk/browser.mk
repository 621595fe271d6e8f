# browser.mk: CORS in a real browser (tests/browser/cors.test.mjs): the real server on a
# fresh database (tilehall_browser), a page served from another origin, headless Chromium
# (Debian's chromium, see deps.mk) driven by playwright-core (package.json; it downloads no
# browser). Under a minute; gives up after 50 s.
#
#   make test-browser   CHROMIUM=/path/to/chromium to use another build
.PHONY: test-browser
test-browser: $(API_BIN) $(NPM_STAMP)
	@command -v $${CHROMIUM:-/usr/bin/chromium} >/dev/null || \
		{ echo "test-browser: chromium is missing: run 'make deps' as root" >&2; exit 1; }
	$(SAN_ENV) TILEHALL_BIN=$(API_BIN) BROWSER_SERVER_LOG=$(BUILD)/browser-server.log \
		node --test --test-timeout=55000 tests/browser/
