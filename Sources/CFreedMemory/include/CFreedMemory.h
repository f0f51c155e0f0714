#ifndef C_FREED_MEMORY_H
#define C_FREED_MEMORY_H

/// Asks glibc's allocator to give freed memory back promptly (FreedMemory.swift says why); does
/// nothing where the allocator is another.
void healthprobe_return_freed_memory_promptly(void);

#endif
