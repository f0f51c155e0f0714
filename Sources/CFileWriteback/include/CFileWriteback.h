#ifndef CFILEWRITEBACK_H
#define CFILEWRITEBACK_H

/// Asks the kernel to start writing a file's dirty pages to disk now, without waiting for them
/// (Linux `sync_file_range` with `SYNC_FILE_RANGE_WRITE`; Swift's Glibc module does not expose
/// it). A later fsync then has only what was written since to wait for. Returns 0, or -1 with
/// errno set; on systems without it, does nothing and returns 0.
int healthprobe_start_writeback(int fd);

#endif
