import Foundation
import MCP

/// An answer's JSON as the SDK's `Value`, read once by Foundation's parser. Decoding `Value` with
/// `JSONDecoder` tries each kind in turn and throws for every miss — five errors for each object
/// of a year's daily summary, two thirds of the answer's time — where this walks the parsed tree.
enum JSONValue {
    static func make(from json: Data) throws -> Value {
        try convert(JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed]))
    }

    /// `true` and `false` come back as a boolean class of their own, on Linux as on Apple's systems.
    private static let booleanType = type(of: NSNumber(value: true))

    private static func convert(_ object: Any) -> Value {
        switch object {
        case let text as String:
            return .string(text)
        case let number as NSNumber:
            if type(of: number) == booleanType { return .bool(number.boolValue) }
            let kind = String(cString: number.objCType)
            return kind == "d" || kind == "f" ? .double(number.doubleValue) : .int(number.intValue)
        case let array as [Any]:
            return .array(array.map(convert))
        case let object as [String: Any]:
            return .object(object.mapValues(convert))
        default:
            return .null
        }
    }
}
