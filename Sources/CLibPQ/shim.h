// libpq's client API; the include path comes from pkg-config (libpq.pc).
#include <libpq-fe.h>
