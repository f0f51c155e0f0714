import Foundation

/// Whether an index store can be trusted to have seen the code, and what no index shows.
enum IndexTrust {
    /// What makes a reading worthless, one line each: nothing read, files changed since, files
    /// under the expected folders the index never saw. A reading with any of them fails.
    static func problems(of reading: IndexStoreReader.Reading, root: String, expected: [String]) -> [String] {
        guard !reading.files.isEmpty else {
            return [
                "error: the index store holds no file under \(root): it is empty or another checkout's; build first"
            ]
        }
        var problems: [String] = []
        let manager = FileManager.default
        let changed = reading.files.keys.sorted().filter { file in
            let modified = (try? manager.attributesOfItem(atPath: file)[.modificationDate] as? Date) ?? nil
            return modified.map { $0.timeIntervalSince1970 > reading.files[file]! + 1 } ?? true
        }
        if let first = changed.first {
            problems.append(
                "error: \(changed.count) files changed since the index was written (\(relative(first, root))"
                    + (changed.count > 1 ? ", …" : "") + "): build again")
        }
        var missing: [String] = []
        for folder in expected {
            let files = manager.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
            for file in files.sorted() where file.hasSuffix(".swift") && !file.contains(".build/") {
                let path = folder + "/" + file
                if reading.files[path] == nil { missing.append(path) }
            }
        }
        if let first = missing.first {
            problems.append(
                "error: \(missing.count) Swift files are not in the index (\(relative(first, root))"
                    + (missing.count > 1 ? ", …" : "") + "): not compiled, or the index is stale; build again")
        }
        return problems
    }

    /// What the index cannot show, said every run so that a pass is read for what it is.
    static func limits(of reading: IndexStoreReader.Reading, root: String, dumped: Set<String>) -> [String] {
        var lines = [
            "not seen: what the compiler writes itself (macro and property-wrapper expansions, a `for await` "
                + "loop's iterator), which the index marks implicit and writes for this machine's target",
            "not seen: conformances the code relies on (`Never: Encodable` is macOS 14, iOS 17), which the index "
                + "records as no use",
        ]
        // Linux's own modules (Foundation's networking and XML are Foundation itself on Apple's
        // systems, and dumped as that) have no Apple availability to miss.
        let linuxOnly: Set = ["Glibc", "Musl", "FoundationNetworking", "FoundationXML", "SwiftGlibc"]
        let undumped = reading.systemModules.subtracting(dumped).subtracting(linuxOnly).filter { !$0.hasPrefix("_") }
        if !undumped.isEmpty {
            lines.append("not seen: uses of modules not dumped here: " + undumped.sorted().joined(separator: ", "))
        }
        var unread: [String] = []
        for file in reading.files.keys.sorted() {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            unread += UnreadBranches.lines(in: text, path: file).map { "\(relative(file, root)):\($0)" }
        }
        if let first = unread.first {
            lines.append(
                "not seen: \(unread.count) #if branches compiled only on Apple platforms (\(first)"
                    + (unread.count > 1 ? ", …" : "") + "), which no build here indexes")
        }
        return lines
    }

    private static func relative(_ file: String, _ root: String) -> String {
        file.hasPrefix(root + "/") ? String(file.dropFirst(root.count + 1)) : file
    }
}
