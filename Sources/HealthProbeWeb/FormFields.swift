import Foundation
import Hummingbird

/// A posted `application/x-www-form-urlencoded` form's fields (names may repeat).
struct FormFields {
    static let csrf = "csrf"
    /// Check Now's choice to check a refused file all the same: `older` or `unrelated`.
    static let allow = "allow"
    static let maxBytes = 64 * 1_024

    private(set) var pairs: [(String, String)] = []

    init(_ text: String) {
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in
                part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            pairs.append((decode(parts[0]), parts.count > 1 ? decode(parts[1]) : ""))
        }
    }

    static func read(_ request: Request) async throws -> FormFields {
        var request = request
        let buffer = try await request.collectBody(upTo: maxBytes)
        return FormFields(String(buffer: buffer))
    }

    subscript(_ name: String) -> String? { pairs.first { $0.0 == name }?.1 }

    func all(_ name: String) -> [String] { pairs.filter { $0.0 == name }.map(\.1) }

    func hasValidCSRF(_ token: String) -> Bool {
        self[Self.csrf].map { Secrets.matches($0, token) } ?? false
    }
}
