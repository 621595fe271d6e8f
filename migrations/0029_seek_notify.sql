-- 0029_seek_notify.sql: a seek's long poll (GET /v1/seeks/{id}?wait=) is woken when the seek
-- stops waiting, on whichever server the change was made (issue 26; api/jobs/live.c).
--
-- A seek that leaves 'waiting' (matched by the matchmaker in the game's creation, cancelled,
-- expired) notifies the live hubs' channel with "<seek id>:seek:1", sent at commit, so the
-- long polls of that seek on every server read it again at once instead of every tick.
-- A trigger rather than each statement: every way out of 'waiting' notifies, now and later.
CREATE FUNCTION seek_ended_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('tilehall_events', NEW.id::text || ':seek:1');
    RETURN NULL;
END $$;
CREATE TRIGGER seeks_ended_notify AFTER UPDATE OF status ON seeks
    FOR EACH ROW WHEN (OLD.status = 'waiting' AND NEW.status <> 'waiting')
    EXECUTE FUNCTION seek_ended_notify();
