-- Why do our processes start: by the user, or by the system, and for what?
-- Parameters:
--   app          optional: only the launches logged by this app (its bundle id, as --app gives it); every app when left out
--   app_version  optional: only the launches logged by this app version (--app-version); every version when left out
-- Columns:
--   reason    "user", "system" or "prewarm" (the launch event's reason)
--   cause     what the system launched the app for ("bgtask", "push", "urlsession", …); NULL for user launches
--   launches  how many launches
--   devices   on how many distinct devices
--   share     percentage of all launches
SELECT reason,
       cause,
       count(*) AS launches,
       count(DISTINCT device) AS devices,
       round(100.0 * count(*) / (SELECT count(*) FROM events WHERE event = 'launch' AND (:app IS NULL OR app = :app) AND (:app_version IS NULL OR app_version = :app_version)), 1) AS share
FROM events
WHERE event = 'launch' AND (:app IS NULL OR app = :app) AND (:app_version IS NULL OR app_version = :app_version)
GROUP BY reason, cause
ORDER BY launches DESC;
