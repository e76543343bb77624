import Foundation
import ReceiptForge
import TestSupport
import XCTest
import ForgeCA

/// `Certs/jws-*` and the copy compiled into the forge are the same CA, and a freshly
/// generated one has the same shape.
final class JWSAuthorityTests: XCTestCase {
    func testEmbeddedJWSAuthorityEqualsCertsFolder() throws {
        let certs = ChildProcess.packageRoot.appendingPathComponent("Certs")
        let committed = JWSAuthority.committed
        XCTAssertEqual(committed.files.count, JWSAuthority.fileStems.count * 3)
        for (name, bytes) in committed.files {
            let onDisk = try Data(contentsOf: certs.appendingPathComponent(name))
            XCTAssertEqual(Array(onDisk), bytes, "Certs/\(name) differs from the embedded JWS CA")
        }
    }

    func testGenerationGivesAWorkingDeterministicCA() throws {
        let fresh = try JWSAuthority.generate()
        XCTAssertNotEqual(fresh.root.certificate, JWSAuthority.committed.root.certificate)
        let reloaded = try JWSAuthority(files: fresh.files)
        XCTAssertEqual(reloaded.leaf.certificate, fresh.leaf.certificate)
        // The same keys mint the same certificates (RFC 6979 signatures).
        let again = try JWSAuthority.mint(rootKey: fresh.root.key, intermediateKey: fresh.intermediate.key,
                                          leafKey: fresh.leaf.key, unrelatedRootKey: fresh.unrelatedRoot.key,
                                          xcodeKey: fresh.xcode.key)
        XCTAssertEqual(again.files, fresh.files)
        XCTAssertTrue(fresh.embeddedSource.contains("enum EmbeddedJWSAuthority"))
        XCTAssertTrue(fresh.embeddedSource.contains(String(decoding: fresh.files["jws-leaf.pem"]!, as: UTF8.self)
            .split(separator: "\n")[1]))
        var missing = fresh.files
        missing["jws-leaf.key.pem"] = nil
        XCTAssertThrowsError(try JWSAuthority(files: missing))
    }
}
