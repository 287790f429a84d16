-- Postmortem: what did one device do, event by event, and what broke where?
-- Parameters:
--   device    the device id: `lifeline query device-timeline --param device=ID`, or in the sqlite3 shell .parameter set :device 'ID'
--   app          optional: only the events of this app (its bundle id, as --app gives it); every app when left out
--   app_version  optional: only the events of this app version (--app-version); every version when left out
-- Columns:
--   time      the event's time, UTC, with milliseconds
--   launch    the process launch (a new id after every process start)
--   seq       the event's per-launch counter
--   event     the event name
--   detail    phase, reason, cause, identifier, task or call, whichever the event has
--   finding   the rule of a finding that landed on this event (after `lifeline check`)
SELECT strftime('%Y-%m-%d %H:%M:%f', e.ts / 1e6, 'unixepoch') AS time,
       e.launch,
       e.seq,
       e.event,
       trim(coalesce(e.phase || ' ', '') || coalesce(e.reason || ' ', '') || coalesce(e.cause || ' ', '')
            || coalesce(e.identifier || ' ', '') || coalesce('task ' || e.task || ' ', '')
            || coalesce('call ' || e.call, '')) AS detail,
       (SELECT group_concat(f.rule, ', ') FROM findings f
        WHERE f.device = e.device AND f.launch = e.launch AND f.ts = e.ts) AS finding
FROM events e
WHERE e.device = :device
  AND (:app IS NULL OR e.app = :app) AND (:app_version IS NULL OR e.app_version = :app_version)
ORDER BY e.ts, e.seq;
