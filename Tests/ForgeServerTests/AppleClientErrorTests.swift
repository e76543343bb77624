import ForgeServer
import Foundation
import LocalAppStore
import ReceiptForge
import StoreAPIAuthentication
import StoreServerAPI
import StrictJSON
import TestSupport
import XCTest

/// Every error the local App Store can give, provoked through Apple's own Python client
/// (`AppStoreServerAPIClient`, redirected by `_base_url`): each arrives as the client's
/// `APIException` with Apple's HTTP status, raw code and `APIError` member; and every
/// kind of bad credential the client can be given is refused with 401.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class AppleClientErrorTests: XCTestCase {
    static let monthly = "com.example.receiptforge.subscription.monthly"
    static let yearly = "com.example.receiptforge.subscription.yearly"
    static let weekly = "com.example.receiptforge.subscription.weekly"

    /// The ids the script provokes errors with.
    struct Ids: Encodable {
        var active: String
        var renewal: String
        var extendable: String
        var expired: String
        var familyCopy: String
        var consumable: String
        var nonConsumable: String
        var appTransaction: String
    }

    struct Configuration: Encodable {
        let keyFile: String
        let keyId: String
        let issuerId: String
        let bundleId: String
        let baseURL: String
        let monthly: String
        let ids: Ids
    }

    /// What each case of the script must get: (HTTP status, Apple's error code).
    static let expected: [String: [Int]] = [
        "invalid_transaction_id": [400, 4_000_006],
        "transaction_not_found": [404, 4_040_010],
        "invalid_revision": [400, 4_000_005],
        "start_date_after_end_date": [400, 4_000_013],
        "statuses_of_unknown_transaction": [404, 4_040_010],
        "invalid_original_transaction_id": [400, 4_000_008],
        "renewal_is_not_an_original_transaction_id": [400, 4_000_008],
        "original_transaction_not_found": [404, 4_040_005],
        "extend_by_too_many_days": [400, 4_000_009],
        "request_identifier_too_long": [400, 4_000_011],
        "extend_expired_subscription": [403, 4_030_004],
        "extend_family_copy": [403, 4_030_007],
        "extend_a_third_time_in_a_year": [403, 4_030_005],
        "mass_extend_unknown_storefront": [400, 4_000_028],
        "mass_extend_unknown_product": [400, 4_000_023],
        "mass_extend_empty_storefront_list": [400, 4_000_027],
        "mass_extension_status_not_found": [404, 4_040_009],
        "account_token_not_a_uuid": [400, 4_000_183],
        "account_token_on_a_renewal": [400, 4_000_187],
        "account_token_on_a_family_copy": [400, 4_000_185],
        "consumption_v1_of_a_non_consumable": [400, 4_000_047],
        "consumption_of_a_family_copy": [400, 4_000_185],
        "app_transaction_not_found": [404, 4_040_019],
        "app_transaction_id_for_transaction_info": [400, 4_000_048],
    ]

    /// The credentials the client is built with, each wrong in one way: 401 and no code.
    static let expectedAuthFailures: Set<String> = [
        "unknown_key_id", "wrong_issuer", "wrong_bundle_id", "another_private_key",
    ]

    func testEveryStoreErrorReachesApplesClientWithItsCode() async throws {
        try PythonOracle.require(module: "appstoreserverlibrary")
        // The cases cover every Apple code the store's refusals carry.
        let storeCodes = Set(StoreError.Code.allCases.compactMap { StoreAPIError($0)?.rawValue })
        XCTAssertEqual(storeCodes.subtracting(Self.expected.values.map { $0[1] }), [], "store errors no case provokes")
        for (name, answer) in Self.expected {
            XCTAssertEqual(StoreAPIError(rawValue: answer[1])?.httpStatus, answer[0], name)
        }

        let options = ServeOptions()
        let ids = try options.stores.production.write { state throws(StoreError) -> Ids in
            let active = try state.buyProduct(customer: "errors", productId: Self.monthly).transactionIds[0]
            let renewal = try state.forceRenewalOfSubscription(originalTransactionId: active).transactionIds[0]
            let extendable = try state.buyProduct(customer: "extended", productId: Self.yearly).transactionIds[0]
            let expired = try state.buyProduct(customer: "lapsed", productId: Self.monthly).transactionIds[0]
            _ = try state.expireSubscription(originalTransactionId: expired)
            let shared = try state.buyProduct(customer: "sharer", productId: Self.weekly, familyShared: ["kin"])
            let consumable = try state.buyProduct(customer: "errors", productId: "com.example.receiptforge.coins100").transactionIds[0]
            let nonConsumable = try state.buyProduct(customer: "errors", productId: "com.example.receiptforge.pro").transactionIds[0]
            let appTransaction = String(state.customers.first { $0.id == "errors" }!.appTransactionId)
            return Ids(active: active, renewal: renewal, extendable: extendable, expired: expired,
                       familyCopy: shared.transactionIds[1], consumable: consumable, nonConsumable: nonConsumable,
                       appTransaction: appTransaction)
        }

        let run = try await ApplePythonClient.withTestKey { key, keyFile, _ in
            try await ServerHarness.with(options) { server in
                let configuration = Configuration(
                    keyFile: keyFile.path, keyId: key.keyIdentifier, issuerId: key.issuerIdentifier,
                    bundleId: LocalAppStores.defaultBundleIdentifier, baseURL: server.base, monthly: Self.monthly, ids: ids)
                return try await ApplePythonClient.run(Self.script, input: try JSONEncoder().encode(configuration), deadline: .seconds(240))
            }
        }
        XCTAssertEqual(run.status, 0, run.standardError)
        let report = try JSONValue(json: run.standardOutput)
        let errors = try XCTUnwrap(report["errors"]?.objectValue, run.standardOutput)
        XCTAssertEqual(Set(errors.map(\.key)), Set(Self.expected.keys))
        for member in errors {
            XCTAssertEqual(member.value.arrayValue?.compactMap(\.intValue), Self.expected[member.key], "\(member.key): \(member.value)")
        }
        let auth = try XCTUnwrap(report["authentication"]?.objectValue, run.standardOutput)
        XCTAssertEqual(Set(auth.map(\.key)), Self.expectedAuthFailures)
        for member in auth {
            XCTAssertEqual(member.value.stringValue, "401", "\(member.key): \(member.value)")
        }
        XCTAssertEqual(report["control"]?.stringValue, "ok", "the right key still works after the refusals")
    }

    /// Reads its configuration from standard input; prints
    /// `{"errors": {case: [status, code] or why}, "authentication": {case: "401" or why}, "control": "ok"}`.
    /// `api_error` must be the `APIError` member of the raw code: Apple's client knows it.
    static let script = #"""
import json, sys, traceback
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from appstoreserverlibrary.api_client import AppStoreServerAPIClient, APIError, APIException, GetTransactionHistoryVersion
from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
from appstoreserverlibrary.models.ConsumptionRequestV1 import ConsumptionRequestV1
from appstoreserverlibrary.models.ConsumptionStatus import ConsumptionStatus
from appstoreserverlibrary.models.DeliveryStatusV1 import DeliveryStatusV1
from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
from appstoreserverlibrary.models.MassExtendRenewalDateRequest import MassExtendRenewalDateRequest
from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest
from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest

config = json.load(sys.stdin)
key = open(config["keyFile"], "rb").read()
ids = config["ids"]

def client_with(key=key, key_id=config["keyId"], issuer=config["issuerId"], bundle=config["bundleId"]):
    client = AppStoreServerAPIClient(key, key_id, issuer, bundle, Environment.PRODUCTION)
    client._base_url = config["baseURL"]
    return client

client = client_with()

def refused(call):
    try:
        call()
    except APIException as e:
        if e.raw_api_error is not None and (e.api_error is None or e.api_error.value != e.raw_api_error):
            return "APIError does not know %s" % e.raw_api_error
        return [e.http_status_code, e.raw_api_error]
    except Exception:
        return traceback.format_exc()
    return "no APIException"

def extend(original, days=1, identifier="errors", client=client):
    return client.extend_subscription_renewal_date(original, ExtendRenewalDateRequest(
        extendByDays=days, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier=identifier))

def mass(identifier, product=config["monthly"], storefronts=None):
    return client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
        extendByDays=1, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE, requestIdentifier=identifier,
        productId=product, storefrontCountryCodes=storefronts))

def consumption(transaction_id):
    return client.send_consumption_information(transaction_id, ConsumptionRequest(
        customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED))

def token(transaction_id, value="7e3fb20b-4cdb-47cc-936d-99d65f608138"):
    return client.set_app_account_token(transaction_id, UpdateAppAccountTokenRequest(appAccountToken=value))

def extend_three_times():
    extend(ids["extendable"], identifier="first")
    extend(ids["extendable"], identifier="second")
    extend(ids["extendable"], identifier="third")

errors = {
    "invalid_transaction_id": lambda: client.get_transaction_info("not-an-id"),
    "transaction_not_found": lambda: client.get_transaction_info("1"),
    "invalid_revision": lambda: client.get_transaction_history(ids["active"], "not-a-revision", TransactionHistoryRequest(),
                                                               GetTransactionHistoryVersion.V2),
    "start_date_after_end_date": lambda: client.get_transaction_history(ids["active"], None,
                                                                        TransactionHistoryRequest(startDate=2000, endDate=1000),
                                                                        GetTransactionHistoryVersion.V2),
    "statuses_of_unknown_transaction": lambda: client.get_all_subscription_statuses("1"),
    "invalid_original_transaction_id": lambda: extend("not-an-id"),
    "renewal_is_not_an_original_transaction_id": lambda: extend(ids["renewal"]),
    "original_transaction_not_found": lambda: extend("1"),
    "extend_by_too_many_days": lambda: extend(ids["active"], days=91),
    "request_identifier_too_long": lambda: extend(ids["active"], identifier="x" * 129),
    "extend_expired_subscription": lambda: extend(ids["expired"]),
    "extend_family_copy": lambda: extend(ids["familyCopy"]),
    "extend_a_third_time_in_a_year": extend_three_times,
    "mass_extend_unknown_storefront": lambda: mass("storefront", storefronts=["XXX"]),
    "mass_extend_unknown_product": lambda: mass("product", product="com.example.no.such.product"),
    "mass_extend_empty_storefront_list": lambda: mass("empty", storefronts=[]),
    "mass_extension_status_not_found": lambda: client.get_status_of_subscription_renewal_date_extensions("never-sent", config["monthly"]),
    "account_token_not_a_uuid": lambda: token(ids["active"], "not-a-uuid"),
    "account_token_on_a_renewal": lambda: token(ids["renewal"]),
    "account_token_on_a_family_copy": lambda: token(ids["familyCopy"]),
    "consumption_v1_of_a_non_consumable": lambda: client.send_consumption_data(ids["nonConsumable"], ConsumptionRequestV1(
        customerConsented=True, consumptionStatus=ConsumptionStatus.NOT_CONSUMED, sampleContentProvided=True,
        deliveryStatus=DeliveryStatusV1.DELIVERED_AND_WORKING_PROPERLY)),
    "consumption_of_a_family_copy": lambda: consumption(ids["familyCopy"]),
    "app_transaction_not_found": lambda: client.get_app_transaction_info("1"),
    "app_transaction_id_for_transaction_info": lambda: client.get_transaction_info(ids["appTransaction"]),
}
report = {"errors": {name: refused(call) for name, call in errors.items()}}

def unauthenticated(bad_client):
    answer = refused(lambda: bad_client.get_transaction_info(ids["consumable"]))
    return "401" if answer == [401, None] else "answered %s" % (answer,)

other_key = ec.generate_private_key(ec.SECP256R1()).private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
report["authentication"] = {
    "unknown_key_id": unauthenticated(client_with(key_id="ZZZZZZZZZZ")),
    "wrong_issuer": unauthenticated(client_with(issuer="00000000-0000-0000-0000-000000000000")),
    "wrong_bundle_id": unauthenticated(client_with(bundle="com.example.someone.else")),
    "another_private_key": unauthenticated(client_with(key=other_key)),
}
try:
    client.get_transaction_info(ids["consumable"])
    report["control"] = "ok"
except Exception:
    report["control"] = traceback.format_exc()
print(json.dumps(report))
"""#
}
