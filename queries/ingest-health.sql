-- Which uploaded files were incomplete, damaged or had bad lines, or were never finished, and why?
-- Columns:
--   path         the file as it was given to `lifeline ingest` (`-` for standard input)
--   status       done, ingesting (being read, or left by an ingest that died: the next ingest resumes it), or interrupted (a stream whose ingest died)
--   lines        lines seen: events + duplicates + rejects + blank + lost
--   events       events stored from it
--   duplicates   events it held that were already stored
--   rejects      lines kept aside in the rejects table
--   lost_lines   lines lost to a damaged or cut-short compressed frame (a lower bound where the frame could not be decoded)
--   damage       each damaged or cut frame: its byte range and why
--   top_reject   the most frequent reject reason in it, with its count
SELECT f.path,
       f.status,
       f.lines,
       f.events,
       f.duplicates,
       f.rejects,
       f.lost_lines,
       (SELECT group_concat('bytes ' || json_extract(d.value, '$.from') || '-' || json_extract(d.value, '$.to')
                            || ': ' || json_extract(d.value, '$.reason'), '; ')
        FROM json_each(f.damage) d) AS damage,
       (SELECT r.reason || ' ×' || count(*) FROM rejects r WHERE r.file_id = f.id
        GROUP BY r.reason ORDER BY count(*) DESC LIMIT 1) AS top_reject
FROM files f
WHERE f.truncated OR f.rejects > 0 OR f.lost_lines > 0 OR f.damage IS NOT NULL OR f.status != 'done'
ORDER BY f.status != 'done' DESC, f.lost_lines + f.rejects DESC, f.path;
