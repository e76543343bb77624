import Foundation
import ReceiptVerifier

/// Reads the certificates named by a repeatable option (`--root CERT`, DER or PEM): a
/// file that cannot be read exits 74, one that is not a certificate 65, each error
/// printed after `context` (`forge verify`, `forge serve`) and the option.
package func loadCertificates(_ paths: [String], option: String, context: String) throws -> [Certificate] {
    var certificates: [Certificate] = []
    for path in paths {
        let input = try InputFile.load(path, content: .certificate, context: "\(context): \(option)")
        do {
            certificates.append(try Certificate(input.bytes, rules: .ber))
        } catch {
            printError("\(context): \(option) \(path) is not a usable certificate: \(error)")
            throw ForgeExit.malformedInput.code
        }
    }
    return certificates
}
