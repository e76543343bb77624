import Foundation
import OwnedFileTree
import StrictJSON

extension MintedFixture {
    /// `ID/NAME` for each of `caseFiles`, then `ID/case.json`, keyed by path relative to the tree.
    public func files() throws -> [(String, [UInt8])] {
        caseFiles.map { ("\(id)/\($0.name)", $0.contents) } + [("\(id)/case.json", try forgeJSON(description))]
    }
}

extension FixtureForge {
    /// Every case of the catalogue, minted in order.
    public func mintAll() throws -> [Minted] {
        try Case.catalogue.map(mint)
    }

    /// Every file of a tree holding `cases`, in catalogue order, then `manifest.json`
    /// and the anchors. `minted`: cases this forge minted already (the others are
    /// minted here); `progress` sees each case as its files are made.
    public func files(_ cases: [Case] = Case.catalogue, minted: [Minted] = [],
                      progress: (Minted) -> Void = { _ in }) throws -> [(String, [UInt8])] {
        var files: [(String, [UInt8])] = []
        for fixtureCase in Self.selection(cases) {
            let done = try minted.first { $0.id == fixtureCase.id } ?? mint(fixtureCase)
            progress(done)
            files += try done.files()
        }
        return files + (try sharedTreeFiles(manifest: manifest, anchors: anchors))
    }

    /// Mints `cases` (default: the whole catalogue) and writes them into `directory`.
    /// The whole catalogue replaces the forge's tree there atomically (see `OutputTree`
    /// for what it may touch); fewer cases update only their own folders, the manifest
    /// and the anchors. Minting errors are thrown as they come, write errors as `OutputError`.
    @discardableResult
    public func write(_ cases: [Case] = Case.catalogue, to directory: URL, minted: [Minted] = [],
                      progress: (Minted) -> Void = { _ in }) throws -> OutputTree.Report {
        let selected = Self.selection(cases)
        let files = try files(selected, minted: minted, progress: progress)
        let tree = OutputTree(directory: directory, ownership: .fixtures)
        return selected.count == Case.catalogue.count ? try tree.replaceTree(with: files)
                                                      : try tree.update(with: files, replacing: selected.map(\.id))
    }

    /// The catalogue's cases named in `cases`, once each, in catalogue order.
    private static func selection(_ cases: [Case]) -> [Case] {
        let ids = Set(cases.map(\.id))
        return Case.catalogue.filter { ids.contains($0.id) }
    }
}

/// The files every fixture tree holds beside its cases: `manifest.json` and the anchors
/// (sorted by path).
public func sharedTreeFiles(manifest: some Encodable, anchors: [String: [UInt8]]) throws -> [(String, [UInt8])] {
    [("manifest.json", try forgeJSON(manifest))] + anchors.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
}

/// What a fixture tree owns, so the forge replaces only what it wrote.
extension TreeOwnership {
    /// A fixture tree (`forge --all`, `forge --case`, `forge mutate`). One from before
    /// `.forge-owned` is recognised by its `manifest.json` naming the generator
    /// `receipt-forge`; owned are the manifest, the anchors under `Certs/` and each case's
    /// three files.
    public static let fixtures = TreeOwnership { directory, entries throws(OutputError) in
        let path = directory + "/manifest.json"
        guard entries.contains("manifest.json"), let data = FileManager.default.contents(atPath: path),
              let manifest = try? JSONParser.parse(Array(data)),
              manifest["generator"]?.stringValue == "receipt-forge" else { return nil }
        var owned: Set<String> = ["manifest.json", "Certs/root.cer", "Certs/root.pem", "Certs/storekit.cer", "Certs/storekit.pem"]
        for entry in manifest["cases"]?.arrayValue ?? [] {
            guard let id = entry["id"]?.stringValue, isSafeRelativePath(id), !id.contains("/") else {
                throw .badOwnershipRecord(path: path, reason: "a case id is not a plain folder name")
            }
            owned.formUnion(["\(id)/receipt", "\(id)/receipt.b64", "\(id)/case.json"])
        }
        return owned
    }
}
