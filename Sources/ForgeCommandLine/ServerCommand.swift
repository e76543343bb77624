/// The subcommands of `forge` that live in the `forge-serve` executable: they need an
/// HTTP server or client (SwiftNIO, Hummingbird, async-http-client), which minting,
/// checking and verifying never use, so `forge` does not link them. `forge` lists
/// each in its help and hands `forge NAME …` over to `forge-serve NAME …`.
public enum ServerCommand: String, CaseIterable, Sendable {
    case serve

    /// The executable that holds these subcommands, built beside `forge`.
    public static let executableName = "forge-serve"

    /// The one-line summary `forge --help` and `forge NAME --help` both show.
    public var abstract: String {
        switch self {
        case .serve:
            return "Answer like Apple's verifyReceipt and App Store Server API, from the forge's receipts and a local App Store."
        }
    }
}
