import AppInput
import ForgeSupport
import Foundation
import LocalAppStore
import NotificationDelivery
import StoreControlAPI
import StoreNotifications
import StoreServerAPI
import StrictJSON
import XCTest

/// The store owns the path from event to notification: a write made in process, through
/// the control API's or the Server API's handler with no HTTP and no call to the channel,
/// has its notifications queued when it returns; writers on many threads get them queued
/// in the store's event order, each once; and a store's events have one channel.
final class NotificationChannelTests: XCTestCase {
    static let monthly = "com.example.receiptforge.subscription.monthly"
    static let coins = "com.example.receiptforge.coins100"
    static let start: StoreInstant = 1_780_000_000_000

    /// Empty stores, their channels (no URL) and both handlers in process.
    struct InProcess {
        let stores = LocalAppStores(StoreConfiguration(seed: 7, start: NotificationChannelTests.start, customers: 0))
        let notifications: ServerNotifications
        let control: StoreControlHandler
        let serverAPI: ServerAPIHandler

        init() throws {
            notifications = try ServerNotifications(stores: stores)
            control = StoreControlHandler(stores: [.production: stores.production, .sandbox: stores.sandbox])
            serverAPI = ServerAPIHandler(stores: stores, authentication: .disabled, notifications: notifications)
        }

        /// A control verb's 200 answer, as JSON.
        func control(_ verb: String, _ body: String, file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
            let response = control.respond(method: "POST", path: "/forge/v1/\(verb)", body: Array(body.utf8))
            XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self), file: file, line: line)
            return try JSONValue(json: Data(response.body))
        }

        /// The production channel's queue, as the kinds of its notifications.
        var queuedKinds: [String] { notifications.production.outbox.allRecords.map(\.notification.typeAndSubtype) }
    }

    func testAControlWriteAndAServerAPIWriteInProcessAreQueuedAsTheyReturn() throws {
        let app = try InProcess()
        let bought = try app.control("buyProduct", #"{"customer": "alice", "productId": "\#(Self.monthly)"}"#)
        XCTAssertEqual(app.queuedKinds, ["SUBSCRIBED/INITIAL_BUY"], "queued by the write, with no collect call and no HTTP")
        let original = try XCTUnwrap(bought["originalTransactionId"]?.stringValue)
        let extended = app.serverAPI.respond(to: ServerAPIRequest(
            method: "PUT", path: "/inApps/v1/subscriptions/extend/\(original)",
            body: Array(#"{"extendByDays":3,"extendReasonCode":1,"requestIdentifier":"in-process"}"#.utf8)))
        XCTAssertEqual(extended.status, 200, String(decoding: extended.body, as: UTF8.self))
        XCTAssertEqual(app.queuedKinds.count, 2, "the Server API's write is queued too: \(app.queuedKinds)")
        // Get Notification History in process lists both, in the order they happened.
        let history = app.serverAPI.respond(to: ServerAPIRequest(method: "POST", path: "/inApps/v1/notifications/history",
                                                                 body: Array(#"{"startDate": \#(Self.start - 1), "endDate": \#(Self.start + 1_000_000_000)}"#.utf8)))
        XCTAssertEqual(history.status, 200, String(decoding: history.body, as: UTF8.self))
        let listed = try JSONValue(json: Data(history.body))["notificationHistory"]?.arrayValue ?? []
        XCTAssertEqual(listed.count, 2)
        XCTAssertEqual(app.notifications.sandbox.outbox.count, 0, "the sandbox store recorded nothing")
        // A write straight on the store (the embedding code's) is queued the same way.
        try app.stores.production.write { state throws(StoreError) in
            _ = try state.buyProduct(customer: "bob", productId: Self.coins)
        }
        XCTAssertEqual(app.queuedKinds.last, "ONE_TIME_CHARGE")
        XCTAssertEqual(app.queuedKinds.count, 3)
    }

    /// Eight threads writing at once through the control handler: the queue (history's
    /// order) is the store's event order, every event once.
    func testConcurrentWritersQueueNotificationsInTheStoresEventOrder() throws {
        let app = try InProcess()
        let writers = 8
        let rounds = 25
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            for _ in 0..<rounds {
                let response = app.control.respond(method: "POST", path: "/forge/v1/buyProduct",
                                                   body: Array(#"{"customer": "writer-\#(writer)", "productId": "\#(Self.coins)"}"#.utf8))
                if response.status != 200 { failures.withLock { $0 += 1 } }
                // Readers in between: reading history must not disturb the queue.
                _ = app.notifications.production.outbox.count
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, 0)
        let channel = app.notifications.production
        let queued = channel.outbox.allRecords.compactMap { channel.event(of: $0.notification)?.sequence }
        let recorded = app.stores.production.read { $0.events.map(\.sequence) }
        XCTAssertEqual(recorded.count, writers * rounds)
        XCTAssertEqual(queued, recorded, "queue order is event order, each event once")
        XCTAssertEqual(queued, Array(1...(writers * rounds)))
    }

    /// At a time rate the clock records renewals with no write at all: the first access
    /// after them (a read) queues their notifications, with no call to the channel.
    func testARenewalTheRunningClockRecordsIsQueuedByTheNextRead() throws {
        let wall = Locked<Int64>(0)
        let clock = ScaledClockSource(start: Self.start, rate: 1_000, wallClock: { wall.withLock { $0 } })
        let store = LocalAppStore(StoreConfiguration(seed: 7, start: Self.start, customers: 0), clock: clock)
        let channel = try NotificationChannel(store: store, url: nil)
        try store.write { state throws(StoreError) in _ = try state.buyProduct(customer: "fay", productId: Self.monthly) }
        XCTAssertEqual(channel.outbox.allRecords.map(\.notification.typeAndSubtype), ["SUBSCRIBED/INITIAL_BUY"])
        // 40 store days pass on the wall clock (3,456 s at 1,000×): nobody has asked yet.
        wall.withLock { $0 += 40 * 86_400 }
        XCTAssertEqual(channel.outbox.count, 1)
        _ = store.read { $0.now }
        XCTAssertEqual(channel.outbox.allRecords.map(\.notification.typeAndSubtype), ["SUBSCRIBED/INITIAL_BUY", "DID_RENEW"])
    }

    func testASecondChannelOverTheSameStoreIsRefused() throws {
        let store = LocalAppStore(StoreConfiguration(environment: .sandbox, seed: 7, customers: 0))
        let first = try NotificationChannel(store: store, url: nil)
        XCTAssertThrowsError(try NotificationChannel(store: store, url: "http://127.0.0.1:1/")) { error in
            XCTAssertEqual(error as? EventFeedError, .storeHasAnEventConsumer(.sandbox))
            XCTAssertTrue("\(error)".contains("Sandbox store's events already go to another consumer"), "\(error)")
        }
        // Only the owner takes the store's events: another consumer gets none and takes none away.
        try store.write { state throws(StoreError) in _ = try state.buyProduct(customer: "carol", productId: Self.coins) }
        XCTAssertEqual(store.takeFedEvents(as: Stranger()), [])
        XCTAssertEqual(first.outbox.count, 1)
        let stores = LocalAppStores(StoreConfiguration(seed: 7, customers: 0))
        let server = try ServerNotifications(stores: stores)
        XCTAssertThrowsError(try ServerNotifications(stores: stores), "a second server's channels over the same stores")
        XCTAssertEqual(server.channels.count, 2)
    }

    func testAStoreWhoseChannelIsGoneTakesANewOne() throws {
        let store = LocalAppStore(StoreConfiguration(environment: .sandbox, seed: 7, customers: 0))
        do {
            let gone = try NotificationChannel(store: store, url: nil)
            XCTAssertEqual(gone.outbox.count, 0)
        }
        let next = try NotificationChannel(store: store, url: nil)
        try store.write { state throws(StoreError) in _ = try state.buyProduct(customer: "dan", productId: Self.coins) }
        XCTAssertEqual(next.outbox.count, 1)
    }

    /// A scenario's TEST notification takes the channel's path: queued after the events
    /// before it, with the channel's numbering (one counter, not one per caller).
    func testATestNotificationIsQueuedAfterTheEventsBeforeIt() throws {
        let app = try InProcess()
        _ = try app.control("buyProduct", #"{"customer": "erin", "productId": "\#(Self.coins)"}"#)
        let refused = app.serverAPI.respond(to: ServerAPIRequest(method: "POST", path: "/inApps/v1/notifications/test"))
        XCTAssertEqual(refused.status, 404, "no URL: Apple's 4040007")
        let channel = app.notifications.production
        let token = channel.queueTestNotification()
        XCTAssertEqual(app.queuedKinds, ["ONE_TIME_CHARGE", "TEST"])
        let signed = try XCTUnwrap(channel.outbox.record(notificationUUID: token).flatMap { channel.signedNotification($0.notification) })
        XCTAssertEqual(signed.notificationUUID, token)
        XCTAssertEqual(signed.kind, .test)
    }
}

/// A consumer the store never accepted.
private final class Stranger: StoreEventConsumer {
    func storeChanged(_ store: LocalAppStore) {}
}
