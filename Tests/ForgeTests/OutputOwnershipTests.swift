import ReceiptForge
import Foundation
import XCTest
import OwnedFileTree
import ForgeCA

/// The forge owns only what it wrote: `OutputTree` refuses directories it did not
/// write, keeps the user's files inside its own trees, and never writes through links.
final class OutputOwnershipTests: XCTestCase {
    var scratch: URL!
    let manager = FileManager.default

    override func setUpWithError() throws {
        scratch = manager.temporaryDirectory.appendingPathComponent("forge-ownership-\(UUID().uuidString)")
        try manager.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? manager.removeItem(at: scratch)
    }

    func write(_ text: String, _ relative: String, in directory: URL) throws {
        let url = directory.appendingPathComponent(relative)
        try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func read(_ relative: String, in directory: URL) -> String? {
        manager.contents(atPath: directory.appendingPathComponent(relative).path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every file below `directory` (relative path → contents), links not followed.
    func snapshot(_ directory: URL) throws -> [String: String] {
        var files: [String: String] = [:]
        for relative in try manager.subpathsOfDirectory(atPath: directory.path) {
            let url = directory.appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            if manager.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = read(relative, in: directory)
            }
        }
        return files
    }

    func testADirectoryTheForgeDidNotWriteIsRefusedAndUntouched() throws {
        let directory = scratch.appendingPathComponent("project")
        try write("# my project\n", "README.md", in: directory)
        try write("let x = 1\n", "Sources/main.swift", in: directory)
        let before = try snapshot(directory)
        for attempt in [{ try OutputTree(directory: directory, ownership: .fixtures).replaceTree(with: [("manifest.json", [1])]) },
                        { try OutputTree(directory: directory, ownership: .fixtures).update(with: [("valid/receipt", [1])], replacing: ["valid"]) }] {
            XCTAssertThrowsError(try attempt()) { error in
                guard case .notOwned(let path, let found)? = error as? OutputError else { return XCTFail("\(error)") }
                XCTAssertEqual(path, directory.path)
                XCTAssertEqual(found, ["README.md", "Sources"])
                XCTAssertFalse((error as! OutputError).isIOError)
            }
        }
        XCTAssertEqual(try snapshot(directory), before)
        XCTAssertEqual(try manager.contentsOfDirectory(atPath: scratch.path), ["project"], "no staging folder left")
    }

    func testARegularFileOrALinkIsRefused() throws {
        let file = scratch.appendingPathComponent("out.txt")
        try Data("keep".utf8).write(to: file)
        XCTAssertThrowsError(try OutputTree(directory: file, ownership: .fixtures).replaceTree(with: [("a", [1])])) { error in
            XCTAssertEqual(error as? OutputError, .notADirectory(path: file.path, kind: "a regular file"))
        }
        XCTAssertEqual(read("out.txt", in: scratch), "keep")

        let target = scratch.appendingPathComponent("elsewhere")
        try manager.createDirectory(at: target, withIntermediateDirectories: true)
        let link = scratch.appendingPathComponent("link")
        try manager.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
        for attempt in [{ try OutputTree(directory: link, ownership: .fixtures).replaceTree(with: [("a", [1])]) },
                        { try OutputTree(directory: link, ownership: .fixtures).update(with: [("a", [1])], replacing: []) }] {
            XCTAssertThrowsError(try attempt()) { error in
                XCTAssertEqual(error as? OutputError, .symbolicLink(path: link.path, destination: target.path))
            }
        }
        XCTAssertEqual(try manager.destinationOfSymbolicLink(atPath: link.path), target.path)
        XCTAssertEqual(try manager.contentsOfDirectory(atPath: target.path), [])

        // A path below a regular file cannot be created: exit 73, not an I/O error.
        XCTAssertThrowsError(try OutputTree(directory: file.appendingPathComponent("sub"), ownership: .fixtures).replaceTree(with: [("a", [1])])) { error in
            guard case .cannotCreate? = error as? OutputError else { return XCTFail("\(error)") }
        }
    }

    func testUserFilesSurviveAWholeReplacement() throws {
        let directory = scratch.appendingPathComponent("Fixtures")
        let tree = OutputTree(directory: directory, ownership: .fixtures)
        try tree.replaceTree(with: [("manifest.json", Array("v1".utf8)), ("valid/receipt", [1]), ("old-case/case.json", [2])])
        try write("my notes\n", "NOTES.md", in: directory)
        try write("", ".gitkeep", in: directory)
        try write("annotation\n", "valid/why.txt", in: directory)
        try write("mine\n", "extra/deep/file", in: directory)
        try manager.createDirectory(at: directory.appendingPathComponent("empty"), withIntermediateDirectories: true)
        let inode = try manager.attributesOfItem(atPath: directory.appendingPathComponent("NOTES.md").path)[.systemFileNumber] as? Int

        let report = try tree.replaceTree(with: [("manifest.json", Array("v2".utf8)), ("valid/receipt", [3])])
        XCTAssertEqual(report.kept, [".gitkeep", "NOTES.md", "extra/deep/file", "valid/why.txt"])
        XCTAssertNil(report.leftBehind)
        XCTAssertEqual(try snapshot(directory), [
            ".forge-owned": "# receipt-forge: the files below were written by the forge; it replaces or removes only these\nmanifest.json\nvalid/receipt\n",
            "manifest.json": "v2", "valid/receipt": "\u{3}",
            "NOTES.md": "my notes\n", ".gitkeep": "", "valid/why.txt": "annotation\n", "extra/deep/file": "mine\n",
        ])
        XCTAssertTrue(manager.fileExists(atPath: directory.appendingPathComponent("empty").path))
        XCTAssertFalse(manager.fileExists(atPath: directory.appendingPathComponent("old-case").path), "the forge's stale folder is gone")
        let after = try manager.attributesOfItem(atPath: directory.appendingPathComponent("NOTES.md").path)[.systemFileNumber] as? Int
        XCTAssertEqual(after, inode, "the very same file, not a copy")
        XCTAssertEqual(try manager.contentsOfDirectory(atPath: scratch.path), ["Fixtures"], "no staging or old tree left")
    }

    func testAUserFileWhereTheForgeWritesIsRefused() throws {
        let directory = scratch.appendingPathComponent("Fixtures")
        let tree = OutputTree(directory: directory, ownership: .fixtures)
        try tree.replaceTree(with: [("manifest.json", [1])])
        try write("user", "new-case", in: directory)
        let before = try snapshot(directory)
        XCTAssertThrowsError(try tree.replaceTree(with: [("manifest.json", [2]), ("new-case/receipt", [3])])) { error in
            guard case .inTheWay(let path, _)? = error as? OutputError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, directory.appendingPathComponent("new-case").path)
        }
        XCTAssertThrowsError(try tree.update(with: [("new-case", [3])], replacing: []))
        XCTAssertEqual(try snapshot(directory), before)
    }

    func testUpdatingACaseRemovesOnlyTheForgesStaleFiles() throws {
        let directory = scratch.appendingPathComponent("Fixtures")
        let tree = OutputTree(directory: directory, ownership: .fixtures)
        try tree.replaceTree(with: [("manifest.json", [1]), ("valid/receipt", [1]), ("valid/receipt.b64", [1]),
                                    ("valid/case.json", [1]), ("other/case.json", [1])])
        try write("note", "valid/note.txt", in: directory)
        // The case now has no receipt (as `missing`): the forge's receipt files go, the note stays.
        let report = try tree.update(with: [("valid/case.json", [2]), ("manifest.json", [2])], replacing: ["valid"])
        XCTAssertEqual(report.kept, ["valid/note.txt"])
        let files = try snapshot(directory)
        XCTAssertEqual(Set(files.keys), [".forge-owned", "manifest.json", "valid/case.json", "valid/note.txt", "other/case.json"])
        XCTAssertEqual(files[".forge-owned"]?.split(separator: "\n").dropFirst().map(String.init),
                       ["manifest.json", "other/case.json", "valid/case.json"])
    }

    func testATreeFromBeforeTheOwnershipRecordIsRecognisedByItsManifest() throws {
        let directory = scratch.appendingPathComponent("Fixtures")
        try write(#"{"generator": "receipt-forge", "cases": [{"id": "valid"}, {"id": "gone"}]}"#, "manifest.json", in: directory)
        try write("r", "valid/receipt", in: directory)
        try write("c", "gone/case.json", in: directory)
        try write("root", "Certs/root.cer", in: directory)
        try write("user", "NOTES.md", in: directory)
        let report = try OutputTree(directory: directory, ownership: .fixtures).replaceTree(with: [("manifest.json", [1]), ("valid/receipt", [2])])
        XCTAssertEqual(report.kept, ["NOTES.md"])
        XCTAssertEqual(Set(try snapshot(directory).keys), [".forge-owned", "manifest.json", "valid/receipt", "NOTES.md"])

        // Another program's manifest.json does not make a tree the forge's.
        let other = scratch.appendingPathComponent("Other")
        try write(#"{"generator": "something-else", "cases": []}"#, "manifest.json", in: other)
        XCTAssertThrowsError(try OutputTree(directory: other, ownership: .fixtures).replaceTree(with: [("a", [1])]))
    }

    func testAnOwnershipRecordNamingPathsOutsideTheTreeIsNotTrusted() throws {
        let directory = scratch.appendingPathComponent("Fixtures")
        try write("precious", "outside.txt", in: scratch)
        for line in ["../outside.txt", "/etc/passwd", "a/../../outside.txt", "./x", "a//b"] {
            try write("# receipt-forge: the files below were written by the forge; it replaces or removes only these\n\(line)\n",
                      ".forge-owned", in: directory)
            XCTAssertThrowsError(try OutputTree(directory: directory, ownership: .fixtures).replaceTree(with: [("a", [1])]), line) { error in
                guard case .badOwnershipRecord? = error as? OutputError else { return XCTFail("\(line): \(error)") }
            }
        }
        XCTAssertEqual(read("outside.txt", in: scratch), "precious")
        XCTAssertEqual(try manager.contentsOfDirectory(atPath: directory.path), [".forge-owned"])
    }

    func testACertificateAuthorityDirectoryIsSwappedWholeAndKeepsForeignFiles() throws {
        let directory = scratch.appendingPathComponent("Certs")
        try write("secret of mine", "my-own.key.pem", in: directory)
        XCTAssertThrowsError(try OutputTree(directory: directory, ownership: .certificateAuthority)
            .replaceTree(with: [("root.cer", [1])]), "a folder with a foreign key is not the forge's")
        XCTAssertEqual(try snapshot(directory), ["my-own.key.pem": "secret of mine"])

        // A CA folder from before `.forge-owned`, known by the forge's README heading.
        try write(AuthorityDirectory.readme, "README.md", in: directory)
        try write("old root", "root.cer", in: directory)
        try write("old key", "root.key.pem", in: directory)
        let tree = OutputTree(directory: directory, ownership: .certificateAuthority)
        let report = try tree.replaceTree(with: [("README.md", Array(AuthorityDirectory.readme.utf8)), ("root.cer", [0x31])])
        XCTAssertEqual(report.kept, ["my-own.key.pem"])
        XCTAssertEqual(try snapshot(directory), [
            ".forge-owned": "# receipt-forge: the files below were written by the forge; it replaces or removes only these\nREADME.md\nroot.cer\n",
            "README.md": AuthorityDirectory.readme, "root.cer": "1", "my-own.key.pem": "secret of mine",
        ], "the old key is gone with the old CA: never a mix of old and new keys")
    }

    func testASingleOutputFileIsReplacedOnlyWhenItIsAFile() throws {
        let directory = scratch.appendingPathComponent("dir")
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        XCTAssertThrowsError(try OutputFile(path: directory).write([1])) { error in
            XCTAssertEqual(error as? OutputError, .notARegularFile(path: directory.path, kind: "a directory"))
        }
        let file = scratch.appendingPathComponent("Embedded.swift")
        try OutputFile(path: file).write(Array("one".utf8))
        try OutputFile(path: file).write(Array("two".utf8))
        XCTAssertEqual(read("Embedded.swift", in: scratch), "two")
        XCTAssertThrowsError(try OutputFile(path: scratch.appendingPathComponent("no/such/folder.swift")).write([1]))
        XCTAssertEqual(Set(try manager.contentsOfDirectory(atPath: scratch.path)), ["dir", "Embedded.swift"])
    }
}
