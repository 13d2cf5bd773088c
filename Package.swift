// swift-tools-version:6.1
//
// Bestiary: a folder of animal records -> a static quiz site + signed content packs.
//
// One library target per pipeline stage, a one-way dependency graph (see docs/ARCHITECTURE.md):
//
//   Diagnostics <- Storage <- Content <- Wikipedia <- Render <- Site <- Preview <- CLI <- bestiary
//        ^            ^  ^        ^  \_ Import          ^ ^      ^
//        |            |  Markdown |                     | |      |
//        |            |           \______ Packs ________/ |      |
//        |            \_ PackFormat <- Sync (client library, no Content/Yams) ---- CLI
//        \_ Fetch (network: libcurl; Sync's HTTP transport) <- CLI
//                                          Template ______/  (our Mustache engine; no dependencies)
//   Crypto (SHA-256, Ed25519: CryptoKit on Apple platforms, libcrypto on Linux) <- Storage, PackFormat, Packs, Sync
//   HTTP (our HTTP/1.1 server over POSIX sockets; no package dependencies) <- Preview
//
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Bestiary",
    platforms: [.macOS(.v14), .iOS(.v16)],
    products: [
        .executable(name: "bestiary", targets: ["bestiary"]),
        // The pack client, for native apps: depends on the pack format, GRDB and BestiaryCrypto
        // (CryptoKit on Apple platforms) only.
        .library(name: "BestiarySync", targets: ["BestiarySync"]),
        .library(name: "BestiaryPackFormat", targets: ["BestiaryPackFormat"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // MARK: C shims
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"]), .brew(["cmark"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        .target(name: "CBestiarySystem"),
        // libcrypto (OpenSSL) for SHA-256 and Ed25519 where CryptoKit is not.
        .systemLibrary(
            name: "CBestiaryCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),

        // MARK: Hashing and signing (CryptoKit's names: CryptoKit on Apple platforms, libcrypto on Linux)
        .target(
            name: "BestiaryCrypto",
            dependencies: [.target(name: "CBestiaryCrypto", condition: .when(platforms: [.linux, .android]))],
            swiftSettings: strict
        ),

        // MARK: Pipeline stages (bottom to top)
        .target(name: "BestiaryDiagnostics", swiftSettings: strict),
        .target(
            name: "BestiaryStorage",
            dependencies: [
                "BestiaryDiagnostics", "CBestiarySystem",
                "BestiaryCrypto",
            ],
            swiftSettings: strict
        ),
        .target(name: "BestiaryMarkdown", dependencies: ["CCmark"], swiftSettings: strict),
        .target(
            name: "BestiaryContent",
            dependencies: ["BestiaryDiagnostics", "BestiaryStorage", "BestiaryMarkdown", .product(name: "Yams", package: "Yams")],
            swiftSettings: strict
        ),
        .target(
            name: "BestiaryWikipedia",
            dependencies: ["BestiaryDiagnostics", "BestiaryStorage", "BestiaryContent", "BestiaryPackFormat"],
            swiftSettings: strict
        ),
        .target(
            name: "BestiaryFetch",
            dependencies: [
                "BestiaryWikipedia", "BestiarySync", "CCurl",
            ],
            swiftSettings: strict
        ),
        .target(
            name: "BestiaryTheme",
            swiftSettings: strict,
            plugins: ["EmbedTheme"]
        ),
        // Mustache, compiled once and rendered over `TemplateValue`s (swift-mustache is only the
        // reference its tests compare with).
        .target(name: "BestiaryTemplate", swiftSettings: strict),
        .target(
            name: "BestiaryRender",
            dependencies: ["BestiaryContent", "BestiaryWikipedia", "BestiaryMarkdown", "BestiaryTheme", "BestiaryTemplate"],
            swiftSettings: strict
        ),
        .target(
            name: "BestiaryPackFormat",
            dependencies: ["BestiaryCrypto"],
            swiftSettings: strict
        ),
        .target(
            name: "BestiaryPacks",
            dependencies: ["BestiaryContent", "BestiaryWikipedia", "BestiaryPackFormat", "BestiaryCrypto"],
            swiftSettings: strict
        ),
        .target(
            name: "BestiarySync",
            dependencies: [
                "BestiaryPackFormat", "BestiaryCrypto", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "BestiarySite",
            dependencies: ["BestiaryContent", "BestiaryWikipedia", "BestiaryRender", "BestiaryPackFormat", "BestiaryPacks"],
            swiftSettings: strict
        ),
        .target(name: "BestiaryImport", dependencies: ["BestiaryContent"], swiftSettings: strict),
        // HTTP/1.1 over POSIX sockets, a thread per connection: the preview's server (and the
        // tests' loopback servers). No package dependencies.
        .target(name: "BestiaryHTTP", dependencies: ["CBestiarySystem"], swiftSettings: strict),
        .target(
            name: "BestiaryPreview",
            dependencies: [
                "BestiaryDiagnostics", "BestiaryStorage", "BestiaryRender", "BestiarySite", "BestiaryHTTP",
            ],
            swiftSettings: strict
        ),
        .target(
            name: "BestiaryCLI",
            dependencies: [
                "BestiarySite", "BestiaryRender", "BestiaryPacks", "BestiaryFetch", "BestiaryImport", "BestiaryPreview", "BestiarySync", "BestiaryHTTP", "CBestiarySystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "bestiary", dependencies: ["BestiaryCLI", "BestiaryStorage"], swiftSettings: strict),
        // Pack benchmark (`make bench`): delta size and apply time in a 10,000-record catalogue.
        .executableTarget(name: "PackBench", dependencies: ["BestiaryPacks", "BestiarySync", "BestiaryCrypto"], swiftSettings: strict),

        // MARK: Build tooling: embeds templates/ (the default theme) into the binary.
        .executableTarget(name: "ThemeEmbedder", path: "Plugins/ThemeEmbedder"),
        .plugin(name: "EmbedTheme", capability: .buildTool(), dependencies: ["ThemeEmbedder"]),

        // MARK: Tests
        .target(
            name: "BestiaryTestSupport",
            dependencies: [
                "BestiaryDiagnostics", "BestiaryStorage", "BestiaryHTTP",
            ],
            path: "Tests/BestiaryTestSupport"
        ),
        .testTarget(name: "BestiaryDiagnosticsTests", dependencies: ["BestiaryDiagnostics"]),
        .testTarget(name: "BestiaryHTTPTests", dependencies: ["BestiaryHTTP", "BestiaryTestSupport"]),
        .testTarget(name: "BestiaryStorageTests", dependencies: ["BestiaryStorage", "BestiaryTestSupport"]),
        .testTarget(name: "BestiaryMarkdownTests", dependencies: ["BestiaryMarkdown"]),
        .testTarget(name: "BestiaryContentTests", dependencies: ["BestiaryContent", "BestiaryTestSupport"]),
        .testTarget(name: "BestiaryWikipediaTests", dependencies: ["BestiaryWikipedia", "BestiaryTestSupport"]),
        .testTarget(name: "BestiaryFetchTests", dependencies: ["BestiaryFetch", "BestiaryCLI", "BestiarySite", "BestiaryTestSupport"]),
        .testTarget(
            name: "BestiaryTemplateTests",
            dependencies: ["BestiaryTemplate", "BestiaryTestSupport", .product(name: "Mustache", package: "swift-mustache")]),
        .testTarget(name: "BestiaryCryptoTests", dependencies: ["BestiaryCrypto"]),
        .testTarget(name: "BestiaryRenderTests", dependencies: ["BestiaryRender", "BestiaryTestSupport"]),
        .testTarget(
            name: "BestiaryPacksTests",
            dependencies: [
                "BestiaryPacks", "BestiarySync", "BestiaryCrypto", "BestiaryCLI", "BestiaryTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "BestiarySyncTests",
            dependencies: [
                "BestiarySync", "BestiaryPackFormat", "BestiaryTestSupport",
                "BestiaryCrypto", .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(name: "BestiarySiteTests", dependencies: ["BestiarySite", "BestiaryWikipedia", "BestiaryTestSupport"]),
        .testTarget(name: "BestiaryImportTests", dependencies: ["BestiaryImport", "BestiaryTestSupport"]),
        .testTarget(
            name: "BestiaryPreviewTests",
            dependencies: ["BestiaryPreview", "BestiarySite", "BestiaryWikipedia", "BestiaryDiagnostics", "BestiaryPackFormat", "BestiaryTestSupport"]),
        .testTarget(name: "BestiaryCLITests", dependencies: ["BestiaryCLI", "BestiaryFetch", "BestiaryPreview", "BestiaryDiagnostics", "BestiaryTestSupport"]),
    ]
)
