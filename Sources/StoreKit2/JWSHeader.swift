/// The protected header of an App Store JWS: `alg` (`ES256`), `x5c` (base64 DER,
/// leaf first), and for Xcode's StoreKit testing `kid` (`Apple_Xcode_Key`). `jwk`
/// and `x5u` are carried only so that fixtures can show a verifier ignoring them;
/// a value of the wrong type there is dropped when decoding, as Apple's library
/// never reads them.
public struct JWSHeader: Codable, Hashable, Sendable {
    /// The signature algorithm: `ES256` is the only one accepted.
    public var alg: String?
    /// The key id: `Apple_Xcode_Key` in Xcode's StoreKit testing data.
    public var kid: String?
    /// The media type, if any; never checked.
    public var typ: String?
    /// The certificate chain, base64 DER, leaf first: three certificates from the App Store.
    public var x5c: [String]?
    /// A key in the header, which a verifier must ignore rather than trust.
    public var jwk: [String: String]?
    /// A URL to a certificate, which a verifier must ignore rather than fetch.
    public var x5u: String?

    /// A header from its fields.
    public init(alg: String?, kid: String? = nil, typ: String? = nil, x5c: [String]? = nil,
                jwk: [String: String]? = nil, x5u: String? = nil) {
        self.alg = alg
        self.kid = kid
        self.typ = typ
        self.x5c = x5c
        self.jwk = jwk
        self.x5u = x5u
    }

    enum CodingKeys: String, CodingKey { case alg, kid, typ, x5c, jwk, x5u }

    /// Decodes the header, dropping `typ`, `jwk` or `x5u` values of the wrong type as Apple's library ignores them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        alg = try container.decodeIfPresent(String.self, forKey: .alg)
        kid = try container.decodeIfPresent(String.self, forKey: .kid)
        typ = try? container.decodeIfPresent(String.self, forKey: .typ)
        x5c = try container.decodeIfPresent([String].self, forKey: .x5c)
        jwk = try? container.decodeIfPresent([String: String].self, forKey: .jwk)
        x5u = try? container.decodeIfPresent(String.self, forKey: .x5u)
    }
}
