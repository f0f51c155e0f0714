import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TestSupport

/// `healthprobe serve` as a separate process, used the way a browser uses it: the launch address
/// exchanged for the session cookie, the form token read from a page, Check Now as a multipart
/// upload, the check's page followed until it ends.
final class DashboardProcess: @unchecked Sendable {
    let process = Process()
    let base: String
    private let client = HTTPClient(
        eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
    private var cookie = ""
    private var csrf = ""

    /// What a Check Now upload came to.
    enum Upload: Equatable {
        case completed(capture: Int64, records: Int)
        /// The page said the check did not complete, and whether the archive was verified unchanged.
        case failed(message: String, archiveUnchanged: Bool)
    }

    init(archive: String, environment: [String: String] = [:]) async throws {
        let output = Pipe()
        process.executableURL = CommandRunner.executable
        process.arguments = ["serve", "--archive", archive]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = try await ProcessLines.first(matching: "http://", in: output)
        let launch = String(line[line.range(of: "http://")!.lowerBound...])
        base = String(launch.prefix { $0 != "?" }).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let login = try await client.execute(HTTPClientRequest(url: launch), timeout: .seconds(30))
        cookie = login.headers["set-cookie"].first.map { String($0.prefix { $0 != ";" }) } ?? ""
        let form = try await get("/check").body
        guard let range = form.range(of: #"name="csrf" value="([0-9a-f]+)""#, options: .regularExpression) else {
            throw DashboardProcessError(message: "no form token on /check")
        }
        csrf = String(form[range].dropFirst(#"name="csrf" value=""#.count).dropLast())
    }

    func get(_ path: String) async throws -> (status: UInt, body: String) {
        var request = HTTPClientRequest(url: base + path)
        request.headers.add(name: "Cookie", value: cookie)
        let response = try await client.execute(request, timeout: .seconds(120))
        let body = try await response.body.collect(upTo: 32 << 20)
        return (response.status.code, String(buffer: body))
    }

    /// Posts a form with the form token, as the page's own form would; returns the status.
    func post(_ path: String, _ form: String) async throws -> UInt {
        var request = HTTPClientRequest(url: base + path)
        request.method = .POST
        request.headers.add(name: "Cookie", value: cookie)
        request.headers.add(name: "Origin", value: base)
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: "csrf=\(csrf)&" + form))
        let response = try await client.execute(request, timeout: .seconds(120))
        _ = try await response.body.collect(upTo: 1 << 20)
        return response.status.code
    }

    /// Uploads `file` through Check Now and follows its page until the check ends.
    func checkNow(_ file: URL) async throws -> Upload {
        let boundary = "----HealthProbeSoakBoundary"
        var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n\(csrf)\r\n".utf8)
        body += Data(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"export\"; filename=\"\(file.lastPathComponent)\"\r\nContent-Type: application/zip\r\n\r\n"
                .utf8)
        body += try Data(contentsOf: file) + Data("\r\n--\(boundary)--\r\n".utf8)
        var request = HTTPClientRequest(url: base + "/check")
        request.method = .POST
        request.headers.add(name: "Cookie", value: cookie)
        request.headers.add(name: "Origin", value: base)
        request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
        request.body = .bytes(ByteBuffer(data: body))
        let response = try await client.execute(request, timeout: .seconds(120))
        _ = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .seeOther, let location = response.headers["location"].first else {
            return .failed(message: "the upload was answered \(response.status.code)", archiveUnchanged: false)
        }
        let deadline = Date().addingTimeInterval(300)
        while Date() < deadline {
            let page = try await get(location).body
            if !page.contains("http-equiv=\"refresh\"") { return Self.outcome(of: page) }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        throw DashboardProcessError(message: "the check at \(location) did not end")
    }

    static func outcome(of page: String) -> Upload {
        if let range = page.range(of: #"Capture [0-9]+: [0-9,]+ records"#, options: .regularExpression) {
            let numbers = page[range].split(whereSeparator: { !$0.isNumber && $0 != "," }).map {
                $0.replacingOccurrences(of: ",", with: "")
            }
            return .completed(capture: Int64(numbers[0])!, records: Int(numbers[1])!)
        }
        let message =
            page.range(of: #"<h2>The check did not complete</h2><p>[^<]*"#, options: .regularExpression).map {
                String(page[$0].dropFirst("<h2>The check did not complete</h2><p>".count))
            } ?? "no result on the page"
        return .failed(message: message, archiveUnchanged: page.contains("it was left as it was"))
    }

    func stop() async {
        process.terminate()
        process.waitUntilExit()
        try? await client.shutdown()
    }
}

struct DashboardProcessError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
