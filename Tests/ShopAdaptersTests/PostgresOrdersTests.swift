#if PostgreSQL
  import Foundation
  import ShopCore
  import ShopTestSupport
  import Testing

  @testable import ShopAdapters

  /// PostgresOrders against a real server: one shared throwaway server, a database per test.
  @Suite(.serialized, .enabled(if: PostgresServer.available, "no PostgreSQL server binaries"))
  struct PostgresOrdersTests {
    let time = Timestamp(secondsSince1970: 1_796_018_803)

    func draft(_ quantity: Int = 1, sku: String = "pen") throws -> Draft {
      try #require(
        Draft(
          lines: [OrderLine(sku: sku, quantity: quantity, price: 30)], placedAt: time))
    }

    func database() throws -> (PostgresServer, String) {
      let server = try PostgresServer.shared.get()
      return (server, try server.makeDatabase())
    }

    func all(_ store: PostgresOrders) throws -> [Order] {
      var orders: [Order] = []
      // swift-format-ignore: ReplaceForEachWithForLoop
      try store.readAll { order, stored in
        #expect(stored == nil)
        orders.append(order)
      }
      return orders
    }

    @Test func numbersContinueAcrossStoresAndReadBackAsSaved() throws {
      let (server, name) = try database()
      let uri = server.tcpURI(name)
      let first = try PostgresOrders(uri: uri).save([draft(), draft(2, sku: "ink-black")])
      #expect(first.map(\.number) == [1001, 1002])
      let second = try PostgresOrders(uri: server.socketURI(name)).save([draft(7)])
      #expect(second.map(\.number) == [1003])
      let store = PostgresOrders(uri: uri)
      #expect(try all(store) == first + second)
      #expect(try store.count() == 3)
      var last: [Int] = []
      try store.last(2) { order, _ in last.append(order.number) }
      #expect(last == [1002, 1003])
      last = []
      try store.last(10) { order, _ in last.append(order.number) }
      #expect(last == [1001, 1002, 1003])
      var found: Order?
      #expect(try store.order(numbered: 1002) { order, _ in found = order })
      #expect(found == first[1])
      #expect(try !store.order(numbered: 4711) { _, _ in })
      #expect(try store.save([]).isEmpty)
    }

    @Test func anEmptyDatabaseHasNoOrdersAndGetsTheTable() throws {
      let (server, name) = try database()
      let store = PostgresOrders(uri: server.tcpURI(name))
      #expect(try store.count() == 0)
      #expect(try all(store).isEmpty)
      #expect(try server.sql("SELECT count(*) FROM shop_orders", database: name) == "0\n")
    }

    @Test func threadsWithTheirOwnConnectionsNeverShareANumber() async throws {
      let (server, name) = try database()
      let uri = server.tcpURI(name)
      let drafts = [try draft(), try draft(2)]
      try await withThrowingTaskGroup(of: [Int].self) { group in
        for _ in 0..<6 {
          group.addTask {
            let store = PostgresOrders(uri: uri)
            var numbers: [Int] = []
            for _ in 0..<20 { numbers += try store.save(drafts).map(\.number) }
            return numbers
          }
        }
        var numbers: [Int] = []
        for try await some in group { numbers += some }
        #expect(numbers.sorted() == Array(1001...1240))
      }
      #expect(try all(PostgresOrders(uri: uri)).map(\.number) == Array(1001...1240))
    }

    @Test func badStoredDataIs65AndNamesTheOrder() throws {
      let (server, name) = try database()
      let store = PostgresOrders(uri: server.tcpURI(name))
      _ = try store.save([draft(), draft()])
      try server.sql("UPDATE shop_orders SET total = 31 WHERE number = 1002", database: name)
      let error = try #require(throws: PostgresError.self) { try all(store) }
      #expect(error.status == .dataError)
      #expect(error.message.contains("order 1002"))

      try server.sql("DELETE FROM shop_orders WHERE number = 1002", database: name)
      try server.sql(
        "INSERT INTO shop_orders SELECT 1003, placed_at, items, total, payable "
          + "FROM shop_orders WHERE number = 1001", database: name)
      let gap = try #require(throws: PostgresError.self) { try all(store) }
      #expect(gap.status == .dataError)
      #expect(gap.message.contains("1002"))
      #expect(throws: PostgresError.self) { try store.count() }
    }

    @Test func aServerNobodyRunsIs69AndNeverShowsThePassword() throws {
      let store = PostgresOrders(uri: "postgresql://shop:sekrit-word@127.0.0.1:1/orders")
      let error = try #require(throws: PostgresError.self) { try store.save([draft()]) }
      #expect(error.status == .unavailable)
      #expect(error.message.contains("'orders' on 127.0.0.1:1"))
      #expect(!error.message.contains("sekrit"))
      #expect(!error.message.contains("\n"))
    }

    @Test func aCommitWithNoAnswerIs75AndNamesTheCheck() throws {
      let (server, name) = try database()
      let store = PostgresOrders(uri: server.tcpURI(name))
      _ = try store.save([draft()])
      try server.sql(PostgresFaults.dropAtCommit, database: name)
      let error = try #require(throws: PostgresError.self) {
        try PostgresOrders(uri: server.tcpURI(name)).save([draft(), draft()])
      }
      #expect(error.status == .temporaryFailure)
      #expect(error.message.contains("orders 1002…1003"))
      #expect(error.message.contains("shop orders --last 2"))
      #expect(error.message.contains("unknown"))
    }

    @Test func aLargeGroupGoesByCopyWithTheSameGuarantees() throws {
      let (server, name) = try database()
      let uri = server.tcpURI(name)
      let store = PostgresOrders(uri: uri)
      let big = try (0..<PostgresOrders.copyFrom).map { try draft($0 % 7 + 1) }
      let saved = try store.save(big)  // First use: the table is created on the COPY path too.
      #expect(saved.map(\.number) == Array(1001..<(1001 + big.count)))
      let small = try store.save([draft(3)])
      #expect(small.map(\.number) == [1001 + big.count])
      #expect(try all(store) == saved + small)

      try server.sql(PostgresFaults.dropAtCommit, database: name)
      let error = try #require(throws: PostgresError.self) {
        try PostgresOrders(uri: uri).save(big)
      }
      #expect(error.status == .temporaryFailure)
      #expect(error.message.contains("orders \(1002 + big.count)…"))
      #expect(error.message.contains("shop orders --last \(big.count)"))
    }

    @Test func skuTextCanNotReachTheSQL() throws {
      // The core never lets such a SKU through; the store must be safe even so.
      let (server, name) = try database()
      let store = PostgresOrders(uri: server.tcpURI(name))
      let evil = #"pen"}]', now(), '[]', 0, 0); DROP TABLE shop_orders; --\"#
      _ = try store.save([draft(sku: evil)])
      #expect(try server.sql("SELECT count(*) FROM shop_orders", database: name) == "1\n")
      #expect(
        try server.sql("SELECT items->0->>'sku' FROM shop_orders", database: name) == evil + "\n")
    }
  }
#endif
