-- report.lua: wrk's summary as one line that scripts/bench-http.sh reads:
--   RESULT requests=N seconds=S rps=R p50_ms=A p99_ms=B non2xx=C errors=E
-- Used for the plain GET loads (healthz, a game).

-- The shared part (tests/bench/bench_lib.lua), found beside this script.
local lib = dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "bench_lib.lua")

done = lib.done
