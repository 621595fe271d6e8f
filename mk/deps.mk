# deps.mk: the Debian packages the project needs, installed when run as root.

DEB_PACKAGES := build-essential clang libclang-rt-14-dev clang-format pkg-config \
	libmicrohttpd-dev libcjson-dev libpq-dev libcriterion-dev libcurl4-openssl-dev \
	libssl-dev postgresql postgresql-contrib wrk jq curl nodejs npm libxml2-utils \
	chromium librsvg2-dev fonts-dejavu-core postgresql-15-auto-failover

deps:
	@scripts/install-deps.sh $(DEB_PACKAGES)
