import OpenSSLShim
import Receipt

/// An RSA private key held by OpenSSL. Signing is RSASSA-PKCS1-v1_5, which is
/// deterministic: the same key and message always give the same signature, so forged
/// receipts and certificates are byte-reproducible.
public final class RSAPrivateKey: @unchecked Sendable {
    // An EVP_PKEY, immutable after loading; OpenSSL allows concurrent signing with it.
    private let handle: UnsafeMutableRawPointer
    /// The PEM text it was loaded from (PKCS#8, unencrypted).
    public let pem: String

    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        static func openSSL(_ what: String) -> Failure {
            var buffer = [CChar](repeating: 0, count: 256)
            rf_forge_last_error(&buffer, buffer.count)
            let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return Failure(description: "\(what): \(message)")
        }
    }

    public init(pem: String) throws(Failure) {
        let bytes = Array(pem.utf8)
        guard let handle = bytes.withUnsafeBufferPointer({ buffer in
            buffer.withMemoryRebound(to: CChar.self) { rf_key_load_pem($0.baseAddress, $0.count) }
        }) else {
            throw Failure.openSSL("cannot read the private key")
        }
        self.handle = handle
        self.pem = pem
    }

    deinit { rf_key_free(handle) }

    /// A fresh RSA key (e = 65537). Only `forge ca` generates keys.
    public static func generate(bits: Int = 2048) throws(Failure) -> RSAPrivateKey {
        var buffer = [CChar](repeating: 0, count: 16_384)
        var length = 0
        guard rf_rsa_generate_pem(Int32(bits), &buffer, buffer.count, &length) == 1 else {
            throw Failure.openSSL("RSA key generation failed")
        }
        let pem = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return try RSAPrivateKey(pem: pem)
    }

    /// The DER SubjectPublicKeyInfo.
    public var publicKeyInfo: [UInt8] {
        var out = [UInt8](repeating: 0, count: 4096)
        var length = 0
        let ok = rf_key_public_der(handle, &out, out.count, &length)
        precondition(ok == 1, "OpenSSL could not encode a loaded key's public part")
        return Array(out[..<length])
    }

    /// The PKCS#1 v1.5 signature of `message`, hashed with `digest`.
    public func sign(_ message: [UInt8], digest: DigestAlgorithm) throws(Failure) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 1024)
        var length = 0
        let ok = message.withUnsafeBufferPointer { buffer in
            rf_key_sign(handle, Int32(digest.openSSLBits), buffer.baseAddress, buffer.count, &out, out.count, &length)
        }
        guard ok == 1 else { throw Failure.openSSL("RSA signing failed") }
        return Array(out[..<length])
    }

    /// The OpenSSL handle, for the shim's PKCS7_sign (tests and bench).
    public var openSSLHandle: UnsafeMutableRawPointer { handle }
}

extension DigestAlgorithm {
    /// How the shim names a digest: its length in bits (0: not available there).
    var openSSLBits: Int {
        switch self {
        case .md5: return 0
        case .sha1: return 160
        case .sha256: return 256
        case .sha384: return 384
        case .sha512: return 512
        }
    }
}
