-- Which completion handlers and end calls never came, per API and app version?
-- Columns:
--   rule         the missed-completion rule (the API: background task, BGTask, fetch, push, URL session, NSE)
--   app_version  the app version of the launch
--   findings     handlers or end calls that never came
--   devices      on how many distinct devices
--   launches     in how many launches
SELECT f.rule,
       c.app_version,
       count(*) AS findings,
       count(DISTINCT f.device) AS devices,
       count(DISTINCT f.device || char(0) || f.launch) AS launches
FROM findings f
JOIN devices d ON d.name = f.device
JOIN launches l ON l.device_id = d.id AND l.name = f.launch
JOIN event_rows e ON e.id = (SELECT min(id) FROM event_rows WHERE id >= (l.id << 32) AND id < ((l.id + 1) << 32))
JOIN contexts c ON c.id = e.context_id
WHERE f.category = 'missed-completion'
GROUP BY f.rule, c.app_version
ORDER BY findings DESC, f.rule, c.app_version;
