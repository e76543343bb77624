import Foundation
import ForgeCA
import OwnedFileTree
import ReceiptForge

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

    /// Every file of the tree for `cases` (the manifest always lists the whole catalogue);
    /// `minted`: cases already minted by this forge (the others are minted here).
    public func files(_ cases: [JWSCase] = JWSCase.catalogue, minted: [MintedJWS] = []) throws -> [(String, [UInt8])] {
        var files: [(String, [UInt8])] = []
        for jwsCase in cases {
            let done = try minted.first { $0.jwsCase == jwsCase } ?? mint(jwsCase)
            files.append(("\(jwsCase.id)/\(jwsCase.fileName)", done.file))
            files.append(("\(jwsCase.id)/case.json", try forgeJSON(done.description)))
        }
        let manifest = JWSManifest(
            now: settings.now, seed: settings.seed, bundleId: app.bundleID, appAppleId: appAppleId, rootCertificate: JWSForge.rootPath,
            cases: JWSCase.catalogue.map { .init(id: $0.id, kind: $0.kind, file: $0.fileName, expectedStatus: $0.expected) })
        files.append(("manifest.json", try forgeJSON(manifest)))
        for (path, certificate) in anchors.sorted(by: { $0.key < $1.key }) { files.append((path, certificate)) }
        return files
    }

    /// Writes `cases` into `directory`: the whole tree atomically when they are the
    /// whole catalogue, else just their files (and the manifest and roots).
    public func write(_ cases: [JWSCase] = JWSCase.catalogue, to directory: URL, minted: [MintedJWS] = [])
        throws -> OutputTree.Report {
        let tree = OutputTree(directory: directory, ownership: .fixtures)
        let files = try files(cases, minted: minted)
        return cases.count == JWSCase.catalogue.count ? try tree.replaceTree(with: files)
                                                      : try tree.update(with: files, replacing: cases.map(\.id))
    }
}
