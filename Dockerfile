# tilehall: build on Debian 12, run on Debian 12 slim with the runtime libraries only.
# docker build -t tilehall . && docker run -e DATABASE_URL=postgresql://... -p 8080:8080 tilehall

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
 && useradd --system --no-create-home --uid 10001 tilehall
WORKDIR /app
COPY --from=build /src/build/tilehall /app/tilehall
COPY migrations/ /app/migrations/
COPY openapi.yaml /app/openapi.yaml
ENV PORT=8080 THREADS=4 LOG_LEVEL=info \
    MIGRATIONS_DIR=/app/migrations OPENAPI_FILE=/app/openapi.yaml
USER tilehall
EXPOSE 8080
STOPSIGNAL SIGTERM
CMD ["/app/tilehall"]
