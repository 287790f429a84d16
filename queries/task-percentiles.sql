-- How long does each kind of background work take at p50, p95 and p99, by app version and OS, against its budget?
-- Run `lifeline check` first: this reads the work its replay followed (the `tasks` table).
-- Parameters:
--   app          optional: only the work of launches of this app (its bundle id, as --app gives it); every app when left out
--   app_version  optional: only the work of launches of this app version (--app-version); every version when left out
-- Columns:
--   kind             background-task, bgtask, fetch, push, urlsession-events, nse or delayed-request
--   budget           the budget it is measured against (a BGTask run's depends on its type: refresh-task or processing-task); empty where none applies
--   app_version      the app version
--   os               the iOS release
--   completed        pieces of work whose completion was logged
--   p50              median seconds from opening to completion
--   p95              95th percentile, seconds
--   p99              99th percentile, seconds
--   max              the longest, seconds
--   budget_seconds   the budget's value, seconds (for a background task: its background time, from the latest reading where one was logged)
--   over_budget      pieces of work that ran past their budget, completed or not
--   never_completed  pieces of work not completed before the app was suspended or the process was terminated
WITH work AS (
    SELECT t.kind, t.budget, l.app_version, l.os, t.seconds, t.closed_ts, t.budget_seconds, t.over_budget, t.outcome
    FROM tasks t
    JOIN launches l ON l.id = t.launch_id
    WHERE (:app IS NULL OR l.app = :app) AND (:app_version IS NULL OR l.app_version = :app_version)
),
totals AS (
    SELECT kind, budget, app_version, os,
           max(budget_seconds) AS budget_seconds,
           sum(over_budget = 1) AS over_budget,
           sum(outcome = 'never-completed') AS never_completed,
           sum(closed_ts IS NOT NULL) AS completed
    FROM work
    GROUP BY kind, budget, app_version, os
),
ranked AS (
    SELECT kind, budget, app_version, os, seconds,
           row_number() OVER (PARTITION BY kind, budget, app_version, os ORDER BY seconds) AS position
    FROM work
    WHERE closed_ts IS NOT NULL
),
-- The nearest-rank percentile: the smallest value with at least p% of the completions at or below it.
-- The number of completions comes from `totals`, as in callback-percentiles.
percentiles AS (
    SELECT r.kind, r.budget, r.app_version, r.os,
           t.completed,
           min(CASE WHEN r.position >= ceil(0.50 * t.completed) THEN r.seconds END) AS p50,
           min(CASE WHEN r.position >= ceil(0.95 * t.completed) THEN r.seconds END) AS p95,
           min(CASE WHEN r.position >= ceil(0.99 * t.completed) THEN r.seconds END) AS p99,
           max(r.seconds) AS max
    FROM ranked r
    JOIN totals t ON t.kind = r.kind AND t.budget IS r.budget AND t.app_version IS r.app_version AND t.os IS r.os
    GROUP BY r.kind, r.budget, r.app_version, r.os
)
SELECT t.kind,
       t.budget,
       t.app_version,
       t.os,
       coalesce(p.completed, 0) AS completed,
       round(p.p50, 3) AS p50,
       round(p.p95, 3) AS p95,
       round(p.p99, 3) AS p99,
       round(p.max, 3) AS max,
       round(t.budget_seconds, 3) AS budget_seconds,
       t.over_budget,
       t.never_completed
FROM totals t
LEFT JOIN percentiles p
    ON p.kind = t.kind AND p.budget IS t.budget AND p.app_version IS t.app_version AND p.os IS t.os
ORDER BY t.kind, t.budget, t.app_version, t.os;
