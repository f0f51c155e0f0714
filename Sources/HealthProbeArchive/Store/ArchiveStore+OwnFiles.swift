import Foundation

extension ArchiveStore {
    /// The files SQLite keeps the archive in: the database, its write-ahead log and index, and a
    /// rollback journal when one is made.
    static let companionSuffixes = ["", "-wal", "-shm", "-journal"]

    /// Whether writing `candidate` would write over one of the archive's own files — the archive
    /// itself, its `-wal`, `-shm` or `-journal` — under any name: another spelling (`..`, `.`),
    /// a symbolic link to it or to a folder on its way, or a hard link.
    ///
    /// Names are compared after resolving links; files that exist are also compared by device
    /// and inode, which is what makes two names one file. Nothing is opened: the archive's files
    /// are only ever opened by SQLite (closing another descriptor would drop this process's locks).
    public func isOwnFile(_ candidate: String) -> Bool {
        guard let path else { return false }
        let candidateName = Self.resolvedName(candidate)
        let candidateIdentity = Self.identity(candidate)
        for suffix in Self.companionSuffixes {
            let own = path + suffix
            if Self.resolvedName(own) == candidateName { return true }
            if let candidateIdentity, let ownIdentity = Self.identity(own), ownIdentity == candidateIdentity {
                return true
            }
        }
        return false
    }

    /// The device and inode a name leads to (through links), or nil when nothing is there.
    private static func identity(_ name: String) -> FileIdentity? {
        var status = stat()
        guard stat(name, &status) == 0 else { return nil }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// The name with every link resolved: the whole name when it exists, else its folder's
    /// (a file about to be made is named by the folder it will be made in).
    private static func resolvedName(_ name: String) -> String {
        let url = URL(fileURLWithPath: name).standardizedFileURL
        if let resolved = realPath(url.path) { return resolved }
        let folder = url.deletingLastPathComponent().path
        return (realPath(folder) ?? folder) + "/" + url.lastPathComponent
    }

    private static func realPath(_ name: String) -> String? {
        guard let resolved = realpath(name, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// One file on one device, whatever it is called.
private struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
}
