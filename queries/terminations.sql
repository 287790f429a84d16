-- How do our processes end, by reason, app version and OS?
-- Parameters:
--   app          optional: only the terminations logged by this app (its bundle id, as --app gives it); every app when left out
--   app_version  optional: only the terminations logged by this app version (--app-version); every version when left out
-- Columns:
--   reason       the terminate event's reason ("quiet", "user", "watchdog", "memory", "crash", …)
--   app_version  the app's version
--   os           the iOS release
--   terminations how many processes ended this way
--   devices      on how many distinct devices
SELECT reason,
       app_version,
       os,
       count(*) AS terminations,
       count(DISTINCT device) AS devices
FROM events
WHERE event = 'terminate' AND (:app IS NULL OR app = :app) AND (:app_version IS NULL OR app_version = :app_version)
GROUP BY reason, app_version, os
ORDER BY terminations DESC;
