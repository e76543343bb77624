import BER
import Receipt

/// What tells the forge's two certificate authorities apart: their certificates' names
/// and serial numbers, their file names in `Certs/`, and the committed copy compiled into
/// the forge. The rest is common to both: the shape of the chain (a root, an intermediate
/// with the WWDR marker, a leaf with the receipt-signing marker; an unrelated root; an
/// Xcode-style self-signed certificate), the extensions and the validity.
public struct AuthorityProfile: Sendable {
    /// One certificate of the authority: its subject (and, for the roots, issuer), its
    /// serial number and its file stem (`STEM.cer`, `STEM.pem`, `STEM.key.pem`).
    public struct Member: Sendable {
        public let name: NameBuilder
        public let serial: UInt64
        public let stem: String
    }

    public let root: Member
    public let intermediate: Member
    public let leaf: Member
    /// A second root (chains that end in it must be rejected).
    public let unrelatedRoot: Member
    /// Self-signed, signs directly and is its own anchor, like Xcode's StoreKit Testing certificate.
    public let storeKit: Member
    /// The generated Swift file holding the committed copy: its enum, and that enum's `files`.
    package let embeddedEnumName: String
    package let committedFiles: [String: [UInt8]]

    public var members: [Member] { [root, intermediate, leaf, unrelatedRoot, storeKit] }

    // MARK: The two authorities (every name says TEST ONLY)

    /// The RSA-2048 CA that signs receipts (`Certs/root.*`, `intermediate.*`, `leaf.*`,
    /// `unrelated-root.*`, `storekit.*`).
    public static let receipts = AuthorityProfile(
        root: Member(name: NameBuilder([
            (.countryName, "US"), (.organizationName, "Receipt Forge"),
            (.organizationalUnitName, "Receipt Forge Certification Authority"),
            (.commonName, "Receipt Forge Root CA - TEST ONLY"),
        ]), serial: 0x5246_0001, stem: "root"),
        intermediate: Member(name: NameBuilder([
            (.commonName, "Receipt Forge Worldwide Developer Relations Certification Authority - TEST ONLY"),
            (.organizationalUnitName, "G5"), (.organizationName, "Receipt Forge"), (.countryName, "US"),
        ]), serial: 0x5246_0002, stem: "intermediate"),
        leaf: Member(name: NameBuilder([
            (.commonName, "Receipt Forge Mac App Store and iTunes Store Receipt Signing - TEST ONLY"),
            (.organizationalUnitName, "Receipt Forge Worldwide Developer Relations"),
            (.organizationName, "Receipt Forge"), (.countryName, "US"),
        ]), serial: 0x5246_0003, stem: "leaf"),
        unrelatedRoot: Member(name: NameBuilder([
            (.countryName, "US"), (.organizationName, "Receipt Forge"),
            (.organizationalUnitName, "Unrelated Certification Authority"),
            (.commonName, "Receipt Forge Unrelated Root CA (never the anchor) - TEST ONLY"),
        ]), serial: 0x5246_0004, stem: "unrelated-root"),
        storeKit: Member(name: NameBuilder([
            (.commonName, "Receipt Forge StoreKit Testing in Xcode - TEST ONLY"),
            (.organizationName, "Receipt Forge"), (.countryName, "US"),
        ]), serial: 0x5246_0005, stem: "storekit"),
        embeddedEnumName: "EmbeddedCertificateAuthority", committedFiles: EmbeddedCertificateAuthority.files)

    /// The P-256 CA that signs StoreKit 2 JWS (`Certs/jws-*`). OpenSSL's X509_STRICT, which
    /// Apple's Python library uses, requires the key identifiers every certificate carries.
    public static let jws = AuthorityProfile(
        root: Member(name: NameBuilder([
            (.commonName, "Receipt Forge Root CA - G3 - TEST ONLY"),
            (.organizationalUnitName, "Receipt Forge Certification Authority"),
            (.organizationName, "Receipt Forge"), (.countryName, "US"),
        ]), serial: 0x4A57_0001, stem: "jws-root"),
        intermediate: Member(name: NameBuilder([
            (.commonName, "Receipt Forge Worldwide Developer Relations CA G6 - TEST ONLY"),
            (.organizationalUnitName, "G6"), (.organizationName, "Receipt Forge"), (.countryName, "US"),
        ]), serial: 0x4A57_0002, stem: "jws-intermediate"),
        leaf: Member(name: NameBuilder([
            (.commonName, "Receipt Forge Prod ECC Mac App Store and iTunes Store Receipt Signing - TEST ONLY"),
            (.organizationalUnitName, "Receipt Forge Worldwide Developer Relations"),
            (.organizationName, "Receipt Forge"), (.countryName, "US"),
        ]), serial: 0x4A57_0003, stem: "jws-leaf"),
        unrelatedRoot: Member(name: NameBuilder([
            (.commonName, "Receipt Forge Unrelated Root CA - G3 (never the anchor) - TEST ONLY"),
            (.organizationName, "Receipt Forge"), (.countryName, "US"),
        ]), serial: 0x4A57_0004, stem: "jws-unrelated-root"),
        storeKit: Member(name: NameBuilder([
            (.commonName, "Receipt Forge StoreKit Testing in Xcode - TEST ONLY"),
            (.organizationName, "Receipt Forge"), (.countryName, "US"),
        ]), serial: 0x4A57_0005, stem: "jws-xcode"),
        embeddedEnumName: "EmbeddedJWSAuthority", committedFiles: EmbeddedJWSAuthority.files)

    // MARK: Validity of the committed certificates

    /// The committed certificates cover 2020 to the end of 2099, so receipts created
    /// any time the forge accepts (`--now` up to 2089) verify at their creation date.
    public static let caNotBefore = ASN1Time(year: 2020, month: 1, day: 1)
    public static let caNotAfter = ASN1Time(year: 2099, month: 12, day: 31, hour: 23, minute: 59, second: 59)
    public static let leafNotBefore = ASN1Time(year: 2024, month: 1, day: 1)

    // MARK: Templates

    /// A self-signed certificate: the roots, and the Xcode-style signer.
    package func selfSignedTemplate(_ member: Member, role: CertificateTemplate.Role) -> CertificateTemplate {
        CertificateTemplate(serialNumber: member.serial, issuer: member.name, subject: member.name,
                            notBefore: Self.caNotBefore, notAfter: Self.caNotAfter, role: role)
    }

    /// The intermediate, issued by the root unless `issuer` says otherwise.
    package func intermediateTemplate(issuer: NameBuilder? = nil, serial: UInt64? = nil, marker: Bool = true)
        -> CertificateTemplate {
        CertificateTemplate(serialNumber: serial ?? intermediate.serial, issuer: issuer ?? root.name,
                            subject: intermediate.name, notBefore: Self.caNotBefore, notAfter: Self.caNotAfter,
                            role: .intermediateCA, markerExtensions: marker ? [.appleWWDRIntermediateMarker] : [])
    }

    package func leafTemplate(serial: UInt64? = nil, notBefore: ASN1Time = leafNotBefore, notAfter: ASN1Time = caNotAfter,
                              marker: Bool = true) -> CertificateTemplate {
        CertificateTemplate(serialNumber: serial ?? leaf.serial, issuer: intermediate.name, subject: leaf.name,
                            notBefore: notBefore, notAfter: notAfter, role: .endEntity,
                            markerExtensions: marker ? [.appleReceiptSigningMarker] : [])
    }
}
