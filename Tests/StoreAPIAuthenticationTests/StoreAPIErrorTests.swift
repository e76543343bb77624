import Foundation
import StoreAPIAuthentication
import StrictJSON
import TestSupport
import XCTest

/// The error table against the `APIError` enum of the Apple library installed in the
/// oracle venv (read at test time, never copied here), and each body through Apple's
/// own response parsing.
final class StoreAPIErrorTests: XCTestCase {
    struct PythonError: Decodable {
        let code: Int
        let name: String
    }

    func testEveryCodeOfApplesEnumIsInTheTableAndNoOther() throws {
        try PythonOracle.require(module: "appstoreserverlibrary")
        let script = """
            import json
            from appstoreserverlibrary.api_client import APIError
            print(json.dumps([{"code": e.value, "name": e.name} for e in APIError]))
            """
        let run = try ChildProcess.run(PythonOracle.executable, PythonOracle.arguments(["-c", script]))
        XCTAssertEqual(run.status, 0, run.standardError)
        let apple = try decodeJSON([PythonError].self, from: Array(run.standardOutput.utf8))
        XCTAssertGreaterThan(apple.count, 50, "the enum read back nearly empty")
        let appleNames = Dictionary(uniqueKeysWithValues: apple.map { ($0.code, $0.name) })
        let ours = Dictionary(uniqueKeysWithValues: StoreAPIError.allCases.map { ($0.code, $0.name) })
        XCTAssertEqual(Set(ours.keys).subtracting(appleNames.keys).sorted(), [], "codes Apple's enum does not have")
        XCTAssertEqual(Set(appleNames.keys).subtracting(ours.keys).sorted(), [], "codes of Apple's enum missing here")
        for (code, name) in appleNames {
            XCTAssertEqual(ours[code], name, "the name of \(code)")
        }
        // Apple names its retryable errors so; the table marks exactly those.
        XCTAssertEqual(Set(StoreAPIError.allCases.filter(\.isRetryable).map(\.code)),
                       Set(apple.filter { $0.name.hasSuffix("_RETRYABLE") }.map(\.code)))
        XCTAssertEqual(Set(StoreAPIError.allCases.filter(\.isRetryable).map(\.code)), [4040002, 4040004, 4040006, 5000001])
    }

    func testStatusIsTheFirstThreeDigitsAndTheBodyIsApplesShape() throws {
        for error in StoreAPIError.allCases {
            XCTAssertEqual(error.httpStatus, Int(String(error.code).prefix(3)), error.name)
            XCTAssertFalse(error.message.isEmpty, error.name)
            let body = try JSONInput.parse(error.body, file: error.name).decode(StoreAPIError.Body.self)
            XCTAssertEqual(body, StoreAPIError.Body(errorCode: error.code, errorMessage: error.message))
        }
        XCTAssertEqual(String(decoding: StoreAPIError.transactionIdNotFound.body, as: UTF8.self),
                       #"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#)
        XCTAssertEqual(StoreAPIError.rateLimitExceeded.httpStatus, 429)
    }

    /// Apple's Python client turns each body, sent with `Content-Type: application/json`,
    /// into an `APIException` with the enum member, the status and the message.
    func testApplesClientReadsEveryBody() throws {
        try PythonOracle.require(module: "appstoreserverlibrary")
        let script = """
            import json, sys
            from appstoreserverlibrary.api_client import AppStoreServerAPIClient, APIException
            client = AppStoreServerAPIClient.__new__(AppStoreServerAPIClient)
            answers = []
            for status, body in json.load(sys.stdin):
                try:
                    client._parse_response(status, {"content-type": sys.argv[1]}, lambda: json.loads(body), None)
                    answers.append(None)
                except APIException as e:
                    answers.append([e.http_status_code, e.api_error.name if e.api_error is not None else None, e.error_message])
            print(json.dumps(answers))
            """
        let input = "[" + StoreAPIError.allCases.map { error in
            "[\(error.httpStatus), \(JSONValue.string(String(decoding: error.body, as: UTF8.self)).jsonText)]"
        }.joined(separator: ",") + "]"
        let run = try ChildProcess.run(PythonOracle.executable, PythonOracle.arguments(["-c", script, StoreAPIError.contentType]),
                                       input: Data(input.utf8))
        XCTAssertEqual(run.status, 0, run.standardError)
        let answers = try JSONParser.parse(Array(run.standardOutput.utf8)).arrayValue ?? []
        XCTAssertEqual(answers.count, StoreAPIError.allCases.count)
        for (error, answer) in zip(StoreAPIError.allCases, answers) {
            XCTAssertEqual(answer[0]?.intValue, error.httpStatus, error.name)
            XCTAssertEqual(answer[1]?.stringValue, error.name, "\(error.code)")
            XCTAssertEqual(answer[2]?.stringValue, error.message, error.name)
        }
    }
}
