// The process's own arguments, as the C start-up code handed them over.
// The Swift runtime of a static Linux binary finds argv by reading /proc/self/maps, which
// fails without a free descriptor (`ulimit -n 3`) or without /proc; this reads neither.
#ifndef SHOP_CPROCESS_H
#define SHOP_CPROCESS_H

/// The number of arguments, the program's name included; 0 if start-up passed none.
int shop_process_argc(void);
/// The arguments, NULL-terminated; NULL if start-up passed none.
char *const *shop_process_argv(void);

// Extended attributes, which Swift's Glibc module leaves out (Darwin's has them): where the
// orders file keeps the record that its times are in order (FileOrders+TimeOrder.swift).
#if defined(__linux__)
#include <sys/xattr.h>
#endif

/// Makes an abort that follows a failed allocation (errno ENOMEM: the Swift runtime aborts when
/// it can't allocate) exit 71 with a message instead of dying of SIGABRT; any other abort
/// stays an abort.
void shop_exit_71_when_out_of_memory(void);

#endif
