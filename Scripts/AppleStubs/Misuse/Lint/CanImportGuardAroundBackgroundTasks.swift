// BackgroundTasks imports on macOS too, where BGTaskScheduler is unavailable: guarded by
// importability, this file breaks `swift build` on a Mac. Guard by platform: `#if os(iOS)`.
#if canImport(BackgroundTasks)
    import BackgroundTasks
#endif
