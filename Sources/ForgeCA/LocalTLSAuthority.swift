import BER
import ForgeSupport
import Receipt

/// The TLS authority of `forge serve --tls-port`: a root made on the user's machine and a
/// server certificate for the names Apple's clients call (`api.storekit.apple.com`,
/// `api.storekit-sandbox.apple.com`, `local-testing-base-url`) and for `localhost`,
/// `127.0.0.1` and `::1`.
///
/// Unlike the receipt and JWS CAs, the root's key is random and never committed: a user
/// adds this root to a trust store, and a root whose key is public would let anyone
/// impersonate Apple's hosts there. The root's nameConstraints (critical) limit it
/// further to exactly those host names, so even its own key cannot vouch for another
/// host. (Addresses are not constrained: BoringSSL, under swift-nio-ssl and so under
/// AsyncHTTPClient and Apple's Swift library, refused every chain whose root also
/// constrained `127.0.0.1/32` — seen here; OpenSSL accepted it.)
/// Both keys are P-256; the server certificate lives 397 days (the most Apple's platforms
/// accept for TLS) and is issued again from the same root when it nears its end.
public struct LocalTLSAuthority: Sendable {
    /// The host names the server certificate holds, and the only ones the root permits.
    public static let hostNames = ["api.storekit.apple.com", "api.storekit-sandbox.apple.com", "local-testing-base-url", "localhost"]
    /// `127.0.0.1` and `::1`.
    public static let addresses: [[UInt8]] = [[127, 0, 0, 1], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]]
    /// How long a server certificate lives, in seconds (397 days).
    public static let serverLifetime: Int64 = 397 * 86_400
    /// How long the root lives, in seconds (ten years).
    public static let rootLifetime: Int64 = 3_652 * 86_400

    public let root: SigningIdentity<P256PrivateKey>
    public let server: SigningIdentity<P256PrivateKey>

    public init(root: SigningIdentity<P256PrivateKey>, server: SigningIdentity<P256PrivateKey>) {
        self.root = root
        self.server = server
    }

    static let rootName = NameBuilder([(.organizationName, "Receipt Forge"),
                                       (.commonName, "Receipt Forge local TLS root (this machine only)")])

    /// A new root and server certificate, valid from an hour before `now` (seconds since 1970).
    public static func generate(now: Int64) throws(KeyError) -> LocalTLSAuthority {
        let key = P256PrivateKey.generate()
        let template = CertificateTemplate(
            serialNumber: randomSerial(), issuer: rootName, subject: rootName,
            notBefore: ASN1Time(secondsSince1970: now - 3_600), notAfter: ASN1Time(secondsSince1970: now + rootLifetime),
            role: .rootCA,
            permittedSubtrees: hostNames.map { .dnsName($0) })
        let certificate = try template.build(subjectPublicKeyInfo: key.publicKeyInfo, issuerPublicKeyInfo: nil, signedBy: key)
        let root = SigningIdentity(certificate: certificate, key: key)
        return LocalTLSAuthority(root: root, server: try issueServer(by: root, now: now))
    }

    /// The same root with a new server certificate valid from an hour before `now`.
    public func reissuingServer(now: Int64) throws(KeyError) -> LocalTLSAuthority {
        LocalTLSAuthority(root: root, server: try Self.issueServer(by: root, now: now))
    }

    /// Whether the server certificate is valid at `now` and for a day after.
    public func serverIsCurrent(now: Int64) -> Bool {
        guard let summary = try? CertificateSummary(der: server.certificate),
              let rootSummary = try? CertificateSummary(der: root.certificate) else { return false }
        let soon = ASN1Time(secondsSince1970: now + 86_400)
        return summary.notBefore <= ASN1Time(secondsSince1970: now) && soon <= summary.notAfter && soon <= rootSummary.notAfter
    }

    private static func issueServer(by root: SigningIdentity<P256PrivateKey>, now: Int64) throws(KeyError) -> SigningIdentity<P256PrivateKey> {
        let key = P256PrivateKey.generate()
        let template = CertificateTemplate(
            serialNumber: randomSerial(), issuer: rootName,
            subject: NameBuilder([(.organizationName, "Receipt Forge"), (.commonName, "Receipt Forge local App Store")]),
            notBefore: ASN1Time(secondsSince1970: now - 3_600), notAfter: ASN1Time(secondsSince1970: now + serverLifetime),
            role: .tlsServer,
            subjectAlternativeNames: hostNames.map { .dnsName($0) } + addresses.map { .ipAddress($0) })
        let certificate = try template.build(subjectPublicKeyInfo: key.publicKeyInfo, issuerPublicKeyInfo: root.key.publicKeyInfo,
                                             signedBy: root.key)
        return SigningIdentity(certificate: certificate, key: key)
    }

    private static func randomSerial() -> UInt64 { UInt64.random(in: 1 ... (1 << 62)) }

    // MARK: The directory

    /// The files of the authority's directory, by name: `ca.pem` (the root to trust),
    /// `ca.key.pem`, `server.pem` (the server certificate then the root), `server.key.pem`.
    public var files: [String: [UInt8]] {
        ["ca.pem": Array(PEM.encode(root.certificate, label: "CERTIFICATE").utf8),
         "ca.key.pem": Array(root.key.pem.utf8),
         "server.pem": Array((PEM.encode(server.certificate, label: "CERTIFICATE") + PEM.encode(root.certificate, label: "CERTIFICATE")).utf8),
         "server.key.pem": Array(server.key.pem.utf8)]
    }

    /// The file names `files` holds.
    public static let fileNames: Set<String> = ["ca.pem", "ca.key.pem", "server.pem", "server.key.pem"]

    /// Reads what `files` wrote; the error names the file and what is wrong with it.
    public init(files: [String: [UInt8]]) throws(LocalTLSAuthorityError) {
        func text(_ name: String) throws(LocalTLSAuthorityError) -> String {
            guard let bytes = files[name] else { throw LocalTLSAuthorityError(file: name, "is missing") }
            return String(decoding: bytes, as: UTF8.self)
        }
        func certificate(_ name: String) throws(LocalTLSAuthorityError) -> [UInt8] {
            let pem = try text(name)
            let first = pem.components(separatedBy: "-----END CERTIFICATE-----").first.map { $0 + "-----END CERTIFICATE-----\n" } ?? pem
            do {
                let der = try PEM.decode(first, label: "CERTIFICATE")
                _ = try CertificateSummary(der: der)
                return der
            } catch {
                throw LocalTLSAuthorityError(file: name, "holds no certificate: \(error)")
            }
        }
        func key(_ name: String) throws(LocalTLSAuthorityError) -> P256PrivateKey {
            do {
                return try P256PrivateKey(pem: try text(name))
            } catch let error as LocalTLSAuthorityError {
                throw error
            } catch {
                throw LocalTLSAuthorityError(file: name, "holds no P-256 private key: \(error)")
            }
        }
        let root = SigningIdentity(certificate: try certificate("ca.pem"), key: try key("ca.key.pem"))
        let server = SigningIdentity(certificate: try certificate("server.pem"), key: try key("server.key.pem"))
        guard (try? CertificateSummary(der: root.certificate).subject) == (try? CertificateSummary(der: server.certificate).issuer) else {
            throw LocalTLSAuthorityError(file: "server.pem", "was not issued by the root in ca.pem")
        }
        self.init(root: root, server: server)
    }
}

/// Why a TLS authority directory could not be read: the file and what is wrong with it.
public struct LocalTLSAuthorityError: Error, Hashable, Sendable, CustomStringConvertible {
    public let file: String
    public let problem: String

    public init(file: String, _ problem: String) {
        self.file = file
        self.problem = problem
    }

    public var description: String { "\(file) \(problem)" }
}
