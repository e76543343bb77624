import Foundation
import StrictJSON
import TestSupport
import XCTest

/// compose.yaml (docs/container.md) is read as compose reads it (YAML, through the
/// oracle venv's PyYAML): the arguments it gives the forge image start `forge serve`,
/// and the notification URL names the app service on the port its stand-in listens on.
final class ComposeExampleTests: XCTestCase {
    private func compose() throws -> JSONValue {
        let file = ChildProcess.packageRoot.appendingPathComponent("compose.yaml")
        let read = try ChildProcess.run(PythonOracle.executable, PythonOracle.arguments([
            "-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))", file.path]))
        XCTAssertEqual(read.status, 0, read.standardError)
        return try JSONValue(json: read.standardOutput)
    }

    func testTheForgeServiceStartsWithItsArgumentsAndNotifiesTheApp() throws {
        try PythonOracle.require(module: "yaml")
        let services = try XCTUnwrap(try compose()["services"])
        XCTAssertEqual(services["forge"]?["image"]?.stringValue, "receipt-forge:latest")
        XCTAssertEqual(services["forge"]?["ports"]?[0]?.stringValue, "8080:8080")
        let arguments = try XCTUnwrap(services["forge"]?["command"]?.arrayValue?.compactMap(\.stringValue))
        let notify = try XCTUnwrap(arguments.firstIndex(of: "--notify-url").map { arguments[$0 + 1] })
        let url = try XCTUnwrap(URL(string: notify))
        XCTAssertEqual(url.host, "app")
        XCTAssertNotNil(services[try XCTUnwrap(url.host)], "the URL names a service of the file")
        let app = try XCTUnwrap(services["app"]?["command"]?.arrayValue?.compactMap(\.stringValue).joined(separator: "\n"))
        XCTAssertTrue(app.contains("(\"0.0.0.0\", \(try XCTUnwrap(url.port)))"), app)
        XCTAssertEqual(services["app"]?["depends_on"]?["forge"]?["condition"]?.stringValue, "service_healthy")
        // Apple's clients unmodified: the forge answers to Apple's host names, and the app
        // trusts the root the image makes in /data/tls through the shared volume.
        XCTAssertEqual(Set(services["forge"]?["networks"]?["default"]?["aliases"]?.arrayValue?.compactMap(\.stringValue) ?? []),
                       ["api.storekit.apple.com", "api.storekit-sandbox.apple.com"])
        XCTAssertEqual(services["forge"]?["volumes"]?[0]?.stringValue, "forge-tls:/data/tls")
        XCTAssertEqual(services["app"]?["volumes"]?[0]?.stringValue, "forge-tls:/forge-tls:ro")
        XCTAssertEqual(services["app"]?["environment"]?["REQUESTS_CA_BUNDLE"]?.stringValue, "/forge-tls/ca-bundle.pem")
        let containerfile = try String(contentsOf: ChildProcess.packageRoot.appendingPathComponent("Containerfile"), encoding: .utf8)
        XCTAssertTrue(containerfile.contains(#""--tls-port", "443", "--tls-dir", "/data/tls"]"#), "the image makes its root where the volume is")

        // The image's entrypoint, then compose's arguments; the test's address and folder go last.
        let tlsDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("compose-tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: tlsDirectory) }
        let server = try ChildProcess.start(ChildProcess.product("forge-serve"),
                                            ["serve", "--host", "0.0.0.0", "--port", "8080", "--tls-port", "443", "--tls-dir", "/data/tls"]
                                                + arguments + ["--host", "127.0.0.1", "--port", "0", "--tls-port", "0",
                                                               "--tls-dir", tlsDirectory.path])
        defer { server.send(SIGKILL) }
        let text = try server.waitForOutput(within: .seconds(60), "the address line") { $0.contains("listening on http://127.0.0.1:") }
        XCTAssertTrue(text.contains("listening on http://127.0.0.1:"), text)
        server.send(SIGTERM)
        XCTAssertEqual(try server.waitForExit(within: .seconds(60)).status, 0)
    }
}
