import ArgumentParser
import FileAccess
import ForgeCommandLine
import Foundation
import Receipt
import ReceiptForge
import ReceiptVerifier
import StoreKit2
import StoreKit2Verifier
import StrictJSON

/// `forge jws verify FILE … --root CERT --bundle-id ID --environment E [--app-apple-id N] [--kind K] [--json]`.
struct JWSVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify StoreKit 2 JWS files the way Apple's SignedDataVerifier does, and print the status and payload.",
        discussion: """
            FILE holds a compact JWS (signed.jws, a Transaction's jwsRepresentation) or a notification body \
            ({"signedPayload": "…"}); `-` reads standard input. The rules are those of Apple's \
            app-store-server-library with online checks off: ES256 only; x5c of exactly three certificates, the \
            third ignored; leaf → intermediate → one of your --root certificates, validated at the payload's \
            signedDate; marker extensions 1.2.840.113635.100.6.11.1 (leaf) and 1.2.840.113635.100.6.2.1 \
            (intermediate); then bundle id, environment and, in Production, the app Apple id. Environments \
            Xcode and LocalTesting skip the signature and chain, as Apple's library does.

            Status names: \(JWSVerificationStatus.allCases.map(\.rawValue).joined(separator: ", ")). \
            --kind defaults to what the payload looks like (notificationType: notification, receiptType: \
            appTransaction, autoRenewStatus: renewalInfo, else transaction).

            Exit codes: 0 every FILE is OK; 1 any other status; \(ForgeExit.malformedInput.rawValue) a --root \
            certificate does not parse; \(ForgeExit.ioError.rawValue) a FILE or --root cannot be read; 64 usage error.

            Examples:
              forge jws verify Fixtures/storekit2/transaction-production/signed.jws \\
                --root Fixtures/storekit2/Certs/jws-root.cer --bundle-id com.example.receiptforge \\
                --environment Production --app-apple-id 1234567890
              forge jws verify body.json --root AppleRootCA-G3.cer --bundle-id com.example.app \\
                --environment Sandbox --json
            """)

    @Argument(help: "JWS or notification files (`-` for standard input).")
    var files: [String]

    @Option(name: .customLong("root"), help: ArgumentHelp("A root certificate, DER or PEM. Repeat for several.", valueName: "CERT"))
    var roots: [String] = []

    @Option(name: .customLong("bundle-id"), help: ArgumentHelp("The app's bundle identifier.", valueName: "ID"))
    var bundleID: String

    @Option(help: ArgumentHelp("Production, Sandbox, Xcode or LocalTesting.", valueName: "E"))
    var environment: JWSEnvironment

    @Option(name: .customLong("app-apple-id"), help: ArgumentHelp(
        "The app's Apple id: checked for notifications and app transactions in Production.", valueName: "N"))
    var appAppleId: Int64?

    @Option(help: ArgumentHelp("transaction, renewalInfo, notification or appTransaction (default: from the payload).",
                               valueName: "K"))
    var kind: JWSKind?

    @Option(help: ArgumentHelp("The time used only when the payload has no signedDate: RFC 3339 (default: now).", valueName: "DATE"))
    var now: String?

    @Flag(help: "Print one JSON object per file: {status, detail, kind, file, header, payload}.")
    var json = false

    func validate() throws {
        if roots.isEmpty && !environment.skipsSignatureCheck {
            throw ValidationError("give at least one --root certificate (Apple's root, or Certs/jws-root.cer for the forge's fixtures)")
        }
        if let now, ReceiptDate(now) == nil { throw ValidationError("--now: '\(now)' is not an RFC 3339 date") }
    }

    func run() throws {
        var anchors: [[UInt8]] = []
        for path in roots {
            let file = try InputFile.load(path, content: .certificate, context: "forge jws verify: --root")
            do throws(CertificateError) {
                _ = try Certificate(file.bytes, rules: .der, keyAlgorithms: .rsaAndP256)
            } catch {
                printError("forge jws verify: --root \(path): \(error)")
                throw ForgeExit.malformedInput.code
            }
            anchors.append(file.bytes)
        }
        let verifier = JWSVerifier(rootCertificates: anchors, bundleId: bundleID, appAppleId: appAppleId, environment: environment)
        let currentTime = now.flatMap(ReceiptDate.init)?.secondsSince1970 ?? Int64(Date().timeIntervalSince1970)
        var allOK = true
        for path in files {
            let raw = try Self.read(path)
            let jws = Self.signedPayload(in: raw)
            let payloadKeys = (try? CompactJWS(jws)).flatMap {
                try? StoreKit2JSON.object($0.payload, at: "payload").value.objectValue
            }?.map(\.key) ?? []
            let kind = kind ?? JWSKind.detect(payloadKeys: payloadKeys)
            let result = verifier.verify(jws, kind: kind, currentTime: currentTime)
            allOK = allOK && result.isOK
            print(json ? Self.json(result, kind: kind, file: path) : Self.text(result, kind: kind, file: path))
        }
        if !allOK { throw ForgeExit.invalid.code }
    }

    /// The file's text; a missing or unreadable file exits 74 with the reason.
    static func read(_ path: String) throws -> String {
        let bytes: [UInt8]
        if path == "-" {
            bytes = Array(FileHandle.standardInput.readDataToEndOfFile())
        } else {
            let contents: [UInt8]?
            do throws(FileReadError) {
                contents = try FileReading.contents(atPath: path)
            } catch {
                printError("forge jws verify: cannot read \(path): \(error.reason)")
                throw ForgeExit.ioError.code
            }
            guard let contents else {
                printError("forge jws verify: cannot read \(path): no such file")
                throw ForgeExit.ioError.code
            }
            bytes = contents
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The JWS in `text`: a notification body's `signedPayload`, else the text itself, trimmed.
    static func signedPayload(in text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("{"),
           let body = try? StoreKit2JSON.decode(SignedPayloadBody.self, from: Array(trimmed.utf8), at: "body") {
            return body.signedPayload
        }
        return trimmed
    }

    static func text(_ result: JWSVerification, kind: JWSKind, file: String) -> String {
        var lines = ["\(file): \(result.status.rawValue) (\(kind.rawValue)): \(result.detail)"]
        if let payload = result.payload.flatMap({ try? JSONParser.parse($0, dialect: .python) }),
           let pretty = try? encoder([.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]).encode(payload) {
            lines.append(String(decoding: pretty, as: UTF8.self))
        }
        return lines.joined(separator: "\n")
    }

    /// What `--json` prints for one file; the header and payload as decoded, absent when they do not decode.
    struct Report: Encodable {
        let status: String
        let detail: String
        let kind: String
        let file: String
        let header: JWSHeader?
        let payload: JSONValue?
    }

    static func json(_ result: JWSVerification, kind: JWSKind, file: String) -> String {
        let report = Report(status: result.status.rawValue, detail: result.detail, kind: kind.rawValue, file: file,
                            header: result.header, payload: result.payload.flatMap { try? JSONParser.parse($0, dialect: .python) })
        // Strings and header fields always encode; the payload's NaN and infinities are written as strings.
        return String(decoding: try! encoder([.sortedKeys, .withoutEscapingSlashes]).encode(report), as: UTF8.self)
    }

    /// The payload is read as Apple's library reads it (`JSONDialect.python`), so it may hold
    /// `NaN` and infinities, which JSON cannot: they are written as the strings "NaN", "Infinity", "-Infinity".
    private static func encoder(_ formatting: JSONEncoder.OutputFormatting) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return encoder
    }
}
