import LocalAppStore
import StoreAPIAuthentication
import StoreNotifications
import StoreServerAPI
import XCTest

/// Every refusal of the store answered with Apple's error: the numbers written out here,
/// apart from the mapping, so a wrong row in either shows.
final class StoreErrorMappingTests: XCTestCase {
    /// Each store code and Apple's `errorCode` for it; nil: 4000000 (no code of Apple's).
    static let expected: [StoreError.Code: Int?] = [
        .invalidValue: nil,
        .invalidTransactionId: 4_000_006,
        .invalidOriginalTransactionId: 4_000_008,
        .transactionNotFound: 4_040_010,
        .appTransactionIdNotSupported: 4_000_048,
        .originalTransactionNotFound: 4_040_005,
        .customerNotFound: nil,
        .productNotFound: nil,
        .invalidAppAccountToken: 4_000_183,
        .invalidRevision: 4_000_005,
        .startDateAfterEndDate: 4_000_013,
        .invalidExtendByDays: 4_000_009,
        .invalidRequestIdentifier: 4_000_011,
        .invalidStorefrontCountryCode: 4_000_028,
        .emptyStorefrontCountryCodes: 4_000_027,
        .subscriptionExtensionIneligible: 4_030_004,
        .subscriptionMaxExtension: 4_030_005,
        .familySharedSubscriptionExtensionIneligible: 4_030_007,
        .familyTransactionNotSupported: 4_000_185,
        .transactionTypeNotSupported: 4_000_047,
        .undeliveredConsumptionPercentageNonZero: nil,
        .consumptionPercentageAutoRenewableSubscription: nil,
        .transactionIdIsNotOriginalTransactionId: 4_000_187,
        .statusRequestNotFound: 4_040_009,
        .invalidProductId: 4_000_023,
        .appTransactionDoesNotExist: 4_040_019,
        .invalidState: nil,
        .clockMovesForward: nil,
        .pastSigningCertificate: nil,
    ]

    func testEveryStoreCodeHasItsAppleError() {
        XCTAssertEqual(Set(Self.expected.keys), Set(StoreError.Code.allCases), "a store code without a row here")
        for code in StoreError.Code.allCases {
            XCTAssertEqual(StoreAPIError(code)?.rawValue, Self.expected[code] ?? nil, code.rawValue)
            let failure = ServerAPIError(StoreError(code, field: "field", "why"))
            XCTAssertEqual(failure.error.rawValue, (Self.expected[code] ?? nil) ?? 4_000_000, code.rawValue)
            XCTAssertEqual(failure.detail, "field: why (\(code.rawValue))")
        }
    }

    /// A notification channel's refusals, as Apple answers them.
    func testEveryNotificationChannelCodeHasItsAppleError() {
        let expected: [NotificationChannelError.Code: Int] = [
            .noNotificationURL: 4_040_007, .notATestNotificationToken: 4_000_020, .testNotificationNotFound: 4_040_008,
        ]
        XCTAssertEqual(Set(expected.keys), Set(NotificationChannelError.Code.allCases))
        for code in NotificationChannelError.Code.allCases {
            let failure = ServerAPIError(NotificationChannelError(code, "why"))
            XCTAssertEqual(failure.error.rawValue, expected[code], code.rawValue)
            XCTAssertEqual(failure.detail, "why")
        }
    }

    /// No two store codes share an Apple error: each refusal keeps its own answer.
    func testNoTwoStoreCodesShareAnAppleError() {
        let mapped = StoreError.Code.allCases.compactMap { StoreAPIError($0) }
        XCTAssertEqual(Set(mapped).count, mapped.count)
    }
}
