import Foundation
import ForgeSupport

/// `--faults SPEC`: faults injected at random rates, reproducible with `--seed`.
///
/// SPEC is a comma-separated list of `FAULT=RATE`, RATE a fraction (`0.05`) or a
/// percentage (`5%`), the rates of the faults of each surface adding up to at most 1: `21005=2%,http-503=0.01,delay-300=10%`.
/// Request number n (in arrival order, from 0, verifyReceipt and Server API requests
/// alike) draws the n-th number of the seeded generator, so a client that sends its
/// requests one after another sees the same faults on every run with the same seed.
///
/// A fault hits only the requests it means something to (`Fault.applies(to:)`): a
/// verifyReceipt status only verifyReceipt requests, an App Store Server API error only
/// Server API requests, `http-503` both; each at its own rate among the requests it
/// applies to (`21005=10%,4290000=10%`: a tenth of each surface's requests fault).
package final class FaultPlan: Sendable {
    package let rates: [(fault: Fault, rate: Double)]
    package let seed: UInt64
    private let random: Locked<DeterministicRandom>

    package init(rates: [(fault: Fault, rate: Double)], seed: UInt64) {
        self.rates = rates
        self.seed = seed
        random = Locked(DeterministicRandom(seed: seed))
    }

    /// Parses SPEC (see the type's documentation).
    package convenience init(spec: String, seed: UInt64) throws(FaultPlanError) {
        var rates: [(fault: Fault, rate: Double)] = []
        for item in spec.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                throw FaultPlanError(code: .malformedItem, description: "'\(item)' is not FAULT=RATE (e.g. 21005=0.02 or http-503=5%)")
            }
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            guard let fault = Fault(name) else {
                throw FaultPlanError(code: .unknownFault, description: "'\(name)' is not a fault: \(Fault.spellings)")
            }
            let rateText = parts[1].trimmingCharacters(in: .whitespaces)
            let percent = rateText.hasSuffix("%")
            guard let number = Double(percent ? String(rateText.dropLast()) : rateText), number.isFinite,
                  number >= 0, number <= (percent ? 100 : 1) else {
                throw FaultPlanError(code: .invalidRate, description: "'\(rateText)' (for \(name)) is not a rate between 0 and 1, or 0% and 100%")
            }
            rates.append((fault, percent ? number / 100 : number))
        }
        for surface in Fault.Surface.allCases {
            let total = rates.filter { $0.fault.applies(to: surface) }.reduce(0) { $0 + $1.rate }
            guard total <= 1 + 1e-9 else {
                throw FaultPlanError(code: .ratesOverOne, description: "the rates of the faults for \(surface) add up to \(total), more than 1")
            }
        }
        self.init(rates: rates, seed: seed)
    }

    /// The fault for the next request, one to `surface`, or nil for a normal answer.
    package func next(for surface: Fault.Surface) -> Fault? {
        guard !rates.isEmpty else { return nil }
        let draw = random.withLock { Double($0.next() >> 11) / Double(1 << 53) }
        var cumulative = 0.0
        for (fault, rate) in rates where fault.applies(to: surface) {
            cumulative += rate
            if draw < cumulative { return fault }
        }
        return nil
    }
}

/// Why a `--faults` spec cannot be read.
package struct FaultPlanError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Code: String, Sendable, Hashable {
        /// An item that is not FAULT=RATE.
        case malformedItem
        case unknownFault
        /// A rate outside 0...1 (or 0%...100%).
        case invalidRate
        /// The rates of one surface add up to more than 1.
        case ratesOverOne
    }

    package let code: Code
    package let description: String
}
