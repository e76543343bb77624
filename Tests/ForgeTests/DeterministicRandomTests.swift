import Foundation
import ReceiptForge
import XCTest
import ForgeSupport

/// The one generator of the project: the forge's `--seed` and every fixed-seed test
/// draw from it, so their inputs are the same on every platform and Swift version.
final class DeterministicRandomTests: XCTestCase {
    /// The reference outputs of SplitMix64 (Vigna's splitmix64.c) for seed 1234567.
    func testSplitMix64ReferenceOutputs() {
        var random = DeterministicRandom(seed: 1_234_567)
        XCTAssertEqual((0..<5).map { _ in random.next() },
                       [6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
                        4_593_380_528_125_082_431, 16_408_922_859_458_223_821])
    }

    /// Ranges are drawn by plain modulo of one output (values from an independent
    /// SplitMix64 written in Python).
    func testRangesArePlainModuloOfOneDraw() {
        var random = DeterministicRandom(seed: 0x5EED)
        XCTAssertEqual((0..<8).map { _ in random.int(in: 10..<17) }, [16, 10, 12, 14, 13, 14, 15, 13])
        XCTAssertEqual((0..<4).map { _ in random.int(in: 1...255) }, [111, 112, 14, 92])
    }

    /// Tests and fuzz targets never draw through the standard library's
    /// `random(in:using:)`, `shuffled(using:)` or `randomElement(using:)`, whose
    /// algorithms may change between Swift versions and so change a fixed-seed test.
    func testNoTestDrawsThroughTheStandardLibrary() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let forbidden = ["random(in:", "random(using:", "shuffled(using:", "shuffle(using:", "randomElement(using:",
                         "RandomNumberGenerator"]
        var scanned = 0
        for folder in ["Tests", "Fuzz/FuzzTargets"] {
            let base = root.appendingPathComponent(folder)
            for path in try FileManager.default.subpathsOfDirectory(atPath: base.path) where path.hasSuffix(".swift") {
                guard path != "ForgeTests/DeterministicRandomTests.swift" else { continue }
                let text = try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8)
                for pattern in forbidden where text.contains(pattern) {
                    XCTFail("\(folder)/\(path) uses \(pattern); draw from DeterministicRandom instead")
                }
                scanned += 1
            }
        }
        XCTAssertGreaterThan(scanned, 40, "the test and fuzz sources were not found under \(root.path)")
    }
}
