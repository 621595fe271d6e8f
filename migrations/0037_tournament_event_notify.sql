-- 0037_tournament_event_notify.sql: a tournament's events wake its long polls and streams
-- (GET /v1/tournaments/{id}/events?wait= and .../events/stream) on every server (issue 27;
-- api/jobs/live.c, LIVE_KIND_TOURNEY).
--
-- Every event written (round_started, tournament_finished) notifies the live hubs' channel
-- with "<tournament id>:tourney:<seq>", sent at commit, as a chat message does (0026) and a
-- seek's end (0029): always, with no lease, since a tournament writes one event a round.
-- A trigger rather than each statement: every way an event is written notifies, now and
-- later. (0034's tournament_event_put() also notifies "<id>:tournament:<seq>": the hubs
-- read that as no watch's, and only wake the webhook workers with it.)
CREATE FUNCTION tournament_event_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('tilehall_events', NEW.tournament_id::text || ':tourney:' || NEW.seq);
    RETURN NULL;
END $$;
CREATE TRIGGER tournament_events_notify AFTER INSERT ON tournament_events
    FOR EACH ROW EXECUTE FUNCTION tournament_event_notify();
