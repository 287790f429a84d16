-- How much do we hear from each app version on each OS release?
-- Parameters:
--   app          optional: only the events logged by this app (its bundle id, as --app gives it); every app when left out
--   app_version  optional: only the events logged by this app version (--app-version); every version when left out
-- Columns:
--   app_version  the app's version (CFBundleShortVersionString) as logged
--   os           the iOS release
--   devices      distinct devices that logged with this version and OS
--   launches     distinct process launches
--   events       events stored
--   first_seen   earliest event, UTC
--   last_seen    latest event, UTC
SELECT app_version,
       os,
       count(DISTINCT device) AS devices,
       count(DISTINCT device || char(0) || launch) AS launches,
       count(*) AS events,
       datetime(min(ts) / 1000000, 'unixepoch') AS first_seen,
       datetime(max(ts) / 1000000, 'unixepoch') AS last_seen
FROM events
WHERE (process IS NULL OR process = 'app')
  AND (:app IS NULL OR app = :app) AND (:app_version IS NULL OR app_version = :app_version)
GROUP BY app_version, os
ORDER BY events DESC;
