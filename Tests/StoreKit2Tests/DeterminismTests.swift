import Crypto
import Foundation
import ReceiptForge
import StoreKit2
import XCTest
import ForgeCA
import StoreKit2Forge

/// Fixtures are byte-for-byte reproducible, and the ECDSA under them is RFC 6979's.
final class DeterminismTests: XCTestCase {
    func testMintingTwiceGivesIdenticalFiles() throws {
        let again = try JWSForge().mintAll()
        XCTAssertEqual(again.map(\.file), Minted.cases.map(\.file))
        let otherSeed = try JWSForge(settings: ForgeSettings(seed: 7)).mint(JWSCase.named("transaction-production")!)
        XCTAssertNotEqual(otherSeed.file, Minted.cases[0].file, "the seed reaches the payload")
    }

    /// RFC 6979 §A.2.5, P-256 with SHA-256: the published k-derived signatures of
    /// "sample" and "test" under the published key.
    func testRFC6979Vectors() throws {
        let key = try P256PrivateKey(rawScalar: hex("C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721"))
        let vectors = [
            ("sample", "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716",
             "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"),
            ("test", "F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367",
             "019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083"),
        ]
        for (message, r, s) in vectors {
            XCTAssertEqual(try key.signRaw(Array(message.utf8)), hex(r) + hex(s), message)
        }
    }

    /// Every signature the forge makes verifies with swift-crypto, over many messages.
    func testSignaturesVerifyWithSwiftCrypto() throws {
        let key = Minted.forge.authority.leaf.key
        for length in [0, 1, 31, 32, 33, 64, 200] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ length) }
            let raw = try key.signRaw(message)
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: raw)
            XCTAssertTrue(key.key.publicKey.isValidSignature(signature, for: message), "length \(length)")
            XCTAssertEqual(try key.signDER(message), Array(signature.derRepresentation))
        }
    }

    private func hex(_ text: String) -> [UInt8] {
        stride(from: 0, to: text.count, by: 2).map {
            let start = text.index(text.startIndex, offsetBy: $0)
            return UInt8(text[start..<text.index(start, offsetBy: 2)], radix: 16)!
        }
    }
}
