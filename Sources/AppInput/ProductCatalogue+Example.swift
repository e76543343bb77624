extension ProductCatalogue {
    /// The example app's products (`com.example.receiptforge`): the ids its built-in
    /// receipts name, one of each kind, and two subscription groups. Within a group the
    /// products are listed from the highest level of service to the lowest, as Xcode's
    /// `groupNumber` orders them.
    public static let example = ProductCatalogue(products: [
        Product(id: "com.example.receiptforge.coins100", kind: .consumable),
        Product(id: "com.example.receiptforge.pro", kind: .nonConsumable),
        Product(id: "com.example.receiptforge.season", kind: .nonRenewingSubscription),
        Product(id: "com.example.receiptforge.subscription.yearly", kind: .autoRenewableSubscription,
                period: SubscriptionPeriod(checkedCount: 1, unit: .year), groupID: "21000001"),
        Product(id: "com.example.receiptforge.subscription.quarterly", kind: .autoRenewableSubscription,
                period: SubscriptionPeriod(checkedCount: 3, unit: .month),
                introductoryOffer: IntroductoryOffer(paymentMode: .payUpFront, period: SubscriptionPeriod(checkedCount: 3, unit: .month)),
                groupID: "21000001"),
        Product(id: "com.example.receiptforge.subscription.monthly", kind: .autoRenewableSubscription,
                period: SubscriptionPeriod(checkedCount: 1, unit: .month), groupID: "21000001"),
        Product(id: "com.example.receiptforge.subscription.weekly", kind: .autoRenewableSubscription,
                period: SubscriptionPeriod(checkedCount: 1, unit: .week),
                introductoryOffer: IntroductoryOffer(paymentMode: .free, period: SubscriptionPeriod(checkedCount: 1, unit: .week)),
                groupID: "21000001"),
        Product(id: "com.example.receiptforge.monthly", kind: .autoRenewableSubscription,
                period: SubscriptionPeriod(checkedCount: 1, unit: .month), groupID: "21000002"),
    ])
}
