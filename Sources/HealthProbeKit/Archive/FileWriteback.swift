import CFileWriteback
import Foundation

/// Starts the kernel writing a growing file to disk while it grows, so that the fsync of its
/// commit has only the last few megabytes to wait for instead of the whole file.
///
/// A first import writes about 300 MB into the archive and then commits; the kernel would
/// otherwise hold all of it in memory until that fsync, which then took about 4 % of the import
/// on the development machine. Writing back early costs no durability: the commit still syncs.
/// (A check in WAL mode writes the log, not the archive, until its checkpoint: there the archive
/// does not grow, and nothing is asked.)
final class FileWriteback {
    /// How much the file grows between two requests.
    static let step: Int64 = 16 << 20

    private let descriptor: Int32
    private var requestedAt: Int64 = 0

    /// Nil when the file cannot be opened (it is then simply left to the commit's fsync).
    init?(path: String) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
    }

    deinit {
        close(descriptor)
    }

    /// Asks for writeback when the file has grown by ``step`` since the last request; returns
    /// whether it asked.
    @discardableResult
    func fileMayHaveGrown() -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0, Int64(status.st_size) >= requestedAt + Self.step else { return false }
        requestedAt = Int64(status.st_size)
        return healthprobe_start_writeback(descriptor) == 0
    }
}
