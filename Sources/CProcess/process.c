// glibc, musl and Darwin's dyld call the functions of .init_array (constructors) with the
// program's argc, argv and envp. Capturing them here needs no file and no descriptor.
#include "CProcess.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
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

// The Swift runtime stops a program whose allocation fails with abort(), errno still ENOMEM
// from malloc or mmap. Only async-signal-safe calls here: write, _exit, sigaction, raise.
static void on_abort(int signal_number) {
  if (errno == ENOMEM) {
    static const char message[] =
        "Error: shop ran out of memory (a memory limit, ulimit -v?): it stopped, and every "
        "order it reported is saved\n";
    ssize_t ignored = write(2, message, sizeof message - 1);
    (void)ignored;
    _exit(71);
  }
  struct sigaction plain;
  memset(&plain, 0, sizeof plain);
  plain.sa_handler = SIG_DFL;
  sigaction(signal_number, &plain, NULL);
  raise(signal_number);
}

void shop_exit_71_when_out_of_memory(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_abort;
  sigemptyset(&action.sa_mask);
  sigaction(SIGABRT, &action, NULL);
}
