/// The `environment` a payload names and a verifier expects (Apple's `Environment`).
public enum JWSEnvironment: String, Codable, Hashable, Sendable, CaseIterable {
    /// The App Store.
    case production = "Production"
    /// The sandbox, for testers and TestFlight.
    case sandbox = "Sandbox"
    /// Xcode's StoreKit testing: signed by Xcode, not the App Store.
    case xcode = "Xcode"
    /// Local testing, as Apple's library names its unsigned test data.
    case localTesting = "LocalTesting"

    /// Xcode and LocalTesting data is not signed by the App Store: Apple's verifier
    /// skips the signature and chain for them and checks only the payload.
    public var skipsSignatureCheck: Bool { self == .xcode || self == .localTesting }
}
