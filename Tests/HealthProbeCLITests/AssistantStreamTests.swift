import Foundation
import HealthProbeMCP
import TestSupport
import Testing

/// `healthprobe mcp`'s standard input and output as JSON-RPC 2.0 lines, written raw: answers go
/// out whole (each line one JSON message) and every request is answered, pipelined or not; what
/// is not a request gets the error JSON-RPC names, with its id or null; a long line is refused
/// without being read into memory.
@Suite("Assistant stream (JSON-RPC)", .serialized)
struct AssistantStreamTests {
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"

    /// Runs the server over `lines` (then end of input) and returns each line it wrote, parsed.
    static func serve(_ archive: String, _ lines: [String], in folder: URL) throws -> [[String: Any]] {
        let input = folder.appendingPathComponent("requests-\(UUID().uuidString).jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = ["mcp", "--archive", archive]
        process.standardInput = try FileHandle(forReadingFrom: input)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try data.split(separator: UInt8(ascii: "\n")).map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line))
            return try #require(object as? [String: Any], "a line that is not one message")
        }
    }

    static func request(_ id: Any, _ method: String, _ params: [String: Any]? = nil) throws -> String {
        var object: [String: Any] = ["jsonrpc": "2.0", "id": id, "method": method]
        if let params { object["params"] = params }
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    static let opening = [
        #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#,
        #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    ]

    @Test func pipelinedAnswersComeOutWholeAndEveryRequestIsAnswered() throws {
        let (folder, archive) = try AssistantAccessTests.demoArchive()
        var lines = Self.opening
        for id in 1...20 {
            lines.append(
                try Self.request(
                    id, "tools/call",
                    [
                        "name": "get_records",
                        "arguments": [
                            "sample_type": Self.heartRate, "from": "2000-01-01", "to": "2001-01-01", "limit": 500,
                        ],
                    ]))
        }
        for id in 100..<5_100 { lines.append(try Self.request(id, "ping")) }
        let answers = try Self.serve(archive, lines, in: folder)
        let ids = answers.compactMap { $0["id"] as? Int }
        #expect(ids.count == 5_021)
        #expect(Set(ids) == Set([0] + Array(1...20) + Array(100..<5_100)))
        let records = answers.filter { ($0["id"] as? Int).map { (1...20).contains($0) } ?? false }
        #expect(records.allSatisfy { $0["result"] != nil })
        let sizes = records.compactMap { try? JSONSerialization.data(withJSONObject: $0).count }
        #expect(sizes.allSatisfy { $0 > 50_000 }, "the answers were meant to be long: \(sizes.prefix(3))")
    }

    @Test func whatIsNotARequestGetsTheErrorJSONRPCNames() throws {
        let (folder, archive) = try AssistantAccessTests.demoArchive()
        var lines = Self.opening
        lines += [
            "this is not JSON",
            #"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":true,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":"typed","method":"tools/call","params":{"name":5}}"#,
            #"{"jsonrpc":"2.0","id":"flat","method":"tools/call","params":"archive_status"}"#,
            #"{"jsonrpc":"1.0","id":"old","method":"ping"}"#,
            #"{"jsonrpc":"2.0","method":"notifications/whatever","params":7}"#,
            // 20 MiB on one line, refused without being kept.
            #"{"jsonrpc":"2.0","id":"long","method":"ping","params":{"pad":""# + String(repeating: "x", count: 20 << 20)
                + #""}}"#,
            try Self.request("after", "ping"),
        ]
        let answers = try Self.serve(archive, lines, in: folder)
        func error(_ answer: [String: Any]) -> (code: Int, message: String)? {
            guard let error = answer["error"] as? [String: Any], let code = error["code"] as? Int else { return nil }
            return (code, error["message"] as? String ?? "")
        }
        let unnamed = answers.filter { $0["id"] is NSNull }.compactMap(error)
        #expect(unnamed.filter { $0.code == -32700 }.count == 1)
        #expect(
            unnamed.filter { $0.code == -32600 && $0.message.contains("an id is a string or an integer") }.count == 5)
        #expect(unnamed.filter { $0.code == -32600 && $0.message.contains("at most 1 MiB") }.count == 1)
        #expect(unnamed.count == 7, "\(unnamed)")
        let named = Dictionary(
            answers.compactMap { answer in (answer["id"] as? String).map { ($0, answer) } }, uniquingKeysWith: { $1 })
        #expect(named["typed"].flatMap(error)?.code == -32602)
        #expect(named["typed"].flatMap(error)?.message.contains("name must be a string") == true)
        #expect(named["flat"].flatMap(error)?.code == -32602)
        #expect(named["old"].flatMap(error)?.code == -32600)
        #expect(named["after"]?["result"] != nil, "the request after the long line was not answered")
        #expect(named["long"] == nil)
        // The notification is never answered; the initialize is.
        #expect(answers.count == 1 + 7 + 3 + 1)
    }

    /// Every request line the fuzzer kept (Fuzz/corpus/request) is screened again.
    @Test func theRequestCorpusIsScreenedWithoutATrap() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/corpus/request").standardized
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!names.isEmpty)
        for name in names {
            AssistantFuzzTarget.request(Array(try Data(contentsOf: folder.appendingPathComponent(name))))
        }
    }
}
