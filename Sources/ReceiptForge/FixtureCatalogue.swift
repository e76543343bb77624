/// A case of a fixture catalogue: one row of the declarative table that drives a forge,
/// its manifest, `forge list` and the tests. The receipt catalogue (`ForgeCase`) and the
/// StoreKit 2 one (`JWSCase`) share this shape; what they sign and how they break it
/// stays theirs.
public protocol FixtureCase: Sendable {
    /// What a correct verifier says about the case: a verdict reason, a JWS status.
    associatedtype Expected: Sendable
    /// The case's folder in the tree and its name on the command line.
    var id: String { get }
    /// One line: what the case is, and why a verifier must say what it should.
    var summary: String { get }
    /// What a correct verifier says about the case.
    var expected: Expected { get }
    /// Every case, in the order they are listed and minted.
    static var catalogue: [Self] { get }
}

extension FixtureCase {
    /// The case named `id`, or nil.
    public static func named(_ id: String) -> Self? { catalogue.first { $0.id == id } }
}

/// One minted case: the files of its folder in the tree.
public protocol MintedFixture: Sendable {
    /// `case.json`.
    associatedtype Description: Encodable
    /// The case's id: its folder in the tree.
    var id: String { get }
    /// The case's files other than `case.json`, by name inside its folder.
    var caseFiles: [(name: String, contents: [UInt8])] { get }
    /// The case's `case.json`.
    var description: Description { get }
}

/// A forge that mints its case catalogue into a fixture tree: per case `ID/…` and
/// `ID/case.json`, then `manifest.json` and the trust anchors.
public protocol FixtureForge: Sendable {
    /// The catalogue's case type.
    associatedtype Case: FixtureCase
    /// What minting one case gives.
    associatedtype Minted: MintedFixture
    /// `manifest.json`.
    associatedtype Manifest: Encodable
    /// The same forge and case always give the same bytes.
    func mint(_ fixtureCase: Case) throws -> Minted
    /// `manifest.json`: it describes the whole catalogue, whichever cases a tree holds.
    var manifest: Manifest { get }
    /// The trust anchors every tree holds, by path relative to it (`Certs/…`).
    var anchors: [String: [UInt8]] { get }
}
