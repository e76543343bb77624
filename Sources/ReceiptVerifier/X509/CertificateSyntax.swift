import BER
import Receipt

/// What a verifier owes a certificate it never uses: the syntax `d2i_X509` checks, not
/// the meaning RFC 5280 gives the fields.
///
/// A receipt's `certificates` SET (RFC 5652 §5.1) is "a collection of certificates …
/// sufficient to contain certification paths", unordered, and may hold more than the
/// path needs: App Store receipts carry a copy of the root, which the verifier never
/// uses (the anchor is the caller's). OpenSSL decodes the whole SET when it decodes the
/// container (`d2i_PKCS7`): tags, lengths, the TBSCertificate's field order, minimal
/// INTEGERs, AlgorithmIdentifier parameters by type, Name structure and strings, BIT
/// STRING unused-bit octets, Extension structure. It interprets a certificate (its
/// version, serial number, times, key, extension values) only when path building
/// considers it. RFC 5280's rules are about certificates in a path. So:
///
/// - every certificate of the SET must pass `check` (else the receipt is `malformed`,
///   where `d2i_PKCS7` fails);
/// - only the signer and the certificates of the chain must also parse as `Certificate`
///   (RFC 5280 semantics); one that does not is left out of signer lookup and path
///   building, and its error becomes the verdict only if the verification then fails.
///
/// The same rule holds for a JWS's `x5c`: Apple's library decodes `x5c[0]` and `x5c[1]`
/// with `d2i_X509` (a failure is `INVALID_CERTIFICATE`) and meets their meaning only
/// when OpenSSL verifies the chain (a failure is `VERIFICATION_FAILURE`); it never
/// decodes `x5c[2]`.
///
/// docs/architecture.md, "Certificates nobody uses", says why.
public enum CertificateSyntax {
    /// The encodings `d2i_X509` (and `d2i_PKCS7` for the certificates it holds) decodes:
    /// BER, with minimal INTEGERs.
    public static var openSSLRules: BERRules { PKCS7SignedData.rules }

    /// Whose `d2i_X509`. The two OpenSSLs this project agrees with decode the same
    /// certificates but for one rule.
    public enum Decoder: Sendable {
        /// OpenSSL 3.0, the system library the receipt oracle links.
        case openSSL3_0
        /// OpenSSL 4.0, inside the `cryptography` wheel Apple's Python library runs on
        /// (the oracle venv's): its `asn1_ex_c2i` also refuses a UTCTime shorter than 13
        /// octets and a GeneralizedTime shorter than 15 ("utctime is too short",
        /// "generalizedtime is too short"), in the validity and in algorithm parameters.
        case openSSL4_0
    }

    /// Refuses a time element whose contents (collected, for a constructed one) are
    /// shorter than `decoder` takes; other elements pass, their contents unread.
    private static func checkTimeLength(_ element: BERElement, _ decoder: Decoder) throws(BERError) {
        guard decoder == .openSSL4_0, element.tag.tagClass == .universal else { return }
        let minimum: Int
        switch element.tag.number {
        case 23: minimum = 13
        case 24: minimum = 15
        default: return
        }
        let length = try OpenSSLAny.collect(element).count
        if length < minimum {
            throw BERError(.invalidTime, at: element.offset, "\(element.tag) of \(length) octets: OpenSSL 4 wants at least \(minimum)")
        }
    }

    /// A field of a string type as `d2i_X509` reads it: `tag`'s class and number in either
    /// form, a constructed one's segments collected (`OpenSSLAny.collect`).
    private static func readString(_ reader: inout BERReader, _ tag: BERTag) throws(BERError) -> [UInt8] {
        let element = try reader.readElement()
        guard element.tag.tagClass == tag.tagClass, element.tag.number == tag.number else {
            throw BERError(.unexpectedTag, at: element.offset, "expected \(tag), found \(element.tag)")
        }
        return try OpenSSLAny.collect(element)
    }

    /// A BIT STRING as `c2i_ASN1_BIT_STRING` reads the collected contents: an unused-bits
    /// octet of 0 to 7 first.
    private static func readBitString(_ reader: inout BERReader, _ tag: BERTag) throws(BERError) {
        let offset = reader.offset
        let bytes = try readString(&reader, tag)
        guard let unused = bytes.first, unused <= 7 else {
            throw BERError(.invalidBitString, at: offset, "\(tag): no unused-bits octet, or one above 7")
        }
    }

    /// Throws unless `bytes` is exactly one certificate that `decoder`'s `d2i_X509`
    /// decodes. `rules` as for `Certificate`; `openSSLRules` (BER with minimal INTEGERs)
    /// for what OpenSSL's decoder takes.
    public static func check(_ bytes: ArraySlice<UInt8>, rules: BERRules, decoder: Decoder) throws(CertificateError) {
        let root = ["certificate"]
        let (tbs, algorithm) = try decoding(root) { () throws(BERError) -> (BERElement, BERElement) in
            var reader = BERReader(bytes, rules: rules)
            let parts = try reader.readSequence { (certificate: inout BERReader) throws(BERError) -> (BERElement, BERElement) in
                let tbs = try withBERPath("tbsCertificate") { () throws(BERError) in try certificate.readElement(.sequence) }
                let algorithm = try withBERPath("signatureAlgorithm") { () throws(BERError) in try certificate.readElement(.sequence) }
                try withBERPath("signatureValue") { () throws(BERError) in try readBitString(&certificate, .bitString) }
                return (tbs, algorithm)
            }
            try reader.finish()
            return parts
        }
        try checkAlgorithm(algorithm, path: root + ["signatureAlgorithm"], decoder)
        try checkTBS(tbs, path: root + ["tbsCertificate"], decoder)
    }

    /// Checks a whole array as a certificate's syntax (see the slice form).
    public static func check(_ bytes: [UInt8], rules: BERRules, decoder: Decoder) throws(CertificateError) {
        try check(bytes[...], rules: rules, decoder: decoder)
    }

    /// An AlgorithmIdentifier as `d2i_X509` decodes it: its parameters by their type
    /// (OpenSSL's ANY rules), whichever algorithm it names.
    private static func checkAlgorithm(_ element: BERElement, path: [String], _ decoder: Decoder) throws(CertificateError) {
        try decoding(path) { () throws(BERError) in
            let algorithm = try AlgorithmIdentifier(element)
            if let parameters = algorithm.parameters {
                var reader = BERReader(parameters, rules: .ber)
                try withBERPath("parameters") { () throws(BERError) in
                    let element = try reader.readElement()
                    try checkTimeLength(element, decoder)
                }
            }
        }
    }

    /// The TBSCertificate's fields in order, each of its type; no value interpreted.
    private static func checkTBS(_ tbs: BERElement, path: [String], _ decoder: Decoder) throws(CertificateError) {
        let (signature, issuer, subject, publicKeyInfo, extensions) = try decoding(path) {
            () throws(BERError) -> (BERElement, BERElement, BERElement, BERElement, BERElement?) in
            var reader = try tbs.contentsReader()
            try withBERPath("version") { () throws(BERError) in
                guard let element = try reader.readOptionalElement(.context(0)) else { return }
                var explicit = try element.contentsReader()
                _ = try explicit.readElement(.integer).integerContents()
                try explicit.finish()
            }
            _ = try withBERPath("serialNumber") { () throws(BERError) in try reader.readElement(.integer).integerContents() }
            let signature = try withBERPath("signature") { () throws(BERError) in try reader.readElement(.sequence) }
            let issuer = try withBERPath("issuer") { () throws(BERError) in try reader.readElement() }
            try withBERPath("validity") { () throws(BERError) in
                try reader.readSequence { (validity: inout BERReader) throws(BERError) in
                    for name in ["notBefore", "notAfter"] {
                        try withBERPath(name) { () throws(BERError) in
                            // ASN1_TIME: a UTCTime or GeneralizedTime, either form (a constructed one collected).
                            let time = try validity.readElement()
                            guard time.tag.tagClass == .universal, time.tag.number == 23 || time.tag.number == 24 else {
                                throw BERError(.unexpectedTag, at: time.offset, "expected UTCTime or GeneralizedTime, found \(time.tag)")
                            }
                            _ = try OpenSSLAny.collect(time)
                            try checkTimeLength(time, decoder)
                        }
                    }
                }
            }
            let subject = try withBERPath("subject") { () throws(BERError) in try reader.readElement() }
            let publicKeyInfo = try withBERPath("subjectPublicKeyInfo") { () throws(BERError) in try reader.readElement(.sequence) }
            for (number, name) in [(UInt32(1), "issuerUniqueID"), (2, "subjectUniqueID")] {
                try withBERPath(name) { () throws(BERError) in
                    let tag = BERTag.context(number, constructed: false)
                    guard try reader.peekTag().map({ $0.tagClass == tag.tagClass && $0.number == tag.number }) == true else { return }
                    try readBitString(&reader, tag)
                }
            }
            let extensions = try withBERPath("extensions") { () throws(BERError) in try reader.readOptionalElement(.context(3)) }
            try reader.finish()
            return (signature, issuer, subject, publicKeyInfo, extensions)
        }
        try checkAlgorithm(signature, path: path + ["signature"], decoder)
        _ = try DistinguishedName(issuer, path: path + ["issuer"], strictness: .syntax)
        _ = try DistinguishedName(subject, path: path + ["subject"], strictness: .syntax)
        try decoding(path + ["subjectPublicKeyInfo"]) { () throws(BERError) in
            var reader = try publicKeyInfo.contentsReader()
            let algorithm = try withBERPath("algorithm") { () throws(BERError) in try reader.readElement(.sequence) }
            let parsed = try AlgorithmIdentifier(algorithm)
            if let parameters = parsed.parameters {
                var parametersReader = BERReader(parameters, rules: .ber)
                try withBERPath("parameters") { () throws(BERError) in
                    let element = try parametersReader.readElement()
                    try checkTimeLength(element, decoder)
                }
            }
            try withBERPath("subjectPublicKey") { () throws(BERError) in try readBitString(&reader, .bitString) }
            try reader.finish()
        }
        guard let extensions else { return }
        // Extensions ::= SEQUENCE OF Extension; Extension ::= SEQUENCE { extnID OBJECT
        // IDENTIFIER, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }.
        // The SEQUENCE OF may be primitive: OpenSSL's decoder does not check that bit of a
        // SEQUENCE OF (each Extension, a SEQUENCE, must be constructed).
        try decoding(path + ["extensions"]) { () throws(BERError) in
            var explicit = try extensions.contentsReader()
            let sequence = try explicit.readElement()
            guard sequence.isSequenceOrSetOf(set: false) else {
                throw BERError(.unexpectedTag, at: sequence.offset, "expected SEQUENCE, found \(sequence.tag)")
            }
            var list = sequence.elementsReader()
            var index = 0
            while !list.isAtEnd {
                try withBERPath("[\(index)]") { () throws(BERError) in
                    try list.readSequence { (item: inout BERReader) throws(BERError) in
                        _ = try item.readObjectIdentifier()
                        if try item.peekTag() == .boolean { _ = try item.readBoolean() }
                        _ = try readString(&item, .octetString)
                    }
                }
                index += 1
            }
            try explicit.finish()
        }
    }
}
