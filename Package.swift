// swift-tools-version:6.1
import PackageDescription

// Swift 5 language mode for the targets not yet moved: the client is built on Dispatch queues
// and C callbacks (libedit), whose isolation Swift 6's checker cannot see; each such place
// documents the queue it runs on instead. The server (MessageAIServer, messageai-server) and the
// pure libraries are in Swift 6 mode: their hub-confined types say which queue confines them.
let swift5: [SwiftSetting] = [.swiftLanguageMode(.v5)]
// An async function without isolation runs on its caller's executor (SE-0461) instead of hopping
// to the global one: awaiting a store that answers at once (SQLite) then costs no thread hop,
// and an async handler started on the hub stays there (`HubExecutor`).
let nonsending: [SwiftSetting] = [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]

let package = Package(
    name: "MessageAI",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "messageai-server", targets: ["messageai-server"]),
        .executable(name: "messageai", targets: ["messageai"]),
        .executable(name: "messageai-bench", targets: ["messageai-bench"]),
        .executable(name: "messageai-assist", targets: ["messageai-assist"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", exact: "0.2.0"),
        // Metrics for `--metrics-listen`: the swift-metrics API in the server, Prometheus text out.
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        // `--config FILE` (YAML): swift-configuration's file provider, with its YAML trait (Yams).
        .package(url: "https://github.com/apple/swift-configuration", exact: "1.4.0", traits: [.defaults, "YAML"]),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/apple/swift-system", exact: "1.8.1"),  // FilePath, for the file provider
        // The PostgreSQL store (issue 25).
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
    ],
    targets: [
        // C libraries, each imported only by the module that needs it.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CEditline", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
        .systemLibrary(name: "CSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        // libvips: image dimensions, metadata removal and thumbnails on the server (files).
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        // libchafa (+ libvips to decode): image previews in the client's terminal (ImagePreview.swift).
        .systemLibrary(name: "CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev", "libvips-dev"])]),

        // TLS for both ends: OpenSSL contexts, non-blocking sessions, fingerprints (see TLSContext.swift).
        .target(name: "MessageAITLS", dependencies: ["CSSL"]),

        // Socket addresses (IPv4 and IPv6), resolution, connect and options, shared by the
        // server, the client and the load tools.
        .target(name: "MessageAISocket"),

        // How text is cut into words for search (CJK and Thai runs as overlapping pairs), one
        // way for every index: the server's, the client's cache, a PostgreSQL store. No I/O.
        .target(name: "MessageAISearch"),

        // The SQLite wrapper shared by the server's store and the client's local cache.
        .target(name: "MessageAISQLite", dependencies: ["CSQLite", "MessageAISearch"]),

        // The product's vocabularies (conversation kinds, change actions, assistant item kinds)
        // that the wire protocol and the store both speak. No I/O, no dependencies.
        .target(name: "MessageAIVocabulary"),

        // The wire protocol: frames, fields, messages, compression. No I/O. Re-exports the vocabularies.
        .target(name: "MessageAIProtocol", dependencies: ["CZlib", "MessageAIVocabulary"]),

        // The store's interface, apart from any backend and from the wire (issue 25): its records,
        // its protocols (`Store` and its optional capabilities) and `StoreError`. A backend
        // (SQLite in the server, PostgreSQL) conforms to it without depending on the server.
        .target(name: "MessageAIStore", dependencies: ["MessageAIVocabulary"], swiftSettings: nonsending),

        // The assistant: engines that judge messages and summarise threads. No I/O.
        .target(name: "MessageAIAssistant"),
        // The optional language-model engine: an OpenAI-compatible HTTP endpoint, falling back
        // to the local engine. Does I/O, so it lives apart from the pure library above.
        .target(name: "MessageAIAssistantProvider", dependencies: ["MessageAIAssistant"], swiftSettings: swift5),

        // Load and fuzz helpers shared by the tests and the benchmark: a seeded generator and
        // the flooding client (sockets, threads), so neither keeps its own copy.
        .target(name: "MessageAILoad", dependencies: ["MessageAIProtocol", "MessageAISocket"]),

        // The PostgreSQL store (issue 25): the shared store interface (MessageAIStore) over
        // PostgresNIO's pool, no wire types, no SQLite. Swift 6 mode from the start.
        .target(
            name: "MessageAIPostgres",
            dependencies: [
                "MessageAISearch", "MessageAIStore", "MessageAIVocabulary",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: nonsending),

        .target(
            name: "MessageAIServer",
            dependencies: [
                "MessageAIProtocol", "MessageAIStore", "MessageAISQLite", "MessageAIPostgres", "MessageAITLS", "MessageAISocket", "MessageAIAssistant", "MessageAIAssistantProvider", "CVips",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: nonsending),
        .target(
            name: "MessageAIClient",
            dependencies: ["MessageAIProtocol", "MessageAISQLite", "MessageAITLS", "MessageAISocket", "MessageAIAssistant", "CEditline", "CVips", "CChafa",
                           .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swift5),

        .executableTarget(
            name: "messageai-server",
            dependencies: [
                "MessageAIServer", "MessageAIPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        .executableTarget(
            name: "messageai",
            dependencies: [
                "MessageAIClient", "MessageAITLS",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swift5),
        .executableTarget(
            name: "messageai-bench",
            dependencies: [
                "MessageAIProtocol", "MessageAITLS", "MessageAILoad", "MessageAISocket",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Crypto", package: "swift-crypto"),  // W8's file hashes
            ],
            swiftSettings: swift5),

        .executableTarget(
            name: "messageai-assist",
            dependencies: [
                "MessageAIAssistant", "MessageAIAssistantProvider",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swift5),

        .testTarget(name: "MessageAIAssistantTests", dependencies: ["MessageAIAssistant"], swiftSettings: swift5),
        .testTarget(
            name: "MessageAIAssistantProviderTests", dependencies: ["MessageAIAssistantProvider"],
            exclude: ["fake_chat_server.py"], swiftSettings: swift5),
        .testTarget(name: "MessageAIProtocolTests", dependencies: ["MessageAIProtocol", "MessageAILoad"], swiftSettings: swift5),
        .testTarget(name: "MessageAIServerTests", dependencies: ["MessageAIServer", "MessageAIStore", "MessageAISQLite", "MessageAISearch", "MessageAITLS", "MessageAILoad", "MessageAIAssistantProvider"], swiftSettings: swift5),
        .testTarget(name: "MessageAIPostgresTests", dependencies: ["MessageAIPostgres", "MessageAIStore", "MessageAIVocabulary",
                                                                .product(name: "PostgresNIO", package: "postgres-nio")]),
        .testTarget(name: "MessageAIClientTests", dependencies: ["MessageAIClient", "MessageAITLS", "MessageAISocket"], swiftSettings: swift5),
    ]
)
