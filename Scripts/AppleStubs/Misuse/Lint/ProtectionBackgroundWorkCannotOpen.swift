// A scheduled export runs while the phone is locked: files of class `complete` cannot be opened
// then, and `completeUnlessOpen` ones cannot be reopened once closed.
import Foundation

func makeFolder(_ url: URL) throws {
    try FileManager.default.createDirectory(
        at: url, withIntermediateDirectories: true, attributes: [.protectionKey: FileProtectionType.completeUnlessOpen])
}
