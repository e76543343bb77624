import APIMessage
import Foundation
import Hummingbird
import Logging
import NIOCore
import StoreControlAPI
import StoreServerAPI

/// The HTTP side of `forge serve`: routes, methods, body limits, faults, one log line
/// per request. `VerifyReceiptService` makes the answers.
///
/// - `POST /verifyReceipt`, `POST /sandbox/verifyReceipt`: HTTP 200 and a JSON status
///   (another method: status 21000);
/// - `/inApps/…` and `/sandbox/inApps/…`: the App Store Server API (`ServerAPIHandler`);
/// - `/forge/v1/…` and `/sandbox/forge/v1/…`: the control API that drives the same
///   stores (`StoreControlHandler`; no token: it is the test's own handle on the store);
/// - `GET /health`: 200 `{"status":"ok"}`;
/// - anything else: 404.
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

    static let faultHeader = HTTPFields.Element.Name("X-Forge-Fault")!

    func respond(to request: Request, context: Context) async throws -> Response {
        let start = ContinuousClock.now
        var line = LogLine(method: request.method.rawValue, path: request.uri.path)
        defer {
            line.milliseconds = Double((ContinuousClock.now - start) / .microseconds(1)) / 1000
            logger.info("\(line)")
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
        default:
            line.http = 404
            return Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: "not found: POST /verifyReceipt or /sandbox/verifyReceipt\n")))
        }
        guard request.method == .post else { return answer(VerifyReceiptAnswer(.notPOST, verdict: "not-post"), &line) }

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
        let answer = serverAPI.respond(to: ServerAPIRequest(
            method: request.method.rawValue, path: request.uri.path,
            query: ServerAPIRequest.queryItems(request.uri.query ?? ""),
            authorization: request.headers[.authorization], body: body))
        // The write's events (and the clock's, at a time rate) become notifications,
        // queued after the store's lock is let go; collecting wakes the courier.
        serverAPI.notifications?.collect()
        return answer
    }

    /// A control API request: the handler answers, this converts.
    private func answerControl(_ request: Request, context: Context, _ line: inout LogLine) async throws -> Response {
        let body: [UInt8]
        switch try await prelude(request, context: context, faultsFor: nil, &line) {
        case .proceed(let ready): body = ready.body
        case .answered(let response): return response
        }
        let answer = await Self.offThePool { [control] in
            control.respond(method: request.method.rawValue, path: request.uri.string, body: body)
        }
        if let notifications = serverAPI.notifications {
            notifications.collect()
            // advanceClock may have made retries due though it recorded no event.
            notifications.wake()
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

    var description: String {
        "\(method) \(path) http=\(http.map(String.init) ?? "-") status=\(status.map(String.init) ?? "-") "
            + "verdict=\(verdict ?? "-") fault=\(fault ?? "-") \(String(format: "%.3f", milliseconds))ms"
    }
}
