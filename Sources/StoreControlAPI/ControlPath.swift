import APIMessage
import AppInput

/// Where a control request goes: the environment its path prefix names and the verb
/// after it. A client picks the environment by base URL, as with the App Store Server
/// API: `/forge/v1/` is production, `/sandbox/forge/v1/` sandbox.
public struct ControlPath: Sendable, Hashable {
    public static let prefixes = EnvironmentPrefixes(production: "/forge/v1/", sandbox: "/sandbox/forge/v1/")

    public let environment: AppEnvironment
    /// What follows the prefix (not necessarily a verb: the handler answers 404 for others).
    public let verbName: String

    /// The control path `path` stands for, or nil when it is outside the control API.
    /// A query (`?…`) is ignored: the control API takes its input from the body.
    public init?(_ path: String) {
        guard let (environment, rest) = Self.prefixes.route(path) else { return nil }
        self.environment = environment
        verbName = String(rest)
    }
}
