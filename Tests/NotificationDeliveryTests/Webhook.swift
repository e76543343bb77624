import ForgeServer
import Foundation
import Hummingbird
import NIOCore
import NIOPosix
import WebhookTestSupport

/// A webhook on 127.0.0.1 (an ephemeral port) for a test: `/status/NNN` answers NNN,
/// `/hang` answers only when the test releases it (after its sender timed out),
/// `/redirect/loop` redirects to itself, `/big` answers 200 with 1 MiB. Two slow ones,
/// slow by what reaches them rather than by a clock: `/gather/N` answers no request until
/// N are waiting at once, then all of them; `/first-waits/N` answers its first request
/// only once N requests have arrived in all, the others at once. Every request is recorded.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class Webhook: @unchecked Sendable {
    // @unchecked: `received`, `gathered`, `arrivals` and `firstHeld` are only touched with `lock` held.
    private let lock = NSLock()
    private var received: [(path: String, contentType: String?, body: [UInt8])] = []
    /// Where `/hang` holds its requests until the test releases them or the webhook stops.
    private let hanging = Gate()

    /// `/gather/N`'s requests waiting for the rest of their group.
    private var gathered: [CheckedContinuation<Void, Never>] = []
    /// `/first-waits/N`: the requests that arrived so far, and the first one's answer, held.
    private var arrivals = 0
    private var firstHeld: CheckedContinuation<Void, Never>?

    private let arrived = AsyncStream.makeStream(of: String.self)
    /// The path of each request as it arrives (recorded), for a test to wait on.
    var incoming: AsyncStream<String> { arrived.stream }

    /// Lets every hanging request (and every later one) answer.
    func releaseHanging() {
        hanging.open()
    }

    var requests: [(path: String, contentType: String?, body: [UInt8])] {
        lock.withLock { received }
    }

    private func record(_ request: Request, path: String) async throws {
        let bytes = try await request.body.bytes(upTo: 1 << 20)
        lock.withLock { received.append((path, request.headers[.contentType], bytes)) }
        arrived.continuation.yield(path)
    }

    /// Waits until `size` requests wait here at once, then lets them all answer.
    private func gather(_ size: Int) async {
        await withCheckedContinuation { continuation in
            let group = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
                gathered.append(continuation)
                guard gathered.count >= size else { return [] }
                defer { gathered = [] }
                return gathered
            }
            group.forEach { $0.resume() }
        }
    }

    /// The first request waits until `total` have arrived; the others go on at once (and
    /// the last of them lets the first answer).
    private func firstWaits(forAll total: Int) async {
        await withCheckedContinuation { continuation in
            let released = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
                arrivals += 1
                if arrivals == 1 {
                    firstHeld = continuation
                    return total == 1 ? [continuation] : []
                }
                var released = [continuation]
                if arrivals == total, let first = firstHeld {
                    released.append(first)
                    firstHeld = nil
                }
                return released
            }
            released.forEach { $0.resume() }
        }
    }

    /// Runs `body` with the webhook's base URL, then stops the webhook.
    static func with<T: Sendable>(_ body: (Webhook, String) async throws -> T) async throws -> T {
        let webhook = Webhook()
        let router = Router()
        router.post("status/:code") { request, context -> Response in
            try await webhook.record(request, path: "status")
            let code = try context.parameters.require("code", as: Int.self)
            return Response(status: .init(code: code))
        }
        router.post("hang") { request, _ -> Response in
            try await webhook.record(request, path: "hang")
            await webhook.hanging.wait()
            return Response(status: .ok)
        }
        router.post("gather/:size") { request, context -> Response in
            try await webhook.record(request, path: "gather")
            await webhook.gather(try context.parameters.require("size", as: Int.self))
            return Response(status: .ok)
        }
        router.post("first-waits/:total") { request, context -> Response in
            try await webhook.record(request, path: "first-waits")
            await webhook.firstWaits(forAll: try context.parameters.require("total", as: Int.self))
            return Response(status: .ok)
        }
        router.post("redirect/loop") { request, _ -> Response in
            try await webhook.record(request, path: "redirect")
            return Response(status: .temporaryRedirect, headers: [.location: "/redirect/loop"])
        }
        router.post("big") { request, _ -> Response in
            try await webhook.record(request, path: "big")
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(repeating: 0x41, count: 1 << 20)))
        }
        return try await LocalWebhookServer.with(router, label: "webhook", beforeStop: { webhook.hanging.open() }) { base in
            try await body(webhook, base)
        }
    }
}

/// A TCP listener on 127.0.0.1 that accepts each connection and closes it at the first
/// byte: a webhook that hangs up before answering.
final class HangingUp: Sendable {
    let channel: any Channel

    init() async throws {
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in channel.pipeline.addHandler(CloseOnRead()) }
            .bind(host: "127.0.0.1", port: 0).get()
    }

    var url: String { "http://127.0.0.1:\(channel.localAddress?.port ?? 0)/" }

    func close() async { try? await channel.close() }

    private final class CloseOnRead: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        func channelRead(context: ChannelHandlerContext, data: NIOAny) { context.close(promise: nil) }
    }
}
