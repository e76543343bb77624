// swift-tools-version:6.0
//
// Receipt Forge: one module per concept (docs/architecture.md draws who may import whom).
//
// Sources/    the product: libraries and two executables. `forge` mints, checks and
//             verifies: swift-crypto, swift-asn1 and swift-argument-parser, no HTTP.
//             `forge-serve` holds the commands that need HTTP (`forge serve`, `forge
//             notify`, `forge scenario run --notify`), with SwiftNIO, Hummingbird and
//             async-http-client; `forge` runs it for those commands.
//             No library links OpenSSL or needs a system library.
// Plugins/    `swift package forge …` for packages that depend on this one.
// Fuzz/       libFuzzer bodies, driver and one executable per target (scripts/fuzz).
// Benchmarks/ the executable behind scripts/bench.
// Oracles/    OpenSSL through a C shim: the independent oracle of tests, benchmarks and
//             differential fuzzing, nothing else.
// Fuzz, benchmarks and oracles stay in this package because `swift test` replays the
// corpora through the fuzz bodies and checks the forge against OpenSSL.
import PackageDescription

let crypto = Target.Dependency.product(name: "Crypto", package: "swift-crypto")
let cryptoExtras = Target.Dependency.product(name: "_CryptoExtras", package: "swift-crypto")
let swiftASN1 = Target.Dependency.product(name: "SwiftASN1", package: "swift-asn1")

let package = Package(
    name: "receipt-forge",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .executable(name: "forge", targets: ["ForgeCLI"]),
        .executable(name: "forge-serve", targets: ["ForgeServeCLI"]),
        .plugin(name: "ForgePlugin", targets: ["ForgePlugin"]),
        .executable(name: "fuzz-ber", targets: ["FuzzBER"]),
        .executable(name: "fuzz-bignum", targets: ["FuzzBigNum"]),
        .executable(name: "fuzz-verifier", targets: ["FuzzVerifier"]),
        .executable(name: "fuzz-x509", targets: ["FuzzX509"]),
        .executable(name: "fuzz-receipt", targets: ["FuzzReceipt"]),
        .executable(name: "fuzz-jws", targets: ["FuzzJWS"]),
        .executable(name: "differential", targets: ["Differential"]),
        .library(name: "ReceiptForge", targets: ["ReceiptForge"]),
        .library(name: "ReceiptVerifier", targets: ["ReceiptVerifier"]),
        .library(name: "Receipt", targets: ["Receipt"]),
        .library(name: "BER", targets: ["BER"]),
        .library(name: "StoreKit2", targets: ["StoreKit2"]),
        .library(name: "StoreKit2Forge", targets: ["StoreKit2Forge"]),
        .library(name: "StoreKit2Verifier", targets: ["StoreKit2Verifier"]),
        .library(name: "ReceiptMutation", targets: ["ReceiptMutation"]),
        .library(name: "LocalAppStore", targets: ["LocalAppStore"]),
        .library(name: "StoreAPIAuthentication", targets: ["StoreAPIAuthentication"]),
        .library(name: "StoreControlAPI", targets: ["StoreControlAPI"]),
        .library(name: "StoreServerAPI", targets: ["StoreServerAPI"]),
        .library(name: "StoreNotifications", targets: ["StoreNotifications"]),
        .library(name: "NotificationDelivery", targets: ["NotificationDelivery"]),
        .library(name: "HTTPWebhook", targets: ["HTTPWebhook"]),
        .library(name: "StoreScenarios", targets: ["StoreScenarios"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // `swift package generate-documentation` (scripts/docs, the Swift Package Index): a
        // command plugin only, linked into no product.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: Foundations
        // BER/DER: one checked cursor, tree parser, writer, dump.
        .target(name: "BER"),
        // Whole-file reads with typed, coded errors.
        .target(name: "FileAccess"),
        // Small pieces shared by forge, verifier and tests: seeded random, hex, PEM.
        .target(name: "ForgeSupport", dependencies: [swiftASN1]),
        // The one strict JSON parser for untrusted or user-written JSON (errors name the JSON location).
        .target(name: "StrictJSON", dependencies: ["FileAccess"]),
        // Multi-precision arithmetic: scalar kernels and C SIMD kernels (per-function target attributes, no flags).
        .target(name: "BigNum", dependencies: ["CBigNumSIMD"]),
        .target(name: "CBigNumSIMD"),

        // MARK: Models
        // The PKCS#7 app receipt: container, attributes, dates, device hash.
        .target(name: "Receipt", dependencies: ["BER", crypto]),
        // StoreKit 2: compact JWS, header and the payload models the forge and verifier share.
        .target(name: "StoreKit2", dependencies: ["StrictJSON"]),
        // The App Store Server API's gate: API keys, bearer-token checks, Apple's error table.
        .target(name: "StoreAPIAuthentication", dependencies: ["FileAccess", "ForgeSupport", "StoreKit2", "StrictJSON", crypto]),

        // MARK: Verifiers
        // X.509, CMS, RSA PKCS#1 v1.5, P-256 ECDSA, chain building, receipt policies.
        .target(name: "ReceiptVerifier", dependencies: ["BER", "BigNum", "FileAccess", "Receipt", crypto]),
        // StoreKit 2 JWS verification with the statuses of Apple's SignedDataVerifier.
        .target(name: "StoreKit2Verifier", dependencies: ["BER", "ReceiptVerifier", "StoreKit2", "StrictJSON"]),

        // MARK: Forges
        // The throwaway Apple-shaped CA (RSA for receipts, P-256 for JWS), keys, certificate builder.
        .target(name: "ForgeCA", dependencies: ["BER", "BigNum", "ForgeSupport", "OwnedFileTree", "Receipt", "ReceiptVerifier", crypto, cryptoExtras]),
        // Writes a file tree durably, and never over or away what it did not write (.forge-owned).
        .target(name: "OwnedFileTree", dependencies: ["FileAccess"]),
        // The user's app: app files, `.storekit` imports, products and purchase history.
        .target(name: "AppInput", dependencies: ["ForgeSupport", "Receipt", "StrictJSON"]),
        // The PKCS#7 receipt forge and its case catalogue.
        .target(name: "ReceiptForge", dependencies: ["AppInput", "BER", "FileAccess", "ForgeCA", "ForgeSupport", "OwnedFileTree", "Receipt", "ReceiptVerifier", "StoreAPIAuthentication", "StrictJSON"]),
        // The StoreKit 2 JWS forge and its case catalogue.
        .target(name: "StoreKit2Forge", dependencies: ["AppInput", "BER", "ForgeCA", "ForgeSupport", "ReceiptForge", "ReceiptVerifier", "StoreKit2", crypto]),
        // Signed, structure-aware receipt mutants (`forge mutate`, the fuzzers' custom mutator).
        .target(name: "ReceiptMutation", dependencies: ["BER", "ForgeCA", "ForgeSupport", "OwnedFileTree", "Receipt", "ReceiptForge", "ReceiptVerifier"]),
        // `forge check`'s results and reports (HTML, JUnit, text matrix).
        .target(name: "CheckReport", dependencies: ["ReceiptForge", "ReceiptVerifier", "StrictJSON", "Receipt"]),

        // MARK: The local App Store
        // One app's store (products, customers, transactions, subscriptions, clock, events): the one
        // model the Server API, notifications and receipts are derived from. No HTTP.
        .target(name: "LocalAppStore", dependencies: ["AppInput", "BER", "ForgeCA", "ForgeSupport", "ReceiptForge", "StoreKit2"]),
        // What the Server API and the control API answer, for any transport to send, and the
        // production and sandbox path prefixes both route by. No HTTP.
        .target(name: "APIMessage", dependencies: ["AppInput"]),
        // The control API (`/forge/v1/VERB`, SKTestSession's verbs) as method, path and body in,
        // status, headers and body out: any HTTP layer serves it. No HTTP.
        .target(name: "StoreControlAPI", dependencies: ["APIMessage", "AppInput", "LocalAppStore", "ReceiptForge", "StoreKit2", "StrictJSON"]),

        // The App Store Server API without HTTP: routes, filters, Apple's errors, bearer tokens,
        // signed answers from the production and sandbox stores.
        .target(name: "StoreServerAPI", dependencies: ["APIMessage", "AppInput", "ForgeCA", "ForgeSupport", "LocalAppStore", "NotificationDelivery", "StoreAPIAuthentication",
                                                       "StoreKit2", "StoreKit2Forge", "StoreNotifications", "StrictJSON"]),

        // Server Notifications V2 made from store events: Apple's type and subtype per event, the
        // payload with the Server API's nested JWS as of the event, signed by the StoreKit 2 CA; and
        // the channel that queues each store event's notification in an outbox. No HTTP.
        .target(name: "StoreNotifications", dependencies: ["AppInput", "ForgeCA", "ForgeSupport", "LocalAppStore", "NotificationDelivery", "StoreKit2", "StoreKit2Forge"]),
        // Server Notifications V2 on their way out: an outbox per environment with Apple's retry
        // schedule in store time, a courier over a `WebhookSender`, Apple's sendAttemptResult words. No HTTP.
        .target(name: "NotificationDelivery", dependencies: ["AppInput", "ForgeSupport", "LocalAppStore"]),
        // The webhook POST: `WebhookSender` over async-http-client (SwiftNIO, NIOSSL).
        .target(
            name: "HTTPWebhook",
            dependencies: [
                "NotificationDelivery",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),

        // Lifecycles as fixtures: scripts of control and Server API actions, run on a fresh store into a
        // transcript (every notification signed, the Server API's answers and the receipt after each step)
        // and an HTML page. No HTTP: delivery to a webhook is the caller's (`ScenarioNotificationObserver`).
        .target(name: "StoreScenarios", dependencies: ["AppInput", "CheckReport", "ForgeCA", "LocalAppStore", "StoreControlAPI", "StoreServerAPI", "StoreNotifications",
                                                       "StoreKit2", "StrictJSON"]),

        // MARK: Server and CLI
        // `forge serve`: the verifyReceipt look-alike and the Server API over HTTP (Hummingbird 2; no library depends on it).
        .target(
            name: "ForgeServer",
            dependencies: [
                "APIMessage", "AppInput", "BER", "ForgeCA", "ForgeSupport", "HTTPWebhook", "LocalAppStore", "NotificationDelivery", "Receipt",
                "ReceiptVerifier", "StoreAPIAuthentication", "StoreControlAPI", "StoreNotifications", "StoreServerAPI", "StrictJSON",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What both executables parse and print alike: the app and reference options, input
        // files, exit statuses, the list of server commands, `forge scenario run`'s options and
        // output. No HTTP.
        .target(
            name: "ForgeCommandLine",
            dependencies: ["AppInput", "FileAccess", "ForgeSupport", "LocalAppStore", "OwnedFileTree", "Receipt", "ReceiptForge",
                           "ReceiptVerifier", "StoreScenarios", "StrictJSON",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // `forge`: a thin layer over the libraries, without the HTTP stack: `forge serve`, `forge notify`
        // and `forge scenario run --notify` run forge-serve.
        .executableTarget(
            name: "ForgeCLI",
            dependencies: [
                "BER", "CheckReport", "FileAccess", "ForgeCA", "ForgeCommandLine", "OwnedFileTree", "Receipt",
                "ReceiptForge", "ReceiptMutation", "ReceiptVerifier", "StoreKit2", "StoreKit2Forge",
                "StoreKit2Verifier", "StoreScenarios", "StrictJSON",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `forge-serve`: the commands that send or serve HTTP (`forge serve`, `forge notify`,
        // `forge scenario run --notify`), over ForgeServer and HTTPWebhook.
        .executableTarget(
            name: "ForgeServeCLI",
            dependencies: [
                "AppInput", "ForgeCA", "ForgeCommandLine", "ForgeServer", "HTTPWebhook", "LocalAppStore", "NotificationDelivery", "OwnedFileTree", "ReceiptForge",
                "StoreAPIAuthentication", "StoreNotifications", "StoreScenarios", "StoreServerAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `swift package --allow-writing-to-package-directory forge …`: the forge in a dependent package.
        .plugin(
            name: "ForgePlugin",
            capability: .command(
                intent: .custom(verb: "forge", description: "Mint receipt fixtures (or run any forge subcommand) into this package."),
                permissions: [.writeToPackageDirectory(reason: "The forge writes the fixtures where --out says, inside this package.")]
            )
            // No `dependencies: ["ForgeCLI"]`: a tool dependency compiles the whole forge a second
            // time for the host (`…-tool`) in every build of this package and of its users; the
            // plugin asks SwiftPM to build the `forge` product instead (ForgePlugin.buildForge).
        ),

        // MARK: Oracles (tests, benchmarks, differential fuzzing only)
        .systemLibrary(
            name: "COpenSSL",
            path: "Oracles/COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .target(name: "OpenSSLShim", dependencies: ["COpenSSL"], path: "Oracles/OpenSSLShim"),

        // MARK: Fuzzing (scripts/fuzz): one executable per target, bodies in FuzzTargets
        // The driver (libFuzzer or file replay).
        .target(name: "FuzzSupport", dependencies: ["FileAccess"], path: "Fuzz/FuzzSupport"),
        // The `ber` and `bignum` bodies on their own: libFuzzer scans every coverage
        // counter of the executable on each run, so fuzz-ber links BER and swift-asn1 only.
        .target(name: "BERFuzzTarget", dependencies: ["BER", "FuzzSupport", swiftASN1], path: "Fuzz/BERFuzzTarget"),
        .target(name: "BigNumFuzzTarget", dependencies: ["BigNum", "FuzzSupport", "OpenSSLShim"], path: "Fuzz/BigNumFuzzTarget"),
        .target(
            name: "FuzzTargets",
            dependencies: ["AppInput", "BER", "BERFuzzTarget", "BigNum", "BigNumFuzzTarget", "FuzzSupport", "ForgeCA", "ForgeSupport",
                           "OpenSSLShim", "Receipt", "ReceiptVerifier", "ReceiptForge", "ReceiptMutation", "StoreKit2",
                           "StoreKit2Forge", "StoreKit2Verifier", "StrictJSON"],
            path: "Fuzz/FuzzTargets"
        ),
        // libFuzzer's custom mutator hooks (StructureAwareMutator): linked by receipt and verifier only.
        .target(name: "FuzzStructureAware", dependencies: ["FuzzTargets"], path: "Fuzz/FuzzStructureAware"),
        .executableTarget(name: "FuzzBER", dependencies: ["BERFuzzTarget", "FuzzSupport"], path: "Fuzz/Targets/ber"),
        .executableTarget(name: "FuzzBigNum", dependencies: ["BigNumFuzzTarget", "FuzzSupport"], path: "Fuzz/Targets/bignum"),
        .executableTarget(name: "FuzzVerifier", dependencies: ["FuzzTargets", "FuzzStructureAware"], path: "Fuzz/Targets/verifier"),
        .executableTarget(name: "FuzzX509", dependencies: ["FuzzTargets"], path: "Fuzz/Targets/x509"),
        .executableTarget(name: "FuzzReceipt", dependencies: ["FuzzTargets", "FuzzStructureAware"], path: "Fuzz/Targets/receipt"),
        .executableTarget(name: "FuzzJWS", dependencies: ["FuzzTargets"], path: "Fuzz/Targets/jws"),
        // The mutation differentials behind scripts/differential: receipts against OpenSSL, JWS against Apple's verifier.
        .executableTarget(
            name: "Differential",
            dependencies: ["ForgeCA", "FuzzTargets", "ReceiptForge", "StoreKit2Forge",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Fuzz/Differential"
        ),

        // MARK: Benchmarks (scripts/bench)
        .executableTarget(
            name: "Bench",
            dependencies: ["AppInput", "BER", "BigNum", "LocalAppStore", "OpenSSLShim", "OwnedFileTree", "Receipt", "ReceiptForge", "ReceiptVerifier",
                           "StoreAPIAuthentication", "StoreKit2", crypto],
            path: "Benchmarks/Bench"
        ),

        // MARK: Tests
        // Shared by the test targets: locating ../shared/real-receipts, hex helpers, running built products.
        .target(name: "TestSupport", dependencies: ["ForgeSupport", "StrictJSON"], path: "Tests/TestSupport"),
        .target(
            name: "WebhookTestSupport",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/WebhookTestSupport"
        ),
        .testTarget(name: "BERTests", dependencies: ["BER", "FuzzTargets", "ReceiptForge", "ForgeCA", "StrictJSON", "TestSupport", swiftASN1, "ForgeSupport"]),
        .testTarget(name: "ForgeCLITests", dependencies: [
            "ForgeCLI", "ForgeServeCLI", "StoreAPIAuthentication", "StrictJSON", "TestSupport",
            // `forge notify` against a webhook on 127.0.0.1 (which reads bodies as ForgeServer does).
            "WebhookTestSupport", "ForgeServer", .product(name: "Hummingbird", package: "hummingbird"),
        ]),
        // Starts `forge serve` on 127.0.0.1 (ephemeral port) and talks to it over loopback.
        .testTarget(name: "ForgeServerTests", dependencies: ["BER", "ForgeServer", "ForgeCLI", "ForgeServeCLI", "ForgeCA", "ForgeSupport", "ReceiptForge", "Receipt", "StrictJSON", "TestSupport", "WebhookTestSupport",
                                                             "LocalAppStore", "StoreAPIAuthentication", "StoreNotifications", "StoreServerAPI", "StoreKit2", crypto,
                                                             .product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log"),
                                                             .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                                                             .product(name: "AsyncHTTPClient", package: "async-http-client"),
                                                             .product(name: "NIOSSL", package: "swift-nio-ssl")]),
        // The Server API handler without HTTP: routing, each endpoint's shape, errors, tokens, pagination.
        .testTarget(name: "StoreServerAPITests", dependencies: ["APIMessage", "StoreServerAPI", "StoreControlAPI", "StoreNotifications", "ForgeSupport", "LocalAppStore", "StoreAPIAuthentication", "StoreKit2",
                                                                 "StoreKit2Verifier", "AppInput", "ForgeCA", "StrictJSON", "TestSupport", crypto]),
        // docs/architecture.md's module table and graph against Package.swift and the imports.
        .testTarget(name: "ArchitectureTests", dependencies: ["TestSupport"]),
        // Builds README's `## Use from Swift` example as a package depending on this one.
        .testTarget(name: "ReadmeExampleTests", dependencies: ["TestSupport"]),
        // `swift package forge` from a package depending on this one, refused without the write permission.
        .testTarget(name: "ForgePluginTests", dependencies: ["TestSupport"]),
        // FuzzBER: its replayer is run as a built product (ReplayerTests).
        .testTarget(name: "FuzzReplayTests", dependencies: ["FuzzTargets", "FuzzBER", "ReceiptForge", "ReceiptMutation", "Receipt", "ReceiptVerifier", "TestSupport", "BER", "ForgeCA"]),
        // The strict parser, its Decoder and its python dialect (against Python's json where installed).
        .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON", "TestSupport"]),
        .testTarget(name: "BigNumTests", dependencies: ["BigNum", "OpenSSLShim", "ForgeSupport"]),
        // The forge mints receipts for the drip-feed tests (the real ones may be absent).
        .testTarget(name: "ReceiptTests", dependencies: ["Receipt", "BER", "ReceiptForge", "TestSupport"]),
        .testTarget(
            name: "ForgeTests",
            dependencies: ["AppInput", "BER", "CheckReport", "ForgeCA", "ForgeSupport", "OwnedFileTree", "OpenSSLShim",
                           "Receipt", "ReceiptForge", "ReceiptMutation", "StrictJSON", "TestSupport"]
        ),
        // The local App Store: actions, clock, derived views, the receipt agreement, state schema, concurrency.
        .testTarget(
            name: "LocalAppStoreTests",
            dependencies: ["LocalAppStore", "AppInput", "Receipt", "ReceiptForge", "StoreKit2", "StrictJSON", "TestSupport"]
        ),
        // Every store event's notification against the Server API's answers at its instant, and Apple's verifier.
        .testTarget(name: "StoreNotificationsTests", dependencies: ["StoreNotifications", "StoreServerAPI", "StoreControlAPI", "NotificationDelivery",
                                                                     "LocalAppStore", "AppInput", "StoreKit2", "ForgeCA", "ForgeSupport",
                                                                     "StrictJSON", "TestSupport"]),
        // Delivery against webhooks on 127.0.0.1 (Hummingbird) that succeed, fail, hang and hang up.
        .testTarget(name: "NotificationDeliveryTests", dependencies: [
            "NotificationDelivery", "HTTPWebhook", "LocalAppStore", "AppInput", "TestSupport", "WebhookTestSupport", "ForgeServer",
            .product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]),
        // Scenarios: the catalogue against its expected notifications and Apple's verifier, transcripts stable, scripts strict.
        .testTarget(name: "StoreScenariosTests", dependencies: ["StoreScenarios", "StoreNotifications", "StoreServerAPI", "LocalAppStore", "ForgeCA", "Receipt",
                                                                 "StoreKit2", "StrictJSON", "TestSupport"]),
        // The control API: every verb through the handler, bad input, routing, schema, concurrency.
        .testTarget(name: "StoreControlAPITests", dependencies: ["APIMessage", "StoreControlAPI", "LocalAppStore", "AppInput", "Receipt", "StrictJSON", "TestSupport"]),
        .testTarget(name: "ReceiptVerifierTests", dependencies: ["ReceiptVerifier", "BER", "ForgeSupport", "OpenSSLShim", "TestSupport", "Receipt"]),
        // StoreKit 2 JWS: forge, verifier, and Apple's app-store-server-library as the oracle.
        .testTarget(
            name: "StoreKit2Tests",
            dependencies: ["StoreKit2", "StoreKit2Forge", "StoreKit2Verifier", "StrictJSON", "ForgeCA", "ForgeSupport", "FuzzTargets", "ReceiptForge", "ReceiptVerifier", "BER",
                           "TestSupport", crypto]
        ),
        // API keys, bearer tokens (Apple's Python client signs some) and the error table against Apple's enum.
        .testTarget(
            name: "StoreAPIAuthenticationTests",
            dependencies: ["StoreAPIAuthentication", "ForgeSupport", "StoreKit2", "StrictJSON", "FileAccess", "TestSupport", crypto]
        ),
        .testTarget(
            name: "VerifierTests",
            dependencies: ["ReceiptVerifier", "Receipt", "ReceiptForge", "ForgeCA", "ForgeSupport", "FuzzTargets", "Differential", "OpenSSLShim", "BER", "TestSupport", "AppInput", "FileAccess"]
        ),
    ]
)

// RECEIPT_FORGE_TEST_TARGETS=A,B,…: the package as these test targets need it, for a build
// that runs only them (scripts/tsan: ThreadSanitizer's build of the store and server tests).
// Every other test target, and every target none of them needs (fuzzers, benchmarks, the
// differential, the OpenSSL oracle, the plugin), is left out, with the products made of them.
if let only = Context.environment["RECEIPT_FORGE_TEST_TARGETS"] {
    let byName = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
    var needed: Set<String> = []
    var pending = only.split(separator: ",").map(String.init)
    // A misspelt name would leave no test to run, and a run of no test passes: refused.
    for name in pending where byName[name]?.type != .test {
        fatalError("RECEIPT_FORGE_TEST_TARGETS names '\(name)', which is no test target of this package")
    }
    while let name = pending.popLast() {
        guard needed.insert(name).inserted, let target = byName[name] else { continue }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): pending.append(name)
            case .productItem: break
            @unknown default: break
            }
        }
    }
    package.targets.removeAll { !needed.contains($0.name) }
    package.products.removeAll { product in
        let targets = (product as? Product.Executable)?.targets ?? (product as? Product.Library)?.targets
            ?? (product as? Product.Plugin)?.targets ?? []
        return !targets.allSatisfy(needed.contains)
    }
}
