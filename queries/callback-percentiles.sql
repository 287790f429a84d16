-- How long does each UIKit callback logged with a begin and an end take at p50, p95 and p99, by app version and OS?
-- didFinishLaunching is most of a launch's time to first frame; didEnterBackground has 5 s.
-- Run `lifeline check` first: this reads the calls its replay paired (the `intervals` table).
-- Parameters:
--   app          optional: only the calls of launches of this app (its bundle id, as --app gives it); every app when left out
--   app_version  optional: only the calls of launches of this app version (--app-version); every version when left out
-- Columns:
--   callback      the event name (didFinishLaunching, willFinishLaunching, restoreState, didEnterBackground, scene.didEnterBackground, expiringActivity, …)
--   app_version   the app version
--   os            the iOS release
--   calls         calls that returned (their end is logged)
--   p50           median seconds
--   p95           95th percentile, seconds
--   p99           99th percentile, seconds
--   max           the longest, seconds
--   cut_off       calls that had not returned when the app was suspended or the process was terminated
--   over_budget   calls longer than their budget, where the callback has one (didEnterBackground's 5 s)
WITH calls AS (
    SELECT i.callback, l.app_version, l.os, i.seconds, i.outcome, i.over_budget
    FROM intervals i
    JOIN launches l ON l.id = i.launch_id
    WHERE (:app IS NULL OR l.app = :app) AND (:app_version IS NULL OR l.app_version = :app_version)
),
totals AS (
    SELECT callback, app_version, os,
           sum(outcome IN ('suspended', 'terminated')) AS cut_off,
           sum(over_budget = 1) AS over_budget,
           sum(outcome = 'returned') AS returned
    FROM calls
    GROUP BY callback, app_version, os
),
ranked AS (
    SELECT callback, app_version, os, seconds,
           row_number() OVER (PARTITION BY callback, app_version, os ORDER BY seconds) AS position
    FROM calls
    WHERE outcome = 'returned'
),
-- The nearest-rank percentile: the smallest value with at least p% of the calls at or below it.
-- The number of calls comes from `totals`: a second window to count them took longer than the ranking.
percentiles AS (
    SELECT r.callback, r.app_version, r.os,
           t.returned AS calls,
           min(CASE WHEN r.position >= ceil(0.50 * t.returned) THEN r.seconds END) AS p50,
           min(CASE WHEN r.position >= ceil(0.95 * t.returned) THEN r.seconds END) AS p95,
           min(CASE WHEN r.position >= ceil(0.99 * t.returned) THEN r.seconds END) AS p99,
           max(r.seconds) AS max
    FROM ranked r
    JOIN totals t ON t.callback = r.callback AND t.app_version IS r.app_version AND t.os IS r.os
    GROUP BY r.callback, r.app_version, r.os
)
SELECT t.callback,
       t.app_version,
       t.os,
       coalesce(p.calls, 0) AS calls,
       round(p.p50, 3) AS p50,
       round(p.p95, 3) AS p95,
       round(p.p99, 3) AS p99,
       round(p.max, 3) AS max,
       t.cut_off,
       t.over_budget
FROM totals t
LEFT JOIN percentiles p ON p.callback = t.callback AND p.app_version IS t.app_version AND p.os IS t.os
ORDER BY t.callback, t.app_version, t.os;
