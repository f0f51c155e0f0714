import Foundation
import HealthProbeArchive

/// A backup's own property lists (`Info.plist`, `Manifest.plist`) read with limits: only a
/// regular file inside the backup, at most 16 MiB, a binary list through ``BinaryPropertyList``
/// (bounded in objects, depth and decoded bytes, so a list whose objects share references cannot
/// grow exponentially), an XML one through Foundation (XML has no shared references).
enum BackupPropertyList {
    static let sizeLimit = 16 << 20

    /// The top dictionary of the list at `file`; nil when it is absent, not a regular file inside
    /// `folder`, too large, or not a readable property list.
    static func dictionary(_ file: URL, inside folder: URL) -> [String: BinaryPropertyList]? {
        guard let regular = try? HealthDatabaseReader.regularFile(file, inside: folder),
            let size = (try? FileManager.default.attributesOfItem(atPath: regular.path))?[.size] as? Int,
            size <= sizeLimit, let handle = try? FileHandle(forReadingFrom: regular)
        else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: sizeLimit + 1), data.count <= sizeLimit else { return nil }
        if data.starts(with: Array("bplist00".utf8)) {
            guard case .dictionary(let top)? = try? BinaryPropertyList.parse(data) else { return nil }
            return top
        }
        guard let object = try? PropertyListSerialization.propertyList(from: data, format: nil),
            case .dictionary(let top)? = converted(object, depth: 0)
        else { return nil }
        return top
    }

    /// Foundation's objects as the binary reader's values.
    private static func converted(_ object: Any, depth: Int) -> BinaryPropertyList? {
        guard depth < 64 else { return nil }
        switch object {
        case let dictionary as [String: Any]:
            return .dictionary(dictionary.compactMapValues { converted($0, depth: depth + 1) })
        case let array as [Any]: return .array(array.compactMap { converted($0, depth: depth + 1) })
        case let string as String: return .string(string)
        case let data as Data: return .data(data)
        case let date as Date: return .date(date.timeIntervalSinceReferenceDate)
        case let bool as Bool: return .bool(bool)
        case let number as NSNumber:
            let real = number.doubleValue
            return real == real.rounded() && abs(real) < 9e15 ? .integer(number.int64Value) : .real(real)
        default: return nil
        }
    }
}

extension BinaryPropertyList {
    var string: String? { if case .string(let value) = self { value } else { nil } }
    var data: Data? { if case .data(let value) = self { value } else { nil } }
    var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    var dictionary: [String: BinaryPropertyList]? { if case .dictionary(let value) = self { value } else { nil } }

    /// A date between 1970 and 2200; nil for anything else (NaN, ±1e300, 1e19 seconds).
    var plausibleDate: Date? {
        guard case .date(let seconds) = self else { return nil }
        let unix = seconds + 978_307_200
        return (0...7_258_118_400).contains(unix) ? Date(timeIntervalSince1970: unix) : nil
    }
}
