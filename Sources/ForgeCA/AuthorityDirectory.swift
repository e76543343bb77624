import Foundation
import OwnedFileTree

extension TreeOwnership {
    /// A certificate-authority directory (`forge ca`). One from before `.forge-owned`
    /// is recognised by its `README.md` starting with the forge's heading; owned are
    /// that README and the CAs' certificate and key files.
    public static let certificateAuthority = TreeOwnership { directory, entries in
        let heading = CertificateAuthority.readme.split(separator: "\n").first.map(String.init) ?? ""
        guard entries.contains("README.md"), let data = FileManager.default.contents(atPath: directory + "/README.md"),
              String(decoding: data.prefix(heading.utf8.count), as: UTF8.self) == heading else { return nil }
        var owned: Set<String> = ["README.md"]
        for stem in CertificateAuthority.fileStems + JWSAuthority.fileStems {
            owned.formUnion(["\(stem).cer", "\(stem).pem", "\(stem).key.pem"])
        }
        return owned
    }
}
