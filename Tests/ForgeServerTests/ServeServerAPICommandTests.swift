import Crypto
import ForgeServer
import Foundation
import ReceiptForge
import StoreAPIAuthentication
import StrictJSON
import TestSupport
import XCTest

/// The `forge serve` binary's Server API options: the base URLs it prints, `--api-key`
/// with `--issuer` (that key and no other), `--no-auth`.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class ServeServerAPICommandTests: XCTestCase {
    /// Starts the binary with `arguments`, returns its two printed base URLs, runs `body`, stops it.
    private func withServer(_ arguments: [String], _ body: (_ production: String, _ sandbox: String) async throws -> Void) async throws {
        let server = try ChildProcess.start(ChildProcess.product("forge"), ["serve", "--port", "0", "--quiet"] + arguments)
        let text = try server.waitForOutput(within: .seconds(60), "the base URLs") { $0.contains("sandbox: ") && $0.hasSuffix("\n") }
        func url(after label: String) throws -> String {
            let line = try XCTUnwrap(text.split(separator: "\n").first { $0.contains(label) }, "no '\(label)' line in \(text)")
            return String(try XCTUnwrap(line.split(separator: " ").last))
        }
        let production = try url(after: "App Store Server API, production: ")
        let sandbox = try url(after: "App Store Server API, sandbox: ")
        XCTAssertEqual(sandbox, production + "/sandbox")
        do {
            try await body(production, sandbox)
        } catch {
            server.send(SIGTERM)
            _ = try? server.waitForExit(within: .seconds(60))
            throw error
        }
        server.send(SIGTERM)
        XCTAssertEqual(try server.waitForExit(within: .seconds(60)).status, 0)
    }

    /// `Authorization: Bearer` with a token Apple's Python client makes for `key`.
    private func pythonToken(keyFile: URL, keyId: String, issuer: String) throws -> String {
        let script = """
            import sys
            from appstoreserverlibrary.api_client import AppStoreServerAPIClient
            from appstoreserverlibrary.models.Environment import Environment
            client = AppStoreServerAPIClient(open(sys.argv[1], "rb").read(), sys.argv[2], sys.argv[3], "com.example.receiptforge", Environment.PRODUCTION)
            print(client._generate_token())
            """
        let run = try ChildProcess.run(PythonOracle.executable, PythonOracle.arguments(["-c", script, keyFile.path, keyId, issuer]))
        XCTAssertEqual(run.status, 0, run.standardError)
        return "Bearer " + run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testNoAuthAnswersWithoutATokenInBothEnvironments() async throws {
        try await withServer(["--no-auth", "--customers", "0"]) { production, sandbox in
            for base in [production, sandbox] {
                let reply = try await HTTP.send(to: base + "/inApps/v1/transactions/1", method: "GET")
                XCTAssertEqual(reply.http, 404)
                XCTAssertEqual(reply.header("Content-Type"), "application/json")
                XCTAssertEqual(try reply.json()["errorCode"]?.intValue, 4_040_010)
            }
        }
    }

    func testAnAPIKeyOptionAcceptsThatKeyAndNoOther() async throws {
        try PythonOracle.require(module: "appstoreserverlibrary")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("serve-api-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let own = P256.Signing.PrivateKey()
        let ownFile = scratch.appendingPathComponent("own.p8")
        try Data(own.pemRepresentation.utf8).write(to: ownFile)
        let test = TestAPIKey(seed: ForgeSettings.defaultSeed)
        let testFile = scratch.appendingPathComponent(test.fileName)
        try Data(test.p8.utf8).write(to: testFile)
        let issuer = "57246542-96fe-1a63-e053-0824d011072a"

        let ownToken = try pythonToken(keyFile: ownFile, keyId: "OWNKEY1234", issuer: issuer)
        let testToken = try pythonToken(keyFile: testFile, keyId: test.keyIdentifier, issuer: test.issuerIdentifier)
        try await withServer(["--api-key", "OWNKEY1234=\(ownFile.path)", "--issuer", issuer]) { production, _ in
            let accepted = try await HTTP.send(to: production + "/inApps/v1/transactions/1", method: "GET",
                                               headers: [("Authorization", ownToken)])
            XCTAssertEqual(accepted.http, 404, accepted.text)
            XCTAssertEqual(try accepted.json()["errorCode"]?.intValue, 4_040_010)
            let refused = try await HTTP.send(to: production + "/inApps/v1/transactions/1", method: "GET",
                                              headers: [("Authorization", testToken)])
            XCTAssertEqual(refused.http, 401)
            XCTAssertEqual(refused.text, "Unauthenticated")
            XCTAssertEqual(refused.header("X-Forge-Auth-Failure"), "unknown-key-id")
        }
        // Without --api-key, the test key of the seed is the one accepted.
        try await withServer([]) { production, _ in
            let accepted = try await HTTP.send(to: production + "/inApps/v1/transactions/1", method: "GET",
                                               headers: [("Authorization", testToken)])
            XCTAssertEqual(accepted.http, 404, accepted.text)
        }
    }
}
