import AppleHealthExport
import Foundation
import GRDB
import HealthProbeArchive

/// Splits the stored details of workouts and correlations into the SQLite export's tables of
/// parts. Few records are workouts or correlations, so their details are read with
/// `JSONSerialization`.
struct WorkoutPartsWriter {
    private let workout: Statement
    private let event: Statement
    private let statistic: Statement
    private let activity: Statement
    private let route: Statement
    private let member: Statement

    init(_ db: Database) throws {
        workout = try db.makeStatement(
            sql: """
                INSERT INTO workouts (sampleId, activityType, startDate, endDate, durationSeconds, attributes)
                VALUES (?, ?, ?, ?, ?, ?)
                """)
        event = try db.makeStatement(
            sql: """
                INSERT INTO workoutEvents (sampleId, position, type, date, duration, durationUnit, metadata)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
        statistic = try db.makeStatement(
            sql: """
                INSERT INTO workoutStatistics (sampleId, type, startDate, endDate, average, minimum, maximum, sum, unit)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        activity = try db.makeStatement(
            sql: "INSERT INTO workoutActivities (sampleId, position, details) VALUES (?, ?, ?)")
        route = try db.makeStatement(
            sql: "INSERT INTO workoutRoutes (sampleId, file, digest, points) VALUES (?, ?, ?, ?)")
        member = try db.makeStatement(
            sql: """
                INSERT INTO correlationMembers (correlationId, type, sourceName, unit, value, textValue, startDate, endDate)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
    }

    private static let workout = Array("workout".utf8)
    private static let correlation = Array("correlation".utf8)

    func add(_ cursor: ArchivedRecordCursor, _ context: inout ExportContext, _ db: Database) throws {
        guard let id = cursor.integer(.id), let kind = cursor.text(.kind) else { return }
        if kind.elementsEqual(Self.workout) {
            try addWorkout(id, cursor, &context)
        } else if kind.elementsEqual(Self.correlation) {
            try addMembers(id, cursor, &context)
        }
    }

    private func details(_ cursor: ArchivedRecordCursor) -> CanonicalJSON? {
        cursor.text(.details).flatMap { CanonicalJSON(canonicalText: $0) }
    }

    private func addWorkout(_ id: Int64, _ cursor: ArchivedRecordCursor, _ context: inout ExportContext) throws {
        let details = details(cursor)
        let start = cursor.double(.startDate)
        let end = cursor.double(.endDate)
        let duration: Double? = if let start, let end { end - start } else { nil }
        try workout.execute(arguments: [
            id, details?["activityType"]?.string, start.map { context.timestamps.text($0) },
            end.map { context.timestamps.text($0) }, duration, details?["otherAttributes"]?.text,
        ])
        for (position, event) in (details?["events"]?.array ?? []).enumerated() {
            let attributes = event["attributes"]?.strings ?? [:]
            try self.event.execute(arguments: [
                id, position, event["type"]?.string, event["date"]?.string, attributes["duration"].flatMap(Double.init),
                attributes["durationUnit"], event["metadata"]?.metadataObject.text,
            ])
        }
        for statistic in details?["statistics"]?.array ?? [] {
            let attributes = statistic["attributes"]?.strings ?? [:]
            try self.statistic.execute(arguments: [
                id, statistic["type"]?.string, attributes["startDate"], attributes["endDate"],
                attributes["average"].flatMap(Double.init), attributes["minimum"].flatMap(Double.init),
                attributes["maximum"].flatMap(Double.init), attributes["sum"].flatMap(Double.init), attributes["unit"],
            ])
        }
        for (position, activity) in (details?["activities"]?.array ?? []).enumerated() {
            try self.activity.execute(arguments: [id, position, activity.text])
        }
        for digest in context.routes(cursor) ?? [] {
            try route.execute(arguments: [id, digest.file, digest.digest, digest.points])
        }
    }

    private func addMembers(_ id: Int64, _ cursor: ArchivedRecordCursor, _ context: inout ExportContext) throws {
        for member in details(cursor)?["records"]?.array ?? [] {
            let record = member.strings
            let value = record["value"]
            let number = value.flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil }
            try self.member.execute(arguments: [
                id, record["type"], record["sourceName"], record["unit"], number, number == nil ? value : nil,
                Self.zoned(record["startDate"], &context), Self.zoned(record["endDate"], &context),
            ])
        }
    }

    /// A UTC date as stored in details, written in the export's zone like every other date.
    private static func zoned(_ utc: String?, _ context: inout ExportContext) -> String? {
        guard let utc else { return nil }
        guard let seconds = UTCText.parseISO8601(utc) else { return utc }
        return context.timestamps.text(seconds)
    }
}
