import Foundation

extension UUID {
    private static let upperDigits = Array("0123456789ABCDEF".utf8)

    /// The UUID as the archive stores it — `uuidString`'s form, upper-case 8-4-4-4-12 — written
    /// without going through a formatted print (a verification scan writes millions).
    var archiveText: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var position = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    text[position] = Self.upperDigits[Int(byte >> 4)]
                    text[position + 1] = Self.upperDigits[Int(byte & 0x0F)]
                    position += 2
                }
                return position
            }
        }
    }
}
