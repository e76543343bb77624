import AppInput
import ForgeSupport

/// Counts the requests of each endpoint and environment in the current window of its
/// `ServerAPIRateLimit` and refuses those over it, telling when the next one will be
/// accepted (the start of the next window). Thread-safe: the server asks from many
/// threads at once. The clock is the caller's (`admit(_:in:at:)`), so tests drive it.
public final class ServerAPIRateLimiter: Sendable {
    public let limits: ServerAPIRateLimits
    private let windows = Locked<[Key: Window]>([:])

    private struct Key: Hashable {
        let endpoint: ServerAPIEndpoint.Name
        let environment: AppEnvironment
    }

    private struct Window {
        let index: Int64
        var count: Int
    }

    public enum Admission: Sendable, Hashable {
        case admitted
        /// Over the limit: the UNIX time in milliseconds from which a request is admitted again.
        case refused(retryAt: Int64, limit: ServerAPIRateLimit)
    }

    public init(limits: ServerAPIRateLimits) {
        self.limits = limits
    }

    /// Counts a request to `endpoint` in `environment` at `now` (UNIX milliseconds), or refuses it.
    public func admit(_ endpoint: ServerAPIEndpoint.Name, in environment: AppEnvironment, at now: Int64) -> Admission {
        guard let limit = limits.limit(endpoint, in: environment) else { return .admitted }
        // Floor division: windows are aligned on the UNIX epoch, before it too.
        let index = now >= 0 ? now / limit.windowMilliseconds : -((-now + limit.windowMilliseconds - 1) / limit.windowMilliseconds)
        let key = Key(endpoint: endpoint, environment: environment)
        return windows.withLock { windows in
            // A reading taken a moment before another thread's later one counts in the later window.
            var window = windows[key].flatMap { $0.index >= index ? $0 : nil } ?? Window(index: index, count: 0)
            guard window.count < limit.requests else {
                return .refused(retryAt: (window.index + 1) * limit.windowMilliseconds, limit: limit)
            }
            window.count += 1
            windows[key] = window
            return .admitted
        }
    }
}
