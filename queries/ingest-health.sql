-- Which uploaded files were incomplete or had bad lines, and why?
-- Columns:
--   path         the file as it was given to `lifeline ingest`
--   events       events stored from it
--   duplicates   events it held that were already stored
--   rejects      lines kept aside in the rejects table
--   truncated    1 when the file was cut short
--   cut_reason   where and why it was cut short
--   top_reject   the most frequent reject reason in it, with its count
SELECT f.path,
       f.events,
       f.duplicates,
       f.rejects,
       f.truncated,
       f.cut_reason,
       (SELECT r.reason || ' ×' || count(*) FROM rejects r WHERE r.file_id = f.id
        GROUP BY r.reason ORDER BY count(*) DESC LIMIT 1) AS top_reject
FROM files f
WHERE f.truncated OR f.rejects > 0
ORDER BY f.rejects DESC, f.path;
