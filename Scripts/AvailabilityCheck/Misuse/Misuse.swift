// The availability check's own test: compiled with an index store and checked at macOS 14 /
// iOS 17, it must name exactly the uses marked "refused" (expected.txt) and none of the others.
// Compiled with -D AVAILABILITY_FIXTURE, so that branches Apple's platforms compile are indexed.
import AvailabilityFixture
import Synchronization

func unguarded(_ bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self)  // refused: macOS 15, iOS 18
}

func guarded(_ bytes: [UInt8]) -> String? {
    if #available(macOS 15, iOS 18, *) {
        return String(validating: bytes, as: UTF8.self)
    }
    return nil
}

func guardedEarly(_ bytes: [UInt8]) -> String? {
    guard #available(macOS 15, iOS 18, *) else { return nil }
    return String(validating: bytes, as: UTF8.self)
}

@available(macOS 15, iOS 18, *)
func annotated(_ bytes: [UInt8]) -> String? { String(validating: bytes, as: UTF8.self) }

@available(macOS 15, iOS 18, *)
final class Annotated: Sendable {
    let lock = Mutex(0)
}

final class Unannotated: Sendable {
    let lock = Mutex(0)  // refused: macOS 15, iOS 18
}

func halfGuarded(_ bytes: [UInt8]) -> String? {
    if #available(macOS 15, *) { return String(validating: bytes, as: UTF8.self) }  // refused: iOS 18
    return nil
}

func wrapping(_ value: UInt64) -> UInt64 {
    value &* 31  // Swift 6's requirement on Linux, the older operator below macOS 15: not refused
}

#if os(Linux)
    func linuxOnly(_ bytes: [UInt8]) -> String? { String(validating: bytes, as: UTF8.self) }
#endif

#if os(Linux) || os(Android)
    func linuxOrAndroid(_ bytes: [UInt8]) -> String? { String(validating: bytes, as: UTF8.self) }
#endif

#if !os(Linux) || AVAILABILITY_FIXTURE
    func appleOnly(_ bytes: [UInt8]) -> String? {
        String(validating: bytes, as: UTF8.self)  // refused: Apple's code, though its condition names Linux
    }
#endif

#if os(macOS) || (os(Linux) && AVAILABILITY_FIXTURE)
    func macOnly(_ bytes: [UInt8]) -> String? {
        String(validating: bytes, as: UTF8.self)  // refused: macOS 15 alone, never compiled for an iPhone
    }
#endif

#if os(Linux) && !AVAILABILITY_FIXTURE
#else
    func elseOfLinux(_ bytes: [UInt8]) -> String? {
        String(validating: bytes, as: UTF8.self)  // refused: the #else of a Linux branch
    }
#endif

func catalystGuarded(_ bytes: [UInt8]) -> String? {
    if #available(macCatalyst 18, macOS 15, *) {
        return String(validating: bytes, as: UTF8.self)  // refused: Mac Catalyst says nothing of iOS
    }
    return nil
}

func newerOverload(_ bytes: [UInt8]) -> String {
    describe(bytes)  // refused: the older describe(_:) takes an Int, not these bytes
}

func olderOverload() -> String { describe(1) }
