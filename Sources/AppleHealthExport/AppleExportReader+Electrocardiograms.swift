import Foundation

extension AppleExportReader {
    /// Reads every ECG recording the export holds (`electrocardiograms/*.csv`, whatever the file
    /// names), one file at a time, each streamed through ``ElectrocardiogramParser``. A file that
    /// is not a readable recording — malformed, not UTF-8, too large, damaged in the zip — arrives
    /// as ``AppleExportElement/unreadable(_:)`` with its path and the reason; the rest go on.
    func readElectrocardiograms(_ handle: (consuming AppleExportElement) throws -> Void) throws {
        if case .bytes = source.container { return }
        try AuxiliaryFiles(source: source).forEachFile(in: Self.electrocardiogramFolder, withExtension: "csv") {
            path, stream in
            try handle(Self.electrocardiogram(at: path, stream))
        }
    }

    /// Where an export keeps its ECG recordings.
    public static let electrocardiogramFolder = "electrocardiograms"

    /// The recording at `path`, or why it cannot be read. Errors of `handle` itself (a cancelled
    /// import) are not the file's and pass through ``AuxiliaryFiles``.
    static func electrocardiogram(
        at path: String, _ stream: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) -> AppleExportElement {
        var parser = ElectrocardiogramParser(path: path)
        do {
            try stream { chunk in try parser.feed(chunk) }
            return .electrocardiogram(try parser.finish())
        } catch let failure as ElectrocardiogramParser.Failure {
            return unreadableElectrocardiogram(path, failure.reason)
        } catch let error as AppleExportError {
            return unreadableElectrocardiogram(path, error.problem)
        } catch {
            return unreadableElectrocardiogram(path, "it could not be read")
        }
    }

    private static func unreadableElectrocardiogram(_ path: String, _ reason: String) -> AppleExportElement {
        .unreadable(
            UnreadableElement(
                raw: GenericElement(
                    name: "Electrocardiogram",
                    attributes: [
                        AppleExportAttribute(name: "type", value: ElectrocardiogramElement.sampleType),
                        AppleExportAttribute(name: "path", value: path),
                    ]),
                reason: reason))
    }
}
