import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Check Now as a browser drives it: the form posted — the CSRF field first (when given), then
/// each file part — and the check's page followed until its result.
struct CheckNowForm {
    let sessionToken: String

    struct Part {
        var field = "export"
        var fileName: String
        var data: Data
    }

    /// `fields` are plain fields sent after the CSRF field, before the files.
    func post(
        _ client: some TestClientProtocol, _ parts: [Part], csrf: String?, fields: [(String, String)] = []
    ) async throws -> TestResponse {
        let boundary = "----HealthProbeTestBoundary"
        var body = Data()
        for (name, value) in (csrf.map { [("csrf", $0)] } ?? []) + fields {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        for part in parts {
            body += Data(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.field)\"; filename=\"\(part.fileName)\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                    .utf8)
            body += part.data + Data("\r\n".utf8)
        }
        body += Data("--\(boundary)--\r\n".utf8)
        var headers: HTTPFields = [.cookie: "healthprobe_session=\(sessionToken)"]
        headers[.contentType] = "multipart/form-data; boundary=\(boundary)"
        return try await client.execute(uri: "/check", method: .post, headers: headers, body: ByteBuffer(bytes: body))
    }

    /// Follows a check's page until it is no longer running; returns its final HTML.
    func result(_ client: some TestClientProtocol, _ location: String) async throws -> String {
        let cookie: HTTPFields = [.cookie: "healthprobe_session=\(sessionToken)"]
        for _ in 0..<600 {
            let page = String(buffer: try await client.execute(uri: location, method: .get, headers: cookie).body)
            if !page.contains("http-equiv=\"refresh\"") { return page }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        Issue.record("the check did not finish")
        return ""
    }
}
