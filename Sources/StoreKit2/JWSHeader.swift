/// The protected header of an App Store JWS: `alg` (`ES256`), `x5c` (base64 DER,
/// leaf first), and for Xcode's StoreKit testing `kid` (`Apple_Xcode_Key`). `jwk`
/// and `x5u` are carried only so that fixtures can show a verifier ignoring them;
/// a value of the wrong type there is dropped when decoding, as Apple's library
/// never reads them.
public struct JWSHeader: Codable, Hashable, Sendable {
    public var alg: String?
    public var kid: String?
    public var typ: String?
    public var x5c: [String]?
    public var jwk: [String: String]?
    public var x5u: String?

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
