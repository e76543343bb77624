import Foundation
import TestSupport
import XCTest

/// docs/architecture.md against the code: its module table against each module's
/// `import` lines and Package.swift (`swift package dump-package`), the table's order
/// against the imports, its graph against the imports nothing else implies. A failure
/// says what to change on the page (or in Package.swift); the page is the one place to
/// update when an import changes.
final class ArchitectureTests: XCTestCase {
    static let root = ChildProcess.packageRoot

    /// `swift package dump-package`'s targets, as far as this test reads them.
    struct PackageDump: Decodable {
        struct Target: Decodable {
            let name: String
            let type: String
            let path: String?
            let dependencies: [Dependency]
        }

        /// `{"byName": [name, condition]}`, `{"target": [name, condition]}` or
        /// `{"product": [name, package, moduleAliases, condition]}`.
        struct Dependency: Decodable {
            let name: String
            let package: String?

            enum Kind: String, CodingKey { case byName, target, product }

            init(from decoder: Decoder) throws {
                let container = try decoder.container(keyedBy: Kind.self)
                guard let kind = container.allKeys.first else {
                    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a dependency of no known kind"))
                }
                var fields = try container.nestedUnkeyedContainer(forKey: kind)
                name = try fields.decode(String.self)
                package = kind == .product ? try fields.decode(String.self) : nil
            }
        }

        let targets: [Target]
    }

    /// The manifest as SwiftPM reads it. Its scratch folder is a temporary one: the
    /// package's own `.build` is locked by the `swift test` running this test.
    static func dumpPackage() throws -> PackageDump {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("architecture-dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let dump = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                        ["swift", "package", "--package-path", root.path, "--scratch-path", scratch.path, "dump-package"],
                                        deadline: .seconds(600))
        guard dump.status == 0 else {
            throw DumpFailed(description: "swift package dump-package failed (\(dump.status)): \(dump.standardError.suffix(2_000))")
        }
        return try decodeJSON(PackageDump.self, from: Array(dump.standardOutput.utf8))
    }

    struct DumpFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// One dump for the tests of this class.
    static let dump = Result { try dumpPackage() }

    func testThePageMatchesTheImportsAndPackageSwift() throws {
        let dump = try Self.dump.get()
        let targets = Dictionary(dump.targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let sources = Self.root.appendingPathComponent("Sources")
        let names = try FileManager.default.contentsOfDirectory(atPath: sources.path)
            .filter { !$0.hasPrefix(".") }
            .filter { var directory: ObjCBool = false
                      return FileManager.default.fileExists(atPath: sources.appendingPathComponent($0).path, isDirectory: &directory) && directory.boolValue }
            .sorted()
        XCTAssertFalse(names.isEmpty, "no module in \(sources.path)")
        var modules: [SourceModule] = []
        for name in names {
            guard let target = targets[name], target.path == nil || target.path == "Sources/\(name)" else {
                XCTFail("Package.swift: Sources/\(name) is no target's folder: declare a target `\(name)` or remove the folder")
                continue
            }
            modules.append(SourceModule(
                name: name,
                imports: try SourceImports.imports(under: sources.appendingPathComponent(name), root: Self.root),
                declared: Set(target.dependencies.map(\.name))))
        }
        var packageOfProduct: [String: String] = [:]
        for dependency in dump.targets.flatMap(\.dependencies) {
            if let package = dependency.package { packageOfProduct[dependency.name] = package }
        }
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let check = ArchitectureCheck(page: ArchitecturePage(text), modules: modules, packageOfProduct: packageOfProduct)
        XCTAssertEqual(check.page.rows.count, modules.count, "one row per module of Sources/")
        for problem in check.problems { XCTFail(problem) }
    }

    /// The targets outside Sources/ (tests, their support, Fuzz/, Benchmarks/, Oracles/)
    /// import only what they declare. SwiftPM's `--explicit-target-dependency-import-check`
    /// accepts any target of the dependency closure (a test importing `AppInput` through
    /// `LocalAppStore` passes it); this holds them to their direct dependencies, as the
    /// page's check holds the modules of Sources/.
    func testEveryOtherTargetDeclaresWhatItImports() throws {
        let dump = try Self.dump.get()
        let names = Set(dump.targets.map(\.name))
        var checked = 0
        for target in dump.targets where ["regular", "executable", "test"].contains(target.type) {
            let path = target.path ?? (target.type == "test" ? "Tests/\(target.name)" : "Sources/\(target.name)")
            guard !path.hasPrefix("Sources/") else { continue }
            let directory = Self.root.appendingPathComponent(path)
            XCTAssertTrue(FileManager.default.fileExists(atPath: directory.path), "\(target.name): no folder \(path)")
            let declared = Set(target.dependencies.map(\.name))
            checked += 1
            for line in try SourceImports.imports(under: directory, root: Self.root)
            where !SourceImports.platformModules.contains(line.module) && !declared.contains(line.module) && line.module != target.name {
                let spelling = names.contains(line.module) ? "\"\(line.module)\"" : ".product(name: \"\(line.module)\", package: …)"
                XCTFail("Package.swift: `\(target.name)` imports `\(line.module)` (\(line.location)), which its dependencies do not declare: "
                    + "add \(spelling) to the target `\(target.name)`")
            }
        }
        XCTAssertGreaterThan(checked, 20, "the targets outside Sources/")
    }

    // MARK: The check itself, on a made-up package

    static let page = """
        | module | concept | imports |
        |---|---|---|
        | `A` | the bottom | — |
        | `B` | over A | A, Crypto |
        | `C` | over both | A (re-exported), B |

        ```mermaid
        flowchart TD
            subgraph product["Sources/"]
                A
                B
                C
            end
            crypto[("swift-crypto<br/>Crypto")]
            B --> A & crypto
            C --> B
            Tests -.-> product
        ```
        """

    static func module(_ name: String, _ imports: [String], reexported: Set<String> = [], declared: Set<String>? = nil) -> SourceModule {
        SourceModule(name: name,
                     imports: (["Foundation"] + imports).enumerated().map { index, module in
                         ImportLine(module: module, file: "Sources/\(name)/\(name).swift", line: index + 1, reexported: reexported.contains(module))
                     },
                     declared: declared ?? Set(imports))
    }

    static let modules = [module("A", []), module("B", ["A", "Crypto"]), module("C", ["A", "B"], reexported: ["A"])]

    static func problems(page: String = page, _ modules: [SourceModule] = modules) -> [String] {
        ArchitectureCheck(page: ArchitecturePage(page), modules: modules, packageOfProduct: ["Crypto": "swift-crypto"]).problems
    }

    func testAPageThatMatchesHasNoProblem() {
        XCTAssertEqual(Self.problems(), [])
    }

    func testAnImportTheRowDoesNotListIsNamedWithItsFile() {
        let problems = Self.problems([Self.module("A", []), Self.module("B", ["A", "Crypto", "NIOCore"]), Self.modules[2]])
        XCTAssertTrue(problems.contains { $0.contains("`B` imports `NIOCore` (Sources/B/B.swift:4), which the row of `B` does not list: add `NIOCore`") },
                      "\(problems)")
        XCTAssertTrue(problems.contains { $0.contains("the imports column of `B` should read: A, Crypto, NIOCore") }, "\(problems)")
    }

    func testAnEntryNothingImportsIsNamed() {
        let problems = Self.problems([Self.module("A", []), Self.module("B", ["A"]), Self.modules[2]])
        XCTAssertTrue(problems.contains { $0.contains("the row of `B` lists `Crypto`, which no file of Sources/B imports: remove `Crypto`") }, "\(problems)")
    }

    func testARowBelowAModuleThatImportsItBreaksTheOrder() {
        let swapped = Self.page.replacingOccurrences(of: "| `A` | the bottom | — |\n| `B` | over A | A, Crypto |",
                                                     with: "| `B` | over A | A, Crypto |\n| `A` | the bottom | — |")
        XCTAssertNotEqual(swapped, Self.page)
        let problems = Self.problems(page: swapped)
        XCTAssertTrue(problems.contains { $0.contains("`B` imports `A` (Sources/B/B.swift:2), whose row is below it (line 4): move the row of `A` above the row of `B`") },
                      "\(problems)")
    }

    func testAModuleWithoutARowAndARowWithoutAModule() {
        let problems = Self.problems(Self.modules + [Self.module("D", ["C"])])
        XCTAssertTrue(problems.contains { $0.contains("no row for the module `D` (Sources/D): add `| `D` | (its concept) | C |` below the row of `C`") },
                      "\(problems)")
        XCTAssertTrue(Self.problems(Array(Self.modules.prefix(2))).contains { $0.contains("the row `C` names no module of Sources/") })
    }

    func testAReexportIsMarkedOnThePage() {
        let problems = Self.problems([Self.modules[0], Self.modules[1], Self.module("C", ["A", "B"])])
        XCTAssertTrue(problems.contains { $0.contains("says `A (re-exported)`, but no file of Sources/C has `@_exported import A`") }, "\(problems)")
        let more = Self.problems([Self.modules[0], Self.modules[1], Self.module("C", ["A", "B"], reexported: ["A", "B"])])
        XCTAssertTrue(more.contains { $0.contains("`C` re-exports `B` (`@_exported import`, Sources/C/C.swift:3): write it `B (re-exported)`") }, "\(more)")
    }

    func testImportsAndDeclaredDependenciesAgree() {
        let problems = Self.problems([Self.modules[0], Self.module("B", ["A", "Crypto"], declared: ["A", "BigNum"]), Self.modules[2]])
        XCTAssertTrue(problems.contains {
            $0.contains("`B` imports `Crypto` (Sources/B/B.swift:3), which its dependencies do not declare: add .product(name: \"Crypto\", package: \"swift-crypto\")")
        }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.contains("the target `B` declares `BigNum`, which no file of Sources/B imports") }, "\(problems)")
    }

    func testTheGraphDrawsExactlyTheImportsNothingElseImplies() {
        let implied = Self.page.replacingOccurrences(of: "C --> B\n", with: "C --> B & A\n")
        XCTAssertTrue(Self.problems(page: implied).contains {
            $0.contains("remove the arrow `C --> A`: `C` reaches `A` through `B` as well")
        }, "\(Self.problems(page: implied))")
        let missing = Self.page.replacingOccurrences(of: "C --> B\n", with: "")
        XCTAssertTrue(Self.problems(page: missing).contains { $0.contains("`C` imports `B` (Sources/C/C.swift:3) and nothing else it imports reaches it: add the arrow `C --> B`") },
                      "\(Self.problems(page: missing))")
        let noPackage = Self.page.replacingOccurrences(of: "B --> A & crypto", with: "B --> A")
        XCTAssertTrue(Self.problems(page: noPackage).contains { $0.contains("add the arrow `B --> crypto`") }, "\(Self.problems(page: noPackage))")
    }

    func testImportLinesInEveryForm() {
        let text = """
            import Foundation
            @_exported import Receipt
            @preconcurrency import Dispatch // a comment
            @_exported import enum Receipt.VerdictReason
            public import struct BER.Node
            #if canImport(Glibc)
              import Glibc
            #endif
            // import NotAModule
            let template = \"\"\"
                import NotAModuleEither
                \"\"\"
            let json = #""aud":\"\"\"#
            import BigNum
            func imported() {}
            """
        let found = SourceImports.imports(in: text, file: "F.swift")
        XCTAssertEqual(found.map(\.module), ["Foundation", "Receipt", "Dispatch", "Receipt", "BER", "Glibc", "BigNum"])
        XCTAssertEqual(found.map(\.reexported), [false, true, false, true, false, false, false])
        XCTAssertEqual(found.map(\.line), [1, 2, 3, 4, 5, 7, 14])
    }
}
