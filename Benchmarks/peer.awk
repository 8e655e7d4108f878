# The peer `shop batch` is measured against: the same job in mawk. Reads the catalog CSV, then
# one order per line: looks up prices, applies the discount, numbers from 1001, appends one
# JSON line per order to OUT, reports unknown SKUs, and syncs the file at the end.
BEGIN { FS = "," }
FNR == NR {
  if ($1 != "sku") price[$1] = $2 + 0
  next
}
{
  n = split($0, items, /[ \t]+/)
  total = 0; unknown = ""; json = ""
  for (i = 1; i <= n; i++) {
    if (items[i] == "") continue
    eq = index(items[i], "=")
    sku = substr(items[i], 1, eq - 1); qty = substr(items[i], eq + 1) + 0
    if (!(sku in price)) { unknown = unknown (unknown == "" ? "" : ", ") sku; continue }
    total += price[sku] * qty
    json = json (json == "" ? "" : ",") "{\"sku\":\"" sku "\",\"quantity\":" qty ",\"price\":" price[sku] "}"
  }
  if (unknown != "") { print "no " unknown; next }
  number = (number ? number + 1 : 1001)
  payable = total >= 200 ? total - int(total / 10) : total
  printf "{\"number\":%d,\"items\":[%s],\"total\":%d,\"payable\":%d,\"placedAt\":\"%s\"}\n", \
    number, json, total, payable, strftime("%Y-%m-%dT%H:%M:%SZ", systime(), 1) > OUT
}
END { close(OUT); system("sync " OUT) }
