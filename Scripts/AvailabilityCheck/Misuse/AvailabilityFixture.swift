// A module of the availability check's own, dumped beside the toolchain's: two overloads of one
// name, the newer taking what the older cannot, so that a use of the newer is not passed for the
// older's sake (Misuse.swift).
public func describe(_ value: Int) -> String { String(value) }

@available(macOS 15, iOS 18, *)
public func describe(_ value: [UInt8]) -> String { String(decoding: value, as: UTF8.self) }
