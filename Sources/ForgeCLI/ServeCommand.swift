import ArgumentParser
import ForgeServer
import Foundation
import Logging
import ReceiptForge

/// `forge serve`: a verifyReceipt look-alike HTTP server for testing server-side receipt code.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Answer like Apple's verifyReceipt, from the forge's receipts (or any receipt chaining to --root).",
        discussion: """
            POST /verifyReceipt (production) and POST /sandbox/verifyReceipt (sandbox) take Apple's JSON \
            request ({"receipt-data": BASE64, "password": HEX, "exclude-old-transactions": BOOL}) and answer \
            HTTP 200 with Apple's JSON: status 0 with the decoded receipt (wrong bundle, version or device, \
            and expired VPP receipts too: verifyReceipt does not check them); 21002 for a body that is not \
            JSON, missing or non-Base64 receipt-data, a malformed receipt, or an Xcode-signed receipt \
            (unless --accept-xcode); 21003 for a receipt that does not authenticate (signature, chain, \
            expired certificate, digest); 21007 for a sandbox receipt at production, 21008 for a \
            production receipt at sandbox; 21004 for a password that is not --shared-secret; 21000 for a \
            method other than POST. GET /health answers 200 once the server is ready.

            Faults for a client's error paths: the request header `X-Forge-Fault: FAULT`, or --faults \
            FAULT=RATE,... at random (reproducible with --seed). FAULT is one of: \(Fault.spellings).

            Bodies over 1 MiB get HTTP 413; a client that takes over 10 s to send its request is \
            disconnected. SIGTERM or SIGINT stops the server after the requests in flight (exit 0). \
            One log line per request goes to standard error (not with --quiet); the address is printed \
            on standard output once the server listens.

            Exit codes: 0 stopped by SIGTERM or SIGINT; 64 usage error; \(ForgeExit.malformedInput.rawValue) a --root or \
            --xcode-root is not a certificate; \(ForgeExit.ioError.rawValue) one cannot be read, or the address cannot be \
            listened on (in use, not local).

            Examples:
              forge serve          # http://127.0.0.1:8080, trusting Certs/root.cer
              forge serve --port 0 --shared-secret 0123abcd --accept-xcode
              forge serve --root AppleIncRootCertificate.cer --faults '21005=5%,delay-500=10%' --seed 7
              curl -s -d "{\\"receipt-data\\":\\"$(base64 -w0 Fixtures/valid/receipt)\\"}" \\
                http://127.0.0.1:8080/verifyReceipt
            """
    )

    @Option(help: ArgumentHelp("The address to listen on (0.0.0.0: every interface).", valueName: "ADDRESS"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The TCP port (0: any free port, printed at start).", valueName: "PORT"))
    var port = 8080

    @Option(name: .customLong("root"), help: ArgumentHelp(
        "An App Store trust anchor, DER or PEM; repeat for several. Default: the committed test CA (Certs/root.cer).",
        valueName: "CERT"))
    var roots: [String] = []

    @Option(name: .customLong("xcode-root"), help: ArgumentHelp(
        "A StoreKit-testing certificate (Xcode's StoreKitTestCertificate.cer); receipts it signs are Xcode receipts. Repeat for several. Default: Certs/storekit.cer.",
        valueName: "CERT"))
    var xcodeRoots: [String] = []

    @Option(name: .customLong("shared-secret"), help: ArgumentHelp(
        "The app's shared secret: a `password` that differs gets 21004 for receipts with auto-renewable subscriptions. Default: any password is accepted.",
        valueName: "HEX"))
    var sharedSecret: String?

    @Option(help: ArgumentHelp("Random faults: FAULT=RATE,… with RATE a fraction (0.05) or percentage (5%).", valueName: "SPEC"))
    var faults: String?

    @Option(help: ArgumentHelp("The seed of --faults' random draws.", valueName: "N"))
    var seed: UInt64 = ForgeSettings.defaultSeed

    @Flag(name: .customLong("accept-xcode"), help: "Answer receipts signed by an Xcode StoreKit certificate with 0 and environment Xcode (Apple, and the default here: 21002).")
    var acceptXcode = false

    @Flag(help: "No log line per request.")
    var quiet = false

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is not between 0 and 65535") }
        if let sharedSecret {
            guard !sharedSecret.isEmpty, sharedSecret.allSatisfy(\.isHexDigit) else {
                throw ValidationError("--shared-secret '\(sharedSecret)' is not hexadecimal (App Store Connect shows 32 hex digits)")
            }
        }
        if let faults {
            do {
                _ = try FaultPlan(spec: faults, seed: seed)
            } catch {
                throw ValidationError("--faults: \(error)")
            }
        }
    }

    func run() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else {
            printError("forge serve: needs macOS 14 or later (Hummingbird 2); the rest of the forge runs from macOS 13")
            throw ExitCode(69)  // EX_UNAVAILABLE
        }
        var options = ServeOptions()
        if !roots.isEmpty { options.roots = try loadCertificates(roots, option: "--root", context: "forge serve") }
        if !xcodeRoots.isEmpty { options.xcodeRoots = try loadCertificates(xcodeRoots, option: "--xcode-root", context: "forge serve") }
        options.host = host
        options.port = port
        options.sharedSecret = sharedSecret
        options.acceptXcode = acceptXcode
        options.faults = try faults.map { try FaultPlan(spec: $0, seed: seed) }

        var logger = Logger(label: "forge-serve") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = quiet ? .warning : .info
        let host = host
        do {
            try await VerifyReceiptServer(options: options, logger: logger).run { port in
                // Unbuffered, so a script or test reading the port sees it at once.
                FileHandle.standardOutput.write(Data(
                    "forge serve: listening on http://\(host):\(port) (POST /verifyReceipt, POST /sandbox/verifyReceipt, GET /health)\n".utf8))
            }
        } catch {
            printError("forge serve: cannot serve on \(host):\(port): \(error)")
            throw ForgeExit.ioError.code
        }
    }
}
