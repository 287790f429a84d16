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
-- A launch's row holds its envelope (launch_rows.app, app_version: its first line's, completed by later ones).
SELECT l.app,
       l.app_version,
       count(DISTINCT l.device_id) AS devices,
       count(*) AS launches,
       sum(l.events) AS events,
       datetime(min(l.first_ts) / 1000000, 'unixepoch') AS first_seen,
       datetime(max(l.last_ts) / 1000000, 'unixepoch') AS last_seen
FROM launch_rows l
WHERE l.events > 0
GROUP BY l.app, l.app_version
ORDER BY l.app, l.app_version;
