import AppInput
import ArgumentParser
import ForgeCommandLine
import ForgeServer
import Foundation
import LocalAppStore
import Logging
import ReceiptForge
import StoreAPIAuthentication
import StoreServerAPI

/// `forge serve`: a verifyReceipt look-alike HTTP server for testing server-side receipt code.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ServerCommand.serve.rawValue,
        abstract: ServerCommand.serve.abstract,
        discussion: """
            A verifyReceipt look-alike and a local App Store, for testing server code. The guide, with what \
            each answer exercises in a client, the control API and the notifications: docs/local-app-store.md \
            and docs/notifications-and-scenarios.md in the repository \
            (https://github.com/receipt-forge/receipt-forge).

            POST /verifyReceipt (production) and POST /sandbox/verifyReceipt (sandbox) take Apple's JSON \
            request and answer HTTP 200 with Apple's JSON and status (0, 21000, 21002, 21003, 21004, 21007, \
            21008); like Apple's, they do not check the bundle id, version, device or VPP expiry. Xcode \
            receipts get 21002 unless --accept-xcode. GET /health answers 200 once the server is ready.

            The App Store Server API, every endpoint of Apple's, of a local App Store per environment: \
            production at http://HOST:PORT (/inApps/…), sandbox at http://HOST:PORT/sandbox (/sandbox/inApps/…), \
            both printed at start. Each store holds --customers customers (default \
            \(StoreConfiguration.defaultCustomers)) of the app the app options describe, drawn from --seed, \
            its clock at --now's receipt creation date; answers are JWS signed by the forge's StoreKit 2 CA \
            (Certs/jws-root.cer); errors are Apple's {"errorCode","errorMessage"}. Requests need \
            `Authorization: Bearer JWT` signed by an API key: by default the forge's test key of --seed \
            (api-key/ of a `forge --all` tree), yours with --api-key KEYID=FILE --issuer ID, none with \
            --no-auth; a refused token gets 401 and the header X-Forge-Auth-Failure names the failed check. \
            The control API (POST /forge/v1/VERB, GET /forge/v1/state; /sandbox/forge/v1/… for the sandbox) \
            changes the stores and needs no token.

            Faults: the request header `X-Forge-Fault: FAULT`, or --faults FAULT=RATE,... at random \
            (reproducible with --seed: request n, counted over verifyReceipt and Server API requests in \
            arrival order, draws the seed's n-th number). FAULT is one of: \(Fault.spellings). An App Store \
            Server API error code answers Apple's error JSON with the code's first three digits as HTTP \
            status; 4290000 adds Retry-After, the UNIX time in milliseconds one second later. A fault hits \
            only the surface it means something to; the header with a fault of the other surface, or no \
            fault, gets 400 naming it. On the Server API a fault hits any request routed to an endpoint, \
            whatever its token; the control API never faults.

            --rate-limits apple: Apple's per-endpoint limits, per environment, the sandbox a tenth of \
            production, counted in one-second windows over authenticated requests: \
            \(ServerAPIRateLimits.apple.summary). The figures are those of Apple's "Identifying rate limits" \
            (https://developer.apple.com/documentation/appstoreserverapi/identifying-rate-limits); endpoints \
            without a figure there are not limited. Over the limit: 429 with errorCode 4290000 and \
            Retry-After = the UNIX time in milliseconds of the next window.

            --time-rate RATE: the stores' clocks run RATE times faster than real time, like Xcode's \
            SKTestSession.timeRate; renewals, billing retries, grace periods and expiries happen as the clock \
            passes their dates. RATE is one of SKTestSession.TimeRate's names: \
            \(StoreTimeRate.named.map(\.name).joined(separator: ", ")), or a factor (60: a minute per second); \
            the fixed oneRenewalEvery… rates are read as a monthly renewal at that interval. Without it the \
            clock moves only when POST /forge/v1/advanceClock says so.

            --notify-url: every store event is sent as a Server Notification V2 ({"signedPayload": JWS}), \
            retried as Apple's production does (1, 12, 24, 48 and 72 store hours; the sandbox sends once) \
            and listed by Get Notification History; without a URL for an environment its notifications are \
            only listed.

            Bodies over 1 MiB get HTTP 413; a client that takes over 10 s to send its request is \
            disconnected. SIGTERM or SIGINT stops the server after the requests in flight (exit 0). \
            One log line per request goes to standard error (not with --quiet); the address and the Server API base URLs are \
            printed on standard output once the server listens.

            Exit codes: 0 stopped by SIGTERM or SIGINT; 64 usage error; \(ForgeExit.malformedInput.rawValue) a --root or \
            --xcode-root is not a certificate, an --api-key file is not a P-256 key, or an app option is bad; \
            \(ForgeExit.ioError.rawValue) one cannot be read, or the address cannot be listened on (in use, not local).

            Examples:
              forge serve          # http://127.0.0.1:8080, trusting Certs/root.cer
              forge serve --port 0 --shared-secret 0123abcd --accept-xcode
              forge serve --root AppleIncRootCertificate.cer --faults '21005=5%,delay-500=10%' --seed 7
              forge serve --faults '4290000=5%,5000001=1%,http-503=1%' --rate-limits apple --time-rate oneSecondIsOneDay
              forge serve --notify-url http://127.0.0.1:9000/apple --notify-url sandbox=http://127.0.0.1:9000/sandbox
              forge serve --notify-url https://localhost:8443/hook --notify-ca test-ca.pem --notify-timeout 2
              forge serve --api-key ABC123DEFG=SubscriptionKey_ABC123DEFG.p8 --issuer 57246542-96fe-1a63-e053-0824d011072a \\
                --bundle-id com.example.app --customers 1000 --now 2026-01-15T00:00:00Z
              curl -s -d "{\\"receipt-data\\":\\"$(base64 -w0 Fixtures/valid/receipt)\\"}" \\
                http://127.0.0.1:8080/verifyReceipt
            """
    )

    @Option(help: ArgumentHelp("The address to listen on (0.0.0.0: every interface).", valueName: "ADDRESS"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The TCP port (0: any free port, printed at start).", valueName: "PORT"))
    var port = 8080

    @Option(name: .customLong("tls-port"), help: ArgumentHelp(
        "Also serve HTTPS (HTTP/2 or HTTP/1.1) on this port, routed by host name as well: api.storekit.apple.com is "
            + "production, api.storekit-sandbox.apple.com sandbox, so Apple's clients need only name resolution and trust "
            + "(0: any free port, printed at start).", valueName: "PORT"))
    var tlsPort: Int?

    @Option(name: .customLong("tls-dir"), help: ArgumentHelp(
        "Where the local TLS root and server certificate live (made on first use, kept): trust DIR/ca.pem, or give "
            + "DIR/ca-bundle.pem to REQUESTS_CA_BUNDLE.", valueName: "DIR"))
    var tlsDir = "forge-tls"

    @Option(name: .customLong("journal-size"), help: ArgumentHelp(
        "How many of the last requests GET /forge/v1/requests shows (method, path, status, Apple's error code, the "
            + "token check that failed, the store action), newest first.", valueName: "N"))
    var journalSize = 1_000

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

    @Option(name: .customLong("rate-limits"), help: ArgumentHelp(
        "Apply Apple's per-endpoint App Store Server API rate limits (`apple`; the sandbox gets a tenth). Default: no limit.",
        valueName: "apple"))
    var rateLimits: String?

    @Option(name: .customLong("time-rate"), help: ArgumentHelp(
        "Run the stores' clocks faster than real time: an SKTestSession.TimeRate name (oneSecondIsOneDay …) or a factor. "
            + "Default: the clock moves only by advanceClock.",
        valueName: "RATE"))
    var timeRate: String?

    @Option(name: .customLong("notify-url"), help: ArgumentHelp(
        "Send the store's Server Notifications V2 here: URL (production), production=URL or sandbox=URL; one per environment. "
            + "Default: none sent (still listed by Get Notification History).",
        valueName: "[ENV=]URL"))
    var notifyURLs: [String] = []

    @Option(name: .customLong("notify-timeout"), help: ArgumentHelp(
        "Seconds a webhook has to answer one notification before the attempt is TIMED_OUT (default 5).", valueName: "SECONDS"))
    var notifyTimeout = 5.0

    @Option(name: .customLong("notify-ca"), help: ArgumentHelp(
        "A CA certificate (PEM or DER) an https webhook's chain may end at, besides the system's; repeat for several.", valueName: "FILE"))
    var notifyCAs: [String] = []

    @OptionGroup var reference: ReferenceOptions

    @OptionGroup var app: AppOptions

    @Option(help: ArgumentHelp(
        "Customers of each store's default population (0: empty stores; default \(StoreConfiguration.defaultCustomers)).",
        valueName: "N"))
    var customers = StoreConfiguration.defaultCustomers

    @Option(name: .customLong("api-key"), help: ArgumentHelp(
        "An App Store Server API key tokens may be signed with: its key id and its .p8 (or public key PEM) file. "
            + "Repeat for several; needs --issuer. Default: the forge's test key of --seed.",
        valueName: "KEYID=FILE"))
    var apiKeys: [String] = []

    @Option(help: ArgumentHelp("The issuer id of the --api-key keys (App Store Connect shows it above the keys).", valueName: "ID"))
    var issuer: String?

    @Flag(name: .customLong("no-auth"), help: "Answer Server API requests without checking their Authorization.")
    var noAuth = false

    /// The seed of the stores and of --faults' random draws.
    private var seed: UInt64 { reference.seed ?? ForgeSettings.defaultSeed }

    @Flag(name: .customLong("accept-xcode"), help: "Answer receipts signed by an Xcode StoreKit certificate with 0 and environment Xcode (Apple, and the default here: 21002).")
    var acceptXcode = false

    @Flag(help: "No log line per request.")
    var quiet = false

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is not between 0 and 65535") }
        guard (1...1_000_000).contains(journalSize) else {
            throw ValidationError("--journal-size \(journalSize): give 1 to 1000000 requests")
        }
        if let tlsPort {
            guard (0...65_535).contains(tlsPort) else { throw ValidationError("--tls-port \(tlsPort) is not between 0 and 65535") }
            guard tlsPort == 0 || tlsPort != port else { throw ValidationError("--tls-port \(tlsPort) is --port's too: give two ports") }
        }
        if let sharedSecret {
            guard !sharedSecret.isEmpty, sharedSecret.allSatisfy(\.isHexDigit) else {
                throw ValidationError("--shared-secret '\(sharedSecret)' is not hexadecimal (App Store Connect shows 32 hex digits)")
            }
        }
        guard customers >= 0 else { throw ValidationError("--customers \(customers) is negative") }
        if !apiKeys.isEmpty, issuer == nil { throw ValidationError("--api-key needs --issuer (the keys' issuer id)") }
        if issuer != nil, apiKeys.isEmpty { throw ValidationError("--issuer names the issuer of --api-key keys; give at least one") }
        if noAuth, !apiKeys.isEmpty { throw ValidationError("--no-auth checks no key: leave out --api-key or --no-auth") }
        var keyIdentifiers = Set<String>()
        for spec in apiKeys {
            guard let keyIdentifier = Self.keySpec(spec)?.keyIdentifier else { throw ValidationError("--api-key '\(spec)' is not KEYID=FILE") }
            guard keyIdentifiers.insert(keyIdentifier).inserted else { throw ValidationError("--api-key: the key id '\(keyIdentifier)' is given twice") }
        }
        if let rateLimits, ServerAPIRateLimits.named[rateLimits] == nil {
            throw ValidationError("--rate-limits '\(rateLimits)' is not one of: \(ServerAPIRateLimits.named.keys.sorted().joined(separator: ", "))")
        }
        if let timeRate, StoreTimeRate(timeRate) == nil {
            throw ValidationError("--time-rate '\(timeRate)' is not one of: \(StoreTimeRate.spellings)")
        }
        do throws(NotifyURLError) {
            _ = try NotifyURLs.parse(notifyURLs)
        } catch {
            throw ValidationError(error.description)
        }
        guard notifyTimeout > 0, notifyTimeout <= 600 else {
            throw ValidationError("--notify-timeout \(notifyTimeout) is not between 0 and 600 seconds")
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
        options.journalCapacity = journalSize
        var tlsNote = ""
        if let tlsPort {
            let directory = URL(fileURLWithPath: tlsDir)
            let (authority, note) = try TLSDirectory.authority(in: directory, now: Int64(Date().timeIntervalSince1970))
            let files = authority.files
            options.tls = TLSListener(port: tlsPort, certificateChainPEM: String(decoding: files["server.pem"]!, as: UTF8.self),
                                      privateKeyPEM: String(decoding: files["server.key.pem"]!, as: UTF8.self))
            tlsNote = note
        }
        options.sharedSecret = sharedSecret
        options.acceptXcode = acceptXcode
        options.faults = try faults.map { try FaultPlan(spec: $0, seed: seed) }
        let appDescription = try app.description(context: "forge serve")
        let settings = try reference.settings()
        options.rateLimits = rateLimits.flatMap { ServerAPIRateLimits.named[$0] }
        // validate() checked the spelling.
        let clock = timeRate.flatMap(StoreTimeRate.init).map { rate in
            // The stores count only the steps between its readings: any start will do.
            ScaledClockSource(start: 0, rate: rate.factor)
        }
        options.stores = LocalAppStores(StoreConfiguration(app: appDescription, seed: seed, start: settings.creationDate * 1_000,
                                                           customers: customers), clock: clock)
        options.serverAPIAuthentication = try serverAPIAuthentication(bundleIdentifier: appDescription.bundleIdentifier)
        // validate() checked the URLs.
        options.notifyURLs = try NotifyURLs.parse(notifyURLs)
        options.notifyTimeout = .milliseconds(Int64((notifyTimeout * 1_000).rounded()))
        options.notifyTrustRoots = try loadCertificates(notifyCAs, option: "--notify-ca", context: "forge serve").map { Array($0.encoded) }
        let notifyLines = [AppEnvironment.production, .sandbox].compactMap { environment in
            options.notifyURLs[environment].map { "forge serve: Server Notifications V2, \(environment.rawValue.lowercased()): \($0)\n" }
        }.joined()

        var logger = Logger(label: "forge-serve") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = quiet ? .warning : .info
        let host = host
        let tlsLine = tlsNote
        do {
            try await ForgeServeServer(options: options, logger: logger).run(onRunning: { port in
                // Unbuffered, so a script or test reading the port sees it at once.
                FileHandle.standardOutput.write(Data(("forge serve: listening on http://\(host):\(port) "
                    + "(POST /verifyReceipt, POST /sandbox/verifyReceipt, GET /health)\n"
                    + "forge serve: App Store Server API, production: http://\(host):\(port)\n"
                    + "forge serve: App Store Server API, sandbox: http://\(host):\(port)/sandbox\n" + notifyLines).utf8))
            }, onTLSRunning: { port in
                FileHandle.standardOutput.write(Data(("forge serve: listening on https://\(host):\(port) (HTTP/2, HTTP/1.1; "
                    + "api.storekit.apple.com and api.storekit-sandbox.apple.com by name; \(tlsLine))\n").utf8))
            })
        } catch {
            printError("forge serve: cannot serve on \(host):\(port): \(error)")
            throw ForgeExit.ioError.code
        }
    }

    /// `KEYID=FILE` split at the first `=`; nil when either side is empty.
    static func keySpec(_ spec: String) -> (keyIdentifier: String, path: String)? {
        guard let equals = spec.firstIndex(of: "=") else { return nil }
        let keyIdentifier = String(spec[..<equals])
        let path = String(spec[spec.index(after: equals)...])
        return keyIdentifier.isEmpty || path.isEmpty ? nil : (keyIdentifier, path)
    }

    /// --no-auth, the --api-key keys, or the test key of --seed. A key file that cannot
    /// be read or is no P-256 key exits 74 or 65 naming it.
    private func serverAPIAuthentication(bundleIdentifier: String) throws -> ServerAPIAuthentication {
        if noAuth { return .disabled }
        guard let issuer else { return .testKey(seed: seed, bundleIdentifier: bundleIdentifier) }
        var keys: [APIKey] = []
        for spec in apiKeys {
            // validate() checked the form.
            let (keyIdentifier, path) = Self.keySpec(spec)!
            do throws(APIKeyError) {
                keys.append(try APIKey.load(contentsOfFile: path, issuerIdentifier: issuer, keyIdentifier: keyIdentifier))
            } catch {
                printError("forge serve: --api-key: \(error)")
                switch error {
                case .unreadable, .noFile: throw ForgeExit.ioError.code
                default: throw ForgeExit.malformedInput.code
                }
            }
        }
        do throws(DuplicateKeyIdentifierError) {
            return .bearerTokens(try BearerTokenVerifier(keys: keys, bundleIdentifier: bundleIdentifier))
        } catch {
            // validate() refuses a key id given twice.
            throw ValidationError("--api-key: \(error)")
        }
    }
}
