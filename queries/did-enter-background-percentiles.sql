-- How long does applicationDidEnterBackground(_:) take at p50, p95 and p99, by app version and OS, against its 5 s budget?
-- Columns:
--   app_version  the app version
--   os           the iOS release
--   calls        calls with both a begin and an end
--   p50          median seconds
--   p95          95th percentile, seconds
--   p99          99th percentile, seconds
--   max          the longest, seconds
--   over_budget  calls longer than 5 s
WITH calls AS (
    SELECT app_version, os, phase, mono, ts,
           lead(phase) OVER w AS next_phase, lead(ts) OVER w AS next_ts, lead(mono) OVER w AS next_mono
    FROM events
    WHERE event = 'didEnterBackground'
    WINDOW w AS (PARTITION BY device, launch ORDER BY seq, ts)
),
durations AS (
    SELECT app_version, os, coalesce(next_mono - mono, (next_ts - ts) / 1e6) AS seconds
    FROM calls WHERE phase = 'begin' AND next_phase = 'end'
),
ranked AS (
    SELECT app_version, os, seconds,
           row_number() OVER (PARTITION BY app_version, os ORDER BY seconds) AS position,
           count(*) OVER (PARTITION BY app_version, os) AS calls
    FROM durations
)
-- The nearest-rank percentile: the smallest value with at least p% of the calls at or below it.
SELECT app_version,
       os,
       calls,
       round(min(CASE WHEN position >= ceil(0.50 * calls) THEN seconds END), 3) AS p50,
       round(min(CASE WHEN position >= ceil(0.95 * calls) THEN seconds END), 3) AS p95,
       round(min(CASE WHEN position >= ceil(0.99 * calls) THEN seconds END), 3) AS p99,
       round(max(seconds), 3) AS max,
       sum(seconds > 5) AS over_budget
FROM ranked
GROUP BY app_version, os
ORDER BY p95 DESC, app_version, os;
