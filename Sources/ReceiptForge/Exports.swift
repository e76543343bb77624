// The forge's API speaks in the app description's types (`AppDescription`, `Platform`,
// `ProductCatalogue`): importing ReceiptForge brings them along.
@_exported import AppInput
