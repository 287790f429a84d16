-- How many background pushes does each device get per hour? More than three an hour are rate-limited.
-- Parameters:
--   app          optional: only the pushes received by this app (its bundle id, as --app gives it); every app when left out
--   app_version  optional: only the pushes received by this app version (--app-version); every version when left out
-- Columns:
--   device      the installation
--   hour        the UTC hour, as YYYY-MM-DD HH:00
--   pushes      content-available pushes received that hour
--   over_limit  1 when more than 3 (the documented rate), else 0
SELECT device,
       strftime('%Y-%m-%d %H:00', ts / 1e6, 'unixepoch') AS hour,
       count(*) AS pushes,
       count(*) > 3 AS over_limit
FROM events
WHERE event = 'push.receive' AND json_extract(attrs, '$.content_available') = 1
  AND (:app IS NULL OR app = :app) AND (:app_version IS NULL OR app_version = :app_version)
GROUP BY device, hour
ORDER BY pushes DESC, device, hour;
