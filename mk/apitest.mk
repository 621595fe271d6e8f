# apitest.mk: unit tests of the service's modules (tests/api/, Criterion), built with the
# engine and the random player of tests/unit/; `make test` runs them plain and with
# ASan+UBSan (test-api-unit-san). They link libapi.a (every api module but main.c, see
# mk/api.mk), from which the linker takes only the modules the tests call: a new test of
# a new module needs no edit here.
# The tests check documents with xmllint (libxml2-utils, in mk/deps.mk).

APITEST_SRCS    := $(wildcard tests/api/*.c)
APITEST_DEPS    := $(APITEST_SRCS) $(RANDPLAY) $(wildcard tests/api/*.h tests/unit/*.h)
APITEST_BIN     := $(BUILD)/api-unit-tests
APITEST_FLAGS    = $(API_INC) -Icore -Itests/unit -Itests/api $(PKG_CFLAGS)

$(APITEST_BIN): $(APITEST_DEPS) $(API_LIB) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(APITEST_FLAGS) $(APITEST_SRCS) $(RANDPLAY) $(API_LIB) $(CORE_LIB) \
		$(PKG_LIBS) -lcriterion -o $@

.PHONY: test-api-unit
test-api-unit: $(APITEST_BIN)
	$(SAN_ENV) $(SAN_RUN) $(APITEST_BIN) --jobs=2

# make test-api-db: the store's ratings against a real PostgreSQL (tests/apidb/, Criterion,
# linked with libapi.a): a fresh database of the throwaway cluster, migrated by the test.
APIDB_SRCS := $(wildcard tests/apidb/*.c)
APIDB_BIN  := $(BUILD)/api-db-tests
$(APIDB_BIN): $(APIDB_SRCS) $(API_LIB) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(APITEST_FLAGS) $(APIDB_SRCS) $(API_LIB) $(CORE_LIB) \
		$(PKG_LIBS) -lcriterion -o $@

.PHONY: test-api-db
test-api-db: $(APIDB_BIN)
	@url=$$(scripts/pg-start.sh --fast --fresh tilehall_apidb$(if $(SANITIZE),_$(SANITIZE))) || exit 1; \
	DATABASE_URL="$$url" $(SAN_ENV) $(SAN_RUN) $(APIDB_BIN) --jobs=1
