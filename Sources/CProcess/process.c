// glibc, musl and Darwin's dyld call the functions of .init_array (constructors) with the
// program's argc, argv and envp. Capturing them here needs no file and no descriptor.
#include "CProcess.h"

#include <errno.h>
#include <stddef.h>
#include <unistd.h>

static int captured_argc;
static char *const *captured_argv;

#if defined(__linux__)
// Absent (null) in a statically linked executable, present in a dynamically linked one.
extern char _DYNAMIC[] __attribute__((weak));

// A static binary's Swift runtime finds its own path through /proc/self/exe (dladdr knows no
// files there) and aborts without it. Say so and exit 71 (EX_OSERR) instead of a bare abort.
static void check_proc(void) {
  char path[16];
  if (_DYNAMIC != NULL || readlink("/proc/self/exe", path, sizeof path) >= 0 || errno != ENOENT)
    return;
  static const char message[] =
      "Error: shop can't start without /proc (the static build's runtime reads "
      "/proc/self/exe): mount /proc, or use a dynamically linked build\n";
  ssize_t ignored = write(2, message, sizeof message - 1);
  (void)ignored;
  _exit(71);
}
#endif

static void capture(int argc, char **argv, char **envp) {
  (void)envp;
  captured_argc = argc;
  captured_argv = argv;
#if defined(__linux__)
  check_proc();
#endif
}

// Priority 101, the first one free for programs: before the Swift runtime's own start-up.
#if defined(__APPLE__)
__attribute__((used, section("__DATA,__mod_init_func")))
#else
__attribute__((used, section(".init_array.00101")))
#endif
static void (*const shop_capture)(int, char **, char **) = capture;

int shop_process_argc(void) { return captured_argv ? captured_argc : 0; }
char *const *shop_process_argv(void) { return captured_argv; }
