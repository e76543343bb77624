import Foundation

/// One `import` line of a module's Swift file.
struct ImportLine: Equatable {
    /// The imported module: `Receipt` for `import Receipt` and `import enum Receipt.VerdictReason`.
    let module: String
    /// The file, relative to the package root (`Sources/ForgeServer/VerifyReceiptServer.swift`).
    let file: String
    let line: Int
    /// `@_exported import`: the module's importers see `module` too.
    let reexported: Bool

    var location: String { "\(file):\(line)" }
}

/// A module of `Sources/` as the code has it: what its files import and what
/// Package.swift declares for it.
struct SourceModule {
    let name: String
    /// Every import line of its Swift files, platform modules included (a C module has none).
    let imports: [ImportLine]
    /// Its dependencies in Package.swift: target names and product names.
    let declared: Set<String>
}

enum SourceImports {
    /// Modules of the toolchain and the platform: imported freely, never a row entry or a
    /// dependency in Package.swift.
    static let platformModules: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking", "FoundationXML",
        "Dispatch", "Glibc", "Darwin", "Musl", "Android", "Bionic", "WinSDK", "CRT", "ucrt", "os", "CoreFoundation",
        "Synchronization", "Observation", "_Concurrency", "_StringProcessing", "RegexBuilder", "Swift", "XCTest", "Testing",
    ]

    static let accessModifiers: Set<String> = ["public", "package", "internal", "fileprivate", "private"]
    static let importKinds: Set<String> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]

    /// The import lines of one Swift file's text. Lines inside multi-line string
    /// literals are skipped (a script may hold `import sys`): one opens with `"""` at the
    /// end of a line and closes with `"""` first on a line. `//` comments never start
    /// with `import`, so they are skipped as well.
    static func imports(in text: String, file: String) -> [ImportLine] {
        var found: [ImportLine] = []
        var inMultilineString = false
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if inMultilineString {
                if line.hasPrefix("\"\"\"") { inMultilineString = false }
                continue
            }
            if line.hasSuffix("\"\"\"") && !line.hasPrefix("//") {
                inMultilineString = true
                continue
            }
            if let (module, reexported) = importedModule(rawLine) {
                found.append(ImportLine(module: module, file: file, line: index + 1, reexported: reexported))
            }
        }
        return found
    }

    /// `[@attribute…] [access] import [kind] Module[.Member]` → the module, and whether it is `@_exported`.
    static func importedModule(_ line: Substring) -> (String, Bool)? {
        let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var words = code.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })[...]
        var reexported = false
        while let word = words.first, word.hasPrefix("@") {
            if word == "@_exported" { reexported = true }
            words = words.dropFirst()
        }
        if let word = words.first, accessModifiers.contains(String(word)) { words = words.dropFirst() }
        guard words.first == "import" else { return nil }
        words = words.dropFirst()
        if let word = words.first, importKinds.contains(String(word)) { words = words.dropFirst() }
        guard let path = words.first, let module = path.split(separator: ".").first,
              module.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        return (String(module), reexported)
    }

    /// Every import line of the Swift files under `directory`, paths relative to `root`, in file order.
    static func imports(under directory: URL, root: URL) throws -> [ImportLine] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        var files: [URL] = []
        for case let url as URL in walker where url.pathExtension == "swift" { files.append(url) }
        let rootPath = root.standardizedFileURL.path + "/"
        return try files.map { $0.standardizedFileURL }.sorted { $0.path < $1.path }.flatMap { url in
            let relative = url.path.hasPrefix(rootPath) ? String(url.path.dropFirst(rootPath.count)) : url.path
            return imports(in: try String(contentsOf: url, encoding: .utf8), file: relative)
        }
    }
}
