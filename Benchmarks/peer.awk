# The peer `shop batch` is measured against: the same job in mawk. Reads the catalog CSV, then
# one order per line: looks up prices, applies the discount, numbers from 1001, appends one
# JSON line per order to OUT, and reports each order (`order N for P`) or unknown SKUs.
#
# It groups its input as `shop batch` does a file: a group ends before the line that would
# start past 1 MiB of the group's input, or after 16,384 lines, whichever comes first (shop's
# BatchInput.groupBytes and groupLines). Per group it reads the clock once (every order of a group has
# the same placedAt), appends the group's orders, syncs OUT (`sync FILE`: one fsync), and only
# then prints the group's reports. With LOUD=1 the reports go to stdout as `shop batch` prints
# them; without (as `shop batch -q`), only unknown SKUs are reported, on stderr.
BEGIN { FS = ","; GROUP = 1048576; LINES = 16384; group = -1; reports = 0 }
FNR == NR {
  if ($1 != "sku") price[$1] = $2 + 0
  next
}
{
  if (group < 0 || consumed >= GROUP || lines >= LINES) {
    finish()
    group++
    consumed = 0; lines = 0
    stamp = strftime("%Y-%m-%dT%H:%M:%SZ", systime(), 1)
  }
  consumed += length($0) + 1
  lines++
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
  if (unknown != "") {
    if (LOUD) report[++reports] = "no " unknown
    else print "no " unknown > "/dev/stderr"
    next
  }
  number = (number ? number + 1 : 1001)
  payable = total >= 200 ? total - int(total / 10) : total
  printf "{\"number\":%d,\"items\":[%s],\"total\":%d,\"payable\":%d,\"placedAt\":\"%s\"}\n", \
    number, json, total, payable, stamp > OUT
  if (LOUD) report[++reports] = "order " number " for " payable
}
END { finish() }

# The end of a group: its orders are on disk before any of its reports is printed.
function finish(  k) {
  if (group < 0) return
  fflush(OUT)
  system("sync " OUT)
  for (k = 1; k <= reports; k++) print report[k]
  reports = 0
}
