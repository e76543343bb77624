import ForgeServer
import Foundation
import Receipt
import ReceiptForge
import XCTest

/// A client following Apple's documented flow — production first, the sandbox URL on
/// 21007 — gets Apple's answer for every case the forge mints.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class AppleFlowTests: XCTestCase {
    /// What verifyReceipt answers for each expected verdict of the catalogue: it decodes
    /// and authenticates; the bundle, version, device and VPP expiry are the client's checks.
    static let appleStatus: [VerdictReason: Int] = [
        .valid: 0, .bundleMismatch: 0, .versionMismatch: 0, .deviceHashMismatch: 0, .receiptExpired: 0,
        .signatureInvalid: 21003, .untrustedChain: 21003, .certificateExpired: 21003, .unsupportedAlgorithm: 21003,
        .malformed: 21002, .missing: 21002,
    ]

    /// Apple refuses Xcode-signed receipts with 21002; `--accept-xcode` answers them.
    static func expected(_ minted: MintedCase, acceptXcode: Bool) -> Int {
        if minted.description.trustAnchor == "Certs/storekit.cer" { return acceptXcode ? 0 : 21002 }
        return appleStatus[minted.expected]!
    }

    struct FlowResult {
        let status: Int
        let retriedAtSandbox: Bool
        let environment: String?
    }

    static func appleFlow(_ server: ServerHarness, _ receipt: [UInt8]?) async throws -> FlowResult {
        let production = try await server.verify(receipt, at: .production).json()
        guard production["status"]?.intValue == 21007 else {
            return FlowResult(status: production["status"]?.intValue ?? -1, retriedAtSandbox: false,
                              environment: production["environment"]?.stringValue)
        }
        let sandbox = try await server.verify(receipt, at: .sandbox).json()
        return FlowResult(status: sandbox["status"]?.intValue ?? -1, retriedAtSandbox: true, environment: sandbox["environment"]?.stringValue)
    }

    func testEveryForgeCaseGetsApplesAnswer() async throws {
        XCTAssertEqual(Set(Self.appleStatus.keys), Set(VerdictReason.allCases), "a status for every verdict")
        XCTAssertGreaterThanOrEqual(Minted.cases.count, 30)
        for acceptXcode in [false, true] {
            var options = ServeOptions()
            options.acceptXcode = acceptXcode
            try await ServerHarness.with(options) { server in
                for minted in Minted.cases {
                    let result = try await Self.appleFlow(server, minted.receipt)
                    let label = "\(minted.id) (accept-xcode \(acceptXcode))"
                    XCTAssertEqual(result.status, Self.expected(minted, acceptXcode: acceptXcode), label)
                    let sandbox = minted.id == "sandbox"
                    XCTAssertEqual(result.retriedAtSandbox, sandbox, label)
                    if result.status == 0 {
                        let environment = minted.id == "xcode-storekit" ? "Xcode" : sandbox ? "Sandbox" : "Production"
                        XCTAssertEqual(result.environment, environment, label)
                    }
                }
            }
        }
    }

    /// A sandbox case really is a sandbox receipt, so the flow above retried for the
    /// right reason; and a receipt whose environment says `Sandbox` is one too.
    func testSandboxIsTheReceiptsEnvironment() throws {
        var receipt = try PKCS7SignedData(bytes: Minted.receipt("sandbox")).decodeReceipt()
        XCTAssertTrue(ReceiptJSON(receipt, now: Date()).isSandbox)
        receipt.environment = "Sandbox"
        XCTAssertTrue(ReceiptJSON(receipt, now: Date()).isSandbox)
        receipt.environment = "ProductionVPPSandbox"
        XCTAssertTrue(ReceiptJSON(receipt, now: Date()).isSandbox)
        for environment in ["Production", "ProductionVPP", "Xcode"] {
            receipt.environment = environment
            XCTAssertFalse(ReceiptJSON(receipt, now: Date()).isSandbox, environment)
        }
    }
}
