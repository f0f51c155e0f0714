internal import CFreedMemory

/// How a long command gives back what it freed. glibc keeps what a thread frees in that thread's
/// arena (up to eight a core) and trims an arena only past 128 KiB free at its top; over a check
/// of ten years, with a reader, a parser, a fingerprinting stage and a writer each on a thread
/// of its own, that is 6 MB more resident at 7.5 million records than at one million, for the
/// same live memory. Two arenas, blocks of 64 KiB and more mapped on their own, and a trim past
/// 64 KiB keep a check's resident memory that of its live memory (BENCHMARKS.md). Elsewhere
/// the system's allocator does this itself.
public enum FreedMemory {
    public static func returnPromptly() {
        healthprobe_return_freed_memory_promptly()
    }
}
