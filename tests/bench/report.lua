-- report.lua: wrk's summary as one line that scripts/bench-http.sh reads:
--   RESULT requests=N seconds=S rps=R p50_ms=A p99_ms=B non2xx=C errors=E
-- Used for the plain GET loads (healthz, a game).

function done(summary, latency, requests)
    local s = summary.duration / 1e6
    local e = summary.errors
    io.write(string.format(
        "RESULT requests=%d seconds=%.2f rps=%.0f p50_ms=%.3f p99_ms=%.3f non2xx=%d errors=%d\n",
        summary.requests, s, summary.requests / s, latency:percentile(50) / 1000,
        latency:percentile(99) / 1000, e.status, e.connect + e.read + e.write + e.timeout))
end
