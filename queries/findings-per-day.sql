-- Is it getting better? Findings of the latest check per rule and day (UTC), a trend to chart.
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
FROM findings
GROUP BY day, rule, category
ORDER BY day, findings DESC, rule;
