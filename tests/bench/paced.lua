-- paced.lua: a paced GET load (scripts/bench-leaderboard.sh): each connection waits
-- PACE_MS (the first argument after --, 20 unless given) after an answer before its next
-- request, so the offered load is about connections x 1000 / PACE_MS requests a second,
-- below what the server can do: the latency of a request that does not queue behind the
-- load itself. wrk's latency counts from the request's sending, the wait left out.
-- Prints wrk's summary as one line (as report.lua):
--   RESULT requests=N seconds=S rps=R p50_ms=A p99_ms=B non2xx=C errors=E

-- The shared part (tests/bench/bench_lib.lua), found beside this script.
local lib = dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "bench_lib.lua")

local pace = 20

function init(args)
    pace = tonumber(args[1]) or 20
end

function delay()
    return pace
end

done = lib.done
