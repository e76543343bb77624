import APIMessage
import Foundation
import Hummingbird
import Logging
import NIOCore
import StoreControlAPI
import StoreServerAPI
import StrictJSON

/// The HTTP side of `forge serve`: routes, methods, body limits, faults, one log line
/// per request. `VerifyReceiptService` makes the answers.
///
/// - `POST /verifyReceipt`, `POST /sandbox/verifyReceipt`: HTTP 200 and a JSON status
///   (GET or HEAD: status 21000, Apple's "not made with POST"; a method the OpenAPI
///   document does not declare there: 405 with `Allow`);
/// - `/inApps/…` and `/sandbox/inApps/…`: the App Store Server API (`ServerAPIHandler`);
/// - `/forge/v1/…` and `/sandbox/forge/v1/…`: the control API that drives the same
///   stores (`StoreControlHandler`; no token: it is the test's own handle on the store);
/// - `GET /health`: 200 `{"status":"ok"}` (another method: 405 with `Allow`);
/// - anything else: 404, naming what the server answers (`notFoundText`).
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
struct ForgeServeResponder: HTTPResponder {
    typealias Context = ForgeRequestContext

    let service: VerifyReceiptService
    /// The App Store Server API (`/inApps/…`, `/sandbox/inApps/…`).
    let serverAPI: ServerAPIHandler
    /// The control API (`/forge/v1/…`, `/sandbox/forge/v1/…`) over the same stores.
    let control: StoreControlHandler
    let faults: FaultPlan?
    let maximumBodySize: Int
    let readTimeout: Duration
    /// `ServeOptions.requestReceived`.
    let requestReceived: @Sendable (VerifyReceiptEndpoint) async -> Void
    let logger: Logger
    /// The last requests, for `GET /forge/v1/requests` (`ServeOptions.journalCapacity`).
    let journal: RequestJournal

    static let faultHeader = HTTPFields.Element.Name("X-Forge-Fault")!

    func respond(to request: Request, context: Context) async throws -> Response {
        let start = ContinuousClock.now
        var line = LogLine(method: request.method.rawValue, path: request.uri.path)
        defer {
            let elapsed = ContinuousClock.now - start
            line.milliseconds = Double(elapsed / .microseconds(1)) / 1000
            logger.info("\(line)")
            journal.record(line, query: request.uri.query, microseconds: Int64(elapsed / .microseconds(1)))
        }
        if let environment = RequestJournal.environment(ofJournalPath: request.uri.path) {
            return answerJournal(request, environment: environment, &line)
        }
        if ServerAPIEndpoint.isServerAPIPath(request.uri.path) {
            return try await answerServerAPI(request, context: context, &line)
        }
        if ControlPath(request.uri.path) != nil {
            return try await answerControl(request, context: context, &line)
        }
        let endpoint: VerifyReceiptEndpoint
        switch request.uri.path {
        case "/verifyReceipt": endpoint = .production
        case "/sandbox/verifyReceipt": endpoint = .sandbox
        case "/health" where request.method == .get || request.method == .head:
            line.http = 200
            return Self.json(.object([("status", .string("ok"))]))
        case ConsolePage.path where request.method == .get || request.method == .head:
            if let refusal = ConsolePage.refusal(query: request.uri.query) {
                line.http = 400
                line.verdict = refusal
                return Response(status: .badRequest, headers: [.contentType: "text/plain; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(string: refusal + "\n")))
            }
            line.http = 200
            return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(string: ConsolePage.html)))
        case ConsolePage.path:
            line.http = 405
            return Response(status: .methodNotAllowed, headers: [.contentType: "text/plain; charset=utf-8", .allow: "GET, HEAD"],
                            body: .init(byteBuffer: ByteBuffer(string: "method not allowed: the console takes GET\n")))
        case "/health":
            line.http = 405
            line.verdict = "use GET"
            return Response(status: .methodNotAllowed, headers: [.contentType: "text/plain; charset=utf-8", .allow: "GET, HEAD"],
                            body: .init(byteBuffer: ByteBuffer(string: "method not allowed: /health takes GET (or HEAD)\n")))
        default:
            line.http = 404
            return Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: Self.notFoundText)))
        }
        guard request.method == .post else {
            guard request.method == .get || request.method == .head else {
                line.http = 405
                line.verdict = "use POST"
                return Response(status: .methodNotAllowed, headers: [.contentType: "text/plain; charset=utf-8", .allow: "GET, HEAD, POST"],
                                body: .init(byteBuffer: ByteBuffer(string: "method not allowed: \(request.uri.path) takes POST (GET answers status 21000)\n")))
            }
            return answer(VerifyReceiptAnswer(.notPOST, verdict: "not-post"), &line)
        }

        let fault: Fault?
        let body: [UInt8]
        switch try await prelude(request, context: context, faultsFor: .verifyReceipt, &line) {
        case .proceed(let ready): (fault, body) = ready
        case .answered(let response): return response
        }
        await requestReceived(endpoint)

        switch fault {
        case .status:
            line.verdict = "fault"
            return answer(VerifyReceiptAnswer(fault: fault!), &line)
        case .http, .garbage:
            return transportFault(fault!, &line)
        case .delay(let milliseconds):
            try await Task.sleep(for: .milliseconds(milliseconds))
        case .apiError, .close, nil:
            // chooseFault keeps Server API errors away from verifyReceipt; close never gets here.
            break
        }
        return answer(service.answer(body: body, at: endpoint), &line)
    }

    // MARK: Faults

    /// A step before the handler: its value, or the answer to send instead (a fault header
    /// that names no fault of the surface, a body too large).
    private enum Step<Value> {
        case proceed(Value)
        case answered(Response)
    }

    /// The header's fault, or without the header one drawn from `--faults`, for a request to `surface`.
    private func chooseFault(_ request: Request, for surface: Fault.Surface, _ line: inout LogLine) -> Step<Fault?> {
        guard let text = request.headers[Self.faultHeader] else {
            let fault = faults?.next(for: surface)
            line.fault = fault?.description
            return .proceed(fault)
        }
        let spelling = text.trimmingCharacters(in: .whitespaces)
        let problem: String
        if let fault = Fault(spelling) {
            guard !fault.applies(to: surface) else {
                line.fault = fault.description
                return .proceed(fault)
            }
            problem = "is a fault of \(Fault.Surface.allCases.first { fault.applies(to: $0) }!), not of \(surface)"
        } else {
            problem = "is not a fault"
        }
        line.http = 400
        line.verdict = "bad-fault-header"
        return .answered(Response(status: .badRequest, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(
            string: "X-Forge-Fault '\(text)' \(problem): \(surface) takes one of: \(surface.spellings)\n"))))
    }

    /// The `close` fault: the connection goes without an answer.
    private func dropConnection(_ context: Context, _ line: inout LogLine) async throws -> Never {
        line.verdict = "connection-dropped"
        try await context.channel.close()
        throw ConnectionDroppedError()
    }

    /// `http-500`, `http-503` and `garbage`: what a failing front end sends, the same on every surface.
    private func transportFault(_ fault: Fault, _ line: inout LogLine) -> Response {
        line.verdict = "fault"
        switch fault {
        case .http(let code):
            line.http = code
            var headers: HTTPFields = [.contentType: "text/html; charset=utf-8"]
            if code == 503 { headers[.retryAfter] = "1" }
            return Response(status: .init(code: code), headers: headers,
                            body: .init(byteBuffer: ByteBuffer(string: "<html><body>\(code)</body></html>\n")))
        case .garbage:
            line.http = 200
            return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: "<html><body>Service temporarily unavailable</body></html>\n")))
        default:
            preconditionFailure("not a transport fault: \(fault)")
        }
    }

    /// What every request to a surface goes through before its handler: the fault for
    /// `surface` (none when nil) chosen, the connection dropped for `close`, the body read.
    private func prelude(_ request: Request, context: Context, faultsFor surface: Fault.Surface?,
                         _ line: inout LogLine) async throws -> Step<(fault: Fault?, body: [UInt8])> {
        var fault: Fault?
        if let surface {
            switch chooseFault(request, for: surface, &line) {
            case .proceed(let chosen): fault = chosen
            case .answered(let response): return .answered(response)
            }
        }
        if case .close = fault { try await dropConnection(context, &line) }
        switch try await readBody(request, context: context, &line) {
        case .proceed(let body): return .proceed((fault, body))
        case .answered(let response): return .answered(response)
        }
    }

    /// The body, up to the limit and within the read timeout.
    private func readBody(_ request: Request, context: Context, _ line: inout LogLine) async throws -> Step<[UInt8]> {
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > maximumBodySize {
            return .answered(tooLarge(context.channel, &line))
        }
        let channel = context.channel
        let timer = channel.eventLoop.scheduleTask(in: TimeAmount(readTimeout)) { channel.close(promise: nil) }
        do {
            let body = try await request.body.bytes(upTo: maximumBodySize)
            timer.cancel()
            return .proceed(body)
        } catch is NIOTooManyBytesError {
            timer.cancel()
            return .answered(tooLarge(channel, &line))
        } catch {
            timer.cancel()
            line.verdict = "body-not-received"
            throw error
        }
    }

    /// An App Store Server API request: the handler answers, this converts.
    ///
    /// Faults hit a request once it is routed to an endpoint, before and whatever its
    /// token: a fault stands for Apple's server failing, which a client must survive
    /// whatever its credentials, and a test that injects one needs no key. A path that
    /// is no endpoint stays 404 (405 for another method), as no server fails there.
    private func answerServerAPI(_ request: Request, context: Context, _ line: inout LogLine) async throws -> Response {
        var surface: Fault.Surface?
        if case .endpoint = ServerAPIEndpoint.route(method: request.method.rawValue, path: request.uri.path) { surface = .serverAPI }
        let fault: Fault?
        let body: [UInt8]
        switch try await prelude(request, context: context, faultsFor: surface, &line) {
        case .proceed(let ready): (fault, body) = ready
        case .answered(let response): return response
        }
        let answer: APIResponse
        switch fault {
        case .apiError(let error):
            let retryAt = error == .rateLimitExceeded
                ? AppleDate(serverAPI.wallClock()).milliseconds + Fault.retryAfterMilliseconds : nil
            answer = APIResponse.error(error, retryAt: retryAt, logDetail: "fault")
        case .http, .garbage:
            return transportFault(fault!, &line)
        case .delay(let milliseconds):
            try await Task.sleep(for: .milliseconds(milliseconds))
            answer = respondServerAPI(request, body: body)
        case .status, .close, nil:
            // chooseFault keeps verifyReceipt statuses away from the Server API; close never gets here.
            answer = respondServerAPI(request, body: body)
        }
        return response(answer, &line)
    }

    private func respondServerAPI(_ request: Request, body: [UInt8]) -> APIResponse {
        // A write's notifications are queued by the time the handler answers (the store
        // tells its channel, which wakes the courier): nothing to do here but convert.
        serverAPI.respond(to: ServerAPIRequest(
            method: request.method.rawValue, path: request.uri.path,
            query: ServerAPIRequest.queryItems(request.uri.query ?? ""),
            authorization: request.headers[.authorization], body: body))
    }

    /// A control API request: the handler answers, this converts.
    private func answerControl(_ request: Request, context: Context, _ line: inout LogLine) async throws -> Response {
        let body: [UInt8]
        switch try await prelude(request, context: context, faultsFor: nil, &line) {
        case .proceed(let ready): body = ready.body
        case .answered(let response): return response
        }
        // The store tells its channel of the write (advanceClock included, which may make
        // retries due though it records no event): the notifications are queued already.
        let answer = await Self.offThePool { [control] in
            control.respond(method: request.method.rawValue, path: request.uri.string, body: body)
        }
        return response(answer, &line)
    }

    /// Runs `work` on a Dispatch thread and waits for it without holding a thread of
    /// Swift's cooperative pool (two on a two-core machine): a control request may take
    /// long (an `advanceClock` of a year over 10,000 subscribers, the state of a large
    /// store), and meanwhile the pool must serve every other request, the courier and the
    /// ticker.
    static func offThePool<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }

    /// A handler's answer as Hummingbird's response; its `logDetail` (nil: "ok") is the log line's verdict.
    private func response(_ answer: APIResponse, _ line: inout LogLine) -> Response {
        line.http = answer.status
        line.verdict = answer.logDetail ?? "ok"
        line.authFailure = answer.headers.first { $0.name.lowercased() == "x-forge-auth-failure" }?.value
        if answer.status >= 400, let body = try? JSONParser.parse(answer.body) { line.appleErrorCode = body["errorCode"]?.intValue }
        var headers = HTTPFields()
        for header in answer.headers {
            if let name = HTTPFields.Element.Name(header.name) { headers.append(HTTPFields.Element(name: name, value: header.value)) }
        }
        return Response(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }

    private func answer(_ answer: VerifyReceiptAnswer, _ line: inout LogLine) -> Response {
        line.http = 200
        line.status = answer.status.rawValue
        if line.verdict == nil { line.verdict = answer.verdict }
        return Self.json(answer.json)
    }

    /// HTTP 413, then the connection is closed: the rest of the body is never read.
    private func tooLarge(_ channel: any Channel, _ line: inout LogLine) -> Response {
        line.http = 413
        line.verdict = "body-too-large"
        let text = ByteBuffer(string: "request body larger than \(maximumBodySize) bytes\n")
        return Response(status: .contentTooLarge, headers: [.contentType: "text/plain; charset=utf-8", .connection: "close"],
                        body: .init(contentLength: text.readableBytes) { writer in
                            try await writer.write(text)
                            try await writer.finish(nil)
                            // FIN after the answer, so the client reads it; the socket goes a moment later.
                            channel.close(mode: .output, promise: nil)
                            channel.eventLoop.scheduleTask(in: .milliseconds(200)) { channel.close(promise: nil) }
                        })
    }

    /// `GET /forge/v1/requests[?limit=N]`: the journal, newest first (the sandbox path: the sandbox's only).
    private func answerJournal(_ request: Request, environment: String?, _ line: inout LogLine) -> Response {
        guard request.method == .get || request.method == .head else {
            line.http = 405
            return Response(status: .methodNotAllowed, headers: [.contentType: "text/plain; charset=utf-8", .allow: "GET, HEAD"],
                            body: .init(byteBuffer: ByteBuffer(string: "the request journal answers GET\n")))
        }
        var limit = journal.capacity
        for item in ServerAPIRequest.queryItems(request.uri.query ?? "") {
            guard item.name == "limit", let value = Int(item.value), value >= 1 else {
                line.http = 400
                line.verdict = "bad journal query"
                return Response(status: .badRequest, headers: [.contentType: "text/plain; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(string: "query '\(item.name)=\(item.value)': the journal takes limit=N (N ≥ 1) only\n")))
            }
            limit = min(value, journal.capacity)
        }
        line.http = 200
        line.verdict = "ok"
        return Response(status: .ok, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: journal.json(limit: limit, environment: environment).bytes)))
    }

    /// The answer to a path outside every surface: what the server does answer.
    static let notFoundText = "not found: forge serve answers POST /verifyReceipt and /sandbox/verifyReceipt, "
        + "the App Store Server API below /inApps/ and /sandbox/inApps/, the control API below /forge/v1/ and "
        + "/sandbox/forge/v1/, GET /forge/console and GET /health (Schemas/forge-serve.openapi.json lists every path)\n"

    static func json(_ value: ResponseJSON) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json", deprecation: "true"],
                 body: .init(byteBuffer: ByteBuffer(bytes: value.bytes)))
    }

    /// Apple's verifyReceipt is deprecated and says so in every answer.
    static let deprecation = HTTPFields.Element.Name("Deprecation")!

    struct ConnectionDroppedError: Error {}
}

extension VerifyReceiptAnswer {
    /// The answer of a status fault (`{"status": N}`, with `is_retryable` for 21100–21199).
    init(fault: Fault) {
        guard case .status(let status, _) = fault, let json = fault.json else {
            preconditionFailure("not a status fault: \(fault)")
        }
        self.init(status, json: json, verdict: "fault")
    }
}

/// The one log line of a request: `POST /verifyReceipt http=200 status=21003
/// verdict=signature-invalid fault=- 0.412ms`.
struct LogLine: CustomStringConvertible {
    let method: String
    let path: String
    var http: Int?
    var status: Int?
    var verdict: String?
    var fault: String?
    var milliseconds = 0.0
    /// For the journal: Apple's `errorCode` of an error answer, the bearer-token check that failed.
    var appleErrorCode: Int?
    var authFailure: String?

    var description: String {
        "\(method) \(path) http=\(http.map(String.init) ?? "-") status=\(status.map(String.init) ?? "-") "
            + "verdict=\(verdict ?? "-") fault=\(fault ?? "-") \(String(format: "%.3f", milliseconds))ms"
    }
}
