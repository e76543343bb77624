import Foundation

/// What docs/architecture.md says about the modules: the rows of its module table
/// (`| module | concept | imports |`) and the solid arrows of its mermaid graph.
struct ArchitecturePage {
    struct Row {
        let module: String
        /// The page's line number (1-based).
        let line: Int
        /// The imports column: module name → written `Name (re-exported)`.
        let imports: [String: Bool]
        /// The imports column in the page's order (names only).
        let order: [String]
    }

    struct Edge: Hashable, CustomStringConvertible {
        let from: String
        let to: String
        var description: String { "\(from) --> \(to)" }
    }

    static let tableHeader = "| module | concept | imports |"
    static let reexportedMark = " (re-exported)"

    var rows: [Row] = []
    /// Solid arrows (`-->`) of the first mermaid block, `A --> B & C` read as two edges, with the line of each.
    var edges: [Edge: Int] = [:]
    /// Every node id the mermaid block names (declared alone, or on an arrow).
    var nodes: Set<String> = []
    /// Node ids whose label starts with a package identity: `crypto[("swift-crypto<br/>Crypto")]` → swift-crypto: crypto.
    var packageNodes: [String: String] = [:]
    /// What cannot be read as the format says.
    var unreadable: [String] = []

    init(_ text: String, name: String = "docs/architecture.md") {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        readTable(lines, name: name)
        readGraph(lines, name: name)
    }

    private mutating func readTable(_ lines: [String], name: String) {
        guard let header = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == Self.tableHeader }) else {
            unreadable.append("\(name): no module table (a line `\(Self.tableHeader)`)")
            return
        }
        for index in (header + 2)..<lines.count {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("|") else { break }
            var cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            cells = Array(cells.dropFirst().dropLast())
            guard cells.count >= 3 else {
                unreadable.append("\(name):\(index + 1): a table row needs three cells: `| `Module` | concept | imports |`")
                continue
            }
            let module = Self.unquoted(cells[0])
            var imports: [String: Bool] = [:]
            var order: [String] = []
            let column = cells[cells.count - 1]
            if column != "—" {
                for item in column.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                    var entry = item
                    let reexported = entry.hasSuffix(Self.reexportedMark)
                    if reexported { entry = String(entry.dropLast(Self.reexportedMark.count)) }
                    let import_ = Self.unquoted(entry)
                    guard Self.isModuleName(import_) else {
                        unreadable.append("\(name):\(index + 1): row `\(module)`: cannot read the import `\(item)`: "
                            + "the imports column is `—` or module names separated by commas, each `Name` or `Name (re-exported)`")
                        continue
                    }
                    if imports[import_] != nil {
                        unreadable.append("\(name):\(index + 1): row `\(module)` lists `\(import_)` twice")
                    }
                    imports[import_] = reexported
                    order.append(import_)
                }
            }
            guard Self.isModuleName(module) else {
                unreadable.append("\(name):\(index + 1): cannot read the module `\(cells[0])`: write one module name, as `Name`")
                continue
            }
            rows.append(Row(module: module, line: index + 1, imports: imports, order: order))
        }
    }

    private mutating func readGraph(_ lines: [String], name: String) {
        guard let open = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "```mermaid" }) else {
            unreadable.append("\(name): no ```mermaid block")
            return
        }
        for index in (open + 1)..<lines.count {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            if line == "```" { break }
            if line.isEmpty || line.hasPrefix("%%") || line.hasPrefix("flowchart") || line.hasPrefix("subgraph") || line == "end" { continue }
            if line.contains("-.->") { continue }  // dotted: the tools, not imports
            let segments = line.components(separatedBy: "-->")
            var previous: [String] = []
            for segment in segments {
                let ids = segment.split(separator: "&").map { self.node(String($0), line: index + 1, name: name) }
                for from in previous {
                    for to in ids { edges[Edge(from: from, to: to)] = index + 1 }
                }
                previous = ids
            }
        }
    }

    /// `id`, `id[label]`, `id[("label")]`, …: records the node and returns its id.
    private mutating func node(_ text: String, line: Int, name: String) -> String {
        let text = text.trimmingCharacters(in: .whitespaces)
        let id = String(text.prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" }))
        if id.isEmpty { unreadable.append("\(name):\(line): cannot read a mermaid node in `\(text)`") }
        nodes.insert(id)
        let label = text.dropFirst(id.count).drop(while: { "[(\"".contains($0) })
        if !label.isEmpty, text.dropFirst(id.count).hasPrefix("[(") {
            let package = label.prefix(while: { $0 != "<" && $0 != "\"" })
            packageNodes[String(package)] = id
        }
        return id
    }

    static func unquoted(_ text: String) -> String {
        text.hasPrefix("`") && text.hasSuffix("`") && text.count >= 2 ? String(text.dropFirst().dropLast()) : text
    }

    static func isModuleName(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
}
