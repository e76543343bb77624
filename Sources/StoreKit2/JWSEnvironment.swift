/// The `environment` a payload names and a verifier expects (Apple's `Environment`).
public enum JWSEnvironment: String, Codable, Hashable, Sendable, CaseIterable {
    case production = "Production"
    case sandbox = "Sandbox"
    case xcode = "Xcode"
    case localTesting = "LocalTesting"

    /// Xcode and LocalTesting data is not signed by the App Store: Apple's verifier
    /// skips the signature and chain for them and checks only the payload.
    public var skipsSignatureCheck: Bool { self == .xcode || self == .localTesting }
}
