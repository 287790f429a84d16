#define _GNU_SOURCE
#include <fcntl.h>
#include <sqlite3.h>
#include "CSQLiteTuning.h"

int lifeline_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int lifeline_sqlite_enable_uri(void) {
    return sqlite3_config(SQLITE_CONFIG_URI, 1);
}

int lifeline_start_writeback(int fd) {
#if defined(__linux__)
    return sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
#else
    (void)fd;
    return 0;
#endif
}
