-- How long does applicationDidEnterBackground(_:) take? UIKit gives it five seconds.
-- One row per call whose begin and end were both logged, slowest first.
-- Columns:
--   device       the device
--   launch       the process launch
--   app_version  the app's version
--   os           the iOS release
--   began        when the call began, UTC
--   seconds      how long it ran (from mono when both ends have it, else from ts)
--   over_budget  1 when it ran longer than 5 s
WITH calls AS (
    SELECT device, launch, app_version, os, ts, mono, phase,
           lead(phase) OVER w AS next_phase,
           lead(ts) OVER w AS next_ts,
           lead(mono) OVER w AS next_mono
    FROM events
    WHERE event = 'didEnterBackground'
    WINDOW w AS (PARTITION BY device, launch ORDER BY seq, ts)
)
SELECT device,
       launch,
       app_version,
       os,
       datetime(ts / 1000000, 'unixepoch') AS began,
       round(coalesce(next_mono - mono, (next_ts - ts) / 1e6), 3) AS seconds,
       coalesce(next_mono - mono, (next_ts - ts) / 1e6) > 5 AS over_budget
FROM calls
WHERE phase = 'begin' AND next_phase = 'end'
ORDER BY seconds DESC;
