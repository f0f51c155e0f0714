#include "CFreedMemory.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

void healthprobe_return_freed_memory_promptly(void) {
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, 2);
    mallopt(M_MMAP_THRESHOLD, 64 << 10);
    mallopt(M_TRIM_THRESHOLD, 64 << 10);
#endif
}
