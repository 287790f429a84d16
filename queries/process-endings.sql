-- How do our processes end: terminated (and why), reclaimed while suspended, ended without a word, or still running when the log ended?
-- Run `lifeline check` first: this reads how its replay saw each launch end (`launches`).
-- Parameters:
--   app          optional: only the processes of this app (its bundle id, as --app gives it); every app when left out
--   app_version  optional: only the processes of this app version (--app-version); every version when left out
-- Columns:
--   ended       terminated, reclaimed (a new launch began while it was suspended), superseded (a new launch began while it ran, with no terminate logged) or log-ended (the log ended first)
--   reason      the terminate event's reason, for a terminated process
--   state       the app state it ended in: for a terminated process, the state the terminate found it in
--   launches    processes that ended this way
--   devices     on how many distinct devices
--   share       percentage of all processes
--   explained   of them, how many a finding explains (termination-explained: what the app did wrong)
--   median_life median seconds from the process's first event to its end: its foreground, background and suspended seconds, by `mono` where logged (a wall clock set back inside a launch made it negative)
WITH scoped AS (
    SELECT * FROM launches l WHERE (:app IS NULL OR l.app = :app) AND (:app_version IS NULL OR l.app_version = :app_version)
),
ended AS (
    SELECT ended, end_reason, end_state, device, explained_by,
           foreground_seconds + background_seconds + suspended_seconds AS life,
           row_number() OVER (PARTITION BY ended, end_reason, end_state
                              ORDER BY foreground_seconds + background_seconds + suspended_seconds) AS position,
           count(*) OVER (PARTITION BY ended, end_reason, end_state) AS launches
    FROM scoped
)
SELECT ended,
       end_reason AS reason,
       end_state AS state,
       max(launches) AS launches,
       count(DISTINCT device) AS devices,
       round(100.0 * max(launches) / (SELECT count(*) FROM scoped), 1) AS share,
       count(explained_by) AS explained,
       round(min(CASE WHEN position >= ceil(0.50 * launches) THEN life END), 1) AS median_life
FROM ended
GROUP BY ended, end_reason, end_state
ORDER BY launches DESC, ended, reason, state;
