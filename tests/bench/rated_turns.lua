-- rated_turns.lua: the turn load of scripts/bench-rated-turns.sh: whole games played to
-- their end, rated or not, so that the commits that end rated games (the ratings' update in
-- the ending transaction) are part of what is measured.
--
--   wrk -t N -c N -s tests/bench/rated_turns.lua URL -- PAIRS_FILE N RATED
--
-- PAIRS_FILE has one pair of players a line: "<player token A> <player token B>". Each wrk
-- thread has exactly one connection and one pair (line number = thread index), and plays one
-- game at a time: A creates it ({"player": "me"} and an open seat, a clock, "rated": RATED),
-- B joins the open seat with its player token, then they play in turn (draw, then place the
-- tile at the first placement the draw's answer lists; each seat acts with its player's
-- token) until game_finished, and a new game follows. A turn is committed when the draw
-- answered 200 and the placement 201. Rated or not, the games are the same but for "rated".
-- Prints: RESULT requests=... rps=... p50_ms=... p99_ms=... non2xx=... errors=...
--         turns=T turns_per_s=X ended=E created=C failed=F

-- The shared part (tests/bench/bench_lib.lua), found beside this script.
local lib = dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "bench_lib.lua")

setup = lib.setup

-- Per thread (each has its own Lua state) from here on.
local g = {phase = "create", seat = 0}
local tokens = {}
local rated = "false"
turns = 0   -- committed turns (read by done() through thread:get)
ended = 0   -- games played to their end
created = 0 -- games created
failed = 0  -- unexpected answers

function init(args)
    rated = args[3] == "true" and "true" or "false"
    local i = 0
    for line in io.lines(args[1]) do
        if i == index then
            for word in line:gmatch("%S+") do table.insert(tokens, word) end
        end
        i = i + 1
    end
end

function request()
    if g.phase == "create" then
        return wrk.format("POST", "/v1/games", {["Content-Type"] = "application/json",
            Authorization = "Bearer " .. tokens[1]},
            '{"rated":' .. rated .. ',"players":[{"player":"me"},{"open":true}],' ..
            '"clock":{"turn_seconds":86400}}')
    end
    if g.phase == "join" then
        return wrk.format("POST", "/v1/games/" .. g.id .. "/join", {["Content-Type"] =
            "application/json", Authorization = "Bearer " .. tokens[2]},
            '{"invite":"' .. g.invite .. '"}')
    end
    return lib.turn_request(g, tokens[g.seat + 1])
end

-- The answer each phase expects; any other counts as failed, and a new game follows (a
-- failed creation is tried again).
local expected = {create = 201, join = 200, draw = 200, place = 201}

function response(status, headers, body)
    if status ~= expected[g.phase] then
        failed = failed + 1
        g.phase = "create"
        return
    end
    if g.phase == "create" then
        g.id = body:match('"id":"([%x%-]+)"')
        g.invite = body:match('"invite":"([%w_%-]+)"')
        g.seat, g.phase = 0, "join"
        created = created + 1
    elseif g.phase == "join" then
        g.phase = "draw"
    elseif g.phase == "draw" then
        g.body = lib.first_placement(body)
        g.phase = "place"
        if not g.body then
            failed = failed + 1 -- a game ends with its last placement's game_finished
            g.phase = "create"
        end
    else
        turns = turns + 1
        g.seat = (g.seat + 1) % 2
        g.phase = "draw"
        if body:find('"type":"game_finished"', 1, true) then
            ended = ended + 1
            g.phase = "create"
        end
    end
end

function done(summary, latency, requests)
    local n = lib.sums({"turns", "ended", "created", "failed"})
    local line, s = lib.result(summary, latency)
    io.write(string.format("%s turns=%d turns_per_s=%.1f ended=%d created=%d failed=%d\n",
        line, n.turns, n.turns / s, n.ended, n.created, n.failed))
end
