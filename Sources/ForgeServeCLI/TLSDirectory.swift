import ForgeCA
import ForgeCommandLine
import Foundation
import OwnedFileTree

/// The folder of `forge serve --tls-dir` (default `forge-tls`): the local TLS authority
/// (`LocalTLSAuthority`), made on first use and kept, so the root a user trusted once
/// stays trusted; the server certificate is issued again when it nears its end.
///
/// | file | what |
/// |---|---|
/// | `ca.pem` | the root to trust (a trust store, `NODE_EXTRA_CA_CERTS`, a Java trust store) |
/// | `ca-bundle.pem` | the system's roots then `ca.pem`: for `REQUESTS_CA_BUNDLE`, `SSL_CERT_FILE`, `CURL_CA_BUNDLE` (which replace the system's) |
/// | `server.pem`, `server.key.pem` | the server certificate (then the root) and its key |
/// | `ca.key.pem` | the root's key (mode 0600, as the server key) |
enum TLSDirectory {
    static let systemBundle = "/etc/ssl/certs/ca-certificates.crt"

    /// The authority in `directory`, made or renewed there as needed; what it did, in
    /// one line. Exits 65 naming the file when a file is there but unreadable as the
    /// authority's, 73 or 74 when the folder cannot be written.
    static func authority(in directory: URL, now: Int64) throws -> (authority: LocalTLSAuthority, note: String) {
        let manager = FileManager.default
        var existing: [String: [UInt8]] = [:]
        for name in LocalTLSAuthority.fileNames {
            if let data = manager.contents(atPath: directory.appendingPathComponent(name).path) { existing[name] = Array(data) }
        }
        var authority: LocalTLSAuthority
        var note: String
        if existing.isEmpty {
            authority = try generating { () throws(KeyError) in try LocalTLSAuthority.generate(now: now) }
            note = "made a new local TLS root in \(directory.path): trust \(directory.appendingPathComponent("ca.pem").path) once"
        } else {
            do throws(LocalTLSAuthorityError) {
                authority = try LocalTLSAuthority(files: existing)
            } catch {
                printError("forge serve: --tls-dir \(directory.path): \(error) (move the folder away to make a new root)")
                throw ForgeExit.malformedInput.code
            }
            note = "local TLS root \(directory.appendingPathComponent("ca.pem").path)"
            if !authority.serverIsCurrent(now: now) {
                let current = authority
                authority = try generating { () throws(KeyError) in try current.reissuingServer(now: now) }
                note += " (server certificate issued again: the last one was at its end)"
            }
        }
        var files = authority.files
        var bundle = (try? Data(contentsOf: URL(fileURLWithPath: systemBundle))).map { Array($0) } ?? []
        if !bundle.isEmpty, bundle.last != 0x0A { bundle.append(0x0A) }
        files["ca-bundle.pem"] = bundle + files["ca.pem"]!
        // Written at every start: the bundle follows the system's roots.
        do throws(OutputError) {
            _ = try OutputTree(directory: directory, ownership: .recordOnly).replaceTree(with: files.sorted { $0.key < $1.key })
        } catch {
            printError("forge serve: --tls-dir: \(error)")
            throw error.exit.code
        }
        for key in ["ca.key.pem", "server.key.pem"] {
            try? manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory.appendingPathComponent(key).path)
        }
        return (authority, note)
    }

    private static func generating(_ make: () throws(KeyError) -> LocalTLSAuthority) throws -> LocalTLSAuthority {
        do throws(KeyError) {
            return try make()
        } catch {
            printError("forge serve: making the local TLS authority failed: \(error)")
            throw ForgeExit.internalFailure.code
        }
    }
}
