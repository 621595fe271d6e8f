# failover.mk: failover to a PostgreSQL standby with nothing acknowledged lost
# (scripts/failover.sh, tests/failover/load.js and check.js): a primary with a synchronous
# standby on this machine, two servers on a multi-host DATABASE_URL, kill -9 of the
# primary under load, promotion, and the check on the new primary; then the negative
# control with asynchronous replication, where the same checker must find lost moves.
#   make test-failover   one failover and one control (about a minute; in make test)
#   make failover        ten failovers and one control, with p50/max of kill -> first 2xx

.PHONY: failover test-failover
test-failover: $(API_BIN)
	@TILEHALL_BIN=$(API_BIN) FAILOVER_ROUNDS=$${FAILOVER_ROUNDS:-1} \
		FAILOVER_CONTROL=$${FAILOVER_CONTROL:-1} scripts/failover.sh
failover: $(API_BIN)
	@TILEHALL_BIN=$(API_BIN) FAILOVER_ROUNDS=$${FAILOVER_ROUNDS:-10} \
		FAILOVER_CONTROL=$${FAILOVER_CONTROL:-1} scripts/failover.sh
