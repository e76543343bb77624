import BER
import Foundation
import ForgeSupport
import Receipt

/// The RSA-2048 CA that signs receipts.
public typealias ReceiptAuthority = CertificateAuthority<RSAPrivateKey>
/// The P-256 CA that signs StoreKit 2 JWS.
public typealias JWSAuthority = CertificateAuthority<P256PrivateKey>

/// A throwaway CA shaped like Apple's: a self-signed root → an intermediate (pathLen 0,
/// WWDR marker 1.2.840.113635.100.6.2.1) → a leaf (CA:FALSE, receipt-signing marker
/// 1.2.840.113635.100.6.11.1), every certificate with authority and subject key
/// identifiers; plus an unrelated root (untrusted-root cases) and a self-signed
/// certificate like Xcode's "StoreKit Testing" one (`storeKit`). `profile` names them; `Key` is
/// the kind of key they hold. Signatures are deterministic, so the same keys always
/// mint the same certificates. Public test keys: never trust them anywhere else.
///
/// The committed CAs live in `Certs/` and, identical, in the generated
/// `Embedded….swift` files (so `forge` works from any directory);
/// `scripts/regenerate-certs` (`forge ca`) regenerates both.
public struct CertificateAuthority<Key: SigningKey>: Sendable {
    public let profile: AuthorityProfile
    public let root: SigningIdentity<Key>
    public let intermediate: SigningIdentity<Key>
    public let leaf: SigningIdentity<Key>
    public let unrelatedRoot: SigningIdentity<Key>
    public let storeKit: SigningIdentity<Key>

    public init(profile: AuthorityProfile, root: SigningIdentity<Key>, intermediate: SigningIdentity<Key>,
                leaf: SigningIdentity<Key>, unrelatedRoot: SigningIdentity<Key>, storeKit: SigningIdentity<Key>) {
        self.profile = profile
        self.root = root
        self.intermediate = intermediate
        self.leaf = leaf
        self.unrelatedRoot = unrelatedRoot
        self.storeKit = storeKit
    }

    /// Each identity with its file stem, in the order of `AuthorityProfile.members`.
    public var identities: [(stem: String, identity: SigningIdentity<Key>)] {
        zip(profile.members, [root, intermediate, leaf, unrelatedRoot, storeKit]).map { ($0.stem, $1) }
    }

    // MARK: Minting

    /// Mints the CA `profile` describes from these keys (fresh ones for `forge ca`).
    public static func mint(_ profile: AuthorityProfile, rootKey: Key, intermediateKey: Key, leafKey: Key,
                            unrelatedRootKey: Key, storeKitKey: Key) throws(KeyError) -> Self {
        func selfSigned(_ member: AuthorityProfile.Member, _ role: CertificateTemplate.Role, _ key: Key)
            throws(KeyError) -> SigningIdentity<Key> {
            SigningIdentity(certificate: try profile.selfSignedTemplate(member, role: role).build(
                subjectPublicKeyInfo: key.publicKeyInfo, issuerPublicKeyInfo: nil, signedBy: key), key: key)
        }
        let intermediate = try profile.intermediateTemplate().build(
            subjectPublicKeyInfo: intermediateKey.publicKeyInfo, issuerPublicKeyInfo: rootKey.publicKeyInfo, signedBy: rootKey)
        let leaf = try profile.leafTemplate().build(
            subjectPublicKeyInfo: leafKey.publicKeyInfo, issuerPublicKeyInfo: intermediateKey.publicKeyInfo,
            signedBy: intermediateKey)
        return Self(profile: profile, root: try selfSigned(profile.root, .rootCA, rootKey),
                    intermediate: SigningIdentity(certificate: intermediate, key: intermediateKey),
                    leaf: SigningIdentity(certificate: leaf, key: leafKey),
                    unrelatedRoot: try selfSigned(profile.unrelatedRoot, .rootCA, unrelatedRootKey),
                    storeKit: try selfSigned(profile.storeKit, .selfSignedSigner, storeKitKey))
    }

    /// A brand-new CA with fresh keys (`forge ca`).
    public static func generate(_ profile: AuthorityProfile) throws(KeyError) -> Self {
        try mint(profile, rootKey: .generate(), intermediateKey: .generate(), leafKey: .generate(),
                 unrelatedRootKey: .generate(), storeKitKey: .generate())
    }

    // MARK: Re-issued certificates for the failure cases

    /// The intermediate re-issued (same name and key) by `issuer`, or without its marker.
    package func intermediate(issuedBy issuer: SigningIdentity<Key>, issuerName: NameBuilder, serial: UInt64,
                              marker: Bool = true) throws(KeyError) -> [UInt8] {
        try profile.intermediateTemplate(issuer: issuerName, serial: serial, marker: marker).build(
            subjectPublicKeyInfo: intermediate.key.publicKeyInfo, issuerPublicKeyInfo: issuer.key.publicKeyInfo,
            signedBy: issuer.key)
    }

    /// The leaf re-issued with another validity or without its marker.
    package func leaf(serial: UInt64, notBefore: ASN1Time = AuthorityProfile.leafNotBefore,
                      notAfter: ASN1Time = AuthorityProfile.caNotAfter, marker: Bool = true) throws(KeyError) -> [UInt8] {
        try profile.leafTemplate(serial: serial, notBefore: notBefore, notAfter: notAfter, marker: marker).build(
            subjectPublicKeyInfo: leaf.key.publicKeyInfo, issuerPublicKeyInfo: intermediate.key.publicKeyInfo,
            signedBy: intermediate.key)
    }

    // MARK: Files

    /// For each identity `STEM.cer` (DER), `STEM.pem` and `STEM.key.pem`.
    public var files: [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for (stem, identity) in identities {
            files["\(stem).cer"] = identity.certificate
            files["\(stem).pem"] = Array(PEM.encode(identity.certificate, label: "CERTIFICATE").utf8)
            files["\(stem).key.pem"] = Array(identity.key.pem.utf8)
        }
        return files
    }

    /// Loads the CA `profile` describes from `Certs/`-style file contents keyed by file
    /// name: per identity `STEM.pem` (or, without it, the DER `STEM.cer`) and `STEM.key.pem`.
    public init(_ profile: AuthorityProfile, files: [String: [UInt8]]) throws(AuthorityFileError) {
        func identity(_ member: AuthorityProfile.Member) throws(AuthorityFileError) -> SigningIdentity<Key> {
            let pemName = "\(member.stem).pem", derName = "\(member.stem).cer", keyName = "\(member.stem).key.pem"
            let certificate: [UInt8]
            var certificateName = pemName
            if let pemFile = files[pemName] {
                do throws(PEMError) {
                    certificate = try PEM.decode(String(decoding: pemFile, as: UTF8.self), label: "CERTIFICATE")
                } catch {
                    throw AuthorityFileError(file: pemName, problem: .pem(error))
                }
            } else if let derFile = files[derName] {
                certificate = derFile
                certificateName = derName
            } else {
                throw AuthorityFileError(file: pemName, problem: .missing)
            }
            do throws(BERError) {
                _ = try CertificateSummary(der: certificate)
            } catch {
                throw AuthorityFileError(file: certificateName, problem: .certificate(error))
            }
            guard let keyFile = files[keyName] else { throw AuthorityFileError(file: keyName, problem: .missing) }
            do throws(KeyError) {
                return SigningIdentity(certificate: certificate, key: try Key(pem: String(decoding: keyFile, as: UTF8.self)))
            } catch {
                throw AuthorityFileError(file: keyName, problem: .key(error))
            }
        }
        self.init(profile: profile, root: try identity(profile.root), intermediate: try identity(profile.intermediate),
                  leaf: try identity(profile.leaf), unrelatedRoot: try identity(profile.unrelatedRoot),
                  storeKit: try identity(profile.storeKit))
    }

    /// Loads the CA `profile` describes from a `Certs/`-style directory.
    public init(_ profile: AuthorityProfile, directory: URL) throws {
        var files: [String: [UInt8]] = [:]
        for member in profile.members {
            for name in ["\(member.stem).pem", "\(member.stem).key.pem"] {
                files[name] = Array(try Data(contentsOf: directory.appendingPathComponent(name)))
            }
        }
        try self.init(profile, files: files)
    }

    /// The committed CA of `profile`, from its generated `Embedded….swift`.
    fileprivate static func loadCommitted(_ profile: AuthorityProfile) -> Self {
        do {
            return try Self(profile, files: profile.committedFiles)
        } catch {
            preconditionFailure("the embedded \(profile.embeddedEnumName) does not load: \(error)")
        }
    }
}

extension CertificateAuthority where Key == RSAPrivateKey {
    /// The committed receipt CA (`Certs/root.*` …, compiled in from `EmbeddedCertificateAuthority.swift`).
    public static var committed: Self { committedReceiptAuthority }

    /// A brand-new receipt CA with fresh RSA-2048 keys (`forge ca`).
    public static func generate() throws(KeyError) -> Self { try generate(.receipts) }
}

extension CertificateAuthority where Key == P256PrivateKey {
    /// The committed JWS CA (`Certs/jws-*`, compiled in from `EmbeddedJWSAuthority.swift`).
    public static var committed: Self { committedJWSAuthority }

    /// A brand-new JWS CA with fresh P-256 keys (`forge ca`).
    public static func generate() throws(KeyError) -> Self { try generate(.jws) }
}

// Generic types cannot hold static stored properties: the committed CAs are loaded once here.
private let committedReceiptAuthority = ReceiptAuthority.loadCommitted(.receipts)
private let committedJWSAuthority = JWSAuthority.loadCommitted(.jws)

/// Why a CA's files (`Certs/`, or the copy compiled into the forge) do not load: which
/// file, and what is wrong with it.
public struct AuthorityFileError: Error, CustomStringConvertible {
    public enum Problem: Sendable {
        case missing
        /// `STEM.pem` is not one PEM `CERTIFICATE`.
        case pem(PEMError)
        /// The certificate's DER does not parse.
        case certificate(BERError)
        case key(KeyError)
    }

    public let file: String
    public let problem: Problem

    public var description: String {
        switch problem {
        case .missing: return "\(file) is missing"
        case .pem(let error): return "\(file): \(error)"
        case .certificate(let error): return "\(file): not a certificate: \(error)"
        case .key(let error): return "\(file): \(error)"
        }
    }
}
