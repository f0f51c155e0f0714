import Foundation
import HealthProbeScreens

/// What one launch of the dashboard serves and how: the archive, the port (0 for any free one),
/// the secrets of this launch, and limits.
public struct WebConfiguration: Sendable {
    public var archivePath: String
    /// 0 lets the system choose.
    public var port: Int
    /// The token the printed URL carries; exchanged for the session cookie.
    public let launchToken: String
    /// The value every session cookie must carry (a different secret from the launch token, so
    /// the URL in a terminal's scroll-back is worth nothing once used… and the cookie never
    /// appears in a URL).
    public let sessionToken: String
    /// The hidden field every form posts.
    public let csrfToken: String
    /// The largest upload accepted, in bytes.
    public var maxUploadBytes: Int64
    /// Where uploads are written while they are checked (a private folder is made inside).
    public var uploadDirectory: URL
    public var format: ScreenFormat

    public init(
        archivePath: String, port: Int = 0, maxUploadBytes: Int64 = 8 << 30,
        uploadDirectory: URL = FileManager.default.temporaryDirectory, format: ScreenFormat = ScreenFormat()
    ) {
        self.archivePath = archivePath
        self.port = port
        self.maxUploadBytes = maxUploadBytes
        self.uploadDirectory = uploadDirectory
        self.format = format
        launchToken = Secrets.token()
        sessionToken = Secrets.token()
        csrfToken = Secrets.token()
    }
}

/// Random tokens and their comparison.
enum Secrets {
    /// 32 random bytes as 64 hex digits, from the system's generator.
    static func token() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }
            .joined()
    }

    /// Compares in time that does not depend on where the texts differ.
    static func matches(_ given: some StringProtocol, _ expected: String) -> Bool {
        let a = Array(given.utf8)
        let b = Array(expected.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
