import Foundation
internal import GRDB

extension ArchiveStore {
    /// Every read of the archive goes through here: what SQLite reports comes out as an
    /// ``ArchiveError`` in words (the one place it is translated); a statement stopped by
    /// ``interruptStatements()`` stays as it is, for ``isInterruption(_:)``; anything `body`
    /// throws of its own passes unchanged.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try writer.read(body)
        } catch {
            throw translated(error)
        }
    }

    /// Every write transaction of the archive, its errors as ``read(_:)`` tells them.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try writer.write(body)
        } catch {
            throw translated(error)
        }
    }

    /// SQLite's error in words; anything else as it is.
    func translated(_ error: any Error) -> any Error {
        if Self.isInterruption(error) { return error }
        return ArchiveError.from(error, path: pathInMessages) ?? error
    }
}
