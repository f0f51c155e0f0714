import Foundation
import HealthProbeSimulation
import TestSupport
import Testing

@testable import HealthProbeArchive
@testable import HealthProbeKit

/// A rebuilt export read by a reader no one here wrote — healthkit-to-sqlite (PyPI), installed by
/// `.build/apple-readers/venv` at first use (`PythonTool`) — gives the same rows as the original export.
@Suite("Export: a rebuilt export read by healthkit-to-sqlite")
struct IndependentReaderTests {
    static let comparison = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../Scripts/compare-healthkit-databases.py").standardized.path

    @Test func theRebuildAndTheOriginalGiveTheSameRows() throws {
        let support = try ArchiveTestSupport()
        var options = SyntheticExportOptions(elementCount: 2_000, seed: 17, utcOffsetSeconds: -25_200)
        options.routesEvery = 2
        let sources = [
            try support.generate("generated.zip", options), FixtureFiles.url("alxdrcirilo/export.zip"),
            FixtureFiles.url("tdda/export6s3sample.xml"), FixtureFiles.url("opendroid/sampleexport.xml"),
            FixtureFiles.url("opendroid/sampleexport-2.xml"), FixtureFiles.url("opendroid/audio_exposure.xml"),
        ]
        for (index, source) in sources.enumerated() {
            let store = try ArchiveStore.open(at: support.folder.appendingPathComponent("\(index).sqlite").path)
            _ = try support.check(source, in: store)
            let rebuilt = try support.runExport(store, .appleHealth, name: "rebuilt-\(index).zip")
            let original = support.folder.appendingPathComponent("original-\(index).db").path
            let copy = support.folder.appendingPathComponent("rebuilt-\(index).db").path
            let xml = source.pathExtension == "xml" ? ["--xml"] : []
            #expect(try Self.run("healthkit-to-sqlite", ["-s"] + xml + [source.path, original]).status == 0)
            #expect(try Self.run("healthkit-to-sqlite", ["-s", rebuilt.path, copy]).status == 0)
            let compared = try Self.run("python", [Self.comparison, original, copy])
            #expect(compared.status == 0, "\(source.lastPathComponent): \(compared.errors)")
            #expect(compared.output.hasPrefix("equal: "))
            if index == 0 {
                // The generated export's routes came back as points healthkit-to-sqlite reads.
                #expect(compared.output.contains("workout_points"))
            }
        }
    }

    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = try PythonTool.appleReaders.bin().appendingPathComponent(tool)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outputData, as: UTF8.self),
            String(decoding: errorData, as: UTF8.self)
        )
    }
}
