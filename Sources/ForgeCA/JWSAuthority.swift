import BER
import Foundation
import Receipt

/// A certificate and the P-256 key that signs with it.
public struct P256SigningIdentity: Sendable {
    public let certificate: [UInt8]
    public let key: P256PrivateKey

    public init(certificate: [UInt8], key: P256PrivateKey) {
        self.certificate = certificate
        self.key = key
    }

    /// `x5c` form: standard base64 of the DER (not base64url).
    public var x5c: String { Data(certificate).base64EncodedString() }
}

/// The throwaway P-256 CA that signs StoreKit 2 JWS, shaped like Apple's: a root →
/// an intermediate (pathLen 0, WWDR marker 1.2.840.113635.100.6.2.1) → a leaf
/// (CA:FALSE, marker 1.2.840.113635.100.6.11.1), every certificate with authority and
/// subject key identifiers (OpenSSL's X509_STRICT, which Apple's Python library
/// uses, requires them); plus an unrelated root and an Xcode-style self-signed
/// "StoreKit Testing in Xcode" certificate. Public test keys: never trust them.
///
/// Committed in `Certs/jws-*` and, identical, in `EmbeddedJWSAuthority.swift`;
/// `forge ca` regenerates both with the RSA CA.
public struct JWSAuthority: Sendable {
    public let root: P256SigningIdentity
    public let intermediate: P256SigningIdentity
    public let leaf: P256SigningIdentity
    public let unrelatedRoot: P256SigningIdentity
    public let xcode: P256SigningIdentity

    public static let fileStems = ["jws-root", "jws-intermediate", "jws-leaf", "jws-unrelated-root", "jws-xcode"]

    public var identities: [(String, P256SigningIdentity)] {
        [("jws-root", root), ("jws-intermediate", intermediate), ("jws-leaf", leaf),
         ("jws-unrelated-root", unrelatedRoot), ("jws-xcode", xcode)]
    }

    public init(root: P256SigningIdentity, intermediate: P256SigningIdentity, leaf: P256SigningIdentity,
                unrelatedRoot: P256SigningIdentity, xcode: P256SigningIdentity) {
        self.root = root
        self.intermediate = intermediate
        self.leaf = leaf
        self.unrelatedRoot = unrelatedRoot
        self.xcode = xcode
    }

    // MARK: Names (each says TEST ONLY)

    package static let rootName = NameBuilder([
        (.commonName, "Receipt Forge Root CA - G3 - TEST ONLY"),
        (.organizationalUnitName, "Receipt Forge Certification Authority"),
        (.organizationName, "Receipt Forge"), (.countryName, "US"),
    ])
    package static let intermediateName = NameBuilder([
        (.commonName, "Receipt Forge Worldwide Developer Relations CA G6 - TEST ONLY"),
        (.organizationalUnitName, "G6"), (.organizationName, "Receipt Forge"), (.countryName, "US"),
    ])
    package static let leafName = NameBuilder([
        (.commonName, "Receipt Forge Prod ECC Mac App Store and iTunes Store Receipt Signing - TEST ONLY"),
        (.organizationalUnitName, "Receipt Forge Worldwide Developer Relations"),
        (.organizationName, "Receipt Forge"), (.countryName, "US"),
    ])
    package static let unrelatedRootName = NameBuilder([
        (.commonName, "Receipt Forge Unrelated Root CA - G3 (never the anchor) - TEST ONLY"),
        (.organizationName, "Receipt Forge"), (.countryName, "US"),
    ])
    package static let xcodeName = NameBuilder([
        (.commonName, "Receipt Forge StoreKit Testing in Xcode - TEST ONLY"),
        (.organizationName, "Receipt Forge"), (.countryName, "US"),
    ])

    package enum Serial {
        static let root: UInt64 = 0x4A57_0001
        static let intermediate: UInt64 = 0x4A57_0002
        static let leaf: UInt64 = 0x4A57_0003
        static let unrelatedRoot: UInt64 = 0x4A57_0004
        static let xcode: UInt64 = 0x4A57_0005
    }

    // MARK: Templates

    package static func intermediateTemplate(issuer: NameBuilder = rootName, serial: UInt64 = Serial.intermediate,
                                     marker: Bool = true) -> CertificateTemplate {
        CertificateTemplate(serialNumber: serial, issuer: issuer, subject: intermediateName,
                            notBefore: CertificateAuthority.caNotBefore, notAfter: CertificateAuthority.caNotAfter,
                            role: .intermediateCA, markerExtensions: marker ? [.appleWWDRIntermediateMarker] : [])
    }

    package static func leafTemplate(serial: UInt64 = Serial.leaf, notBefore: ASN1Time = CertificateAuthority.leafNotBefore,
                             notAfter: ASN1Time = CertificateAuthority.caNotAfter, marker: Bool = true) -> CertificateTemplate {
        CertificateTemplate(serialNumber: serial, issuer: intermediateName, subject: leafName,
                            notBefore: notBefore, notAfter: notAfter, role: .endEntity,
                            markerExtensions: marker ? [.appleReceiptSigningMarker] : [])
    }

    package static func selfSigned(_ name: NameBuilder, serial: UInt64, role: CertificateTemplate.Role) -> CertificateTemplate {
        CertificateTemplate(serialNumber: serial, issuer: name, subject: name, notBefore: CertificateAuthority.caNotBefore,
                            notAfter: CertificateAuthority.caNotAfter, role: role)
    }

    /// Mints the CA from these keys (fresh ones for `forge ca`). Signatures are
    /// deterministic: the same keys give the same certificates.
    public static func mint(rootKey: P256PrivateKey, intermediateKey: P256PrivateKey, leafKey: P256PrivateKey,
                            unrelatedRootKey: P256PrivateKey, xcodeKey: P256PrivateKey)
        throws(RSAPrivateKey.Failure) -> JWSAuthority {
        func selfSignedIdentity(_ name: NameBuilder, _ serial: UInt64, _ role: CertificateTemplate.Role, _ key: P256PrivateKey)
            throws(RSAPrivateKey.Failure) -> P256SigningIdentity {
            P256SigningIdentity(certificate: try selfSigned(name, serial: serial, role: role).build(
                subjectPublicKeyInfo: key.publicKeyInfo, issuerPublicKeyInfo: nil, signedBy: key), key: key)
        }
        let root = try selfSignedIdentity(rootName, Serial.root, .rootCA, rootKey)
        let intermediate = try intermediateTemplate().build(
            subjectPublicKeyInfo: intermediateKey.publicKeyInfo, issuerPublicKeyInfo: rootKey.publicKeyInfo, signedBy: rootKey)
        let leaf = try leafTemplate().build(
            subjectPublicKeyInfo: leafKey.publicKeyInfo, issuerPublicKeyInfo: intermediateKey.publicKeyInfo,
            signedBy: intermediateKey)
        return JWSAuthority(
            root: root,
            intermediate: P256SigningIdentity(certificate: intermediate, key: intermediateKey),
            leaf: P256SigningIdentity(certificate: leaf, key: leafKey),
            unrelatedRoot: try selfSignedIdentity(unrelatedRootName, Serial.unrelatedRoot, .rootCA, unrelatedRootKey),
            xcode: try selfSignedIdentity(xcodeName, Serial.xcode, .selfSignedSigner, xcodeKey))
    }

    /// A brand-new CA with fresh P-256 keys (`forge ca`).
    public static func generate() throws(RSAPrivateKey.Failure) -> JWSAuthority {
        try mint(rootKey: .generate(), intermediateKey: .generate(), leafKey: .generate(),
                 unrelatedRootKey: .generate(), xcodeKey: .generate())
    }

    // MARK: Re-issued certificates for the failure cases

    /// The intermediate re-issued (same name and key) by `issuer`, or without its marker.
    package func intermediate(issuedBy issuer: P256SigningIdentity, issuerName: NameBuilder, serial: UInt64, marker: Bool = true)
        throws(RSAPrivateKey.Failure) -> [UInt8] {
        try JWSAuthority.intermediateTemplate(issuer: issuerName, serial: serial, marker: marker).build(
            subjectPublicKeyInfo: intermediate.key.publicKeyInfo, issuerPublicKeyInfo: issuer.key.publicKeyInfo,
            signedBy: issuer.key)
    }

    /// The leaf re-issued with another validity or without its marker.
    package func leaf(serial: UInt64, notBefore: ASN1Time = CertificateAuthority.leafNotBefore,
              notAfter: ASN1Time = CertificateAuthority.caNotAfter, marker: Bool = true) throws(RSAPrivateKey.Failure) -> [UInt8] {
        try JWSAuthority.leafTemplate(serial: serial, notBefore: notBefore, notAfter: notAfter, marker: marker).build(
            subjectPublicKeyInfo: leaf.key.publicKeyInfo, issuerPublicKeyInfo: intermediate.key.publicKeyInfo,
            signedBy: intermediate.key)
    }

    // MARK: The committed copy

    /// The committed CA, from `EmbeddedJWSAuthority.swift`.
    public static let committed: JWSAuthority = {
        do {
            return try JWSAuthority(files: EmbeddedJWSAuthority.files)
        } catch {
            preconditionFailure("the embedded JWS certificate authority does not load: \(error)")
        }
    }()

    /// Loads the CA from `Certs/`-style files (`jws-root.pem`, `jws-root.key.pem`, …).
    public init(files: [String: [UInt8]]) throws(RSAPrivateKey.Failure) {
        func identity(_ stem: String) throws(RSAPrivateKey.Failure) -> P256SigningIdentity {
            guard let certificate = files["\(stem).pem"].flatMap(pemBody) ?? files["\(stem).cer"],
                  let keyFile = files["\(stem).key.pem"] else {
                throw RSAPrivateKey.Failure(.missingFile, "missing \(stem).pem or \(stem).key.pem")
            }
            do {
                return P256SigningIdentity(certificate: certificate, key: try P256PrivateKey(pem: String(decoding: keyFile, as: UTF8.self)))
            } catch {
                throw RSAPrivateKey.Failure(error.code, "\(stem).key.pem: \(error.description)")
            }
        }
        self.init(root: try identity("jws-root"), intermediate: try identity("jws-intermediate"), leaf: try identity("jws-leaf"),
                  unrelatedRoot: try identity("jws-unrelated-root"), xcode: try identity("jws-xcode"))
    }

    /// For each identity `NAME.cer` (DER), `NAME.pem` and `NAME.key.pem`.
    public var files: [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for (stem, identity) in identities {
            files["\(stem).cer"] = identity.certificate
            files["\(stem).pem"] = Array(pem(identity.certificate, label: "CERTIFICATE").utf8)
            files["\(stem).key.pem"] = Array(identity.key.pem.utf8)
        }
        return files
    }

    /// `EmbeddedJWSAuthority.swift`.
    public var embeddedSource: String {
        embeddedSwiftSource(enumName: "EmbeddedJWSAuthority", swiftPath: "Sources/ReceiptForge/StoreKit2/EmbeddedJWSAuthority.swift",
                            identities: identities.map { ($0.0, $0.1.certificate, $0.1.key.pem) })
    }
}
