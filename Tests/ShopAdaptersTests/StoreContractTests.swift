import ShopCore
import ShopTestSupport
import Testing

@testable import ShopAdapters

/// Every store `shop` ships keeps the promises of the store ports (``StoreContract``): each
/// promise on a fresh store, and "held forever" across a second instance of it.
struct StoreContractTests {
  @Test func theMemoryStoreKeepsEveryPromise() {
    let failures = StoreContract.checkWithVoids(fresh: { MemoryOrders() })
    #expect(failures.isEmpty, "\(failures)")
  }

  /// Each fresh store is a new file in a private folder; reopened, a new `FileOrders` on it.
  @Test func theFileStoreKeepsEveryPromise() throws {
    let folder = try TemporaryFolder()
    var files = 0
    let failures = StoreContract.checkWithVoids(
      fresh: {
        files += 1
        return FileOrders(path: folder.file("orders-\(files).jsonl"))
      },
      reopened: { store in FileOrders(path: store.path) })
    #expect(failures.isEmpty, "\(failures)")
    #expect(files == StoreContract.Promise.allCases.count, "a fresh file for each promise")
  }
}

/// PostgreSQL: a fresh database of the shared throwaway server for each promise; reopened, a
/// new connection to it. The promises of voids too, as soon as the store records them: the
/// overload for a store that conforms to ``OrderVoids`` is chosen by the compiler.
@Suite(
  .serialized,
  .enabled(if: PostgresServer.wanted, "PostgreSQL tests run with SHOP_TEST_POSTGRESQL=1"))
struct PostgresStoreContractTests {
  @Test func thePostgreSQLStoreKeepsEveryPromise() throws {
    let server = try PostgresServer.shared.get()
    var uris: [ObjectIdentifier: String] = [:]
    let failures = promises(
      fresh: {
        let uri = server.tcpURI(try server.makeDatabase())
        let store = PostgresOrders(uri: uri)
        uris[ObjectIdentifier(store)] = uri
        return store
      },
      reopened: { store in PostgresOrders(uri: uris[ObjectIdentifier(store)] ?? "") })
    #expect(failures.isEmpty, "\(failures)")
  }
}

/// The promises of a store's ports: those of ``Orders`` and ``OrderHistory``.
private func promises<Store: Orders & OrderHistory>(
  fresh: () throws -> Store, reopened: (Store) throws -> Store
) -> [StoreContract.Failure] {
  StoreContract.check(fresh: fresh, reopened: reopened)
}

/// And those of ``OrderVoids``, for a store that records voids.
private func promises<Store: Orders & OrderHistory & OrderVoids>(
  fresh: () throws -> Store, reopened: (Store) throws -> Store
) -> [StoreContract.Failure] {
  StoreContract.checkWithVoids(fresh: fresh, reopened: reopened)
}
