import Foundation
import OwnedFileTree
import StrictJSON

/// The files of a fixture tree, and how the forge recognises one it wrote.
extension OutputTree {
    /// The files of a case: `NAME/receipt`, `NAME/receipt.b64` (when there is a file)
    /// and `NAME/case.json`, keyed by path relative to the tree.
    public static func files(of minted: MintedCase) throws -> [(String, [UInt8])] {
        var files: [(String, [UInt8])] = []
        if let receipt = minted.receipt {
            files.append(("\(minted.forgeCase.id)/receipt", receipt))
            files.append(("\(minted.forgeCase.id)/receipt.b64", Array((Data(receipt).base64EncodedString() + "\n").utf8)))
        }
        files.append(("\(minted.forgeCase.id)/case.json", try forgeJSON(minted.description)))
        return files
    }

    /// The shared files: `manifest.json` (the whole catalogue) and the trust anchors.
    public static func sharedFiles(forge: Forge, cases: [MintedCase]) throws -> [(String, [UInt8])] {
        var files = [("manifest.json", try forgeJSON(ForgeManifest(cases: cases, settings: forge.settings, app: forge.app)))]
        for (name, certificate) in forge.anchors.sorted(by: { $0.key < $1.key }) {
            files.append(("Certs/\(name)", certificate))
        }
        return files
    }

}

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
