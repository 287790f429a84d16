-- Of the processes killed in the background, what share does a finding explain, by reason, OS and version?
-- Columns:
--   reason         the terminate event's reason (quiet and user are left out: they are not kills)
--   os             the iOS release
--   app_version    the app version
--   kills          terminations with this reason
--   explained      of them, explained by a termination-explained finding (what the app did wrong)
--   unexplained    of them, with a termination-unexplained finding (the log lacks the evidence)
--   explained_pct  explained as a percentage of kills
SELECT e.reason,
       e.os,
       e.app_version,
       count(*) AS kills,
       sum(EXISTS (SELECT 1 FROM findings f WHERE f.rule = 'termination-explained'
                   AND f.device = e.device AND f.launch = e.launch AND f.ts = e.ts)) AS explained,
       sum(EXISTS (SELECT 1 FROM findings f WHERE f.rule = 'termination-unexplained'
                   AND f.device = e.device AND f.launch = e.launch AND f.ts = e.ts)) AS unexplained,
       round(100.0 * sum(EXISTS (SELECT 1 FROM findings f WHERE f.rule = 'termination-explained'
                   AND f.device = e.device AND f.launch = e.launch AND f.ts = e.ts)) / count(*), 1) AS explained_pct
FROM events e
WHERE e.event = 'terminate' AND coalesce(e.reason, '') NOT IN ('quiet', 'user')
GROUP BY e.reason, e.os, e.app_version
ORDER BY kills DESC, e.reason, e.os, e.app_version;
