import AppInput

/// The path prefixes of an API's two base URLs, production's and the sandbox's (a
/// client picks the environment by base URL, as with Apple's): how the Server API
/// (`/inApps/`, `/sandbox/inApps/`) and the control API (`/forge/v1/`,
/// `/sandbox/forge/v1/`) route a request to a store.
public struct EnvironmentPrefixes: Sendable, Hashable {
    public let production: String
    public let sandbox: String

    public init(production: String, sandbox: String) {
        self.production = production
        self.sandbox = sandbox
    }

    public func prefix(of environment: AppEnvironment) -> String {
        environment == .production ? production : sandbox
    }

    /// The environment whose prefix `target` (a request target's path) starts with, and
    /// what follows the prefix up to a query (`?…`, cut off: each API takes its query,
    /// if any, apart); nil outside both.
    public func route(_ target: String) -> (environment: AppEnvironment, rest: Substring)? {
        let path = target.prefix { $0 != "?" }
        if path.hasPrefix(production) { return (.production, path.dropFirst(production.count)) }
        if path.hasPrefix(sandbox) { return (.sandbox, path.dropFirst(sandbox.count)) }
        return nil
    }
}
