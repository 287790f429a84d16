-- How much background time does the app use each time it is in the background, by app version and OS?
-- A background period runs from the move into the background (didEnterBackground, or a launch or resume for an event) to the suspension, the return to the foreground or the end of the process.
-- Run `lifeline check` first: this reads the periods its replay followed (`launches.background_periods`).
-- Parameters:
--   app          optional: only the background periods of launches of this app (its bundle id, as --app gives it); every app when left out
--   app_version  optional: only the background periods of launches of this app version (--app-version); every version when left out
-- Columns:
--   app_version      the app version
--   os               the iOS release
--   periods          background periods whose end the log shows
--   p50              median seconds in the background per period
--   p95              95th percentile, seconds
--   max              the longest, seconds
--   over_budget      periods longer than the background-time budget of the latest check (30 s unless configured): not a breach in itself (audio, location or a BGProcessingTask may run longer), but where to look for work that outlives the app's background time
--   suspended        periods that ended with the app suspended
--   foreground       periods that ended with the app back in the foreground
--   terminated       periods that ended with the process terminated
WITH budget AS (
    SELECT coalesce((SELECT json_extract(budgets, '$."background-time"') FROM runs ORDER BY id DESC LIMIT 1), 30)
        AS seconds
),
periods AS (
    SELECT l.app_version, l.os, json_extract(p.value, '$[0]') AS seconds, json_extract(p.value, '$[1]') AS outcome
    FROM launches l, json_each(l.background_periods) p
    WHERE json_extract(p.value, '$[1]') != 'log-ended'
      AND (:app IS NULL OR l.app = :app) AND (:app_version IS NULL OR l.app_version = :app_version)
),
ranked AS (
    SELECT app_version, os, seconds, outcome,
           row_number() OVER (PARTITION BY app_version, os ORDER BY seconds) AS position,
           count(*) OVER (PARTITION BY app_version, os) AS periods
    FROM periods
)
-- The nearest-rank percentile: the smallest value with at least p% of the periods at or below it.
SELECT app_version,
       os,
       max(periods) AS periods,
       round(min(CASE WHEN position >= ceil(0.50 * periods) THEN seconds END), 3) AS p50,
       round(min(CASE WHEN position >= ceil(0.95 * periods) THEN seconds END), 3) AS p95,
       round(max(seconds), 3) AS max,
       sum(seconds > (SELECT seconds FROM budget)) AS over_budget,
       sum(outcome = 'suspended') AS suspended,
       sum(outcome = 'foreground') AS foreground,
       sum(outcome = 'terminated') AS terminated
FROM ranked
GROUP BY app_version, os
ORDER BY p95 DESC, app_version, os;
