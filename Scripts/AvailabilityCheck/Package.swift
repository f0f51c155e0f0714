// swift-tools-version: 6.0
// The availability check (Scripts/check-availability.sh): which declarations of Apple's
// libraries the project's code uses, read from the build's index store, against the versions
// that introduced them, read from the toolchain's own declarations (swift-api-digester), each
// use placed in its `#available` / `@available` context by SwiftSyntax. A package of its own, so
// that the project's build does not carry SwiftSyntax.
import PackageDescription

let package = Package(
    name: "AvailabilityCheck",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1")
    ],
    targets: [
        // The toolchain's libIndexStore, through its own header (the script passes where it is).
        .systemLibrary(name: "CIndexStore", path: "Sources/CIndexStore"),
        .executableTarget(
            name: "check-availability",
            dependencies: [
                "CIndexStore",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
