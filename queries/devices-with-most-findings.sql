-- Which devices have the most findings, and on which app version and OS release?
-- Columns:
--   device       the installation
--   app_version  the app version of its latest launch with a finding
--   os           the iOS release of that launch
--   findings     findings of the latest check on this device
--   errors       of them, at severity error
--   rules        the distinct rules broken, most frequent first
WITH scoped AS (
    SELECT f.device, f.rule, f.severity, f.ts, l.app_version, l.os
    FROM findings f
    JOIN launches l ON l.device = f.device AND l.launch = f.launch
),
per_rule AS (
    SELECT device, rule, count(*) AS n FROM scoped GROUP BY device, rule
)
SELECT s.device,
       (SELECT app_version FROM scoped x WHERE x.device = s.device ORDER BY x.ts DESC LIMIT 1) AS app_version,
       (SELECT os FROM scoped x WHERE x.device = s.device ORDER BY x.ts DESC LIMIT 1) AS os,
       count(*) AS findings,
       sum(s.severity = 'error') AS errors,
       (SELECT group_concat(rule, ', ') FROM (SELECT rule FROM per_rule p WHERE p.device = s.device ORDER BY n DESC, rule)) AS rules
FROM scoped s
GROUP BY s.device
ORDER BY findings DESC, errors DESC, s.device
LIMIT 50;
