-- Is it getting better? Findings of the latest check per rule and day (UTC), a trend to chart.
-- Parameters:
--   app          optional: only the findings of launches of this app (its bundle id, as --app gives it); every app when left out
--   app_version  optional: only the findings of launches of this app version (--app-version); every version when left out
-- Columns:
--   day        the UTC day the breach happened
--   rule       the rule broken
--   category   violation, missed-completion, overrun, advisory or data
--   findings   how many that day
--   devices    on how many distinct devices
SELECT date(ts / 1e6, 'unixepoch') AS day,
       rule,
       category,
       count(*) AS findings,
       count(DISTINCT device) AS devices
FROM findings f
-- Without a filter every finding counts, those without a launch row (loaded by import-findings) too.
WHERE (:app IS NULL AND :app_version IS NULL)
   OR EXISTS (SELECT 1 FROM launches l WHERE l.device = f.device AND l.launch = f.launch
              AND (:app IS NULL OR l.app = :app) AND (:app_version IS NULL OR l.app_version = :app_version))
GROUP BY day, rule, category
ORDER BY day, findings DESC, rule;
