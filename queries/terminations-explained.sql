-- Of the processes killed, what share does a finding explain, by reason, OS and version?
-- Run `lifeline check` first: this reads how each launch ended (`launches`) and the findings about it.
-- Parameters:
--   app          optional: only the processes of this app (its bundle id, as --app gives it); every app when left out
--   app_version  optional: only the processes of this app version (--app-version); every version when left out
-- Columns:
--   reason         the terminate event's reason (quiet and user are left out: they are not kills)
--   os             the iOS release
--   app_version    the app version
--   kills          processes terminated for this reason
--   explained      of them, explained by a termination-explained finding (what the app did wrong)
--   unexplained    of them, with a termination-unexplained finding (the log lacks the evidence)
--   explained_pct  explained as a percentage of kills
SELECT l.end_reason AS reason,
       l.os,
       l.app_version,
       count(*) AS kills,
       count(l.explained_by) AS explained,
       sum(EXISTS (SELECT 1 FROM findings f WHERE f.rule = 'termination-unexplained'
                   AND f.device = l.device AND f.launch = l.launch)) AS unexplained,
       round(100.0 * count(l.explained_by) / count(*), 1) AS explained_pct
FROM launches l
WHERE l.ended = 'terminated' AND coalesce(l.end_reason, '') NOT IN ('quiet', 'user')
  AND (:app IS NULL OR l.app = :app) AND (:app_version IS NULL OR l.app_version = :app_version)
GROUP BY l.end_reason, l.os, l.app_version
ORDER BY kills DESC, reason, l.os, l.app_version;
