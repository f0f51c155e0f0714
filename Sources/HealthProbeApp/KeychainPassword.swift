#if os(iOS) || HEALTHPROBE_APPLE_STUBS
    import Foundation
    import Security

    /// A scheduled encrypted export's password, kept in the Keychain under the schedule's
    /// `passwordFile` name. Readable after the first unlock since the phone started
    /// (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`): background exports run while the
    /// phone is locked, and the item never leaves this device, not even in a backup.
    public enum KeychainPassword {
        public struct Failure: Error, Equatable {
            public let status: OSStatus
        }

        static let service = "org.healthprobe.export"

        public static func read(account: String) throws -> [UInt8] {
            var query = base(account)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var item: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &item)
            guard status == errSecSuccess, let data = item as? Data else { throw Failure(status: status) }
            return Array(data)
        }

        /// Stores the password, replacing one already kept for `account`.
        public static func save(_ password: [UInt8], account: String) throws {
            let attributes: [String: Any] = [
                kSecValueData as String: Data(password),
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            var status = SecItemUpdate(base(account) as CFDictionary, attributes as CFDictionary)
            if status == errSecItemNotFound {
                let item = base(account).merging(attributes) { _, new in new }
                status = SecItemAdd(item as CFDictionary, nil)
            }
            guard status == errSecSuccess else { throw Failure(status: status) }
        }

        public static func delete(account: String) throws {
            let status = SecItemDelete(base(account) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else { throw Failure(status: status) }
        }

        private static func base(_ account: String) -> [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
        }
    }
#endif
