/// The use case: prices a cart from the catalog, has the store number and save it, reports.
///
/// Every part arrives through the initializer as a non-optional `let`: a root that forgets
/// one does not compile, where the Objective-C original would run with a silent nil.
public struct PlaceOrder {
  private let catalog: any Catalog
  private let orders: any Orders
  private let clock: any WallClock
  private let report: any Report

  public init(catalog: any Catalog, orders: any Orders, clock: any WallClock, report: any Report) {
    self.catalog = catalog
    self.orders = orders
    self.clock = clock
    self.report = report
  }

  /// Places one order and reports it, placed or unknown.
  ///
  /// ``Outcome/tooLarge`` is returned but not reported: for a single order it is an error of
  /// the command, which the caller shows as such.
  public func place(_ cart: Cart) throws -> Outcome {
    let outcome = price(cart, at: clock.now())
    guard case .placed(let draft) = outcome else {
      if case .unknown(let skus) = outcome {
        report.report(.unknown(skus), line: nil)
        try report.flush()
        return .unknown(skus)
      }
      return .tooLarge
    }
    let orders = try self.orders.save([draft])
    guard let order = orders.first else { throw PlaceOrderError.storeSavedTooFew }
    report.report(.placed(order), line: nil)
    try report.flush()
    return .placed(order)
  }

  /// Places a group of requests with one call to the store (one durable commit), then
  /// reports every request in input order.
  /// - Returns: how many requests were not placed.
  public func place(_ requests: [Request]) throws -> Int {
    let now = clock.now()
    var pricings: [Pricing] = []
    pricings.reserveCapacity(requests.count)
    var drafts: [Draft] = []
    drafts.reserveCapacity(requests.count)
    for request in requests {
      switch request.cart {
      case .success(let cart):
        let pricing = price(cart, at: now)
        if case .placed(let draft) = pricing { drafts.append(draft) }
        pricings.append(pricing)
      case .failure(let error):
        pricings.append(.malformed(error))
      }
    }
    var saved = try drafts.isEmpty ? [] : orders.save(drafts)[...]
    var rejected = 0
    for (request, pricing) in zip(requests, pricings) {
      let outcome: Outcome
      switch pricing {
      case .placed:
        guard let order = saved.popFirst() else { throw PlaceOrderError.storeSavedTooFew }
        outcome = .placed(order)
      case .unknown(let skus):
        outcome = .unknown(skus)
      case .tooLarge:
        outcome = .tooLarge
      case .malformed(let error):
        outcome = .malformed(error)
      }
      if case .placed = outcome {} else { rejected += 1 }
      report.report(outcome, line: request.line)
    }
    try report.flush()
    return rejected
  }

  /// An outcome before the store has numbered the order.
  private enum Pricing {
    case placed(Draft)
    case unknown([String])
    case tooLarge
    case malformed(CartError)
  }

  private func price(_ cart: Cart, at now: Timestamp) -> Pricing {
    var lines: [OrderLine] = []
    lines.reserveCapacity(cart.items.count)
    var unknown: [String] = []
    for item in cart.items {
      if let price = catalog.price(of: item.sku) {
        lines.append(OrderLine(sku: item.sku, quantity: item.quantity, price: price))
      } else {
        unknown.append(item.sku)
      }
    }
    guard unknown.isEmpty else { return .unknown(unknown) }
    guard let draft = Draft(lines: lines, placedAt: now) else { return .tooLarge }
    return .placed(draft)
  }
}

/// A store broke the ``Orders`` promise of one order per draft; never caused by input.
public enum PlaceOrderError: Error, Equatable, Sendable {
  case storeSavedTooFew
}
