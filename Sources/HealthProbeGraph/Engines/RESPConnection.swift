import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(Glibc)
    private let systemSend = Glibc.send
#elseif canImport(Darwin)
    private let systemSend = Darwin.send
#endif

/// A reply in the Redis protocol (RESP2): what FalkorDB answers.
public indirect enum RESPValue: Equatable, Sendable {
    case simple(String)
    case error(String)
    case integer(Int64)
    case bulk(String?)
    case array([RESPValue]?)

    /// The value as text, for the string-like replies.
    public var text: String? {
        switch self {
        case .simple(let text), .bulk(.some(let text)): text
        case .integer(let value): String(value)
        default: nil
        }
    }
}

public enum RESPError: Error, Equatable, CustomStringConvertible {
    case cannotConnect(String)
    case connectionLost(String)
    case malformedReply(String)
    case server(String)

    public var description: String {
        switch self {
        case .cannotConnect(let problem): "cannot connect: \(problem)"
        case .connectionLost(let problem): "the connection was lost: \(problem)"
        case .malformedReply(let problem): "the server's reply cannot be read: \(problem)"
        case .server(let message): message
        }
    }
}

/// One connection to a Redis-protocol server on a unix socket or a loopback TCP port: commands
/// out as arrays of bulk strings, replies parsed as they come. Not shared between threads.
public final class RESPConnection {
    public enum Endpoint: Equatable, Sendable {
        case unixSocket(String)
        case loopback(port: UInt16)
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var position = 0

    public init(_ endpoint: Endpoint, timeout: TimeInterval = 30) throws {
        descriptor = try Self.connected(endpoint)
        var limit = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// A socket connected to the endpoint; closed again when the connection fails.
    private static func connected(_ endpoint: Endpoint) throws -> Int32 {
        let family = if case .unixSocket = endpoint { AF_UNIX } else { AF_INET }
        let descriptor = socket(family, streamType, 0)
        guard descriptor >= 0 else { throw RESPError.cannotConnect(lastError()) }
        #if canImport(Darwin)
            // Darwin has no MSG_NOSIGNAL: without this, a server that closes the connection
            // mid-write ends `healthprobe graph` with SIGPIPE instead of an error.
            var on: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let result: Int32
        switch endpoint {
        case .unixSocket(let path):
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            #if canImport(Darwin)
                address.sun_len = UInt8(MemoryLayout<sockaddr_un>.size)
            #endif
            let bytes = Array(path.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
                close(descriptor)
                throw RESPError.cannotConnect("the socket's path is too long")
            }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: bytes)
                raw[bytes.count] = 0
            }
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        case .loopback(let port):
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            #if canImport(Darwin)
                address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard result == 0 else {
            let problem = lastError()
            close(descriptor)
            throw RESPError.cannotConnect(problem)
        }
        return descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Sends one command and reads its reply; a server error reply is thrown.
    @discardableResult
    public func send(_ arguments: [String]) throws -> RESPValue {
        var command = Array("*\(arguments.count)\r\n".utf8)
        for argument in arguments {
            let bytes = Array(argument.utf8)
            command += Array("$\(bytes.count)\r\n".utf8) + bytes + [13, 10]
        }
        try write(command)
        buffer.removeFirst(position)
        position = 0
        let reply = try readValue()
        if case .error(let message) = reply { throw RESPError.server(message) }
        return reply
    }

    private func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                systemSend(descriptor, $0.baseAddress, $0.count, Self.noSignal)
            }
            guard count > 0 else { throw RESPError.connectionLost(Self.lastError()) }
            sent += count
        }
    }

    private func readValue() throws -> RESPValue {
        let line = try readLine()
        guard let kind = line.first else { throw RESPError.malformedReply("an empty line") }
        let rest = String(decoding: line.dropFirst(), as: UTF8.self)
        switch kind {
        case UInt8(ascii: "+"): return .simple(rest)
        case UInt8(ascii: "-"): return .error(rest)
        case UInt8(ascii: ":"):
            guard let value = Int64(rest) else { throw RESPError.malformedReply("an integer \(rest)") }
            return .integer(value)
        case UInt8(ascii: "$"):
            guard let length = Int(rest) else { throw RESPError.malformedReply("a length \(rest)") }
            if length < 0 { return .bulk(nil) }
            let bytes = try readBytes(length + 2)
            return .bulk(String(decoding: bytes.prefix(length), as: UTF8.self))
        case UInt8(ascii: "*"):
            guard let count = Int(rest) else { throw RESPError.malformedReply("a count \(rest)") }
            if count < 0 { return .array(nil) }
            return .array(try (0..<count).map { _ in try readValue() })
        default:
            throw RESPError.malformedReply("a reply starting with \(Character(UnicodeScalar(kind)))")
        }
    }

    private func readLine() throws -> ArraySlice<UInt8> {
        var scanned = position
        while true {
            while scanned + 1 < buffer.count {
                if buffer[scanned] == 13 && buffer[scanned + 1] == 10 {
                    let line = buffer[position..<scanned]
                    position = scanned + 2
                    return line
                }
                scanned += 1
            }
            try fill()
        }
    }

    private func readBytes(_ count: Int) throws -> ArraySlice<UInt8> {
        while buffer.count - position < count { try fill() }
        defer { position += count }
        return buffer[position..<position + count]
    }

    /// Appends what the server sent next (positions into the buffer stay valid).
    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else {
            throw RESPError.connectionLost(count == 0 ? "the server closed it" : Self.lastError())
        }
        buffer += chunk[0..<count]
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }

    #if canImport(Glibc)
        private static let streamType = Int32(SOCK_STREAM.rawValue)
        private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
        private static let streamType = SOCK_STREAM
        private static let noSignal: Int32 = 0
    #endif
}
