import ArgumentParser
import Foundation

/// A size given on the command line in the binary units every face prints (`500MiB`, `8GiB`, or
/// a bare number of bytes), so that a limit reads back as it was written.
struct ByteSize: ExpressibleByArgument, Equatable {
    var bytes: Int64

    init(bytes: Int64) {
        self.bytes = bytes
    }

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces)
        let digits = text.prefix { $0.isNumber || $0 == "." }
        let unit = text.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()
        let shifts: [String: Int64] = [
            "": 0, "b": 0, "k": 10, "kib": 10, "m": 20, "mib": 20, "g": 30, "gib": 30, "t": 40, "tib": 40,
        ]
        guard let number = Double(digits), number > 0, let shift = shifts[unit] else { return nil }
        let value = number * Double(Int64(1) << shift)
        guard value < Double(Int64.max) else { return nil }
        bytes = Int64(value.rounded())
    }

    var defaultValueDescription: String { Output.size(bytes) }
}
