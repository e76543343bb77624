import FuzzTargets
import ReceiptForge
import XCTest
import ForgeCA

extension CorpusReplayTests {
    /// `Corpus/jws/`: every StoreKit 2 case's file, the nested JWS of the notifications
    /// and the JWS CA's certificates (as x5c[0]), plus what fuzzing kept.
    func testJWSCorpus() throws {
        try replay("jws", minimum: 40, JWSFuzz.fuzzOne)
    }
}

extension CorpusReplayTests {
    /// The `jws` target's certificate inputs: the genuine leaf gives a JWS our verifier
    /// finds OK (the one signature is right), and a changed leaf fails at the chain.
    func testJWSLeafCertificateInputsReachTheirSteps() throws {
        let genuine = JWSAuthority.committed.leaf.certificate
        let verifier = JWSFuzz.verifiers[0]
        let ok = verifier.verify(JWSFuzz.leafCertificateJWS(genuine), kind: .transaction, currentTime: JWSFuzz.currentTime)
        XCTAssertTrue(ok.isOK, ok.detail)
        var changed = genuine
        changed[changed.count / 2] ^= 0x01
        let refused = verifier.verify(JWSFuzz.leafCertificateJWS(changed), kind: .transaction, currentTime: JWSFuzz.currentTime)
        XCTAssertFalse(refused.isOK)
        XCTAssertNil(refused.signatureFailure, "a changed leaf fails before the signature: \(refused.detail)")
    }
}
