import Foundation

/// Where a sync goes, from the URL the user gave (`graph sync --to`): Neo4j's Query API over
/// HTTPS (`neo4j+s://host`, `https://host[:port]`; plain `http://` to this machine only), or a
/// FalkorDB on this machine (`falkordb:///path/to/socket`, `falkordb://127.0.0.1:PORT`).
/// `?database=` names the Neo4j database (default `neo4j`), `?graph=` the FalkorDB graph
/// (default `health`). Credentials never travel in the URL.
public enum GraphDestination: Equatable, Sendable {
    case neo4j(base: URL, database: String)
    case falkorDB(RESPConnection.Endpoint, graph: String)

    public static func parse(_ text: String) throws -> GraphDestination {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw GraphSyncError.badDestination(
                "\(text) is not a URL: give neo4j+s://host, https://host or falkordb:///socket")
        }
        if components.password != nil {
            throw GraphSyncError.passwordInURL
        }
        let query = Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        let host = components.host ?? ""
        switch scheme {
        case "neo4j+s", "https":
            guard !host.isEmpty else { throw GraphSyncError.badDestination("\(text) names no host") }
            return .neo4j(
                base: try base(scheme: "https", host: host, port: components.port ?? 443), database: database(query))
        case "http":
            guard isLoopback(host) else {
                throw GraphSyncError.badDestination(
                    "plain HTTP goes to this machine only (localhost, 127.0.0.1); use https://\(host) for \(host)")
            }
            return .neo4j(
                base: try base(scheme: "http", host: host, port: components.port ?? 7474), database: database(query))
        case "falkordb":
            let graph = query["graph"].flatMap { $0.isEmpty ? nil : $0 } ?? "health"
            if host.isEmpty {
                guard !components.path.isEmpty else { throw GraphSyncError.badDestination("\(text) names no socket") }
                return .falkorDB(.unixSocket(components.path), graph: graph)
            }
            guard host == "127.0.0.1" || host == "localhost", let port = components.port,
                let valid = UInt16(exactly: port)
            else {
                throw GraphSyncError.badDestination(
                    "FalkorDB is reached on this machine only: falkordb:///path/to/socket or falkordb://127.0.0.1:PORT")
            }
            return .falkorDB(.loopback(port: valid), graph: graph)
        case "neo4j", "bolt", "bolt+s", "neo4j+ssc", "bolt+ssc":
            throw GraphSyncError.badDestination(
                "\(scheme):// is the Bolt protocol, which HealthProbe does not speak: use neo4j+s://\(host) (the Query API over HTTPS)"
            )
        default:
            throw GraphSyncError.badDestination(
                "\(scheme):// is not a graph destination: give neo4j+s://host, https://host or falkordb:///socket")
        }
    }

    /// The destination as the state and messages name it: no credentials, nothing but where.
    public var name: String {
        switch self {
        case .neo4j(let base, let database): "\(base.absoluteString) (database \(database))"
        case .falkorDB(.unixSocket(let path), let graph): "falkordb://\(path) (graph \(graph))"
        case .falkorDB(.loopback(let port), let graph): "falkordb://127.0.0.1:\(port) (graph \(graph))"
        }
    }

    /// The host a message names ("Neo4j refused the credentials for host").
    public var host: String {
        switch self {
        case .neo4j(let base, _): base.host ?? base.absoluteString
        case .falkorDB: "the local FalkorDB"
        }
    }

    /// Whether `host` is this machine without asking DNS: `localhost`, `::1`, or an IPv4 address
    /// in 127.0.0.0/8 written as four numbers. A name that merely starts with `127.`
    /// (`127.0.0.1.nip.io`) is looked up in DNS and may point anywhere.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in part.allSatisfy { $0.isASCII && $0.isNumber } && UInt8(part) != nil }
    }

    private static func base(scheme: String, host: String, port: Int) throws -> URL {
        var components = URLComponents()
        components.scheme = scheme
        components.host = host
        components.port = port
        guard let url = components.url else { throw GraphSyncError.badDestination("\(host) is not a host name") }
        return url
    }

    private static func database(_ query: [String: String]) -> String {
        query["database"].flatMap { $0.isEmpty ? nil : $0 } ?? "neo4j"
    }
}

extension GraphDestination {
    /// The engine that writes to this destination; Neo4j needs credentials, FalkorDB (a socket
    /// only its owner can open, or a loopback port) none.
    public func engine(credentials: Neo4jQueryClient.Credentials?) throws -> any GraphEngine {
        switch self {
        case .falkorDB(let endpoint, let graph):
            return FalkorDBEngine(endpoint: endpoint, graph: graph, destination: name)
        case .neo4j(let base, let database):
            guard let credentials else { throw GraphSyncError.credentialsNeeded }
            return Neo4jEngine(
                client: Neo4jQueryClient(base: base, database: database, credentials: credentials), destination: name)
        }
    }

    public var needsCredentials: Bool {
        if case .neo4j = self { return true }
        return false
    }
}
