import ForgeServer
import Foundation
import Hummingbird
import StrictJSON
import WebhookTestSupport

/// A webhook on 127.0.0.1 (an ephemeral port) for `forge serve --notify-url` tests:
/// POST `/hook` answers the statuses of `script` in turn, then 200; POST `/hang` answers
/// only when the webhook stops. Every request's body is kept, and a test waits for the
/// n-th with `received(_:within:)`, not with a sleep.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class NotificationWebhook: @unchecked Sendable {
    // @unchecked: every `var` is only touched with `lock` held.
    private let lock = NSLock()
    private var script: [Int]
    private var bodies: [[UInt8]] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    /// Where `/hang` holds its requests until the webhook stops.
    private let hanging = Gate()

    private init(script: [Int]) {
        self.script = script
    }

    /// The bodies received so far, in order.
    var requests: [[UInt8]] { lock.withLock { bodies } }

    /// The `signedPayload` of each request so far.
    var signedPayloads: [String] {
        requests.compactMap { try? JSONValue(json: Data($0))["signedPayload"]?.stringValue }
    }

    /// Waits until `count` requests have arrived, failing after `deadline`.
    func received(_ count: Int, within deadline: Duration = .seconds(30)) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let now = self.lock.withLock { () -> Bool in
                        if self.bodies.count >= count { return true }
                        self.waiters.append((count, continuation))
                        return false
                    }
                    if now { continuation.resume() }
                }
            }
            group.addTask {
                try await Task.sleep(for: deadline)
                throw HarnessError("the webhook got \(self.requests.count) requests, not \(count), within \(deadline)")
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Keeps the request and answers the status of its turn (`scripted`) or 200.
    private func record(_ request: Request, scripted: Bool) async throws -> Int {
        let body = try await request.body.bytes(upTo: 1 << 20)
        let (status, ready) = lock.withLock { () -> (Int, [CheckedContinuation<Void, Never>]) in
            bodies.append(body)
            let status = !scripted || script.isEmpty ? 200 : script.removeFirst()
            let ready = waiters.filter { $0.count <= bodies.count }.map(\.continuation)
            waiters.removeAll { $0.count <= bodies.count }
            return (status, ready)
        }
        ready.forEach { $0.resume() }
        return status
    }

    /// Runs `body` with the webhook and its base URL, then stops it.
    static func with<T: Sendable>(script: [Int] = [], _ body: (NotificationWebhook, String) async throws -> T) async throws -> T {
        let webhook = NotificationWebhook(script: script)
        let router = Router()
        router.post("hook") { request, _ -> Response in
            Response(status: .init(code: try await webhook.record(request, scripted: true)))
        }
        router.post("hang") { request, _ -> Response in
            _ = try await webhook.record(request, scripted: false)
            await webhook.hanging.wait()
            return Response(status: .ok)
        }
        return try await LocalWebhookServer.with(router, label: "notification-webhook", beforeStop: { webhook.hanging.open() }) { base in
            try await body(webhook, base)
        }
    }
}
