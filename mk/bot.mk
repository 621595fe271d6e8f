# bot.mk: examples/bot.sh, a shell bot (curl + jq) that plays whole games of every ruleset
# against the real server on a fresh database (tests/itest-bot.sh); its last line is
# "N passed, M failed".

.PHONY: test-bot
test-bot: $(API_BIN)
	@$(SAN_ENV) TILEHALL_BIN=$(API_BIN) BOT_SERVER_LOG=$(BUILD)/itest-bot-server.log tests/itest-bot.sh
