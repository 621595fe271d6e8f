# web.mk: the reference web client (web/) in a real browser (tests/web/web.test.mjs): the
# real server serving web/ on a fresh database (tilehall_webclient), headless Chromium
# (Debian's chromium) driven by playwright-core: whole games against computer players in
# every ruleset, a two-person game through an invite link in two browser contexts (one on
# another origin, phone-sized), the files' types, ETag and traversal; and the ratings'
# views (tests/web/ratings-*.test.mjs, databases tilehall_webratings*: profile,
# leaderboard, computer players, seat ratings, a rated game refused; axe-core on each), and
# the game's chat panel (tests/web/chat.test.mjs, database tilehall_webchat: live, post,
# markup as text, long text, report, block; axe-core on the panel), the page around the
# board (tests/web/page-*.test.mjs, databases tilehall_web{words,exp,playnow,watch,tourney,
# lobby,phone_*}: the word tables, phones in every language, the expansions played, play now,
# watching, the lobby's open tables and games to watch, and a tournament created, joined and
# started with its pairing and standings), and
# the board (tests/web/board-*.test.mjs, databases tilehall_webboard*: the server's art in every
# ruleset, a keyboard-only game, touch, zoom and pan on a phone; axe-core on each).
# Screenshots go to build/web-artifacts/. About two minutes; a test gives up after 150 s.
#
#   make test-web   CHROMIUM=/path/to/chromium to use another build
#   make test-web WEB_JOBS=2   two test files at once (each with its server and database;
#                   the cluster is started first so that they do not both start it): 233 s
#                   against 254 s on 2 cores, where Chromium keeps both busy; one by default
WEB_JOBS ?= 1
.PHONY: test-web
test-web: $(API_BIN) $(NPM_STAMP)
	@command -v $${CHROMIUM:-/usr/bin/chromium} >/dev/null || \
		{ echo "test-web: chromium is missing: run 'make deps' as root" >&2; exit 1; }
	@scripts/pg-start.sh --fast tilehall_web >/dev/null
	$(SAN_ENV) TILEHALL_BIN=$(API_BIN) WEB_SERVER_LOG=$(BUILD)/web-server.log \
		WEB_ARTIFACTS=$(BUILD)/web-artifacts \
		node --test --test-concurrency=$(WEB_JOBS) --test-timeout=150000 tests/web/
