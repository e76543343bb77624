import BER
import Foundation
import Receipt

/// A certificate and the key that signs with it.
public struct SigningIdentity: Sendable {
    public let certificate: [UInt8]
    public let key: RSAPrivateKey

    public init(certificate: [UInt8], key: RSAPrivateKey) {
        self.certificate = certificate
        self.key = key
    }

    public var summary: CertificateSummary {
        // Every certificate the forge holds was built or checked by it.
        try! CertificateSummary(der: certificate)
    }
}

/// The throwaway CA, shaped like Apple's: a self-signed root → an intermediate with the
/// WWDR marker extension → an RSA-2048 receipt-signing leaf with the receipt marker;
/// plus an unrelated root (untrusted-root cases) and an Xcode-style self-signed
/// "StoreKit Testing" certificate. Public test keys: never trust them anywhere else.
///
/// The committed copy lives in `Certs/` and, identical, in `EmbeddedCertificateAuthority.swift`
/// (so `forge` works from any directory); `forge ca --out Certs --swift …` regenerates both.
public struct CertificateAuthority: Sendable {
    public let root: SigningIdentity
    public let intermediate: SigningIdentity
    public let leaf: SigningIdentity
    public let unrelatedRoot: SigningIdentity
    public let storeKit: SigningIdentity

    /// The file stems in `Certs/`: `NAME.cer` (DER), `NAME.pem`, `NAME.key.pem`.
    public static let fileStems = ["root", "intermediate", "leaf", "unrelated-root", "storekit"]

    public var identities: [(String, SigningIdentity)] {
        [("root", root), ("intermediate", intermediate), ("leaf", leaf),
         ("unrelated-root", unrelatedRoot), ("storekit", storeKit)]
    }

    public init(root: SigningIdentity, intermediate: SigningIdentity, leaf: SigningIdentity,
                unrelatedRoot: SigningIdentity, storeKit: SigningIdentity) {
        self.root = root
        self.intermediate = intermediate
        self.leaf = leaf
        self.unrelatedRoot = unrelatedRoot
        self.storeKit = storeKit
    }

    // MARK: Names (each says TEST ONLY)

    public static let rootName = NameBuilder([
        (.countryName, "US"), (.organizationName, "Receipt Forge"),
        (.organizationalUnitName, "Receipt Forge Certification Authority"),
        (.commonName, "Receipt Forge Root CA - TEST ONLY"),
    ])
    public static let intermediateName = NameBuilder([
        (.commonName, "Receipt Forge Worldwide Developer Relations Certification Authority - TEST ONLY"),
        (.organizationalUnitName, "G5"), (.organizationName, "Receipt Forge"), (.countryName, "US"),
    ])
    public static let leafName = NameBuilder([
        (.commonName, "Receipt Forge Mac App Store and iTunes Store Receipt Signing - TEST ONLY"),
        (.organizationalUnitName, "Receipt Forge Worldwide Developer Relations"),
        (.organizationName, "Receipt Forge"), (.countryName, "US"),
    ])
    public static let unrelatedRootName = NameBuilder([
        (.countryName, "US"), (.organizationName, "Receipt Forge"),
        (.organizationalUnitName, "Unrelated Certification Authority"),
        (.commonName, "Receipt Forge Unrelated Root CA (never the anchor) - TEST ONLY"),
    ])
    public static let storeKitName = NameBuilder([
        (.commonName, "Receipt Forge StoreKit Testing in Xcode - TEST ONLY"),
        (.organizationName, "Receipt Forge"), (.countryName, "US"),
    ])

    // MARK: Validity of the committed certificates

    /// The committed certificates cover 2020 to the end of 2099, so receipts created
    /// any time the forge accepts (`--now` up to 2089) verify at their creation date.
    public static let caNotBefore = ASN1Time(year: 2020, month: 1, day: 1)
    public static let caNotAfter = ASN1Time(year: 2099, month: 12, day: 31, hour: 23, minute: 59, second: 59)
    public static let leafNotBefore = ASN1Time(year: 2024, month: 1, day: 1)

    /// Serial numbers of the committed certificates; per-case certificates use 0x100+.
    package enum Serial {
        static let root: UInt64 = 0x5246_0001
        static let intermediate: UInt64 = 0x5246_0002
        static let leaf: UInt64 = 0x5246_0003
        static let unrelatedRoot: UInt64 = 0x5246_0004
        static let storeKit: UInt64 = 0x5246_0005
    }

    // MARK: Minting

    /// The certificate template of each committed certificate.
    package static func rootTemplate() -> CertificateTemplate {
        CertificateTemplate(serialNumber: Serial.root, issuer: rootName, subject: rootName,
                            notBefore: caNotBefore, notAfter: caNotAfter, role: .rootCA)
    }

    package static func intermediateTemplate(issuer: NameBuilder = rootName, serial: UInt64 = Serial.intermediate)
        -> CertificateTemplate {
        CertificateTemplate(serialNumber: serial, issuer: issuer, subject: intermediateName,
                            notBefore: caNotBefore, notAfter: caNotAfter, role: .intermediateCA,
                            markerExtensions: [.appleWWDRIntermediateMarker])
    }

    package static func leafTemplate(serial: UInt64 = Serial.leaf, notBefore: ASN1Time = leafNotBefore,
                             notAfter: ASN1Time = caNotAfter, marker: Bool = true) -> CertificateTemplate {
        CertificateTemplate(serialNumber: serial, issuer: intermediateName, subject: leafName,
                            notBefore: notBefore, notAfter: notAfter, role: .endEntity,
                            markerExtensions: marker ? [.appleReceiptSigningMarker] : [])
    }

    package static func unrelatedRootTemplate() -> CertificateTemplate {
        CertificateTemplate(serialNumber: Serial.unrelatedRoot, issuer: unrelatedRootName, subject: unrelatedRootName,
                            notBefore: caNotBefore, notAfter: caNotAfter, role: .rootCA)
    }

    package static func storeKitTemplate() -> CertificateTemplate {
        // Like Xcode's StoreKit certificate: self-signed, signs receipts, is its own anchor.
        CertificateTemplate(serialNumber: Serial.storeKit, issuer: storeKitName, subject: storeKitName,
                            notBefore: caNotBefore, notAfter: caNotAfter, role: .selfSignedSigner)
    }

    /// Mints the whole CA from these keys (fresh ones for `forge ca`).
    public static func mint(rootKey: RSAPrivateKey, intermediateKey: RSAPrivateKey, leafKey: RSAPrivateKey,
                            unrelatedRootKey: RSAPrivateKey, storeKitKey: RSAPrivateKey)
        throws(RSAPrivateKey.Failure) -> CertificateAuthority {
        let rootSPKI = rootKey.publicKeyInfo
        let intermediateSPKI = intermediateKey.publicKeyInfo
        let root = try rootTemplate().build(subjectPublicKeyInfo: rootSPKI, issuerPublicKeyInfo: nil, signedBy: rootKey)
        let intermediate = try intermediateTemplate().build(
            subjectPublicKeyInfo: intermediateSPKI, issuerPublicKeyInfo: rootSPKI, signedBy: rootKey)
        let leaf = try leafTemplate().build(
            subjectPublicKeyInfo: leafKey.publicKeyInfo, issuerPublicKeyInfo: intermediateSPKI, signedBy: intermediateKey)
        let unrelated = try unrelatedRootTemplate().build(
            subjectPublicKeyInfo: unrelatedRootKey.publicKeyInfo, issuerPublicKeyInfo: nil, signedBy: unrelatedRootKey)
        let storeKit = try storeKitTemplate().build(
            subjectPublicKeyInfo: storeKitKey.publicKeyInfo, issuerPublicKeyInfo: nil, signedBy: storeKitKey)
        return CertificateAuthority(
            root: SigningIdentity(certificate: root, key: rootKey),
            intermediate: SigningIdentity(certificate: intermediate, key: intermediateKey),
            leaf: SigningIdentity(certificate: leaf, key: leafKey),
            unrelatedRoot: SigningIdentity(certificate: unrelated, key: unrelatedRootKey),
            storeKit: SigningIdentity(certificate: storeKit, key: storeKitKey))
    }

    /// A brand-new CA with fresh RSA-2048 keys (`forge ca`).
    public static func generate() throws(RSAPrivateKey.Failure) -> CertificateAuthority {
        try mint(rootKey: .generate(), intermediateKey: .generate(), leafKey: .generate(),
                 unrelatedRootKey: .generate(), storeKitKey: .generate())
    }

    /// The intermediate re-issued by another root (same name and key), for chains that
    /// lead to the unrelated root: the committed leaf still verifies under it.
    package func intermediate(issuedBy issuer: SigningIdentity, issuerName: NameBuilder, serial: UInt64)
        throws(RSAPrivateKey.Failure) -> [UInt8] {
        try CertificateAuthority.intermediateTemplate(issuer: issuerName, serial: serial).build(
            subjectPublicKeyInfo: intermediate.key.publicKeyInfo, issuerPublicKeyInfo: issuer.key.publicKeyInfo,
            signedBy: issuer.key)
    }

    /// The leaf re-issued with another validity or without its marker extension.
    package func leaf(serial: UInt64, notBefore: ASN1Time, notAfter: ASN1Time, marker: Bool = true)
        throws(RSAPrivateKey.Failure) -> [UInt8] {
        try CertificateAuthority.leafTemplate(serial: serial, notBefore: notBefore, notAfter: notAfter, marker: marker)
            .build(subjectPublicKeyInfo: leaf.key.publicKeyInfo,
                   issuerPublicKeyInfo: intermediate.key.publicKeyInfo, signedBy: intermediate.key)
    }

    // MARK: The committed copy

    /// The committed CA, from the constants in `EmbeddedCertificateAuthority.swift`.
    public static let committed: CertificateAuthority = {
        do {
            return try CertificateAuthority(files: EmbeddedCertificateAuthority.files)
        } catch {
            preconditionFailure("the embedded certificate authority does not load: \(error)")
        }
    }()

    /// Loads a CA from `Certs/`-style file contents keyed by file name
    /// (`root.cer`, `root.key.pem`, …); `.cer` files may be DER or PEM.
    public init(files: [String: [UInt8]]) throws {
        func identity(_ stem: String) throws -> SigningIdentity {
            guard let certificate = files["\(stem).pem"].flatMap(pemBody) ?? files["\(stem).cer"],
                  let keyFile = files["\(stem).key.pem"] else {
                throw RSAPrivateKey.Failure(.missingFile, "missing \(stem).pem or \(stem).key.pem")
            }
            do {
                return SigningIdentity(certificate: certificate, key: try RSAPrivateKey(pem: String(decoding: keyFile, as: UTF8.self)))
            } catch {
                throw RSAPrivateKey.Failure(error.code, "\(stem).key.pem: \(error.description)")
            }
        }
        self.init(root: try identity("root"), intermediate: try identity("intermediate"), leaf: try identity("leaf"),
                  unrelatedRoot: try identity("unrelated-root"), storeKit: try identity("storekit"))
    }

    /// Loads `Certs/` from a directory.
    public init(directory: URL) throws {
        var files: [String: [UInt8]] = [:]
        for stem in CertificateAuthority.fileStems {
            for name in ["\(stem).pem", "\(stem).key.pem"] {
                files[name] = Array(try Data(contentsOf: directory.appendingPathComponent(name)))
            }
        }
        try self.init(files: files)
    }

    /// The files of `Certs/`: for each identity `NAME.cer` (DER), `NAME.pem`,
    /// `NAME.key.pem`, and a README.
    public var files: [String: [UInt8]] {
        var files: [String: [UInt8]] = ["README.md": Array(CertificateAuthority.readme.utf8)]
        for (stem, identity) in identities {
            files["\(stem).cer"] = identity.certificate
            files["\(stem).pem"] = Array(pem(identity.certificate, label: "CERTIFICATE").utf8)
            files["\(stem).key.pem"] = Array(identity.key.pem.utf8)
        }
        return files
    }

    /// `EmbeddedCertificateAuthority.swift`: the PEM files as Swift string constants.
    public var embeddedSource: String {
        embeddedSwiftSource(enumName: "EmbeddedCertificateAuthority",
                            swiftPath: "Sources/ReceiptForge/EmbeddedCertificateAuthority.swift",
                            identities: identities.map { ($0.0, $0.1.certificate, $0.1.key.pem) })
    }

    public static let readme = """
        # Receipt Forge test CA — PUBLIC TEST KEYS, NEVER TRUST THEM

        Everything here, private keys included, is public. It exists only so that tests can
        mint and verify synthetic App Store receipts. Never install these certificates in a
        trust store, never accept them in production code, never reuse the keys.

        | file | what |
        |---|---|
        | `root.cer` / `root.pem` | self-signed root CA: the trust anchor tests embed |
        | `intermediate.*` | CA issued by the root, with Apple's WWDR marker extension 1.2.840.113635.100.6.2.1 |
        | `leaf.*` | RSA-2048 receipt-signing certificate, marker extension 1.2.840.113635.100.6.11.1 |
        | `unrelated-root.*` | a second, unrelated root (receipts chained to it must be rejected) |
        | `storekit.*` | self-signed Xcode-style "StoreKit Testing" certificate (its own anchor) |
        | `jws-root.*`, `jws-intermediate.*`, `jws-leaf.*` | the P-256 chain that signs StoreKit 2 JWS (`forge jws`): same markers, with key identifiers |
        | `jws-unrelated-root.*` | a second P-256 root (JWS chained to it must be rejected) |
        | `jws-xcode.*` | self-signed P-256 "StoreKit Testing in Xcode" certificate (Xcode-style JWS) |
        | `*.key.pem` | the private keys (PKCS#8, unencrypted) |

        `.cer` is DER, `.pem` the same certificate in PEM. The certificates are valid from
        2020-01-01 (the leaf from 2024-01-01) to 2099-12-31. Regenerate with
        `scripts/regenerate-certs` (`swift run forge ca --out Certs --swift
        Sources/ReceiptForge/EmbeddedCertificateAuthority.swift --jws-swift
        Sources/ReceiptForge/StoreKit2/EmbeddedJWSAuthority.swift`); that also refreshes the
        copies embedded in the forge, which tests keep equal to this folder.

        """
}

/// PEM armour around DER.
public func pem(_ der: [UInt8], label: String) -> String {
    let base64 = Data(der).base64EncodedString()
    var lines: [Substring] = []
    var rest = Substring(base64)
    while !rest.isEmpty {
        lines.append(rest.prefix(64))
        rest = rest.dropFirst(64)
    }
    return "-----BEGIN \(label)-----\n" + lines.joined(separator: "\n") + "\n-----END \(label)-----\n"
}

/// The DER inside PEM armour, or nil.
public func pemBody(_ bytes: [UInt8]) -> [UInt8]? {
    let text = String(decoding: bytes, as: UTF8.self)
    guard text.hasPrefix("-----BEGIN") else { return nil }
    let body = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
    return Data(base64Encoded: body).map(Array.init)
}

/// A generated Swift file embedding PEM certificates and keys as string constants
/// (`EmbeddedCertificateAuthority.swift`, `EmbeddedJWSAuthority.swift`).
package func embeddedSwiftSource(enumName: String, swiftPath: String, identities: [(stem: String, certificate: [UInt8], keyPEM: String)])
    -> String {
    var text = """
        // GENERATED by `forge ca --out Certs --swift Sources/ReceiptForge/EmbeddedCertificateAuthority.swift`
        // (scripts/regenerate-certs). Do not edit: ForgeTests checks this equals Certs/.
        // Public TEST-ONLY keys: never trust them anywhere else.

        enum \(enumName) {
            static let files: [String: [UInt8]] = [

        """
    if swiftPath != "Sources/ReceiptForge/EmbeddedCertificateAuthority.swift" {
        text = text.replacingOccurrences(of: "--swift Sources/ReceiptForge/EmbeddedCertificateAuthority.swift",
                                         with: "--jws-swift \(swiftPath)")
    }
    for (stem, certificate, keyPEM) in identities {
        for (name, contents) in [("\(stem).pem", pem(certificate, label: "CERTIFICATE")), ("\(stem).key.pem", keyPEM)] {
            text += "        \"\(name)\": Array(\"\"\"\n"
            for line in contents.split(separator: "\n") { text += "            \(line)\n" }
            text += "            \n            \"\"\".utf8),\n"
        }
    }
    text += "    ]\n}\n"
    return text
}
