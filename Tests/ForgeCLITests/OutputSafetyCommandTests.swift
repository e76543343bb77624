import Foundation
import XCTest

/// A CI tool must never delete a user's files: `forge --all/--case/ca --out` on
/// places the forge did not write, and `forge verify` on files that exist but cannot
/// be read. Exit codes: 73 cannot create the output, 74 I/O error, 65 malformed.
final class OutputSafetyCommandTests: XCTestCase {
    let manager = FileManager.default

    func scratchDirectory() throws -> URL {
        let directory = manager.temporaryDirectory.appendingPathComponent("forge-safety-\(UUID().uuidString)")
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    func write(_ text: String, _ relative: String, in directory: URL) throws {
        let url = directory.appendingPathComponent(relative)
        try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func files(_ directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for relative in try manager.subpathsOfDirectory(atPath: directory.path) {
            var isDirectory: ObjCBool = false
            let path = directory.appendingPathComponent(relative).path
            if manager.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = manager.contents(atPath: path)
            }
        }
        return files
    }

    /// `forge --all --out .` in a repository root used to delete the repository.
    func testARepositoryRootIsRefusedWithNothingTouched() throws {
        let repository = try scratchDirectory()
        try write("# mine\n", "README.md", in: repository)
        try write("[core]\n", ".git/config", in: repository)
        try write("print(1)\n", "Sources/App/main.swift", in: repository)
        let before = try files(repository)
        for arguments in [["--all", "--out", "."], ["--case", "valid", "--out", "."], ["ca", "--out", "."]] {
            let run = try ForgeProcess.run(arguments, workingDirectory: repository)
            XCTAssertEqual(run.status, 73, "\(arguments): \(run.standardError)")
            XCTAssertTrue(run.standardError.contains("not empty and was not written by the forge"), run.standardError)
            XCTAssertTrue(run.standardError.contains(".git, README.md, Sources"), run.standardError)
        }
        XCTAssertEqual(try files(repository), before)
        XCTAssertEqual(try manager.contentsOfDirectory(atPath: repository.path).sorted(), [".git", "README.md", "Sources"])
    }

    func testAFileOrALinkAsOutputIsRefused() throws {
        let directory = try scratchDirectory()
        try write("precious\n", "out", in: directory)
        let file = try ForgeProcess.run(["--all", "--out", "out"], workingDirectory: directory)
        XCTAssertEqual(file.status, 73, file.standardError)
        XCTAssertTrue(file.standardError.contains("is a regular file, not a directory"), file.standardError)
        XCTAssertEqual(manager.contents(atPath: directory.appendingPathComponent("out").path), Data("precious\n".utf8))

        try manager.createDirectory(at: directory.appendingPathComponent("real"), withIntermediateDirectories: false)
        try manager.createSymbolicLink(atPath: directory.appendingPathComponent("link").path, withDestinationPath: "real")
        let link = try ForgeProcess.run(["--all", "--out", "link"], workingDirectory: directory)
        XCTAssertEqual(link.status, 73, link.standardError)
        XCTAssertTrue(link.standardError.contains("symbolic link (to real)"), link.standardError)
        XCTAssertEqual(try manager.contentsOfDirectory(atPath: directory.appendingPathComponent("real").path), [])

        // Inside a regular file: the output cannot be created (73), not an I/O error.
        let inside = try ForgeProcess.run(["--all", "--out", "out/Fixtures"], workingDirectory: directory)
        XCTAssertEqual(inside.status, 73, inside.standardError)
        XCTAssertTrue(inside.standardError.contains("Not a directory"), inside.standardError)
    }

    func testTheUsersFilesInAForgeTreeSurviveAllAndCase() throws {
        let directory = try scratchDirectory()
        let out = directory.appendingPathComponent("Fixtures")
        XCTAssertEqual(try ForgeProcess.run(["--all", "--out", out.path, "--quiet"]).status, 0)
        try write("notes\n", "NOTES.md", in: out)
        try write("", ".gitkeep", in: out)
        try write("why\n", "copied-device/why.txt", in: out)
        let again = try ForgeProcess.run(["--all", "--out", out.path, "--quiet"])
        XCTAssertEqual(again.status, 0, again.standardError)
        let one = try ForgeProcess.run(["--case", "copied-device", "--out", out.path])
        XCTAssertEqual(one.status, 0, one.standardError)
        XCTAssertTrue(one.standardError.contains("kept 3 files the forge did not write: .gitkeep, NOTES.md, copied-device/why.txt"),
                      one.standardError)
        let after = try files(out)
        XCTAssertEqual(after["NOTES.md"], Data("notes\n".utf8))
        XCTAssertEqual(after[".gitkeep"], Data())
        XCTAssertEqual(after["copied-device/why.txt"], Data("why\n".utf8))
        XCTAssertNotNil(after["copied-device/receipt"])
        XCTAssertEqual(try manager.contentsOfDirectory(atPath: directory.path), ["Fixtures"], "no staging tree left")
    }

    func testCARegenerationSwapsTheWholeCAAndKeepsForeignFiles() throws {
        let directory = try scratchDirectory()
        let ca = directory.appendingPathComponent("CA")
        let first = try ForgeProcess.run(["ca", "--out", ca.path])
        XCTAssertEqual(first.status, 0, first.standardError)
        let firstFiles = try files(ca)
        XCTAssertNotNil(firstFiles[".forge-owned"])
        try write("mine\n", "my-notes.txt", in: ca)
        let second = try ForgeProcess.run(["ca", "--out", ca.path])
        XCTAssertEqual(second.status, 0, second.standardError)
        let secondFiles = try files(ca)
        XCTAssertEqual(secondFiles["my-notes.txt"], Data("mine\n".utf8))
        XCTAssertEqual(Set(secondFiles.keys), Set(firstFiles.keys).union(["my-notes.txt"]))
        for stem in ["root", "intermediate", "leaf", "unrelated-root", "storekit"] {
            XCTAssertNotEqual(secondFiles["\(stem).key.pem"], firstFiles["\(stem).key.pem"], "\(stem): new keys, all of them")
        }
        // --swift naming a directory: refused before the CA is touched.
        let swiftDirectory = directory.appendingPathComponent("Sources")
        try manager.createDirectory(at: swiftDirectory, withIntermediateDirectories: false)
        let refused = try ForgeProcess.run(["ca", "--out", ca.path, "--swift", swiftDirectory.path])
        XCTAssertEqual(refused.status, 73, refused.standardError)
        XCTAssertEqual(try files(ca), secondFiles)
    }

    func testVerifyTellsUnreadableFromMissing() throws {
        let directory = try scratchDirectory()
        let root = directory.appendingPathComponent("root.cer")
        let fixtures = directory.appendingPathComponent("Fixtures")
        XCTAssertEqual(try ForgeProcess.run(["--case", "valid", "--out", fixtures.path, "--quiet"]).status, 0)
        try manager.copyItem(at: fixtures.appendingPathComponent("Certs/root.cer"), to: root)
        let common = ["--root", root.path, "--bundle-id", "com.example.receiptforge", "--no-device-check"]

        let missing = try ForgeProcess.run(["verify", directory.appendingPathComponent("nothing-here").path] + common)
        XCTAssertEqual(missing.status, 1, missing.standardError)
        XCTAssertTrue(missing.standardOutput.hasPrefix("invalid (missing)"), missing.standardOutput)

        try manager.createDirectory(at: directory.appendingPathComponent("receipt"), withIntermediateDirectories: false)
        let folder = try ForgeProcess.run(["verify", directory.appendingPathComponent("receipt").path] + common)
        XCTAssertEqual(folder.status, 74, folder.standardOutput + folder.standardError)
        XCTAssertEqual(folder.standardOutput, "")
        XCTAssertTrue(folder.standardError.contains("\(directory.appendingPathComponent("receipt").path): is a directory"),
                      folder.standardError)
    }

    func testManifestPathsMustStayInsideTheTree() throws {
        let directory = try scratchDirectory()
        let fixtures = directory.appendingPathComponent("Fixtures")
        XCTAssertEqual(try ForgeProcess.run(["--all", "--out", fixtures.path, "--quiet"]).status, 0)
        let manifestURL = fixtures.appendingPathComponent("manifest.json")
        let original = try String(contentsOf: manifestURL, encoding: .utf8)
        for hostile in ["../../etc/passwd", "/etc/passwd"] {
            try original.replacingOccurrences(of: "\"caseFile\" : \"sandbox/case.json\"", with: "\"caseFile\" : \"\(hostile)\"")
                .write(to: manifestURL, atomically: true, encoding: .utf8)
            let run = try ForgeProcess.run(["verify", "--manifest", manifestURL.path])
            XCTAssertEqual(run.status, 65, run.standardError)
            XCTAssertTrue(run.standardError.contains("case 'sandbox': caseFile '\(hostile)' is not a path inside the tree"),
                          run.standardError)
        }
        try original.write(to: manifestURL, atomically: true, encoding: .utf8)
        let caseURL = fixtures.appendingPathComponent("valid/case.json")
        let caseJSON = try String(contentsOf: caseURL, encoding: .utf8)
        try caseJSON.replacingOccurrences(of: "\"receipt\" : \"valid/receipt\"", with: "\"receipt\" : \"../valid/receipt\"")
            .write(to: caseURL, atomically: true, encoding: .utf8)
        let receipt = try ForgeProcess.run(["verify", "--manifest", manifestURL.path])
        XCTAssertEqual(receipt.status, 65, receipt.standardError)
        XCTAssertTrue(receipt.standardError.contains("case 'valid': receipt '../valid/receipt'"), receipt.standardError)

        // A case receipt that is a folder: an I/O error naming the case, not `missing`.
        try caseJSON.write(to: caseURL, atomically: true, encoding: .utf8)
        let validReceipt = fixtures.appendingPathComponent("valid/receipt")
        try manager.removeItem(at: validReceipt)
        try manager.createDirectory(at: validReceipt, withIntermediateDirectories: false)
        let unreadable = try ForgeProcess.run(["verify", "--manifest", manifestURL.path])
        XCTAssertEqual(unreadable.status, 74, unreadable.standardError)
        XCTAssertTrue(unreadable.standardError.contains("case 'valid'"), unreadable.standardError)
    }
}
