import Foundation
import ReceiptForge
import TestSupport
import XCTest
import ForgeCA

/// A freshly generated JWS CA has the committed one's shape and signs deterministically
/// (CommittedAuthorityTests checks the committed CAs against `Certs/`).
final class JWSAuthorityTests: XCTestCase {
    func testGenerationGivesAWorkingDeterministicCA() throws {
        let fresh = try JWSAuthority.generate()
        XCTAssertNotEqual(fresh.root.certificate, JWSAuthority.committed.root.certificate)
        XCTAssertEqual(fresh.files.count, AuthorityProfile.jws.members.count * 3)
        let reloaded = try JWSAuthority(.jws, files: fresh.files)
        XCTAssertEqual(reloaded.leaf.certificate, fresh.leaf.certificate)
        // The same keys mint the same certificates (RFC 6979 signatures).
        let again = try JWSAuthority.mint(.jws, rootKey: fresh.root.key, intermediateKey: fresh.intermediate.key,
                                          leafKey: fresh.leaf.key, unrelatedRootKey: fresh.unrelatedRoot.key,
                                          storeKitKey: fresh.storeKit.key)
        XCTAssertEqual(again.files, fresh.files)
        XCTAssertTrue(fresh.embeddedSource.contains("enum EmbeddedJWSAuthority"))
        XCTAssertTrue(fresh.embeddedSource.contains(String(decoding: fresh.files["jws-leaf.pem"]!, as: UTF8.self)
            .split(separator: "\n")[1]))
        var missing = fresh.files
        missing["jws-leaf.key.pem"] = nil
        XCTAssertThrowsError(try JWSAuthority(.jws, files: missing))
    }
}
