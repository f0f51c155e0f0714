import AppleHealthExport
import ArgumentParser
import Foundation
import HealthProbeKit

extension HealthProbeCommand {
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Archive an Apple Health export as a new capture and audit it against the previous one.")

        @Argument(help: "export.zip, its main XML file, or an unzipped export folder.")
        var path: String

        @OptionGroup var archive: ArchiveOptions
        @OptionGroup var output: OutputOptions

        @Option(
            name: .customLong("fail-on"),
            help: """
                Exit 3 when anomalies at or above this severity are found (info, warning, critical; none \
                to never). Defaults to the alert threshold once one is chosen in settings.
                """)
        var failOn: FailureSeverity?

        enum FailureSeverity: String, ExpressibleByArgument, CaseIterable {
            case info, warning, critical, none
        }

        func run() async throws {
            // The input is opened before the archive is touched: bad input changes nothing.
            let check = try ExportCheck(input: URL(fileURLWithPath: path), archivePath: archive.resolvedPath)
            let store = try archive.open()
            let progress = ProgressLine()
            defer { progress.clear() }
            let result = try check.run(into: store, progress: progress.update)
            progress.clear()
            let report = CheckReport(
                capture: result.capture, unreadableElements: result.unreadable, anomalies: result.audit.anomalies,
                notes: result.audit.notes)
            if output.json {
                try Output.json(report)
            } else {
                report.printText(inputName: check.reader.source.displayName)
            }
            if let threshold = try failureThreshold(store),
                result.audit.anomalies.contains(where: { $0.severity >= threshold })
            {
                throw ExitCode(3)
            }
        }

        /// `--fail-on`, else the alert threshold the user chose in settings, else none.
        private func failureThreshold(_ store: ArchiveStore) throws -> Severity? {
            if let failOn { return failOn.severity }
            let settings = try store.fetchSettings()
            return settings.alertThresholdChosen ? settings.alertThreshold : nil
        }
    }
}

extension HealthProbeCommand.Check.FailureSeverity {
    var severity: Severity? {
        switch self {
        case .info: .info
        case .warning: .warning
        case .critical: .critical
        case .none: nil
        }
    }
}

/// `check --json`: `{"capture": {...}, "anomalies": [...]}` (docs/DESIGN.md §9).
struct CheckReport: Encodable {
    var capture: CaptureSummary
    var unreadableElements: [ExportImporter.UnreadableGroup]
    var anomalies: [Anomaly]
    var notes: [String]

    enum CodingKeys: String, CodingKey { case capture, anomalies }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(CaptureJSON(capture, unreadableElements), forKey: .capture)
        try container.encode(anomalies, forKey: .anomalies)
    }

    struct CaptureJSON: Encodable {
        let capture: CaptureSummary
        let unreadableElements: [ExportImporter.UnreadableGroup]

        init(_ capture: CaptureSummary, _ unreadable: [ExportImporter.UnreadableGroup]) {
            self.capture = capture
            self.unreadableElements = unreadable
        }

        enum Keys: String, CodingKey { case unreadableElements }

        func encode(to encoder: any Encoder) throws {
            try capture.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(unreadableElements, forKey: .unreadableElements)
        }
    }

    func printText(inputName: String) {
        let grouped = Output.grouped
        Output.line(
            "Capture \(capture.id) of \(inputName)"
                + (capture.exportDate.map { ", exported \(UTCText.iso8601($0))" } ?? ""))
        Output.line(
            "  records \(grouped(capture.records))  new \(grouped(capture.new))  unchanged \(grouped(capture.unchanged))  gone \(grouped(capture.gone))"
        )
        if capture.unreadable > 0 {
            Output.line("  unreadable \(grouped(capture.unreadable)), kept raw:")
            for group in unreadableElements {
                Output.line("    \(grouped(group.count)) \(group.element): \(group.reason)")
            }
        }
        if capture.replacedCharacters > 0 {
            Output.line("  \(grouped(capture.replacedCharacters)) characters XML forbids were replaced by U+FFFD")
        }
        if capture.previousCaptureId == nil {
            Output.line("First capture: the archive now holds this export; the next check compares against it.")
        }
        if capture.gone > 0 {
            Output.line("\(grouped(capture.gone)) records the previous capture held are missing from this export.")
        }
        if !anomalies.isEmpty {
            Output.line()
            Output.line("Anomalies:")
            for anomaly in anomalies { Output.line(AnomalyText.line(anomaly)) }
        }
        for note in notes { Output.line("Note: \(note).") }
        Output.line()
        Output.line(AnomalyText.verdict(anomalies, firstCapture: capture.previousCaptureId == nil))
    }
}
