import Foundation

// check-availability --index-store DIR --root DIR --dump FILE... [--expect DIR...] --macOS 15 --iOS 18
//
// Every use, in the files under --root (but .build), of a declaration the dumps say was
// introduced after the minimum must sit where `@available` or `#available` guarantees it. Exit 1
// with one line per use that does not, and when the index cannot be trusted to have seen the
// code: no file under --root read, a file changed since its unit was written, or a Swift file
// under an --expect folder missing from the index.
var arguments = CommandLine.arguments.dropFirst()
var indexStore = ""
var root = ""
var dumps: [URL] = []
var expected: [String] = []
var minimum: Versions = [:]
while let flag = arguments.popFirst() {
    guard let value = arguments.popFirst() else {
        FileHandle.standardError.write(Data("check-availability: \(flag) needs a value\n".utf8))
        exit(64)
    }
    switch flag {
    case "--index-store": indexStore = value
    case "--root": root = URL(fileURLWithPath: value).standardizedFileURL.path
    case "--dump": dumps.append(URL(fileURLWithPath: value))
    case "--expect": expected.append(URL(fileURLWithPath: value).standardizedFileURL.path)
    default:
        guard let platform = Platform(rawValue: String(flag.dropFirst(2))), let version = Version(value) else {
            FileHandle.standardError.write(Data("check-availability: unknown option \(flag)\n".utf8))
            exit(64)
        }
        minimum[platform] = version
    }
}

do {
    let introductions = try Introductions(dumps: dumps)
    // Only what is newer than the minimum on some platform, with no older overload of its name
    // beside it, can be misused.
    let newer = introductions.versions.filter { usr, versions in
        versions.contains { platform, version in minimum[platform].map { version > $0 } ?? false }
            && !introductions.hasOlderSibling(usr, within: minimum)
    }
    let reader = try IndexStoreReader(path: indexStore)
    // A unit of a file since deleted or renamed holds no code of the checkout: it is skipped, and
    // the file's new name must be in the index as any other.
    let reading = try reader.uses(of: Set(newer.keys)) { file in
        file.hasPrefix(root + "/") && !file.contains("/.build/") && !file.contains("/checkouts/")
            && FileManager.default.fileExists(atPath: file)
    }
    let problems = IndexTrust.problems(of: reading, root: root, expected: expected)
    var files: [String: SourceFile] = [:]
    var unguarded: [String] = []
    var seen: Set<String> = []
    for use in reading.uses {
        if files[use.file] == nil {
            files[use.file] = SourceFile(path: use.file, text: try String(contentsOfFile: use.file, encoding: .utf8))
        }
        let context = files[use.file]!.context(line: use.line, column: use.column)
        let needed = (newer[use.usr] ?? [:]).filter { context.platforms.contains($0.key) }
        let short = needed.filter { platform, version in
            guard let floor = minimum[platform] else { return false }
            return version > max(floor, context.versions[platform] ?? floor)
        }
        guard !short.isEmpty else { continue }
        let place = "\(use.file.dropFirst(root.count + 1)):\(use.line):\(use.column)"
        guard seen.insert(place + use.usr).inserted else { continue }
        let platforms = short.keys.sorted { $0.rawValue > $1.rawValue }
        let introduced = platforms.map { "\($0.rawValue) \(short[$0]!)" }.joined(separator: ", ")
        let floor = platforms.map { "\($0.rawValue) \(minimum[$0]!)" }.joined(separator: ", ")
        unguarded.append(
            "\(place): \(use.name) is introduced in \(introduced), after the minimum (\(floor)): raise the minimum "
                + "or put the use under #available / @available")
    }
    for line in unguarded { print(line) }
    for line in problems { print(line) }
    for line in IndexTrust.limits(of: reading, root: root, dumped: introductions.modules) { print(line) }
    print(
        "\(reading.uses.count) uses of \(newer.count) declarations newer than the minimum read in "
            + "\(reading.files.count) files; \(unguarded.count) unguarded")
    exit(unguarded.isEmpty && problems.isEmpty ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("check-availability: \(error)\n".utf8))
    exit(74)
}
