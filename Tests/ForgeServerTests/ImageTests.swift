import ForgeCA
import Foundation
import LocalAppStore
import ReceiptForge
import StrictJSON
import TestSupport
import XCTest

/// The container image (Containerfile, scripts/image) as a container runtime would run
/// it: built with podman from the static release, its root filesystem exported, and its
/// entrypoint, user and health check read from the image and run from that root with
/// chroot (these machines build images but cannot run containers: the sandbox refuses
/// `setrlimit`). From an otherwise empty root the server answers `/health`, the image's
/// own HEALTHCHECK, and Apple's Python client, whose answer Apple's verifier accepts.
/// Needs the release build, podman and root (chroot, /proc): FORGE_RELEASE_TEST=1, as
/// .ci/run's release step sets (and installs podman for).
@available(macOS 14, iOS 17, tvOS 17, *)
final class ImageTests: XCTestCase {
    func testTheImageServesApplesClientFromAnOtherwiseEmptyRoot() async throws {
        guard ProcessInfo.processInfo.environment["FORGE_RELEASE_TEST"] == "1" else {
            throw XCTSkip("builds the image from the static release: FORGE_RELEASE_TEST=1 runs it (.ci/run does)")
        }
        XCTAssertEqual(getuid(), 0, "chroot and mounting /proc need root (CI runs as root)")
        try PythonOracle.require(module: "appstoreserverlibrary")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("image-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let tag = "receipt-forge:image-test"
        let exported = scratch.appendingPathComponent("rootfs.tar")
        let build = try ChildProcess.run(ChildProcess.packageRoot.appendingPathComponent("scripts/image"),
                                         ["--tag", tag, "--export", exported.path], deadline: .seconds(3600))
        XCTAssertEqual(build.status, 0, build.standardError)
        let root = scratch.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let unpacked = try ChildProcess.run(URL(fileURLWithPath: "/bin/tar"), ["-C", root.path, "-xf", exported.path])
        XCTAssertEqual(unpacked.status, 0, unpacked.standardError)
        // Nothing but the forge, its libraries, certificates and its user: no shell.
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("bin/sh").path), "a shell in the image")
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("etc/ssl/certs/ca-certificates.crt").path))

        let inspect = try ChildProcess.run(URL(fileURLWithPath: try Self.podman()), ["image", "inspect", tag])
        XCTAssertEqual(inspect.status, 0, inspect.standardError)
        let image = try XCTUnwrap(try JSONValue(json: inspect.standardOutput)[0], inspect.standardOutput)
        let config = try XCTUnwrap(image["Config"], inspect.standardOutput)
        let entrypoint = try XCTUnwrap(config["Entrypoint"]?.arrayValue?.compactMap(\.stringValue))
        XCTAssertEqual(entrypoint, ["/usr/local/bin/forge-serve", "serve", "--host", "0.0.0.0", "--port", "8080",
                                    "--tls-port", "443", "--tls-dir", "/data/tls"])
        XCTAssertEqual(config["User"]?.stringValue, "65532:65532")
        XCTAssertEqual(Set(config["ExposedPorts"]?.objectValue?.map(\.key) ?? []), ["8080/tcp", "443/tcp"])
        // podman keeps the docker format's HEALTHCHECK beside the OCI config.
        let healthcheck = try XCTUnwrap(image["Healthcheck"]?["Test"]?.arrayValue?.compactMap(\.stringValue), inspect.standardOutput)
        XCTAssertEqual(healthcheck, ["CMD", "/usr/local/bin/forge-serve", "health"])

        // A container runtime mounts /proc (Swift reads its arguments from /proc/self/cmdline).
        let proc = root.appendingPathComponent("proc")
        try FileManager.default.createDirectory(at: proc, withIntermediateDirectories: true)
        let mount = try ChildProcess.run(URL(fileURLWithPath: "/bin/mount"), ["-t", "proc", "proc", proc.path])
        XCTAssertEqual(mount.status, 0, mount.standardError)
        defer { _ = try? ChildProcess.run(URL(fileURLWithPath: "/bin/umount"), [proc.path]) }

        // The entrypoint as the image's user; the test's address appended (the last --host and --port count).
        let chroot = URL(fileURLWithPath: "/usr/sbin/chroot")
        let userspec = "--userspec=" + (config["User"]?.stringValue ?? "")
        let server = try ChildProcess.start(chroot, [userspec, root.path] + entrypoint
                                                + ["--host", "127.0.0.1", "--port", "0", "--tls-port", "0"])
        defer { server.send(SIGKILL) }
        let text = try server.waitForOutput(within: .seconds(60), "both address lines") {
            $0.contains("listening on http://") && $0.contains("listening on https://")
        }
        // The image's user made the local TLS root in its own /data/tls.
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("data/tls/ca.pem").path), text)
        let match = try XCTUnwrap(text.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression), text)
        let base = String(text[match])

        let health = try await HTTP.send(to: base + "/health", method: "GET", timeout: 10)
        XCTAssertEqual(health.http, 200)
        let check = try ChildProcess.run(chroot, [userspec, root.path] + healthcheck.dropFirst() + ["--url", base + "/health"])
        XCTAssertEqual(check.status, 0, check.standardError)

        // A purchase through the control API, then Apple's client and verifier against the image.
        let monthly = "com.example.receiptforge.subscription.monthly"
        let bought = try await HTTP.send(to: base + "/forge/v1/buyProduct",
                                         body: Array(#"{"customer": "image", "productId": "\#(monthly)"}"#.utf8))
        XCTAssertEqual(bought.http, 200, String(decoding: bought.body, as: UTF8.self))
        let transactionId = try XCTUnwrap(try JSONValue(json: String(decoding: bought.body, as: UTF8.self))["transactionIds"]?[0]?.stringValue)
        let answer = try await ApplePythonClient.withTestKey { key, keyFile, scratch in
            let rootFile = scratch.appendingPathComponent("jws-root.cer")
            try Data(JWSAuthority.committed.root.certificate).write(to: rootFile)
            let input = try JSONEncoder().encode(ClientInput(
                keyFile: keyFile.path, keyId: key.keyIdentifier, issuerId: key.issuerIdentifier,
                bundleId: LocalAppStores.defaultBundleIdentifier, appAppleId: AppDescription.defaultAppAppleId,
                rootFile: rootFile.path, baseURL: base, transactionId: transactionId))
            return try await ApplePythonClient.run(Self.script, input: input, deadline: .seconds(120))
        }
        XCTAssertEqual(answer.status, 0, answer.standardError)
        XCTAssertEqual(answer.standardOutput, "\(transactionId) \(monthly)\n")

        server.send(SIGTERM)
        let exit = try server.waitForExit(within: .seconds(60))
        XCTAssertEqual(exit.status, 0, exit.standardError)
    }

    private struct ClientInput: Encodable {
        let keyFile: String, keyId: String, issuerId: String, bundleId: String, appAppleId: Int64
        let rootFile: String, baseURL: String, transactionId: String
    }

    private static func podman() throws -> String {
        for path in ["/usr/bin/podman", "/usr/local/bin/podman"] where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        throw XCTSkip("no podman (.ci/run installs it)")
    }

    /// Get Transaction Info with Apple's client, exactly as in production but for the base
    /// URL, and the answer through Apple's verifier; prints `transactionId productId`.
    static let script = #"""
import json, sys
from appstoreserverlibrary.api_client import AppStoreServerAPIClient
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier
c = json.load(sys.stdin)
client = AppStoreServerAPIClient(open(c["keyFile"], "rb").read(), c["keyId"], c["issuerId"], c["bundleId"], Environment.PRODUCTION)
client._base_url = c["baseURL"]
answer = client.get_transaction_info(c["transactionId"])
verifier = SignedDataVerifier([open(c["rootFile"], "rb").read()], False, Environment.PRODUCTION, c["bundleId"], c["appAppleId"])
decoded = verifier.verify_and_decode_signed_transaction(answer.signedTransactionInfo)
print(decoded.transactionId, decoded.productId)
"""#
}
