import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Neo4j's Query API v2 over HTTP(S): statements with typed JSON parameters in explicit
/// transactions (begin, run, commit, roll back), the cluster-affinity header echoed, errors
/// read from the body whatever the status, retries with backoff on 429, 503, transient errors and
/// lost connections. Credentials go in the Authorization header only and are never printed.
public struct Neo4jQueryClient: Sendable {
    public enum Credentials: Sendable {
        case basic(user: String, password: String)
        case bearer(token: String)

        var header: String {
            switch self {
            case .basic(let user, let password): "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
            case .bearer(let token): "Bearer " + token
            }
        }
    }

    /// An open transaction: its id, and the cluster member it lives on.
    public struct Transaction: Sendable, Equatable {
        public let id: String
        public let affinity: String?
    }

    public let base: URL
    public let database: String
    let credentials: Credentials
    let session: URLSession
    let timeout: TimeInterval
    let attempts: Int
    let backoff: TimeInterval

    public init(
        base: URL, database: String, credentials: Credentials, session: URLSession = .shared,
        timeout: TimeInterval = 30, attempts: Int = 4, backoff: TimeInterval = 0.5
    ) {
        self.base = base
        self.database = database
        self.credentials = credentials
        self.session = session
        self.timeout = timeout
        self.attempts = attempts
        self.backoff = backoff
    }

    private var host: String { base.host ?? base.absoluteString }
    private var queryPath: String { "db/\(database)/query/v2" }

    /// Runs one statement in a transaction of its own (schema changes, which Neo4j keeps apart).
    @discardableResult
    public func run(_ statement: String, _ parameters: [String: CypherValue] = [:]) async throws -> GraphResult {
        let (object, _) = try await send("POST", queryPath, body: Self.body(statement, parameters), affinity: nil)
        return Self.result(object)
    }

    public func begin() async throws -> Transaction {
        let (object, affinity) = try await send("POST", queryPath + "/tx", body: [:], affinity: nil)
        guard let transaction = object["transaction"] as? [String: Any], let id = transaction["id"] as? String else {
            throw Neo4jError.unreadable(host: host, problem: "a new transaction has no id")
        }
        return Transaction(id: id, affinity: affinity)
    }

    @discardableResult
    public func run(_ statement: String, _ parameters: [String: CypherValue], in transaction: Transaction) async throws
        -> GraphResult
    {
        let (object, _) = try await send(
            "POST", queryPath + "/tx/\(transaction.id)", body: Self.body(statement, parameters),
            affinity: transaction.affinity)
        return Self.result(object)
    }

    public func commit(_ transaction: Transaction) async throws {
        do {
            _ = try await send(
                "POST", queryPath + "/tx/\(transaction.id)/commit", body: [:], affinity: transaction.affinity,
                retryingLostConnections: false)
        } catch Neo4jError.unreachable(let host, _) {
            throw Neo4jError.commitUnknown(host: host)
        }
    }

    public func rollback(_ transaction: Transaction) async throws {
        _ = try await send("DELETE", queryPath + "/tx/\(transaction.id)", body: nil, affinity: transaction.affinity)
    }

    static func body(_ statement: String, _ parameters: [String: CypherValue]) -> [String: Any] {
        [
            "statement": statement, "parameters": parameters.mapValues { Neo4jTypedJSON.encode($0) as Any },
            "includeCounters": true,
        ]
    }

    /// Columns, rows and counters of a response body.
    static func result(_ object: [String: Any]) -> GraphResult {
        var result = GraphResult()
        if let data = object["data"] as? [String: Any] {
            result.columns = data["fields"] as? [String] ?? []
            result.rows = (data["values"] as? [[Any]] ?? []).map { $0.map(Neo4jTypedJSON.decode) }
        }
        if let counters = object["counters"] as? [String: Any] {
            func count(_ name: String) -> Int { (counters[name] as? NSNumber)?.intValue ?? 0 }
            result.counters.nodesCreated = count("nodesCreated")
            result.counters.nodesDeleted = count("nodesDeleted")
            result.counters.relationshipsCreated = count("relationshipsCreated")
            result.counters.relationshipsDeleted = count("relationshipsDeleted")
            result.counters.propertiesSet = count("propertiesSet")
            result.counters.labelsAdded = count("labelsAdded")
        }
        return result
    }

    /// Sends a request, retrying what the server or the network says may succeed later.
    /// A commit whose connection failed may have committed or not: asking again would only say
    /// the transaction is unknown, so it is not retried (`retryingLostConnections`).
    private func send(
        _ method: String, _ path: String, body: [String: Any]?, affinity: String?, retryingLostConnections: Bool = true
    ) async throws
        -> ([String: Any], String?)
    {
        var request = URLRequest(url: base.appendingPathComponent(path), timeoutInterval: timeout)
        request.httpMethod = method
        request.setValue(credentials.header, forHTTPHeaderField: "Authorization")
        request.setValue(Neo4jTypedJSON.mediaType, forHTTPHeaderField: "Accept")
        if let body {
            request.setValue(Neo4jTypedJSON.mediaType, forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
        }
        if let affinity { request.setValue(affinity, forHTTPHeaderField: Self.affinityHeader) }
        var attempt = 1
        while true {
            do {
                return try await exchange(request)
            } catch let error as Neo4jError
                where error.isTransient && attempt < attempts && (retryingLostConnections || !error.isLostConnection)
            {
                try await Task.sleep(nanoseconds: UInt64(backoff * pow(2, Double(attempt - 1)) * 1e9))
                attempt += 1
            }
        }
    }

    static let affinityHeader = "neo4j-cluster-affinity"

    private func exchange(_ request: URLRequest) async throws -> ([String: Any], String?) {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch let error as URLError {
            throw Neo4jError.unreachable(host: host, problem: Self.describe(error))
        }
        guard let http = response as? HTTPURLResponse else {
            throw Neo4jError.unreadable(host: host, problem: "the answer is not HTTP")
        }
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        let codes = (object["errors"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        if http.statusCode == 401 || codes.contains(where: { $0.hasPrefix("Neo.ClientError.Security.Unauthorized") }) {
            throw Neo4jError.refusedCredentials(host: host)
        }
        if let code = codes.first {
            if code.contains("TransactionNotFound") || code.contains("Transaction.TransactionTimedOut") {
                throw Neo4jError.transactionExpired(host: host)
            }
            throw Neo4jError.server(host: host, code: code, status: http.statusCode)
        }
        guard (200..<300).contains(http.statusCode) else {
            throw Neo4jError.status(host: host, status: http.statusCode)
        }
        let affinity = http.value(forHTTPHeaderField: Self.affinityHeader)
        return (object, affinity)
    }

    private static func describe(_ error: URLError) -> String {
        switch error.code {
        case .timedOut: "no answer within the time limit"
        case .cannotFindHost, .dnsLookupFailed: "the host is not known"
        case .cannotConnectToHost: "the connection was refused"
        case .networkConnectionLost: "the connection was lost"
        case .notConnectedToInternet: "this machine is offline"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            "the TLS connection failed"
        default: "the network failed (\(error.code.rawValue))"
        }
    }
}

/// What went wrong talking to Neo4j, told by host and error code, never by a statement's values.
public enum Neo4jError: Error, Equatable, CustomStringConvertible {
    case unreachable(host: String, problem: String)
    case refusedCredentials(host: String)
    case transactionExpired(host: String)
    /// The connection failed during the commit: the server may have committed or not.
    case commitUnknown(host: String)
    case server(host: String, code: String, status: Int)
    case status(host: String, status: Int)
    case unreadable(host: String, problem: String)

    /// The request may have reached the server: the connection failed, not the server's answer.
    var isLostConnection: Bool {
        if case .unreachable = self { return true }
        return false
    }

    /// Worth trying again after a pause: the server was busy or the connection failed.
    var isTransient: Bool {
        switch self {
        case .unreachable: true
        case .status(_, let status): status == 429 || status == 503
        case .server(_, let code, let status): code.hasPrefix("Neo.TransientError") || status == 429 || status == 503
        default: false
        }
    }

    public var description: String {
        switch self {
        case .unreachable(let host, let problem): "Neo4j at \(host) cannot be reached: \(problem)"
        case .refusedCredentials(let host): "Neo4j refused the credentials for \(host)"
        case .transactionExpired(let host):
            "the transaction on \(host) expired before it was committed; run the sync again"
        case .commitUnknown(let host):
            "the connection to \(host) failed while committing: the sync may or may not be in the graph; run it again (it writes the same days)"
        case .server(let host, let code, _): "Neo4j at \(host) refused a statement (\(code))"
        case .status(let host, let status): "Neo4j at \(host) answered HTTP \(status)"
        case .unreadable(let host, let problem): "Neo4j at \(host) answered something unreadable: \(problem)"
        }
    }
}
