-- Which app versions and OS releases break which rules, on how many devices?
-- Run `lifeline check` first: this reads the findings of the latest run, and the launch each landed on.
-- Parameters:
--   app          optional: only the findings of launches of this app (its bundle id, as --app gives it); every app when left out
--   app_version  optional: only the findings of launches of this app version (--app-version); every version when left out
-- Columns:
--   app_version  the app's version at the finding's launch
--   os           the iOS release at the finding's launch
--   rule         the rule id (`lifeline rules RULE-ID` explains it)
--   category     violation, missed-completion, overrun, advisory or data
--   findings     how many findings
--   devices      on how many distinct devices
--   worst        the largest measured value (seconds) where the rule measures one
SELECT l.app_version,
       l.os,
       f.rule,
       f.category,
       count(*) AS findings,
       count(DISTINCT f.device) AS devices,
       round(max(f.measured), 1) AS worst
FROM findings f
JOIN launches l ON l.device = f.device AND l.launch = f.launch
WHERE (:app IS NULL OR l.app = :app) AND (:app_version IS NULL OR l.app_version = :app_version)
GROUP BY l.app_version, l.os, f.rule, f.category
ORDER BY findings DESC, f.rule;
