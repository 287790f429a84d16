-- How many background pushes does each device get per hour? More than three an hour are rate-limited.
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
GROUP BY device, hour
ORDER BY pushes DESC, device, hour;
