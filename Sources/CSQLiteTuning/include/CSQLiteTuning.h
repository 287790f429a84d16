#ifndef LIFELINE_CSQLITE_TUNING_H
#define LIFELINE_CSQLITE_TUNING_H

/// Turns off SQLite's memory statistics, process-wide, before the first connection opens.
/// With them on, every sqlite3_malloc and sqlite3_free takes a global mutex; a bulk load
/// makes several per row. Returns 0 (SQLITE_OK) on success, non-zero if SQLite was already
/// initialized, in which case nothing changes. sqlite3_config is variadic, so Swift cannot call
/// it directly: that is the whole reason for this file.
int lifeline_sqlite_disable_memory_statistics(void);

/// Lets every connection's filename be a `file:` URI, process-wide, before the first connection
/// opens: a read-only store that can be opened only as `immutable` is opened through one (GRDB
/// passes no SQLITE_OPEN_URI). Returns 0 (SQLITE_OK), or non-zero if SQLite was already
/// initialized.
int lifeline_sqlite_enable_uri(void);

/// Asks Linux to start writing the file's dirty pages to disk, without waiting for them (
/// sync_file_range with SYNC_FILE_RANGE_WRITE): a later fsync of the file then has less left to
/// wait for. Promises nothing about durability. Elsewhere it does nothing. Returns 0, or -1 with
/// errno set. sync_file_range is Linux's own, declared only with _GNU_SOURCE, which Swift's Glibc
/// module does not define.
int lifeline_start_writeback(int fd);

#endif
