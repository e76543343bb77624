import Foundation
import Hummingbird
import NIOCore

/// The host names of Apple's App Store Server API, as Apple's clients call them, and the
/// store each reaches on the HTTPS listener (`forge serve --tls-port`): a client built
/// exactly as in production, with only its name resolution and trust pointed at the
/// forge, reaches the matching store.
///
/// - `api.storekit.apple.com` (Apple's `Environment.PRODUCTION`): the production store, as
///   the paths say (`/inApps/…`);
/// - `api.storekit-sandbox.apple.com` (`Environment.SANDBOX`): the sandbox store: its
///   `/inApps/…` paths are answered as `/sandbox/inApps/…` (`/health` stays `/health`);
/// - `local-testing-base-url` (`Environment.LOCAL_TESTING`): refused with 421 and a
///   message, until the forge has a LocalTesting store;
/// - any other name (`localhost`, `127.0.0.1`): the paths decide, as on plain HTTP.
package enum AppleHost: String, CaseIterable, Sendable {
    case production = "api.storekit.apple.com"
    case sandbox = "api.storekit-sandbox.apple.com"
    case localTesting = "local-testing-base-url"

    /// The host of a request's authority (`Host`, or HTTP/2's `:authority`), without the
    /// port, lower-cased; nil for none.
    package static func named(authority: String?) -> AppleHost? {
        guard var host = authority?.lowercased() else { return nil }
        if let colon = host.lastIndex(of: ":"), !host.hasSuffix("]") { host = String(host[..<colon]) }
        if host.hasSuffix(".") { host.removeLast() }
        return AppleHost(rawValue: host)
    }
}

/// Routes a request by its host name (`AppleHost`) before `inner` routes it by path.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
struct HostRoutedResponder: HTTPResponder {
    typealias Context = ForgeRequestContext
    let inner: ForgeServeResponder

    func respond(to request: Request, context: Context) async throws -> Response {
        switch AppleHost.named(authority: request.head.authority) {
        case .sandbox:
            let path = request.head.path ?? "/"
            guard path.hasPrefix("/inApps/") else { return try await inner.respond(to: request, context: context) }
            var head = request.head
            head.path = "/sandbox" + path
            return try await inner.respond(to: Request(head: head, body: request.body), context: context)
        case .localTesting:
            let message = "forge serve: local-testing-base-url (Apple's Environment.LOCAL_TESTING) has no store yet; "
                + "use api.storekit-sandbox.apple.com (Environment.SANDBOX) or api.storekit.apple.com\n"
            return Response(status: .misdirectedRequest, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: message)))
        case .production, nil:
            return try await inner.respond(to: request, context: context)
        }
    }
}
