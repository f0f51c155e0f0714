// A stub of the UIKit declarations HealthProbe's app uses, for type-checking it on Linux
// (Scripts/typecheck-apple.sh), as Apple's documentation gives them at the app's minimum, iOS 18:
// `UIDevice` is main-actor isolated. `FileManager.ubiquityIdentityToken` is Foundation's on
// Apple's systems and absent from Linux's Foundation; it stands here, where the app imports it.
import Foundation

@available(iOS 2.0, *)
@MainActor
open class UIDevice {
    public static let current = UIDevice()
    /// "18.4".
    public var systemVersion: String { "18.4" }
    /// The same for every app of one vendor on one device; another on another device, and after
    /// the vendor's apps were all removed.
    @available(iOS 6.0, *)
    public var identifierForVendor: UUID? { nil }
}

extension FileManager {
    /// The signed-in iCloud account's identity token; nil when none is signed in.
    @available(iOS 6.0, *)
    public var ubiquityIdentityToken: (any NSCoding & NSCopying & NSObjectProtocol)? { nil }
}

/// The app's one `UIApplication`. Main-actor isolated; asking for background time is not.
@available(iOS 2.0, *)
@MainActor
open class UIApplication {
    public static let shared = UIApplication()

    /// Marks the start of work that should go on if the app enters the background; the handler
    /// is called on the main thread shortly before the time runs out, and must end the task.
    @available(iOS 7.0, *)
    nonisolated public func beginBackgroundTask(
        withName taskName: String?, expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil
    ) -> UIBackgroundTaskIdentifier { .invalid }

    /// Marks the end of a task begun with `beginBackgroundTask`.
    @available(iOS 4.0, *)
    nonisolated public func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {}
}

/// A background task's identifier; `invalid` when iOS gave no time.
@available(iOS 4.0, *)
public struct UIBackgroundTaskIdentifier: RawRepresentable, Hashable, Sendable {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let invalid = UIBackgroundTaskIdentifier(rawValue: 0)
}
