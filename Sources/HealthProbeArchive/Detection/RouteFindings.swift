import AppleHealthExport
import Foundation
internal import GRDB

/// `route_changed`: workouts whose route vanished, lost points or changed points, with the
/// points before and after and the stretches of time lost — never a coordinate.
enum RouteFindings {
    /// What one workout's route became.
    struct Comparison {
        var pointsBefore = 0
        var pointsAfter = 0
        var lost = 0
        var added = 0
        /// Runs of consecutive lost points: first and last time, points.
        var stretches: [(Double, Double, Int)] = []
        var gone = false
    }

    static func changed(
        _ changes: [ReferencedFileDetector.Change], exportHeldNone: Bool, pair: CapturePair, _ db: Database
    ) throws -> Finding {
        var tally = RecordTally(zone: pair.dayZone)
        var total = Comparison()
        var gone = 0
        var shortened = 0
        var altered = 0
        var unreadable: [String] = []
        for change in changes {
            tally.add(id: change.recordID, source: change.source, start: change.start, end: change.end)
            // A file the reader cannot read says nothing of the points it holds: not a loss.
            if let problem = unreadableProblem(change) {
                unreadable.append(problem)
                continue
            }
            let comparison = try compare(change, db)
            total.pointsBefore += comparison.pointsBefore
            total.pointsAfter += comparison.pointsAfter
            total.lost += comparison.lost
            total.added += comparison.added
            total.stretches += comparison.stretches
            if comparison.gone {
                gone += 1
            } else if comparison.added == 0 {
                shortened += 1
            } else {
                altered += 1
            }
        }
        var evidence = tally.evidence
        evidence["routesGone"] = String(gone)
        evidence["routesShortened"] = String(shortened)
        evidence["routesChanged"] = String(altered)
        evidence["routesUnreadable"] = String(unreadable.count)
        if let problem = unreadable.first { evidence["unreadableBecause"] = problem }
        evidence["pointsBefore"] = String(total.pointsBefore)
        evidence["pointsAfter"] = String(total.pointsAfter)
        evidence["pointsLost"] = String(total.lost)
        evidence["pointsAdded"] = String(total.added)
        let seconds = total.stretches.reduce(0) { $0 + ($1.1 - $1.0) }
        evidence["timeLost"] = EvidenceText.duration(seconds)
        evidence["lostStretches"] = stretchText(total.stretches)
        evidence["files"] = DocumentFindings.files(changes.flatMap(\.before).map(\.path))
        evidence["previousCaptureId"] = pair.previous.map { String($0.id) }
        evidence["exportHeldNoRoutes"] = exportHeldNone ? "true" : "false"
        var parts: [String] = []
        if gone > 0 { parts.append("\(gone) lost \(gone == 1 ? "its route" : "their routes")") }
        if shortened > 0 { parts.append("\(shortened) lost points") }
        if altered > 0 { parts.append("\(altered) changed points") }
        if let problem = unreadable.first {
            parts.append(
                "\(unreadable.count) could not be read (\(problem)), so \(unreadable.count == 1 ? "its" : "their") points were not compared"
            )
        }
        let share = total.pointsBefore > 0 ? Double(total.lost) / Double(total.pointsBefore) : 0
        let count = changes.count
        return Finding(
            type: .routeChanged, severity: .warning, sampleType: HealthRecord.workoutType,
            summary: "\(EvidenceText.grouped(count)) workout route\(count == 1 ? "" : "s") damaged: "
                + parts.joined(separator: ", ") + " — \(EvidenceText.grouped(total.lost)) of "
                + "\(EvidenceText.grouped(total.pointsBefore)) points (\(EvidenceText.percent(share))%) gone"
                + (exportHeldNone
                    ? "; the export checked held no route at all — was its main XML checked without its folder?" : ""),
            recordCount: count, evidence: evidence, records: [.ids(role: "workout", tally.ids)])
    }

    /// Why the export's file of a route could not be read, when none of its files could: then
    /// its points are unknown, not lost.
    static func unreadableProblem(_ change: ReferencedFileDetector.Change) -> String? {
        guard !change.after.isEmpty, change.after.allSatisfy({ $0.problem != nil }) else { return nil }
        return change.after.first?.problem
    }

    /// Whether a route's files, read before and now, hold the same points: the same values
    /// written another way (`1.50` for `1.5`) or the track split into other segments is no change.
    /// One the earlier export could not read is no change either: nothing was known to be lost.
    static func isUnchanged(_ change: ReferencedFileDetector.Change, _ db: Database) throws -> Bool {
        guard unreadableProblem(change) == nil else { return false }
        guard try !tracks(change.before, db).isEmpty else { return true }
        let comparison = try compare(change, db)
        return !comparison.gone && comparison.lost == 0 && comparison.added == 0
            && comparison.pointsBefore == comparison.pointsAfter
    }

    /// The points a workout's route had and has, from the tracks the archive keeps.
    static func compare(_ change: ReferencedFileDetector.Change, _ db: Database) throws -> Comparison {
        var comparison = Comparison()
        let before = try tracks(change.before, db)
        let after = try tracks(change.after, db)
        comparison.pointsBefore = before.reduce(0) { $0 + $1.count }
        comparison.pointsAfter = after.reduce(0) { $0 + $1.count }
        comparison.gone = after.isEmpty
        let kept = Set(after.flatMap { track in (0..<track.count).map { Key(track.point($0)) } })
        let had = Set(before.flatMap { track in (0..<track.count).map { Key(track.point($0)) } })
        comparison.added = after.reduce(0) { total, track in
            total + (0..<track.count).filter { !had.contains(Key(track.point($0))) }.count
        }
        for track in before {
            var run: (Double, Double, Int)?
            for index in 0..<track.count {
                guard !kept.contains(Key(track.point(index))) else {
                    if let finished = run { comparison.stretches.append(finished) }
                    run = nil
                    continue
                }
                comparison.lost += 1
                let time = track.time(of: index) ?? 0
                run = run.map { ($0.0, time, $0.2 + 1) } ?? (time, time, 1)
            }
            if let finished = run { comparison.stretches.append(finished) }
        }
        return comparison
    }

    private struct Key: Hashable {
        var fields: [Int64?]
        init(_ fields: [Int64?]) { self.fields = fields }
    }

    private static func tracks(_ sightings: [ReferencedFileDetector.Sighting], _ db: Database) throws -> [RouteTrack] {
        try sightings.compactMap { sighting in
            guard sighting.problem == nil, let digest = sighting.digest,
                let bytes = try ReferencedFiles.content(digest: digest, db)
            else { return nil }
            return TrackCoding.decode(bytes)
        }
    }

    /// "2000-01-01 07:40:12–07:45:30 UTC (312 points)", the longest first, at most five.
    static func stretchText(_ stretches: [(Double, Double, Int)]) -> String {
        let longest = stretches.sorted { ($0.1 - $0.0, $0.2) > ($1.1 - $1.0, $1.2) }
        var parts = longest.prefix(5).map { stretch in
            let start = UTCText.iso8601(seconds: stretch.0)
            let end = UTCText.iso8601(seconds: stretch.1)
            return "\(start) – \(end) (\(stretch.2) point\(stretch.2 == 1 ? "" : "s"))"
        }
        if stretches.count > 5 { parts.append("and \(stretches.count - 5) more") }
        return parts.joined(separator: "; ")
    }
}
