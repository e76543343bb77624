import Foundation
import TestSupport
import XCTest

/// The `forge` command lines of the shell examples (```sh blocks) in README.md,
/// CONTRIBUTING.md and docs/*.md name only subcommands and options that `forge` has:
/// each option is looked up in the `--help` of the subcommand it follows, as the built
/// executable prints it (`forge serve --help` is forge-serve's).
final class DocumentationCommandTests: XCTestCase {
    func testTheShellExamplesUseOnlyRealOptions() throws {
        let root = ChildProcess.packageRoot.standardizedFileURL
        var helps: [[String]: String] = [:]
        func help(_ path: [String]) throws -> String {
            if let known = helps[path] { return known }
            let run = try ChildProcess.run(ChildProcess.product("forge"), path + ["--help"])
            XCTAssertEqual(run.status, 0, "forge \((path + ["--help"]).joined(separator: " ")): \(run.standardError)")
            helps[path] = run.standardOutput
            return run.standardOutput
        }
        var checked = 0
        for document in try DocumentationLinks.documents(in: root) {
            let name = String(document.path.dropFirst(root.path.count + 1))
            for command in DocumentationCommands.forgeCommands(in: try String(contentsOf: document, encoding: .utf8)) {
                var path: [String] = []
                var rest = command[...]
                while true {
                    let listed = DocumentationCommands.subcommands(in: try help(path))
                    if let next = rest.first, listed.names.contains(next) {
                        path.append(next)
                        rest = rest.dropFirst()
                    } else if let name = listed.defaultName {
                        path.append(name)  // `forge --all` is `forge mint --all`
                    } else {
                        break
                    }
                }
                let text = try help(path)
                // After a lone `--` come the validator's own arguments (`forge check -- COMMAND`).
                for token in rest.prefix(while: { $0 != "--" }) where token.hasPrefix("--") {
                    let option = String(token.prefix { $0 != "=" })
                    XCTAssertTrue(DocumentationCommands.help(text, lists: option),
                                  "\(name): `forge \(command.joined(separator: " "))`: forge \(path.joined(separator: " ")) has no \(option)")
                }
                checked += 1
            }
        }
        // An extractor that finds no command would pass on anything.
        XCTAssertGreaterThan(checked, 20, "too few forge commands found in the shell examples")
    }

    func testCommandsAreFoundInShellBlocksOnly() {
        let markdown = #"""
            Run `forge --nope` (a code span, not checked).

            ```sh
            swift run forge check --fixtures Fixtures -- ./mine --weird   # a comment --gone
            FORGE=$(swift build --show-bin-path)/forge swift run forge jws list
            dist/receipt-forge-X.Y.Z-linux-x86_64/forge --all \
                --out "my fixtures" | tee log
            curl -s http://127.0.0.1:8080/health
            ```

            ```swift
            let forge = "forge --not-shell"
            ```
            """#
        XCTAssertEqual(DocumentationCommands.forgeCommands(in: markdown), [
            ["check", "--fixtures", "Fixtures", "--", "./mine", "--weird"],
            ["jws", "list"],
            ["--all", "--out", "my fixtures"],
        ])
        let listed = DocumentationCommands.subcommands(in: """
            OPTIONS:
              --json                  Machine-readable output.

            SUBCOMMANDS:
              mint (default)          Mint the cases.
              list                    The cases, one a line, with a description long
                                      enough to wrap.
              verify                  Verify JWS files.

              See 'forge help jws <subcommand>' for detailed help.
            """)
        XCTAssertEqual(listed.names, ["mint", "list", "verify"])
        XCTAssertEqual(listed.defaultName, "mint")
        XCTAssertTrue(DocumentationCommands.help("  --out <DIR>   Where.", lists: "--out"))
        XCTAssertFalse(DocumentationCommands.help("  --output <DIR>   Where.", lists: "--out"))
    }
}

/// Finds the `forge` command lines of Markdown shell examples.
enum DocumentationCommands {
    /// The arguments after `forge` (or `…/forge`) of every command line in the ```sh
    /// blocks of `markdown`: continuation lines joined, quotes removed, stopped at a
    /// comment or a pipe, redirection or command separator.
    static func forgeCommands(in markdown: String) -> [[String]] {
        var commands: [[String]] = []
        var inShell: Bool?
        var pending = ""
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") {
                inShell = inShell == nil ? ["sh", "bash", "shell"].contains(trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)) : nil
                continue
            }
            guard inShell == true else { continue }
            if line.hasSuffix("\\") {
                pending += line.dropLast() + " "
                continue
            }
            let tokens = Self.words(pending + line)
            pending = ""
            let start = tokens.firstIndex(of: "forge")
                ?? tokens.firstIndex { $0.hasSuffix("/forge") && !$0.contains("$(") && !$0.contains(")") }
            if let start { commands.append(Array(tokens[(start + 1)...])) }
        }
        return commands
    }

    /// The words of a shell command line (quotes removed), up to a comment or the first
    /// operator (`|`, `&&`, `;`, a redirection).
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var word: String?
        var quote: Character?
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word?.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                word = word ?? ""
            } else if character == " " || character == "\t" {
                if let done = word { words.append(done) }
                word = nil
            } else if character == "#", word == nil {
                break
            } else {
                word = (word ?? "") + String(character)
            }
        }
        if let done = word { words.append(done) }
        let operators: Set = ["|", "||", "&&", ";", "&", ">", ">>", "2>", "2>&1", "<"]
        return Array(words.prefix { !operators.contains($0) })
    }

    /// The subcommand names an ArgumentParser help text lists, and the default one.
    static func subcommands(in help: String) -> (names: [String], defaultName: String?) {
        guard let section = help.range(of: "SUBCOMMANDS:\n") else { return ([], nil) }
        var names: [String] = []
        var defaultName: String?
        for line in help[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("  ") else { break }  // the blank line after the section
            guard !line.hasPrefix("   "), let name = line.split(separator: " ").first else { continue }  // a wrapped abstract
            names.append(String(name))
            if line.dropFirst(2 + name.count).hasPrefix(" (default)") { defaultName = String(name) }
        }
        return (names, defaultName)
    }

    /// Whether `help` names `option` as a whole word.
    static func help(_ help: String, lists option: String) -> Bool {
        help.range(of: "(?<![\\w-])" + NSRegularExpression.escapedPattern(for: option) + "(?![\\w-])",
                   options: .regularExpression) != nil
    }
}
