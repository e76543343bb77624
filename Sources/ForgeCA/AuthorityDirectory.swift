import Foundation
import OwnedFileTree

/// The directory `forge ca` writes, `Certs/` for the committed one: both CAs' files and
/// a README saying what they are.
public enum AuthorityDirectory {
    /// Every file of the directory, by name.
    public static func files(receipts: ReceiptAuthority, jws: JWSAuthority) -> [String: [UInt8]] {
        // The two profiles' file stems differ: nothing is merged over.
        var files = receipts.files.merging(jws.files) { receipt, _ in receipt }
        files["README.md"] = Array(readme.utf8)
        return files
    }

    public static let readme = """
        # Receipt Forge test CA — PUBLIC TEST KEYS, NEVER TRUST THEM

        Everything here, private keys included, is public. It exists only so that tests can
        mint and verify synthetic App Store receipts. Never install these certificates in a
        trust store, never accept them in production code, never reuse the keys.

        | file | what |
        |---|---|
        | `root.cer` / `root.pem` | self-signed root CA: the trust anchor tests embed |
        | `intermediate.*` | CA issued by the root, with Apple's WWDR marker extension 1.2.840.113635.100.6.2.1 |
        | `leaf.*` | RSA-2048 receipt-signing certificate, marker extension 1.2.840.113635.100.6.11.1 |
        | `unrelated-root.*` | a second, unrelated root (receipts chained to it must be rejected) |
        | `storekit.*` | self-signed Xcode-style "StoreKit Testing" certificate (its own anchor) |
        | `jws-root.*`, `jws-intermediate.*`, `jws-leaf.*` | the P-256 chain that signs StoreKit 2 JWS (`forge jws`): same markers, with key identifiers |
        | `jws-unrelated-root.*` | a second P-256 root (JWS chained to it must be rejected) |
        | `jws-xcode.*` | self-signed P-256 "StoreKit Testing in Xcode" certificate (Xcode-style JWS) |
        | `*.key.pem` | the private keys (PKCS#8, unencrypted) |

        `.cer` is DER, `.pem` the same certificate in PEM. The certificates are valid from
        2020-01-01 (the leaf from 2024-01-01) to 2099-12-31. Regenerate with
        `scripts/regenerate-certs` (`swift run forge ca --out Certs --swift
        Sources/ReceiptForge/EmbeddedCertificateAuthority.swift --jws-swift
        Sources/ReceiptForge/StoreKit2/EmbeddedJWSAuthority.swift`); that also refreshes the
        copies embedded in the forge, which tests keep equal to this folder.

        """
}

extension TreeOwnership {
    /// A certificate-authority directory (`forge ca`). One from before `.forge-owned`
    /// is recognised by its `README.md` starting with the forge's heading; owned are
    /// that README and the CAs' certificate and key files.
    public static let certificateAuthority = TreeOwnership { directory, entries in
        let heading = AuthorityDirectory.readme.split(separator: "\n").first.map(String.init) ?? ""
        guard entries.contains("README.md"), let data = FileManager.default.contents(atPath: directory + "/README.md"),
              String(decoding: data.prefix(heading.utf8.count), as: UTF8.self) == heading else { return nil }
        var owned: Set<String> = ["README.md"]
        for member in AuthorityProfile.receipts.members + AuthorityProfile.jws.members {
            owned.formUnion(["\(member.stem).cer", "\(member.stem).pem", "\(member.stem).key.pem"])
        }
        return owned
    }
}
