-- Which completion handlers and end calls never came, per API and app version, and how often?
-- Run `lifeline check` first: this reads the work its replay followed (the `tasks` table).
-- Parameters:
--   app          optional: only the work of launches of this app (its bundle id, as --app gives it); every app when left out
--   app_version  optional: only the work of launches of this app version (--app-version); every version when left out
-- Columns:
--   kind          the API: background-task, bgtask, fetch, push, urlsession-events, nse or delayed-request
--   app_version   the app version of the launch
--   tasks         pieces of work opened (a task begun or run, a handler delivered)
--   missed        never completed before the app was suspended or the process was terminated
--   after_expiry  completed, but only after the system ran their expiration handler
--   unknown       still open when the log ended: the log cannot say whether they finished
--   missed_pct    missed as a percentage of the tasks whose end the log shows (tasks − unknown)
--   devices       on how many distinct devices one was missed
SELECT t.kind,
       l.app_version,
       count(*) AS tasks,
       sum(t.outcome = 'never-completed') AS missed,
       sum(t.outcome = 'expired') AS after_expiry,
       sum(t.outcome = 'log-ended') AS unknown,
       round(100.0 * sum(t.outcome = 'never-completed') / nullif(count(*) - sum(t.outcome = 'log-ended'), 0), 1)
           AS missed_pct,
       count(DISTINCT CASE WHEN t.outcome = 'never-completed' THEN l.device END) AS devices
FROM tasks t
JOIN launches l ON l.id = t.launch_id
WHERE (:app IS NULL OR l.app = :app) AND (:app_version IS NULL OR l.app_version = :app_version)
GROUP BY t.kind, l.app_version
ORDER BY missed DESC, t.kind, l.app_version;
