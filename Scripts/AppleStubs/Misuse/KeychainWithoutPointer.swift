// `SecItemCopyMatching` writes its result through a pointer; it returns a status, not the item.
import Foundation
import Security

func read() -> Data? {
    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
    return SecItemCopyMatching(query as CFDictionary) as? Data
}
