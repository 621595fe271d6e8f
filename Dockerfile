# tilehall: build on Debian 12, run on Debian 12 slim with the runtime libraries only: the
# server, its migrations, openapi.yaml and the web client (web/, served at /).
# docker build -t tilehall . && docker run -e DATABASE_URL=postgresql://... -p 8080:8080 tilehall
# (or buildah bud -t tilehall . ; `make test-image` builds it with buildah and tries it).

FROM debian:bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
        build-essential pkg-config libmicrohttpd-dev libcjson-dev libpq-dev libssl-dev \
        libcurl4-openssl-dev librsvg2-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Makefile ./
COPY mk/ mk/
COPY core/ core/
COPY tools/ tools/
COPY api/ api/
RUN make -j"$(nproc)" api

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
        libmicrohttpd12 libcjson1 libpq5 libssl3 libcurl4 librsvg2-2 fonts-dejavu-core \
        ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --no-create-home --uid 10001 tilehall \
 && install -d -o tilehall -g tilehall -m 700 /var/cache/tilehall
WORKDIR /app
COPY --from=build /src/build/tilehall /app/tilehall
COPY migrations/ /app/migrations/
COPY openapi.yaml /app/openapi.yaml
COPY web/ /app/web/
# The user has no home: fontconfig (board.png's text, through librsvg) keeps its cache in
# XDG_CACHE_HOME, else every drawing logs "Fontconfig error: No writable cache directories".
ENV PORT=8080 THREADS=4 LOG_LEVEL=info \
    MIGRATIONS_DIR=/app/migrations OPENAPI_FILE=/app/openapi.yaml WEB_DIR=/app/web \
    XDG_CACHE_HOME=/var/cache/tilehall
USER tilehall
EXPOSE 8080
STOPSIGNAL SIGTERM
CMD ["/app/tilehall"]
