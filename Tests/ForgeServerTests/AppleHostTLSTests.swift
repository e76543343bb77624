import AsyncHTTPClient
import BER
import ForgeCA
import ForgeServer
import ForgeSupport
import LocalAppStore
import Foundation
import NIOSSL
import ReceiptForge
import TestSupport
import XCTest

/// `forge serve --tls-port`: HTTPS with a local root made on first use and kept, HTTP/2 and
/// HTTP/1.1 by ALPN, and Apple's host names routed to their stores, so Apple's Python
/// client constructed exactly as in production (`Environment.SANDBOX`, no attribute
/// touched) reaches the sandbox store with only its name resolution (a network namespace
/// with its own hosts file) and its trust (`REQUESTS_CA_BUNDLE`) pointed at the forge.
@available(macOS 14, iOS 17, tvOS 17, *)
final class AppleHostTLSTests: XCTestCase {
    private func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    /// Starts `forge-serve serve` (through `launcher`, e.g. `ip netns exec NAME`) and
    /// returns it with its plain and HTTPS ports.
    private func serve(tlsDir: URL, tlsPort: Int = 0, launcher: [String] = []) throws -> (ChildProcess.Running, Int, Int) {
        let forgeServe = ChildProcess.product("forge-serve").path
        let command = launcher + [forgeServe, "serve", "--port", "0", "--tls-port", String(tlsPort), "--tls-dir", tlsDir.path, "--quiet"]
        let server = try ChildProcess.start(URL(fileURLWithPath: command[0]), Array(command.dropFirst()))
        let text = try server.waitForOutput(within: .seconds(60), "both address lines") {
            $0.contains("listening on https://") && $0.contains("listening on http://")
        }
        func port(_ scheme: String) throws -> Int {
            let range = try XCTUnwrap(text.range(of: scheme + #"://127\.0\.0\.1:[0-9]+"#, options: .regularExpression), text)
            return try XCTUnwrap(Int(text[range].split(separator: ":").last ?? ""), text)
        }
        return (server, try port("http"), try port("https"))
    }

    func testTheRootIsMadeOnceKeptAndLimitedToApplesHostsAndLocalhost() throws {
        let directory = try scratch().appendingPathComponent("tls")
        let (first, _, _) = try serve(tlsDir: directory)
        first.send(SIGTERM)
        XCTAssertEqual(try first.waitForExit(within: .seconds(60)).status, 0)
        let root = try Data(contentsOf: directory.appendingPathComponent("ca.pem"))
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("ca.key.pem").path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600, "the root's key is the user's alone")
        let (second, _, _) = try serve(tlsDir: directory)
        second.send(SIGTERM)
        XCTAssertEqual(try second.waitForExit(within: .seconds(60)).status, 0)
        XCTAssertEqual(try Data(contentsOf: directory.appendingPathComponent("ca.pem")), root, "a trusted root stays trusted")
        let bundle = try String(contentsOf: directory.appendingPathComponent("ca-bundle.pem"), encoding: .utf8)
        XCTAssertTrue(bundle.hasSuffix(String(decoding: root, as: UTF8.self)), "the bundle ends with the root")

        // OpenSSL (the test oracle) accepts the server certificate for each name, and the
        // root's name constraints refuse a certificate it signs for any other host.
        let authority = try LocalTLSAuthority(files: Dictionary(uniqueKeysWithValues: LocalTLSAuthority.fileNames.map {
            ($0, Array(try Data(contentsOf: directory.appendingPathComponent($0))))
        }))
        let leaf = directory.appendingPathComponent("server-only.pem")
        try Data(PEM.encode(authority.server.certificate, label: "CERTIFICATE").utf8).write(to: leaf)
        for name in LocalTLSAuthority.hostNames {
            let verified = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/openssl"),
                                                ["verify", "-CAfile", directory.appendingPathComponent("ca.pem").path,
                                                 "-verify_hostname", name, leaf.path])
            XCTAssertEqual(verified.status, 0, "\(name): \(verified.standardOutput)\(verified.standardError)")
        }
        let key = P256PrivateKey.generate()
        let other = try CertificateTemplate(
            serialNumber: 7, issuer: NameBuilder([(.organizationName, "Receipt Forge"),
                                                  (.commonName, "Receipt Forge local TLS root (this machine only)")]),
            subject: NameBuilder([(.commonName, "intruder")]),
            notBefore: ASN1Time(secondsSince1970: Int64(Date().timeIntervalSince1970) - 60),
            notAfter: ASN1Time(secondsSince1970: Int64(Date().timeIntervalSince1970) + 86_400),
            role: .tlsServer, subjectAlternativeNames: [.dnsName("www.example.com")])
            .build(subjectPublicKeyInfo: key.publicKeyInfo, issuerPublicKeyInfo: authority.root.key.publicKeyInfo,
                   signedBy: authority.root.key)
        let intruder = directory.appendingPathComponent("intruder.pem")
        try Data(PEM.encode(other, label: "CERTIFICATE").utf8).write(to: intruder)
        let refused = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/openssl"),
                                           ["verify", "-CAfile", directory.appendingPathComponent("ca.pem").path, intruder.path])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue((refused.standardOutput + refused.standardError).contains("permitted subtree violation"),
                      refused.standardOutput + refused.standardError)
    }

    func testAFolderThatHoldsNoAuthorityIsRefusedNamingTheFile() throws {
        let directory = try scratch().appendingPathComponent("tls")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("not a certificate\n".utf8).write(to: directory.appendingPathComponent("ca.pem"))
        let result = try ChildProcess.run(ChildProcess.product("forge-serve"),
                                          ["serve", "--port", "0", "--tls-port", "0", "--tls-dir", directory.path])
        XCTAssertEqual(result.status, 65)
        XCTAssertTrue(result.standardError.contains("ca.pem holds no certificate"), result.standardError)
        XCTAssertEqual(try String(contentsOf: directory.appendingPathComponent("ca.pem"), encoding: .utf8), "not a certificate\n",
                       "the file is left as it was")
        for arguments in [["--tls-port", "70000"], ["--port", "9000", "--tls-port", "9000"]] {
            let refused = try ChildProcess.run(ChildProcess.product("forge-serve"), ["serve"] + arguments)
            XCTAssertEqual(refused.status, 64, "\(arguments)")
            XCTAssertTrue(refused.standardError.contains("--tls-port"), refused.standardError)
        }
    }

    /// HTTP/2 by ALPN (AsyncHTTPClient, trusting only the forge's root) and Apple's host
    /// names: the sandbox host reaches the sandbox store, `local-testing-base-url` is 421.
    func testHTTP2AndHostRouting() async throws {
        let directory = try scratch().appendingPathComponent("tls")
        let (server, _, port) = try serve(tlsDir: directory)
        defer { server.send(SIGKILL) }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(directory.appendingPathComponent("ca.pem").path))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
        do {
            let health = try await client.execute(HTTPClientRequest(url: "https://localhost:\(port)/health"), timeout: .seconds(30))
            XCTAssertEqual(health.status, .ok)
            XCTAssertEqual(health.version, .http2)
            // The sandbox host's /inApps/ path reaches the sandbox store's Server API (401: no token).
            var sandbox = HTTPClientRequest(url: "https://localhost:\(port)/inApps/v1/transactions/1")
            sandbox.headers.replaceOrAdd(name: "Host", value: "api.storekit-sandbox.apple.com")
            let refused = try await client.execute(sandbox, timeout: .seconds(30))
            XCTAssertEqual(refused.status, .unauthorized)
            var localTesting = HTTPClientRequest(url: "https://localhost:\(port)/inApps/v1/transactions/1")
            localTesting.headers.replaceOrAdd(name: "Host", value: "local-testing-base-url")
            let misdirected = try await client.execute(localTesting, timeout: .seconds(30))
            XCTAssertEqual(misdirected.status, .misdirectedRequest)
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
        XCTAssertEqual(AppleHost.named(authority: "API.StoreKit-Sandbox.Apple.com:443"), .sandbox)
        XCTAssertEqual(AppleHost.named(authority: "api.storekit.apple.com."), .production)
        XCTAssertNil(AppleHost.named(authority: "[::1]:443"))
    }

    /// Apple's Python client as in production, in a network namespace whose hosts file
    /// sends Apple's names to 127.0.0.1, where the forge listens on 443; the client trusts
    /// the forge through REQUESTS_CA_BUNDLE alone. Needs root (`ip netns`), as CI has.
    func testApplesClientUnmodifiedReachesTheSandboxStoreByName() async throws {
        try PythonOracle.require(module: "appstoreserverlibrary")
        guard getuid() == 0 else {
            if ProcessInfo.processInfo.environment["CI"] != nil { return XCTFail("ip netns needs root, which CI has") }
            throw XCTSkip("ip netns needs root")
        }
        let ip = URL(fileURLWithPath: "/usr/sbin/ip").path
        let namespace = "forge-tls-\(getpid())"
        let hosts = URL(fileURLWithPath: "/etc/netns/\(namespace)")
        XCTAssertEqual(try ChildProcess.run(URL(fileURLWithPath: ip), ["netns", "add", namespace]).status, 0)
        defer {
            _ = try? ChildProcess.run(URL(fileURLWithPath: ip), ["netns", "delete", namespace])
            try? FileManager.default.removeItem(at: hosts)
        }
        try FileManager.default.createDirectory(at: hosts, withIntermediateDirectories: true)
        try Data(("127.0.0.1 localhost\n" + LocalTLSAuthority.hostNames.map { "127.0.0.1 \($0)\n" }.joined()).utf8)
            .write(to: hosts.appendingPathComponent("hosts"))
        let inside = [ip, "netns", "exec", namespace]
        XCTAssertEqual(try ChildProcess.run(URL(fileURLWithPath: ip), ["netns", "exec", namespace, ip, "link", "set", "lo", "up"]).status, 0)

        let directory = try scratch().appendingPathComponent("tls")
        let (server, _, _) = try serve(tlsDir: directory, tlsPort: 443, launcher: inside)
        defer { server.send(SIGKILL) }
        let run = try await ApplePythonClient.withTestKey { key, keyFile, _ in
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    var environment = ProcessInfo.processInfo.environment
                    environment["REQUESTS_CA_BUNDLE"] = directory.appendingPathComponent("ca-bundle.pem").path
                    continuation.resume(with: Result {
                        try ChildProcess.run(URL(fileURLWithPath: ip),
                                             ["netns", "exec", namespace, PythonOracle.executable.path]
                                                + PythonOracle.arguments(["-c", Self.script, keyFile.path, key.keyIdentifier,
                                                                          key.issuerIdentifier, LocalAppStores.defaultBundleIdentifier]),
                                             environment: environment, deadline: .seconds(120))
                    })
                }
            }
        }
        XCTAssertEqual(run.status, 0, run.standardError)
        // The sandbox store answered (its error for an unknown id), over https to Apple's sandbox host name.
        XCTAssertEqual(run.standardOutput, "SANDBOX 404 4040010\nPRODUCTION 404 4040010\n", run.standardError)
        server.send(SIGTERM)
        let log = try server.waitForExit(within: .seconds(60))
        XCTAssertTrue(log.standardOutput.contains("listening on https://127.0.0.1:443"), log.standardOutput)
    }

    /// Apple's client for each environment, nothing changed but the environment it runs
    /// in; prints `ENVIRONMENT HTTP-STATUS APPLE-ERROR-CODE` for a transaction no store has.
    static let script = #"""
import sys
from appstoreserverlibrary.api_client import AppStoreServerAPIClient, APIException
from appstoreserverlibrary.models.Environment import Environment
key_file, key_id, issuer, bundle = sys.argv[1:5]
for environment in [Environment.SANDBOX, Environment.PRODUCTION]:
    client = AppStoreServerAPIClient(open(key_file, "rb").read(), key_id, issuer, bundle, environment)
    try:
        client.get_transaction_info("1")
        print(environment.name, "200 none")
    except APIException as error:
        print(environment.name, error.http_status_code, error.raw_api_error)
"""#
}
