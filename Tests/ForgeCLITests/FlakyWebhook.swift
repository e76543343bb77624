import ForgeServer
import Foundation
import Hummingbird
import WebhookTestSupport

/// A webhook on 127.0.0.1 (an ephemeral port) that answers 500 to the first
/// `failures` requests and 200 after, recording each body: the other end of
/// `forge notify` in a test.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class FlakyWebhook: @unchecked Sendable {
    // @unchecked: `bodies` is only touched with `lock` held.
    private let lock = NSLock()
    private var bodies: [[UInt8]] = []
    let failures: Int

    init(failures: Int) {
        self.failures = failures
    }

    var received: [[UInt8]] { lock.withLock { bodies } }

    private func answer(_ body: [UInt8]) -> HTTPResponse.Status {
        lock.withLock {
            bodies.append(body)
            return bodies.count <= failures ? .internalServerError : .ok
        }
    }

    /// Runs `body` with the webhook's URL, then stops the webhook.
    static func with<T: Sendable>(failures: Int, _ body: (FlakyWebhook, String) async throws -> T) async throws -> T {
        let webhook = FlakyWebhook(failures: failures)
        let router = Router()
        router.post("notifications") { request, _ -> Response in
            let bytes = try await request.body.bytes(upTo: 1 << 20)
            return Response(status: webhook.answer(bytes))
        }
        return try await LocalWebhookServer.with(router, label: "flaky-webhook") { base in
            try await body(webhook, base + "/notifications")
        }
    }
}
