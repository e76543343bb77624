// swift-tools-version:6.0
//
// Receipt Forge: one module per layer.
//
//   BER ─▶ Receipt ─▶ ReceiptVerifier ◀─ BigNum
//    │        │              │             │
//    └────────┴─────────┬────┴─────────────┘
//                       ▼
//                 ReceiptForge   (signs RSA with swift-crypto; MD5 with BigNum RSA-CRT)
//                       │
//               ForgeCLI (`forge`)   Bench (`scripts/bench`)   Fuzz* (`scripts/fuzz`)
//
// No library links OpenSSL: the forge signs SHA digests with swift-crypto's RSA and
// MD5 with its own RSA-CRT on BigNum (byte-identical, tested; `forge ca` keys from
// swift-crypto). OpenSSL (libssl-dev) is only the independent oracle
// in tests, benchmarks and differential fuzzing.
import PackageDescription

let package = Package(
    name: "receipt-forge",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .executable(name: "forge", targets: ["ForgeCLI"]),
        .executable(name: "fuzz-ber", targets: ["FuzzBER"]),
        .executable(name: "fuzz-bignum", targets: ["FuzzBigNum"]),
        .executable(name: "fuzz-verifier", targets: ["FuzzVerifier"]),
        .executable(name: "fuzz-x509", targets: ["FuzzX509"]),
        .executable(name: "fuzz-receipt", targets: ["FuzzReceipt"]),
        .executable(name: "fuzz-jws", targets: ["FuzzJWS"]),
        .library(name: "ReceiptForge", targets: ["ReceiptForge"]),
        .library(name: "ReceiptVerifier", targets: ["ReceiptVerifier"]),
        .library(name: "Receipt", targets: ["Receipt"]),
        .library(name: "BER", targets: ["BER"]),
        .library(name: "StoreKit2", targets: ["StoreKit2"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // MARK: Layers
        .target(name: "BER"),
        .target(name: "BigNum", dependencies: ["CBigNumSIMD"]),
        // BigNum's wide-vector kernels: C with per-function target attributes, no flags.
        .target(name: "CBigNumSIMD"),
        // StoreKit 2 JWS: compact serialization, header and the payload models the forge and verifier share.
        .target(name: "StoreKit2"),
        .target(
            name: "Receipt",
            dependencies: ["BER", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(
            name: "ReceiptForge",
            dependencies: ["BER", "BigNum", "Receipt", "ReceiptVerifier", "StoreKit2",
                           .product(name: "Crypto", package: "swift-crypto"),
                           .product(name: "_CryptoExtras", package: "swift-crypto")]
        ),
        .target(name: "ReceiptVerifier", dependencies: ["BER", "BigNum", "FileAccess", "Receipt", "StoreKit2", .product(name: "Crypto", package: "swift-crypto")]),
        // Whole-file reads with errno reasons (re-exported by ReceiptVerifier).
        .target(name: "FileAccess"),

        // `forge serve`: the verifyReceipt look-alike HTTP server (no library depends on it).
        .target(
            name: "ForgeServer",
            dependencies: [
                "BER",
                "Receipt",
                "ReceiptForge",
                "ReceiptVerifier",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: OpenSSL (test/bench/fuzz oracle only)
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .target(name: "OpenSSLShim", dependencies: ["COpenSSL"]),

        // MARK: Executables
        .executableTarget(
            name: "ForgeCLI",
            dependencies: [
                "BER",
                "Receipt",
                "ReceiptForge",
                "ReceiptVerifier",
                "StoreKit2",
                "ForgeServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // MARK: Fuzzing (scripts/fuzz): one executable per target, bodies in FuzzTargets
        .target(
            name: "FuzzTargets",
            dependencies: ["BER", "BERFuzzTarget", "BigNum", "BigNumFuzzTarget", "FuzzSupport", "Receipt", "ReceiptVerifier", "ReceiptForge", "StoreKit2", "OpenSSLShim",
                           .product(name: "SwiftASN1", package: "swift-asn1")]
        ),
        // The driver, and the `ber` target on its own: fuzz-ber links BER and swift-asn1
        // only, as libFuzzer scans every coverage counter of the executable on each run.
        .target(name: "FuzzSupport", dependencies: ["FileAccess"]),
        .target(name: "BERFuzzTarget", dependencies: ["BER", "FuzzSupport", .product(name: "SwiftASN1", package: "swift-asn1")]),
        .executableTarget(name: "FuzzBER", dependencies: ["BERFuzzTarget", "FuzzSupport"], path: "Sources/Fuzz/ber"),
        // The `bignum` target on its own too: BigNum and the OpenSSL shim only.
        .target(name: "BigNumFuzzTarget", dependencies: ["BigNum", "FuzzSupport", "OpenSSLShim"]),
        .executableTarget(name: "FuzzBigNum", dependencies: ["BigNumFuzzTarget", "FuzzSupport"], path: "Sources/Fuzz/bignum"),
        // libFuzzer's custom mutator hooks (StructureAwareMutator): linked by receipt and verifier only.
        .target(name: "FuzzStructureAware", dependencies: ["FuzzTargets"]),
        .executableTarget(name: "FuzzVerifier", dependencies: ["FuzzTargets", "FuzzStructureAware"], path: "Sources/Fuzz/verifier"),
        .executableTarget(name: "FuzzX509", dependencies: ["FuzzTargets"], path: "Sources/Fuzz/x509"),
        .executableTarget(name: "FuzzReceipt", dependencies: ["FuzzTargets", "FuzzStructureAware"], path: "Sources/Fuzz/receipt"),
        .executableTarget(name: "FuzzJWS", dependencies: ["FuzzTargets"], path: "Sources/Fuzz/jws"),
        .executableTarget(name: "Bench", dependencies: ["BER", "BigNum", "OpenSSLShim", "Receipt", "ReceiptForge", "ReceiptVerifier"]),

        // MARK: Tests
        // Shared by the test targets: locating ../shared/real-receipts, hex helpers, running built products.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "BERTests",
            dependencies: [
                "BER",
                "FuzzTargets",
                "ReceiptForge",
                "TestSupport",
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .testTarget(name: "ForgeCLITests", dependencies: ["ForgeCLI", "TestSupport"]),
        // Starts `forge serve` on 127.0.0.1 (ephemeral port) and talks to it over loopback.
        .testTarget(
            name: "ForgeServerTests",
            dependencies: [
                "ForgeServer",
                "ForgeCLI",
                "ReceiptForge",
                "Receipt",
                "TestSupport",
            ]
        ),
        // Builds README's `## Use from Swift` example as a package depending on this one.
        .testTarget(name: "ReadmeExampleTests", dependencies: ["TestSupport"]),
        // FuzzBER: its replayer is run as a built product (ReplayerTests).
        .testTarget(name: "FuzzReplayTests", dependencies: ["FuzzTargets", "FuzzBER", "ReceiptForge", "Receipt", "ReceiptVerifier", "TestSupport"]),
        .testTarget(name: "BigNumTests", dependencies: ["BigNum", "OpenSSLShim", "ReceiptForge"]),
        .testTarget(name: "ReceiptTests", dependencies: ["Receipt", "BER", "TestSupport"]),
        .testTarget(name: "ForgeTests", dependencies: ["ReceiptForge", "Receipt", "BER", "OpenSSLShim", "TestSupport"]),
        .testTarget(name: "ReceiptVerifierTests", dependencies: ["ReceiptVerifier", "BER", "OpenSSLShim", "TestSupport"]),
        // StoreKit 2 JWS: forge, verifier, and Apple's app-store-server-library as the oracle.
        .testTarget(
            name: "StoreKit2Tests",
            dependencies: ["StoreKit2", "ReceiptForge", "ReceiptVerifier", "BER", "TestSupport",
                           .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(
            name: "VerifierTests",
            dependencies: ["ReceiptVerifier", "Receipt", "ReceiptForge", "FuzzTargets", "OpenSSLShim", "BER", "TestSupport"]
        ),
    ]
)
