#ifndef CSQLITESETTINGS_H
#define CSQLITESETTINGS_H

/// Turns off SQLite's process-wide memory statistics, so that each of SQLite's allocations no
/// longer takes a global mutex. `sqlite3_config` takes variable arguments, which Swift cannot
/// call; it only works before SQLite is initialised, and returns SQLITE_MISUSE after.
/// Returns SQLite's result code.
int healthprobe_sqlite_disable_memory_statistics(void);

#endif
