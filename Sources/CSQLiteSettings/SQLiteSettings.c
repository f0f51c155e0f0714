#include <sqlite3.h>

#include "CSQLiteSettings.h"

int healthprobe_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
