/// The use case: prices a cart from the catalog, has the store number and save it, reports.
///
/// Every part arrives through the initializer as a non-optional `let`: a root that forgets
/// one does not compile.
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
  public func place(_ cart: Cart, reference: Reference? = nil) throws -> Outcome {
    let outcome: Outcome
    switch price(cart, reference: reference, at: clock.now()) {
    case .placed(let draft):
      guard let placement = try orders.place([draft]).first else {
        throw PlaceOrderError.storeSavedTooFew
      }
      outcome = try Outcome(placement, reference: reference)
    case .unknown(let skus):
      if let retry = try retried(cart, reference) {
        outcome = retry
      } else {
        var suggestions = Suggestions()
        outcome = .unknown(skus, suggestions: suggestions.for(skus, in: catalog))
      }
    case .tooLarge:
      guard let retry = try retried(cart, reference) else { return .tooLarge }
      outcome = retry
    }
    report.report(outcome, line: nil)
    do {
      try report.flush()
    } catch {
      guard case .placed(let order) = outcome else { throw error }
      throw ReportFailed(cause: error, lastSaved: order.number)
    }
    return outcome
  }

  /// What placing a group gave: how many requests were not placed, and the number of the
  /// last order placed (nil when none was).
  public struct GroupResult: Equatable, Sendable {
    public let rejected: Int
    public let lastNumber: Int?

    public init(rejected: Int, lastNumber: Int?) {
      self.rejected = rejected
      self.lastNumber = lastNumber
    }
  }

  /// Places a group of requests with one call to the store (one durable commit), then
  /// reports every request in input order.
  public func place(_ requests: [Request]) throws -> GroupResult {
    let now = clock.now()
    var pricings: [Result<Pricing, CartError>] = []
    pricings.reserveCapacity(requests.count)
    var drafts: [Draft] = []
    drafts.reserveCapacity(requests.count)
    for request in requests {
      switch request.cart {
      case .success(let cart):
        let pricing = price(cart, reference: request.reference, at: now)
        if case .placed(let draft) = pricing { drafts.append(draft) }
        pricings.append(.success(pricing))
      case .failure(let error):
        pricings.append(.failure(error))
      }
    }
    var saved = try drafts.isEmpty ? [] : orders.place(drafts)[...]
    var suggestions = Suggestions()
    var rejected = 0
    var lastNumber: Int?
    for (request, pricing) in zip(requests, pricings) {
      let outcome: Outcome
      switch pricing {
      case .success(.placed):
        guard let placement = saved.popFirst() else { throw PlaceOrderError.storeSavedTooFew }
        outcome = try Outcome(placement, reference: request.reference)
        if case .placed(let order) = outcome { lastNumber = order.number }
      case .success(.unknown(let skus)):
        outcome =
          try retried(request.cart, request.reference, placedLater: saved)
          ?? .unknown(skus, suggestions: suggestions.for(skus, in: catalog))
      case .success(.tooLarge):
        outcome = try retried(request.cart, request.reference, placedLater: saved) ?? .tooLarge
      case .failure(let error):
        outcome = .malformed(error)
      }
      switch outcome {
      case .placed, .alreadyPlaced: break
      case .unknown, .tooLarge, .malformed, .conflict: rejected += 1
      }
      report.report(outcome, line: request.line)
    }
    do {
      try report.flush()
    } catch {
      guard let lastNumber else { throw error }
      throw ReportFailed(cause: error, lastSaved: lastNumber)
    }
    return GroupResult(rejected: rejected, lastNumber: lastNumber)
  }

  /// What a request the catalog can't price (a SKU it no longer sells, a total too large) is,
  /// when the store already holds its reference: placed before, so a retry counts as placed
  /// (or conflicts, with other items); nil when the reference is new or there is none. Asked
  /// after the group is saved, so an earlier line of the group that took the reference counts.
  private func retried(_ cart: Cart, _ reference: Reference?) throws -> Outcome? {
    guard let reference, let held = try orders.order(holding: reference) else { return nil }
    return cart.hasSameItems(as: held) ? .alreadyPlaced(held) : .conflict(reference, held)
  }

  /// As ``retried(_:_:)``, for a line of a group: an order that a later line of the group
  /// placed (`placedLater`, the placements not yet reported) did not exist when this line
  /// came, so this line is answered as if it had come alone (the later one is the repeat).
  private func retried(
    _ cart: Result<Cart, CartError>, _ reference: Reference?,
    placedLater: ArraySlice<Placement>
  ) throws -> Outcome? {
    guard case .success(let cart) = cart, let outcome = try retried(cart, reference) else {
      return nil
    }
    let held: Order
    switch outcome {
    case .alreadyPlaced(let order), .conflict(_, let order): held = order
    default: return outcome
    }
    let newLater = placedLater.contains {
      if case .placed(let order) = $0 { return order.number == held.number }
      return false
    }
    return newLater ? nil : outcome
  }

  /// What pricing a cart gives, before the store has numbered the order.
  private enum Pricing {
    case placed(Draft)
    case unknown([String])
    case tooLarge
  }

  /// Suggestions for unknown SKUs, each looked up once per group: a batch may repeat the same
  /// typo on many lines, and a lookup reads the whole catalog.
  private struct Suggestions {
    private var known: [String: String?] = [:]

    mutating func `for`(_ skus: [String], in catalog: any Catalog) -> [String: String] {
      var found: [String: String] = [:]
      for sku in skus {
        let suggestion: String?
        if let cached = known[sku] {
          suggestion = cached
        } else {
          suggestion = catalog.suggestion(for: sku)
          known[sku] = .some(suggestion)
        }
        if let suggestion { found[sku] = suggestion }
      }
      return found
    }
  }

  private func price(_ cart: Cart, reference: Reference?, at now: Timestamp) -> Pricing {
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
    guard let draft = Draft(lines: lines, placedAt: now, reference: reference) else {
      return .tooLarge
    }
    return .placed(draft)
  }
}

extension Outcome {
  /// Only a draft with a reference can meet an order that holds it.
  fileprivate init(_ placement: Placement, reference: Reference?) throws(PlaceOrderError) {
    switch placement {
    case .placed(let order): self = .placed(order)
    case .alreadyPlaced(let order): self = .alreadyPlaced(order)
    case .conflict(let order):
      guard let reference else { throw .storeFoundNoReference }
      self = .conflict(reference, order)
    }
  }
}

/// The report failed (its reader went away, its disk is full) after the store saved the orders
/// it tells of: they are saved, and their reports may not have arrived, so a rerun that
/// places them again would place them twice.
public struct ReportFailed: Error {
  public let cause: any Error
  /// The last order saved that the failed report was telling of.
  public let lastSaved: Int

  public init(cause: any Error, lastSaved: Int) {
    self.cause = cause
    self.lastSaved = lastSaved
  }
}

/// A store broke the ``Orders`` promise of one placement per draft; never caused by input.
public enum PlaceOrderError: Error, Equatable, Sendable, CustomStringConvertible {
  case storeSavedTooFew
  case storeFoundNoReference

  public var description: String {
    switch self {
    case .storeSavedTooFew:
      return
        "internal error: the store saved fewer orders than it was given (please report this bug)"
    case .storeFoundNoReference:
      return "internal error: the store refused an order without a ref (please report this bug)"
    }
  }
}
