// swift-tools-version: 6.1
// Lifeline: lifecycle and background-task logs of iOS apps, from field uploads to answers.
//
// Modules follow the data flow, dependencies pointing one way:
//   read (TraceRead) → decode (TraceDecode) → store (TraceStore) → replay (Replay + Rules)
//   → findings → report (Reports)
// TraceModel holds the plain values every stage shares; LifelineKit is the façade the CLI and
// other programs call; `lifeline` is a thin ArgumentParser shell over it.
import PackageDescription

let package = Package(
    name: "Lifeline",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "lifeline", targets: ["lifeline"]),
        .executable(name: "lifeline-bench", targets: ["lifeline-bench"]),
        .executable(name: "lifeline-fuzz", targets: ["lifeline-fuzz"]),
        .library(name: "LifelineKit", targets: ["LifelineKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // libzstd and zlib through the system's -dev packages; the only C in the repository.
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        // SQLite's variadic sqlite3_config, which Swift cannot call, and Linux's sync_file_range,
        // which Swift's Glibc does not declare (see the header).
        .target(name: "CSQLiteTuning", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "TraceModel"),
        .target(
            name: "TraceRead",
            dependencies: ["TraceModel", "CZstd", "CZlib", .product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "TraceDecode", dependencies: ["TraceModel"]),
        .target(
            name: "TraceStore",
            dependencies: [
                "TraceModel",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                "CSQLiteTuning",
            ]),
        .target(name: "Replay", dependencies: ["TraceModel", "TraceDecode"]),
        .target(name: "Rules", dependencies: ["TraceModel", "Replay"]),
        .target(name: "Reports", dependencies: ["TraceModel", "Replay"]),
        .target(name: "TraceSynth", dependencies: ["TraceModel", "CZstd", "CZlib"]),
        .target(
            name: "LifelineKit",
            dependencies: ["TraceModel", "TraceRead", "TraceDecode", "TraceStore", "Replay", "Rules", "Reports"]),
        .executableTarget(
            name: "lifeline",
            dependencies: [
                "LifelineKit", "TraceSynth", "Replay", "Rules", "Reports", "TraceDecode", "TraceModel", "TraceStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "lifeline-bench",
            dependencies: [
                "LifelineKit", "TraceSynth", "Replay", "Rules", "TraceDecode", "TraceModel", "TraceRead",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // The fuzz harness: seeded inputs through decoder, replay and reports (a test runs it
        // briefly; `lifeline-fuzz` runs it long).
        .target(name: "Fuzzing", dependencies: ["TraceModel", "TraceDecode", "Replay", "Rules", "Reports", "TraceSynth"]),
        .executableTarget(
            name: "lifeline-fuzz",
            dependencies: ["Fuzzing", .product(name: "ArgumentParser", package: "swift-argument-parser")]),

        .testTarget(name: "TraceReadTests", dependencies: ["TraceRead", "TraceModel"]),
        .testTarget(name: "TraceDecodeTests", dependencies: ["TraceDecode", "TraceSynth"]),
        .testTarget(
            name: "TraceStoreTests",
            dependencies: [
                "TraceStore", "TraceDecode", "TraceSynth", "TestScratch", .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(name: "TraceSynthTests", dependencies: ["TraceSynth", "TraceDecode", "Rules"]),
        .testTarget(name: "ReplayTests", dependencies: ["Replay", "TraceDecode", "TraceSynth"]),
        .testTarget(name: "RulesTests", dependencies: ["Rules", "Replay", "TraceDecode"]),
        // Golden-file comparison shared by the test targets (a re-record always fails its test).
        .target(name: "GoldenFiles", path: "Tests/GoldenFiles"),
        // Test files under one directory per test process, removed at its exit.
        .target(name: "TestScratch", path: "Tests/TestScratch"),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "Replay", "GoldenFiles", "TraceSynth"], exclude: ["Golden"]),
        .testTarget(
            name: "LifelineKitTests",
            dependencies: [
                "LifelineKit", "TraceStore", "TraceSynth", "Replay", "Rules", "TraceDecode", "TestScratch",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(name: "LifelineCLITests", dependencies: ["lifeline", "GoldenFiles", "TestScratch"], exclude: ["Golden"]),
        .testTarget(name: "FuzzTests", dependencies: ["Fuzzing", "TraceDecode", "Replay", "Rules", "Reports", "TraceModel"]),
    ]
)
