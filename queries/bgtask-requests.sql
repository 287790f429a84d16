-- Which BGTask identifiers are submitted, how many of their requests ran and completed, how long did they wait, and which never ran?
-- Run `lifeline check` first: this reads every request its replay followed (`requests`) and each task run (`tasks`).
-- Parameters:
--   app          optional: only the requests submitted by launches of this app (its bundle id, as --app gives it); every app when left out
--   app_version  optional: only the requests submitted by launches of this app version (--app-version); every version when left out
-- Columns:
--   identifier     the task identifier
--   type           refresh or processing, as submitted
--   submitted      bgtask.submit calls
--   refused        submits that scheduled nothing: they threw, went over the pending limit, or named no type
--   replaced       requests replaced by a later submit of the same identifier while pending
--   cancelled      requests cancelled while pending
--   launched       requests the system ran (bgtask.launch)
--   completed      of the runs, those whose setTaskCompleted was logged
--   never_ran      requests still pending when the device's log ended
--   p50_wait       median wait of the runs, seconds, from when the request could first run (its earliest begin date, or its submit) to its launch
--   p95_wait       95th percentile of that wait, seconds
--   max_wait       the longest wait, seconds
WITH scoped AS (
    -- The requests of the launches selected: each belongs to the launch that submitted it.
    SELECT r.*
    FROM requests r
    JOIN launches l ON l.id = r.launch_id
    WHERE (:app IS NULL OR l.app = :app) AND (:app_version IS NULL OR l.app_version = :app_version)
),
runs AS (
    -- A run is the bgtask row its launch opened at the request's launch time, with its task id.
    SELECT r.identifier, r.type, r.wait_seconds, coalesce(t.closed_ts IS NOT NULL, 0) AS completed
    FROM scoped r
    LEFT JOIN tasks t ON t.launch_id = r.ran_in AND t.kind = 'bgtask' AND t.task = r.task AND t.opened_ts = r.ended_ts
    WHERE r.outcome = 'launched'
),
ranked AS (
    SELECT identifier, type, wait_seconds, completed,
           row_number() OVER (PARTITION BY identifier, type ORDER BY wait_seconds) AS position,
           count(*) OVER (PARTITION BY identifier, type) AS runs
    FROM runs
),
waits AS (
    SELECT identifier, type,
           sum(completed) AS completed,
           min(CASE WHEN position >= ceil(0.50 * runs) THEN wait_seconds END) AS p50,
           min(CASE WHEN position >= ceil(0.95 * runs) THEN wait_seconds END) AS p95,
           max(wait_seconds) AS max
    FROM ranked
    GROUP BY identifier, type
),
counts AS (
    SELECT identifier, type,
           count(*) AS submitted,
           sum(outcome IN ('rejected', 'over-limit', 'untyped')) AS refused,
           sum(outcome = 'replaced') AS replaced,
           sum(outcome = 'cancelled') AS cancelled,
           sum(outcome = 'launched') AS launched,
           sum(outcome = 'pending') AS never_ran
    FROM scoped
    GROUP BY identifier, type
)
SELECT c.identifier,
       c.type,
       c.submitted,
       c.refused,
       c.replaced,
       c.cancelled,
       c.launched,
       coalesce(w.completed, 0) AS completed,
       c.never_ran,
       round(w.p50, 1) AS p50_wait,
       round(w.p95, 1) AS p95_wait,
       round(w.max, 1) AS max_wait
FROM counts c
LEFT JOIN waits w ON w.identifier = c.identifier AND w.type IS c.type
ORDER BY c.never_ran DESC, c.submitted DESC, c.identifier, c.type;
