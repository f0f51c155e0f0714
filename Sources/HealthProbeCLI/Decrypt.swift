import ArgumentParser
import Foundation
import HealthProbeKit

extension HealthProbeCommand {
    /// `healthprobe decrypt`: an encrypted export back to its plain file. The plaintext goes to a
    /// temporary beside the output and is renamed into place only once the last segment verifies.
    struct Decrypt: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decrypt an encrypted export.",
            usage: """
                healthprobe decrypt <file> --output <output> [<options>]
                """,
            discussion: """
                Exit 65 when the password is wrong, the file is not a HealthProbe encrypted export, or it \
                was altered or is incomplete; nothing is written then.
                """)

        @Argument(help: "The encrypted export.")
        var file: String

        @Option(help: "The file to write.")
        var output: String

        @Option(name: .customLong("password-file"), help: "Read the password from this owner-only file.")
        var passwordFile: String?

        @Flag(help: "Replace an existing file.")
        var force = false

        func run() async throws {
            guard let input = FileHandle(forReadingAtPath: file) else {
                throw CommandFailure("cannot read \(file)", code: CommandFailure.ioFailureCode)
            }
            defer { try? input.close() }
            if FileManager.default.fileExists(atPath: output) && !force {
                throw CommandFailure("\(output) exists; add --force to replace it", code: 64)
            }
            let password: [UInt8]
            do {
                password = try PasswordInput.read(file: passwordFile, confirming: false)
            } catch {
                throw CommandFailure.usage(error.localizedDescription)
            }
            do {
                try EncryptedExportFile.decrypt(input, password: password, to: output)
            } catch let error as EncryptedExportError {
                throw CommandFailure(error.localizedDescription, code: CommandFailure.badInputCode)
            }
            FileHandle.standardError.write(Data("Decrypted to \(output)\n".utf8))
        }
    }
}
