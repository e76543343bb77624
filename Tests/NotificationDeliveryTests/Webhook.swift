import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// A webhook on 127.0.0.1 (an ephemeral port) for a test: `/status/NNN` answers NNN,
/// `/hang` answers only when the test releases it (after its sender timed out),
/// `/redirect/loop` redirects to itself, `/big` answers 200 with 1 MiB. Every request
/// is recorded.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class Webhook: @unchecked Sendable {
    // @unchecked: `received` and `hanging` are only touched with `lock` held.
    private let lock = NSLock()
    private var received: [(path: String, contentType: String?, body: [UInt8])] = []
    private var hanging: [CheckedContinuation<Void, Never>] = []
    private var released = false

    var requests: [(path: String, contentType: String?, body: [UInt8])] {
        lock.withLock { received }
    }

    /// Lets every hanging request (and every later one) answer.
    func releaseHanging() {
        let waiting = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            released = true
            defer { hanging = [] }
            return hanging
        }
        waiting.forEach { $0.resume() }
    }

    private func hang() async {
        await withCheckedContinuation { continuation in
            let resumeNow = lock.withLock { () -> Bool in
                if released { return true }
                hanging.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    private func record(_ request: Request, path: String) async throws {
        let body = try await request.body.collect(upTo: 1 << 20)
        let bytes = Array(body.readableBytesView)
        lock.withLock { received.append((path, request.headers[.contentType], bytes)) }
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
            await webhook.hang()
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
        let ports = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "webhook")
        logger.logLevel = .warning
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { channel in ports.continuation.yield(channel.localAddress?.port ?? 0) },
                              logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let running = Task { try await group.run() }
        var iterator = ports.stream.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw WebhookError("the webhook never reported its port") }
        func stop() async {
            webhook.releaseHanging()
            await group.triggerGracefulShutdown()
            _ = await running.result
        }
        do {
            let result = try await body(webhook, "http://127.0.0.1:\(port)")
            await stop()
            return result
        } catch {
            await stop()
            throw error
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

struct WebhookError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
