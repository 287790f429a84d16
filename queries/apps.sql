-- Which apps and app versions does the store hold, on how many devices and launches? The values --app and --app-version take.
-- A launch is one process: it belongs to the app and version of its first event, as --app and --app-version select it.
-- Columns:
--   app          the app's bundle id, as logged
--   app_version  its version, as logged
--   devices      distinct devices with a launch of it
--   launches     process launches of it (an app extension's are counted with its app)
--   events       events of those launches
--   first_seen   the earliest event of those launches, UTC
--   last_seen    the latest event of those launches, UTC
WITH launched AS (
    -- Each launch with the envelope of its first event (its row with the lowest id).
    SELECT l.device_id, l.events, l.first_ts, l.last_ts,
           (SELECT e.context_id FROM event_rows e
            WHERE e.id >= (l.id << 32) AND e.id < ((l.id + 1) << 32)
            ORDER BY e.id LIMIT 1) AS context_id
    FROM launch_rows l
)
SELECT c.app,
       c.app_version,
       count(DISTINCT x.device_id) AS devices,
       count(*) AS launches,
       sum(x.events) AS events,
       datetime(min(x.first_ts) / 1000000, 'unixepoch') AS first_seen,
       datetime(max(x.last_ts) / 1000000, 'unixepoch') AS last_seen
FROM launched x
JOIN contexts c ON c.id = x.context_id
GROUP BY c.app, c.app_version
ORDER BY c.app, c.app_version;
