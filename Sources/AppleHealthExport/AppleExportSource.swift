import Foundation
import ZIPFoundation

/// Where an export's main XML lives: a zip entry, a file in an unzipped export folder, or a file
/// given directly. The main XML is found by its content (a `HealthData` root), never by its
/// localised name (`export.xml`, `Export.xml`, `导出.xml`, …).
public struct AppleExportSource: Sendable {
    public enum Container: Sendable, Equatable {
        /// An entry inside a zip, never extracted to disk.
        case zip(archive: URL, entryPath: String)
        case file(URL)
        /// A document already in memory (tests, fuzzing).
        case bytes([UInt8], name: String)
    }

    public let container: Container
    /// What the user named, for messages.
    public let inputPath: String
    /// The uncompressed size of the main XML when known in advance.
    public let expectedSize: Int64?
    let limits: ReadLimits

    /// A short name for the main XML in messages: `export.zip` for a zip, the file's path from
    /// the folder given (`Downloads/apple_health_export/export.xml`), else the file name.
    public var displayName: String {
        switch container {
        case .zip(let archive, let entryPath): "\(archive.lastPathComponent) (\(entryPath))"
        case .file(let url) where url.path.hasPrefix(inputPath + "/"):
            URL(fileURLWithPath: inputPath).lastPathComponent + url.path.dropFirst(inputPath.count)
        case .file(let url): url.lastPathComponent
        case .bytes(_, let name): name
        }
    }

    /// A document held in memory, read as an export's main XML.
    public static func inMemory(_ bytes: [UInt8], name: String, limits: ReadLimits = .standard) -> AppleExportSource {
        AppleExportSource(
            container: .bytes(bytes, name: name), inputPath: name, expectedSize: Int64(bytes.count), limits: limits)
    }

    /// Finds the main XML of the export at `url`.
    public static func locate(_ url: URL, limits: ReadLimits = .standard) throws(AppleExportError) -> AppleExportSource
    {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .notFound(path: path)
        }
        if isDirectory.boolValue {
            return try locateInFolder(url, limits: limits)
        }
        let head = try Self.head(of: url)
        if head.starts(with: [0x50, 0x4B]) {
            return try locateInZip(url, limits: limits)
        }
        if head.starts(with: Array("SQLite format 3".utf8) + [0]) {
            throw .database(file: url.lastPathComponent)
        }
        let size = Self.fileSize(path)
        let source = AppleExportSource(container: .file(url), inputPath: path, expectedSize: size, limits: limits)
        switch try source.sniffRoot() {
        case .some("HealthData"): return source
        case .some(let root): throw .notHealthData(file: url.lastPathComponent, rootName: root)
        // No element at all (a CSV, a text file): not an export, rather than XML gone wrong.
        case .none where size == 0:
            throw .unreadable(
                file: url.lastPathComponent, problem: "the file is empty; export it again from the Health app")
        case .none: throw .notHealthData(file: url.lastPathComponent, rootName: "")
        }
    }

    /// A file's size in bytes, through any link to it: a link's own size is its target's name
    /// (an export linked into a folder was refused as a zip whose entries overlap).
    static func fileSize(_ path: String) -> Int64? {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return (try? FileManager.default.attributesOfItem(atPath: target)[.size] as? NSNumber)?.int64Value
    }

    /// The file's first 16 bytes: enough to tell a zip (`PK`) and an SQLite database apart from XML.
    private static func head(of url: URL) throws(AppleExportError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw .unreadable(file: url.lastPathComponent, problem: "permission denied")
        }
        defer { try? handle.close() }
        return Array((try? handle.read(upToCount: 16)) ?? Data())
    }

    private static func locateInFolder(_ folder: URL, limits: ReadLimits) throws(AppleExportError) -> AppleExportSource
    {
        let candidates = folderCandidates(folder)
        guard !candidates.isEmpty else { throw .emptyFolder(path: folder.path) }
        // Every export the folder holds: unzipped ones, and zips (a folder the zip was saved
        // into, as Downloads, often holds the zip and what unzipping it left beside it).
        var exports: [(name: String, source: AppleExportSource)] = []
        for file in candidates {
            let name = String(file.path.dropFirst(folder.path.count).drop { $0 == "/" })
            if file.pathExtension.lowercased() == "zip" {
                if let source = try? locateInZip(file, limits: limits) { exports.append((name, source)) }
                continue
            }
            let size = Self.fileSize(file.path)
            let source = AppleExportSource(
                container: .file(file), inputPath: folder.path, expectedSize: size, limits: limits)
            if (try? source.sniffRoot()) == "HealthData" { exports.append((name, source)) }
        }
        guard let first = exports.first else { throw .noHealthData(path: folder.path) }
        // A zip and its unzipped copy are one export; two different ones are never guessed
        // between: checking someone else's, or an old one, would mark the archive's records gone.
        let distinct = exports.filter { first.source.holdsTheSameDocument(as: $0.source) != true }
        guard distinct.isEmpty else {
            throw .severalExports(path: folder.path, names: [first.name] + distinct.map(\.name))
        }
        return first.source
    }

    /// Whether two sources hold the same main XML: the same size and the same first 64 KiB
    /// (its export date, its `Me` element and the first records). Nil when either cannot be read.
    func holdsTheSameDocument(as other: AppleExportSource) -> Bool? {
        if let size = expectedSize, let otherSize = other.expectedSize, size != otherSize { return false }
        guard let head = try? head(65_536), let otherHead = try? other.head(65_536) else { return nil }
        return head == otherHead
    }

    /// Regular files up to two levels down, XML-named ones first, skipping Finder litter and the
    /// export's data folders (routes, electrocardiograms, clinical records).
    private static func folderCandidates(_ folder: URL) -> [URL] {
        var found: [URL] = []
        func visit(_ directory: URL, depth: Int) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
            for name in names.sorted() where !isLitter(name) {
                let url = directory.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    if depth < 2, !dataFolders.contains(name) { visit(url, depth: depth + 1) }
                } else {
                    found.append(url)
                }
            }
        }
        visit(folder, depth: 0)
        return found.sorted { rank($0.path) < rank($1.path) }
    }

    /// Refuses a zip that means two things: two files of one name (`unzip` takes the last, other
    /// readers the first, so what is checked would depend on the reader), or entries that
    /// claim more compressed bytes than the file holds — entries overlap, the same bytes inflated
    /// again and again (400 entries over one 60 MB route cost two minutes before this check).
    private static func refuseAmbiguous(_ archive: Archive, of url: URL) throws(AppleExportError) {
        let fileSize = Self.fileSize(url.path).map { UInt64($0) }
        var names: Set<String> = []
        var compressed: UInt64 = 0
        for entry in archive where entry.type == .file {
            guard names.insert(entry.path).inserted else {
                throw .refused(
                    file: url.lastPathComponent,
                    problem: "it holds two files named \(entry.path), and zip readers disagree on which is meant; "
                        + "export it again from the Health app")
            }
            let (sum, overflow) = compressed.addingReportingOverflow(entry.compressedSize)
            compressed = sum
            if let fileSize, overflow || compressed > fileSize {
                throw .corruptZip(
                    file: url.lastPathComponent,
                    problem: "its entries claim more bytes than the file holds (they overlap)")
            }
        }
    }

    static let dataFolders: Set<String> = ["workout-routes", "electrocardiograms", "clinical-records"]

    static func isLitter(_ name: String) -> Bool {
        name == "__MACOSX" || name == ".DS_Store" || name.hasPrefix("._")
    }

    static func rank(_ path: String) -> (Int, Int) {
        (path.lowercased().hasSuffix(".xml") ? 0 : 1, path.split(separator: "/").count)
    }

    /// Whether the end-of-central-directory record is where the zip format puts it: within the
    /// last 64 KiB (plus its own 22 bytes). Checked first because ZIPFoundation would otherwise
    /// scan a truncated file byte by byte, seconds for a large one.
    private static func hasEndOfCentralDirectory(_ url: URL) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return false }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size >= 22 else { return false }
        let window = min(size, 65_535 + 22)
        guard (try? handle.seek(toOffset: size - window)) != nil, let tail = try? handle.readToEnd() else {
            return false
        }
        let bytes = [UInt8](tail)
        var index = bytes.count - 22
        while index >= 0 {
            if bytes[index] == 0x50, bytes[index + 1] == 0x4B, bytes[index + 2] == 0x05, bytes[index + 3] == 0x06 {
                return true
            }
            index -= 1
        }
        return false
    }

    private static func locateInZip(_ url: URL, limits: ReadLimits) throws(AppleExportError) -> AppleExportSource {
        guard hasEndOfCentralDirectory(url) else {
            throw .corruptZip(
                file: url.lastPathComponent, problem: "no zip directory at the end (truncated or damaged file)")
        }
        let archive: Archive
        do {
            archive = try Archive(url: url, accessMode: .read)
        } catch {
            throw .corruptZip(
                file: url.lastPathComponent, problem: "no readable zip directory (empty or truncated file)")
        }
        try refuseAmbiguous(archive, of: url)
        let entries = archive.filter { entry in
            guard entry.type == .file else { return false }
            let components = entry.path.split(separator: "/")
            guard let name = components.last, !components.contains(where: { isLitter(String($0)) }) else {
                return false
            }
            return !components.dropLast().contains(where: { dataFolders.contains(String($0)) }) && !name.isEmpty
        }.sorted { rank($0.path) < rank($1.path) }
        for entry in entries {
            let source = AppleExportSource(
                container: .zip(archive: url, entryPath: entry.path), inputPath: url.path,
                expectedSize: Int64(exactly: entry.uncompressedSize), limits: limits)
            if (try? source.sniffRoot()) == "HealthData" { return source }
        }
        throw .noHealthData(path: url.lastPathComponent)
    }
}
