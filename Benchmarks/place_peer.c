/* The peer `shop place` is measured against: the least a program can do for the same durable
 * order, in C, linked static (Benchmarks/run builds it with `cc -O2 -static`).
 *
 *     place_peer FILE SKU=QTY...      prints: order N for P
 *
 * The same steps as `shop place --orders FILE` with the built-in catalog (pen 30, lamp 190):
 * open the file O_APPEND (creating it), take an exclusive flock, read the last complete line
 * from the end with pread (one read of the last 4 KiB for a line that fits), take its
 * "number", cut off a torn last line, append one JSON order line with one write, fsync,
 * unlock, print the report with one write. What it leaves out is what a minimal program
 * would: it checks only the last line's number, not its items and totals. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int fail(const char *what) {
    perror(what);
    return 74;
}

/* The offset of the last '\n' before `end`, or -1; reads backwards a 4 KiB block at a time. */
static long long newline_before(int fd, long long end) {
    char block[4096];
    while (end > 0) {
        long long start = end > (long long)sizeof block ? end - (long long)sizeof block : 0;
        ssize_t got = pread(fd, block, (size_t)(end - start), start);
        if (got != end - start) return -2;
        for (long long i = end - start - 1; i >= 0; i--)
            if (block[i] == '\n') return start + i;
        end = start;
    }
    return -1;
}

int main(int argc, char **argv) {
    static const struct { const char *sku; long long price; } catalog[] = {{"pen", 30}, {"lamp", 190}};
    if (argc < 3) {
        fprintf(stderr, "usage: place_peer FILE SKU=QTY...\n");
        return 64;
    }
    /* Price the order before touching the file, as shop does. */
    char items[4096];
    size_t used = 0;
    long long total = 0;
    for (int i = 2; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq) return 64;
        size_t sku_length = (size_t)(eq - argv[i]);
        long long quantity = atoll(eq + 1), price = -1;
        for (size_t c = 0; c < sizeof catalog / sizeof catalog[0]; c++)
            if (strlen(catalog[c].sku) == sku_length && !memcmp(catalog[c].sku, argv[i], sku_length))
                price = catalog[c].price;
        if (price < 0 || quantity < 1) {
            printf("no %.*s\n", (int)sku_length, argv[i]);
            return 1;
        }
        total += price * quantity;
        used += (size_t)snprintf(items + used, sizeof items - used,
                                 "%s{\"sku\":\"%.*s\",\"quantity\":%lld,\"price\":%lld}",
                                 i == 2 ? "" : ",", (int)sku_length, argv[i], quantity, price);
    }
    long long payable = total >= 200 ? total - total / 10 : total;

    int fd = open(argv[1], O_RDWR | O_APPEND | O_CLOEXEC | O_CREAT, 0644);
    if (fd < 0) return fail(argv[1]);
    while (flock(fd, LOCK_EX) != 0)
        ;
    struct stat status;
    if (fstat(fd, &status) != 0) return fail("fstat");
    long long file_end = status.st_size, complete_end = 0, number = 1001;
    /* One pread of the last 4 KiB finds the last line when it is shorter than that; a longer
     * one is read backwards a block at a time. */
    char block[4096];
    long long block_start = file_end > (long long)sizeof block ? file_end - (long long)sizeof block : 0;
    long long got = pread(fd, block, (size_t)(file_end - block_start), block_start);
    if (got != file_end - block_start) return fail("pread");
    long long last_newline = -1, line_start = -1;
    for (long long i = got - 1; i >= 0; i--)
        if (block[i] == '\n') {
            if (last_newline < 0) {
                last_newline = block_start + i;
            } else {
                line_start = block_start + i + 1;
                break;
            }
        }
    if (last_newline >= 0 && line_start < 0)
        line_start = block_start == 0 ? 0 : newline_before(fd, block_start) + 1;
    if (last_newline < 0 && block_start > 0) {
        last_newline = newline_before(fd, block_start);
        if (last_newline >= 0) line_start = newline_before(fd, last_newline) + 1;
    }
    if (last_newline == -2 || (last_newline >= 0 && line_start < 0)) return fail("pread");
    if (last_newline >= 0) {
        char line[65536];
        long long length = last_newline - line_start;
        if (length >= (long long)sizeof line) length = sizeof line - 1;
        if (line_start >= block_start) {
            memcpy(line, block + (line_start - block_start), (size_t)length);
        } else if (pread(fd, line, (size_t)length, line_start) != length) {
            return fail("pread");
        }
        line[length] = 0;
        char *field = strstr(line, "\"number\":");
        if (!field) {
            fprintf(stderr, "%s: the last order is unreadable\n", argv[1]);
            return 65;
        }
        number = atoll(field + 9) + 1;
        complete_end = last_newline + 1;
    }
    if (file_end != complete_end && ftruncate(fd, complete_end) != 0) return fail("ftruncate");

    /* UTC by hand (days to civil date, Howard Hinnant's algorithm), as shop does: gmtime
     * would read /etc/localtime first. */
    long long seconds = (long long)time(NULL), days = seconds / 86400, second_of_day = seconds % 86400;
    long long shifted = days + 719468, era = shifted / 146097, day_of_era = shifted - era * 146097;
    long long year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
    long long day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    long long shifted_month = (5 * day_of_year + 2) / 153;
    long long day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    long long month = shifted_month < 10 ? shifted_month + 3 : shifted_month - 9;
    long long year = year_of_era + era * 400 + (month <= 2);
    char stamp[80];
    snprintf(stamp, sizeof stamp, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ", year, month, day,
             second_of_day / 3600, second_of_day / 60 % 60, second_of_day % 60);
    char order[8192];
    int length = snprintf(order, sizeof order,
                          "{\"number\":%lld,\"items\":[%s],\"total\":%lld,\"payable\":%lld,"
                          "\"placedAt\":\"%s\"}\n",
                          number, items, total, payable, stamp);
    if (write(fd, order, (size_t)length) != length) return fail("write");
    if (fsync(fd) != 0) return fail("fsync");
    flock(fd, LOCK_UN);
    close(fd);
    char report[64];
    int report_length = snprintf(report, sizeof report, "order %lld for %lld\n", number, payable);
    return write(1, report, (size_t)report_length) == report_length ? 0 : 74;
}
