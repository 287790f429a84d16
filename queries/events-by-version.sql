-- How much do we hear from each app version on each OS release?
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
WHERE process IS NULL OR process = 'app'
GROUP BY app_version, os
ORDER BY events DESC;
