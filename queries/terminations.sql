-- How do our processes end, by reason, app version and OS?
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
WHERE event = 'terminate'
GROUP BY reason, app_version, os
ORDER BY terminations DESC;
