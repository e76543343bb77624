import BER
import Dispatch
import ForgeSupport
import TestSupport
import XCTest
@testable import ReceiptVerifier

final class ChainTests: XCTestCase {
    // MARK: Real receipts

    struct RealCase {
        var name: String
        var anchor: String?          // nil: the receipt's own
        var dropIntermediates = false
        var time: ASN1Time?          // nil: the receipt creation date
        var policies = ChainVerifier.defaultPolicies
        var appStoreOnly = false
        var xcodeOnly = false
        var reason: VerdictReason
        var index: Int?
        var code: ChainFailure? = nil
    }

    static let realCases: [RealCase] = [
        RealCase(name: "at the creation date", reason: .valid),
        RealCase(name: "with Apple's marker policy", policies: ChainVerifier.defaultPolicies + [AppleReceiptMarkersPolicy()],
                 appStoreOnly: true, reason: .valid),
        RealCase(name: "in 2099", time: ASN1Time(year: 2099, month: 1, day: 1), reason: .certificateExpired, index: 0, code: .expired),
        RealCase(name: "in 2001", time: ASN1Time(year: 2001, month: 1, day: 1), reason: .certificateExpired, index: 0, code: .notYetValid),
        RealCase(name: "StoreKit anchor for an App Store receipt", anchor: "StoreKitTestCertificate.cer",
                 appStoreOnly: true, reason: .untrustedChain, index: 2, code: .untrustedRoot),
        RealCase(name: "Apple anchor for an Xcode receipt", anchor: "AppleIncRootCertificate.cer",
                 xcodeOnly: true, reason: .untrustedChain, index: 0, code: .untrustedRoot),
        RealCase(name: "intermediate removed", dropIntermediates: true, appStoreOnly: true, reason: .untrustedChain, index: 0,
                 code: .missingIssuer),
    ]

    func testRealChains() throws {
        var verified = 0
        for chain in try RealChain.all() {
            let isAppStore = chain.certificates.count == 3
            let signer = try Certificate(chain.certificates[0])
            XCTAssertEqual(signer.extensions.hasAppleReceiptSigningMarker, isAppStore, chain.name)
            for item in Self.realCases where !(item.appStoreOnly && !isAppStore) && !(item.xcodeOnly && isAppStore) {
                let anchor = try item.anchor.map(RealChain.anchor) ?? chain.anchor
                let verifier = ChainVerifier(anchors: [try Certificate(anchor)], policies: item.policies)
                let pool = item.dropIntermediates
                    ? [try Certificate(chain.certificates[2])]
                    : try chain.certificates.map { try Certificate($0) }
                let verdict = verifier.verify(signer, intermediates: pool, at: item.time ?? chain.creationDate)
                let label = "\(chain.name), \(item.name): \(verdict)"
                XCTAssertEqual(verdict.reason, item.reason, label)
                XCTAssertEqual(verdict.certificateIndex, item.index, label)
                XCTAssertEqual(verdict.chainFailure, item.code, label)
                if item.reason == .valid {
                    XCTAssertEqual(verdict.chain.count, isAppStore ? 3 : 1, label)
                    XCTAssertEqual(verdict.chain.last?.fingerprint, try Certificate(anchor).fingerprint, label)
                } else {
                    XCTAssertTrue(verdict.detail.contains("certificate \(item.index!) (CN="), label)
                }
                verified += 1
            }
        }
        XCTAssertEqual(verified, 21 * 6 + 4 * 4)
    }

    func testExpiredDetailNamesTheCertificateAndTheDates() throws {
        let chains = try RealChain.all()  // skips or fails (CI) without the folder
        let chain = try XCTUnwrap(chains.first { $0.name.hasPrefix("TPInAppReceipt__receipt-sandbox-g5") })
        let verifier = ChainVerifier(anchors: [try Certificate(chain.anchor)])
        let verdict = verifier.verify(try Certificate(chain.certificates[0]), intermediates: try chain.certificates.map { try Certificate($0) },
                                      atSecondsSince1970: ASN1Time(year: 2099, month: 1, day: 1).secondsSince1970)
        XCTAssertEqual(verdict.description,
                       "certificate-expired: certificate 0 (CN=Mac App Store and iTunes Store Receipt Signing): "
                           + "expired at 2099-01-01T00:00:00Z (valid 2024-07-24T14:50:03Z to 2026-08-23T14:50:02Z)")
    }

    // MARK: Cache

    /// A real three-certificate App Store chain, its verifier, signer and pool.
    func appStoreChain() throws -> (RealChain, ChainVerifier, Certificate, [Certificate]) {
        let chains = try RealChain.all()  // skips or fails (CI) without the folder
        let chain = try XCTUnwrap(chains.first { $0.certificates.count == 3 })
        return (chain, ChainVerifier(anchors: [try Certificate(chain.anchor)]), try Certificate(chain.certificates[0]),
                try chain.certificates.map { try Certificate($0) })
    }

    /// A verifier computes its RSA anchors' Montgomery constants when it is built; a
    /// receipt's own certificates get theirs on their first signature check.
    func testAnchorsArePreparedWithTheVerifier() throws {
        let chain = try XCTUnwrap(try RealChain.all().first { $0.certificates.count == 3 })
        let anchor = try Certificate(chain.anchor)
        let key = try XCTUnwrap(anchor.publicKey.rsa)
        XCTAssertFalse(key.montgomery.isBuilt)
        let verifier = ChainVerifier(anchors: [anchor])
        XCTAssertTrue(key.montgomery.isBuilt)
        let signer = try Certificate(chain.certificates[0]), intermediate = try Certificate(chain.certificates[1])
        XCTAssertFalse(try XCTUnwrap(intermediate.publicKey.rsa).montgomery.isBuilt)
        XCTAssertTrue(verifier.verify(signer, intermediates: [intermediate], at: chain.creationDate).isValid)
        XCTAssertTrue(try XCTUnwrap(intermediate.publicKey.rsa).montgomery.isBuilt)
    }

    func testCacheSkipsVerifiedPairs() throws {
        let (chain, verifier, signer, pool) = try appStoreChain()
        let cache = SignatureCache()
        XCTAssertEqual(cache.statistics, SignatureCache.Statistics(hits: 0, misses: 0, entries: 0))

        XCTAssertTrue(verifier.verify(signer, intermediates: pool, at: chain.creationDate, cache: cache).isValid)
        XCTAssertEqual(cache.statistics, SignatureCache.Statistics(hits: 0, misses: 2, entries: 2))
        XCTAssertTrue(verifier.verify(signer, intermediates: pool, at: chain.creationDate, cache: cache).isValid)
        XCTAssertEqual(cache.statistics, SignatureCache.Statistics(hits: 2, misses: 2, entries: 2))
        // A hit skips only the signature: validity is still checked at the new time.
        let later = verifier.verify(signer, intermediates: pool, at: ASN1Time(year: 2099, month: 1, day: 1), cache: cache)
        XCTAssertEqual(later.reason, .certificateExpired)

        cache.removeAll()
        XCTAssertEqual(cache.statistics, SignatureCache.Statistics(hits: 0, misses: 0, entries: 0))
    }

    func testCacheNeverStoresFailures() throws {
        let root = CertificateSpec.authority("Forge Test Root", issuer: "Forge Test Root", key: .root).encoded(signedBy: .root)
        var leafSpec = CertificateSpec()
        leafSpec.issuer = nameDER(cn: "Forge Test Root")
        var forged = leafSpec.encoded(signedBy: .root)
        forged[forged.count - 1] ^= 1
        let verifier = ChainVerifier(anchors: [try Certificate(root)])
        let cache = SignatureCache()
        for _ in 0..<2 {
            let verdict = verifier.verify(try Certificate(forged), intermediates: [], at: ASN1Time(year: 2025, month: 1, day: 1), cache: cache)
            XCTAssertEqual(verdict.reason, .signatureInvalid)
        }
        XCTAssertEqual(cache.statistics, SignatureCache.Statistics(hits: 0, misses: 2, entries: 0))
    }

    func testSharedCacheAcrossThreads() throws {
        let (chain, verifier, signer, pool) = try appStoreChain()
        let cache = SignatureCache()
        let time = chain.creationDate
        let results = Locked([Bool]())
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let valid = verifier.verify(signer, intermediates: pool, at: time, cache: cache).isValid
            results.withLock { $0.append(valid) }
        }
        XCTAssertEqual(results.withLock { $0 }, [Bool](repeating: true, count: 8))
        let statistics = cache.statistics
        XCTAssertEqual(statistics.hits + statistics.misses, 16)
        XCTAssertEqual(statistics.entries, 2)
    }

    // MARK: Synthetic chains

    struct SyntheticCase {
        var name: String
        var anchors: [[UInt8]]
        var signer: [UInt8]
        var pool: [[UInt8]]
        var maximumChainLength = ChainVerifier.defaultMaximumChainLength
        var policies = ChainVerifier.defaultPolicies
        var reason: VerdictReason
        var index: Int?
        var code: ChainFailure? = nil
        var chainLength: Int? = nil
    }

    static let time = ASN1Time(year: 2025, month: 6, day: 1)

    static func syntheticCases() -> [SyntheticCase] {
        let rootSpec = CertificateSpec.authority("Forge Test Root", issuer: "Forge Test Root", key: .root)
        let root = rootSpec.encoded(signedBy: .root)
        let intermediateSpec = CertificateSpec.authority("Forge Test Intermediate", issuer: "Forge Test Root", key: .intermediate)
        let intermediate = intermediateSpec.encoded(signedBy: .root)
        var leafSpec = CertificateSpec()
        leafSpec.issuer = nameDER(cn: "Forge Test Intermediate")
        let leaf = leafSpec.encoded(signedBy: .intermediate)

        func makeIntermediate(_ change: (inout CertificateSpec) -> Void) -> [UInt8] {
            var spec = intermediateSpec
            change(&spec)
            return spec.encoded(signedBy: .root)
        }
        func makeLeaf(signedBy key: TestKey = .intermediate, digest: DigestAlgorithm = .sha256, _ change: (inout CertificateSpec) -> Void) -> [UInt8] {
            var spec = leafSpec
            change(&spec)
            return spec.encoded(signedBy: key, digest: digest)
        }
        func makeRoot(pathLength: Int64) -> [UInt8] {
            CertificateSpec.authority("Forge Test Root", issuer: "Forge Test Root", key: .root, pathLength: pathLength).encoded(signedBy: .root)
        }
        var forgedLeaf = leaf
        forgedLeaf[forgedLeaf.count - 1] ^= 0x01
        let impostorRoot = CertificateSpec.authority("Forge Test Root", issuer: "Forge Test Root", key: .other).encoded(signedBy: .other)
        let otherRoot = CertificateSpec.authority("Other Root", issuer: "Other Root", key: .other).encoded(signedBy: .other)
        // Two CAs issuing each other, no anchor between them.
        let loopA = CertificateSpec.authority("Loop A", issuer: "Loop B", key: .intermediate).encoded(signedBy: .other)
        let loopB = CertificateSpec.authority("Loop B", issuer: "Loop A", key: .other).encoded(signedBy: .intermediate)
        let loopLeaf = makeLeaf(signedBy: .intermediate) { $0.issuer = nameDER(cn: "Loop A") }
        // 101 CAs, each issued by the next, alternating two keys: every signature
        // verifies, but reaching the end takes more RSA checks than one verification may spend.
        let ladder: [[UInt8]] = (1...ChainVerifier.maximumSignatureChecks + 1).map { i in
            CertificateSpec.authority("Ladder \(i)", issuer: "Ladder \(i + 1)", key: i % 2 == 0 ? .root : .intermediate)
                .encoded(signedBy: i % 2 == 0 ? .intermediate : .root)
        }
        let ladderLeaf = makeLeaf(signedBy: .intermediate) { $0.issuer = nameDER(cn: "Ladder 1") }
        let markedLeaf = makeLeaf {
            $0.extensions = [basicConstraints(ca: false), keyUsage(.digitalSignature),
                             `extension`(.appleReceiptSigningMarker, value: [0x05, 0x00])]
        }
        let canonicalIntermediate = makeIntermediate {
            $0.subject = nameDER([(.countryName, "us"), (.organizationName, "  forge   TEST "), (.commonName, "forge test INTERMEDIATE")], utf8: true)
        }

        return [
            SyntheticCase(name: "leaf ← intermediate ← root", anchors: [root], signer: leaf, pool: [intermediate, root],
                          reason: .valid, index: nil, chainLength: 3),
            SyntheticCase(name: "SHA-1 signatures", anchors: [root], signer: makeLeaf(digest: .sha1) { $0.signature = algorithmIdentifier(.sha1WithRSAEncryption) },
                          pool: [intermediate], reason: .valid, index: nil, chainLength: 3),
            SyntheticCase(name: "pool in reverse order, duplicates", anchors: [root], signer: leaf, pool: [root, intermediate, intermediate, leaf],
                          reason: .valid, index: nil, chainLength: 3),
            SyntheticCase(name: "signer is an anchor", anchors: [leaf], signer: leaf, pool: [],
                          reason: .valid, index: nil, chainLength: 1),
            SyntheticCase(name: "issuer name equal after case and space folding", anchors: [root], signer: leaf, pool: [canonicalIntermediate],
                          reason: .valid, index: nil, chainLength: 3),
            SyntheticCase(name: "intermediate not a CA", anchors: [root],
                          signer: leaf, pool: [makeIntermediate { $0.extensions = [basicConstraints(ca: false), keyUsage(.keyCertSign)] }],
                          reason: .untrustedChain, index: 1, code: .notCertificateAuthority),
            SyntheticCase(name: "intermediate without basicConstraints", anchors: [root],
                          signer: leaf, pool: [makeIntermediate { $0.extensions = [keyUsage(.keyCertSign)] }],
                          reason: .untrustedChain, index: 1, code: .notCertificateAuthority),
            SyntheticCase(name: "intermediate without keyCertSign", anchors: [root],
                          signer: leaf, pool: [makeIntermediate { $0.extensions = [basicConstraints(ca: true), keyUsage(.digitalSignature)] }],
                          reason: .untrustedChain, index: 1, code: .issuerKeyUsage),
            SyntheticCase(name: "intermediate without keyUsage", anchors: [root],
                          signer: leaf, pool: [makeIntermediate { $0.extensions = [basicConstraints(ca: true)] }],
                          reason: .valid, index: nil, chainLength: 3),
            SyntheticCase(name: "root pathLen 0 above an intermediate", anchors: [makeRoot(pathLength: 0)], signer: leaf, pool: [intermediate],
                          reason: .untrustedChain, index: 2, code: .pathLengthExceeded),
            SyntheticCase(name: "root pathLen 1 above an intermediate", anchors: [makeRoot(pathLength: 1)], signer: leaf, pool: [intermediate],
                          reason: .valid, index: nil, chainLength: 3),
            SyntheticCase(name: "intermediate pathLen 0 above the leaf", anchors: [root],
                          signer: leaf, pool: [makeIntermediate { $0.extensions = [basicConstraints(ca: true, pathLength: 0)] }],
                          reason: .valid, index: nil, chainLength: 3),
            SyntheticCase(name: "unknown critical extension on the leaf", anchors: [root],
                          signer: makeLeaf { $0.extensions = [`extension`("1.2.3.4", critical: true, value: [0x05, 0x00])] },
                          pool: [intermediate], reason: .untrustedChain, index: 0, code: .unhandledCriticalExtension),
            SyntheticCase(name: "unknown non-critical extension on the leaf", anchors: [root],
                          signer: makeLeaf { $0.extensions = [`extension`("1.2.3.4", value: [0x05, 0x00])] },
                          pool: [intermediate], reason: .valid, index: nil, chainLength: 3),
            SyntheticCase(name: "leaf keyUsage without digitalSignature", anchors: [root],
                          signer: makeLeaf { $0.extensions = [keyUsage(.keyEncipherment)] }, pool: [intermediate],
                          reason: .untrustedChain, index: 0, code: .signerKeyUsage),
            SyntheticCase(name: "forged leaf signature", anchors: [root], signer: forgedLeaf, pool: [intermediate],
                          reason: .signatureInvalid, index: 0, code: .certificateSignatureInvalid),
            SyntheticCase(name: "leaf signed by the wrong key", anchors: [root], signer: makeLeaf(signedBy: .other) { _ in }, pool: [intermediate],
                          reason: .signatureInvalid, index: 0, code: .certificateSignatureInvalid),
            SyntheticCase(name: "anchor with the root's name but another key", anchors: [impostorRoot], signer: leaf, pool: [intermediate],
                          reason: .signatureInvalid, index: 1, code: .certificateSignatureInvalid),
            SyntheticCase(name: "intermediate expired", anchors: [root], signer: leaf,
                          pool: [makeIntermediate { $0.notAfter = ASN1Time(year: 2024, month: 12, day: 31) }],
                          reason: .certificateExpired, index: 1, code: .expired),
            SyntheticCase(name: "leaf not yet valid", anchors: [root], signer: makeLeaf { $0.notBefore = ASN1Time(year: 2026, month: 1, day: 1) },
                          pool: [intermediate], reason: .certificateExpired, index: 0, code: .notYetValid),
            SyntheticCase(name: "leaf valid until 2050 (GeneralizedTime)", anchors: [root],
                          signer: makeLeaf { $0.notAfter = ASN1Time(year: 2050, month: 1, day: 1) }, pool: [intermediate],
                          reason: .valid, index: nil, chainLength: 3),
            SyntheticCase(name: "self-signed root in the pool, other anchor", anchors: [otherRoot], signer: leaf, pool: [intermediate, root],
                          reason: .untrustedChain, index: 2, code: .untrustedRoot),
            SyntheticCase(name: "no anchors at all", anchors: [], signer: leaf, pool: [intermediate, root],
                          reason: .untrustedChain, index: 2, code: .untrustedRoot),
            SyntheticCase(name: "chain longer than allowed", anchors: [root], signer: leaf, pool: [intermediate],
                          maximumChainLength: 2, reason: .untrustedChain, index: 1, code: .chainTooLong),
            SyntheticCase(name: "CAs issuing each other", anchors: [root], signer: loopLeaf, pool: [loopA, loopB],
                          reason: .untrustedChain, index: 2, code: .missingIssuer),
            SyntheticCase(name: "leaf signatureAlgorithm rsaEncryption", anchors: [root],
                          signer: makeLeaf { $0.signature = algorithmIdentifier(.rsaEncryption) }, pool: [intermediate],
                          reason: .unsupportedAlgorithm, index: 0, code: .unsupportedSignatureAlgorithm),
            SyntheticCase(name: "Apple's marker policy on a non-Apple chain", anchors: [root], signer: leaf, pool: [intermediate],
                          policies: ChainVerifier.defaultPolicies + [AppleReceiptMarkersPolicy()],
                          reason: .untrustedChain, index: 0, code: .missingReceiptSigningMarker),
            SyntheticCase(name: "Apple's marker policy, marked leaf, unmarked intermediate", anchors: [root], signer: markedLeaf,
                          pool: [intermediate], policies: ChainVerifier.defaultPolicies + [AppleReceiptMarkersPolicy()],
                          reason: .untrustedChain, index: 1, code: .missingWWDRMarker),
            SyntheticCase(name: "more signature checks than allowed", anchors: [root], signer: ladderLeaf, pool: ladder,
                          maximumChainLength: 200, reason: .untrustedChain, index: ChainVerifier.maximumSignatureChecks,
                          code: .tooManySignatureChecks),
        ]
    }

    func testSyntheticChains() throws {
        for item in Self.syntheticCases() {
            let verifier = ChainVerifier(anchors: try item.anchors.map { try Certificate($0) }, policies: item.policies,
                                         maximumChainLength: item.maximumChainLength)
            let verdict = verifier.verify(try Certificate(item.signer), intermediates: try item.pool.map { try Certificate($0) },
                                          at: Self.time)
            XCTAssertEqual(verdict.reason, item.reason, "\(item.name): \(verdict)")
            XCTAssertEqual(verdict.certificateIndex, item.index, "\(item.name): \(verdict)")
            XCTAssertEqual(verdict.chainFailure, item.code, "\(item.name): \(verdict)")
            if let length = item.chainLength { XCTAssertEqual(verdict.chain.count, length, item.name) }
        }
    }

    /// Every chain failure code has a case in the table (but `signer-not-found`, which
    /// the SignedData verifier reports: `SignerLookupTests`), and reports its reason.
    func testEveryChainFailureCodeIsExercised() {
        let codes = Set(Self.syntheticCases().compactMap(\.code))
        XCTAssertEqual(codes.union([.signerNotFound]), Set(ChainFailure.allCases))
        for item in Self.syntheticCases() { XCTAssertEqual(item.code?.reason ?? .valid, item.reason, item.name) }
    }

    /// The codes are an interface (`forge verify --json` prints them): never rename one.
    func testChainFailureCodesAreStable() {
        XCTAssertEqual(ChainFailure.allCases.map(\.rawValue), [
            "signer-not-found", "missing-issuer", "untrusted-root", "chain-too-long", "too-many-signature-checks",
            "unhandled-critical-extension", "not-a-ca", "path-length-exceeded", "issuer-key-usage", "signer-key-usage",
            "missing-receipt-signing-marker", "missing-wwdr-marker", "expired", "not-yet-valid", "signature-invalid",
            "unsupported-algorithm",
        ])
    }

    /// OpenSSL agrees with the synthetic signatures the table relies on.
    func testSyntheticSignaturesVerifyWithOpenSSL() {
        let root = CertificateSpec.authority("Forge Test Root", issuer: "Forge Test Root", key: .root).encoded(signedBy: .root)
        let intermediate = CertificateSpec.authority("Forge Test Intermediate", issuer: "Forge Test Root", key: .intermediate).encoded(signedBy: .root)
        XCTAssertTrue(OpenSSLOracle.verify(intermediate, signedBy: root))
        XCTAssertTrue(OpenSSLOracle.verify(root, signedBy: root))
        XCTAssertFalse(OpenSSLOracle.verify(root, signedBy: intermediate))
    }

    func testUnparsableCertificateVerdicts() throws {
        var spec = CertificateSpec()
        spec.signature = algorithmIdentifier("1.2.840.113549.1.1.4")
        do {
            _ = try Certificate(spec.encoded())
            XCTFail("md5WithRSAEncryption parsed")
        } catch {
            let verdict = ChainVerdict.unparsable(error, index: 1)
            XCTAssertEqual(verdict.reason, .unsupportedAlgorithm)
            XCTAssertEqual(verdict.certificateIndex, 1)
        }
        do {
            _ = try Certificate([0x30, 0x03, 0x02, 0x01])
            XCTFail("a truncated certificate parsed")
        } catch {
            XCTAssertEqual(ChainVerdict.unparsable(error, index: 0).reason, .malformed)
        }
    }
}
