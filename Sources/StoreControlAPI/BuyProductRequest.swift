import LocalAppStore
import StrictJSON

/// `POST /forge/v1/buyProduct`: `{"customer", "productId", "quantity"?, "offer"?,
/// "appAccountToken"?, "familyShared"?, "storefront"?}` (SKTestSession's `buyProduct`).
struct BuyProductRequest: Decodable {
    var customer: String
    var productId: String
    var quantity: Int
    var offer: StoreOffer?
    var appAccountToken: String?
    var familyShared: [String]
    var storefront: Storefront

    enum CodingKeys: String, CodingKey, CaseIterable {
        case customer, productId, quantity, offer, appAccountToken, familyShared, storefront
    }

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownMembers(CodingKeys.self)
        let members = try decoder.container(keyedBy: CodingKeys.self)
        customer = try members.decode(String.self, forKey: .customer)
        productId = try members.decode(String.self, forKey: .productId)
        quantity = try members.optional(Int.self, forKey: .quantity) ?? 1
        offer = try members.optional(OfferRequest.self, forKey: .offer)?.offer
        appAccountToken = try members.optional(String.self, forKey: .appAccountToken)
        familyShared = try members.optional([String].self, forKey: .familyShared) ?? []
        storefront = try members.optionalChoice(Storefront.self, forKey: .storefront) ?? .usa
    }

    func apply(to state: inout StoreState) throws(StoreError) -> StoreActionResult {
        try state.buyProduct(customer: customer, productId: productId, quantity: quantity, offer: offer,
                             appAccountToken: appAccountToken, familyShared: familyShared, storefront: storefront)
    }
}

/// `{"type": "introductory"}`, or `{"type": "promotional" | "offerCode" | "winBack",
/// "id", "discountType"}` with Apple's `OfferDiscountType` (`FREE_TRIAL`, `PAY_AS_YOU_GO` …).
struct OfferRequest: Decodable {
    enum Kind: String, CaseIterable {
        case introductory, promotional, offerCode, winBack
    }

    var offer: StoreOffer

    enum CodingKeys: String, CodingKey, CaseIterable {
        case type, id, discountType
    }

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownMembers(CodingKeys.self)
        let members = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try members.choice(Kind.self, forKey: .type)
        guard kind != .introductory else {
            for key in [CodingKeys.id, .discountType] where members.contains(key) {
                throw DecodingError.dataCorrupted(.init(codingPath: members.codingPath + [key],
                                                        debugDescription: "an introductory offer is the product's own: it takes no \(key.stringValue)"))
            }
            offer = .introductory
            return
        }
        let id = try members.decode(String.self, forKey: .id)
        let discount = try members.choice(OfferDiscountType.self, forKey: .discountType)
        switch kind {
        case .introductory: offer = .introductory
        case .promotional: offer = .promotional(id: id, discount: discount)
        case .offerCode: offer = .offerCode(id: id, discount: discount)
        case .winBack: offer = .winBack(id: id, discount: discount)
        }
    }
}
