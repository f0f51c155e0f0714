import AppleHealthExport
import HealthProbeArchive

/// Receives one record's columns in ``RecordEncoding/columns`` order: the CSV writer writes
/// them, the SQLite writer binds them.
protocol RecordColumnVisitor {
    mutating func integer(_ value: Int64?)
    /// The device: CSV writes its columns (``RecordEncoding/deviceColumns``), SQLite its id.
    mutating func device(_ id: Int64?, _ description: DeviceDescription?)
    /// A number as written, or nil.
    mutating func number(_ text: UnsafeBufferPointer<UInt8>?, _ value: Double?)
    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>?)
    mutating func text(_ string: String?)
    /// Bytes made for this column (a date, metadata), valid only during the call.
    mutating func madeText(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension RecordColumnVisitor {
    mutating func madeText(_ bytes: UnsafeBufferPointer<UInt8>) { text(bytes) }
}

extension RecordEncoding {
    /// Visits the record at the cursor column by column.
    /// `scratch` holds the bytes of the columns made on the way (dates, metadata), reused from
    /// record to record.
    static func visitColumns<Visitor: RecordColumnVisitor>(
        _ cursor: ArchivedRecordCursor, _ context: inout ExportContext, _ visitor: inout Visitor,
        scratch: inout [UInt8], filesWithContent: Bool
    ) {
        func made(_ build: (inout [UInt8]) -> Bool) {
            scratch.removeAll(keepingCapacity: true)
            if build(&scratch) {
                scratch.withUnsafeBufferPointer { visitor.madeText($0) }
            } else {
                visitor.text(nil as UnsafeBufferPointer<UInt8>?)
            }
        }
        func captureDate(_ text: [UInt8]?) {
            if let text {
                text.withUnsafeBufferPointer { visitor.madeText($0) }
            } else {
                visitor.text(nil as UnsafeBufferPointer<UInt8>?)
            }
        }
        func date(_ seconds: Double?) {
            made { bytes in
                guard let seconds else { return false }
                context.timestamps.append(seconds, to: &bytes)
                return true
            }
        }
        let id = cursor.integer(.id)
        visitor.integer(id)
        visitor.text(cursor.text(.kind))
        visitor.text(cursor.text(.type))
        visitor.text(cursor.text(.sourceName))
        visitor.text(cursor.text(.sourceVersion))
        let deviceID = cursor.integer(.deviceId)
        visitor.device(deviceID, deviceID.flatMap { context.devices[$0] })
        visitor.text(cursor.text(.unit))
        let value = cursor.text(.value)
        let number = cursor.double(.numericValue)
        if let value, JSONBytes.isNumber(value) {
            visitor.number(value, number)
            visitor.text(nil as UnsafeBufferPointer<UInt8>?)
        } else if let value, let number {
            visitor.number(nil, number)
            visitor.text(value)
        } else {
            visitor.number(nil, nil)
            visitor.text(value)
        }
        date(cursor.double(.creationDate))
        date(cursor.double(.startDate))
        date(cursor.double(.endDate))
        made { bytes in
            guard let metadata = cursor.text(.metadata) else { return false }
            JSONBytes.appendMetadataObject(metadata, to: &bytes)
            return true
        }
        visitor.text(cursor.text(.details))
        made { bytes in
            guard let routes = context.routes(cursor) else { return false }
            appendRoutes(routes, to: &bytes)
            return true
        }
        made { bytes in
            guard let files = context.attachedFiles(cursor) else { return false }
            appendFiles(files, content: filesWithContent, &context, to: &bytes)
            return true
        }
        visitor.text(cursor.text(.healthKitUUID))
        let firstSeen = cursor.integer(.firstSeenCapture)
        visitor.integer(firstSeen)
        captureDate(context.captureDateText(firstSeen))
        visitor.text(ExportContext.status(cursor))
        captureDate(context.captureDateText(cursor.integer(.lastSeen)))
        captureDate(context.captureDateText(cursor.integer(.goneAt)))
        visitor.text(ExportContext.goneReason(cursor.string(.goneReason)))
    }
}
