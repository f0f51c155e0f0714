import Foundation
import TestSupport
import Testing

@testable import HealthProbeKit

/// A first import asks the kernel to write the archive back as it grows (`FileWriteback`), a
/// step at a time, so that its commit's fsync has little left to wait for.
@Suite("Writing a growing archive back early")
struct FileWritebackTests {
    @Test func writebackIsAskedForOnceEachStepTheFileGrows() throws {
        let folder = try FixtureFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("growing.sqlite")
        #expect(FileWriteback(path: url.path) == nil)
        try Data().write(to: url)
        let writeback = try #require(FileWriteback(path: url.path))
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let megabyte = Data(repeating: 0x2A, count: 1 << 20)
        var asked: [Bool] = []
        for _ in 0..<40 {
            try handle.write(contentsOf: megabyte)
            asked.append(writeback.fileMayHaveGrown())
        }
        // 16 MiB steps: after the 16th and the 32nd megabyte, and never in between.
        #expect(asked.indices.filter { asked[$0] } == [15, 31])
    }
}
