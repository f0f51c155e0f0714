internal import GRDB

/// "The latest complete capture", said once: of any origin, or of the origins and scope asked
/// for, and before a capture when asked. A running capture is never the latest, whatever its id.
enum LatestCapture {
    static func id(
        _ db: Database, origins: [CaptureOrigin] = [], scope: CaptureScope? = nil, before: Int64? = nil
    ) throws -> Int64? {
        var conditions = ["status = \(CaptureStatus.complete.sqlLiteral)"]
        var arguments = StatementArguments()
        if let before {
            conditions.append("id < ?")
            arguments += [before]
        }
        if !origins.isEmpty {
            conditions.append("origin IN (\(databaseQuestionMarks(count: origins.count)))")
            arguments += StatementArguments(origins.map(\.rawValue))
        }
        if let scope {
            conditions.append("scope = ?")
            arguments += [scope.rawValue]
        }
        return try Int64.fetchOne(
            db, sql: "SELECT MAX(id) FROM capture WHERE \(conditions.joined(separator: " AND "))", arguments: arguments)
    }
}
