import AppleHealthExport
import ArgumentParser
import Foundation
import HealthProbeKit

/// Maps errors to one stderr line and an exit code (DESIGN §9), at the edge.
enum CommandErrors {
    static let badInput: Int32 = 65
    static let ioFailure: Int32 = 74

    static func mapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ExportError {
            fail(error.localizedDescription, code: badInput)
        } catch let error as ArchiveError {
            fail(error.localizedDescription, code: ioFailure)
        } catch let error as ExitCode {
            throw error
        } catch {
            fail("\(error.localizedDescription)", code: ioFailure)
        }
    }

    /// Bad usage: one line, exit 64.
    static func usage(_ message: String) -> Never {
        fail(message, code: 64)
    }

    static func fail(_ message: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data("healthprobe: \(message)\n".utf8))
        exit(code)
    }
}

/// Text and JSON on stdout.
enum Output {
    static func json<T: Encodable>(_ value: T) throws {
        FileHandle.standardOutput.write(try ReportJSON.encode(value))
        FileHandle.standardOutput.write(Data("\n".utf8))
    }

    static func line(_ text: String = "") {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// "1,234", as evidence writes numbers.
    static func grouped(_ number: Int) -> String {
        EvidenceText.grouped(number)
    }
}
