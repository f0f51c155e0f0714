import Foundation

/// Where an export's password comes from: the terminal without echo, or a file only its owner
/// can read. Never an argument, never logged, never stored.
package enum PasswordInput {
    package enum Problem: Error, LocalizedError {
        case fileReadableByOthers(String)
        case unreadableFile(String)
        case emptyPassword
        case noTerminal
        case mismatch

        package var errorDescription: String? {
            switch self {
            case .fileReadableByOthers(let path):
                "\(path) can be read by others; make it owner-only (chmod 600) or type the password instead"
            case .unreadableFile(let path): "cannot read the password file \(path)"
            case .emptyPassword: "the password is empty"
            case .noTerminal: "no terminal to ask for the password on; use --password-file"
            case .mismatch: "the two passwords differ"
            }
        }
    }

    /// The password's bytes: the first line of `file`, else typed (twice when `confirming`).
    static func read(file: String?, confirming: Bool) throws(Problem) -> [UInt8] {
        let password: [UInt8]
        if let file {
            password = try fromFile(file)
        } else {
            password = try fromTerminal(confirming: confirming)
        }
        guard !password.isEmpty else { throw .emptyPassword }
        return password
    }

    package static func fromFile(_ path: String) throws(Problem) -> [UInt8] {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .unreadableFile(path) }
        guard status.st_mode & 0o077 == 0, status.st_uid == getuid() else { throw .fileReadableByOthers(path) }
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadableFile(path) }
        var line = Array(data.prefix { $0 != 10 })
        if line.last == 13 { line.removeLast() }
        return line
    }

    package static func fromTerminal(confirming: Bool) throws(Problem) -> [UInt8] {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else { throw .noTerminal }
        defer { close(tty) }
        let first = prompt("Password: ", tty)
        if confirming {
            let second = prompt("Again: ", tty)
            guard first == second else { throw .mismatch }
        }
        return first
    }

    /// Reads one line with echo off, restoring the terminal's settings after.
    private static func prompt(_ text: String, _ tty: Int32) -> [UInt8] {
        _ = text.withCString { write(tty, $0, strlen($0)) }
        var saved = termios()
        tcgetattr(tty, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(tty, TCSAFLUSH, &silent)
        defer {
            tcsetattr(tty, TCSAFLUSH, &saved)
            _ = write(tty, "\n", 1)
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while readByte(tty, &byte), byte != 10 { line.append(byte) }
        if line.last == 13 { line.removeLast() }
        return line
    }
}

/// One byte from the terminal (outside the enum, whose `read` would shadow the C function).
private func readByte(_ descriptor: Int32, _ byte: inout UInt8) -> Bool {
    read(descriptor, &byte, 1) == 1
}
