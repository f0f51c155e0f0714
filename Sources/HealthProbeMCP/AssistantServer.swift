import Foundation
import HealthProbeArchive
import HealthProbeKit
import MCP

/// `healthprobe mcp`: a Model Context Protocol server over stdio, on this machine only, that
/// answers an assistant from the archive — read-only but for a note of each question in the audit
/// trail, and without a single record's health value unless the user started it with
/// `--reveal-values`. Resources explain what the anomaly types and the numbers mean.
public struct AssistantServer: Sendable {
    let archivePath: String
    let revealValues: Bool

    public init(archivePath: String, revealValues: Bool) {
        self.archivePath = archivePath
        self.revealValues = revealValues
    }

    /// Serves on standard input and output until the assistant closes them.
    public func run(version: String) async throws {
        // Read-only connections: a write by mistake fails instead of changing the archive. The
        // trail's notes go through a writable one, opened at the first question.
        let store = try ArchiveStore.openForReading(at: archivePath)
        let answers = AssistantAnswers(store: store, revealValues: revealValues)
        let trail = TrailWriter(store: store)
        let answering = AnswerThread()
        let server = Server(
            name: "healthprobe", version: version,
            instructions: """
                HealthProbe keeps a forensic archive of the user's Apple Health records and audits it: what \
                vanished, appeared late, is duplicated or changed. Start with archive_status; cite anomalies \
                by id; say which days the archive cannot vouch for. Read the resources for what each anomaly \
                type and number means.
                """,
            capabilities: .init(
                resources: .init(subscribe: false, listChanged: false), tools: .init(listChanged: false)))
        let reveal = revealValues
        let tools = AssistantTools.all(revealValues: reveal)
        await server.withMethodHandler(ListTools.self) { _ in .init(tools: tools) }
        await server.withMethodHandler(CallTool.self) { call in
            let arguments = call.arguments ?? [:]
            guard let tool = tools.first(where: { $0.name == call.name }) else {
                throw MCPError.invalidParams("there is no tool \"\(ToolArguments.shown(call.name))\"")
            }
            if let problem = ToolArguments.problem(arguments, schema: tool.inputSchema) {
                throw MCPError.invalidParams(problem)
            }
            do {
                let answer = try await answering.answer { try answers.answer(call.name, arguments) }
                trail.note(
                    tool: call.name, argumentNames: Array(arguments.keys), resultBytes: answer.text.utf8.count)
                return CallTool.Result(
                    content: [.text(text: answer.text, annotations: nil, _meta: nil)],
                    structuredContent: Optional(answer.structured), isError: false)
            } catch let problem as AssistantProblem {
                return .init(content: [.text(text: problem.message, annotations: nil, _meta: nil)], isError: true)
            } catch {
                return .init(
                    content: [
                        .text(
                            text: "the archive could not answer: \(error.localizedDescription)", annotations: nil,
                            _meta: nil)
                    ], isError: true)
            }
        }
        await server.withMethodHandler(ListResources.self) { _ in
            .init(
                resources: AssistantResources.all.map { Resource(name: $0.name, uri: $0.uri, description: $0.summary) })
        }
        await server.withMethodHandler(ReadResource.self) { read in
            guard let resource = AssistantResources.all.first(where: { $0.uri == read.uri }) else {
                throw MCPError.invalidParams("no resource \(read.uri)")
            }
            return .init(contents: [.text(resource.text, uri: resource.uri, mimeType: "text/markdown")])
        }
        let transport = LineTransport()
        try await server.start(transport: transport)
        await server.waitUntilCompleted()
        await transport.drain()
    }
}

/// The audit trail's notes of the questions, through one writable connection made when the first
/// question comes; none when the archive cannot be written (then the answers still go out).
final class TrailWriter: @unchecked Sendable {
    private let store: ArchiveStore
    private let lock = NSLock()
    private var writable: ArchiveStore?

    init(store: ArchiveStore) {
        self.store = store
    }

    func note(tool: String, argumentNames: [String], resultBytes: Int) {
        let target = lock.withLock { () -> ArchiveStore? in
            if writable == nil { writable = try? store.writable() }
            return writable
        }
        target?.noteAssistantQuery(tool: tool, argumentNames: argumentNames, resultBytes: resultBytes)
    }
}
