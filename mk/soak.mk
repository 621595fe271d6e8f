# soak.mk: a sustained mixed load against two servers on one database (scripts/soak.sh,
# tests/soak/soak.c): `make soak` runs it for SOAK_SECONDS (60), `make test-soak` for 5 s;
# both print requests, answers and errors by kind, and latency percentiles (p99 ...).

SOAK_BIN := $(BUILD)/soak
SOAK_SRCS := tests/soak/soak.c $(wildcard tests/common/*.c)
$(SOAK_BIN): $(SOAK_SRCS) $(wildcard tests/common/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -Itests/common $(PKG_CFLAGS) $(SOAK_SRCS) $(PKG_LIBS) -o $@

.PHONY: soak test-soak
soak: $(API_BIN) $(SOAK_BIN)
	$(SAN_ENV) TILEHALL_BIN=$(API_BIN) SOAK_BIN=$(SOAK_BIN) scripts/soak.sh
test-soak: $(API_BIN) $(SOAK_BIN)
	@$(SAN_ENV) TILEHALL_BIN=$(API_BIN) SOAK_BIN=$(SOAK_BIN) SOAK_SECONDS=$${SOAK_SECONDS:-5} \
		SOAK_CLIENTS=$${SOAK_CLIENTS:-16} scripts/soak.sh
