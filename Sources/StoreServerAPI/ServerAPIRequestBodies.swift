import LocalAppStore
import StoreAPIAuthentication
import StrictJSON

/// The JSON bodies the App Store Server API reads, each member optional so that a
/// missing or bad one gets Apple's error for that member, not a general 4000000.
/// A body that is not a JSON object of these types is 4000000.
enum ServerAPIRequestBody {
    /// The body decoded as `type`, then `validate`d (each member's own error first), then
    /// any member sent as `null` refused (4000000): Apple documents no member whose value
    /// may be null, and a null where a value is optional is not "left out" (Apple's
    /// clients leave unset members out; a null `refundPreference` is no preference Apple has).
    static func decode<Body: Decodable, Value>(_ type: Body.Type, from bytes: [UInt8],
                                               validate: (Body) throws(ServerAPIError) -> Value) throws(ServerAPIError) -> Value {
        let input: JSONInput
        let body: Body
        do throws(JSONInputError) {
            input = try JSONInput.parse(bytes, file: "body")
            body = try input.decode(type)
        } catch {
            throw ServerAPIError(.generalBadRequest, "the body is not the expected JSON: \(error.location): \(error.reason)")
        }
        let value = try validate(body)
        if case .object(let members) = input.value, let null = members.first(where: { $0.value == .null }) {
            throw ServerAPIError(.generalBadRequest, "\(null.key) is null: leave the member out instead")
        }
        return value
    }

    /// `ExtendRenewalDateRequest`.
    struct ExtendRenewalDate: Decodable {
        let extendByDays: Int?
        let extendReasonCode: Int?
        let requestIdentifier: String?
    }

    /// `MassExtendRenewalDateRequest`.
    struct MassExtendRenewalDate: Decodable {
        let extendByDays: Int?
        let extendReasonCode: Int?
        let requestIdentifier: String?
        let storefrontCountryCodes: [String]?
        let productId: String?
    }

    /// `UpdateAppAccountTokenRequest`.
    struct UpdateAppAccountToken: Decodable {
        let appAccountToken: String?
    }

    /// `ConsumptionRequest` (v2).
    struct Consumption: Decodable {
        let customerConsented: Bool?
        let sampleContentProvided: Bool?
        let deliveryStatus: String?
        let consumptionPercentage: Int?
        let refundPreference: String?
    }

    /// `ConsumptionRequestV1` (deprecated): enumerations as integers.
    struct ConsumptionV1: Decodable {
        let customerConsented: Bool?
        let consumptionStatus: Int?
        let platform: Int?
        let sampleContentProvided: Bool?
        let deliveryStatus: Int?
        let appAccountToken: String?
        let accountTenure: Int?
        let playTime: Int?
        let lifetimeDollarsRefunded: Int?
        let lifetimeDollarsPurchased: Int?
        let userStatus: Int?
        let refundPreference: Int?
    }
}

extension ServerAPIRequestBody.ExtendRenewalDate {
    /// The validated values (`extendByDays` 4000009, `extendReasonCode` 4000010, `requestIdentifier` 4000011).
    func validated() throws(ServerAPIError) -> (days: Int, reason: ExtendReasonCode, requestIdentifier: String) {
        try ServerAPIRequestBody.validateExtension(extendByDays, extendReasonCode, requestIdentifier)
    }
}

extension ServerAPIRequestBody {
    static func validateExtension(_ days: Int?, _ reason: Int?, _ requestIdentifier: String?)
        throws(ServerAPIError) -> (days: Int, reason: ExtendReasonCode, requestIdentifier: String) {
        guard let days else { throw ServerAPIError(.invalidExtendByDays, "extendByDays is missing") }
        guard let reason, let code = ExtendReasonCode(rawValue: reason) else {
            throw ServerAPIError(.invalidExtendReasonCode, "extendReasonCode \(reason.map(String.init) ?? "is missing") is not 0, 1, 2 or 3")
        }
        guard let requestIdentifier else { throw ServerAPIError(.invalidRequestIdentifier, "requestIdentifier is missing") }
        return (days, code, requestIdentifier)
    }
}

extension ServerAPIRequestBody.Consumption {
    /// The store's consumption information; Apple's codes for a missing or bad member.
    func validated() throws(ServerAPIError) -> ConsumptionInformation {
        guard let customerConsented, customerConsented else {
            throw ServerAPIError(.invalidCustomerConsented, "customerConsented must be true (the customer's consent to share the data)")
        }
        guard let sampleContentProvided else {
            throw ServerAPIError(.invalidSampleContentProvided, "sampleContentProvided is missing")
        }
        guard let deliveryStatus, let delivery = DeliveryStatus(rawValue: deliveryStatus) else {
            throw ServerAPIError(.invalidDeliveryStatus, "deliveryStatus \(deliveryStatus ?? "is missing") is not one of "
                                   + DeliveryStatus.allCases.map(\.rawValue).joined(separator: ", "))
        }
        var preference: RefundPreference?
        if let refundPreference {
            guard let parsed = RefundPreference(rawValue: refundPreference) else {
                throw ServerAPIError(.generalBadRequest, "refundPreference \(refundPreference) is not one of "
                                       + RefundPreference.allCases.map(\.rawValue).joined(separator: ", "))
            }
            preference = parsed
        }
        if let consumptionPercentage, !(0...100_000).contains(consumptionPercentage) {
            throw ServerAPIError(.generalBadRequest, "consumptionPercentage \(consumptionPercentage) is not between 0 and 100000")
        }
        return ConsumptionInformation(customerConsented: true, sampleContentProvided: sampleContentProvided, deliveryStatus: delivery,
                                      consumptionPercentage: consumptionPercentage, refundPreference: preference)
    }
}

extension ServerAPIRequestBody.ConsumptionV1 {
    /// The v1 request in the store's (v2) terms: delivery 0 is delivered, 1–3 the three
    /// named failures, 4 and 5 (currency change, other) "other"; consumption status 1–3
    /// (not, partially, fully consumed) as 0 %, 50 % and 100 %; refund preference 1
    /// (grant) and 2 (decline). Every enumeration is range-checked with Apple's code.
    func validated() throws(ServerAPIError) -> ConsumptionInformation {
        func check(_ value: Int?, _ range: ClosedRange<Int>, _ error: StoreAPIError, _ name: String) throws(ServerAPIError) -> Int? {
            guard let value else { return nil }
            guard range.contains(value) else { throw ServerAPIError(error, "\(name) \(value) is not between \(range.lowerBound) and \(range.upperBound)") }
            return value
        }
        guard let customerConsented, customerConsented else {
            throw ServerAPIError(.invalidCustomerConsented, "customerConsented must be true (the customer's consent to share the data)")
        }
        guard let sampleContentProvided else {
            throw ServerAPIError(.invalidSampleContentProvided, "sampleContentProvided is missing")
        }
        let consumption = try check(consumptionStatus, 0...3, .invalidConsumptionStatus, "consumptionStatus")
        _ = try check(platform, 0...2, .invalidPlatform, "platform")
        guard let delivery = try check(deliveryStatus, 0...5, .invalidDeliveryStatus, "deliveryStatus") else {
            throw ServerAPIError(.invalidDeliveryStatus, "deliveryStatus is missing")
        }
        _ = try check(accountTenure, 0...7, .invalidAccountTenure, "accountTenure")
        _ = try check(playTime, 0...7, .invalidPlayTime, "playTime")
        _ = try check(lifetimeDollarsRefunded, 0...7, .invalidLifetimeDollarsRefunded, "lifetimeDollarsRefunded")
        _ = try check(lifetimeDollarsPurchased, 0...7, .invalidLifetimeDollarsPurchased, "lifetimeDollarsPurchased")
        _ = try check(userStatus, 0...4, .invalidUserStatus, "userStatus")
        let preference = try check(refundPreference, 0...3, .generalBadRequest, "refundPreference")
        if let appAccountToken, !appAccountToken.isEmpty, AppAccountToken(appAccountToken) == nil {
            throw ServerAPIError(.invalidAppAccountToken, "appAccountToken '\(appAccountToken)' is neither empty nor a UUID")
        }
        let deliveryStatus: DeliveryStatus = [.delivered, .undeliveredQualityIssue, .undeliveredWrongItem,
                                              .undeliveredServerOutage, .undeliveredOther, .undeliveredOther][delivery]
        let percentages: [Int?] = [nil, 0, 50_000, 100_000]
        let refunds: [RefundPreference?] = [nil, .grantFull, .decline, nil]
        let percentage = consumption.flatMap { percentages[$0] }
        let refund = preference.flatMap { refunds[$0] }
        return ConsumptionInformation(customerConsented: true, sampleContentProvided: sampleContentProvided, deliveryStatus: deliveryStatus,
                                      consumptionPercentage: percentage, refundPreference: refund)
    }
}
