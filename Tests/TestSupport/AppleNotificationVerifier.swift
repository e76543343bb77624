import Foundation
import StrictJSON
import XCTest

/// Apple's `SignedDataVerifier` (app-store-server-library in the oracle venv; online
/// checks off) over signed notifications: each notification is verified and decoded,
/// and so is every JWS nested in it. Throws (naming Python's error) when any fails.
/// Skips, or fails when `CI` is set, without the library (`PythonOracle.require`).
public enum AppleNotificationVerifier {
    /// What Apple's library read from one notification.
    public struct Decoded: Decodable, Sendable, Equatable {
        public let notificationType: String
        public let subtype: String?
        public let notificationUUID: String
        /// `data.signedTransactionInfo`'s transaction id, when there is one.
        public let transactionId: String?
        /// `data.signedRenewalInfo`'s original transaction id, when there is one.
        public let renewalOriginalTransactionId: String?
        /// `summary.succeededCount` (RENEWAL_EXTENSION/SUMMARY).
        public let succeededCount: Int?

        /// `TYPE` or `TYPE/SUBTYPE`.
        public var kind: String { notificationType + (subtype.map { "/" + $0 } ?? "") }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `root`: the DER certificate the chains must end at (the forge's JWS root).
    public static func verify(_ signedPayloads: [String], root: [UInt8], bundleId: String, appAppleId: Int64) throws -> [Decoded] {
        try PythonOracle.require(module: "appstoreserverlibrary")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("apple-verifier-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let rootFile = scratch.appendingPathComponent("root.cer")
        try Data(root).write(to: rootFile)
        struct Input: Encodable {
            let rootFile: String
            let bundleId: String
            let appAppleId: Int64
            let signedPayloads: [String]
        }
        let input = try JSONEncoder().encode(Input(rootFile: rootFile.path, bundleId: bundleId, appAppleId: appAppleId,
                                                   signedPayloads: signedPayloads))
        let result = try ChildProcess.run(PythonOracle.executable, PythonOracle.arguments(["-c", script]), input: input,
                                          deadline: .seconds(240))
        guard result.status == 0 else { throw Failure(description: "Apple's verifier refused: \(result.standardError)") }
        return try JSONDecoder().decode([Decoded].self, from: Data(result.standardOutput.utf8))
    }

    private static let script = #"""
import json, sys
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

config = json.load(sys.stdin)
root = open(config["rootFile"], "rb").read()
verifier = SignedDataVerifier([root], False, Environment.PRODUCTION, config["bundleId"], config["appAppleId"])
answers = []
for signed in config["signedPayloads"]:
    notification = verifier.verify_and_decode_notification(signed)
    answer = {"notificationType": notification.rawNotificationType, "subtype": notification.rawSubtype,
              "notificationUUID": notification.notificationUUID}
    if notification.data is not None:
        if notification.data.signedTransactionInfo is not None:
            answer["transactionId"] = verifier.verify_and_decode_signed_transaction(notification.data.signedTransactionInfo).transactionId
        if notification.data.signedRenewalInfo is not None:
            answer["renewalOriginalTransactionId"] = verifier.verify_and_decode_renewal_info(notification.data.signedRenewalInfo).originalTransactionId
    if notification.summary is not None:
        answer["succeededCount"] = notification.summary.succeededCount
    answers.append(answer)
json.dump(answers, sys.stdout)
"""#
}
