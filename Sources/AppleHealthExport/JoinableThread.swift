import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A thread that can be joined: once ``join()`` returns, the thread has ended and released
/// everything its body held. Foundation's `Thread` cannot be joined, and a semaphore signalled at
/// the end of its body still leaves the body's captures alive for a moment after the caller has
/// moved on — the fuzzer saw an input outlive its read that way.
public final class JoinableThread: @unchecked Sendable {
    private final class Body {
        let name: String
        let run: () -> Void

        init(name: String, run: @escaping () -> Void) {
            self.name = name
            self.run = run
        }
    }

    #if canImport(Darwin)
        private var handle: pthread_t?
    #else
        private var handle = pthread_t()
    #endif
    private let lock = NSLock()
    private var joined = false

    /// Starts `body` on a new thread with an 8 MiB stack (libxml2 and deep elements need room).
    public init(name: String, stackSize: Int = 8 << 20, _ body: @escaping () -> Void) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, stackSize)
        let context = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        let result = pthread_create(&handle, &attributes, JoinableThread.start, context)
        pthread_attr_destroy(&attributes)
        precondition(result == 0, "could not start the \(name) thread (\(result))")
    }

    /// Waits until the thread has ended; at once on later calls.
    public func join() {
        let first = lock.withLock {
            defer { joined = true }
            return !joined
        }
        guard first else { return }
        #if canImport(Darwin)
            if let handle { pthread_join(handle, nil) }
        #else
            pthread_join(handle, nil)
        #endif
    }

    deinit {
        // A thread nobody joined is joined here, so none outlives its owner.
        join()
    }

    #if canImport(Darwin)
        private static let start: @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? = { raw in
            run(raw)
            return nil
        }
    #else
        private static let start: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { raw in
            if let raw { run(raw) }
            return nil
        }
    #endif

    /// Runs the body and releases it before the thread ends.
    private static func run(_ raw: UnsafeMutableRawPointer) {
        let body = Unmanaged<Body>.fromOpaque(raw).takeRetainedValue()
        #if canImport(Darwin)
            // Named for debuggers; Glibc's module does not export the call.
            pthread_setname_np(body.name)
        #endif
        body.run()
    }
}
