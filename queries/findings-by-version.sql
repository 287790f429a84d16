-- Which app versions and OS releases break which rules, on how many devices?
-- Run `lifeline check` first: this reads the findings of the latest run.
-- Columns:
--   app_version  the app's version at the finding's launch
--   os           the iOS release at the finding's launch
--   rule         the rule id (`lifeline rules RULE-ID` explains it)
--   category     violation, missed-completion, overrun, advisory or data
--   findings     how many findings
--   devices      on how many distinct devices
--   worst        the largest measured value (seconds) where the rule measures one
SELECT c.app_version,
       c.os,
       f.rule,
       f.category,
       count(*) AS findings,
       count(DISTINCT f.device) AS devices,
       round(max(f.measured), 1) AS worst
FROM findings f
JOIN devices d ON d.name = f.device
JOIN launches l ON l.device_id = d.id AND l.name = f.launch
-- The launch's first stored event carries its app version and OS.
JOIN event_rows e ON e.id = (SELECT min(id) FROM event_rows WHERE id >= (l.id << 32) AND id < ((l.id + 1) << 32))
JOIN contexts c ON c.id = e.context_id
GROUP BY c.app_version, c.os, f.rule, f.category
ORDER BY findings DESC, f.rule;
