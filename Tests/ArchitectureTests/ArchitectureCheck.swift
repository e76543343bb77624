import Foundation

/// Compares docs/architecture.md with the code: the module table with each module's
/// imports and Package.swift, the table's order with the rule "each module imports only
/// modules listed before it", and the mermaid graph with the imports no other import
/// implies. Every problem is one sentence that names the module, the import, a file that
/// has it, and what to change.
struct ArchitectureCheck {
    let page: ArchitecturePage
    /// The modules of Sources/, by name.
    let modules: [String: SourceModule]
    /// The package identity of every external product a module may import (`Crypto` → `swift-crypto`).
    let packageOfProduct: [String: String]
    let pageName: String

    init(page: ArchitecturePage, modules: [SourceModule], packageOfProduct: [String: String],
         pageName: String = "docs/architecture.md") {
        self.page = page
        self.modules = Dictionary(modules.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.packageOfProduct = packageOfProduct
        self.pageName = pageName
    }

    /// A module's imports, platform modules left out: the first line of each, `@_exported` if any line is.
    func imports(of module: String) -> [String: ImportLine] {
        var found: [String: ImportLine] = [:]
        for line in modules[module]?.imports ?? [] where !SourceImports.platformModules.contains(line.module) && line.module != module {
            if let first = found[line.module] {
                if line.reexported && !first.reexported { found[line.module] = line }
            } else {
                found[line.module] = line
            }
        }
        return found
    }

    /// Modules of Sources/ the module imports.
    func firstPartyImports(of module: String) -> Set<String> {
        Set(imports(of: module).keys.filter { modules[$0] != nil })
    }

    var problems: [String] {
        page.unreadable + tableProblems + declarationProblems + orderProblems + graphProblems
    }

    // MARK: The table

    var rowsByModule: [String: [ArchitecturePage.Row]] {
        Dictionary(grouping: page.rows, by: \.module)
    }

    /// The imports column the row of `module` should have: modules of Sources/ in table
    /// order, then the packages' modules by name.
    func expectedColumn(_ module: String) -> String {
        let position = Dictionary(page.rows.enumerated().map { ($1.module, $0) }, uniquingKeysWith: { first, _ in first })
        let found = imports(of: module)
        let names = found.keys.sorted { a, b in
            switch (position[a], position[b]) {
            case let (x?, y?): return x < y
            case (_?, nil): return true
            case (nil, _?): return false
            case (nil, nil): return a < b
            }
        }
        if names.isEmpty { return "—" }
        return names.map { found[$0]!.reexported ? $0 + ArchitecturePage.reexportedMark : $0 }.joined(separator: ", ")
    }

    var tableProblems: [String] {
        var problems: [String] = []
        let rows = rowsByModule
        for row in page.rows where modules[row.module] == nil {
            problems.append("\(pageName):\(row.line): the row `\(row.module)` names no module of Sources/: remove the row, or correct its name")
        }
        for name in modules.keys.sorted() {
            guard let found = rows[name] else {
                let below = firstPartyImports(of: name).compactMap { rows[$0]?.first }.max { $0.line < $1.line }
                problems.append("\(pageName): no row for the module `\(name)` (Sources/\(name)): add `| `\(name)` | (its concept) | "
                    + "\(expectedColumn(name)) |`" + (below.map { " below the row of `\($0.module)` (line \($0.line))" } ?? ""))
                continue
            }
            if found.count > 1 {
                problems.append("\(pageName): the module `\(name)` has \(found.count) rows (lines \(found.map { String($0.line) }.joined(separator: ", "))): keep one")
            }
            let row = found[0]
            let code = imports(of: name)
            var wrong = false
            for (module, line) in code.sorted(by: { $0.key < $1.key }) {
                if let listed = row.imports[module] {
                    if listed != line.reexported {
                        wrong = true
                        problems.append(line.reexported
                            ? "\(pageName):\(row.line): `\(name)` re-exports `\(module)` (`@_exported import`, \(line.location)): write it `\(module) (re-exported)` in the row of `\(name)`"
                            : "\(pageName):\(row.line): the row of `\(name)` says `\(module) (re-exported)`, but no file of Sources/\(name) has `@_exported import \(module)`: write it `\(module)`")
                    }
                } else {
                    wrong = true
                    problems.append("\(pageName):\(row.line): `\(name)` imports `\(module)` (\(line.location)), which the row of `\(name)` does not list: add `\(module)` to its imports column")
                }
            }
            for module in row.order where code[module] == nil {
                wrong = true
                problems.append("\(pageName):\(row.line): the row of `\(name)` lists `\(module)`, which no file of Sources/\(name) imports: remove `\(module)` from its imports column")
            }
            if wrong {
                problems.append("\(pageName):\(row.line): the imports column of `\(name)` should read: \(expectedColumn(name))")
            }
        }
        return problems
    }

    // MARK: Package.swift

    var declarationProblems: [String] {
        var problems: [String] = []
        for name in modules.keys.sorted() {
            let code = imports(of: name)
            let declared = modules[name]!.declared
            for (module, line) in code.sorted(by: { $0.key < $1.key }) where !declared.contains(module) {
                let spelling = modules[module] != nil ? "\"\(module)\""
                    : ".product(name: \"\(module)\", package: \"\(packageOfProduct[module] ?? "…")\")"
                problems.append("Package.swift: `\(name)` imports `\(module)` (\(line.location)), which its dependencies do not declare: add \(spelling) to the target `\(name)`")
            }
            for module in declared.sorted() where code[module] == nil {
                problems.append("Package.swift: the target `\(name)` declares `\(module)`, which no file of Sources/\(name) imports: "
                    + "import it where \(name) uses it, or remove it from the target's dependencies")
            }
        }
        return problems
    }

    // MARK: The order

    var orderProblems: [String] {
        var problems: [String] = []
        let rows = rowsByModule
        for row in page.rows where modules[row.module] != nil {
            let code = imports(of: row.module)
            for module in firstPartyImports(of: row.module).sorted() {
                guard let other = rows[module]?.first, other.line > row.line else { continue }
                problems.append("\(pageName):\(row.line): `\(row.module)` imports `\(module)` (\(code[module]!.location)), whose row is below it "
                    + "(line \(other.line)): move the row of `\(module)` above the row of `\(row.module)` (each module imports only modules listed before it)")
            }
        }
        return problems
    }

    // MARK: The graph

    /// Every module `module` reaches through imports of Sources/ modules, itself excluded.
    func reach(_ module: String) -> Set<String> {
        var seen: Set<String> = []
        var queue = Array(firstPartyImports(of: module))
        while let next = queue.popLast() {
            guard seen.insert(next).inserted else { continue }
            queue += firstPartyImports(of: next)
        }
        return seen
    }

    /// The packages whose products `module` imports itself.
    func packages(of module: String) -> [String: ImportLine] {
        var found: [String: ImportLine] = [:]
        for (name, line) in imports(of: module) where modules[name] == nil {
            if let package = packageOfProduct[name], found[package] == nil { found[package] = line }
        }
        return found
    }

    /// The arrows the graph draws, by the import that makes each: `module` to each module it
    /// imports that none of its other imports reaches, and to each package whose products
    /// it imports that none of its imports reaches (packages by their identity).
    func expectedArrows() -> [ArchitecturePage.Edge: ImportLine] {
        var arrows: [ArchitecturePage.Edge: ImportLine] = [:]
        for module in modules.keys {
            let direct = firstPartyImports(of: module)
            let code = imports(of: module)
            let reaches = Dictionary(uniqueKeysWithValues: direct.map { ($0, reach($0).union([$0])) })
            for target in direct where !direct.contains(where: { $0 != target && reaches[$0]!.contains(target) }) {
                arrows[.init(from: module, to: target)] = code[target]
            }
            for (package, line) in packages(of: module) {
                let implied = direct.contains { other in reaches[other]!.contains { packages(of: $0)[package] != nil } }
                if !implied { arrows[.init(from: module, to: "package:" + package)] = line }
            }
        }
        return arrows
    }

    var graphProblems: [String] {
        var problems: [String] = []
        let expected = expectedArrows()
        let nodeOfPackage = page.packageNodes
        let packageOfNode = Dictionary(nodeOfPackage.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        func drawn(_ edge: ArchitecturePage.Edge) -> ArchitecturePage.Edge? {
            guard edge.to.hasPrefix("package:") else { return edge }
            return nodeOfPackage[String(edge.to.dropFirst("package:".count))].map { .init(from: edge.from, to: $0) }
        }
        for name in modules.keys.sorted() where !page.nodes.contains(name) {
            problems.append("\(pageName), the graph: the module `\(name)` is not in it: add the line `\(name)` to the subgraph `product`")
        }
        for (edge, line) in expected.sorted(by: { $0.key.description < $1.key.description }) {
            guard let arrow = drawn(edge) else {
                let package = String(edge.to.dropFirst("package:".count))
                let products = packageOfProduct.filter { $0.value == package }.keys.sorted().joined(separator: ", ")
                problems.append("\(pageName), the graph: `\(edge.from)` imports `\(line.module)` (\(line.location)) of the package \(package), which has no node: "
                    + "add a node `ID[(\"\(package)<br/>\(products)\")]` to the subgraph `external` and the arrow `\(edge.from) --> ID`")
                continue
            }
            if page.edges[arrow] == nil {
                problems.append("\(pageName), the graph: `\(edge.from)` imports `\(line.module)` (\(line.location)) and nothing else it imports reaches it: add the arrow `\(arrow)`")
            }
        }
        let drawnExpected = Set(expected.keys.compactMap(drawn))
        for (edge, line) in page.edges.sorted(by: { $0.key.description < $1.key.description }) where !drawnExpected.contains(edge) {
            let at = "\(pageName):\(line), the graph: remove the arrow `\(edge)`"
            guard modules[edge.from] != nil else {
                problems.append("\(at): `\(edge.from)` is not a module of Sources/")
                continue
            }
            if modules[edge.to] != nil {
                if firstPartyImports(of: edge.from).contains(edge.to) {
                    let via = firstPartyImports(of: edge.from).filter { $0 != edge.to && reach($0).contains(edge.to) }.sorted()
                    problems.append("\(at): `\(edge.from)` reaches `\(edge.to)` through \(via.map { "`\($0)`" }.joined(separator: ", ")) as well, "
                        + "and the graph draws only the imports nothing else implies (the table lists them all)")
                } else {
                    problems.append("\(at): no file of Sources/\(edge.from) imports `\(edge.to)`")
                }
            } else if let package = packageOfNode[edge.to], Set(packageOfProduct.values).contains(package) {
                let via = firstPartyImports(of: edge.from).filter { other in (reach(other).union([other])).contains { packages(of: $0)[package] != nil } }.sorted()
                problems.append(packages(of: edge.from)[package] == nil
                    ? "\(at): no file of Sources/\(edge.from) imports a product of \(package)"
                    : "\(at): `\(edge.from)` reaches \(package) through \(via.map { "`\($0)`" }.joined(separator: ", ")) as well, "
                        + "and the graph draws only the imports nothing else implies (the table lists them all)")
            } else if let package = packageOfNode[edge.to] {
                problems.append("\(at): the node `\(edge.to)` is labelled `\(package)`, which is no package Package.swift depends on: "
                    + "start its label with the package's identity (`\(edge.to)[(\"swift-crypto<br/>…\")]`)")
            } else {
                problems.append("\(at): `\(edge.to)` is neither a module of Sources/ nor a package node (`ID[(\"package-identity<br/>…\")]`)")
            }
        }
        return problems
    }
}
