/// What the tests' helpers need of the system: `/proc`, util-linux's `script` and `prlimit`
/// are Linux's. Tests that use them say so with `.enabled(if: Platform.isLinux)` and are skipped,
/// not passed vacuously, on a Mac.
public enum Platform {
    #if os(Linux)
        public static let isLinux = true
    #else
        public static let isLinux = false
    #endif
}
