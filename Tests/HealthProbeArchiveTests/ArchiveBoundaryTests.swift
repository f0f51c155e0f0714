import Foundation
import Testing

/// The archive's SQL stays in the archive (`Scripts/check-archive-sql.py`): no file of another
/// target names one of its tables, and a file that does is refused, named and counted.
@Suite("The archive: its SQL in one target")
struct ArchiveBoundaryTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Scripts/check-archive-sql.py").standardized.path

    @Test func noOtherTargetNamesTheArchivesTables() throws {
        let checked = try Self.check()
        #expect(checked.status == 0, "\(checked.output)")
        #expect(checked.output.isEmpty)
    }

    @Test func aFileOutsideTheArchiveThatNamesATableIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("boundary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let face = folder.appendingPathComponent("Face.swift")
        // Read as tokens, not lines: a keyword and its table on two lines of one literal, or in
        // two literals joined, are found; words outside literals (comments, labels) are not SQL.
        try #"""
        let readable = "records from the archive"
        let query = "SELECT goneReason FROM record WHERE goneCapture = ?"
        let other = "UPDATE capture SET status = 'complete'"
        let split = """
            SELECT id FROM
                anomaly WHERE severity = ?
            """
        let joined = "SELECT * FROM " + "auditEntry"
        let quoted = "DELETE FROM \"setting\" WHERE key = \(key.isEmpty ? "x" : "y")"
        // SELECT * FROM record: a comment, not SQL
        let label = move(from: record)
        """#.write(to: face, atomically: true, encoding: .utf8)
        let checked = try Self.check([face.path])
        #expect(checked.status == 1)
        #expect(
            checked.output.split(separator: "\n") == [
                "\(face.path):2: names the archive's table 'record' outside HealthProbeArchive",
                "\(face.path):3: names the archive's table 'capture' outside HealthProbeArchive",
                "\(face.path):5: names the archive's table 'anomaly' outside HealthProbeArchive",
                "\(face.path):8: names the archive's table 'auditEntry' outside HealthProbeArchive",
                "\(face.path):9: names the archive's table 'setting' outside HealthProbeArchive",
            ])
    }

    static func check(_ files: [String] = []) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + files
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
