import Foundation

/// The JSON body of a verifyReceipt request (VERIFYRECEIPT.md, "Request body").
public struct VerifyReceiptRequest: Sendable, Hashable {
    /// The receipt, decoded from `receipt-data` (Base64; whitespace and line breaks allowed).
    public var receipt: [UInt8]
    /// `password`: the app's shared secret, when sent.
    public var password: String?
    /// `exclude-old-transactions`: only the latest renewal of each subscription.
    public var excludeOldTransactions: Bool

    public init(receipt: [UInt8], password: String? = nil, excludeOldTransactions: Bool = false) {
        self.receipt = receipt
        self.password = password
        self.excludeOldTransactions = excludeOldTransactions
    }

    /// Why a body is not a usable request (answered with status 21002).
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public let description: String
    }

    /// Parses a request body: a JSON object with a Base64 `receipt-data` string, an
    /// optional `password` string and an optional `exclude-old-transactions` boolean
    /// (also the strings `"true"`/`"false"`, which some clients send). `null` counts as absent.
    public init(body: [UInt8]) throws(Failure) {
        let fields: Fields
        do {
            fields = try JSONDecoder().decode(Fields.self, from: Data(body))
        } catch let failure as Failure {
            throw failure
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw Failure(description: "the body is JSON but not an object")
        } catch {
            throw Failure(description: "the body is not JSON (\(body.count) bytes)")
        }
        guard let text = fields.receiptData else { throw Failure(description: "no receipt-data") }
        guard let receipt = Self.base64(text) else { throw Failure(description: "receipt-data is not Base64") }
        guard !receipt.isEmpty else { throw Failure(description: "receipt-data is empty") }
        self.init(receipt: receipt, password: fields.password, excludeOldTransactions: fields.excludeOldTransactions)
    }

    /// The members, type-checked one by one so the failure names the member.
    private struct Fields: Decodable {
        var receiptData: String?
        var password: String?
        var excludeOldTransactions = false

        enum Key: String, CodingKey {
            case receiptData = "receipt-data", password, excludeOldTransactions = "exclude-old-transactions"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            func member<T: Decodable>(_ type: T.Type, _ key: Key, _ expected: String) throws -> T? {
                do {
                    return try container.decodeIfPresent(type, forKey: key)
                } catch DecodingError.typeMismatch {
                    throw Failure(description: "\(key.rawValue) is not \(expected)")
                }
            }
            receiptData = try member(String.self, .receiptData, "a string")
            password = try member(String.self, .password, "a string")
            if let flag = try? container.decodeIfPresent(Bool.self, forKey: .excludeOldTransactions) {
                excludeOldTransactions = flag
            } else if let text = try? container.decodeIfPresent(String.self, forKey: .excludeOldTransactions),
                      text == "true" || text == "false" {
                excludeOldTransactions = text == "true"
            } else if (try? container.decodeNil(forKey: .excludeOldTransactions)) == false {
                throw Failure(description: "exclude-old-transactions is not a boolean")
            }
        }
    }

    /// Strict Base64 (standard alphabet, padded) after removing ASCII whitespace, as
    /// clients that wrap lines at 64 or 76 characters send it.
    static func base64(_ text: String) -> [UInt8]? {
        let compact = text.utf8.filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return Data(base64Encoded: Data(compact)).map { [UInt8]($0) }
    }
}
