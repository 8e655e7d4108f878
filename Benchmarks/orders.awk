# The peer `shop orders` is measured against: the same listing in mawk, byte for byte.
# Reads the orders file (JSON Lines) and prints, for each order,
#     1001  2026-11-30T06:06:43Z  pen=2 lamp=1  total 250  payable 225
# doing the checks `shop orders` does on every line: the number is the previous + 1 from 1001,
# the total is the sum of price × quantity, payable is the total less 10% from 200 up. A line
# that fails stops the listing with 65 at FILE:LINE, as shop does.
#
# Splitting on `"` puts every JSON string in an even field and what lies between strings (the
# `:`, numbers, brackets) in the odd ones, so keys are found by name whatever their order.
BEGIN { FS = "\""; expected = 1001 }
{
  number = ""; total = ""; payable = ""; placed = ""; items = ""; sum = 0; quantity = 0
  for (i = 2; i < NF; i += 2) {
    key = $i
    if (key == "sku") { sku = $(i + 2); i += 2 }
    else if (key == "placedAt") { placed = $(i + 2); i += 2 }
    else if (key == "quantity") {
      quantity = substr($(i + 1), 2) + 0
      items = items (items == "" ? "" : " ") sku "=" quantity
    }
    else if (key == "price") sum += (substr($(i + 1), 2) + 0) * quantity
    else if (key == "number") number = substr($(i + 1), 2) + 0
    else if (key == "total") total = substr($(i + 1), 2) + 0
    else if (key == "payable") payable = substr($(i + 1), 2) + 0
  }
  if (number != expected) bad("order " number " where " expected " was due")
  if (total != sum || payable != (total >= 200 ? total - int(total / 10) : total))
    bad("total or payable does not match the items")
  if (placed !~ /^[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z$/)
    bad("\"placedAt\" is not a time")
  expected++
  print number "  " placed "  " items "  total " total "  payable " payable
}
function bad(reason) {
  printf "Error: %s:%d: not an order: %s\n", FILENAME, FNR, reason > "/dev/stderr"
  exit 65
}
