// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "HealthProbe",
    // Chosen on purpose (2026-11-27): macOS 15 and iOS 18, two years old, where the standard
    // library's and Foundation's newer calls (`String(validating:as:)`, `Mutex`) are available.
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "AppleHealthExport", targets: ["AppleHealthExport"]),
        .library(name: "HealthProbeArchive", targets: ["HealthProbeArchive"]),
        .library(name: "HealthProbeKit", targets: ["HealthProbeKit"]),
        .library(name: "HealthProbeScreens", targets: ["HealthProbeScreens"]),
        .library(name: "HealthProbeHealthKit", targets: ["HealthProbeHealthKit"]),
        .library(name: "HealthProbeApp", targets: ["HealthProbeApp"]),
        .executable(name: "healthprobe", targets: ["healthprobe"]),
        .executable(name: "healthprobe-connect", targets: ["healthprobe-connect"]),
        .executable(name: "healthprobe-benchmark", targets: ["HealthProbeBenchmark"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.30.0"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .systemLibrary(name: "CZlibShim", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(
            name: "AppleHealthExport",
            dependencies: [
                // Apple's SDKs have a libxml2 module of their own, whose headers pkg-config does
                // not know for iOS; the shim is for Linux.
                .target(name: "CLibXML2", condition: .when(platforms: [.linux])), "CZlibShim",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            // The SDK's libxml2 module may not link its library by itself.
            linkerSettings: [.linkedLibrary("xml2", .when(platforms: [.macOS, .iOS]))]
        ),
        .target(name: "CSQLiteSettings", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "CFreedMemory"),
        // The archive: its file, connections, migrations, records, captures, the audit trail and
        // the detectors that run in a capture's transaction. The only target that knows its SQL.
        .target(
            name: "HealthProbeArchive",
            dependencies: [
                "AppleHealthExport",
                "CSQLiteSettings",
                "CZlibShim",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "HealthProbeKit",
            dependencies: [
                "AppleHealthExport",
                "HealthProbeArchive",
                "CFreedMemory",
                "CZlibShim",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(name: "HealthProbeScreens", dependencies: ["HealthProbeArchive", "HealthProbeKit"]),
        // Synthetic Health data, for the demo, `generate`, the benchmarks and the tests: a
        // simulated HealthKit store and its story, export and Health database writers. The kit
        // the app ships carries none of it.
        .target(
            name: "HealthProbeSimulation",
            dependencies: [
                "HealthProbeArchive", "HealthProbeKit", "AppleHealthExport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .target(
            name: "HealthProbeWeb",
            dependencies: [
                "HealthProbeArchive", "HealthProbeScreens", "HealthProbeKit", "AppleHealthExport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "HealthProbeCLI",
            dependencies: [
                "AppleHealthExport", "HealthProbeArchive", "HealthProbeKit", "HealthProbeScreens", "HealthProbeWeb",
                "HealthProbeSimulation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The commands that talk to another program (`mcp`, `graph`), in `healthprobe-connect`:
        // only it links the HTTP clients they need (see HealthProbeCLI's ConnectionCommands).
        .target(
            name: "HealthProbeConnections",
            dependencies: [
                "HealthProbeArchive", "HealthProbeKit", "HealthProbeCLI", "HealthProbeGraph", "HealthProbeMCP",
            ]
        ),
        // `healthprobe mcp`: the archive to assistants, over the Model Context Protocol's stdio.
        .target(
            name: "HealthProbeMCP",
            dependencies: [
                "HealthProbeArchive", "HealthProbeKit", "HealthProbeGraph", .product(name: "MCP", package: "swift-sdk"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "healthprobe",
            dependencies: ["HealthProbeCLI"]
        ),
        .executableTarget(
            name: "healthprobe-connect",
            dependencies: ["HealthProbeCLI", "HealthProbeConnections"]
        ),
        .target(
            name: "HealthProbeGraph",
            dependencies: [
                "HealthProbeArchive", "HealthProbeKit", "AppleHealthExport",
            ]
        ),
        .executableTarget(
            name: "HealthProbeBenchmark",
            dependencies: [
                "AppleHealthExport", "HealthProbeArchive", "HealthProbeKit", "HealthProbeGraph",
                "HealthProbeSimulation",
            ]),
        .target(name: "HealthProbeHealthKit", dependencies: ["HealthProbeArchive", "HealthProbeKit"]),
        .target(
            name: "HealthProbeApp",
            dependencies: ["HealthProbeArchive", "HealthProbeKit", "HealthProbeScreens", "HealthProbeHealthKit"]),
        .target(
            name: "TestSupport",
            dependencies: [
                "HealthProbeArchive", "HealthProbeKit", "HealthProbeSimulation", "AppleHealthExport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "AppleHealthExportTests",
            dependencies: [
                "AppleHealthExport", "TestSupport",
            ]
        ),
        .testTarget(
            name: "HealthProbeArchiveTests",
            dependencies: [
                "HealthProbeArchive", "AppleHealthExport", "HealthProbeSimulation", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "HealthProbeSimulationTests",
            dependencies: ["HealthProbeSimulation", "HealthProbeArchive", "HealthProbeKit"]
        ),
        .testTarget(
            name: "HealthProbeKitTests",
            dependencies: [
                "HealthProbeArchive",
                "AppleHealthExport", "HealthProbeKit", "HealthProbeSimulation", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "HealthProbeGraphTests",
            dependencies: [
                "HealthProbeArchive",
                "HealthProbeGraph", "HealthProbeKit", "HealthProbeSimulation", "AppleHealthExport", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "HealthProbeMCPTests",
            dependencies: [
                "HealthProbeMCP", "HealthProbeArchive", "HealthProbeKit", "HealthProbeSimulation", "AppleHealthExport",
                "TestSupport", .product(name: "MCP", package: "swift-sdk"),
            ]),
        .testTarget(
            name: "HealthProbeScreensTests",
            dependencies: [
                "HealthProbeScreens", "HealthProbeArchive", "HealthProbeKit", "HealthProbeSimulation", "TestSupport",
            ]
        ),
        .testTarget(
            name: "HealthProbeWebTests",
            dependencies: [
                "HealthProbeArchive",
                "AppleHealthExport", "HealthProbeWeb", "HealthProbeKit", "HealthProbeSimulation", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(
            name: "HealthProbeCLITests",
            dependencies: [
                "HealthProbeArchive",
                "HealthProbeKit", "HealthProbeScreens", "HealthProbeSimulation", "HealthProbeMCP", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer target exists only when asked for, because it has no `main` of its own:
// HEALTHPROBE_FUZZ=1 swift build --product export-fuzzer --sanitize=fuzzer --sanitize=address \
//     --scratch-path .build-fuzz
if Context.environment["HEALTHPROBE_FUZZ"] == "1" {
    package.products.append(.executable(name: "export-fuzzer", targets: ["ExportFuzzer"]))
    package.targets.append(
        .executableTarget(
            name: "ExportFuzzer",
            dependencies: ["AppleHealthExport"],
            path: "Fuzz/ExportFuzzer",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    )
    // The readers of backups and Health databases (Scripts/fuzz.sh).
    package.products.append(.executable(name: "backup-fuzzer", targets: ["BackupFuzzer"]))
    package.targets.append(
        .executableTarget(
            name: "BackupFuzzer",
            dependencies: ["HealthProbeKit", "HealthProbeMCP"],
            path: "Fuzz/BackupFuzzer",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    )
}
