import Foundation

/// The StoreKit 2 tree (`forge jws`, default `Fixtures/storekit2`): per case
/// `NAME/signed.jws` or `NAME/notification.json` and `NAME/case.json`; `manifest.json`;
/// the roots under `Certs/`. Written through `OutputTree`, so the forge replaces only
/// files it wrote and a whole-tree write is atomic.
extension JWSForge {
    public func mintAll() throws(RSAPrivateKey.Failure) -> [MintedJWS] {
        var minted: [MintedJWS] = []
        for jwsCase in JWSCase.catalogue { minted.append(try mint(jwsCase)) }
        return minted
    }

    /// Every file of the tree for `cases` (the manifest always lists the whole catalogue).
    public func files(_ cases: [JWSCase] = JWSCase.catalogue) throws -> [(String, [UInt8])] {
        let everything = try mintAll()
        let ids = Set(cases.map(\.id))
        var files: [(String, [UInt8])] = []
        for minted in everything where ids.contains(minted.jwsCase.id) {
            files.append(("\(minted.jwsCase.id)/\(minted.jwsCase.fileName)", minted.file))
            files.append(("\(minted.jwsCase.id)/case.json", try forgeJSON(minted.description)))
        }
        let manifest = JWSManifest(
            now: settings.now, seed: settings.seed, bundleId: app.bundleID, appAppleId: appAppleId, rootCertificate: JWSForge.rootPath,
            cases: everything.map { .init(id: $0.jwsCase.id, kind: $0.jwsCase.kind, file: $0.jwsCase.fileName,
                                          expectedStatus: $0.jwsCase.expected) })
        files.append(("manifest.json", try forgeJSON(manifest)))
        for (path, certificate) in anchors.sorted(by: { $0.key < $1.key }) { files.append((path, certificate)) }
        return files
    }

    /// Writes `cases` into `directory`: the whole tree atomically when they are the
    /// whole catalogue, else just their files (and the manifest and roots).
    public func write(_ cases: [JWSCase] = JWSCase.catalogue, to directory: URL) throws -> OutputTree.Report {
        let tree = OutputTree(directory: directory)
        let files = try files(cases)
        return cases.count == JWSCase.catalogue.count ? try tree.replaceTree(with: files)
                                                      : try tree.update(with: files, replacing: cases.map(\.id))
    }
}
