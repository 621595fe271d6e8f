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

# make test-ha: failover by a failover manager (scripts/ha-failover.sh): a pg_auto_failover
# monitor and two nodes (Debian's postgresql-15-auto-failover) on Unix sockets in a folder
# under /tmp, two servers on the multi-host URL, the load of tests/failover/load.js, the
# primary node killed (-9), the standby promoted by the monitor, the check of
# tests/failover/check.js and the first 2xx within HA_FIRST_2XX_MS (15 s) of the kill.
#   make test-ha             one round (about a minute; in make test)
#   make test-ha ROUNDS=10   ten rounds, the dead node back as the standby before each next
.PHONY: test-ha
test-ha: $(API_BIN)
	@TILEHALL_BIN=$(API_BIN) HA_ROUNDS=$(or $(ROUNDS),$${HA_ROUNDS:-1}) scripts/ha-failover.sh
