import Foundation
import Receipt

/// Remembers which (issuer, certificate) signatures have verified, keyed by the
/// SHA-256 fingerprints of both certificates' raw bytes, so that a batch of
/// receipts signed under one chain pays for its RSA operations once.
///
/// Only the signature check is skipped on a hit: validity and constraints depend on
/// the verification time and are checked every time. The caller owns the cache and
/// decides how long it lives; one cache may be shared between threads.
///
/// It also remembers which receipt signatures have verified: (signer key, digest
/// algorithm, signed digest, signature), compared on every byte, so verifying the same
/// receipt again skips its signer's RSA operation too. A PKCS#1 v1.5 check depends on
/// exactly those four values, so a hit answers what the check would.
///
/// It also keeps the certificates it has seen parsed, keyed by their exact bytes, so
/// a batch parses (and prepares the RSA key of) each certificate once. Only
/// certificates that parsed are kept; a lookup compares every byte.
public final class SignatureCache: @unchecked Sendable {
    // @unchecked: every stored property is either immutable or guarded by `lock`.
    // (Synchronization.Mutex would say so to the compiler but needs macOS 15.)

    /// What the cache has done and holds, for tests and benchmarks to check that it is used.
    public struct Statistics: Hashable, Sendable {
        /// Lookups that found a verified pair.
        public var hits = 0
        /// Lookups that did not (each followed by an RSA verification).
        public var misses = 0
        /// Pairs stored now.
        public var entries = 0
        /// Parsed certificates kept now.
        public var certificates = 0
        /// Lookups of a receipt's signature that found it verified before.
        public var signatureHits = 0
        /// Lookups of a receipt's signature that did not (each followed by an RSA verification).
        public var signatureMisses = 0
        /// Verified receipt signatures stored now.
        public var signatures = 0
    }

    /// Two SHA-256 fingerprints, hashed in one call each (see `CertificateBytes`).
    private struct Key: Hashable {
        let issuer: [UInt8]
        let certificate: [UInt8]

        func hash(into hasher: inout Hasher) {
            issuer.withUnsafeBytes { hasher.combine(bytes: $0) }
            certificate.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// The most pairs kept; when full, the cache starts over (a receipt batch needs two).
    public let capacity: Int
    private let lock = NSLock()
    private var verified: Set<Key> = []
    private var parsed: [CertificateBytes: Certificate] = [:]
    private var verifiedSignatures: Set<SignedDigest> = []

    /// Everything an RSA PKCS#1 v1.5 verification depends on. The hash covers the
    /// digest (already a cryptographic hash) and the signature's length and last 16
    /// bytes; equality compares every byte of all four.
    private struct SignedDigest: Hashable {
        let modulus: [UInt8]
        let exponent: [UInt8]
        let algorithm: DigestAlgorithm
        let digest: [UInt8]
        let signature: [UInt8]

        func hash(into hasher: inout Hasher) {
            hasher.combine(algorithm)
            digest.withUnsafeBytes { hasher.combine(bytes: $0) }
            hasher.combine(signature.count)
            signature.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0.suffix(16))) }
        }

        static func == (a: SignedDigest, b: SignedDigest) -> Bool {
            a.algorithm == b.algorithm && sameBytes(a.digest, b.digest) && sameBytes(a.signature, b.signature)
                && sameBytes(a.modulus, b.modulus) && sameBytes(a.exponent, b.exponent)
        }
    }

    /// A certificate's bytes as a dictionary key. The hash covers the length and the
    /// last 64 bytes — the end of the signature, as good as random for any certificate
    /// that parses — so a lookup hashes 64 bytes, not 1 500; equality still compares
    /// every byte (`memcmp`). (An `[UInt8]` key would hash byte by byte.)
    private struct CertificateBytes: Hashable {
        let bytes: [UInt8]

        func hash(into hasher: inout Hasher) {
            hasher.combine(bytes.count)
            bytes.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0.suffix(64))) }
        }

        static func == (a: CertificateBytes, b: CertificateBytes) -> Bool { sameBytes(a.bytes, b.bytes) }
    }
    private var counters = Statistics()

    /// An empty cache holding at most `capacity` entries of each kind; precondition: at least 1.
    public init(capacity: Int = 1024) {
        precondition(capacity > 0, "a cache needs room for at least one pair")
        self.capacity = capacity
    }

    /// A snapshot of the counters and sizes.
    public var statistics: Statistics {
        lock.withLock {
            var snapshot = counters
            snapshot.entries = verified.count
            snapshot.certificates = parsed.count
            snapshot.signatures = verifiedSignatures.count
            return snapshot
        }
    }

    /// Forgets every entry and resets the counters.
    public func removeAll() {
        lock.withLock {
            verified.removeAll()
            parsed.removeAll()
            verifiedSignatures.removeAll()
            counters = Statistics()
        }
    }

    /// The certificate `bytes` encode, parsed with `ber` rules as certificates inside
    /// receipts are: parsed before, or parsed now and kept. Parse errors are thrown,
    /// never kept.
    func receiptCertificate(_ bytes: [UInt8]) throws(CertificateError) -> Certificate {
        if let found = lock.withLock({ parsed[CertificateBytes(bytes: bytes)] }) { return found }
        let certificate = try Certificate(bytes, rules: PKCS7SignedData.rules)
        lock.withLock {
            if parsed.count >= capacity { parsed.removeAll(keepingCapacity: true) }
            parsed[CertificateBytes(bytes: bytes)] = certificate
        }
        return certificate
    }

    /// True (a hit) if `certificate`'s signature by `issuer` has verified before.
    func containsVerifiedPair(issuer: Certificate, certificate: Certificate) -> Bool {
        let key = Key(issuer: issuer.fingerprint, certificate: certificate.fingerprint)
        return lock.withLock {
            let found = verified.contains(key)
            if found { counters.hits += 1 } else { counters.misses += 1 }
            return found
        }
    }

    func insertVerifiedPair(issuer: Certificate, certificate: Certificate) {
        let key = Key(issuer: issuer.fingerprint, certificate: certificate.fingerprint)
        lock.withLock {
            if verified.count >= capacity { verified.removeAll(keepingCapacity: true) }
            verified.insert(key)
        }
    }

    /// True (a hit) if `signature` by `key` over `digest` has verified before.
    func containsVerifiedSignature(_ signature: [UInt8], digest: [UInt8], algorithm: DigestAlgorithm,
                                   key: RSAPublicKey) -> Bool {
        let entry = SignedDigest(modulus: key.modulus, exponent: key.exponent, algorithm: algorithm,
                                 digest: digest, signature: signature)
        return lock.withLock {
            let found = verifiedSignatures.contains(entry)
            if found { counters.signatureHits += 1 } else { counters.signatureMisses += 1 }
            return found
        }
    }

    /// Records that `signature` by `key` over `digest` verified (call only after it did).
    func insertVerifiedSignature(_ signature: [UInt8], digest: [UInt8], algorithm: DigestAlgorithm,
                                 key: RSAPublicKey) {
        let entry = SignedDigest(modulus: key.modulus, exponent: key.exponent, algorithm: algorithm,
                                 digest: digest, signature: signature)
        lock.withLock {
            if verifiedSignatures.count >= capacity { verifiedSignatures.removeAll(keepingCapacity: true) }
            verifiedSignatures.insert(entry)
        }
    }
}
