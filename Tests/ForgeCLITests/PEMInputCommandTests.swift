import Foundation
import TestSupport
import XCTest

/// PEM given to a subcommand is one block with a label that subcommand takes: two
/// receipts pasted into one file, or a key where a certificate belongs, exit 65 and
/// say why, instead of being merged or read as something else.
final class PEMInputCommandTests: XCTestCase {
    func pemFile(_ der: [UInt8], label: String, times: Int = 1) throws -> URL {
        let block = "-----BEGIN \(label)-----\n" + Data(der).base64EncodedString(options: .lineLength64Characters)
            + "\n-----END \(label)-----\n"
        return try ForgeProcess.temporaryFile(Array(String(repeating: block, count: times).utf8), in: self)
    }

    func testOneBlockOfALabelTheCommandTakes() throws {
        let tree = FileManager.default.temporaryDirectory.appendingPathComponent("forge-pem-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: tree) }
        XCTAssertEqual(try ForgeProcess.run(["--case", "valid", "--out", tree.path, "--quiet"]).status, 0)
        let receipt = Array(try Data(contentsOf: tree.appendingPathComponent("valid/receipt")))
        let root = Array(try Data(contentsOf: tree.appendingPathComponent("Certs/root.cer")))
        let mutants = tree.appendingPathComponent("mutants").path

        let one = try ForgeProcess.run(["mutate", try pemFile(receipt, label: "PKCS7").path, "--count", "1", "--out", mutants])
        XCTAssertEqual(one.status, 0, one.standardError)
        let two = try ForgeProcess.run(["asn1", try pemFile(receipt, label: "PKCS7", times: 2).path])
        XCTAssertEqual(two.status, 65, two.standardError)
        XCTAssertTrue(two.standardError.contains("2 PEM blocks where one is expected"), two.standardError)
        let certificateForReceipt = try ForgeProcess.run(["mutate", try pemFile(root, label: "CERTIFICATE").path,
                                                          "--count", "1", "--out", mutants])
        XCTAssertEqual(certificateForReceipt.status, 65, certificateForReceipt.standardError)
        XCTAssertTrue(certificateForReceipt.standardError.contains("labelled 'CERTIFICATE', expected 'CMS' or 'PKCS7'"),
                      certificateForReceipt.standardError)

        let verify = ["jws", "verify", "x.jws", "--bundle-id", "x", "--environment", "Sandbox", "--root"]
        let receiptForRoot = try ForgeProcess.run(verify + [try pemFile(receipt, label: "PKCS7").path])
        XCTAssertEqual(receiptForRoot.status, 65, receiptForRoot.standardError)
        XCTAssertTrue(receiptForRoot.standardError.contains("labelled 'PKCS7', expected 'CERTIFICATE'"), receiptForRoot.standardError)
    }
}
