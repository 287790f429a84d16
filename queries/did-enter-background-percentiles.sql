-- How long does applicationDidEnterBackground(_:) take at p50, p95 and p99, by app version and OS, against its 5 s budget?
-- Run `lifeline check` first: this reads the calls its replay paired (the `intervals` table).
-- Parameters:
--   app          optional: only the calls of launches of this app (its bundle id, as --app gives it); every app when left out
--   app_version  optional: only the calls of launches of this app version (--app-version); every version when left out
-- Columns:
--   app_version  the app version
--   os           the iOS release
--   calls        calls with both a begin and an end
--   p50          median seconds
--   p95          95th percentile, seconds
--   p99          99th percentile, seconds
--   max          the longest, seconds
--   over_budget  calls longer than their budget (5 s unless configured), including those cut off by a suspend or terminate
WITH calls AS (
    SELECT l.app_version, l.os, i.seconds, i.outcome, i.over_budget
    FROM intervals i
    JOIN launches l ON l.id = i.launch_id
    WHERE i.callback = 'didEnterBackground'
      AND (:app IS NULL OR l.app = :app) AND (:app_version IS NULL OR l.app_version = :app_version)
),
over AS (
    SELECT app_version, os, sum(over_budget = 1) AS over_budget FROM calls GROUP BY app_version, os
),
ranked AS (
    SELECT app_version, os, seconds,
           row_number() OVER (PARTITION BY app_version, os ORDER BY seconds) AS position,
           count(*) OVER (PARTITION BY app_version, os) AS calls
    FROM calls
    WHERE outcome = 'returned'
)
-- The nearest-rank percentile: the smallest value with at least p% of the calls at or below it.
-- Every version and OS with a call is a row, those whose every call was cut off too (no returned
-- call to rank: calls 0, the percentiles empty, and the calls over budget counted).
SELECT o.app_version,
       o.os,
       coalesce(max(r.calls), 0) AS calls,
       round(min(CASE WHEN r.position >= ceil(0.50 * r.calls) THEN r.seconds END), 3) AS p50,
       round(min(CASE WHEN r.position >= ceil(0.95 * r.calls) THEN r.seconds END), 3) AS p95,
       round(min(CASE WHEN r.position >= ceil(0.99 * r.calls) THEN r.seconds END), 3) AS p99,
       round(max(r.seconds), 3) AS max,
       o.over_budget
FROM over o
LEFT JOIN ranked r ON r.app_version IS o.app_version AND r.os IS o.os
GROUP BY o.app_version, o.os
ORDER BY p95 DESC, o.app_version, o.os;
