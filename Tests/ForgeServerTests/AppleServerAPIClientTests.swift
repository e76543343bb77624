import ForgeCA
import ForgeServer
import Foundation
import LocalAppStore
import ReceiptForge
import StoreAPIAuthentication
import StoreServerAPI
import StrictJSON
import TestSupport
import XCTest

/// Apple's own Python client (`AppStoreServerAPIClient`, redirected by `_base_url`)
/// calls every Server API endpoint of a server on 127.0.0.1, in both environments, with
/// the forge's test key; Apple's `SignedDataVerifier` (the forge's JWS root, online
/// checks off, the environment, bundle id and app Apple id) verifies every JWS it gets
/// back; a provoked error arrives as the client's `APIException` with Apple's code.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class AppleServerAPIClientTests: XCTestCase {
    static let monthly = "com.example.receiptforge.subscription.monthly"
    static let coins = "com.example.receiptforge.coins100"

    /// What the script is told per environment: the base URL and the ids to call with.
    struct Target: Encodable {
        let environment: String
        let baseURL: String
        let subscriptionId: String
        let consumableId: String
        let refundedId: String
        let orderId: String
        let transactionCount: Int
    }

    struct Configuration: Encodable {
        let keyFile: String
        let keyId: String
        let issuerId: String
        let bundleId: String
        let appAppleId: Int64
        let rootFile: String
        let monthly: String
        let targets: [Target]
    }

    func testApplesClientCallsEveryEndpointAndApplesVerifierAcceptsEveryAnswer() async throws {
        try PythonOracle.require(module: "appstoreserverlibrary")
        let options = ServeOptions()
        // 45 transactions for one customer in each store: the history walks three pages.
        func prepare(_ store: LocalAppStore) throws -> (subscription: String, consumable: String, refunded: String, order: String) {
            try store.write { state in
                let subscription = try state.buyProduct(customer: "python", productId: Self.monthly).transactionIds[0]
                _ = try state.buyProduct(customer: "python", productId: "com.example.receiptforge.pro")
                _ = try state.buyProduct(customer: "python", productId: "com.example.receiptforge.season")
                var coins: [StoreActionResult] = []
                for _ in 0..<42 {
                    coins.append(try state.buyProduct(customer: "python", productId: Self.coins))
                    _ = try state.advance(by: StoreDuration.minute)
                }
                _ = try state.refundTransaction(transactionId: coins[3].transactionIds[0], reason: .refundedDueToIssue)
                return (subscription, coins[0].transactionIds[0], coins[3].transactionIds[0], coins[1].orderId!)
            }
        }
        let production = try prepare(options.stores.production)
        let sandbox = try prepare(options.stores.sandbox)

        let run = try await ApplePythonClient.withTestKey { key, keyFile, scratch in
            let rootFile = scratch.appendingPathComponent("jws-root.cer")
            try Data(JWSAuthority.committed.root.certificate).write(to: rootFile)
            return try await ServerHarness.with(options) { server in
                let configuration = Configuration(
                    keyFile: keyFile.path, keyId: key.keyIdentifier, issuerId: key.issuerIdentifier,
                    bundleId: LocalAppStores.defaultBundleIdentifier, appAppleId: options.stores.production.configuration.appAppleId,
                    rootFile: rootFile.path, monthly: Self.monthly,
                    targets: [
                        Target(environment: "PRODUCTION", baseURL: server.base, subscriptionId: production.subscription,
                               consumableId: production.consumable, refundedId: production.refunded, orderId: production.order,
                               transactionCount: 45),
                        Target(environment: "SANDBOX", baseURL: server.base + "/sandbox", subscriptionId: sandbox.subscription,
                               consumableId: sandbox.consumable, refundedId: sandbox.refunded, orderId: sandbox.order,
                               transactionCount: 45),
                    ])
                return try await ApplePythonClient.run(Self.script, input: try JSONEncoder().encode(configuration), deadline: .seconds(240))
            }
        }
        XCTAssertEqual(run.status, 0, run.standardError)
        let report = try JSONValue(json: run.standardOutput)
        for environment in ["PRODUCTION", "SANDBOX"] {
            let checks = try XCTUnwrap(report[environment]?.objectValue, "no report for \(environment): \(run.standardOutput)")
            XCTAssertEqual(Set(checks.map(\.key)), Self.expectedChecks, environment)
            for check in checks {
                XCTAssertEqual(check.value.stringValue, "ok", "\(environment) \(check.key)")
            }
        }
    }

    static let expectedChecks: Set<String> = [
        "get_transaction_info", "get_transaction_history_v1", "get_transaction_history_v2_pages", "get_transaction_history_v2_not_revoked",
        "get_all_subscription_statuses", "look_up_order_id", "get_refund_history", "send_consumption_information",
        "send_consumption_data", "extend_subscription_renewal_date", "extend_renewal_date_for_all_active_subscribers",
        "get_status_of_subscription_renewal_date_extensions", "get_app_transaction_info", "set_app_account_token",
        "finish_transaction", "error_4040010", "error_4000006", "app_transaction_id_as_any_transaction_id", "error_4000048",
    ]

    /// Reads its configuration from standard input; prints `{ENVIRONMENT: {check: "ok" or why}}`.
    /// A check is "ok" only when every JWS of its answer passed Apple's verifier and the
    /// values are the ones asked for.
    static let script = #"""
import json, sys, traceback
from appstoreserverlibrary.api_client import AppStoreServerAPIClient, APIError, APIException, GetTransactionHistoryVersion
from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
from appstoreserverlibrary.models.ConsumptionRequestV1 import ConsumptionRequestV1
from appstoreserverlibrary.models.ConsumptionStatus import ConsumptionStatus
from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
from appstoreserverlibrary.models.DeliveryStatusV1 import DeliveryStatusV1
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
from appstoreserverlibrary.models.MassExtendRenewalDateRequest import MassExtendRenewalDateRequest
from appstoreserverlibrary.models.OrderLookupStatus import OrderLookupStatus
from appstoreserverlibrary.models.Status import Status
from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest, ProductType, Order
from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

config = json.load(sys.stdin)
key = open(config["keyFile"], "rb").read()
root = open(config["rootFile"], "rb").read()
report = {}

def expect(condition, message):
    if not condition:
        raise AssertionError(message)

for target in config["targets"]:
    environment = Environment[target["environment"]]
    client = AppStoreServerAPIClient(key, config["keyId"], config["issuerId"], config["bundleId"], environment)
    client._base_url = target["baseURL"]
    verifier = SignedDataVerifier([root], False, environment, config["bundleId"], config["appAppleId"])
    checks = {}
    report[target["environment"]] = checks

    def check(name, body):
        try:
            body()
            checks[name] = "ok"
        except Exception:
            checks[name] = traceback.format_exc()

    def transaction(jws):
        decoded = verifier.verify_and_decode_signed_transaction(jws)
        expect(decoded.environment == environment, "environment %s" % decoded.environment)
        return decoded

    subscription, consumable = target["subscriptionId"], target["consumableId"]

    def transaction_info():
        decoded = transaction(client.get_transaction_info(consumable).signedTransactionInfo)
        expect(decoded.transactionId == consumable, decoded.transactionId)
    check("get_transaction_info", transaction_info)

    def walk(request, version):
        ids, pages, revision = [], [], None
        while True:
            response = client.get_transaction_history(subscription, revision, request, version)
            expect(response.environment == environment and response.bundleId == config["bundleId"], "shape")
            expect(response.appAppleId == config["appAppleId"], "appAppleId %s" % response.appAppleId)
            ids += [transaction(jws).transactionId for jws in response.signedTransactions]
            pages.append(len(response.signedTransactions))
            revision = response.revision
            if not response.hasMore or len(pages) > 5:
                return ids, pages

    every_type = [ProductType.AUTO_RENEWABLE, ProductType.NON_RENEWABLE, ProductType.CONSUMABLE, ProductType.NON_CONSUMABLE]

    def history_pages():
        ids, pages = walk(TransactionHistoryRequest(productTypes=every_type, sort=Order.ASCENDING), GetTransactionHistoryVersion.V2)
        expect(pages == [20, 20, 5], "pages %s" % pages)
        expect(len(set(ids)) == target["transactionCount"], "ids %d" % len(set(ids)))
    check("get_transaction_history_v2_pages", history_pages)

    def history_not_revoked():
        ids, pages = walk(TransactionHistoryRequest(revoked=False, sort=Order.DESCENDING), GetTransactionHistoryVersion.V2)
        expect(pages == [20, 20, 4], "pages %s" % pages)
        expect(target["refundedId"] not in ids, "the refunded transaction is listed")
    check("get_transaction_history_v2_not_revoked", history_not_revoked)

    def history_v1():
        ids, pages = walk(TransactionHistoryRequest(productIds=[config["monthly"]]), GetTransactionHistoryVersion.V1)
        expect(ids == [subscription], "ids %s" % ids)
    check("get_transaction_history_v1", history_v1)

    def statuses():
        response = client.get_all_subscription_statuses(subscription, [Status.ACTIVE])
        expect(response.environment == environment and response.appAppleId == config["appAppleId"], "shape")
        items = [item for group in response.data for item in group.lastTransactions]
        expect(len(items) == 1 and items[0].status == Status.ACTIVE, "items %s" % items)
        expect(transaction(items[0].signedTransactionInfo).originalTransactionId == subscription, "original")
        renewal = verifier.verify_and_decode_renewal_info(items[0].signedRenewalInfo)
        expect(renewal.autoRenewProductId == config["monthly"] and renewal.environment == environment, "renewal")
    check("get_all_subscription_statuses", statuses)

    def order():
        response = client.look_up_order_id(target["orderId"])
        expect(response.status == OrderLookupStatus.VALID and len(response.signedTransactions) == 1, "order")
        transaction(response.signedTransactions[0])
        expect(client.look_up_order_id("0000000000").status == OrderLookupStatus.INVALID, "invalid order")
    check("look_up_order_id", order)

    def refunds():
        response = client.get_refund_history(subscription, None)
        ids = [transaction(jws).transactionId for jws in response.signedTransactions]
        expect(ids == [target["refundedId"]] and response.hasMore is False, "refunds %s" % ids)
    check("get_refund_history", refunds)

    check("send_consumption_information", lambda: client.send_consumption_information(consumable, ConsumptionRequest(
        customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED, consumptionPercentage=50000)))
    check("send_consumption_data", lambda: client.send_consumption_data(consumable, ConsumptionRequestV1(
        customerConsented=True, consumptionStatus=ConsumptionStatus.NOT_CONSUMED, sampleContentProvided=True,
        deliveryStatus=DeliveryStatusV1.DELIVERED_AND_WORKING_PROPERLY)))

    def extend():
        response = client.extend_subscription_renewal_date(subscription, ExtendRenewalDateRequest(
            extendByDays=5, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier="python-one"))
        expect(response.success and response.originalTransactionId == subscription, "extend %s" % response)
        items = client.get_all_subscription_statuses(subscription, [Status.ACTIVE]).data[0].lastTransactions
        renewal = verifier.verify_and_decode_renewal_info(items[0].signedRenewalInfo)
        expect(renewal.renewalDate == response.effectiveDate, "renewal date %s, effective %s" % (renewal.renewalDate, response.effectiveDate))
    check("extend_subscription_renewal_date", extend)

    def mass():
        response = client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
            extendByDays=1, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE, requestIdentifier="python-mass",
            productId=config["monthly"]))
        expect(response.requestIdentifier == "python-mass", "mass")
    check("extend_renewal_date_for_all_active_subscribers", mass)

    def mass_status():
        response = client.get_status_of_subscription_renewal_date_extensions("python-mass", config["monthly"])
        expect(response.complete is True and response.succeededCount >= 1 and response.requestIdentifier == "python-mass", "%s" % response)
    check("get_status_of_subscription_renewal_date_extensions", mass_status)

    def app_transaction():
        decoded = verifier.verify_and_decode_app_transaction(client.get_app_transaction_info(consumable).signedAppTransactionInfo)
        expect(decoded.bundleId == config["bundleId"] and decoded.receiptType == environment, "%s" % decoded)
    check("get_app_transaction_info", app_transaction)

    # Apple's anyTransactionId takes the customer's appTransactionId: history, statuses and refunds
    # answer for the same customer (issue 35, item 1).
    def app_transaction_id_as_any_transaction_id():
        app_id = verifier.verify_and_decode_app_transaction(client.get_app_transaction_info(consumable).signedAppTransactionInfo).appTransactionId
        expect(app_id and app_id not in (subscription, consumable), "appTransactionId %s" % app_id)
        first = client.get_transaction_history(app_id, None, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2)
        same = client.get_transaction_history(subscription, None, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2)
        expect([transaction(j).transactionId for j in first.signedTransactions] == [transaction(j).transactionId for j in same.signedTransactions],
               "history by appTransactionId")
        refunded = [transaction(j).transactionId for j in client.get_refund_history(app_id, None).signedTransactions]
        expect(refunded == [target["refundedId"]], "refunds %s" % refunded)
        items = [item for group in client.get_all_subscription_statuses(app_id).data for item in group.lastTransactions]
        expect([item.originalTransactionId for item in items] == [subscription], "statuses %s" % items)
    check("app_transaction_id_as_any_transaction_id", app_transaction_id_as_any_transaction_id)

    def account_token():
        token = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
        client.set_app_account_token(subscription, UpdateAppAccountTokenRequest(appAccountToken=token))
        decoded = transaction(client.get_transaction_info(subscription).signedTransactionInfo)
        expect(decoded.appAccountToken == token, "token %s" % decoded.appAccountToken)
    check("set_app_account_token", account_token)

    check("finish_transaction", lambda: client.finish_transaction(consumable))

    def error(transaction_id, code, status, api_error):
        def body():
            try:
                client.get_transaction_info(transaction_id)
            except APIException as e:
                expect(e.http_status_code == status and e.raw_api_error == code and e.api_error == api_error,
                       "%s %s %s" % (e.http_status_code, e.raw_api_error, e.error_message))
                return
            raise AssertionError("no APIException")
        return body
    check("error_4040010", error("1", 4040010, 404, APIError.TRANSACTION_ID_NOT_FOUND))
    check("error_4000006", error("not-an-id", 4000006, 400, APIError.INVALID_TRANSACTION_ID))
    def error_4000048():
        app_id = verifier.verify_and_decode_app_transaction(client.get_app_transaction_info(consumable).signedAppTransactionInfo).appTransactionId
        error(app_id, 4000048, 400, APIError.APP_TRANSACTION_ID_NOT_SUPPORTED_ERROR)()
    check("error_4000048", error_4000048)

print(json.dumps(report))
"""#
}
