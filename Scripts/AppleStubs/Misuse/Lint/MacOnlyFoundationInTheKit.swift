// `homeDirectoryForCurrentUser` exists on macOS only: in a target the iPhone app links, the app
// does not compile for iOS.
import Foundation

let backups = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("Backups")
