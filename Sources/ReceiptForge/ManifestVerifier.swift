import Foundation
import Receipt
import ReceiptVerifier

/// Checks a whole fixture tree with the reference verifier: every case of
/// `manifest.json`, with the inputs its `case.json` lists, against its expected verdict
/// (`forge verify --manifest`).
public enum ManifestVerifier {
    /// One case: what it should be and what the verifier says.
    public struct Row: Encodable, Sendable, Hashable {
        public let id: String
        public let expected: VerdictReason
        public let got: VerdictReason
        public let agrees: Bool
        public let detail: String
    }

    /// Why the tree could not be checked. Paths in the manifest and case files must be
    /// relative and stay inside the tree.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// A file that cannot be read (exit 74).
        case unreadable(path: String, reason: String)
        /// A manifest or case file that does not decode, names a path outside the
        /// tree, or lists an unusable anchor (exit 65).
        case malformed(path: String, reason: String)

        public var isIOError: Bool {
            if case .unreadable = self { return true }
            return false
        }

        public var description: String {
            switch self {
            case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
            case .malformed(let path, let reason): return "\(path): \(reason)"
            }
        }
    }

    /// Verifies every case of the tree whose `manifest.json` is at `url`.
    public static func verify(manifestAt url: URL) throws(Failure) -> [Row] {
        let directory = url.deletingLastPathComponent()
        let manifest: ForgeManifest = try decode(url)
        var rows: [Row] = []
        for entry in manifest.cases {
            try requireInsideTree(entry.caseFile, "caseFile", of: entry.id, in: url.path)
            let caseURL = directory.appendingPathComponent(entry.caseFile)
            let description: CaseDescription = try decode(caseURL)
            try requireInsideTree(description.trustAnchor, "trustAnchor", of: entry.id, in: caseURL.path)
            if let receipt = description.receipt { try requireInsideTree(receipt, "receipt", of: entry.id, in: caseURL.path) }
            let anchorURL = directory.appendingPathComponent(description.trustAnchor)
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
            let receiptURL = directory.appendingPathComponent(description.receipt ?? "\(entry.id)/receipt")
            let verdict: Verdict
            do {
                verdict = try validator.validate(fileAt: receiptURL, now: Date(timeIntervalSince1970: TimeInterval(now.secondsSince1970)))
            } catch {
                throw .unreadable(path: error.path, reason: "case '\(entry.id)': \(error.reason)")
            }
            rows.append(Row(id: entry.id, expected: entry.expected.reason, got: verdict.reason,
                            agrees: verdict.reason == entry.expected.reason, detail: verdict.detail))
        }
        return rows
    }

    /// Refuses an absolute path or a `..` in a manifest or case file.
    static func requireInsideTree(_ relative: String, _ field: String, of id: String, in file: String) throws(Failure) {
        guard TreeOwnership.isSafeRelativePath(relative) else {
            throw .malformed(path: file, reason: "case '\(id)': \(field) '\(relative)' is not a path inside the tree "
                                 + "(absolute paths and '..' are refused)")
        }
    }

    static func read(_ url: URL) throws(Failure) -> [UInt8] {
        do {
            guard let bytes = try FileReading.contents(atPath: url.path) else {
                throw Failure.unreadable(path: url.path, reason: "no such file")
            }
            return bytes
        } catch let error as FileReadError {
            throw .unreadable(path: error.path, reason: error.reason)
        } catch let error as Failure {
            throw error
        } catch {
            throw .unreadable(path: url.path, reason: "\(error)")
        }
    }

    static func decode<T: Decodable>(_ url: URL) throws(Failure) -> T {
        let bytes = try read(url)
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw .malformed(path: url.path, reason: "does not decode: " + jsonLocation(of: error))
        } catch {
            throw .malformed(path: url.path, reason: "does not decode: \(error)")
        }
    }

    /// A decoding error as `$.cases[3].expected: …`.
    public static func jsonLocation(of error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.reduce("$") { text, key in
                key.intValue.map { "\(text)[\($0)]" } ?? "\(text).\(key.stringValue)"
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath)): the field '\(key.stringValue)' is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?).flatMap { $0.userInfo[NSDebugDescriptionErrorKey] as? String }
            return "\(path(context.codingPath)): \(context.debugDescription)" + (underlying.map { " (\($0))" } ?? "")
        @unknown default:
            return "\(error)"
        }
    }
}
