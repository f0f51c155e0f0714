import Foundation
import HealthProbeKit
import HealthProbeMCP

/// libFuzzer entry point over the readers of backups and Health databases: one input through the
/// reader `HEALTHPROBE_FUZZ_TARGET` names — `plist` (a binary property list and a file record in
/// it), `keybag`, `database` (a Health database whose rows the bytes make), `json` (the archive's
/// canonical JSON), `clinical` (a clinical record's document), `route` (a workout route's GPX) or
/// `request` (a line of the assistant's input). Each may refuse; none may trap, hang or grow
/// without bound.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBackupReaders(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    switch target {
    case "keybag": FuzzTargets.keybag(bytes)
    case "database": FuzzTargets.healthDatabaseRows(bytes, folder: folder)
    case "json": FuzzTargets.canonicalJSON(bytes)
    case "clinical": FuzzTargets.clinicalDocument(bytes)
    case "route": FuzzTargets.route(bytes)
    case "request": AssistantFuzzTarget.request(bytes)
    default: FuzzTargets.propertyList(bytes)
    }
    return 0
}

private let target = ProcessInfo.processInfo.environment["HEALTHPROBE_FUZZ_TARGET"] ?? "plist"

/// Where the database target writes each input's database, removed at exit.
private let folder: URL = {
    let made = FileManager.default.temporaryDirectory.appendingPathComponent("healthprobe-fuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
    atexit { removeFolder() }
    return made
}()

private func removeFolder() {
    try? FileManager.default.removeItem(at: folder)
}
