// HealthKit's enumerations are not frozen: a switch that names every case known today still needs
// `@unknown default`, or a later iOS's new case is refused at compile time in Xcode.
import HealthKit

func words(_ code: HKError.Code) -> String {
    switch code {
    case .noError: "none"
    case .errorHealthDataUnavailable, .errorHealthDataRestricted: "unavailable"
    case .errorInvalidArgument: "invalid"
    case .errorAuthorizationDenied, .errorAuthorizationNotDetermined, .errorRequiredAuthorizationDenied: "denied"
    case .errorDatabaseInaccessible: "locked"
    case .errorUserCanceled, .errorAnotherWorkoutSessionStarted, .errorUserExitedWorkoutSession: "workout"
    case .errorNoData, .errorWorkoutActivityNotAllowed, .errorDataSizeExceeded: "data"
    case .errorBackgroundWorkoutSessionNotAllowed, .errorNotPermissibleForGuestUserMode: "mode"
    }
}
