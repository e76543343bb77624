import ArgumentParser
import BER
import ForgeCommandLine
import ReceiptForge
import Foundation
import Receipt
import ReceiptVerifier

/// `forge verify RECEIPT --root CERT … --bundle-id ID …` and `forge verify --manifest FILE`.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify a receipt (signature, chain to your root, bundle, version, device hash, VPP expiry), or a whole fixture tree.",
        discussion: """
            The reference validator, in pure Swift: PKCS#7 parsed with BER rules, RSA PKCS#1 v1.5 (SHA-1/SHA-256) \
            checked strictly, the signer found by issuer and serial and chained through the receipt's \
            certificates to a --root you give (never to a certificate just because the receipt holds it), \
            Apple's marker extensions required on App Store chains. The chain is validated at the receipt \
            creation date (attribute 12) unless --at says otherwise; the VPP expiry (attribute 21) is compared \
            with --now.

            RECEIPT may be binary, base64 or PEM (`-` reads standard input). Only a RECEIPT path where \
            nothing exists gets the verdict `missing`; one that exists but cannot be read (a directory, a \
            permission or read error) is exit \(ForgeExit.ioError.rawValue) with the system's reason. The verdict is printed as `valid` or `invalid (REASON): DETAIL`; \
            REASON is one of: \(VerdictReason.allCases.map(\.rawValue).joined(separator: ", ")). With --json, a \
            refused chain also has a stable `code` saying which rule refused it: \
            \(ChainFailure.allCases.map(\.rawValue).joined(separator: ", ")); so has a refused receipt signature: \
            \(SignatureFailure.allCases.map(\.rawValue).joined(separator: ", ")).

            DATE values are RFC 3339 (2026-06-01T00:00:00Z, also with .SSS or +hhmm) or seconds since 1970.

            Exit codes: 0 valid; 1 invalid (any reason, `missing` and `malformed` included; with --manifest: \
            any case disagreeing with its expected verdict); \(ForgeExit.malformedInput.rawValue) a --root \
            certificate or the manifest does not parse, or the manifest names a path outside its tree; \(ForgeExit.ioError.rawValue) a --root certificate, \
            the manifest or a case file cannot be read; 64 usage error.

            Examples:
              forge verify receipt --root AppleRoot.cer --bundle-id com.example.app \\
                --device-id 956328D9-CC6A-47F4-BE40-6953FB0AB6C7
              forge verify receipt --root Certs/root.cer --no-device-check \\
                --bundle-id com.example.receiptforge --app-version 42 --json
              forge verify receipt --root AppleRoot.cer --no-device-check \\
                --bundle-id com.example.app --at now   # chain at today's date
              forge verify --manifest Fixtures/manifest.json
            """
    )

    @Argument(help: "The receipt file (`-` for standard input). Not with --manifest.")
    var receipt: String?

    @Option(name: .customLong("root"), help: ArgumentHelp("A trust anchor: DER or PEM certificate. Repeat for several.",
                                                         valueName: "CERT"))
    var roots: [String] = []

    @Option(name: .customLong("bundle-id"), help: ArgumentHelp("The app's bundle identifier (attribute 2 must equal it).",
                                                              valueName: "ID"))
    var bundleID: String?

    @Option(name: .customLong("app-version"), help: ArgumentHelp(
        "The app's version (attribute 3 must equal it): CFBundleVersion on iOS, CFBundleShortVersionString on macOS. Not checked when omitted.",
        valueName: "V"))
    var appVersion: String?

    @Option(name: .customLong("device-id"), help: ArgumentHelp(
        "The device: identifierForVendor UUID (iOS), MAC address aa:bb:cc:dd:ee:ff (macOS), or 32/12 hex digits. Attribute 5 must be its hash.",
        valueName: "UUID|MAC|HEX"))
    var deviceID: String?

    @Flag(name: .customLong("no-device-check"), help: "Do not check the device hash (say so explicitly: a server without the device id).")
    var noDeviceCheck = false

    @Option(help: ArgumentHelp("When the chain is validated: `creation` (the receipt creation date, Apple's rule; default), `now` (--now), or a DATE.",
                               valueName: "creation|now|DATE"))
    var at = "creation"

    @Option(help: ArgumentHelp("The current time for the VPP expiry check and `--at now` (default: the system clock).",
                               valueName: "DATE"))
    var now: String?

    @Flag(name: .customLong("no-marker-check"), help: "Do not require Apple's marker extensions (1.2.840.113635.100.6.11.1 on the signer, .6.2.1 on its issuer).")
    var noMarkerCheck = false

    @Flag(help: "Print JSON: {verdict, reason, code, detail, chain, receipt} (code: why the chain or the receipt's signature was refused, or null; receipt: the decoded payload, or null).")
    var json = false

    @Option(help: ArgumentHelp("Verify every case of a forge tree (`forge --all --out DIR`) with the inputs in its case.json files, and print a table of case, expected and got.",
                               valueName: "DIR/manifest.json"))
    var manifest: String?

    func validate() throws {
        if let manifest {
            guard receipt == nil, roots.isEmpty, bundleID == nil, appVersion == nil, deviceID == nil, !noDeviceCheck, now == nil,
                  at == "creation", !noMarkerCheck else {
                throw ValidationError("--manifest \(manifest) takes every input from the tree's case.json files; give no RECEIPT or other options (except --json)")
            }
            return
        }
        guard receipt != nil else { throw ValidationError("give a RECEIPT to verify, or --manifest DIR/manifest.json") }
        guard !roots.isEmpty else { throw ValidationError("give at least one --root CERT: the trust anchor the chain must end in") }
        guard bundleID != nil else { throw ValidationError("give --bundle-id: the app's bundle identifier") }
        switch (deviceID, noDeviceCheck) {
        case (nil, false): throw ValidationError("give --device-id UUID|MAC|HEX, or --no-device-check to skip the device hash")
        case (.some, true): throw ValidationError("--device-id and --no-device-check exclude each other")
        case (.some(let text), false):
            guard DeviceIdentifier(text: text) != nil else {
                throw ValidationError("--device-id \(text) is not a UUID, a MAC address, or 32 or 12 hex digits")
            }
        default: break
        }
        if at != "creation" && at != "now" && Self.date(at) == nil {
            throw ValidationError("--at \(at) is not `creation`, `now` or a date (RFC 3339 or seconds since 1970)")
        }
        if let now, Self.date(now) == nil {
            throw ValidationError("--now \(now) is not a date (RFC 3339 or seconds since 1970)")
        }
    }

    func run() throws {
        if let manifest { return try runManifest(manifest) }
        let anchors = try loadCertificates(roots, option: "--root", context: "forge verify")
        let clockTime = now.flatMap(Self.date) ?? Date()
        let chainTime: ChainValidationTime = at == "creation" ? .creationDate : at == "now" ? .now : .date(Self.date(at)!)
        let options = ReceiptValidator.Options(
            bundleIdentifier: bundleID!, appVersion: appVersion,
            device: deviceID.flatMap(DeviceIdentifier.init(text:)).map(DeviceCheck.identifier) ?? .skip,
            chainValidationTime: chainTime, requireAppleMarkers: !noMarkerCheck)
        let validator = ReceiptValidator(anchors: anchors, options: options)

        let path = receipt!
        let verdict: Verdict
        var bytes: [UInt8]?
        do {
            if let input = path == "-" ? try InputFile(path: path, content: .receipt) : try InputFile.ifPresent(path, content: .receipt) {
                bytes = input.bytes
                verdict = validator.validate(input.bytes, now: clockTime)
            } else {
                verdict = try validator.validate(fileAt: URL(fileURLWithPath: path), now: clockTime)
            }
        } catch let error as InputFileError {
            guard case .empty = error else {
                printError("forge verify: \(error)")
                throw error.exit.code
            }
            verdict = validator.validate([], now: clockTime)
        } catch {
            printError("forge verify: \(error)")
            throw ForgeExit.ioError.code
        }
        if json {
            let receiptJSON = verdict.receipt != nil ? bytes.flatMap { try? ReceiptDump(bytes: $0).receipt } : nil
            let output = VerdictOutput(verdict: verdict.verdict.rawValue, reason: verdict.reason,
                                       code: verdict.chainFailure?.rawValue ?? verdict.signatureFailure?.rawValue, detail: verdict.detail,
                                       chain: verdict.chain.map(\.subject.description), receipt: receiptJSON)
            print(String(decoding: try forgeJSON(output), as: UTF8.self), terminator: "")
        } else {
            print(verdict.isValid ? "valid: \(verdict.detail)" : "invalid (\(verdict.reason.rawValue)): \(verdict.detail)")
        }
        if !verdict.isValid { throw ForgeExit.invalid.code }
    }

    struct VerdictOutput: Encodable {
        let verdict: String
        let reason: VerdictReason
        /// A `ChainFailure` or `SignatureFailure` raw value.
        let code: String?
        let detail: String
        let chain: [String]
        let receipt: ReceiptDump.Receipt?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(verdict, forKey: .verdict)
            try container.encode(reason, forKey: .reason)
            try container.encode(code, forKey: .code)  // null unless the chain or the signature was refused
            try container.encode(detail, forKey: .detail)
            try container.encode(chain, forKey: .chain)
            try container.encode(receipt, forKey: .receipt)  // null when not decoded
        }

        enum CodingKeys: String, CodingKey { case verdict, reason, code, detail, chain, receipt }
    }

    // MARK: --manifest

    func runManifest(_ path: String) throws {
        let rows: [ManifestVerifier.Row]
        do {
            rows = try ManifestVerifier.verify(manifestAt: URL(fileURLWithPath: path))
        } catch {
            printError("forge verify: \(error)")
            throw error.isIOError ? ForgeExit.ioError.code : ForgeExit.malformedInput.code
        }
        let disagreements = rows.filter { !$0.agrees }.count
        if json {
            print(String(decoding: try forgeJSON(rows), as: UTF8.self), terminator: "")
        } else {
            let width = max(4, rows.map(\.id.count).max() ?? 0) + 2
            func pad(_ text: String, _ count: Int) -> String { text + String(repeating: " ", count: max(0, count - text.count)) }
            print(pad("case", width) + pad("expected", 24) + pad("got", 24) + "agrees")
            for row in rows {
                print(pad(row.id, width) + pad(row.expected.rawValue, 24) + pad(row.got.rawValue, 24) + (row.agrees ? "yes" : "NO"))
            }
            print("\(rows.count) cases, \(disagreements) disagreement\(disagreements == 1 ? "" : "s")")
            for row in rows where !row.agrees { print("  \(row.id): \(row.detail)") }
        }
        if disagreements > 0 { throw ForgeExit.invalid.code }
    }

    // MARK: Inputs

    static func date(_ text: String) -> Date? {
        if let seconds = Int64(text) { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
        guard let date = ReceiptDate(text) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(date.secondsSince1970) + TimeInterval(date.nanoseconds) / 1e9)
    }
}
