import LocalAppStore
import XCTest

/// An empty store of the example app (no population), its clock at the forge's reference instant.
func emptyStore(seed: UInt64 = 1) -> StoreState {
    StoreState(StoreConfiguration(seed: seed, customers: 0))
}

let monthly = "com.example.receiptforge.subscription.monthly"
let yearly = "com.example.receiptforge.subscription.yearly"
let quarterly = "com.example.receiptforge.subscription.quarterly"
let weekly = "com.example.receiptforge.subscription.weekly"
let coins = "com.example.receiptforge.coins100"
let pro = "com.example.receiptforge.pro"
let season = "com.example.receiptforge.season"

/// Runs an action that must be refused with `code` naming `field`, and checks the state
/// did not change (its whole JSON, byte for byte).
func assertRefused(_ state: inout StoreState, _ code: StoreError.Code, field: String,
                   file: StaticString = #filePath, line: UInt = #line,
                   _ action: (inout StoreState) throws -> Void) {
    let before = state.stateJSON()
    do {
        try action(&state)
        XCTFail("accepted; expected \(code) at \(field)", file: file, line: line)
    } catch let error as StoreError {
        XCTAssertEqual(error.code, code, error.description, file: file, line: line)
        XCTAssertEqual(error.field, field, error.description, file: file, line: line)
    } catch {
        XCTFail("threw \(error), not a StoreError", file: file, line: line)
    }
    XCTAssertEqual(state.stateJSON(), before, "a refused action changed the state", file: file, line: line)
}

extension StoreState {
    func subscription(_ originalTransactionId: String) -> StoreSubscription? {
        subscriptions.first { String($0.originalTransactionId) == originalTransactionId }
    }

    func transaction(_ id: String) -> StoreTransaction? {
        transactions.first { String($0.transactionId) == id }
    }
}
