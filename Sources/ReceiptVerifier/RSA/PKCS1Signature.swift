import BER
import Foundation
import Receipt

/// The outcome of a signature check: a value, not a thrown error.
public enum SignatureCheck: Hashable, Sendable {
    /// The signature verifies.
    case valid
    /// The signature does not verify: a stable code, and a text saying which step refused it.
    case invalid(SignatureFailure, String)

    /// True for `valid`.
    public var isValid: Bool { self == .valid }

    /// The code of an invalid signature; nil for a valid one.
    public var failure: SignatureFailure? {
        if case .invalid(let failure, _) = self { return failure }
        return nil
    }
}

/// RSASSA-PKCS1-v1_5 (RFC 8017 §8.2.2, §9.2), the strict way: the expected encoded
/// message `00 01 FF…FF 00 ‖ DigestInfo(hash OID, digest)` is built from the digest
/// and compared with the whole recovered block. Nothing in the recovered block is
/// parsed, so no lenient ASN.1 reading can be fooled by a forged block (the
/// "BERserk" and Bleichenbacher-2006 family of bugs). The forge signs with the same
/// encoding (`package`: for this package's modules, not a public API).
package enum PKCS1v15 {
    /// `DigestInfo ::= SEQUENCE { digestAlgorithm AlgorithmIdentifier (parameters
    /// NULL), digest OCTET STRING }` in DER.
    static func digestInfo(_ digest: [UInt8], algorithm: DigestAlgorithm) -> [UInt8] {
        var writer = BERWriter()
        writer.appendSequence { info in
            info.appendSequence { identifier in
                identifier.appendObjectIdentifier(algorithm.oid)
                identifier.appendNull()
            }
            info.appendOctetString(digest)
        }
        return writer.bytes
    }

    /// EMSA-PKCS1-v1_5-ENCODE (RFC 8017 §9.2) for a digest already computed, or nil
    /// when `length` leaves fewer than 8 padding bytes.
    package static func encodedMessage(digest: [UInt8], algorithm: DigestAlgorithm, length: Int) -> [UInt8]? {
        // A digest of the algorithm's length shares its DigestInfo prefix, built once.
        let info = digest.count == algorithm.digestLength
            ? digestInfoPrefixes[algorithm]! + digest : digestInfo(digest, algorithm: algorithm)
        let paddingLength = length - info.count - 3
        guard paddingLength >= 8 else { return nil }
        var block: [UInt8] = [0x00, 0x01]
        block.reserveCapacity(length)
        block.append(contentsOf: repeatElement(0xFF, count: paddingLength))
        block.append(0x00)
        block.append(contentsOf: info)
        return block
    }

    /// Per algorithm, its DigestInfo up to the digest bytes: the DER prefix that every
    /// digest of that algorithm shares (built once with `digestInfo`).
    private static let digestInfoPrefixes: [DigestAlgorithm: [UInt8]] = Dictionary(
        uniqueKeysWithValues: DigestAlgorithm.allCases.map { algorithm in
            let info = digestInfo([UInt8](repeating: 0, count: algorithm.digestLength), algorithm: algorithm)
            return (algorithm, Array(info.dropLast(algorithm.digestLength)))
        })

    /// Compares a recovered block (`s^e mod n`) with the expected encoding of `digest`.
    static func check(recovered: [UInt8], digest: [UInt8], algorithm: DigestAlgorithm) -> SignatureCheck {
        guard digest.count == algorithm.digestLength else {
            return .invalid(.digestLength, "\(algorithm.rawValue) digest must be \(algorithm.digestLength) bytes, got \(digest.count)")
        }
        guard let expected = encodedMessage(digest: digest, algorithm: algorithm, length: recovered.count) else {
            return .invalid(.keyTooShort, "a \(recovered.count)-byte key is too short for a \(algorithm.rawValue) DigestInfo")
        }
        // Public data: no need for a constant-time compare.
        guard recovered == expected else {
            return .invalid(.signatureMismatch, "the recovered block is not 00 01 FF…FF 00 DigestInfo(\(algorithm.rawValue), digest)")
        }
        return .valid
    }
}

extension RSAPublicKey {
    /// Verifies a PKCS#1 v1.5 signature over a digest computed by the caller (a CMS
    /// signer without signed attributes signs the payload's digest).
    public func checkSignature<Signature: Collection<UInt8>, DigestBytes: Collection<UInt8>>(
        _ signature: Signature, digest: DigestBytes, algorithm: DigestAlgorithm
    ) -> SignatureCheck {
        // RFC 8017 §8.2.2 step 1: the signature has exactly the modulus's length.
        guard signature.count == modulusByteCount else {
            return .invalid(.signatureLength, "signature is \(signature.count) bytes, the \(modulusBits)-bit key needs \(modulusByteCount)")
        }
        guard let recovered = publicOperation(Array(signature)) else {
            return .invalid(.signatureOutOfRange, "signature representative is not smaller than the modulus")
        }
        return PKCS1v15.check(recovered: recovered, digest: Array(digest), algorithm: algorithm)
    }

    /// Verifies a PKCS#1 v1.5 signature over `message`, hashed with `algorithm`.
    public func checkSignature<Signature: Collection<UInt8>, Message: DataProtocol>(
        _ signature: Signature, message: Message, algorithm: DigestAlgorithm
    ) -> SignatureCheck {
        checkSignature(signature, digest: algorithm.digest(message), algorithm: algorithm)
    }
}
