import Foundation
import Receipt
import ReceiptVerifier
import OwnedFileTree

/// Checks a whole fixture tree with the reference verifier: every case of
/// `manifest.json`, with the inputs its `case.json` lists, against its expected verdict
/// (`forge verify --manifest`).
public enum ManifestVerifier {
    /// One case: what it should be and what the verifier says.
    public struct Row: Encodable, Sendable, Hashable {
        /// The case's id.
        public let id: String
        /// The verdict the manifest expects.
        public let expected: VerdictReason
        /// The verdict the reference verifier reached.
        public let got: VerdictReason
        /// True when `got` equals `expected`.
        public let agrees: Bool
        /// The verifier's detail for `got`.
        public let detail: String
    }

    /// Why the tree could not be checked. Paths in the manifest and case files must be
    /// relative and stay inside the tree (a path outside it is `malformed`).
    public typealias Failure = JSONFileError

    /// One case of a fixture tree, its `case.json` decoded and its paths resolved
    /// (every path checked to stay inside the tree).
    public struct TreeCase: Sendable {
        /// The case's id.
        public let id: String
        /// The verdict the manifest expects.
        public let expected: CaseDescription.Expected
        /// The case's `case.json`.
        public let description: CaseDescription
        /// Where `case.json` is.
        public let caseFile: URL
        /// The receipt's path; for `missing`, where it would be (nothing is there).
        public let receipt: URL
        /// The base64 receipt's path.
        public let receiptBase64: URL
        /// The DER trust anchor, and its PEM twin beside it.
        public let anchor: URL
        /// The PEM trust anchor's path.
        public let anchorPEM: URL
    }

    /// Every case of the tree whose `manifest.json` is at `url`, in manifest order.
    public static func cases(inManifestAt url: URL) throws(Failure) -> [TreeCase] {
        let directory = url.deletingLastPathComponent()
        let manifest: ForgeManifest = try decode(url)
        var cases: [TreeCase] = []
        for entry in manifest.cases {
            try requireInsideTree(entry.caseFile, "caseFile", of: entry.id, in: url.path)
            let caseURL = directory.appendingPathComponent(entry.caseFile)
            let description: CaseDescription = try decode(caseURL)
            try requireInsideTree(description.trustAnchor, "trustAnchor", of: entry.id, in: caseURL.path)
            for (field, path) in [("receipt", description.receipt), ("receiptBase64", description.receiptBase64)] {
                if let path { try requireInsideTree(path, field, of: entry.id, in: caseURL.path) }
            }
            let anchor = directory.appendingPathComponent(description.trustAnchor)
            cases.append(TreeCase(
                id: entry.id, expected: entry.expected, description: description, caseFile: caseURL,
                receipt: directory.appendingPathComponent(description.receipt ?? "\(entry.id)/receipt"),
                receiptBase64: directory.appendingPathComponent(description.receiptBase64 ?? "\(entry.id)/receipt.b64"),
                anchor: anchor, anchorPEM: anchor.deletingPathExtension().appendingPathExtension("pem")))
        }
        return cases
    }

    /// Verifies every case of the tree whose `manifest.json` is at `url`.
    public static func verify(manifestAt url: URL) throws(Failure) -> [Row] {
        var rows: [Row] = []
        for treeCase in try cases(inManifestAt: url) {
            let (entry, description, caseURL) = (treeCase, treeCase.description, treeCase.caseFile)
            let anchorURL = treeCase.anchor
            let anchor: Certificate
            do {
                anchor = try Certificate(try read(anchorURL))
            } catch let error as Failure {
                throw error
            } catch {
                throw .malformed(path: anchorURL.path, reason: "case '\(entry.id)': the trust anchor is not a certificate: \(error)")
            }
            guard let device = DeviceIdentifier(hex: description.device.hex) else {
                throw .malformed(path: caseURL.path, reason: "case '\(entry.id)': device.hex '\(description.device.hex)' is not 32 or 12 hex digits")
            }
            guard let now = ReceiptDate(description.validation.now) else {
                throw .malformed(path: caseURL.path, reason: "case '\(entry.id)': validation.now '\(description.validation.now)' is not an RFC 3339 date")
            }
            let options = ReceiptValidator.Options(bundleIdentifier: description.app.bundleId,
                                                   appVersion: description.app.version, device: .identifier(device))
            let validator = ReceiptValidator(anchors: [anchor], options: options)
            let verdict: Verdict
            do {
                verdict = try validator.validate(fileAt: treeCase.receipt, now: Date(timeIntervalSince1970: TimeInterval(now.secondsSince1970)))
            } catch {
                throw .unreadable(path: error.path, reason: "case '\(entry.id)': \(error.reason)")
            }
            rows.append(Row(id: entry.id, expected: entry.expected.reason, got: verdict.reason,
                            agrees: verdict.reason == entry.expected.reason, detail: verdict.detail))
        }
        return rows
    }

    /// Refuses an absolute path or a `..` in a manifest or case file.
    package static func requireInsideTree(_ relative: String, _ field: String, of id: String, in file: String) throws(Failure) {
        guard TreeOwnership.isSafeRelativePath(relative) else {
            throw .malformed(path: file, reason: "case '\(id)': \(field) '\(relative)' is not a path inside the tree "
                                 + "(absolute paths and '..' are refused)")
        }
    }

    package static func read(_ url: URL) throws(Failure) -> [UInt8] {
        try JSONFile.read(url.path)
    }

    package static func decode<T: Decodable>(_ url: URL) throws(Failure) -> T {
        try JSONFile.decode(T.self, from: try read(url), path: url.path)
    }
}
