import CIndexStore

/// A use of a declaration at a place in a source file, as the compiler recorded it.
struct Use: Hashable, Comparable {
    var usr: String
    var name: String
    var file: String
    var line: Int
    var column: Int

    static func < (left: Use, right: Use) -> Bool {
        (left.file, left.line, left.column, left.usr) < (right.file, right.line, right.column, right.usr)
    }
}

struct IndexStoreFailure: Error, CustomStringConvertible {
    var description: String
}

/// The build's index store, read through the toolchain's libIndexStore: the compiler's own record
/// of which declaration each name in each file refers to.
final class IndexStoreReader {
    private let store: indexstore_t

    init(path: String) throws {
        var error: indexstore_error_t?
        guard let store = indexstore_store_create(path, &error) else {
            throw IndexStoreFailure(description: "cannot read the index store at \(path): \(Self.describe(error))")
        }
        self.store = store
    }

    deinit { indexstore_store_dispose(store) }

    /// What the index holds for the files a reading accepts: the references to the wanted
    /// declarations, and each file read with when its newest unit was written (seconds since 1970).
    struct Reading {
        var uses: [Use] = []
        var files: [String: Double] = [:]
        /// The system modules those files' units import.
        var systemModules: Set<String> = []
    }

    /// The references to `wanted` declarations in the units whose main file `accepts`.
    func uses(of wanted: Set<String>, inUnitsWhere accepts: (String) -> Bool) throws -> Reading {
        var records: [String: String] = [:]
        var reading = Reading()
        for unit in unitNames() {
            var error: indexstore_error_t?
            guard let reader = unit.withCString({ indexstore_unit_reader_create(store, $0, &error) }) else {
                throw IndexStoreFailure(description: "cannot read unit \(unit): \(Self.describe(error))")
            }
            defer { indexstore_unit_reader_dispose(reader) }
            guard indexstore_unit_reader_has_main_file(reader) else { continue }
            let main = Self.text(indexstore_unit_reader_get_main_file(reader))
            guard accepts(main) else { continue }
            var seconds: Int64 = 0
            var nanoseconds: Int64 = 0
            indexstore_unit_reader_get_modification_time(reader, &seconds, &nanoseconds)
            let written = Double(seconds) + Double(nanoseconds) / 1e9
            reading.files[main] = max(written, reading.files[main] ?? written)
            for (record, file) in Self.records(of: reader) { records[record] = file }
            reading.systemModules.formUnion(Self.systemModules(of: reader))
        }
        for (record, file) in records.sorted(by: { $0.key < $1.key }) where accepts(file) {
            reading.uses += try references(in: record, file: file, wanted: wanted)
        }
        reading.uses.sort()
        return reading
    }

    private func unitNames() -> [String] {
        var names: [String] = []
        withUnsafeMutablePointer(to: &names) { pointer in
            _ = indexstore_store_units_apply_f(store, 0, pointer) { context, name in
                context!.assumingMemoryBound(to: [String].self).pointee.append(IndexStoreReader.text(name))
                return true
            }
        }
        return names
    }

    /// The unit's records (one per source file) with the file each describes.
    private static func records(of reader: indexstore_unit_reader_t) -> [(String, String)] {
        var records: [(String, String)] = []
        withUnsafeMutablePointer(to: &records) { pointer in
            _ = indexstore_unit_reader_dependencies_apply_f(reader, pointer) { context, dependency in
                guard indexstore_unit_dependency_get_kind(dependency) == INDEXSTORE_UNIT_DEPENDENCY_RECORD else {
                    return true
                }
                context!.assumingMemoryBound(to: [(String, String)].self).pointee.append(
                    (
                        IndexStoreReader.text(indexstore_unit_dependency_get_name(dependency)),
                        IndexStoreReader.text(indexstore_unit_dependency_get_filepath(dependency))
                    ))
                return true
            }
        }
        return records
    }

    /// The modules of the system units a unit depends on.
    private static func systemModules(of reader: indexstore_unit_reader_t) -> [String] {
        var modules: [String] = []
        withUnsafeMutablePointer(to: &modules) { pointer in
            _ = indexstore_unit_reader_dependencies_apply_f(reader, pointer) { context, dependency in
                guard indexstore_unit_dependency_get_kind(dependency) == INDEXSTORE_UNIT_DEPENDENCY_UNIT,
                    indexstore_unit_dependency_is_system(dependency)
                else { return true }
                let name = IndexStoreReader.text(indexstore_unit_dependency_get_modulename(dependency))
                if !name.isEmpty { context!.assumingMemoryBound(to: [String].self).pointee.append(name) }
                return true
            }
        }
        return modules
    }

    private struct Collector {
        var wanted: Set<String>
        var file: String
        var uses: [Use] = []
    }

    private func references(in record: String, file: String, wanted: Set<String>) throws -> [Use] {
        var error: indexstore_error_t?
        guard let reader = record.withCString({ indexstore_record_reader_create(store, $0, &error) }) else {
            throw IndexStoreFailure(description: "cannot read record \(record): \(Self.describe(error))")
        }
        defer { indexstore_record_reader_dispose(reader) }
        var collector = Collector(wanted: wanted, file: file)
        withUnsafeMutablePointer(to: &collector) { pointer in
            _ = indexstore_record_reader_occurrences_apply_f(reader, pointer) { context, occurrence in
                let collector = context!.assumingMemoryBound(to: Collector.self)
                let roles = indexstore_occurrence_get_roles(occurrence)
                // What the compiler writes itself (a `for await` loop's `next(isolation:)`) it
                // writes for the deployment target it compiles for: only what the code names counts.
                guard roles & UInt64(INDEXSTORE_SYMBOL_ROLE_REFERENCE) != 0,
                    roles & UInt64(INDEXSTORE_SYMBOL_ROLE_IMPLICIT) == 0
                else { return true }
                let symbol = indexstore_occurrence_get_symbol(occurrence)
                let usr = IndexStoreReader.text(indexstore_symbol_get_usr(symbol))
                guard collector.pointee.wanted.contains(usr) else { return true }
                var line: UInt32 = 0
                var column: UInt32 = 0
                indexstore_occurrence_get_line_col(occurrence, &line, &column)
                collector.pointee.uses.append(
                    Use(
                        usr: usr, name: IndexStoreReader.text(indexstore_symbol_get_name(symbol)),
                        file: collector.pointee.file, line: Int(line), column: Int(column)))
                return true
            }
        }
        return collector.uses
    }

    private static func text(_ reference: indexstore_string_ref_t) -> String {
        guard let data = reference.data, reference.length > 0 else { return "" }
        return data.withMemoryRebound(to: UInt8.self, capacity: reference.length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: reference.length), as: UTF8.self)
        }
    }

    private static func describe(_ error: indexstore_error_t?) -> String {
        guard let error else { return "unknown error" }
        defer { indexstore_error_dispose(error) }
        return String(cString: indexstore_error_get_description(error))
    }
}
