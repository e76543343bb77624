import Foundation
import XCTest

/// The real Apple receipts in `../shared/real-receipts` (beside the checkout, as CI
/// lays it out). When the folder is missing, tests fail if `CI` is set and are
/// skipped otherwise: a CI run must never pass by silently testing nothing. Every
/// accessor checks; call them outside `XCTUnwrap`, which would turn the skip into a
/// failure.
public enum RealReceipts {
    /// One entry of `manifest.json` (see `../shared/real-receipts/README.md`).
    public struct Entry: Decodable, Sendable {
        public struct DeviceIdentifier: Decodable, Sendable {
            public let platform: String
            public let hex: String
        }

        public let file: String
        public let sha256: String?
        public let environment: String?
        public let bundleId: String?
        public let bundleIdDER: String?
        public let appVersion: String?
        public let originalAppVersion: String?
        public let creationDate: String?
        public let expirationDate: String?
        public let opaque: String?
        public let sha1Hash: String?
        public let inAppCount: Int?
        public let inAppProductIds: [String]?
        public let encoding: String?
        public let digestAlgorithm: String?
        public let signatureAlgorithm: String?
        public let certificateCount: Int?
        public let signedAttributes: Bool?
        public let trustAnchor: String?
        public let validateAt: String?
        public let expectedSignature: String
        public let deviceIdentifier: DeviceIdentifier?
        public let expectedDeviceHash: String?

        /// The file name without its folder.
        public var name: String { (file as NSString).lastPathComponent }
        /// True for a PKCS#7 receipt (not an iOS 6 plist transaction receipt).
        public var isPKCS7: Bool { expectedSignature == "valid" }
    }

    struct Manifest: Decodable {
        let version: Int
        let receipts: [Entry]
    }

    /// `../shared/real-receipts`, resolved from this file's location.
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // TestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .deletingLastPathComponent()  // its parent
        .appendingPathComponent("shared/real-receipts")

    /// The folder, or a failure (CI) / skip (elsewhere) when it is missing.
    public static func requireDirectory(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent("manifest.json").path) {
            return directory
        }
        let message = "real receipts not found at \(directory.path) (expected beside the checkout)"
        if ProcessInfo.processInfo.environment["CI"] != nil {
            XCTFail(message + "; CI is set, so this is a failure", file: file, line: line)
            throw MissingRealReceipts(message: message)
        }
        throw XCTSkip(message)
    }

    /// Every manifest entry.
    public static func entries(file: StaticString = #filePath, line: UInt = #line) throws -> [Entry] {
        let directory = try requireDirectory(file: file, line: line)
        let data = try Data(contentsOf: directory.appendingPathComponent("manifest.json"))
        let manifest = try decodeJSON(Manifest.self, from: data)
        return manifest.receipts
    }

    /// The bytes of an entry's file (base64 files decoded).
    public static func bytes(of entry: Entry, file: StaticString = #filePath, line: UInt = #line) throws -> [UInt8] {
        let directory = try requireDirectory(file: file, line: line)
        let data = try Data(contentsOf: directory.appendingPathComponent(entry.file))
        if entry.file.hasSuffix(".b64") {
            let text = String(decoding: data, as: UTF8.self).filter { !$0.isWhitespace }
            guard let decoded = Data(base64Encoded: text) else { throw MissingRealReceipts(message: "bad base64 in \(entry.file)") }
            return Array(decoded)
        }
        return Array(data)
    }

    /// The bytes of a trust anchor named in the manifest (`anchors/…`).
    public static func anchor(_ relativePath: String, file: StaticString = #filePath, line: UInt = #line) throws -> [UInt8] {
        let directory = try requireDirectory(file: file, line: line)
        return Array(try Data(contentsOf: directory.appendingPathComponent(relativePath)))
    }

    /// The first PKCS#7 receipt matching `predicate`. Skips (fails under CI) without the
    /// folder like every accessor here, and fails if none matches; use it instead of
    /// wrapping a loader in `XCTUnwrap`, which would turn the skip into a failure.
    public static func firstPKCS7Receipt(
        where predicate: (Entry) -> Bool, file: StaticString = #filePath, line: UInt = #line
    ) throws -> (Entry, [UInt8]) {
        let receipts = try pkcs7Receipts(file: file, line: line)
        return try XCTUnwrap(receipts.first { predicate($0.0) }, "no real receipt matches", file: file, line: line)
    }

    /// PKCS#7 receipts only: (entry, bytes).
    public static func pkcs7Receipts(file: StaticString = #filePath, line: UInt = #line) throws -> [(Entry, [UInt8])] {
        try entries(file: file, line: line).filter(\.isPKCS7).map { ($0, try bytes(of: $0)) }
    }
}

public struct MissingRealReceipts: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// Lower-case hex of bytes.
public func hexString<C: Collection<UInt8>>(_ bytes: C) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// Bytes from hex text (spaces allowed); traps on bad hex (test literals only).
public func bytes(hex: String) -> [UInt8] {
    let digits = hex.filter { !$0.isWhitespace }
    precondition(digits.count % 2 == 0, "odd hex length: \(hex)")
    var result: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        result.append(UInt8(digits[index..<next], radix: 16)!)
        index = next
    }
    return result
}
