/// Reads one ECG CSV as it streams past, a chunk at a time, in memory bounded by its caps.
///
/// The file is a header of `Key,Value` lines (values quoted when they hold a comma: `"Watch5,4"`),
/// then one voltage a line. Exports in locales with a decimal comma write `-265,868` for
/// `-265.868`; a line that is one number either way is a voltage. The person's lines (`Name`,
/// `Date of Birth`) come before `Recorded Date`: nothing before it is kept, so they never are,
/// whatever language their keys are written in.
public struct ElectrocardiogramParser {
    /// Why a file is not a readable ECG: counted and named as unreadable, never fatal to a check.
    public struct Failure: Error, Sendable, Equatable {
        public var reason: String
    }

    /// The largest ECG file read: a 30-second recording at 512 Hz is about 150 KB.
    public static let maximumBytes = 32 << 20
    /// The longest line read.
    public static let maximumLineBytes = 4_096

    private let path: String
    private var line: [UInt8] = []
    private var lineNumber = 0
    private var bytes = 0
    private var header: [(key: String, value: String)] = []
    private var voltages: [Int64] = []
    private var decimals = 0
    private var inVoltages = false
    /// Whether `Recorded Date` has been read: the header lines before it are the person's.
    private var recordingStarted = false
    private var failure: Failure?

    public init(path: String) {
        self.path = path
    }

    /// Reads the next chunk of the file.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) throws(Failure) {
        if let failure { throw failure }
        bytes += chunk.count
        guard bytes <= Self.maximumBytes else {
            throw fail("it is larger than the \(Self.maximumBytes >> 20) MiB an ECG recording may be")
        }
        var start = 0
        while start < chunk.count {
            let rest = UnsafeRawBufferPointer(rebasing: chunk[start...])
            // A rebased buffer counts from zero.
            let newline = rest.firstIndex(of: UInt8(ascii: "\n")).map { start + $0 }
            let end = newline ?? chunk.count
            guard line.count + (end - start) <= Self.maximumLineBytes else {
                throw fail("line \(lineNumber + 1) is longer than \(Self.maximumLineBytes) bytes")
            }
            line.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[start..<end]))
            guard newline != nil else { return }
            try endLine()
            start = end + 1
        }
    }

    /// Ends the file: the recording, or why it is not one.
    public mutating func finish() throws(Failure) -> ElectrocardiogramElement {
        if let failure { throw failure }
        if !line.isEmpty { try endLine() }
        func value(_ key: String) -> String? {
            header.first { $0.key.lowercased() == key }.map(\.value).flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let dateText = value("recorded date") else { throw fail("it has no Recorded Date line") }
        guard let recorded = AppleExportTimestamp(exportText: dateText) else {
            throw fail("its Recorded Date is not a date")
        }
        guard !voltages.isEmpty else { throw fail("it holds no voltages") }
        let scale = DecimalText.power(DecimalText.maximumDecimals - decimals)
        let known: Set<String> = [
            "recorded date", "classification", "symptoms", "software version", "device", "sample rate", "lead", "unit",
            "average heart rate",
        ]
        return ElectrocardiogramElement(
            path: path, recordedDate: recorded, classification: value("classification"), symptoms: value("symptoms"),
            softwareVersion: value("software version"), device: value("device"), sampleRate: value("sample rate"),
            lead: value("lead"), unit: value("unit"), averageHeartRate: value("average heart rate"),
            otherHeader: header.filter { !known.contains($0.key.lowercased()) }.map {
                AppleExportAttribute(name: $0.key, value: $0.value)
            },
            voltages: ElectrocardiogramVoltages(decimals: decimals, values: voltages.map { $0 / scale }))
    }

    private mutating func fail(_ reason: String) -> Failure {
        let failure = Failure(reason: reason)
        self.failure = failure
        return failure
    }

    private mutating func endLine() throws(Failure) {
        lineNumber += 1
        defer { line.removeAll(keepingCapacity: true) }
        var content = line[...]
        if lineNumber == 1, content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
        while let last = content.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: " ") {
            content = content.dropLast()
        }
        while let first = content.first, first == UInt8(ascii: " ") { content = content.dropFirst() }
        guard !content.isEmpty else { return }
        var number = content
        if number.count >= 2, number.first == UInt8(ascii: "\""), number.last == UInt8(ascii: "\"") {
            number = number.dropFirst().dropLast()
        }
        if let (value, places) = DecimalText.parse(number) {
            inVoltages = true
            voltages.append(value)
            decimals = max(decimals, places)
            return
        }
        if inVoltages { throw fail("line \(lineNumber) is not a voltage") }
        // Foundation's validating initialiser: the standard library's `String(validating:as:)`
        // is macOS 15 / iOS 18, newer than the package's platforms.
        guard let text = String(bytes: content, encoding: .utf8) else {
            throw fail("line \(lineNumber) is not UTF-8")
        }
        guard let comma = text.firstIndex(of: ",") else {
            if recordingStarted { header.append((text, "")) }
            return
        }
        let key = String(text[..<comma])
        if key.lowercased() == "recorded date" { recordingStarted = true }
        guard recordingStarted else { return }
        header.append((key, Self.unquoted(text[text.index(after: comma)...])))
    }

    /// A CSV field without its quotes (`"Watch5,4"` → `Watch5,4`, `""` inside → `"`).
    static func unquoted(_ field: Substring) -> String {
        guard field.count >= 2, field.first == "\"", field.last == "\"" else { return String(field) }
        return field.dropFirst().dropLast().replacingOccurrences(of: "\"\"", with: "\"")
    }
}
