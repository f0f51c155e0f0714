import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

@testable import HealthProbeGraph

/// A local HTTP server that follows Neo4j's documented Query API contract — request and response
/// bodies, typed JSON, explicit transactions with an affinity header, errors in the body, 401
/// for bad credentials, an unknown or expired transaction — and runs the committed statements
/// for real on a FalkorDB graph. Faults can be asked for: busy answers, a refused statement,
/// transactions that expire.
actor Neo4jContractState {
    struct Request: Sendable {
        var method: String
        var path: String
        var authorization: String?
        var contentType: String?
        var accept: String?
        var affinity: String?
        var bodyData: Data

        var body: [String: Any] {
            (try? JSONSerialization.jsonObject(with: bodyData)) as? [String: Any] ?? [:]
        }
    }

    /// The Neo4j version emulated, by the media types it knows (Neo4j's Query API changelog):
    /// typed JSON as `application/vnd.neo4j.query` since 5.19, its `v1.1` only since 2025.11.
    enum Version: String, Sendable, CaseIterable {
        case neo4j5_26 = "5.26"
        case neo4j2025_11 = "2025.11"

        var mediaTypes: Set<String> {
            let known: Set = ["application/json", "application/vnd.neo4j.query"]
            return self == .neo4j5_26 ? known : known.union(["application/vnd.neo4j.query.v1.1"])
        }
    }

    let graph: FalkorDBGraph?
    let password: String
    let version: Version
    private(set) var requests: [Request] = []
    private var transactions: [String: [(String, [String: CypherValue])]] = [:]
    private var nextTransaction = 1
    /// HTTP statuses to answer with, first to last, before anything else.
    var busyAnswers: [Int] = []
    /// A statement holding this text is refused with a syntax error.
    var refuseStatementsContaining: String?
    var expireTransactions = false
    private(set) var committed = 0
    private(set) var rolledBack = 0

    /// Committed statements run on `graph` of the FalkorDB at `socket` (none: only acknowledged).
    init(
        socket: String?, graph name: String = "health", password: String = "test-password",
        version: Version = .neo4j5_26
    ) throws {
        graph = try socket.map { try FalkorDBGraph(.unixSocket($0), graph: name) }
        self.password = password
        self.version = version
    }

    func setBusyAnswers(_ statuses: [Int]) { busyAnswers = statuses }
    func refuse(containing text: String) { refuseStatementsContaining = text }
    func expire() { expireTransactions = true }

    static let affinity = "member-7"

    /// The answer to a request: status, JSON body and the affinity header to send.
    func answer(_ request: Request) -> (Int, Data, String?) {
        let (status, object, affinity) = handle(request)
        return (status, (try? JSONSerialization.data(withJSONObject: object)) ?? Data(), affinity)
    }

    private func handle(_ request: Request) -> (Int, [String: Any], String?) {
        requests.append(request)
        if let type = request.contentType, !version.mediaTypes.contains(type) {
            return (415, Self.error("Neo.ClientError.Request.Invalid", "unsupported media type \(type)"), nil)
        }
        if let accept = request.accept, !version.mediaTypes.contains(accept) {
            return (406, Self.error("Neo.ClientError.Request.Invalid", "cannot produce \(accept)"), nil)
        }
        let accepted = [
            "Basic " + Data("neo4j:\(password)".utf8).base64EncodedString(), "Bearer test-token",
        ]
        guard let authorization = request.authorization, accepted.contains(authorization) else {
            return (401, Self.error("Neo.ClientError.Security.Unauthorized", "The client is unauthorized"), nil)
        }
        if !busyAnswers.isEmpty {
            let status = busyAnswers.removeFirst()
            return (status, Self.error("Neo.TransientError.General.DatabaseUnavailable", "busy"), nil)
        }
        let parts = request.path.split(separator: "/").map(String.init)
        // db/{database}/query/v2[/tx[/{id}[/commit]]]
        guard parts.count >= 4, parts[0] == "db", parts[2] == "query", parts[3] == "v2" else {
            return (404, Self.error("Neo.ClientError.Request.Invalid", "no such endpoint"), nil)
        }
        if parts.count == 4 { return runAlone(request) }
        if parts.count == 5 {
            let id = "tx-\(nextTransaction)"
            nextTransaction += 1
            transactions[id] = []
            return (202, ["transaction": ["id": id, "expires": "Sat, 1 Jan 2000 00:01:00 GMT"]], Self.affinity)
        }
        let id = parts[5]
        guard !expireTransactions, transactions[id] != nil else {
            return (
                404, Self.error("Neo.ClientError.Transaction.TransactionNotFound", "Transaction \(id) not found"), nil
            )
        }
        if request.method == "DELETE" {
            transactions[id] = nil
            rolledBack += 1
            return (200, [:], nil)
        }
        if parts.count == 7, parts[6] == "commit" {
            let statements = transactions.removeValue(forKey: id) ?? []
            for (statement, parameters) in statements { _ = try? graph?.run(statement, parameters) }
            committed += 1
            return (202, ["bookmarks": ["FB:test"]], nil)
        }
        let body = request.body
        guard let statement = body["statement"] as? String else {
            return (400, Self.error("Neo.ClientError.Request.Invalid", "no statement"), nil)
        }
        if let refused = refuseStatementsContaining, statement.contains(refused) {
            transactions[id] = nil
            return (400, Self.error("Neo.ClientError.Statement.SyntaxError", "Invalid input"), nil)
        }
        transactions[id]?.append((statement, Self.parameters(body)))
        return (
            202, ["data": ["fields": [], "values": []], "counters": Self.counters(rows: Self.rowCount(body))], nil
        )
    }

    /// A statement in a transaction of its own: the schema statements, acknowledged.
    private func runAlone(_ request: Request) -> (Int, [String: Any], String?) {
        guard let statement = request.body["statement"] as? String else {
            return (400, Self.error("Neo.ClientError.Request.Invalid", "no statement"), nil)
        }
        if !statement.hasPrefix("CREATE CONSTRAINT") && !statement.hasPrefix("CREATE INDEX") {
            _ = try? graph?.run(statement, Self.parameters(request.body))
        }
        return (202, ["data": ["fields": [], "values": []], "counters": Self.counters(rows: 0)], nil)
    }

    static func parameters(_ body: [String: Any]) -> [String: CypherValue] {
        let typed = body["parameters"] as? [String: Any] ?? [:]
        return typed.compactMapValues { Neo4jTypedJSON.value($0) }
    }

    static func rowCount(_ body: [String: Any]) -> Int {
        if case .list(let rows)? = parameters(body)["rows"] { return rows.count }
        return 0
    }

    /// Counters as Neo4j reports them (here: one property set per row, to show they are read).
    static func counters(rows: Int) -> [String: Any] {
        [
            "containsUpdates": rows > 0, "nodesCreated": 0, "nodesDeleted": 0, "propertiesSet": rows,
            "relationshipsCreated": 0, "relationshipsDeleted": 0, "labelsAdded": 0,
        ]
    }

    static func error(_ code: String, _ message: String) -> [String: Any] {
        ["errors": [["code": code, "message": message]]]
    }
}

enum Neo4jContractServer {
    /// The router: every request goes through the contract state.
    static func router(_ state: Neo4jContractState) -> Router<BasicRequestContext> {
        let router = Router()
        let handler: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            let bytes = try await request.body.collect(upTo: 50_000_000)
            let recorded = Neo4jContractState.Request(
                method: request.method.rawValue, path: request.uri.path,
                authorization: request.headers[.authorization], contentType: request.headers[.contentType],
                accept: request.headers[.accept], affinity: request.headers[HTTPField.Name("neo4j-cluster-affinity")!],
                bodyData: Data(buffer: bytes))
            let (status, data, affinity) = await state.answer(recorded)
            var headers: HTTPFields = [.contentType: recorded.accept ?? "application/json"]
            if let affinity { headers[HTTPField.Name("neo4j-cluster-affinity")!] = affinity }
            return Response(
                status: HTTPResponse.Status(code: status), headers: headers,
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }
        for path in [
            "/db/:db/query/v2", "/db/:db/query/v2/tx", "/db/:db/query/v2/tx/:id", "/db/:db/query/v2/tx/:id/commit",
        ] {
            router.post(RouterPath(path), use: handler)
            router.delete(RouterPath(path), use: handler)
        }
        return router
    }
}
