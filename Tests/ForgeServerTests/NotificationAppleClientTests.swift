import ForgeCA
import ForgeServer
import Foundation
import LocalAppStore
import StoreServerAPI
import StrictJSON
import TestSupport
import XCTest

/// Apple's Python client against `forge serve --notify-url`: it requests a test
/// notification and reads its status, pages through the notification history with
/// filters, and Apple's `SignedDataVerifier` verifies every notification and the
/// transaction it carries.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class NotificationAppleClientTests: XCTestCase {
    struct Configuration: Encodable {
        let keyFile: String
        let keyId: String
        let issuerId: String
        let bundleId: String
        let appAppleId: Int64
        let rootFile: String
        let baseURL: String
        let startDate: Int64
        let transactionId: String
        let coins: Int
    }

    func testApplesClientReadsTestNotificationsAndPagesThroughHistory() async throws {
        try PythonOracle.require(module: "appstoreserverlibrary")
        let coins = 25
        let run = try await ApplePythonClient.withTestKey { key, keyFile, scratch in
            let rootFile = scratch.appendingPathComponent("jws-root.cer")
            try Data(JWSAuthority.committed.root.certificate).write(to: rootFile)
            // The first notification to arrive fails (and waits an hour for its retry).
            return try await NotificationWebhook.with(script: [500]) { webhook, base in
                let options = NotificationServeTests.options(urls: [.production: base + "/hook"])
                return try await ServerHarness.with(options) { server in
                    let start = try await NotificationServeTests.storeNow(server, prefix: "")
                    let bought = try await server.control(
                        "/forge/v1/buyProduct", #"{"customer":"grace","productId":"\#(NotificationServeTests.monthly)"}"#)
                    let subscription = try XCTUnwrap(try bought.json()["transactionIds"]?[0]?.stringValue)
                    for _ in 0..<coins {
                        try await server.control("/forge/v1/buyProduct", #"{"customer":"heidi","productId":"com.example.receiptforge.coins100"}"#)
                    }
                    try await webhook.received(coins + 1)
                    _ = try await NotificationServeTests.history(server, prefix: "", start: start) { entries in
                        entries.count == coins + 1 && entries.allSatisfy { $0.attempts.count == 1 }
                    }
                    let configuration = Configuration(
                        keyFile: keyFile.path, keyId: key.keyIdentifier, issuerId: key.issuerIdentifier,
                        bundleId: LocalAppStores.defaultBundleIdentifier, appAppleId: options.stores.production.configuration.appAppleId,
                        rootFile: rootFile.path, baseURL: server.base, startDate: start, transactionId: subscription, coins: coins)
                    return try await ApplePythonClient.run(Self.script, input: try JSONEncoder().encode(configuration), deadline: .seconds(240))
                }
            }
        }
        XCTAssertEqual(run.status, 0, run.standardError)
        let report = try JSONValue(json: run.standardOutput)
        let checks = try XCTUnwrap(report.objectValue, run.standardOutput)
        XCTAssertEqual(Set(checks.map(\.key)), ["request_test_notification", "get_test_notification_status", "history_pages",
                                                "history_type_filter", "history_transaction_filter", "history_only_failures",
                                                "error_4000019", "error_4040008"])
        for check in checks {
            XCTAssertEqual(check.value.stringValue, "ok", check.key)
        }
    }

    /// Reads its configuration from standard input; prints `{check: "ok" or why}`.
    static let script = #"""
import json, sys, time, traceback
from appstoreserverlibrary.api_client import AppStoreServerAPIClient, APIError, APIException
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2
from appstoreserverlibrary.models.Subtype import Subtype
from appstoreserverlibrary.models.SendAttemptResult import SendAttemptResult
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

config = json.load(sys.stdin)
key = open(config["keyFile"], "rb").read()
root = open(config["rootFile"], "rb").read()
client = AppStoreServerAPIClient(key, config["keyId"], config["issuerId"], config["bundleId"], Environment.PRODUCTION)
client._base_url = config["baseURL"]
verifier = SignedDataVerifier([root], False, Environment.PRODUCTION, config["bundleId"], config["appAppleId"])
start = config["startDate"]
end = start + 400 * 86400000
report = {}

def expect(condition, message):
    if not condition:
        raise AssertionError(message)

def check(name, body):
    try:
        body()
        report[name] = "ok"
    except Exception:
        report[name] = traceback.format_exc()

def verified(item):
    notification = verifier.verify_and_decode_notification(item.signedPayload)
    if notification.data is not None and notification.data.signedTransactionInfo is not None:
        verifier.verify_and_decode_signed_transaction(notification.data.signedTransactionInfo)
    if notification.data is not None and notification.data.signedRenewalInfo is not None:
        verifier.verify_and_decode_renewal_info(notification.data.signedRenewalInfo)
    return notification

def pages(request):
    items, token, count = [], None, 0
    while True:
        response = client.get_notification_history(token, request)
        expect(len(response.notificationHistory) <= 20, "a page holds at most 20")
        items += response.notificationHistory
        count += 1
        if not response.hasMore:
            expect(response.paginationToken is None, "no token on the last page")
            return items, count
        token = response.paginationToken

token = {}
def request_test_notification():
    token["value"] = client.request_test_notification().testNotificationToken
    expect(token["value"], "a token")
check("request_test_notification", request_test_notification)

def get_test_notification_status():
    deadline = time.monotonic() + 60
    while True:
        try:
            status = client.get_test_notification_status(token["value"])
            break
        except APIException as error:
            # 4040008 until the first attempt is made.
            expect(error.api_error == APIError.TEST_NOTIFICATION_NOT_FOUND, str(error))
            expect(time.monotonic() < deadline, "the test notification was never sent")
            time.sleep(0.05)
    notification = verifier.verify_and_decode_notification(status.signedPayload)
    expect(notification.notificationType == NotificationTypeV2.TEST, notification.rawNotificationType)
    expect(notification.notificationUUID == token["value"], "the token is the notificationUUID")
    expect(notification.data.bundleId == config["bundleId"], "the app")
    expect([a.sendAttemptResult for a in status.sendAttempts] == [SendAttemptResult.SUCCESS], str(status.sendAttempts))
check("get_test_notification_status", get_test_notification_status)

def history_pages():
    items, count = pages(NotificationHistoryRequest(startDate=start, endDate=end))
    expect(len(items) == config["coins"] + 2, "every notification and the test one: %d" % len(items))
    expect(count == 2, "two pages: %d" % count)
    notifications = [verified(item) for item in items]
    expect(len(set(n.notificationUUID for n in notifications)) == len(items), "one UUID each")
    expect(notifications[0].notificationType == NotificationTypeV2.SUBSCRIBED, notifications[0].rawNotificationType)
    expect(notifications[-1].notificationType == NotificationTypeV2.TEST, notifications[-1].rawNotificationType)
check("history_pages", history_pages)

def history_type_filter():
    items, _ = pages(NotificationHistoryRequest(startDate=start, endDate=end, notificationType=NotificationTypeV2.ONE_TIME_CHARGE))
    expect(len(items) == config["coins"], "the coins: %d" % len(items))
    expect(all(verified(item).notificationType == NotificationTypeV2.ONE_TIME_CHARGE for item in items), "one type")
    items, _ = pages(NotificationHistoryRequest(startDate=start, endDate=end, notificationType=NotificationTypeV2.SUBSCRIBED,
                                                notificationSubtype=Subtype.INITIAL_BUY))
    expect(len(items) == 1 and verified(items[0]).subtype == Subtype.INITIAL_BUY, "the subscription")
    items, _ = pages(NotificationHistoryRequest(startDate=start, endDate=start + 1, notificationType=NotificationTypeV2.ONE_TIME_CHARGE))
    expect(len(items) == config["coins"], "the span holds every purchase (signed at the store's instant)")
check("history_type_filter", history_type_filter)

def history_transaction_filter():
    items, _ = pages(NotificationHistoryRequest(startDate=start, endDate=end, transactionId=config["transactionId"]))
    expect(len(items) == 1, "the subscriber's one notification: %d" % len(items))
    decoded = verifier.verify_and_decode_signed_transaction(verified(items[0]).data.signedTransactionInfo)
    expect(decoded.transactionId == config["transactionId"], decoded.transactionId)
check("history_transaction_filter", history_transaction_filter)

def history_only_failures():
    items, _ = pages(NotificationHistoryRequest(startDate=start, endDate=end, onlyFailures=True))
    expect(len(items) == 1, "the one the webhook refused: %d" % len(items))
    expect([a.sendAttemptResult for a in items[0].sendAttempts] == [SendAttemptResult.UNSUCCESSFUL_HTTP_RESPONSE_CODE], str(items[0].sendAttempts))
check("history_only_failures", history_only_failures)

def error_4000019():
    try:
        client.get_notification_history(None, NotificationHistoryRequest(startDate=start, endDate=end,
            notificationType=NotificationTypeV2.REFUND, transactionId=config["transactionId"]))
        raise AssertionError("no error")
    except APIException as error:
        expect(error.api_error == APIError.MULTIPLE_FILTERS_SUPPLIED, str(error.raw_api_error))
check("error_4000019", error_4000019)

def error_4040008():
    try:
        client.get_test_notification_status("7e3fb20b-4cdb-47cc-936d-99d65f608138")
        raise AssertionError("no error")
    except APIException as error:
        expect(error.api_error == APIError.TEST_NOTIFICATION_NOT_FOUND, str(error.raw_api_error))
check("error_4040008", error_4040008)

print(json.dumps(report))
"""#
}
