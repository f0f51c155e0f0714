import Foundation
import HealthProbeArchive

/// The temporary files an export writes before renaming its result into place, and the
/// clean-up of those a killed export left behind.
///
/// A temporary is named `.<target>.<pid>-<random>.healthprobe-partial`, beside its target, and
/// registered in a per-user folder while it exists. Whenever HealthProbe starts, it removes the
/// registered temporaries of processes that are no longer running, so a `kill -9` mid-export
/// leaves nothing once HealthProbe runs again.
public struct PartialExportFiles: Sendable {
    static let suffix = ".healthprobe-partial"
    /// Where registrations live: `$HEALTHPROBE_STATE_DIR`, else `$XDG_STATE_HOME/healthprobe`,
    /// else `~/.local/state/healthprobe`, then `partial-exports`.
    public let registryFolder: String

    public init(registryFolder: String) {
        self.registryFolder = registryFolder
    }

    public static var standard: PartialExportFiles {
        let environment = ProcessInfo.processInfo.environment
        let base: String
        if let state = environment["HEALTHPROBE_STATE_DIR"], !state.isEmpty {
            base = state
        } else if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty {
            base = xdg + "/healthprobe"
        } else {
            base = UserHome.path + "/.local/state/healthprobe"
        }
        return PartialExportFiles(registryFolder: base + "/partial-exports")
    }

    /// Creates an empty owner-only temporary beside `target` and registers it. Throws
    /// ``ExportFailure/cannotWrite(path:problem:)`` when the folder cannot take it.
    func create(beside target: String) throws -> String {
        let url = URL(fileURLWithPath: target)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw ExportFailure.cannotWrite(path: target, problem: "the folder \(folder) does not exist")
        }
        let random = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let path = "\(folder)/.\(url.lastPathComponent).\(getpid())-\(random)\(Self.suffix)"
        try register(path)
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let problem = String(cString: strerror(errno))
            unregister(path)
            throw ExportFailure.cannotWrite(path: target, problem: problem)
        }
        close(descriptor)
        return path
    }

    /// Removes a temporary and its registration.
    func remove(_ path: String) {
        unlink(path)
        unregister(path)
    }

    /// Forgets a temporary that was renamed into place.
    func unregister(_ path: String) {
        unlink(registration(for: path))
    }

    private func registration(for path: String) -> String {
        // The temporary's own name is already unique (it holds this pid and a random number).
        "\(registryFolder)/\(getpid())-\(URL(fileURLWithPath: path).lastPathComponent)"
    }

    private func register(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(
                atPath: registryFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try Data(path.utf8).write(to: URL(fileURLWithPath: registration(for: path)))
        } catch {
            throw ExportFailure.cannotWrite(
                path: registryFolder, problem: "cannot note the export's temporary file (\(error.localizedDescription))"
            )
        }
    }

    /// Removes the temporaries of exports whose process has ended; returns how many.
    @discardableResult
    public func removeAbandoned() -> Int {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: registryFolder) else { return 0 }
        var removed = 0
        for entry in entries {
            guard let pid = entry.split(separator: "-").first.flatMap({ Int32($0) }), !Self.isRunning(pid) else {
                continue
            }
            let registration = "\(registryFolder)/\(entry)"
            // A registration that cannot be read now (a locked phone's protected file) is kept
            // for a later pass: without it, its temporary would never be found again.
            guard let data = FileManager.default.contents(atPath: registration) else { continue }
            let path = String(decoding: data, as: UTF8.self)
            if path.hasSuffix(Self.suffix) {
                if unlink(path) == 0 {
                    removed += 1
                } else if errno != ENOENT {
                    continue
                }
            }
            unlink(registration)
        }
        return removed
    }

    private static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
