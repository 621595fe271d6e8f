-- bench_lib.lua: what the wrk scripts of tests/bench share (each loads it with dofile from
-- its own folder, as wrk has no module path of its own): the one-line summary that
-- scripts/bench-*.sh read, the threads' counters, and a turn's two requests.
local lib = {}

-- The RESULT line's first fields (no newline):
--   RESULT requests=N seconds=S rps=R p50_ms=A p99_ms=B non2xx=C errors=E
-- and the run's seconds, for the caller's own rates.
function lib.result(summary, latency)
    local s = summary.duration / 1e6
    local e = summary.errors
    return string.format(
        "RESULT requests=%d seconds=%.2f rps=%.0f p50_ms=%.3f p99_ms=%.3f non2xx=%d errors=%d",
        summary.requests, s, summary.requests / s, latency:percentile(50) / 1000,
        latency:percentile(99) / 1000, e.status, e.connect + e.read + e.write + e.timeout), s
end

-- wrk's done(): the RESULT line alone (the plain GET loads).
function lib.done(summary, latency, requests)
    io.write(lib.result(summary, latency) .. "\n")
end

-- Threads: setup() numbers them (the global `index` of each thread's own Lua state) and
-- keeps them, so that done() can add up their global counters named in `names`.
local threads = {}

function lib.setup(thread)
    thread:set("index", #threads)
    table.insert(threads, thread)
end

function lib.sums(names)
    local sums = {}
    for _, name in ipairs(names) do sums[name] = 0 end
    for _, thread in ipairs(threads) do
        for _, name in ipairs(names) do sums[name] = sums[name] + thread:get(name) end
    end
    return sums
end

-- A turn's request for game g ({id, phase = "draw" | "place", body}) by the holder of token:
-- the draw, or the placement g.body.
function lib.turn_request(g, token)
    local auth = {Authorization = "Bearer " .. token}
    if g.phase == "draw" then
        return wrk.format("POST", "/v1/games/" .. g.id .. "/draw", auth, nil)
    end
    auth["Content-Type"] = "application/json"
    return wrk.format("POST", "/v1/games/" .. g.id .. "/placements", auth, g.body)
end

-- The placement body of the first placement a draw's answer lists, or nil when it lists
-- none (the game is over).
function lib.first_placement(body)
    local at = body:find('"placements":[{', 1, true)
    if not at then return nil end
    local x, y, r = body:match('^"placements":%[{"x":(%-?%d+),"y":(%-?%d+),"rotation":(%d+)', at)
    return string.format('{"x":%s,"y":%s,"rotation":%s}', x, y, r)
end

return lib
