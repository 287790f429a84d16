#ifndef LIFELINE_CSQLITE_TUNING_H
#define LIFELINE_CSQLITE_TUNING_H

/// Turns off SQLite's memory statistics, process-wide, before the first connection opens.
/// With them on, every sqlite3_malloc and sqlite3_free takes a global mutex; a bulk load
/// makes several per row. Returns 0 (SQLITE_OK) on success, non-zero if SQLite was already
/// initialized, in which case nothing changes. sqlite3_config is variadic, so Swift cannot call
/// it directly: that is the whole reason for this file.
int lifeline_sqlite_disable_memory_statistics(void);

#endif
