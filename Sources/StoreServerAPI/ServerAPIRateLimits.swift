import AppInput

/// How many requests an endpoint takes in a window of time: `requests` in each
/// `windowMilliseconds`-long window of the UNIX clock (windows start at multiples of it).
public struct ServerAPIRateLimit: Sendable, Hashable, CustomStringConvertible {
    public let requests: Int
    public let windowMilliseconds: Int64

    public init(requests: Int, windowMilliseconds: Int64) {
        precondition(requests > 0 && windowMilliseconds > 0, "a rate limit lets something through")
        self.requests = requests
        self.windowMilliseconds = windowMilliseconds
    }

    public static func perSecond(_ requests: Int) -> ServerAPIRateLimit {
        ServerAPIRateLimit(requests: requests, windowMilliseconds: 1_000)
    }

    /// A tenth of the limit, as the sandbox has: exact in whole requests, so 50 per
    /// second becomes 5 per second and 1 per second becomes 1 per 10 seconds.
    public var tenth: ServerAPIRateLimit {
        requests % 10 == 0
            ? ServerAPIRateLimit(requests: requests / 10, windowMilliseconds: windowMilliseconds)
            : ServerAPIRateLimit(requests: requests, windowMilliseconds: windowMilliseconds * 10)
    }

    public var description: String { "\(requests) per \(windowMilliseconds) ms" }
}

/// Per-endpoint limits of the App Store Server API (`--rate-limits`).
///
/// Apple limits requests per app and endpoint; the sandbox allows 10 % of production.
/// Apple says it enforces its per-second figures over an hour; the forge enforces them
/// per second (per window), so that a client's 429 path is reached within a test.
public struct ServerAPIRateLimits: Sendable, Hashable {
    /// The production limits; an endpoint without one is not limited.
    public var production: [ServerAPIEndpoint.Name: ServerAPIRateLimit]

    public init(production: [ServerAPIEndpoint.Name: ServerAPIRateLimit]) {
        self.production = production
    }

    /// The limit of `endpoint` in `environment` (the sandbox's is a tenth), or nil.
    public func limit(_ endpoint: ServerAPIEndpoint.Name, in environment: AppEnvironment) -> ServerAPIRateLimit? {
        guard let limit = production[endpoint] else { return nil }
        return environment == .sandbox ? limit.tenth : limit
    }

    /// `--rate-limits apple`: the figures of Apple's "Identifying rate limits"
    /// (<https://developer.apple.com/documentation/appstoreserverapi/identifying-rate-limits>;
    /// rate limits are per app and endpoint, the sandbox's 10 % of production's): Get
    /// Transaction Info and Get Transaction History (v1 and v2, each its own endpoint) 50
    /// per second; Request a Test Notification and Get Test Notification Status 1 per
    /// second (so 1 per 10 seconds in the sandbox). The other endpoints have no figure in
    /// the reference this table was taken from, so they are not limited rather than
    /// limited at a guessed rate.
    public static let apple = ServerAPIRateLimits(production: [
        .getTransactionInfo: .perSecond(50),
        .getTransactionHistory: .perSecond(50),
        .getTransactionHistoryV1: .perSecond(50),
        .requestTestNotification: .perSecond(1),
        .getTestNotificationStatus: .perSecond(1),
    ])

    /// The names `--rate-limits` takes.
    public static let named: [String: ServerAPIRateLimits] = ["apple": .apple]

    /// One line per limited endpoint, for help and the start-up message.
    public var summary: String {
        ServerAPIEndpoint.Name.allCases.compactMap { name in
            production[name].map { "\(name.rawValue): \($0) (sandbox \($0.tenth))" }
        }.joined(separator: "; ")
    }
}
