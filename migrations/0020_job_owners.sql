-- 0020_job_owners.sql: fair shares of the job workers by the address that created a game
-- (issue 29, finding 4; api/store_jobs.c).
--
-- games.owner: the client address that created the game (IPv4, or the /64 of an IPv6
-- address: api/netaddr.c, netaddr_key), NULL for games of before and for games created
-- without one. The claim of due jobs (ST_JOB_CLAIM) takes every game's owner from here:
-- an owner holds at most a few running jobs of a lane at once (claimed_until still ahead),
-- and of the owners with due jobs the one served longest ago goes first, so that one
-- address's many games of computer players take one share of the workers, not all of them.
ALTER TABLE games ADD COLUMN owner text;

-- When each owner's job was last claimed (the round-robin's order). Rows not served for a
-- day are deleted by the claiming workers now and then (store_jobs.c).
CREATE TABLE job_owners (
    owner     text        PRIMARY KEY,
    served_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_owners_served ON job_owners (served_at);

-- The claim's look at the jobs running now: only rows claimed and not yet rewritten carry
-- claimed_until (a commit, a retry and a drop clear or delete it).
CREATE INDEX jobs_claimed ON jobs (claimed_until) WHERE claimed_until IS NOT NULL;
