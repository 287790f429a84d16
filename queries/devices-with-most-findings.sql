-- Which devices have the most findings, and on which app version and OS release?
-- Parameters:
--   app          optional: only the findings of launches of this app (its bundle id, as --app gives it); every app when left out
--   app_version  optional: only the findings of launches of this app version (--app-version); every version when left out
-- Columns:
--   device       the installation
--   app_version  the app version of its latest launch with a finding
--   os           the iOS release of that launch
--   findings     findings of the latest check on this device
--   errors       of them, at severity error
--   rules        the distinct rules broken, most frequent first
WITH scoped AS MATERIALIZED (
    SELECT f.device, f.rule, f.severity, f.ts, l.app_version, l.os
    FROM findings f
    JOIN launches l ON l.device = f.device AND l.launch = f.launch
    WHERE (:app IS NULL OR l.app = :app) AND (:app_version IS NULL OR l.app_version = :app_version)
),
-- Each device's latest finding, for the version and OS it names.
latest AS (
    SELECT device, app_version, os, row_number() OVER (PARTITION BY device ORDER BY ts DESC) AS position
    FROM scoped
),
-- Each device's rules, most frequent first.
rules AS (
    SELECT device, group_concat(rule, ', ') AS rules
    FROM (SELECT device, rule, count(*) AS n FROM scoped GROUP BY device, rule ORDER BY device, n DESC, rule)
    GROUP BY device
)
SELECT s.device,
       l.app_version,
       l.os,
       count(*) AS findings,
       sum(s.severity = 'error') AS errors,
       r.rules
FROM scoped s
JOIN latest l ON l.device = s.device AND l.position = 1
JOIN rules r ON r.device = s.device
GROUP BY s.device
ORDER BY findings DESC, errors DESC, s.device
LIMIT 50;
