/// The subcommands of `forge` that live in the `forge-serve` executable: they need an
/// HTTP server or client (SwiftNIO, Hummingbird, async-http-client), which minting,
/// checking and verifying never use, so `forge` does not link them. `forge` lists
/// each in its help and hands `forge NAME …` over to `forge-serve NAME …` before
/// parsing. `forge scenario run --notify URL` is handed over too, after parsing
/// (`ScenarioRunOptions.notify`): without `--notify` the run stays in `forge`.
package enum ServerCommand: String, CaseIterable, Sendable {
    case serve
    case notify
    case health

    /// The executable that holds these subcommands, built beside `forge`.
    package static let executableName = "forge-serve"

    /// The one-line summary `forge --help` and `forge NAME --help` both show.
    package var abstract: String {
        switch self {
        case .serve:
            return "Answer like Apple's verifyReceipt and App Store Server API, from the forge's receipts and a local App Store."
        case .notify:
            return "Send App Store Server Notifications V2 to a webhook, retried on Apple's schedule."
        case .health:
            return "Ask a running forge serve for /health: exit 0 when it answers 200 (the image's HEALTHCHECK)."
        }
    }
}
