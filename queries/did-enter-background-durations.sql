-- How long does applicationDidEnterBackground(_:) take? UIKit gives it five seconds.
-- One row per call whose begin and end were both logged, slowest first.
-- Run `lifeline check` first: this reads the calls its replay paired (the `intervals` table).
-- Parameters:
--   app          optional: only the calls of launches of this app (its bundle id, as --app gives it); every app when left out
--   app_version  optional: only the calls of launches of this app version (--app-version); every version when left out
-- Columns:
--   device       the device
--   launch       the process launch
--   app_version  the app's version
--   os           the iOS release
--   began        when the call began, UTC
--   seconds      how long it ran (from mono when both ends have it, else from ts)
--   over_budget  1 when it ran longer than its budget (5 s unless configured)
SELECT l.device,
       l.launch,
       l.app_version,
       l.os,
       datetime(i.begin_ts / 1000000, 'unixepoch') AS began,
       round(i.seconds, 3) AS seconds,
       i.over_budget
FROM intervals i
JOIN launches l ON l.id = i.launch_id
WHERE i.callback = 'didEnterBackground' AND i.outcome = 'returned'
  AND (:app IS NULL OR l.app = :app) AND (:app_version IS NULL OR l.app_version = :app_version)
ORDER BY i.seconds DESC, l.device, l.launch, i.begin_ts;
