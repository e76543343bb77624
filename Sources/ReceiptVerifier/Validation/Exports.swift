// The verifier's API speaks in the receipt model's types (`AppReceipt`,
// `VerdictReason`, `DeviceIdentifier`): importing ReceiptVerifier brings them along.
@_exported import Receipt
