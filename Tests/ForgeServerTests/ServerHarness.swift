import ForgeServer
import Foundation
import StoreNotifications
import StrictJSON
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import ReceiptForge
import ServiceLifecycle
import StoreServerAPI
import XCTest

/// A `forge serve` started inside a test: 127.0.0.1, an ephemeral port, stopped
/// (gracefully) when the body returns. Requests go over loopback with URLSession
/// (libcurl on Linux): a real HTTP client, with no package to build for it.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
struct ServerHarness: Sendable {
    let port: Int
    let group: ServiceGroup
    let log: LogCapture
    /// The server's notification channels (outboxes, stores).
    let notifications: StoreNotifications.ServerNotifications

    var base: String { "http://127.0.0.1:\(port)" }

    /// Starts a server with `options` (host and port are forced to 127.0.0.1:0), runs
    /// `body`, then shuts the server down and waits for it.
    static func with<T: Sendable>(_ options: ServeOptions = ServeOptions(),
                                  _ body: (ServerHarness) async throws -> T) async throws -> T {
        var options = options
        options.host = "127.0.0.1"
        options.port = 0
        let log = LogCapture()
        var logger = Logger(label: "forge-serve-test") { _ in log }
        logger.logLevel = .info
        let ports = AsyncStream<Int>.makeStream()
        let server = try ForgeServeServer(options: options, logger: logger)
        let group = ServiceGroup(configuration: .init(services: try server.services { ports.continuation.yield($0) },
                                                      gracefulShutdownSignals: [], logger: logger))
        let running = Task { try await group.run() }
        var iterator = ports.stream.makeAsyncIterator()
        guard let port = await iterator.next() else { throw HarnessError("the server never reported its port") }
        let harness = ServerHarness(port: port, group: group, log: log, notifications: server.notifications)
        do {
            let result = try await body(harness)
            await group.triggerGracefulShutdown()
            try await running.value
            return result
        } catch {
            await group.triggerGracefulShutdown()
            _ = try? await running.value
            throw error
        }
    }

    struct Reply: Sendable {
        let http: Int
        let headers: [(String, String)]
        let body: [UInt8]

        var text: String { String(decoding: body, as: UTF8.self) }

        /// The JSON body, an object.
        func json(file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
            let object = try JSONValue(json: Data(body))
            XCTAssertNotNil(object.objectValue, "not a JSON object: \(text)", file: file, line: line)
            return object
        }

        /// `status` of the JSON body.
        func status(file: StaticString = #filePath, line: UInt = #line) throws -> Int {
            try XCTUnwrap(try json(file: file, line: line)["status"]?.intValue, "no status in \(text)", file: file, line: line)
        }

        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    }

    /// Sends `body` to `path` with `method` and `headers`.
    func send(_ path: String, method: String = "POST", body: [UInt8]? = nil, headers: [(String, String)] = [],
              timeout: TimeInterval = 30) async throws -> Reply {
        try await HTTP.send(to: base + path, method: method, body: body, headers: headers, timeout: timeout)
    }

    /// A verifyReceipt request for `receipt` (nil: no receipt-data) at production or sandbox.
    func verify(_ receipt: [UInt8]?, at endpoint: VerifyReceiptEndpoint = .production, password: String? = nil,
                excludeOld: Bool? = nil, headers: [(String, String)] = []) async throws -> Reply {
        try await send(endpoint == .production ? "/verifyReceipt" : "/sandbox/verifyReceipt",
                       body: Self.requestBody(receipt, password: password, excludeOld: excludeOld), headers: headers)
    }

    static func requestBody(_ receipt: [UInt8]?, password: String? = nil, excludeOld: Bool? = nil) -> [UInt8] {
        var object: JSONValue = [:]
        if let receipt { object["receipt-data"] = .string(Data(receipt).base64EncodedString()) }
        if let password { object["password"] = .string(password) }
        if let excludeOld { object["exclude-old-transactions"] = .bool(excludeOld) }
        return Array(object.jsonText.utf8)
    }
}

/// One HTTP exchange over URLSession: no cookies, no cache, no retries of its own.
enum HTTP {
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 16
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }()

    static func send(to url: String, method: String = "POST", body: [UInt8]? = nil, headers: [(String, String)] = [],
                     timeout: TimeInterval = 30) async throws -> ServerHarness.Reply {
        guard let address = URL(string: url) else { throw HarnessError("not a URL: \(url)") }
        var request = URLRequest(url: address, timeoutInterval: timeout)
        request.httpMethod = method
        for (name, value) in headers { request.addValue(value, forHTTPHeaderField: name) }
        if let body { request.httpBody = Data(body) }
        let (data, response) = try await session.data(for: request)
        guard let response = response as? HTTPURLResponse else { throw HarnessError("no HTTP response from \(url)") }
        let headers = response.allHeaderFields.map { ("\($0.key)", "\($0.value)") }
        return ServerHarness.Reply(http: response.statusCode, headers: headers, body: [UInt8](data))
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Keeps the server's log lines, so a test can check the one line per request. A value,
/// as swift-log expects of a handler: each `Logger` copy has its own metadata (Hummingbird
/// sets a request id on each request's copy, from many threads at once); the lines go to
/// one locked sink that every copy shares.
struct LogCapture: LogHandler, Sendable {
    final class Sink: @unchecked Sendable {
        // @unchecked: `storage` is only touched under `lock`.
        private let lock = NSLock()
        private var storage: [String] = []

        var lines: [String] { lock.withLock { storage } }
        func append(_ line: String) { lock.withLock { storage.append(line) } }
    }

    private let sink = Sink()
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    var lines: [String] { sink.lines }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        sink.append(event.message.description)
    }
}

/// Every case of the catalogue, minted once per test run with the committed CA.
enum Minted {
    static let forge = Forge()
    static let cases: [MintedCase] = {
        do { return try forge.mintAll() } catch { preconditionFailure("minting failed: \(error)") }
    }()

    static func named(_ id: String) -> MintedCase {
        guard let minted = cases.first(where: { $0.id == id }) else { preconditionFailure("no case \(id)") }
        return minted
    }

    static func receipt(_ id: String) -> [UInt8] {
        guard let receipt = named(id).receipt else { preconditionFailure("case \(id) has no receipt") }
        return receipt
    }
}
