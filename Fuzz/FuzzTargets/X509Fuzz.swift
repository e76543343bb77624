import BER
import OpenSSLShim
import ReceiptVerifier

/// Fuzz target `x509`: the certificate parser and RSA signature check, input = one
/// certificate.
///
/// Properties (stable abort signatures):
/// - parsing with `ber` and `der` rules never crashes, and every field renders;
/// - `x509-ber-der-difference`: what `der` accepts, `ber` accepts with the same fields;
/// - `x509-openssl-parse-difference`: what we accept under `der` rules, OpenSSL's
///   `d2i_X509` parses too (using every byte). The other direction is not compared:
///   d2i_X509 is lenient by design (BER, any version number, any algorithm, negative
///   serials, unparsed extensions), and refusing those is our policy;
/// - `x509-openssl-difference`: for a self-issued certificate both parse, our RSA
///   check of its self-signature (over the TBS bytes as received) and OpenSSL's
///   `X509_verify` agree.
public enum X509Fuzz {
    public static func fuzzOne(_ input: [UInt8]) {
        let ber = Result { () throws(CertificateError) in try Certificate(input, rules: .ber) }
        let der = Result { () throws(CertificateError) in try Certificate(input, rules: .der) }
        if case .success(let strict) = der {
            guard case .success(let lenient) = ber, summary(strict) == summary(lenient) else {
                fuzzFinding("x509-ber-der-difference")
            }
        }
        switch ber {
        case .success(let certificate): _ = summary(certificate)
        case .failure(let error): _ = error.description
        }

        var info = rf_x509_info()
        let openSSLParses = input.withUnsafeBufferPointer { rf_x509_info_get($0.baseAddress, $0.count, &info) } == 1
        if case .success = der, !openSSLParses {
            fuzzFinding("x509-openssl-parse-difference", "we accept it under DER rules, d2i_X509 refuses")
        }

        guard case .success(let certificate) = ber, certificate.isSelfIssued, openSSLParses,
              let digest = certificate.signatureAlgorithm.digestAlgorithm else { return }
        let ours = certificate.publicKey.checkSignature(certificate.signature, message: certificate.tbsBytes,
                                                        algorithm: digest).isValid
        let theirs = input.withUnsafeBufferPointer { rf_x509_verify($0.baseAddress, $0.count, $0.baseAddress, $0.count) }
        if ours != (theirs == 1) {
            fuzzFinding("x509-openssl-difference", "self-signature: ours \(ours ? "valid" : "invalid"), X509_verify \(theirs)")
        }
    }

    /// Every parsed field, rendered: equal summaries mean equal certificates.
    static func summary(_ certificate: Certificate) -> String {
        let extensions = certificate.extensions.all.map { "\($0.oid)\($0.isCritical ? "!" : "")=\(Array($0.value))" }
        return [
            "v\(certificate.version)", "\(Array(certificate.serialNumber))", certificate.signatureAlgorithm.rawValue,
            certificate.issuer.description, "\(certificate.validity.notBefore)…\(certificate.validity.notAfter)",
            certificate.subject.description, "\(certificate.publicKey.rsa.map { "\($0.modulusBits)" } ?? "-")", "\(certificate.publicKey.rsa.map { "\($0.exponent)" } ?? "-")",
            extensions.joined(separator: ","), "\(certificate.extensions.basicConstraints.map { "\($0)" } ?? "-")",
            "\(certificate.extensions.keyUsage?.rawValue ?? 0xFFFF)", "\(Array(certificate.signature))",
            "\(Array(certificate.tbsBytes))", certificate.displayName,
        ].joined(separator: "|")
    }
}
