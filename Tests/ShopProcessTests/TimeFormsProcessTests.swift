import Foundation
import ShopTestSupport
import Testing

/// `--since` and `--until` take what tools write, given by a real shell: `date -u -Iseconds`,
/// `date -Iseconds` in another zone, and JavaScript's `toISOString()` form.
struct TimeFormsProcessTests {
  @Test func whatDateAndToISOStringWriteIsTaken() throws {
    let shop = try Shop()
    let orders = shop.folder.file("orders.jsonl")
    try shop.run("place", "--orders", orders, "pen=1")
    // An order placed now is at or after a minute ago, and before a minute from now.
    let run = try shop.shell(
      """
      set -e
      "$SHOP" summary --orders \(orders) --since "$(date -u -Iseconds -d '-1 minute')"
      TZ=Asia/Kolkata "$SHOP" orders --orders \(orders) --count \
        --until "$(TZ=Asia/Kolkata date -Iseconds -d '+1 minute')"
      "$SHOP" orders --orders \(orders) --count \
        --since "$(date -u -d '-1 minute' +%Y-%m-%dT%H:%M:%S.%3NZ)"
      "$SHOP" orders --orders \(orders) --count --since "$(date -u -Iseconds -d '+1 minute')"
      "$SHOP" orders --orders \(orders) --count --until yesterday
      """)
    #expect(
      run.status == 0
        && run.stdout == """
          orders 1  voided 0  total 30  payable 30  discount 0
          1
          1
          0
          0

          """,
      "\(run)")
  }
}
