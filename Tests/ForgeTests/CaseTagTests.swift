import BER
import Foundation
import Receipt
import ReceiptForge
import StrictJSON
import TestSupport
import XCTest
import ForgeCA

/// The tags of the catalogue: from the vocabulary, each one used, and — where a tag names
/// something visible in the minted receipt or its case file — on exactly the cases that
/// show it, read from the bytes and `case.json` rather than from the table.
final class CaseTagTests: XCTestCase {
    /// The `tags` of every `case.json` as JSON strings.
    private func writtenTags() throws -> [String: [String]] {
        var tags: [String: [String]] = [:]
        for minted in Minted.cases {
            let json = try JSONValue(json: Data(try forgeJSON(minted.description)))
            tags[minted.id] = try XCTUnwrap(json["tags"]?.strings, "\(minted.id) has no tags")
        }
        return tags
    }

    func testEveryCaseHasTagsFromTheVocabularyInItsOrder() throws {
        let vocabulary = ForgeCase.Tag.allCases.map(\.rawValue)
        XCTAssertEqual(Set(vocabulary).count, vocabulary.count)
        for (id, tags) in try writtenTags() {
            XCTAssertFalse(tags.isEmpty, "\(id) has no tag")
            for tag in tags { XCTAssertTrue(vocabulary.contains(tag), "\(id): '\(tag)' is not in the vocabulary") }
            XCTAssertEqual(tags, vocabulary.filter(tags.contains), "\(id): tags repeat or are out of the vocabulary's order")
        }
    }

    /// A tag no case carries is a filter that selects nothing.
    func testEveryTagOfTheVocabularyIsUsed() {
        let used = Set(ForgeCase.catalogue.flatMap(\.tags))
        XCTAssertEqual(Set(ForgeCase.Tag.allCases).subtracting(used), [])
    }

    /// Tags that name a property of the file or the case's inputs sit on exactly the
    /// cases that have it.
    func testTagsNamingAVisiblePropertyMatchTheMintedFiles() throws {
        let settings = Minted.forge.settings
        for minted in Minted.cases {
            let id = minted.id
            let tags = Set(minted.forgeCase.tags)
            let description = minted.description
            func exactly(_ tag: ForgeCase.Tag, _ holds: Bool, _ property: String) {
                XCTAssertEqual(tags.contains(tag), holds, "\(id): tag \(tag.rawValue) iff \(property)")
            }
            exactly(.noFile, minted.receipt == nil, "there is no file")
            exactly(.ber, description.encoding == "ber-indefinite", "the encoding is BER")
            exactly(.sha1, description.digest == "sha1", "the digest is SHA-1")
            exactly(.digest, description.digest != "sha256", "the digest is not the usual SHA-256")
            exactly(.macos, description.app.platform == .macos, "the app runs on macOS")
            exactly(.sandbox, description.environment == "ProductionSandbox", "the environment is ProductionSandbox")
            exactly(.vpp, description.environment == "ProductionVPP", "the environment is ProductionVPP")
            exactly(.xcode, description.environment == "Xcode", "the environment is Xcode")
            exactly(.largeReceipt, (minted.receipt?.count ?? 0) > 65_536, "the file is over 64 KiB")
            exactly(.bundle, minted.expected == .bundleMismatch, "the bundle does not match")
            exactly(.version, minted.expected == .versionMismatch, "the version does not match")
            exactly(.signature, description.signatureAlgorithm != "rsaEncryption"
                        || minted.forgeCase.openSSL == .signatureInvalid,
                    "the signer's algorithm is unusual or the signature does not verify")
            exactly(.creationDateRule, try certificateExpired(before: settings.now, in: minted.receipt),
                    "a certificate in the file expired before now, so only the creation date decides")
            if minted.expected == .deviceHashMismatch {
                XCTAssertTrue(tags.contains(.deviceHash), id)
            }
            if minted.forgeCase.openSSL == .chainInvalid || [.untrustedChain, .certificateExpired].contains(minted.expected) {
                XCTAssertTrue(tags.contains(.chain), "\(id): the chain decides")
            }
            if description.validation.creationDate.map({ !isPlainUTC($0) }) ?? false
                || description.validation.expirationDate != nil {
                XCTAssertTrue(tags.contains(.dates), "\(id): its dates are not plain UTC seconds, or it expires")
            }
        }
    }

    /// `strict-policy`: invalid by a rule OpenSSL does not apply, so OpenSSL (checked
    /// here, not read from the table) verifies the file; and every case invalid for an
    /// algorithm or chain rule that OpenSSL verifies is one.
    func testStrictPolicyCasesAreInvalidOnesOpenSSLAccepts() throws {
        for minted in Minted.cases {
            let strict = minted.forgeCase.tags.contains(.strictPolicy)
            let openSSL = minted.receipt.map { openSSLOutcome($0, anchor: minted.anchor, at: Minted.forge.settings.creationDate) }
            if strict {
                XCTAssertNotEqual(minted.expected, .valid, minted.id)
                XCTAssertEqual(openSSL, .verified, "\(minted.id): OpenSSL refuses it, so validators do not differ")
            }
            if openSSL == .verified, [.unsupportedAlgorithm, .untrustedChain].contains(minted.expected) {
                XCTAssertTrue(strict, "\(minted.id): invalid by a rule OpenSSL does not apply")
            }
        }
        // The three issue 12 names; more digest cases may join them.
        let strict = Set(ForgeCase.catalogue.filter { $0.tags.contains(.strictPolicy) }.map(\.id))
        XCTAssertTrue(strict.isSuperset(of: ["sha512-digest", "leaf-without-marker", "trailing-data"]), "\(strict)")
    }

    private func isPlainUTC(_ date: String) -> Bool {
        date.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression) != nil
    }

    /// Whether the file's container parses and holds a certificate whose notAfter lies
    /// before `now`.
    private func certificateExpired(before now: Int64, in file: [UInt8]?) throws -> Bool {
        guard let file, let container = try? PKCS7SignedData(bytes: file) else { return false }
        return try container.certificates.contains { try CertificateSummary(der: $0).notAfter.secondsSince1970 < now }
    }
}
