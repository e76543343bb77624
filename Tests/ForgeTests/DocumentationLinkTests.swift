import Foundation
import TestSupport
import XCTest

/// Every relative link in README.md, CONTRIBUTING.md and docs/*.md resolves: the file or folder exists
/// inside the repository, and a `#anchor` into a Markdown file names one of its
/// headings (GitHub's slugs). Links inside code blocks and code spans are not links;
/// absolute URLs (`https:`, `mailto:`) are not checked.
final class DocumentationLinkTests: XCTestCase {
    func testEveryRelativeLinkInTheREADMEAndDocsResolves() throws {
        let root = ChildProcess.packageRoot.standardizedFileURL
        let documents = try DocumentationLinks.documents(in: root)
        XCTAssertTrue(documents.contains { $0.lastPathComponent == "README.md" }, "README.md not found under \(root.path)")
        XCTAssertTrue(documents.count > 1, "no docs/*.md found under \(root.path)")
        var checked = 0
        for document in documents {
            let text = try String(contentsOf: document, encoding: .utf8)
            let links = DocumentationLinks.relativeLinks(in: text)
            checked += links.count
            for problem in DocumentationLinks.problems(of: links, in: document, root: root) {
                XCTFail(problem)
            }
        }
        // A checker that finds no links at all would pass on anything.
        XCTAssertTrue(checked > 0, "no relative links found in \(documents.map(\.lastPathComponent))")
    }

    /// The README is a front door; the manual is in docs/.
    func testTheREADMEIsAtMost400Lines() throws {
        let readme = try String(contentsOf: ChildProcess.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count - (readme.hasSuffix("\n") ? 1 : 0)
        XCTAssertLessThanOrEqual(lines, 400, "README.md has \(lines) lines: move the detail into a guide in docs/")
    }

    /// The checker itself: a missing file, a missing heading, a link out of the
    /// repository are each reported; code is not read as links.
    func testBrokenLinksAreReported() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("doc-links-\(UUID().uuidString)")
            .standardizedFileURL
        try FileManager.default.createDirectory(at: root.appendingPathComponent("docs"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try "# Guide\n\n## Run `forge check`: the contract\n\n## Run `forge check`: the contract\n"
            .write(to: root.appendingPathComponent("docs/guide.md"), atomically: true, encoding: .utf8)
        let readme = """
            # Top

            [fine](docs/guide.md), [heading](docs/guide.md#run-forge-check-the-contract),
            [second heading](docs/guide.md#run-forge-check-the-contract-1), [here](#top), [folder](docs/),
            [web](https://example.com/missing.md), ![picture](docs/missing.svg "a title")
            [gone](docs/gone.md) and [no heading](docs/guide.md#nowhere) and [outside](../elsewhere.md)
            and [no anchor here](#bottom), `[code span](docs/code.md)`

            ```sh
            echo "[in a block](docs/block.md)"
            ```

            [reference]: docs/also-gone.md
            """
        let document = root.appendingPathComponent("README.md")
        try readme.write(to: document, atomically: true, encoding: .utf8)
        let links = DocumentationLinks.relativeLinks(in: readme)
        XCTAssertEqual(links, ["docs/guide.md", "docs/guide.md#run-forge-check-the-contract",
                               "docs/guide.md#run-forge-check-the-contract-1", "#top", "docs/", "docs/missing.svg",
                               "docs/gone.md", "docs/guide.md#nowhere", "../elsewhere.md", "#bottom",
                               "docs/also-gone.md"])
        let problems = DocumentationLinks.problems(of: links, in: document, root: root)
        XCTAssertEqual(problems.count, 6, problems.joined(separator: "\n"))
        for broken in ["docs/missing.svg", "docs/gone.md", "docs/guide.md#nowhere", "../elsewhere.md", "#bottom",
                       "docs/also-gone.md"] {
            XCTAssertTrue(problems.contains { $0.contains("(\(broken))") }, "\(broken) not reported: \(problems)")
        }
    }

    func testHeadingSlugsFollowGitHub() {
        XCTAssertEqual(DocumentationLinks.anchors(in: """
            # Receipt Forge
            ## Checking your validator: `forge check`
            ## StoreKit 2: signed transactions (`forge jws`)
            ### x^65537 mod m, 2048 bits ≥ 1.0× — [see](other.md)
            ## Layout ##
            ## Layout
            """), ["receipt-forge", "checking-your-validator-forge-check",
                   "storekit-2-signed-transactions-forge-jws", "x65537-mod-m-2048-bits--10--see",
                   "layout", "layout-1"])
    }
}

/// Finds the relative links of Markdown documents and what is wrong with them.
enum DocumentationLinks {
    /// README.md, CONTRIBUTING.md (when there is one) and every docs/*.md of the
    /// repository at `root`.
    static func documents(in root: URL) throws -> [URL] {
        let docs = root.appendingPathComponent("docs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        let contributing = root.appendingPathComponent("CONTRIBUTING.md")
        return [root.appendingPathComponent("README.md")]
            + (FileManager.default.fileExists(atPath: contributing.path) ? [contributing] : [])
            + names.filter { $0.hasSuffix(".md") }.sorted().map { docs.appendingPathComponent($0) }
    }

    /// The lines of `text` outside fenced code blocks.
    static func prose(_ text: String) -> [String] {
        var lines: [String] = []
        var fence: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil }
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = String(trimmed.prefix(3))
                continue
            }
            lines.append(String(line))
        }
        return lines
    }

    /// `line` without its code spans (what is in them is not a link).
    private static func withoutCodeSpans(_ line: String) -> String {
        line.replacingOccurrences(of: "(`+).*?\\1", with: "", options: .regularExpression)
    }

    /// Targets of inline links and images, `[text](target "title")`, and of reference
    /// definitions, `[name]: target`, that are not absolute URLs.
    static func relativeLinks(in text: String) -> [String] {
        let inline = try! NSRegularExpression(pattern: #"!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)"#)
        let reference = try! NSRegularExpression(pattern: #"^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?"#)
        var links: [String] = []
        for line in prose(text).map(withoutCodeSpans) {
            let range = NSRange(line.startIndex..., in: line)
            for expression in [inline, reference] {
                for match in expression.matches(in: line, range: range) {
                    guard let target = Range(match.range(at: 1), in: line).map({ String(line[$0]) }) else { continue }
                    links.append(target)
                }
            }
        }
        return links.filter { !$0.isEmpty && $0.range(of: "^[A-Za-z][A-Za-z0-9+.-]*:", options: .regularExpression) == nil }
    }

    /// The anchors GitHub gives the headings of a Markdown document, in order: the
    /// heading's text lower-cased, without what is neither a letter, mark, number,
    /// connector, hyphen nor space, spaces turned into hyphens; a repeated slug gets
    /// `-1`, `-2`, … Explicit `id`/`name` attributes of HTML elements count too.
    static func anchors(in text: String) -> [String] {
        var anchors: [String] = []
        var seen: [String: Int] = [:]
        for line in prose(text) {
            for match in line.matches(of: #/<[a-zA-Z]+[^>]*\s(?:id|name)="([^"]+)"/#) {
                anchors.append(String(match.1))
            }
            guard let heading = line.firstMatch(of: #/^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/#) else { continue }
            let slug = slug(String(heading.1 ?? ""))
            if let count = seen[slug] {
                seen[slug] = count + 1
                anchors.append("\(slug)-\(count + 1)")
            } else {
                seen[slug] = 0
                anchors.append(slug)
            }
        }
        return anchors
    }

    static func slug(_ heading: String) -> String {
        // The rendered text: a link's or image's text stays, code spans lose their
        // backticks, HTML tags go.
        var text = heading.replacingOccurrences(of: #"!?\[([^\]]*)\]\([^)]*\)"#, with: "$1", options: .regularExpression)
        text = text.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
            .replacingOccurrences(of: "`", with: "")
        var slug = ""
        for scalar in text.lowercased().unicodeScalars {
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber,
                 .connectorPunctuation:
                slug.unicodeScalars.append(scalar)
            default:
                if scalar == "-" { slug.append("-") } else if scalar == " " { slug.append("-") }
            }
        }
        return slug
    }

    /// One message per link of `document` that does not resolve.
    static func problems(of links: [String], in document: URL, root: URL) -> [String] {
        let name = document.path.hasPrefix(root.path + "/") ? String(document.path.dropFirst(root.path.count + 1)) : document.path
        var anchorsByFile: [String: [String]] = [:]
        func anchors(of file: URL) -> [String] {
            if let known = anchorsByFile[file.path] { return known }
            let found = (try? String(contentsOf: file, encoding: .utf8)).map(anchors(in:)) ?? []
            anchorsByFile[file.path] = found
            return found
        }
        var problems: [String] = []
        for link in links {
            let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let pathPart = String(parts[0]).split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let path = String(pathPart).removingPercentEncoding ?? String(pathPart)
            let fragment = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : nil
            let target = path.isEmpty ? document : document.deletingLastPathComponent().appendingPathComponent(path)
                .standardizedFileURL
            guard target.path == root.path || target.path.hasPrefix(root.path + "/") else {
                problems.append("\(name): link (\(link)) leaves the repository")
                continue
            }
            guard FileManager.default.fileExists(atPath: target.path) else {
                problems.append("\(name): link (\(link)): \(target.path) does not exist")
                continue
            }
            if let fragment, !fragment.isEmpty, target.pathExtension.lowercased() == "md",
               !anchors(of: target).contains(fragment) {
                problems.append("\(name): link (\(link)): \(target.lastPathComponent) has no heading with the anchor #\(fragment)")
            }
        }
        return problems
    }
}
