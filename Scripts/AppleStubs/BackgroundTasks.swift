// A stub of BackgroundTasks for type-checking HealthProbe's app on Linux (Scripts/typecheck-apple.sh):
// only what the app uses, as Apple's documentation gives it at the app's minimum, iOS 18 (built
// with Xcode 26).
// `BGTask` is not `Sendable`, and its launch handler is a plain escaping closure run on the queue
// given (a background one for `nil`): a handler made on the main actor is wrong there.
import Dispatch
import Foundation

@available(iOS 13.0, *)
open class BGTask: NSObject {
    @available(*, unavailable, message: "Apple marks init() unavailable")
    public override init() { fatalError() }
    open var identifier: String { fatalError() }
    open var expirationHandler: (() -> Void)?
    open func setTaskCompleted(success: Bool) { fatalError() }
}

@available(iOS 13.0, *)
open class BGAppRefreshTask: BGTask {}
@available(iOS 13.0, *)
open class BGProcessingTask: BGTask {}

@available(iOS 13.0, *)
open class BGTaskRequest: NSObject, NSCopying {
    open var identifier: String { fatalError() }
    open var earliestBeginDate: Date?
    open func copy(with zone: NSZone? = nil) -> Any { fatalError() }
}

@available(iOS 13.0, *)
open class BGAppRefreshTaskRequest: BGTaskRequest {
    public init(identifier: String) { fatalError() }
}

@available(iOS 13.0, *)
open class BGProcessingTaskRequest: BGTaskRequest {
    public init(identifier: String) { fatalError() }
    open var requiresNetworkConnectivity: Bool = false
    open var requiresExternalPower: Bool = false
}

@available(iOS 13.0, *)
open class BGTaskScheduler: NSObject {
    @available(*, unavailable, message: "Apple marks init() unavailable")
    public override init() { fatalError() }
    open class var shared: BGTaskScheduler { fatalError() }
    open func register(
        forTaskWithIdentifier identifier: String, using queue: DispatchQueue?,
        launchHandler: @escaping (BGTask) -> Void
    ) -> Bool { fatalError() }
    open func submit(_ taskRequest: BGTaskRequest) throws { fatalError() }
    open func cancel(taskRequestWithIdentifier identifier: String) { fatalError() }
}
