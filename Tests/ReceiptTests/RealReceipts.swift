import Foundation
import XCTest

/// The 25 real Apple receipts in `../shared/real-receipts` (relative to the package
/// root) and their manifest. Missing folder: the test fails under CI, skips otherwise.
struct RealReceipts {
    struct Entry: Decodable {
        struct Device: Decodable {
            let platform: String
            let hex: String
        }
        let file: String
        let environment: String?
        let bundleId: String?
        let bundleIdDER: String?
        let appVersion: String?
        let originalAppVersion: String?
        let creationDate: String?
        let expirationDate: String?
        let opaque: String?
        let sha1Hash: String?
        let inAppCount: Int?
        let inAppProductIds: [String]?
        let encoding: String?
        let digestAlgorithm: String?
        let signatureAlgorithm: String?
        let certificateCount: Int?
        let signedAttributes: Bool?
        let expectedSignature: String
        let deviceIdentifier: Device?
    }

    struct Manifest: Decodable {
        let version: Int
        let receipts: [Entry]
    }

    let directory: URL
    let manifest: Manifest

    static func load(filePath: String = #filePath) throws -> RealReceipts {
        let packageRoot = URL(fileURLWithPath: filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let directory = packageRoot.appendingPathComponent("../shared/real-receipts").standardizedFileURL
        let manifestURL = directory.appendingPathComponent("manifest.json")
        guard FileManager.default.fileExists(atPath: manifestURL.path) else {
            let message = "real receipts not found at \(directory.path)"
            if ProcessInfo.processInfo.environment["CI"] != nil {
                XCTFail(message)
                throw XCTSkip(message + " (failed: CI is set)")
            }
            throw XCTSkip(message)
        }
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: manifestURL))
        return RealReceipts(directory: directory, manifest: manifest)
    }

    /// The receipt's bytes (base64 files decoded).
    func bytes(of entry: Entry) throws -> [UInt8] {
        let data = try Data(contentsOf: directory.appendingPathComponent(entry.file))
        if entry.file.hasSuffix(".b64") {
            let text = String(decoding: data, as: UTF8.self).filter { !$0.isWhitespace }
            return Array(Data(base64Encoded: text) ?? Data())
        }
        return Array(data)
    }

    var pkcs7Entries: [Entry] { manifest.receipts.filter { $0.expectedSignature == "valid" } }
}
