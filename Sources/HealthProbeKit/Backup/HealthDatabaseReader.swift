import Foundation
import GRDB
import HealthProbeArchive

/// Reads an iPhone's Health database — `healthdb_secure.sqlite`, with `healthdb.sqlite` beside it
/// for source and device names — as the live path's samples and the deletions it remembers
/// (docs/BACKUP.md). The files are copied, with their `-wal` files, into a private folder that is
/// removed when the reader is closed, and only the copies are opened: a backup is never
/// changed, and no connection of ours ever holds its files. Optional tables and columns are
/// probed (`PRAGMA table_info`), as forensic tools do; samples are read a row at a time.
public final class HealthDatabaseReader: Sendable {
    public static let secureName = "healthdb_secure.sqlite"
    public static let sourcesName = "healthdb.sqlite"

    public let layout: HealthDatabaseLayout
    let queue: DatabaseQueue
    /// The private folder holding the copies.
    let folder: URL
    let sources: [Int64: String]
    let devices: [Int64: HealthSample.Device]

    /// Opens `path`: the secure database itself, or a folder holding it (directly or in `Health/`).
    /// The private folder is made in `root` (the system's temporary folder unless a test says).
    public convenience init(path: String, workFolder root: URL = FileManager.default.temporaryDirectory) throws {
        let secure = try Self.locate(path)
        // What was given: the folder, or the file's own folder. Nothing outside it is read.
        var isFolder: ObjCBool = false
        let given = URL(fileURLWithPath: path)
        let inside =
            FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
            ? given : given.deletingLastPathComponent()
        try self.init(name: secure.lastPathComponent, root: root) { folder in
            let sourcesFile = secure.deletingLastPathComponent().appendingPathComponent(Self.sourcesName)
            return (
                try Self.copy(secure, into: folder, inside: inside),
                Self.exists(sourcesFile) ? try Self.copy(sourcesFile, into: folder, inside: inside) : nil
            )
        }
    }

    /// Opens the Health database of an encrypted iPhone backup, decrypted into the private folder
    /// (``EncryptedBackup``); `deriving` is told the password's rounds before they run.
    public convenience init(
        backup: URL, password: [UInt8], workFolder root: URL = FileManager.default.temporaryDirectory,
        deriving: ((Int) -> Void)? = nil
    ) throws {
        try self.init(name: backup.lastPathComponent, root: root) { folder in
            try EncryptedBackup.extractHealthFiles(from: backup, password: password, into: folder, deriving: deriving)
            let sources = folder.appendingPathComponent(Self.sourcesName)
            return (
                folder.appendingPathComponent(Self.secureName),
                FileManager.default.fileExists(atPath: sources.path) ? sources : nil
            )
        }
    }

    /// Makes the private folder, has `fill` put the databases in it, and opens them; the folder
    /// is removed again when anything fails.
    private init(name: String, root: URL, fill: (URL) throws -> (secure: URL, sources: URL?)) throws {
        PrivateCopies.removeAbandoned(in: root)
        folder = PrivateCopies.newFolder(in: root)
        // Known before it exists: a signal between the two finds it either way.
        PrivateCopies.register(folder)
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            PrivateCopies.remove(folder)
            throw error
        }
        do {
            let (secure, sources) = try fill(folder)
            do {
                queue = try DatabaseQueue(path: secure.path)
                try queue.read { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            } catch {
                throw HealthDatabaseError.unreadable(name: name)
            }
            let probed = try queue.writeWithoutTransaction { db in
                try Self.probe(db, name: name, sources: sources)
            }
            layout = probed.layout
            self.sources = probed.sources
            devices = probed.devices
        } catch {
            PrivateCopies.remove(folder)
            throw error
        }
    }

    deinit {
        try? queue.close()
        PrivateCopies.remove(folder)
    }

    /// The secure database at `path`, or in the folder at `path` (or its `Health/`).
    static func locate(_ path: String) throws -> URL {
        var isFolder: ObjCBool = false
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw HealthDatabaseError.unreadable(name: url.lastPathComponent)
        }
        guard isFolder.boolValue else { return url }
        for candidate in [url.appendingPathComponent(secureName), url.appendingPathComponent("Health/\(secureName)")]
        where FileManager.default.fileExists(atPath: candidate.path) {
            return candidate
        }
        throw HealthDatabaseError.noHealthDatabase(folder: url.lastPathComponent)
    }

    /// Copies a database and its write-ahead log, when there is one, as bytes: a name that is a
    /// link is followed only to a regular file inside `inside`, and the copy is a file of its own,
    /// so SQLite, opening the copy, can never reach — and write to — the original.
    private static func copy(_ file: URL, into folder: URL, inside: URL) throws -> URL {
        let target = folder.appendingPathComponent(file.lastPathComponent)
        try FileManager.default.copyItem(at: try regularFile(file, inside: inside), to: target)
        let wal = URL(fileURLWithPath: file.path + "-wal")
        if exists(wal) {
            try FileManager.default.copyItem(
                at: try regularFile(wal, inside: inside), to: URL(fileURLWithPath: target.path + "-wal"))
        }
        return target
    }

    /// Whether anything is at `url`, a dangling link too (`fileExists` follows links).
    private static func exists(_ url: URL) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: url.path)) != nil
    }

    /// `url` with its links resolved, when that is a regular file inside `inside`.
    static func regularFile(_ url: URL, inside: URL) throws -> URL {
        let resolved = url.resolvingSymlinksInPath()
        let root = inside.resolvingSymlinksInPath().path
        let type = (try? FileManager.default.attributesOfItem(atPath: resolved.path))?[.type] as? FileAttributeType
        let insideRoot = resolved.path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        if type == .typeDirectory, insideRoot { throw HealthDatabaseError.aFolder(name: url.lastPathComponent) }
        guard type == .typeRegular, insideRoot else {
            throw HealthDatabaseError.notARegularFile(name: url.lastPathComponent)
        }
        return resolved
    }

    /// Checks the tables every version has, finds the optional ones, attaches the sources
    /// database and reads its names.
    private static func probe(_ db: Database, name: String, sources: URL?) throws -> (
        layout: HealthDatabaseLayout, sources: [Int64: String], devices: [Int64: HealthSample.Device]
    ) {
        func columns(_ table: String, in schema: String = "main") throws -> Set<String> {
            Set(try Row.fetchAll(db, sql: "PRAGMA \(schema).table_info(\(table))").map { $0["name"] as String })
        }
        let required: [(String, Set<String>)] = [
            ("samples", ["data_id", "start_date", "end_date", "data_type"]),
            ("objects", ["data_id", "uuid", "provenance", "type", "creation_date"]),
            ("data_provenances", ["source_id", "device_id", "source_version"]),
            ("quantity_samples", ["data_id", "quantity"]), ("category_samples", ["data_id", "value"]),
        ]
        for (table, needed) in required where !needed.isSubset(of: try columns(table)) {
            throw HealthDatabaseError.notAHealthDatabase(name: name, missing: table)
        }
        var schema = "main"
        if let sources {
            // A sources file that is not a database is the input's fault, said as such — not
            // an error SQLite would otherwise report as the archive's.
            do {
                try db.execute(sql: "ATTACH DATABASE ? AS meta", arguments: [sources.path])
                _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM meta.sqlite_master")
            } catch {
                throw HealthDatabaseError.unreadableSources
            }
            schema = "meta"
        }
        let sourceColumns = try columns("sources", in: schema)
        let logical = try !columns("logical_sources", in: schema).isEmpty && sourceColumns.contains("logical_source_id")
        var names: [Int64: String] = [:]
        if sourceColumns.contains("name") {
            for row in try Row.fetchAll(db, sql: "SELECT ROWID AS id, name FROM \(schema).sources") {
                if let id = row.foreignInteger("id"), let name = row.foreignText("name") { names[id] = name }
            }
        }
        var devices: [Int64: HealthSample.Device] = [:]
        if try !columns("source_devices", in: schema).isEmpty {
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT ROWID AS id, name, manufacturer, model, hardware, firmware, software
                    FROM \(schema).source_devices
                    """)
            {
                // `__NONE__` stands for a field the device did not give.
                func field(_ key: String) -> String? {
                    guard let text = row.foreignText(key), !text.isEmpty, text != "__NONE__" else { return nil }
                    return text
                }
                let device = HealthSample.Device(
                    name: field("name"), manufacturer: field("manufacturer"), model: field("model"),
                    hardware: field("hardware"), firmware: field("firmware"), software: field("software"))
                if device != HealthSample.Device(), let id = row.foreignInteger("id") { devices[id] = device }
            }
        }
        let layout = HealthDatabaseLayout(
            hasSourceDatabase: sources != nil, hasLogicalSources: logical,
            hasAssociations: try !columns("associations").isEmpty,
            hasMetadata: try !columns("metadata_values").isEmpty && !columns("metadata_keys").isEmpty,
            hasSyncIdentifiers: try !columns("external_sync_ids").isEmpty,
            hasSeries: try !columns("quantity_sample_series").isEmpty,
            hasWorkouts: try columns("workouts").contains("activity_type"))
        return (layout, names, devices)
    }
}
