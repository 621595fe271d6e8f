-- paced.lua: a paced GET load (scripts/bench-leaderboard.sh): each connection waits
-- PACE_MS (the first argument after --, 20 unless given) after an answer before its next
-- request, so the offered load is about connections x 1000 / PACE_MS requests a second,
-- below what the server can do: the latency of a request that does not queue behind the
-- load itself. wrk's latency counts from the request's sending, the wait left out.
-- Prints wrk's summary as one line (as report.lua):
--   RESULT requests=N seconds=S rps=R p50_ms=A p99_ms=B non2xx=C errors=E

local pace = 20

function init(args)
    pace = tonumber(args[1]) or 20
end

function delay()
    return pace
end

function done(summary, latency, requests)
    local s = summary.duration / 1e6
    local e = summary.errors
    io.write(string.format(
        "RESULT requests=%d seconds=%.2f rps=%.0f p50_ms=%.3f p99_ms=%.3f non2xx=%d errors=%d\n",
        summary.requests, s, summary.requests / s, latency:percentile(50) / 1000,
        latency:percentile(99) / 1000, e.status, e.connect + e.read + e.write + e.timeout))
end
