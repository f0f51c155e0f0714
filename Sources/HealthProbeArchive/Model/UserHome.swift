import Foundation

/// The user's home folder as the shell knows it: `$HOME` when set, as the archive's own folder
/// follows it (Foundation's application-support folder does), else the account's. On Linux,
/// `NSHomeDirectory()` alone reads the password database and ignores `$HOME`, so a user who
/// points `$HOME` elsewhere would find the archive there and the partial exports' state and the
/// backups' folder not.
public enum UserHome {
    public static var path: String {
        if let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty { return home }
        return NSHomeDirectory()
    }
}
