import Foundation
import ForgeCA
import TestSupport
import XCTest

/// The committed CAs: `Certs/` (what other projects embed), the copies compiled into the
/// forge (`Sources/ForgeCA/Embedded….swift`) and what `forge ca`'s code makes of the
/// committed keys are the same bytes.
final class CommittedAuthorityTests: XCTestCase {
    let certs = ChildProcess.packageRoot.appendingPathComponent("Certs")

    /// Every file of `Certs/`, and no other, is what the compiled-in CAs write.
    func testCertsFolderIsTheCompiledInAuthorities() throws {
        let expected = AuthorityDirectory.files(receipts: .committed, jws: .committed)
        let names = try FileManager.default.contentsOfDirectory(atPath: certs.path).filter { !$0.hasPrefix(".") }
        XCTAssertEqual(Set(names), Set(expected.keys))
        for (name, bytes) in expected {
            XCTAssertEqual(Array(try Data(contentsOf: certs.appendingPathComponent(name))), bytes,
                           "Certs/\(name) differs from the copy compiled into the forge")
        }
    }

    /// The committed keys mint the committed certificates again (both signatures are
    /// deterministic), and the generator turns them into the committed Swift files.
    func testTheCommittedKeysRegenerateEveryCommittedFile() throws {
        try check(ReceiptAuthority(.receipts, directory: certs))
        try check(JWSAuthority(.jws, directory: certs))
    }

    /// What `forge ca` writes reads back as the same CA: every file and the Swift source
    /// the same bytes.
    func testAFreshAuthorityRoundTripsThroughItsFiles() throws {
        let receipts = try ReceiptAuthority.generate(), jws = try JWSAuthority.generate()
        let files = AuthorityDirectory.files(receipts: receipts, jws: jws)
        let reloaded = (receipts: try ReceiptAuthority(.receipts, files: files), jws: try JWSAuthority(.jws, files: files))
        XCTAssertEqual(AuthorityDirectory.files(receipts: reloaded.receipts, jws: reloaded.jws), files)
        XCTAssertEqual(reloaded.receipts.embeddedSource, receipts.embeddedSource)
        XCTAssertEqual(reloaded.jws.embeddedSource, jws.embeddedSource)
        XCTAssertNotEqual(receipts.root.certificate, ReceiptAuthority.committed.root.certificate, "fresh keys")
    }

    private func check<Key: SigningKey>(_ loaded: CertificateAuthority<Key>) throws {
        let profile = loaded.profile
        let minted = try CertificateAuthority<Key>.mint(
            profile, rootKey: loaded.root.key, intermediateKey: loaded.intermediate.key, leafKey: loaded.leaf.key,
            unrelatedRootKey: loaded.unrelatedRoot.key, storeKitKey: loaded.storeKit.key)
        for (name, bytes) in minted.files {
            XCTAssertEqual(Array(try Data(contentsOf: certs.appendingPathComponent(name))), bytes,
                           "\(profile.embeddedEnumName): minting from the committed keys changes Certs/\(name)")
        }
        let swiftFile = ChildProcess.packageRoot.appendingPathComponent("Sources/ForgeCA/\(profile.embeddedEnumName).swift")
        XCTAssertEqual(try String(contentsOf: swiftFile, encoding: .utf8), minted.embeddedSource,
                       "\(swiftFile.lastPathComponent) is not what scripts/regenerate-certs makes of Certs/")
    }
}
