import AppleHealthExport
import CZlibShim
import Foundation
import HealthProbeArchive

/// Writes a zip archive front to back into a byte sink, deflating each entry as its bytes come:
/// the rebuilt `export.xml` (hundreds of megabytes) goes out compressed as it is formatted, on
/// the export's writer thread, with no copy of it on disk. Sizes and checksums follow each
/// entry's data (a data descriptor), and the zip64 forms are used only where a size or an offset
/// needs them, so any zip reader opens the result.
///
/// ZIPFoundation, which reads every zip here, writes an entry only from a source whose size is
/// known before it starts, and rewrites its whole central directory after each entry: neither
/// fits an entry formatted as it is written, followed by thousands of route files.
///
/// Each entry's central-directory header is made when the entry ends and kept in a
/// ``ZipDirectoryStore`` until the archive's end, so memory does not grow with the entries.
final class ZipStreamWriter {
    private struct Entry {
        var name: [UInt8]
        var offset: UInt64
        var crc: UInt32
        var compressedSize: UInt64
        var size: UInt64

        var needsZip64Sizes: Bool { size >= 0xFFFF_FFFF || compressedSize >= 0xFFFF_FFFF }
    }

    private let sink: (UnsafeRawBufferPointer) throws -> Void
    private let level: Int32
    private let directory: any ZipDirectoryStore
    private var entryCount = 0
    private var written: UInt64 = 0
    private var stream = z_stream()
    private var current: Entry?
    private var output = [UInt8](repeating: 0, count: 1 << 17)
    /// The date and time (UTC) every entry carries, in MS-DOS form.
    private let dosTime: UInt16
    private let dosDate: UInt16

    /// `level`: zlib's, 1 (fastest) to 9. The rebuild uses 1: on an export's XML, about 1.7 times
    /// level 6's speed for a file a third larger.
    init(
        modified: Date, level: Int32 = 1, directory: any ZipDirectoryStore,
        sink: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) {
        self.sink = sink
        self.level = level
        self.directory = directory
        let seconds = Int64(modified.timeIntervalSince1970.rounded(.down))
        let (days, secondOfDay) = CivilCalendar.day(ofSeconds: seconds)
        let (year, month, day) = CivilCalendar.date(daysSince1970: days)
        dosDate = year < 1980 ? 0x21 : UInt16(min(year - 1980, 127) << 9 | month << 5 | day)
        let (hour, minute, second) = (secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
        dosTime = UInt16(hour << 11 | minute << 5 | second / 2)
    }

    deinit {
        if current != nil { deflateEnd(&stream) }
    }

    /// Starts an entry named `name` (slashes between folders); its bytes follow with ``write(_:)``.
    func beginEntry(_ name: String) throws {
        precondition(current == nil, "an entry is already open")
        let nameBytes = Array(name.utf8)
        var header: [UInt8] = []
        header.reserveCapacity(30 + nameBytes.count)
        Self.append32(0x0403_4b50, to: &header)
        // Version 2.0: the size of what follows is not known yet. An entry that needs zip64
        // says 4.5 in the central directory, where readers look (ZIPFoundation reads 4.5 there
        // as "the descriptor's sizes take 8 bytes").
        Self.append16(20, to: &header)
        Self.append16(Self.flags, to: &header)
        Self.append16(8, to: &header)  // deflate
        Self.append16(dosTime, to: &header)
        Self.append16(dosDate, to: &header)
        for _ in 0..<3 { Self.append32(0, to: &header) }  // checksum and sizes: in the descriptor
        Self.append16(UInt16(nameBytes.count), to: &header)
        Self.append16(0, to: &header)
        header.append(contentsOf: nameBytes)
        current = Entry(name: nameBytes, offset: written, crc: 0, compressedSize: 0, size: 0)
        try emit(header)
        stream = z_stream()
        let status = deflateInit2_(
            &stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw ExportFailure.failed(problem: "zlib could not start (\(status))") }
    }

    /// Appends bytes to the open entry.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        current!.crc = UInt32(
            crc32(uLong(current!.crc), bytes.bindMemory(to: Bytef.self).baseAddress, uInt(bytes.count)))
        current!.size += UInt64(bytes.count)
        try deflate(bytes, flush: Z_NO_FLUSH)
    }

    /// Ends the open entry: the rest of its compressed bytes, then its sizes and checksum.
    func finishEntry() throws {
        try deflate(UnsafeRawBufferPointer(start: nil, count: 0), flush: Z_FINISH)
        deflateEnd(&stream)
        guard var entry = current else { return }
        current = nil
        entry.compressedSize = written - entry.offset - 30 - UInt64(entry.name.count)
        var descriptor: [UInt8] = []
        Self.append32(0x0807_4b50, to: &descriptor)
        Self.append32(entry.crc, to: &descriptor)
        if entry.needsZip64Sizes {
            Self.append64(entry.compressedSize, to: &descriptor)
            Self.append64(entry.size, to: &descriptor)
        } else {
            Self.append32(UInt32(entry.compressedSize), to: &descriptor)
            Self.append32(UInt32(entry.size), to: &descriptor)
        }
        try emit(descriptor)
        try directory.keep(centralHeader(entry))
        entryCount += 1
    }

    /// An entry whose bytes are all at hand.
    func addEntry(_ name: String, bytes: [UInt8]) throws {
        try beginEntry(name)
        try bytes.withUnsafeBytes { try write($0) }
        try finishEntry()
    }

    /// Writes the central directory and its end: the archive is complete.
    func finish() throws {
        precondition(current == nil, "an entry is still open")
        let directoryStart = written
        try directory.forEachHeader { try emit($0) }
        let directorySize = written - directoryStart
        let needsZip64 = entryCount >= 0xFFFF || directoryStart >= 0xFFFF_FFFF || directorySize >= 0xFFFF_FFFF
        var end: [UInt8] = []
        if needsZip64 {
            let recordStart = written
            Self.append32(0x0606_4b50, to: &end)
            Self.append64(44, to: &end)
            Self.append16(45, to: &end)
            Self.append16(45, to: &end)
            Self.append32(0, to: &end)
            Self.append32(0, to: &end)
            Self.append64(UInt64(entryCount), to: &end)
            Self.append64(UInt64(entryCount), to: &end)
            Self.append64(directorySize, to: &end)
            Self.append64(directoryStart, to: &end)
            Self.append32(0x0706_4b50, to: &end)
            Self.append32(0, to: &end)
            Self.append64(recordStart, to: &end)
            Self.append32(1, to: &end)
        }
        Self.append32(0x0605_4b50, to: &end)
        Self.append16(0, to: &end)
        Self.append16(0, to: &end)
        Self.append16(UInt16(min(entryCount, 0xFFFF)), to: &end)
        Self.append16(UInt16(min(entryCount, 0xFFFF)), to: &end)
        Self.append32(UInt32(min(directorySize, 0xFFFF_FFFF)), to: &end)
        Self.append32(UInt32(min(directoryStart, 0xFFFF_FFFF)), to: &end)
        Self.append16(0, to: &end)
        try emit(end)
    }

    /// Bit 3: sizes and checksum in a descriptor after the data; bit 11: names in UTF-8.
    private static let flags: UInt16 = 1 << 3 | 1 << 11

    private func centralHeader(_ entry: Entry) -> [UInt8] {
        var extra: [UInt8] = []
        if entry.needsZip64Sizes || entry.offset >= 0xFFFF_FFFF {
            var fields: [UInt8] = []
            if entry.needsZip64Sizes {
                Self.append64(entry.size, to: &fields)
                Self.append64(entry.compressedSize, to: &fields)
            }
            if entry.offset >= 0xFFFF_FFFF { Self.append64(entry.offset, to: &fields) }
            Self.append16(1, to: &extra)
            Self.append16(UInt16(fields.count), to: &extra)
            extra += fields
        }
        var header: [UInt8] = []
        Self.append32(0x0201_4b50, to: &header)
        let version: UInt16 = extra.isEmpty ? 20 : 45
        Self.append16(3 << 8 | version, to: &header)  // made by: Unix, so the permissions below are read
        Self.append16(version, to: &header)
        Self.append16(Self.flags, to: &header)
        Self.append16(8, to: &header)
        Self.append16(dosTime, to: &header)
        Self.append16(dosDate, to: &header)
        Self.append32(entry.crc, to: &header)
        Self.append32(entry.needsZip64Sizes ? 0xFFFF_FFFF : UInt32(entry.compressedSize), to: &header)
        Self.append32(entry.needsZip64Sizes ? 0xFFFF_FFFF : UInt32(entry.size), to: &header)
        Self.append16(UInt16(entry.name.count), to: &header)
        Self.append16(UInt16(extra.count), to: &header)
        Self.append16(0, to: &header)  // comment
        Self.append16(0, to: &header)  // disk
        Self.append16(0, to: &header)  // internal attributes
        Self.append32(UInt32(0o100600) << 16, to: &header)  // a regular file, the owner's only
        Self.append32(entry.offset >= 0xFFFF_FFFF ? 0xFFFF_FFFF : UInt32(entry.offset), to: &header)
        header += entry.name
        header += extra
        return header
    }

    private func deflate(_ bytes: UnsafeRawBufferPointer, flush: Int32) throws {
        stream.next_in = UnsafeMutablePointer(mutating: bytes.bindMemory(to: Bytef.self).baseAddress)
        stream.avail_in = uInt(bytes.count)
        var status: Int32
        repeat {
            status = output.withUnsafeMutableBufferPointer { out in
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return CZlibShim.deflate(&stream, flush)
            }
            guard status != Z_STREAM_ERROR else { throw ExportFailure.failed(problem: "zlib could not compress") }
            let produced = output.count - Int(stream.avail_out)
            if produced > 0 {
                try output.withUnsafeBytes { try emitRaw(UnsafeRawBufferPointer(rebasing: $0[..<produced])) }
            }
        } while stream.avail_out == 0 || (flush == Z_FINISH && status != Z_STREAM_END)
    }

    private func emit(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try emitRaw($0) }
    }

    private func emitRaw(_ bytes: UnsafeRawBufferPointer) throws {
        try sink(bytes)
        written += UInt64(bytes.count)
    }

    private static func append16(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    private static func append32(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    private static func append64(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}

/// Where a zip's central-directory headers wait, in the order the entries were written, until
/// the archive's end.
protocol ZipDirectoryStore: AnyObject {
    func keep(_ header: [UInt8]) throws
    func forEachHeader(_ body: ([UInt8]) throws -> Void) throws
}
