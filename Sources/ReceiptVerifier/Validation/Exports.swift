// The verifier's API speaks in the receipt model's types (`AppReceipt`,
// `VerdictReason`, `DeviceIdentifier`): importing ReceiptVerifier brings them along.
@_exported import Receipt
// Reading files (`FileReading`, `FileReadError`) lives in FileAccess, a module of its
// own so that the fuzz driver can use it without linking the verifier.
@_exported import FileAccess
