import Foundation
import Receipt
import ReceiptVerifier

/// Which URL a request came to.
package enum VerifyReceiptEndpoint: String, Sendable, Hashable {
    /// `POST /verifyReceipt` (buy.itunes.apple.com).
    case production
    /// `POST /sandbox/verifyReceipt` (sandbox.itunes.apple.com).
    case sandbox
}

/// One verifyReceipt answer: the JSON body (sent with HTTP 200), its status, and for the
/// log what the verifier concluded.
package struct VerifyReceiptAnswer: Sendable {
    package let status: VerifyReceiptStatus
    package let json: ResponseJSON
    /// The verdict reason (`valid`, `bundle-mismatch`, `untrusted-chain` …), or what was
    /// wrong with the request (`bad-request`, `xcode-signed`, `wrong-environment` …).
    package let verdict: String

    init(_ status: VerifyReceiptStatus, verdict: String) {
        self.status = status
        json = .object([("status", .int(Int64(status.rawValue)))])
        self.verdict = verdict
    }

    init(_ status: VerifyReceiptStatus, json: ResponseJSON, verdict: String) {
        self.status = status
        self.json = json
        self.verdict = verdict
    }

    init(valid json: ResponseJSON, verdict: String) {
        status = .valid
        self.json = json
        self.verdict = verdict
    }
}

/// verifyReceipt without HTTP: a request body and an endpoint in, an answer out.
///
/// In order: the body must be a JSON request with Base64 `receipt-data` (else 21002);
/// the receipt must authenticate (21002 malformed, 21003 not authenticated); an
/// Xcode-signed receipt is 21002 unless `acceptXcode`; a sandbox receipt at production is
/// 21007, a production receipt at sandbox 21008 (Xcode receipts are answered at both);
/// a `password` for a receipt with auto-renewable subscriptions must match the shared
/// secret when one is set (21004). Then 0 with the decoded receipt.
package struct VerifyReceiptService: Sendable {
    package let authenticator: ReceiptAuthenticator
    package let sharedSecret: String?
    package let acceptXcode: Bool
    package let clock: @Sendable () -> Date

    package init(options: ServeOptions) {
        authenticator = ReceiptAuthenticator(roots: options.roots, xcodeRoots: options.xcodeRoots)
        sharedSecret = options.sharedSecret
        acceptXcode = options.acceptXcode
        clock = options.clock
    }

    package func answer(body: [UInt8], at endpoint: VerifyReceiptEndpoint) -> VerifyReceiptAnswer {
        let request: VerifyReceiptRequest
        do {
            request = try VerifyReceiptRequest(body: body)
        } catch {
            return VerifyReceiptAnswer(.malformedReceiptData, verdict: "bad-request: \(error)")
        }
        let authentication = authenticator.authenticate(request.receipt)
        let verdict = authentication.verdict
        guard authentication.status == .valid, let receipt = verdict.receipt else {
            return VerifyReceiptAnswer(authentication.status, verdict: verdict.reason.rawValue)
        }
        let decoded = ReceiptJSON(receipt, now: clock())
        let environment: String
        if authentication.signer == .xcode {
            guard acceptXcode else { return VerifyReceiptAnswer(.malformedReceiptData, verdict: "xcode-signed") }
            environment = "Xcode"
        } else if decoded.isSandbox {
            guard endpoint == .sandbox else { return VerifyReceiptAnswer(.sandboxReceiptAtProduction, verdict: "sandbox-receipt") }
            environment = "Sandbox"
        } else {
            guard endpoint == .production else { return VerifyReceiptAnswer(.productionReceiptAtSandbox, verdict: "production-receipt") }
            environment = "Production"
        }
        var members: [(String, ResponseJSON)] = [("environment", .string(environment)), ("receipt", decoded.object)]
        if let password = request.password, decoded.hasAutoRenewableSubscriptions {
            if let sharedSecret, password.lowercased() != sharedSecret.lowercased() {
                return VerifyReceiptAnswer(.sharedSecretMismatch, verdict: "shared-secret-mismatch")
            }
            members += [
                ("latest_receipt_info", decoded.latestReceiptInfo(excludeOld: request.excludeOldTransactions)),
                ("latest_receipt", .string(Data(request.receipt).base64EncodedString())),
                ("pending_renewal_info", decoded.pendingRenewalInfo),
            ]
        }
        members.append(("status", .int(0)))
        return VerifyReceiptAnswer(valid: .object(members), verdict: verdict.reason.rawValue)
    }
}
