-- How many background pushes does each device get per hour? More than three within an hour are rate-limited.
-- Parameters:
--   app          optional: only the pushes received by this app (its bundle id, as --app gives it); every app when left out
--   app_version  optional: only the pushes received by this app version (--app-version); every version when left out
-- Columns:
--   device           the installation
--   hour             the UTC hour, as YYYY-MM-DD HH:00
--   pushes           content-available pushes received that hour
--   most_in_an_hour  the most received within any one hour that ends with a push of this hour (a sliding window, as the push-rate-limited rule counts: four pushes across 09:00 count together)
--   over_limit       1 when most_in_an_hour is more than 3 (the documented rate), else 0
-- The window is measured by the wall clock (`ts`); the rule prefers `mono` where both pushes log it.
-- The window counts every push the device received (as the rule does); the filters then pick the pushes shown.
WITH pushes AS (
    SELECT device,
           ts,
           app,
           app_version,
           count(*) OVER (PARTITION BY device ORDER BY ts RANGE BETWEEN 3599999999 PRECEDING AND CURRENT ROW) AS in_hour
    FROM events
    WHERE event = 'push.receive' AND json_extract(attrs, '$.content_available') = 1
)
SELECT device,
       strftime('%Y-%m-%d %H:00', ts / 1e6, 'unixepoch') AS hour,
       count(*) AS pushes,
       max(in_hour) AS most_in_an_hour,
       max(in_hour) > 3 AS over_limit
FROM pushes
WHERE (:app IS NULL OR app = :app) AND (:app_version IS NULL OR app_version = :app_version)
GROUP BY device, hour
ORDER BY pushes DESC, device, hour;
