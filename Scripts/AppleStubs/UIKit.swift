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
