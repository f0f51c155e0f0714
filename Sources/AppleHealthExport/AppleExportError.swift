import Foundation

/// Why an input could not be read as an Apple Health export. Messages name the file and say what
/// is wrong; they never quote health values.
public enum AppleExportError: Error, LocalizedError, Equatable {
    case notFound(path: String)
    case emptyFolder(path: String)
    case noHealthData(path: String)
    case notHealthData(file: String, rootName: String)
    case malformed(file: String, line: Int, problem: String)
    case refused(file: String, problem: String)
    case corruptZip(file: String, problem: String)
    case tooLarge(file: String, limitBytes: Int64)
    case unreadable(file: String, problem: String)
    /// An SQLite database (an iPhone's Health database, say) where an export was expected.
    case database(file: String)
    /// A folder with no export of its own but several export zips: which one is meant?
    case severalExports(path: String, names: [String])

    /// Whether `name` can be an XML element's name, so that a message may quote it: a file that
    /// is not XML at all (an image, a PDF) yields bytes that would print as noise.
    static func isElementName(_ name: String) -> Bool {
        guard let first = name.first, name.count <= 100, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isLetter || $0.isNumber || "_-.:".contains($0) }
    }

    /// What is wrong with one file of an export, without its name: for a file beside the main
    /// XML (an ECG recording, a route, a document) counted as unreadable while the check goes on.
    public var problem: String {
        switch self {
        case .corruptZip(_, let problem), .unreadable(_, let problem), .refused(_, let problem): problem
        case .tooLarge(_, let limit): "it expands beyond \(limit >> 20) MiB"
        case .malformed(_, let line, let problem): "line \(line): \(problem)"
        default: errorDescription ?? "it could not be read"
        }
    }

    public var errorDescription: String? {
        switch self {
        case .notFound(let path):
            "\(path): no such file or folder"
        case .emptyFolder(let path):
            "\(path): the folder is empty; point at export.zip, its main XML file or the unzipped export folder"
        case .noHealthData(let path):
            "\(path) holds no Apple Health export (no file with a HealthData root); give export.zip from the Health app"
        case .notHealthData(let file, let rootName):
            Self.isElementName(rootName)
                ? "\(file): not an Apple Health export (the root element is <\(rootName)>, not <HealthData>)"
                : "\(file): not an Apple Health export (it does not read as XML)"
        case .malformed(let file, let line, let problem):
            "\(file): line \(line): \(problem) (not well-formed XML; export it again from the Health app)"
        case .refused(let file, let problem):
            "\(file): refused: \(problem)"
        case .corruptZip(let file, let problem):
            "\(file): damaged zip: \(problem); copy or export it again"
        case .tooLarge(let file, let limit):
            "\(file): refused: expands beyond \(limit / (1 << 20)) MiB, more than an export of this size can hold"
        case .unreadable(let file, let problem):
            "\(file): cannot be read: \(problem)"
        case .database(let file):
            "\(file): an SQLite database, not an Apple Health export; give export.zip from the Health app"
        case .severalExports(let path, let names):
            "\(path) holds \(names.count) exports (\(names.joined(separator: ", "))); give the one to check"
        }
    }
}
