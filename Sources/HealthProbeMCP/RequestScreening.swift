import Foundation

/// What JSON-RPC 2.0 says to answer before a request reaches the SDK, which answers some of it
/// wrongly (no reply to an id that is an object, an array, a boolean, a fraction or null; a random
/// id on a parse error; "Internal error" for parameters of the wrong type): a line that is not JSON
/// is a parse error (-32700, id null), one that is not a request an invalid request (-32600, with
/// its id when it has a usable one, else null), and parameters of the wrong shape invalid params
/// (-32602). Notifications (no id) are never answered.
enum RequestScreening {
    enum Outcome: Equatable {
        /// For the SDK, which owes an answer to each of these ids (none for a notification).
        case pass([String])
        /// An error to write back as it is.
        case answer(Data)
        /// A malformed notification: JSON-RPC answers none.
        case ignore
    }

    static func screen(_ line: [UInt8]) -> Outcome {
        let message: Shape
        do {
            message = try JSONDecoder().decode(Shape.self, from: Data(line))
        } catch {
            return .answer(self.error(id: nil, code: -32700, message: "Parse error: the line is not JSON"))
        }
        switch message {
        case .object(let members): return screen(members)
        case .array(let items):
            guard !items.isEmpty else {
                return .answer(self.error(id: nil, code: -32600, message: "Invalid Request: an empty batch"))
            }
            var ids: [String] = []
            for item in items {
                guard case .object(let members) = item, case .pass(let itemIDs) = screen(members) else {
                    return .answer(
                        self.error(
                            id: nil, code: -32600,
                            message: "Invalid Request: a batch holds an item that is not a request"))
                }
                ids += itemIDs
            }
            return .pass(ids)
        default:
            return .answer(self.error(id: nil, code: -32600, message: "Invalid Request: a request is a JSON object"))
        }
    }

    private static func screen(_ members: [String: Shape]) -> Outcome {
        let id: RequestID?
        switch members["id"] {
        case nil: id = nil
        case .string(let text)?: id = .string(text)
        case .integer(let number)?: id = .number(number)
        default:
            return .answer(
                error(id: nil, code: -32600, message: "Invalid Request: an id is a string or an integer"))
        }
        guard case .string(let method)? = members["method"] else {
            // A response to a request of the server's own (its id, and a result or an error).
            if members["method"] == nil, id != nil, members["result"] != nil || members["error"] != nil {
                return .pass([])
            }
            return reply(id, -32600, "Invalid Request: method is missing or not a string")
        }
        guard case .string("2.0")? = members["jsonrpc"] else {
            return reply(id, -32600, "Invalid Request: jsonrpc must be \"2.0\"")
        }
        switch members["params"] {
        case nil, .object?, .array?: break
        default: return reply(id, -32602, "Invalid params: params is an object")
        }
        if let problem = paramsProblem(method, members["params"]) {
            return reply(id, -32602, "Invalid params: \(problem)")
        }
        return .pass(id.map { [$0.key] } ?? [])
    }

    /// The ids an outgoing message answers (a response, or a batch of them), as ``RequestID/key``s.
    static func answeredIDs(_ message: Data) -> [String] {
        guard let shape = try? JSONDecoder().decode(Shape.self, from: message) else { return [] }
        func id(_ item: Shape) -> String? {
            guard case .object(let members) = item, members["result"] != nil || members["error"] != nil else {
                return nil
            }
            switch members["id"] {
            case .string(let text)?: return RequestID.string(text).key
            case .integer(let number)?: return RequestID.number(number).key
            default: return nil
            }
        }
        switch shape {
        case .array(let items): return items.compactMap(id)
        default: return id(shape).map { [$0] } ?? []
        }
    }

    /// The parameters of the methods this server answers, checked for the types the SDK decodes.
    private static func paramsProblem(_ method: String, _ params: Shape?) -> String? {
        let members: [String: Shape]
        switch params {
        case .object(let fields)?: members = fields
        case nil: members = [:]
        // Below the levels read (a batch's params): the SDK's to judge.
        default: return nil
        }
        func expect(_ key: String, _ kind: String, required: Bool, _ matches: (Shape) -> Bool) -> String? {
            guard let value = members[key] else { return required ? "\(key) is missing" : nil }
            return matches(value) ? nil : "\(key) must be \(kind)"
        }
        switch method {
        case "tools/call":
            return expect("name", "a string", required: true, \.isString)
                ?? expect("arguments", "an object", required: false, \.isObject)
        case "resources/read":
            return expect("uri", "a string", required: true, \.isString)
        case "initialize":
            return expect("protocolVersion", "a string", required: true, \.isString)
                ?? expect("capabilities", "an object", required: true, \.isObject)
                ?? expect("clientInfo", "an object", required: true, \.isObject)
        case "tools/list", "resources/list", "prompts/list", "resources/templates/list":
            return expect("cursor", "a string", required: false, \.isString)
        default:
            return nil
        }
    }

    private static func reply(_ id: RequestID?, _ code: Int, _ message: String) -> Outcome {
        // A notification (no id) is never answered, however wrong.
        guard let id else { return .ignore }
        return .answer(error(id: id, code: code, message: message))
    }

    enum RequestID: Equatable {
        case string(String)
        case number(Int)

        /// One text for each id, a string's and a number's apart.
        var key: String {
            switch self {
            case .string(let text): "s" + text
            case .number(let number): "n\(number)"
            }
        }
    }

    /// A JSON-RPC error answer: `{"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…}}`.
    static func error(id: RequestID?, code: Int, message: String) -> Data {
        let idValue: Any =
            switch id {
            case .string(let text)?: text
            case .number(let number)?: number
            case nil: NSNull()
            }
        let object: [String: Any] = ["jsonrpc": "2.0", "id": idValue, "error": ["code": code, "message": message]]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }
}

/// A JSON value's kind, as deep as the screening looks: the members of an object (a request, its
/// params) and the items of an array (a batch) are read; below that only kinds, never contents.
indirect enum Shape: Decodable, Equatable {
    case null, bool, integer(Int), fraction, string(String), array([Shape]), object([String: Shape])
    /// An object or array below the levels the screening reads.
    case nested

    var isString: Bool { if case .string = self { true } else { false } }
    var isObject: Bool { if case .object = self { true } else if case .nested = self { true } else { false } }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let level = decoder.codingPath.count
        if let object = try? decoder.container(keyedBy: Key.self) {
            guard level < 2 else {
                self = .nested
                return
            }
            var members: [String: Shape] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(Shape.self, forKey: key) }
            self = .object(members)
            return
        }
        if var array = try? decoder.unkeyedContainer() {
            guard level < 1 else {
                self = .nested
                return
            }
            var items: [Shape] = []
            while !array.isAtEnd { items.append(try array.decode(Shape.self)) }
            self = .array(items)
            return
        }
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if (try? value.decode(Bool.self)) != nil {
            self = .bool
        } else if let number = try? value.decode(Int.self) {
            self = .integer(number)
        } else if (try? value.decode(Double.self)) != nil {
            self = .fraction
        } else {
            self = .string(try value.decode(String.self))
        }
    }
}
