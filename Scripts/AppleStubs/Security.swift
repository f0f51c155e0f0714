// A stub of the Security framework's keychain items for type-checking HealthProbe's app on Linux
// (Scripts/typecheck-apple.sh): the calls and constants the app uses, as Apple's documentation
// gives them at the app's minimum, iOS 18 (built with Xcode 26). Core Foundation's types stand as
// their toll-free Foundation twins, which Linux has: `CFString` is `NSString`, `CFDictionary` `NSDictionary`;
// the constants are C globals, which Swift imports unchecked (`nonisolated(unsafe)` here).
import Foundation

public typealias OSStatus = Int32
public typealias CFTypeRef = AnyObject
public typealias CFString = NSString
public typealias CFDictionary = NSDictionary

@available(iOS 2.0, macOS 10.6, *)
public let errSecSuccess: OSStatus = 0
@available(iOS 2.0, macOS 10.6, *)
public let errSecItemNotFound: OSStatus = -25300
@available(iOS 2.0, macOS 10.6, *)
public let errSecDuplicateItem: OSStatus = -25299
@available(iOS 2.0, macOS 10.6, *)
public let errSecInteractionNotAllowed: OSStatus = -25308

@available(iOS 2.0, macOS 10.6, *)
nonisolated(unsafe) public let kSecClass: CFString = "class"
@available(iOS 2.0, macOS 10.6, *)
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp"
@available(iOS 2.0, macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrService: CFString = "svce"
@available(iOS 2.0, macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct"
@available(iOS 4.0, macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn"
@available(iOS 4.0, macOS 10.9, *)
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
@available(iOS 4.0, macOS 10.9, *)
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
@available(iOS 2.0, macOS 10.6, *)
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data"
@available(iOS 2.0, macOS 10.6, *)
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data"
@available(iOS 2.0, macOS 10.6, *)
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit"
@available(iOS 2.0, macOS 10.6, *)
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"

@available(iOS 2.0, *)
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    fatalError()
}

@available(iOS 2.0, macOS 10.6, *)
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    fatalError()
}

@available(iOS 2.0, macOS 10.6, *)
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus { fatalError() }

@available(iOS 2.0, macOS 10.6, *)
public func SecItemDelete(_ query: CFDictionary) -> OSStatus { fatalError() }
