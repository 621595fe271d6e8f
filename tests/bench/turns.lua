-- turns.lua: the turn load of `make bench-http` (scripts/bench-http.sh).
--
--   wrk -t N -c N -s tests/bench/turns.lua URL -- GAMES_FILE N
--
-- GAMES_FILE has one game a line: "<id> <token of seat 0> <token of seat 1> ...", created
-- beforehand. Each wrk thread has exactly one connection (so that a response belongs to the
-- request before it) and plays its own share of the games (every N-th line) in turn: draw,
-- then place the tile at the first placement the draw's answer lists, then the next game.
-- A turn is committed when the draw answered 200 and the placement 201. A game that ends is
-- replaced by a new one (POST /v1/games) on the same connection.
-- Prints: RESULT requests=... rps=... p50_ms=... p99_ms=... non2xx=... errors=...
--         turns=T turns_per_s=X created=C failed=F

-- The shared part (tests/bench/bench_lib.lua), found beside this script.
local lib = dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "bench_lib.lua")

setup = lib.setup

-- Per thread (each has its own Lua state) from here on.
local games = {}   -- {id, tokens = {...}, seat, phase = "draw" | "place" | "create", body}
local cur = 1      -- the game whose turn this connection plays next
turns = 0          -- committed turns (read by done() through thread:get)
created = 0        -- games created to replace finished ones
failed = 0         -- unexpected answers

local NEW_GAME = '{"ruleset":"classic","players":[{"name":"Ann"},{"name":"Bob"}]}'

function init(args)
    local n = tonumber(args[2])
    local i = 0
    for line in io.lines(args[1]) do
        if i % n == index then
            local g = {tokens = {}, seat = 0, phase = "draw"}
            for word in line:gmatch("%S+") do
                if not g.id then g.id = word else table.insert(g.tokens, word) end
            end
            table.insert(games, g)
        end
        i = i + 1
    end
    if #games == 0 then
        table.insert(games, {tokens = {}, seat = 0, phase = "create"})
    end
end

function request()
    local g = games[cur]
    if g.phase == "create" then
        return wrk.format("POST", "/v1/games", {["Content-Type"] = "application/json"}, NEW_GAME)
    end
    return lib.turn_request(g, g.tokens[g.seat + 1])
end

local function next_game()
    cur = cur % #games + 1
end

function response(status, headers, body)
    local g = games[cur]
    if g.phase == "create" then
        if status ~= 201 then
            failed = failed + 1
            return
        end
        g.id = body:match('"id":"([%x%-]+)"')
        g.tokens = {}
        for t in body:gmatch('"token":"([%w_%-]+)"') do table.insert(g.tokens, t) end
        g.seat, g.phase = 0, "draw"
        created = created + 1
    elseif g.phase == "draw" then
        if status ~= 200 then
            failed = failed + 1
            next_game()
            return
        end
        g.body = lib.first_placement(body)
        if not g.body then
            g.phase = "create" -- the pile ran out: the game is over
            return
        end
        g.phase = "place"
    else
        if status ~= 201 then
            failed = failed + 1
            next_game()
            return
        end
        turns = turns + 1
        g.seat = (g.seat + 1) % #g.tokens
        g.phase = "draw"
        if body:find('"type":"game_finished"', 1, true) then g.phase = "create" end
        next_game()
    end
end

function done(summary, latency, requests)
    local n = lib.sums({"turns", "created", "failed"})
    local line, s = lib.result(summary, latency)
    io.write(string.format("%s turns=%d turns_per_s=%.0f created=%d failed=%d\n", line,
        n.turns, n.turns / s, n.created, n.failed))
end
