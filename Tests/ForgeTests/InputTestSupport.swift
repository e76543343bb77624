import Foundation
import ReceiptForge
import XCTest
import StrictJSON

/// The `.storekit` and app files in `Tests/Inputs` (outside the test target, so the
/// build does not take them for resources).
enum InputFiles {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Inputs")

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: directory.appendingPathComponent(name))) }

    /// An explicit purchase list using every field a purchase description has: what
    /// `app.json` lists (AppFileTests checks the file against it), kept here so that tests
    /// that need every field do not depend on an editable input file.
    static let everyPurchaseField: [PurchaseDescription] = [
        PurchaseDescription(productID: "com.acme.shop.coins100", kind: .consumable, quantity: 3,
                            transactionID: "2000000512345678", purchaseDate: 1_740_823_200),
        PurchaseDescription(productID: "com.acme.shop.pro", kind: .nonConsumable, transactionID: "2000000512345679",
                            originalTransactionID: "2000000400000001", purchaseDate: 1_740_911_400,
                            originalPurchaseDate: 1_732_090_500, webOrderLineItemID: 0),
        PurchaseDescription(productID: "com.acme.shop.plus.monthly", kind: .autoRenewableSubscription,
                            transactionID: "2000000512345680", originalTransactionID: "2000000512345680",
                            purchaseDate: 1_740_992_400, expiresDate: 1_741_597_200, isTrialPeriod: true,
                            webOrderLineItemID: 9_007_199_254_740_993),
        PurchaseDescription(productID: "com.acme.shop.plus.monthly", kind: .autoRenewableSubscription,
                            transactionID: "2000000512345681", originalTransactionID: "2000000512345680",
                            purchaseDate: 1_741_597_200, originalPurchaseDate: 1_740_992_400, expiresDate: 1_744_275_600,
                            webOrderLineItemID: .max, promotionalOfferID: "comeback_monthly"),
        PurchaseDescription(productID: "com.acme.shop.seasonpass", kind: .nonRenewingSubscription, purchaseDate: 1_741_110_330,
                            cancellationDate: 1_741_168_800, cancellationReason: 1),
        PurchaseDescription(productID: "com.acme.shop.plus.yearly", kind: .autoRenewableSubscription,
                            purchaseDate: 1_741_244_400, expiresDate: 1_749_193_200, isInIntroOfferPeriod: true),
    ]
}

/// The error `body` throws; fails the test when it returns instead.
func inputError<T>(_ body: () throws -> T, file: StaticString = #filePath, line: UInt = #line) -> JSONInputError? {
    do {
        let value = try body()
        XCTFail("expected an JSONInputError, got \(value)", file: file, line: line)
    } catch let error as JSONInputError {
        return error
    } catch {
        XCTFail("expected an JSONInputError, got \(error)", file: file, line: line)
    }
    return nil
}

/// A fresh directory for files a test writes, removed when the test ends.
func scratchDirectory(for test: XCTestCase) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("forge-inputs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
}
