#if canImport(BackgroundTasks) && canImport(Security) && canImport(UIKit)
    import BackgroundTasks
    import Foundation
    import HealthProbeKit
    import Security

    /// Scheduled exports on iPhone: a `BGProcessingTask` (minutes, while the phone is idle and
    /// charging) and a foreground fallback, both calling `ExportScheduler.runDue`, which runs one
    /// catch-up export when a slot is owed. No logic here.
    public final class ScheduledExportTask: @unchecked Sendable {
        public static let identifier = "org.healthprobe.export"
        private let scheduler: ExportScheduler

        /// `folder` holds the exports; files written in the background stay readable while open
        /// only (`completeUnlessOpen`), and the folder is kept out of backups.
        public init(archive: ArchiveStore, folder: URL) throws {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true,
                attributes: [.protectionKey: FileProtectionType.completeUnlessOpen])
            var values = URLResourceValues()
            values.isExcludedFromBackup = true
            var excluded = folder
            try? excluded.setResourceValues(values)
            scheduler = ExportScheduler(
                archive: archive,
                files: PartialExportFiles(
                    registryFolder: folder.appendingPathComponent(".partial").path)
            ) { account in
                try KeychainPassword.read(account: account)
            }
        }

        /// Call before the app finishes launching.
        public func register() {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.identifier, using: nil) { task in
                let cancellation = CancellationFlag()
                task.expirationHandler = { cancellation.cancel() }
                Task.detached { [self] in
                    let outcome = try? scheduler.runDue(cancellation: cancellation)
                    submitNext()
                    task.setTaskCompleted(success: outcome != nil)
                }
            }
        }

        /// Asks iOS for the next run at the next slot.
        public func submitNext() {
            guard let schedule = try? scheduler.schedule() else { return }
            let request = BGProcessingTaskRequest(identifier: Self.identifier)
            request.earliestBeginDate = schedule.nextSlot(after: Date())
            request.requiresExternalPower = false
            try? BGTaskScheduler.shared.submit(request)
        }

        /// The foreground fallback: when the app becomes active, run what is owed.
        public func runOverdueInForeground() async {
            _ = try? scheduler.runDue()
        }
    }

    /// A scheduled encrypted export's password, kept in the Keychain under the schedule's
    /// `passwordFile` name, readable only when the device is unlocked.
    enum KeychainPassword {
        struct Missing: Error {}

        static func read(account: String) throws -> [UInt8] {
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "org.healthprobe.export",
                kSecAttrAccount as String: account, kSecReturnData as String: true,
            ]
            var item: CFTypeRef?
            guard SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess, let data = item as? Data else {
                throw Missing()
            }
            return Array(data)
        }
    }
#endif
