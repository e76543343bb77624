// The verifier's API speaks in StoreKit 2's types (`JWSVerificationStatus`, the payload
// models): importing StoreKit2Verifier brings them along.
@_exported import StoreKit2
