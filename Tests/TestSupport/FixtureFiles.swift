import Foundation

/// The real-export fixtures (`Tests/Fixtures/apple-health/`, with their sources and licences in
/// its README) and scratch folders for inputs a test writes itself.
public enum FixtureFiles {
    public static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<2 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Fixtures/apple-health")
    }()

    public static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// Top-level elements other than ExportDate and Me, counted by Python's expat for each file.
    public static let topLevelCounts: [String: Int] = [
        "alxdrcirilo/export.xml": 8,
        "alxdrcirilo/export.zip": 8,
        "dogsheep/export.xml": 5,
        "dogsheep/unzipped": 5,
        "opendroid/audio_exposure.xml": 4951,
        "opendroid/sampleexport-2.xml": 43,
        "opendroid/sampleexport.xml": 29,
        "tdda/export6s3sample.xml": 18,
    ]

    /// A new scratch folder, inside this test process's root folder (``processRoot``).
    public static func temporaryFolder() throws -> URL {
        let url = processRoot.appendingPathComponent("healthprobe-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// `healthprobe-tests-PID` in the temporary directory: every scratch folder of this test
    /// process, removed when the process exits. A root whose process no longer runs (a run killed
    /// outright) is removed when the next test process makes its own, so that repeated runs never
    /// fill the disk.
    public static let processRoot: URL = {
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(rootPrefix) {
            guard let pid = Int32(name.dropFirst(rootPrefix.count)), pid != getpid(), !isRunning(pid) else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
        let root = temporary.appendingPathComponent("\(rootPrefix)\(getpid())")
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: FixtureFiles.processRoot) }
        return root
    }()

    private static let rootPrefix = "healthprobe-tests-"

    private static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    public static func write(_ text: String, named name: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    public static func write(_ bytes: [UInt8], named name: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// A minimal export with the given top-level elements.
    public static func export(_ body: String, prolog: String = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n") -> String
    {
        prolog + """
            <HealthData locale="en_US">
             <ExportDate value="2000-01-02 10:00:00 +0000"/>
             <Me HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexNotSet"/>
            \(body)
            </HealthData>

            """
    }

    public static let stepRecord = """
        <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone-TESTDEVICE" unit="count" \
        creationDate="2000-01-01 10:05:00 +0000" startDate="2000-01-01 10:00:00 +0000" \
        endDate="2000-01-01 10:05:00 +0000" value="42"/>
        """
}
