import ArgumentParser
import ReceiptForge
import StoreKit2Forge

/// A case catalogue with a command that lists it.
protocol ListedCatalogue: FixtureCase {
    static var listCommand: String { get }
}

extension ForgeCase: ListedCatalogue {
    static var listCommand: String { "forge list" }
}

extension JWSCase: ListedCatalogue {
    static var listCommand: String { "forge jws list" }
}

/// `--all | --case NAME …`: the cases of a catalogue a mint command writes.
struct CaseSelection<Case: ListedCatalogue>: ParsableArguments {
    @Option(name: .customLong("case"), help: ArgumentHelp("A case to mint (repeatable; see `\(Case.listCommand)`).",
                                                          valueName: "NAME"))
    var names: [String] = []

    @Flag(help: "Mint every case of the catalogue and replace the whole output tree.")
    var all = false

    func validate() throws {
        _ = try cases()
    }

    /// The catalogue for `--all`, else the cases named.
    func cases() throws -> [Case] {
        if all == !names.isEmpty {
            throw ValidationError("give either --all or --case NAME (see `\(Case.listCommand)`)")
        }
        if all { return Case.catalogue }
        return try names.map { name in
            guard let found = Case.named(name) else {
                throw ValidationError("unknown case '\(name)'; valid cases: \(Case.catalogue.map(\.id).joined(separator: ", "))")
            }
            return found
        }
    }
}
